/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTraceBuilder: builds a TmTrace from events, in stream order.  The
 * .tmtrace loader, the GC log and heaptrack importers and the tests all
 * feed it.  Ids are the ids of the source (>= 1); the builder interns them.
 *
 * Functions returning gboolean fail (with TM_ERROR_FORMAT) on events that
 * break the format's rules (an undefined id, a GC out of order...).  The
 * caller decides whether to skip the event (the loader does, and records a
 * warning) or to stop.
 */
#pragma once

#include "tm-trace.h"
#include "tm-load-options.h"
#include "tm-trace-reader.h"

G_BEGIN_DECLS

typedef struct _TmTraceBuilder TmTraceBuilder;

typedef struct {
  guint32     version;
  guint64     start_unix_ns;
  const char *vm_name;
  const char *vm_version;
  const char *command_line;
  guint32     pointer_size;
  guint64     alloc_sample_bytes;
  guint32     flags;
} TmTraceHeader;

typedef struct {
  guint64 space_id;       /* id in the source */
  guint64 used_before;
  guint64 used_after;
  guint64 committed_after;
} TmSpaceUsageRecord;

typedef struct {
  guint64 object_id;
  guint32 kind;
  guint64 thread_id;
} TmRootRecord;

TmTraceBuilder *tm_trace_builder_new        (const char *path, const char *format);
void            tm_trace_builder_free       (TmTraceBuilder *b);

/* The memory budget of the model (tm-load-options.h); 0 = the default,
 * which a new builder starts with.  An event that would take the model
 * past it fails with TM_ERROR_MEMORY_LIMIT and from then on
 * tm_trace_builder_over_memory_limit() is TRUE: the source should stop
 * reading and call tm_trace_builder_stop_at_memory_limit(), which records
 * the warning ("loading stopped at WHERE: ...") and where it stopped. */
void     tm_trace_builder_set_memory_limit     (TmTraceBuilder *b, guint64 bytes);
gboolean tm_trace_builder_over_memory_limit    (TmTraceBuilder *b);
void     tm_trace_builder_stop_at_memory_limit (TmTraceBuilder *b, guint64 offset, const char *where);
/* TRUE when the model plus `extra` bytes (an importer's transient tables)
 * would not fit the budget. */
gboolean tm_trace_builder_would_exceed         (TmTraceBuilder *b, guint64 extra);
/* What the budget leaves to the model now (0 past the limit); *charged
 * gets what the model takes. */
guint64  tm_trace_builder_room                 (TmTraceBuilder *b, guint64 *charged);
/* After tm_trace_builder_stop_at_memory_limit(): lets a source that holds
 * what it read before the cut (its estimate stayed within the budget)
 * record it: the GC it was in, the GC log's events; then nothing more. */
void     tm_trace_builder_close_past_limit     (TmTraceBuilder *b);
/* Memory an importer keeps for the model's sake (its own tables): counts
 * against the same budget. */
gboolean tm_trace_builder_charge               (TmTraceBuilder *b, guint64 bytes, GError **error);

/* Streaming (TmLoadOptions.partial_timeline): the builder calls `func`
 * with the timeline of the GCs settled so far, from GC_START events. */
void     tm_trace_builder_set_partial_timeline (TmTraceBuilder *b, TmPartialTimelineFunc func, gpointer data);

/* A copy of `s` owned by the trace being built (one per distinct string),
 * for names that many events share (GC causes, collectors). */
const char *tm_trace_builder_intern (TmTraceBuilder *b, const char *s);

void     tm_trace_builder_header      (TmTraceBuilder *b, const TmTraceHeader *h);
gboolean tm_trace_builder_space       (TmTraceBuilder *b, guint64 id, guint kind, const char *name, GError **error);
gboolean tm_trace_builder_type        (TmTraceBuilder *b, guint64 id, const char *name, guint32 flags, GError **error);
/* The superclass and interfaces of a defined type (TYPE's trailing
 * fields).  They may name types defined later; ids still undefined at
 * the end of the trace resolve to "unknown" with a warning. */
gboolean tm_trace_builder_type_hierarchy (TmTraceBuilder *b, guint64 id, guint64 super_id, guint n_interfaces,
                                          const guint64 *interface_ids, GError **error);
gboolean tm_trace_builder_frame       (TmTraceBuilder *b, guint64 id, const char *method, const char *file, gint64 line, GError **error);
gboolean tm_trace_builder_site        (TmTraceBuilder *b, guint64 id, guint32 depth, const guint64 *frame_ids, GError **error);
gboolean tm_trace_builder_thread      (TmTraceBuilder *b, guint64 id, const char *name, GError **error);
void     tm_trace_builder_meta        (TmTraceBuilder *b, const char *key, const char *value);

