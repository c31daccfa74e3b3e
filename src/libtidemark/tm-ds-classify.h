/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The data-structure classifiers of cli.md (`leaves`, `deep-leaves`,
 * `containing-ds`) as one level of a classification tree, for the heap
 * analysis' tree builder (tm-classify.h).  Unlike the plain classifiers
 * they may put one object into several groups, or replace it:
 *
 *   leaves         a structure's head becomes its leaves (LEAF and NESTED
 *                  members), grouped under the structure; objects that
 *                  head no structure are dropped
 *   deep-leaves    the same with the leaves of every nested structure too
 *   containing-ds  an object goes to the group of every structure that
 *                  has it as a member (not as its head); objects in no
 *                  structure go to TM_DS_CLASSIFY_NONE's group
 *
 * Keys are structure indices of the TmDsResult (< n_structures), plus
 * the key TM_DS_CLASSIFY_NONE(result) for "in no data structure".  Items
 * are heap analysis items, which are graph nodes.
 */
#pragma once

#include "tm-ds-detect.h"

G_BEGIN_DECLS

typedef enum {
  TM_DS_CLASSIFIER_LEAVES,
  TM_DS_CLASSIFIER_DEEP_LEAVES,
  TM_DS_CLASSIFIER_CONTAINING_DS,
  TM_DS_N_CLASSIFIERS
} TmDsClassifier;

#define TM_DS_CLASSIFY_NONE(result) ((result)->n_structures)

/* (Their names "leaves", "deep-leaves", "containing-ds" are in the
 * registry of tm-classify-chain.h.) */
/* Keys are < this. */
guint32     tm_ds_classifier_domain      (const TmDsResult *result);

/* Classifies `items` (graph nodes, duplicates allowed): appends pairs to
 * `keys` and `out_items` (guint32 each, same length), in input order. */
void        tm_ds_classify               (TmDsResult       *result,
                                          TmDsClassifier    c,
                                          const guint32    *items,
                                          guint32           n_items,
                                          GArray           *keys,
                                          GArray           *out_items);

/* "java.util.HashMap @1234", or "(no data structure)"; owned by the caller. */
char       *tm_ds_classifier_key_label   (const TmDsResult *result,
                                          const TmTrace    *trace,
                                          guint32           key);

G_END_DECLS
