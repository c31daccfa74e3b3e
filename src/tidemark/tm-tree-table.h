/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model stack under a GtkColumnView that shows a tree: the tree
 * list model sorted by the view's column sorter (a GtkTreeListRowSorter,
 * so children stay under their parent) in a single selection that may
 * be empty, set as the view's model.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Takes `tree`; returns the selection (a new reference) and, in
 * *sorted, the sorted model (a new reference). */
GtkSingleSelection *tm_tree_table_attach (GtkColumnView     *view,
                                          GtkTreeListModel  *tree,
                                          GtkSortListModel **sorted);

G_END_DECLS
