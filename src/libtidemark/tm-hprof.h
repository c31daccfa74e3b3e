/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HPROF heap dumps (JAVA PROFILE 1.0.1 and 1.0.2, as written by
 * `jcmd PID GC.heap_dump`, `jmap -dump` and -XX:+HeapDumpOnOutOfMemoryError;
 * identifiers of 4 or 8 bytes; plain, gzip or zstd compressed).  A dump
 * becomes a trace with one heap state: one GC (the dump) with its
 * reference graph.  Several dumps of one process become one trace with one
 * GC per dump, in time order (docs/importers.md).
 *
 * The graph is not kept in memory: like a trace's graphs it is read again
 * from the file when an analysis asks for it (tm_heap_graph_read), and
 * then carries field names for its references.
 */
#pragma once

#include "tm-trace-loader.h"
#include "tm-heap-graph.h"

G_BEGIN_DECLS

gboolean     tm_hprof_sniff       (const guint8 *head, gsize len);
TmTrace     *tm_hprof_import      (const char     *path,
                                   TmProgressFunc  progress,
                                   gpointer        progress_data,
                                   GCancellable   *cancellable,
                                   GError        **error);
/* The same under a memory budget (options may be NULL: the defaults). */
TmTrace     *tm_hprof_import_full (const char          *path,
                                   const TmLoadOptions *options,
                                   TmProgressFunc       progress,
                                   gpointer             progress_data,
                                   GCancellable        *cancellable,
                                   GError             **error);
/* Several dumps, sorted by their time stamps into one timeline. */
TmTrace     *tm_hprof_import_many (const char * const *paths,
                                   guint               n_paths,
                                   const TmLoadOptions *options,
                                   TmProgressFunc      progress,
                                   gpointer            progress_data,
                                   GCancellable       *cancellable,
                                   GError            **error);
/* The graph of GC gc_id (one dump), with field names as edge labels. */
TmHeapGraph *tm_hprof_graph_read  (TmTrace       *trace,
                                   guint32        gc_id,
                                   GCancellable  *cancellable,
                                   GError       **error);

G_END_DECLS
