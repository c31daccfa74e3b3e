/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A call tree of allocation costs (bottom-up or top-down, heaptrack's
 * views): function with its module, file:line, and the inclusive costs,
 * every column sortable, a search that keeps only the paths to matching
 * functions (expanded).
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-calltree.h"

G_BEGIN_DECLS

#define TM_TYPE_CALL_TREE_VIEW (tm_call_tree_view_get_type ())
G_DECLARE_FINAL_TYPE (TmCallTreeView, tm_call_tree_view, TM, CALL_TREE_VIEW, GtkWidget)

GtkWidget  *tm_call_tree_view_new          (void);
/* Takes the tree (freed when given another or disposed). */
void        tm_call_tree_view_set_tree     (TmCallTreeView *self,
                                            TmCallTree     *tree,
                                            gboolean        native);
void        tm_call_tree_view_set_search   (TmCallTreeView *self,
                                            const char     *text);
/* Selects the first-level row of this symbol; FALSE if there is none. */
gboolean    tm_call_tree_view_select_symbol (TmCallTreeView *self,
                                             guint32         symbol);
/* The selected node, TM_CALL_NO_NODE if none. */
guint32     tm_call_tree_view_get_selected (TmCallTreeView *self);
TmCallTree *tm_call_tree_view_get_tree     (TmCallTreeView *self);
/* Number of rows shown (for tests). */
guint       tm_call_tree_view_n_rows       (TmCallTreeView *self);

G_END_DECLS
