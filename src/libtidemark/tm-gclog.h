/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HotSpot GC log importer: JDK 9+ unified logging (-Xlog:gc, -Xlog:gc*)
 * and the JDK 8 (and older) -XX:+PrintGCDetails / -verbose:gc format.
 * Every stop-the-world pause or concurrent cycle becomes one GC of the
 * timeline; docs/importers.md describes the mapping per collector.
 */
#pragma once

#include "tm-trace-loader.h"

G_BEGIN_DECLS

gboolean tm_gclog_sniff  (const guint8 *head, gsize len);
TmTrace *tm_gclog_import (const char     *path,
                          TmProgressFunc  progress,
                          gpointer        progress_data,
                          GCancellable   *cancellable,
                          GError        **error);
/* The same under a memory budget (options may be NULL: the defaults). */
TmTrace *tm_gclog_import_full (const char          *path,
                               const TmLoadOptions *options,
                               TmProgressFunc       progress,
                               gpointer             progress_data,
                               GCancellable        *cancellable,
                               GError             **error);
/* Several files as one log (the rotated parts gc.log.0 ... gc.log.N),
 * read in the order of their first time stamps; parts that overlap in
 * time are reported.  The trace's path is the earliest part; META
 * "gclog.files" lists the parts in the order read. */
TmTrace *tm_gclog_import_series (const char *const *paths, guint n, const TmLoadOptions *options,
                                 TmProgressFunc progress, gpointer progress_data, GCancellable *cancellable,
                                 GError **error);
/* The same from memory (plain or compressed); name is used in messages. */
TmTrace *tm_gclog_import_bytes (const guint8 *data, gsize len, const char *name, GError **error);

G_END_DECLS
