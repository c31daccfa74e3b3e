/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Path to GC roots: why an object, or a group of objects, is still alive
 * after a GC.  For a group, its representative stands for it: the member
 * that alone retains the most bytes (the one whose release frees most),
 * the first such member in the group's order on a tie.  The path is a
 * shortest chain of references from a GC root to that object.
 */
#pragma once

#include "tm-classify.h"

G_BEGIN_DECLS

typedef struct {
  guint32  gc_id;
  guint32  object;           /* object index the path leads to */
  guint64  retained_bytes;   /* what `object` alone retains */
  guint    root_kind;        /* TmRootKind of objects[0] (tm_root_kind_to_string);
                              * valid when objects->len > 0 */
  GArray  *objects;          /* guint32 object indices, the root first and `object`
                              * last; empty when no root reaches it */
} TmRootPath;

void         tm_root_path_free              (TmRootPath     *path);

/* The representative of the items (heap items, duplicates allowed) and,
 * in *retained_bytes (may be NULL), what it retains; G_MAXUINT32 for no
 * items.  Needs the graph (its dominator tree). */
guint32      tm_heap_analysis_representative (TmHeapAnalysis *heap,
                                              const guint32  *items,
                                              guint32         n_items,
                                              guint64        *retained_bytes);

/* The path to `item` of `heap`; TM_ERROR_NO_GRAPH without a graph. */
TmRootPath  *tm_root_path_new               (TmHeapAnalysis *heap,
                                             guint32         item,
                                             GError        **error);

/* The path of a classification group (tm_class_tree_node): through its
 * representative; TM_ERROR_INVALID_ARGUMENT for an empty group. */
TmRootPath  *tm_root_path_new_for_group     (TmClassTree    *tree,
                                             guint32         node,
                                             GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmRootPath, tm_root_path_free)

G_END_DECLS
