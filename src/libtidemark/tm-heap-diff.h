/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Heap compare: two classification trees of the same trace with the same
 * classifier chain (the heap after GC A and after GC B) merged into one
 * tree whose nodes carry both sides' metrics.  A group present on one
 * side only has zeros on the other.  Groups match by classifier key for
 * the built-in classifiers (a type, a site, a thread: trace-wide
 * indices), by label for the others (data-structure levels, whose keys
 * are per heap).
 *
 * Shallow metrics are filled when the diff is built; deep and retained
 * ones on demand, per node from the two trees' caches
 * (tm_heap_diff_compute_metrics), and only when both GCs have a
 * reference graph.
 */
#pragma once

#include "tm-classify.h"

G_BEGIN_DECLS

typedef enum {
  TM_HEAP_METRIC_OBJECTS,
  TM_HEAP_METRIC_BYTES,
  TM_HEAP_METRIC_DEEP_OBJECTS,
  TM_HEAP_METRIC_DEEP_BYTES,
  TM_HEAP_METRIC_RETAINED_OBJECTS,
  TM_HEAP_METRIC_RETAINED_BYTES,
  TM_N_HEAP_METRICS
} TmHeapMetric;

/* "objects", "bytes", "deep-objects", ... (the CLI's --metric names). */
const char  *tm_heap_metric_to_string   (TmHeapMetric m);
gboolean     tm_heap_metric_from_string (const char *name, TmHeapMetric *out);
/* TRUE for the deep and retained metrics (they need the graph). */
gboolean     tm_heap_metric_needs_graph (TmHeapMetric m);
guint64      tm_group_metrics_get       (const TmGroupMetrics *m, TmHeapMetric metric);

typedef struct {
  guint32        parent;        /* TM_CLASS_NODE_NONE for the root */
  guint32        level;         /* 0 = Overall */
  guint32        first_child;   /* children are contiguous */
  guint32        n_children;
  guint32        before_node;   /* node of the `before` tree, or TM_CLASS_NODE_NONE */
  guint32        after_node;    /* node of the `after` tree, or TM_CLASS_NODE_NONE */
  char          *label;
  gboolean       has_metrics;   /* deep/retained of both sides filled in */
  TmGroupMetrics before;
  TmGroupMetrics after;
} TmHeapDiffNode;

typedef struct _TmHeapDiff TmHeapDiff;

struct _TmHeapDiff {
  /*< private >*/
  gint         ref_count;
  GMutex       lock;
  /*< public, read-only >*/
  TmClassTree *before;
  TmClassTree *after;
  gboolean     has_graph;     /* both GCs have a reference graph */
  GArray      *nodes;         /* TmHeapDiffNode; 0 is the root */
};

/* Merges two trees of one trace built with the same levels (refs taken
 * on both).  Children of each node are in descending order of the bytes
 * delta.  TM_ERROR_INVALID_ARGUMENT when the chains differ. */
TmHeapDiff  *tm_heap_diff_new              (TmClassTree   *before,
                                            TmClassTree   *after,
                                            GCancellable  *cancellable,
                                            GError       **error);
TmHeapDiff  *tm_heap_diff_ref              (TmHeapDiff *diff);
void         tm_heap_diff_unref            (TmHeapDiff *diff);

static inline const TmHeapDiffNode *
tm_heap_diff_node (const TmHeapDiff *diff, guint32 index)
{
  return &g_array_index (diff->nodes, TmHeapDiffNode, index);
}

guint32      tm_heap_diff_get_from_gc      (TmHeapDiff *diff);
guint32      tm_heap_diff_get_to_gc        (TmHeapDiff *diff);

/* Deep and retained sizes of both sides of one node (cached in the
 * trees).  TM_ERROR_NO_GRAPH unless both GCs have a graph.  Thread-safe. */
gboolean     tm_heap_diff_compute_metrics  (TmHeapDiff    *diff,
                                            guint32        index,
                                            GCancellable  *cancellable,
                                            GError       **error);
/* Every node, with progress; for a worker thread. */
gboolean     tm_heap_diff_compute_all      (TmHeapDiff     *diff,
                                            TmProgressFunc  progress,
                                            gpointer        progress_data,
                                            GCancellable   *cancellable,
                                            GError        **error);
/* Copies a node's sides; FALSE (shallow values only) until its deep and
 * retained sizes are computed.  Safe while another thread computes. */
gboolean     tm_heap_diff_get_metrics      (TmHeapDiff     *diff,
                                            guint32         index,
                                            TmGroupMetrics *before,
                                            TmGroupMetrics *after);

/* after - before of one metric (reads the node as computed so far). */
gint64       tm_heap_diff_delta            (TmHeapDiff   *diff,
                                            guint32       index,
                                            TmHeapMetric  metric);

/* The children of `index` sorted by the delta of `metric`, largest growth
 * first (then the larger `after`, then the tree order); computes their
 * deep/retained sizes first when `metric` needs them.  A new array of
 * node indices. */
GArray      *tm_heap_diff_sorted_children  (TmHeapDiff   *diff,
                                            guint32       index,
                                            TmHeapMetric  metric,
                                            GCancellable *cancellable,
                                            GError      **error);

/* The node a label path ("A/B", tm_class_path_split) names, or
 * TM_CLASS_NODE_NONE. */
guint32      tm_heap_diff_find_path        (TmHeapDiff *diff,
                                            const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHeapDiff, tm_heap_diff_unref)

G_END_DECLS
