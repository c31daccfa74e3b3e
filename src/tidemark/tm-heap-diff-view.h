/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmHeapDiffView: "Compare Heaps": the heaps after two GCs in one
 * classification tree (tm-heap-diff.h), each group with its objects,
 * bytes and retained bytes before, after and the change, most grown
 * first; two GC pickers, a two-level classifier choice, drill-down by
 * expanding a group, and the path to GC roots of a selected group in
 * the later heap.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-section.h"
#include "tm-root-path-panel.h"

G_BEGIN_DECLS

#define TM_TYPE_HEAP_DIFF_VIEW (tm_heap_diff_view_get_type ())
G_DECLARE_FINAL_TYPE (TmHeapDiffView, tm_heap_diff_view, TM, HEAP_DIFF_VIEW, TmSection)

enum {
  TM_HEAP_DIFF_COLUMN_NAME,
  TM_HEAP_DIFF_COLUMN_OBJECTS_BEFORE,
  TM_HEAP_DIFF_COLUMN_OBJECTS_AFTER,
  TM_HEAP_DIFF_COLUMN_OBJECTS_DELTA,
  TM_HEAP_DIFF_COLUMN_BYTES_BEFORE,
  TM_HEAP_DIFF_COLUMN_BYTES_AFTER,
  TM_HEAP_DIFF_COLUMN_BYTES_DELTA,
  TM_HEAP_DIFF_COLUMN_RETAINED_BEFORE,
  TM_HEAP_DIFF_COLUMN_RETAINED_AFTER,
  TM_HEAP_DIFF_COLUMN_RETAINED_DELTA,
  TM_HEAP_DIFF_N_COLUMNS
};

/* The heaps after from_gc and after to_gc of the session's document. */
GtkWidget   *tm_heap_diff_view_new          (TmSession          *session,
                                             guint               from_gc,
                                             guint               to_gc);
void         tm_heap_diff_view_set_gcs      (TmHeapDiffView     *self,
                                             guint               from_gc,
                                             guint               to_gc);
void         tm_heap_diff_view_get_gcs      (TmHeapDiffView     *self,
                                             guint              *from_gc,
                                             guint              *to_gc);
/* One or two of the built-in classifiers and root-path (default: type). */
void         tm_heap_diff_view_set_chain    (TmHeapDiffView     *self,
                                             const TmClassifier *chain,
                                             guint               depth);

/* TRUE while the document works; the diff NULL until the first one. */
gboolean     tm_heap_diff_view_is_busy      (TmHeapDiffView     *self);
TmHeapDiff  *tm_heap_diff_view_get_diff     (TmHeapDiffView     *self);

/* The table as shown. */
guint        tm_heap_diff_view_get_n_rows   (TmHeapDiffView     *self);
char        *tm_heap_diff_view_dup_cell     (TmHeapDiffView     *self,
                                             guint               row,
                                             guint               column);
void         tm_heap_diff_view_set_expanded (TmHeapDiffView     *self,
                                             guint               row,
                                             gboolean            expanded);
void         tm_heap_diff_view_select       (TmHeapDiffView     *self,
                                             guint               row);
/* Selects the next group (depth-first after the selected one, collapsed
 * parts too) whose name contains `text` ignoring case, expanding its
 * parents; FALSE when none does. */
gboolean     tm_heap_diff_view_search       (TmHeapDiffView     *self,
                                             const char         *text);
/* Path to GC roots of the selected group, into the panel. */
void         tm_heap_diff_view_show_path    (TmHeapDiffView     *self);
TmRootPathPanel *tm_heap_diff_view_get_path_panel (TmHeapDiffView *self);

G_END_DECLS
