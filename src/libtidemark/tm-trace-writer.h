/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTraceWriter: writes trace format v1 (docs/trace-format.md).  Closes a
 * zstd frame after every GC_END and every 8 MiB of raw stream (and on
 * tm_trace_writer_flush()), so a cut file stays readable up to its last
 * frame.  Not thread-safe: callers serialise.
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>
#include "tm-trace-builder.h"

G_BEGIN_DECLS

typedef struct _TmTraceWriter TmTraceWriter;

/* compress = FALSE writes the raw stream (readers accept it too). */
TmTraceWriter *tm_trace_writer_new_for_path   (const char *path, gboolean compress, GError **error);
TmTraceWriter *tm_trace_writer_new_for_fd     (int fd, gboolean close_fd, gboolean compress);
TmTraceWriter *tm_trace_writer_new_for_memory (gboolean compress);

void     tm_trace_writer_set_level      (TmTraceWriter *w, int zstd_level);
void     tm_trace_writer_set_frame_size (TmTraceWriter *w, gsize raw_bytes);

void     tm_trace_writer_header      (TmTraceWriter *w, const TmTraceHeader *h);
void     tm_trace_writer_space       (TmTraceWriter *w, guint64 id, guint kind, const char *name);
void     tm_trace_writer_type        (TmTraceWriter *w, guint64 id, const char *name, guint32 flags);
/* TYPE with its superclass (0 = none) and directly implemented interfaces
 * as trailing fields. */
void     tm_trace_writer_type_full   (TmTraceWriter *w, guint64 id, const char *name, guint32 flags,
                                      guint64 super_id, guint n_interfaces, const guint64 *interface_ids);
void     tm_trace_writer_frame       (TmTraceWriter *w, guint64 id, const char *method, const char *file, gint64 line);
void     tm_trace_writer_site        (TmTraceWriter *w, guint64 id, guint32 depth, const guint64 *frame_ids);
void     tm_trace_writer_thread      (TmTraceWriter *w, guint64 id, const char *name);
void     tm_trace_writer_meta        (TmTraceWriter *w, const char *key, const char *value);

void     tm_trace_writer_alloc       (TmTraceWriter *w, guint64 object_id, guint64 type_id, guint64 site_id,
                                      guint64 thread_id, guint64 size, guint64 space_id, guint64 array_length);
/* ids need not be sorted: the writer sorts a copy. */
void     tm_trace_writer_deaths      (TmTraceWriter *w, guint64 gc_id, const guint64 *ids, gsize n);
void     tm_trace_writer_moves       (TmTraceWriter *w, guint64 space_id, const guint64 *ids, gsize n);
void     tm_trace_writer_tick        (TmTraceWriter *w, guint64 time_ns);
void     tm_trace_writer_gc_start    (TmTraceWriter *w, guint64 gc_id, guint64 time_ns, guint kind,
                                      const char *collector, const char *cause);
void     tm_trace_writer_gc_end      (TmTraceWriter *w, guint64 gc_id, guint64 time_ns, guint64 pause_ns,
                                      guint n, const TmSpaceUsageRecord *usage);
void     tm_trace_writer_graph_begin (TmTraceWriter *w, guint64 gc_id);
void     tm_trace_writer_roots       (TmTraceWriter *w, guint n, const TmRootRecord *roots);
void     tm_trace_writer_refs        (TmTraceWriter *w, guint64 object_id, guint n, const guint64 *targets);
void     tm_trace_writer_graph_end   (TmTraceWriter *w, guint64 gc_id, guint64 objects_listed);
/* After GC_END gc_id (and instead of, or after an aborted, GRAPH_BEGIN). */
void     tm_trace_writer_graph_failed  (TmTraceWriter *w, guint64 gc_id, const char *reason);
/* context: a TmGraphContext; after GC_END gc_id. */
void     tm_trace_writer_graph_context (TmTraceWriter *w, guint64 gc_id, guint context);
/* kind: a TmOomKind; gc_before: GCs completed before the error. */
void     tm_trace_writer_oom         (TmTraceWriter *w, guint64 time_ns, guint64 gc_before, guint64 thread_id,
                                      guint kind, const char *message);
/* Transactions: a kind (an operator-named method), then one record per
 * finished run with the objects its thread allocated (ids need not be
 * sorted: the writer sorts a copy). */
/* CONTAINER_OP: kind is a TmContainerOpKind. */
void     tm_trace_writer_container_op (TmTraceWriter *w, guint kind, guint64 time_ns, guint64 container_id,
                                       guint64 element_id, guint64 site_id, guint64 thread_id);
void     tm_trace_writer_tx_kind     (TmTraceWriter *w, guint64 id, const char *name);
void     tm_trace_writer_transaction (TmTraceWriter *w, guint64 id, guint64 kind_id, guint64 thread_id,
                                      guint64 begin_ns, guint64 end_ns, const guint64 *object_ids, gsize n);
void     tm_trace_writer_end         (TmTraceWriter *w, guint64 allocs, guint64 deaths, guint64 gcs, guint64 time_ns);

/* Any record, for extensions and tests (unknown tags, broken payloads). */
void     tm_trace_writer_raw_record  (TmTraceWriter *w, guint8 tag, const guint8 *payload, gsize len);

/* Writes out and closes the current zstd frame. */
gboolean tm_trace_writer_flush       (TmTraceWriter *w, GError **error);
/* Flushes, closes the file; returns the first error met while writing. */
gboolean tm_trace_writer_close       (TmTraceWriter *w, GError **error);
/* For memory writers, after close: the bytes written. */
GBytes  *tm_trace_writer_steal_bytes (TmTraceWriter *w);
guint64  tm_trace_writer_raw_bytes   (TmTraceWriter *w);
guint64  tm_trace_writer_file_bytes  (TmTraceWriter *w);
void     tm_trace_writer_free        (TmTraceWriter *w);

G_END_DECLS
