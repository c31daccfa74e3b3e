/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTextTable: a read-only, sortable table of text cells (a GtkColumnView
 * in a scrolled window) for views that show computed figures.  Each row
 * gives its cells' text and, per column, a number to sort by (NAN: sort
 * that cell by its text).  Numbers are right-aligned.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TM_TYPE_TEXT_TABLE (tm_text_table_get_type ())
G_DECLARE_FINAL_TYPE (TmTextTable, tm_text_table, TM, TEXT_TABLE, GtkWidget)

/* `titles`: NULL-terminated column titles. */
GtkWidget *tm_text_table_new        (const char * const *titles);
void       tm_text_table_clear      (TmTextTable        *self);
/* `cells` and `keys` have one entry per column (keys may be NULL). */
void       tm_text_table_append     (TmTextTable        *self,
                                     const char * const *cells,
                                     const double       *keys);
/* The same with a tooltip for the row's cells (NULL: none). */
void       tm_text_table_append_with_tooltip (TmTextTable        *self,
                                              const char * const *cells,
                                              const double       *keys,
                                              const char         *tooltip);
/* What a column means, shown in its cells' tooltips after the row's. */
void       tm_text_table_set_column_tooltip  (TmTextTable        *self,
                                              guint               column,
                                              const char         *tooltip);
/* Sorts by a column, descending (as a first click on a size column does). */
void       tm_text_table_sort_by    (TmTextTable        *self,
                                     guint               column);
/* As shown (after sorting), for tests. */
guint      tm_text_table_get_n_rows (TmTextTable        *self);
char      *tm_text_table_dup_cell   (TmTextTable        *self,
                                     guint               row,
                                     guint               column);
/* A cell's tooltip as shown (row's, then column's), NULL if none. */
char      *tm_text_table_dup_tooltip (TmTextTable       *self,
                                     guint               row,
                                     guint               column);

G_END_DECLS
