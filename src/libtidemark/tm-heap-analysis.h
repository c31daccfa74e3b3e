/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmHeapAnalysis: the heap state right after one GC — the objects alive
 * then ("items", numbered 0..n-1 in allocation order) and, when the trace
 * has a reference graph at that GC, the graph (item = graph node) and its
 * dominator tree.  Immutable after construction except for internal
 * scratch space, which a mutex guards, so queries may come from any
 * thread.
 *
 * Group metrics (a group is any set of items):
 *   objects, bytes      shallow: the members themselves
 *   deep_*              the members and everything reachable from them
 *   retained_*          the members and everything that no root reaches
 *                       any more once all members are removed (exact for
 *                       shared ownership; see docs/heap-analysis.md)
 * deep and retained need the graph: TM_ERROR_NO_GRAPH otherwise.
 */
#pragma once

#include "tm-dominators.h"
#include "tm-trace-loader.h"

G_BEGIN_DECLS

typedef struct _TmHeapAnalysis TmHeapAnalysis;

typedef struct {
  guint64 objects;
  guint64 bytes;
  guint64 deep_objects;
  guint64 deep_bytes;
  guint64 retained_objects;
  guint64 retained_bytes;
} TmGroupMetrics;

/* Synchronous; meant for a worker thread.  Reads the graph of gc_id when
 * the trace has one there and computes its dominator tree.  Views and
 * commands ask TmDocument instead, which keeps one per GC. */
TmHeapAnalysis *tm_heap_analysis_new            (TmTrace        *trace,
                                                 guint32         gc_id,
                                                 TmProgressFunc  progress,
                                                 gpointer        progress_data,
                                                 GCancellable   *cancellable,
                                                 GError        **error);

/* For tests and importers: a graph built in memory (ownership taken, also
 * on error).  Its nodes become the items. */
TmHeapAnalysis *tm_heap_analysis_new_for_graph  (TmTrace        *trace,
                                                 TmHeapGraph    *graph,
                                                 GCancellable   *cancellable,
                                                 GError        **error);

TmHeapAnalysis *tm_heap_analysis_ref            (TmHeapAnalysis *self);
void            tm_heap_analysis_unref          (TmHeapAnalysis *self);

TmTrace        *tm_heap_analysis_get_trace      (TmHeapAnalysis *self);
guint32         tm_heap_analysis_get_gc         (TmHeapAnalysis *self);
/* item -> object index (ascending) */
const guint32  *tm_heap_analysis_get_objects    (TmHeapAnalysis *self, guint32 *n_items);
gboolean        tm_heap_analysis_has_graph      (TmHeapAnalysis *self);
/* NULL without a graph */
const TmHeapGraph     *tm_heap_analysis_get_graph      (TmHeapAnalysis *self);
const TmDominatorTree *tm_heap_analysis_get_dominators (TmHeapAnalysis *self);
guint64         tm_heap_analysis_item_size      (TmHeapAnalysis *self, guint32 item);

/* Metrics of the group `items` (duplicates allowed).  Without a graph
 * only objects and bytes are filled and, if `need_graph`, it fails with
 * TM_ERROR_NO_GRAPH. */
gboolean        tm_heap_analysis_group_metrics  (TmHeapAnalysis *self,
                                                 const guint32  *items,
                                                 guint32         n_items,
                                                 gboolean        need_graph,
                                                 TmGroupMetrics *out,
                                                 GCancellable   *cancellable,
                                                 GError        **error);

/* A shortest chain of references from a GC root to `item`: items, root
 * first, `item` last; *root_kind gets the root's TmRootKind.  Empty when
 * no root reaches the item.  Needs the graph. */
GArray         *tm_heap_analysis_path_to_root   (TmHeapAnalysis *self,
                                                 guint32         item,
                                                 guint          *root_kind,
                                                 GError        **error);

/* "GC 12 has no reference graph; the nearest GCs with one are 10 and 20"
 * (or "... the trace has none"). */
char           *tm_heap_analysis_no_graph_message (const TmTrace *trace, guint32 gc_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHeapAnalysis, tm_heap_analysis_unref)

G_END_DECLS
