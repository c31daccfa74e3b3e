/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmDocumentLoader: opens a trace on a worker thread (GTask) and builds the
 * chart model there too, so the main thread only receives finished,
 * immutable results.  Progress from the loader thread is coalesced into
 * one low-priority idle on the main context (as Sysprof's document loader
 * does), which notifies :fraction for the progress bar to bind to.
 */
#pragma once

#include <gio/gio.h>
#include "tm-trace.h"
#include "tm-timeline-model.h"
#include "tm-windows.h"

G_BEGIN_DECLS

#define TM_TYPE_DOCUMENT_LOADER (tm_document_loader_get_type ())
G_DECLARE_FINAL_TYPE (TmDocumentLoader, tm_document_loader, TM, DOCUMENT_LOADER, GObject)

TmDocumentLoader *tm_document_loader_new          (GFile *file);
GFile            *tm_document_loader_get_file     (TmDocumentLoader *self);
/* Further files read with the first as one timeline (rotated GC logs). */
void              tm_document_loader_set_more_files (TmDocumentLoader *self, GFile *const *files, guint n);
double            tm_document_loader_get_fraction (TmDocumentLoader *self);

void              tm_document_loader_load_async   (TmDocumentLoader    *self,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
/* Returns the trace (and its chart model in *model). */
TmTrace          *tm_document_loader_load_finish  (TmDocumentLoader    *self,
                                                   GAsyncResult        *result,
                                                   TmTimelineModel    **model,
                                                   GError             **error);

/* Suspicious window detection on a worker; returns TmWindow* (suspicious
 * ones only), owned by the array. */
void              tm_detect_windows_async         (TmTrace              *trace,
                                                   const TmWindowParams *params,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
GPtrArray        *tm_detect_windows_finish        (GAsyncResult         *result,
                                                   GError              **error);

G_END_DECLS
