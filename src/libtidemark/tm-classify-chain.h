/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Classifier chains as users pick them (`heap`, `trend`, the app's heap
 * view and trend charts): any TmClassifier of tm-classify.h, including
 * the data-structure classifiers `leaves`, `deep-leaves`, `containing-ds`
 * (tm-ds-classify.h) and `root-path` (tm-root-classify.h).
 *
 * The data-structure levels need the structures detected on the heap
 * state's graph: they take them from the trace's TmHeapCache (which owns
 * the descriptions), so every tree, drill-down or trend point of the same
 * GC shares one detection.
 */
#pragma once

#include "tm-classify.h"
#include "tm-ds-classify.h"
#include "tm-heap-cache.h"

G_BEGIN_DECLS

gboolean     tm_chain_classifier_is_ds     (TmClassifier c);
/* data-structure and root-path levels: only at GCs with a reference
 * graph, with keys of their own per heap state (matched by label) */
gboolean     tm_chain_classifier_needs_graph (TmClassifier c);
TmDsClassifier tm_chain_classifier_ds      (TmClassifier c);
/* "type" ... "containing-ds" */
const char  *tm_chain_classifier_to_string (TmClassifier c);
/* "Type" ... "Containing data structure", untranslated */
const char  *tm_chain_classifier_title     (TmClassifier c);   /* marked N_(): the app translates */
gboolean     tm_chain_classifier_from_string (const char *name, TmClassifier *out);

/* Parses "containing-ds,type" (entries trimmed, empty ones skipped);
 * TM_ERROR_INVALID_ARGUMENT naming the bad entry and the known ones, or
 * for none or more than TM_CLASSIFY_MAX_DEPTH - 1 classifiers. */
gboolean     tm_classify_chain_parse       (const char    *list,
                                            TmClassifier  *chain,
                                            guint         *depth,
                                            GError       **error);
gboolean     tm_classify_chain_needs_ds    (const TmClassifier *chain,
                                            guint               depth);
gboolean     tm_classify_chain_needs_graph (const TmClassifier *chain,
                                            guint               depth);

/* Fills levels[0..depth) for `chain` on `heap`.  Data-structure levels
 * hold a reference to the detection of heap's GC in `heaps` (the cache of
 * heap's trace; detected now when not kept), released with the tree (or
 * tm_classify_chain_levels_clear when no tree takes them).
 * TM_ERROR_NO_GRAPH when a data-structure or root-path level is asked for at a GC
 * without a reference graph; TM_ERROR_INVALID_ARGUMENT when one is asked
 * for and heaps is NULL. */
gboolean     tm_classify_chain_levels     (TmHeapCache        *heaps,
                                           TmHeapAnalysis     *heap,
                                           const TmClassifier *chain,
                                           guint               depth,
                                           TmClassLevel       *levels,
                                           GCancellable       *cancellable,
                                           GError            **error);
void         tm_classify_chain_levels_clear (TmClassLevel     *levels,
                                             guint             depth);

/* A level with one group, "Data structures", holding the heads of the
 * data-structure view (structures not inside another one): `heap
 * --data-structures`. */
gboolean     tm_classify_heads_level      (TmHeapCache        *heaps,
                                           TmHeapAnalysis     *heap,
                                           TmClassLevel       *level,
                                           GCancellable       *cancellable,
                                           GError            **error);

/* The classification tree of `heap` by `chain` (tm_class_tree_new_for_levels). */
TmClassTree *tm_classify_chain_tree       (TmHeapCache        *heaps,
                                           TmHeapAnalysis     *heap,
                                           const TmClassifier *chain,
                                           guint               depth,
                                           GCancellable       *cancellable,
                                           GError            **error);

G_END_DECLS
