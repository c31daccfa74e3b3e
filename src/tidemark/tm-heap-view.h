/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmHeapView: the heap after one GC as a classification tree:
 * a GtkColumnView tree (name, objects, %, bytes, %, deep, retained),
 * sortable by every column, children built when a row is expanded; a
 * classifier-chain editor (add, remove, reorder; the data-structure
 * classifiers too); search; and "path to
 * GC roots" for the selected group.
 *
 * Everything heavy runs on workers: reading the graph and the dominator
 * tree, building the tree, then the deep and retained sizes of every
 * group (level by level, with progress; the columns fill in when done).
 * A new chain cancels the previous work.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-section.h"

G_BEGIN_DECLS

#define TM_TYPE_HEAP_VIEW (tm_heap_view_get_type ())
G_DECLARE_FINAL_TYPE (TmHeapView, tm_heap_view, TM, HEAP_VIEW, TmSection)

enum {
  TM_HEAP_VIEW_COLUMN_NAME,
  TM_HEAP_VIEW_COLUMN_OBJECTS,
  TM_HEAP_VIEW_COLUMN_OBJECTS_PERCENT,
  TM_HEAP_VIEW_COLUMN_BYTES,
  TM_HEAP_VIEW_COLUMN_BYTES_PERCENT,
  TM_HEAP_VIEW_COLUMN_DEEP,
  TM_HEAP_VIEW_COLUMN_RETAINED,
  TM_HEAP_VIEW_N_COLUMNS
};

/* The heap after gc_id of the session's document. */
GtkWidget   *tm_heap_view_new            (TmSession          *session,
                                          guint               gc_id);

/* The classifier chain (default: type). */
void         tm_heap_view_set_chain      (TmHeapView         *self,
                                          const TmClassifier *chain,
                                          guint               depth);
guint        tm_heap_view_get_chain      (TmHeapView         *self,
                                          TmClassifier       *chain);

/* TRUE while a worker runs; tree NULL until the first one is built.
 * metrics_ready: deep and retained sizes are shown. */
gboolean     tm_heap_view_is_busy        (TmHeapView         *self);
TmClassTree *tm_heap_view_get_tree       (TmHeapView         *self);
gboolean     tm_heap_view_get_metrics_ready (TmHeapView      *self);

/* The table as shown (rows of the expanded tree, in display order). */
guint        tm_heap_view_get_n_rows     (TmHeapView         *self);
char        *tm_heap_view_dup_cell       (TmHeapView         *self,
                                          guint               row,
                                          guint               column);
void         tm_heap_view_set_expanded   (TmHeapView         *self,
                                          guint               row,
                                          gboolean            expanded);
void         tm_heap_view_sort_by        (TmHeapView         *self,
                                          guint               column,
                                          gboolean            descending);

/* Selects the first group (in tree order after the selected one) whose
 * name contains `text`, case-insensitively, expanding its parents;
 * returns FALSE when none does. */
gboolean     tm_heap_view_search         (TmHeapView         *self,
                                          const char         *text);
/* The selected row, or GTK_INVALID_LIST_POSITION. */
guint        tm_heap_view_get_selected   (TmHeapView         *self);
void         tm_heap_view_select         (TmHeapView         *self,
                                          guint               row);

/* Starts "path to GC roots" for the selected group; the text appears in
 * the path panel (tm_heap_view_get_path_text) when the worker is done. */
void         tm_heap_view_show_path      (TmHeapView         *self);
const char  *tm_heap_view_get_path_text  (TmHeapView         *self);

G_END_DECLS
