/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A decision tree over the knowledge base (the second retrieval method
 * the GC-advice paper names, beside k nearest neighbours): for one goal,
 * the entries that have a best configuration for it are split on the
 * feature and threshold that lower the Gini impurity of their
 * configurations most (CART), until a node is pure, has one entry or
 * reaches the depth limit.  Unlike kNN it says why: a query follows the
 * conditions down to a leaf, and the leaf names the workloads it holds.
 * Thresholds lie halfway between neighbouring feature values; ties go to
 * the lower feature index, then the lower threshold; a leaf's
 * configuration is its most frequent one, ties to the first in the
 * knowledge base's order.
 */
#pragma once

#include "tm-gc-config.h"

G_BEGIN_DECLS

typedef struct _TmKbTree TmKbTree;

typedef struct {
  TmGcConfig  config;
  GPtrArray  *conditions;   /* char*: "log10 live MiB > 2.25", one per feature
                             * on the path (its tightest bounds), root first */
  GPtrArray  *like;         /* char*: names of the leaf's workloads */
} TmKbDecision;

/* NULL when no entry has a configuration for `goal`.  The tree borrows
 * kb's entries: free it before kb. */
TmKbTree *tm_kb_tree_build  (const TmKb *kb, TmGoal goal, guint max_depth);
void      tm_kb_tree_free   (TmKbTree *tree);
/* Follows the tree for `features`; fills `out` (clear it with
 * tm_kb_decision_clear). */
void      tm_kb_tree_decide (const TmKbTree *tree, const TmGcFeatures *features, TmKbDecision *out);
void      tm_kb_decision_clear (TmKbDecision *decision);
/* Nodes in the tree (tests). */
guint     tm_kb_tree_n_nodes (const TmKbTree *tree);

#define TM_KB_TREE_DEPTH 3

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmKbTree, tm_kb_tree_free)

G_END_DECLS