gboolean tm_trace_builder_alloc       (TmTraceBuilder *b, guint64 object_id, guint64 type_id, guint64 site_id,
                                       guint64 thread_id, guint64 size, guint64 space_id, guint64 array_length,
                                       GError **error);
/* Many objects at once, for sources without sites, threads or spaces
 * (heap dumps): ids first_object_id + k for k < n, each with its type id
 * and size.  An object that tm_trace_builder_alloc() would refuse is
 * skipped and the others are still added; the first problem is returned. */
gboolean tm_trace_builder_alloc_run   (TmTraceBuilder *b, guint64 first_object_id, gsize n, const guint32 *type_ids,
                                       const guint64 *sizes, GError **error);
/* ALLOC records decoded on the reader's thread, fields at `first`, the next
 * `stride` bytes on: adds them while each is the plain case (dense ids,
 * defined type, site, thread and space, a row free, a 32-bit size) and
 * returns how many it added, *prev_id following them.  The caller passes
 * the record it stopped at to tm_trace_builder_alloc(), which says what
 * is wrong with it, if anything. */
gsize    tm_trace_builder_alloc_fields (TmTraceBuilder *b, guint64 *prev_id, const TmAllocFields *first,
                                        gsize stride, gsize n);
/* An allocation's fields by the source's ids, shared by many
 * allocations (heaptrack's allocation infos). */
typedef struct {
  guint64 type_id, site_id, thread_id, size;
} TmAllocKind;

/* For sources that see every death as it happens (native frees, "died
 * now"): the allocations since the last GC_START, at once, right before
 * the GC_START at end_ns that closes their interval.  Allocation k has id
 * first_object_id + k and the kind items[k] (an index into `kinds`, whose
 * entries are `kind_stride` bytes apart and must not change once used),
 * with TM_TRACE_BUILDER_DIED if it already died.  The dead ones never
 * become rows: they go into the interval's short-lived counters, as the
 * fold would put them; the others become rows.  Returns the number of
 * dead ones, or -1 when this is not the plain case (ids not dense, a kind
 * undefined or of 4 GiB or more, rows already added since the GC_START,
 * a source that keeps all rows...; *error set only for the memory
 * limit): then add them one by one with tm_trace_builder_alloc() and
 * tm_trace_builder_deaths(), which say what is wrong, if anything. */
#define TM_TRACE_BUILDER_DIED (1u << 31)
gint64   tm_trace_builder_alloc_interval (TmTraceBuilder *b, guint64 first_object_id, const guint32 *items, gsize n,
                                          const TmAllocKind *kinds, gsize kind_stride, guint32 n_kinds,
                                          guint64 end_ns, GError **error);
/* gc_id 0: died now (native free); otherwise died in GC gc_id. */
gboolean tm_trace_builder_death       (TmTraceBuilder *b, guint64 gc_id, guint64 object_id, GError **error);
/* The same for many objects at once (a DEATHS record); on a bad id the
 * others are still applied and the first problem is returned. */
gboolean tm_trace_builder_deaths      (TmTraceBuilder *b, guint64 gc_id, const guint64 *object_ids, gsize n,
                                       GError **error);
gboolean tm_trace_builder_move        (TmTraceBuilder *b, guint64 space_id, guint64 object_id, GError **error);
void     tm_trace_builder_tick        (TmTraceBuilder *b, guint64 time_ns);

gboolean tm_trace_builder_gc_start    (TmTraceBuilder *b, guint64 gc_id, guint64 time_ns, guint kind,
                                       const char *collector, const char *cause, GError **error);
gboolean tm_trace_builder_gc_end      (TmTraceBuilder *b, guint64 gc_id, guint64 time_ns, guint64 pause_ns,
                                       guint n_usage, const TmSpaceUsageRecord *usage, GError **error);

/* Reference graphs.  frame_offset/raw_skip say where GRAPH_BEGIN can be
 * found again in the file (0/0 when the source cannot be re-read). */
gboolean tm_trace_builder_graph_begin (TmTraceBuilder *b, guint64 gc_id, guint64 frame_offset,
                                       guint64 raw_skip, GError **error);
gboolean tm_trace_builder_roots       (TmTraceBuilder *b, guint n, const TmRootRecord *roots, GError **error);
gboolean tm_trace_builder_refs        (TmTraceBuilder *b, guint64 object_id, guint n, const guint64 *target_ids,
                                       GError **error);
