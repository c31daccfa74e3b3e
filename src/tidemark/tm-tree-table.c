/* SPDX-License-Identifier: GPL-3.0-or-later
 * The model stack of a tree in a GtkColumnView (see the header). */
#include "tm-config.h"
#include "tm-tree-table.h"

GtkSingleSelection *
tm_tree_table_attach (GtkColumnView *view, GtkTreeListModel *tree, GtkSortListModel **sorted)
{
  GtkTreeListRowSorter *row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (view)));
  GtkSortListModel *sort = gtk_sort_list_model_new (G_LIST_MODEL (tree), GTK_SORTER (row_sorter));
  GtkSingleSelection *selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (sort)));

  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  *sorted = sort;
  return selection;
}
