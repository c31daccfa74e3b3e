/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmDominatorTree: the dominator tree of a TmHeapGraph, with a virtual
 * super-root above the GC roots, computed with semi-NCA (Georgiadis) on a
 * DFS renumbering of the reachable nodes.
 *
 * The tree is stored in its own preorder ("tree positions"): position 0
 * is the super-root, reachable graph nodes get 1..n_reachable, and the
 * subtree of position p is the contiguous range [p, p + size[p]).  Graph
 * nodes that no root reaches have position 0 and belong to no subtree.
 *
 * Retained objects of one object = size[position]; retained bytes =
 * retained_bytes[position].  See docs/heap-analysis.md.
 */
#pragma once

#include "tm-heap-graph.h"
#include "tm-trace-loader.h"

G_BEGIN_DECLS

#define TM_DOMINATOR_SUPER_ROOT 0u

/* Shallow sizes of graph nodes: obj_size indexed by *object* index
 * (through node_object), with TM_SIZE_OVERFLOW entries resolved through
 * `trace` when it is not NULL. */
typedef struct {
  const TmTrace  *trace;
  const guint32  *obj_size;
} TmObjectSizes;

static inline guint64
tm_object_sizes_get (const TmObjectSizes *s, guint32 object_index)
{
  guint32 v = s->obj_size[object_index];
  if (G_UNLIKELY (v == TM_SIZE_OVERFLOW) && s->trace != NULL)
    return tm_trace_object_size (s->trace, object_index);
  return v;
}

typedef struct {
  guint32  n_nodes;          /* graph nodes */
  guint32  n_reachable;      /* tree positions 1..n_reachable */
  guint32 *position;         /* graph node -> position, 0 when unreachable */
  guint32 *order;            /* position -> graph node (order[0] unused) */
  guint32 *idom;             /* position -> position of the immediate dominator */
  guint32 *size;             /* position -> nodes in its subtree (retained objects) */
  guint64 *retained_bytes;   /* position -> retained bytes */
  gsize    peak_bytes;       /* peak memory of the computation (benchmark) */
} TmDominatorTree;

/* progress may be NULL; it is called from the calling thread. */
TmDominatorTree *tm_dominator_tree_new   (const TmHeapGraph   *graph,
                                          const TmObjectSizes *sizes,
                                          TmProgressFunc       progress,
                                          gpointer             progress_data,
                                          GCancellable        *cancellable,
                                          GError             **error);
void             tm_dominator_tree_free  (TmDominatorTree     *tree);

/* How many trees tm_dominator_tree_new has started in this process (an
 * instrumentation counter: tests prove each GC is analysed once). */
guint            tm_dominator_tree_get_n_builds (void);

/* Graph node of the immediate dominator of `node`; G_MAXUINT32 when it is
 * the super-root or the node is unreachable. */
guint32          tm_dominator_tree_idom_node (const TmDominatorTree *tree, guint32 node);

/* TRUE if `a` dominates `b` (graph nodes; a node dominates itself). */
gboolean         tm_dominator_tree_dominates (const TmDominatorTree *tree, guint32 a, guint32 b);

/* The dominator chain from `node` up to (excluding) the super-root, as
 * graph nodes, innermost first.  Empty for unreachable nodes. */
GArray          *tm_dominator_tree_chain     (const TmDominatorTree *tree, guint32 node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmDominatorTree, tm_dominator_tree_free)

G_END_DECLS
