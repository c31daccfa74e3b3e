/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one-click report: a self-contained HTML file (no external
 * resources; charts as PNG data URIs drawn by the shared renderers) with
 * the run's charts, the suspicious windows and their explanations, and
 * per range the top data structures, allocations, GC summary and advice
 * (tm-report.h).  One code path for `tidemark-cli report` and the app.
 */
#pragma once

#include "tm-report.h"

G_BEGIN_DECLS

/* The report as an HTML document (UTF-8). */
GBytes   *tm_report_html         (const TmReport  *report,
                                  GCancellable    *cancellable,
                                  GError         **error);

/* Computes the report (tm_report_compute: windows NULL for the default
 * detection, window -1 for the whole run) and writes it to `path`
 * atomically; progress 0..1 over both. */
gboolean  tm_report_write        (TmDocument      *document,
                                  GPtrArray       *windows,
                                  int              window,
                                  const char      *path,
                                  TmProgressFunc   progress,
                                  gpointer         progress_data,
                                  GCancellable    *cancellable,
                                  GError         **error);
/* The same on the document's worker (tm_document_run_async). */
void      tm_report_write_async  (TmDocument         *document,
                                  GPtrArray          *windows,
                                  int                 window,
                                  const char         *path,
                                  TmProgressFunc      progress,
                                  gpointer            progress_data,
                                  GCancellable       *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer            user_data);
gboolean  tm_report_write_finish (TmDocument      *document,
                                  GAsyncResult    *result,
                                  GError         **error);

G_END_DECLS
