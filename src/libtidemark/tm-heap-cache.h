/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmHeapCache: the one per-GC cache of heap states of a trace.  An entry
 * holds the heap after one GC (TmHeapAnalysis: graph + dominator tree)
 * and, once asked for, the data structures detected on it with the
 * cache's descriptions.  Every consumer (heap trees, TrendViz, data
 * structure growth, path to roots; app and CLI alike) asks here, so a
 * GC's graph is read and its dominator tree built once while it stays.
 *
 * Least recently used entries go once their items (graph nodes) exceed
 * the budget; the entry in use is kept even when alone above it.
 * Thread-safe: a state being built by one worker is waited for, not built
 * twice.  Entries are reference counted, so a result that borrows a heap
 * (a classification level, a TmDsGrowth) keeps it alive after eviction.
 */
#pragma once

#include "tm-heap-analysis.h"
#include "tm-ds-detect.h"
#include "tm-dsl.h"

G_BEGIN_DECLS

typedef struct _TmHeapCache TmHeapCache;

/* A cached heap state; fields read-only. */
typedef struct {
  /*< private >*/
  gint            ref_count;
  /*< public >*/
  TmHeapAnalysis *heap;
  TmDsResult     *ds;        /* NULL until tm_heap_cache_get_ds */
} TmHeapState;

#define TM_HEAP_CACHE_DEFAULT_BUDGET (16u * 1024 * 1024)

/* `dsl`: the data-structure descriptions (ownership taken; NULL: the
 * shipped ones are loaded on the first data-structure request).
 * `graph_fd`: an open handle of the trace file graphs are re-read from
 * (duplicated; -1: the trace reopens its path). */
TmHeapCache     *tm_heap_cache_new        (TmTrace     *trace,
                                           TmDsl       *dsl,
                                           int          graph_fd,
                                           guint64      max_items);
TmHeapCache     *tm_heap_cache_ref        (TmHeapCache *cache);
void             tm_heap_cache_unref      (TmHeapCache *cache);
TmTrace         *tm_heap_cache_get_trace  (TmHeapCache *cache);

/* Replaces the descriptions (ownership taken) and drops every detection
 * made with the old ones (heaps stay). */
void             tm_heap_cache_set_dsl    (TmHeapCache *cache,
                                           TmDsl       *dsl);
/* The descriptions (valid until the next set_dsl); loads the shipped
 * ones when none were given.  NULL with an error only when those cannot
 * be read. */
const TmDsl     *tm_heap_cache_get_dsl    (TmHeapCache *cache,
                                           GError     **error);
/* The descriptions applied to the trace's types (tm_ds_types_new_for_trace),
 * safe against a concurrent set_dsl. */
TmDsTypes       *tm_heap_cache_new_ds_types (TmHeapCache *cache,
                                             GError     **error);

/* The heap after gc_id (a new reference), from the cache or built now.
 * progress (may be NULL) is called on this thread while it is built. */
TmHeapAnalysis  *tm_heap_cache_get        (TmHeapCache    *cache,
                                           guint32         gc_id,
                                           TmProgressFunc  progress,
                                           gpointer        progress_data,
                                           GCancellable   *cancellable,
                                           GError        **error);

/* The state after gc_id with its data structures detected (a new
 * reference; tm_heap_state_unref).  TM_ERROR_NO_GRAPH at a GC without a
 * reference graph. */
TmHeapState     *tm_heap_cache_get_ds     (TmHeapCache    *cache,
                                           guint32         gc_id,
                                           GCancellable   *cancellable,
                                           GError        **error);

/* Puts a heap built elsewhere (tests, importers: tm_heap_analysis_new_for_graph)
 * in the cache as the state of its GC, replacing what was there. */
void             tm_heap_cache_insert     (TmHeapCache    *cache,
                                           TmHeapAnalysis *heap);

TmHeapState     *tm_heap_state_ref        (TmHeapState *state);
void             tm_heap_state_unref      (TmHeapState *state);

/* Counters for tests and benchmarks: states kept now, requests answered
 * from the cache, heap states built, data-structure detections run. */
guint            tm_heap_cache_get_n_kept     (TmHeapCache *cache);
guint64          tm_heap_cache_get_hits       (TmHeapCache *cache);
guint            tm_heap_cache_get_n_built    (TmHeapCache *cache);
guint            tm_heap_cache_get_n_detected (TmHeapCache *cache);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHeapCache, tm_heap_cache_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHeapState, tm_heap_state_unref)

G_END_DECLS