/* n REFS records at once (tm_trace_reader_peek_refs()'s layout): adds
 * them while each is one tm_trace_builder_refs() would take without an
 * error and returns how many it added; the caller passes the record it
 * stopped at to tm_trace_builder_refs(). */
gsize    tm_trace_builder_refs_run    (TmTraceBuilder *b, const guint64 *ids, const guint32 *n_targets,
                                       gsize stride, gsize n);
gboolean tm_trace_builder_graph_end   (TmTraceBuilder *b, guint64 gc_id, guint64 objects_listed, GError **error);

/* The whole graph of GC gc_id at once, for sources that hold it (heap
 * dumps): in place of GRAPH_BEGIN, ROOTS, REFS and GRAPH_END.  Nodes are
 * the objects first_object_id + i for i < n; node i references the nodes
 * dst[off[i] .. off[i + 1]); roots are nodes.  The arrays stay the
 * caller's.  Marking checks `cancellable` (FALSE with G_IO_ERROR_CANCELLED,
 * the GC then has no graph) and reports the share of the nodes it reached
 * so far to `progress` (may be NULL). */
gboolean tm_trace_builder_graph_csr   (TmTraceBuilder *b, guint64 gc_id, guint64 first_object_id, guint32 n,
                                       const guint32 *off, const guint32 *dst, const guint32 *roots, guint n_roots,
                                       GCancellable *cancellable, void (*progress) (double fraction, gpointer data),
                                       gpointer progress_data, GError **error);

/* A graph walk for GC gc_id was attempted and failed (a GRAPH_BEGIN
 * still open for it is dropped): reachable memory there is unknown. */
gboolean tm_trace_builder_graph_failed  (TmTraceBuilder *b, guint64 gc_id, const char *reason, GError **error);
/* When the graph of GC gc_id was taken (TmGraphContext). */
gboolean tm_trace_builder_graph_context (TmTraceBuilder *b, guint64 gc_id, guint context, GError **error);

/* An OutOfMemoryError: gc_before = GCs completed before it. */
/* A concurrent phase, cycle or stall of a GC log (phases must come in
 * start order); strings are interned. */
gboolean tm_trace_builder_gc_phase    (TmTraceBuilder *b, const TmGcPhase *phase, GError **error);
gboolean tm_trace_builder_oom         (TmTraceBuilder *b, guint64 time_ns, guint64 gc_before, guint64 thread_id,
                                       guint kind, const char *message, GError **error);

void     tm_trace_builder_end         (TmTraceBuilder *b, guint64 allocs, guint64 deaths, guint64 gcs, guint64 time_ns);

/* A problem in the input at byte offset `offset`; the message should not
 * repeat the file name (the builder prefixes "FILE: "). */
void     tm_trace_builder_warning     (TmTraceBuilder *b, guint64 offset, const char *format, ...) G_GNUC_PRINTF (3, 4);
/* The file that warnings from now on are about (the trace's path): for
 * a trace read from several files. */
void     tm_trace_builder_set_path    (TmTraceBuilder *b, const char *path);
/* Reading stopped early at `offset` (cut short or damaged). */
void     tm_trace_builder_stopped     (TmTraceBuilder *b, guint64 offset);

/* Finishes the model: drops an unfinished trailing GC, computes live
 * objects per GC, checks END's totals.  Consumes the builder. */
TmTrace *tm_trace_builder_finish      (TmTraceBuilder *b);
/* Every object keeps its row, also the ones that die in their first GC
 * (which otherwise become short-lived counters): for sources that find
 * objects again by their position (HPROF dumps, re-read per graph). */
void     tm_trace_builder_keep_all_rows (TmTraceBuilder *b);

/* Transactions (TX_KIND, TRANSACTION): a run of an operator-named method
 * and the objects its thread allocated meanwhile (already ALLOCed). */
gboolean tm_trace_builder_container_op (TmTraceBuilder *b, guint64 kind, guint64 time_ns, guint64 container_id,
                                        guint64 element_id, guint64 site_id, guint64 thread_id, GError **error);
gboolean tm_trace_builder_tx_kind     (TmTraceBuilder *b, guint64 id, const char *name, GError **error);
gboolean tm_trace_builder_transaction (TmTraceBuilder *b, guint64 id, guint64 kind_id, guint64 thread_id,
                                       guint64 begin_ns, guint64 end_ns, const guint64 *object_ids, gsize n,
                                       GError **error);

G_END_DECLS
