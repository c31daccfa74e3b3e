/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sizes and counts are read largest first: the first click on the title
 * of such a column sorts it descending (GTK sorts ascending first); more
 * clicks on the same title toggle as usual.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Marks column as one whose first click sorts descending. */
void tm_column_sort_descending_first (GtkColumnViewColumn *column);

/* Watches the view's titles for first clicks on marked columns (once
 * per view). */
void tm_column_sort_init             (GtkColumnView       *view);

/* Sorts the view by column, as a click would have. */
void tm_column_sort_by               (GtkColumnView       *view,
                                      GtkColumnViewColumn *column,
                                      GtkSortType          order);

G_END_DECLS
