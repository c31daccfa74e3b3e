/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-text-table.h"
#include "tm-column-sort.h"

#include <math.h>

/* ---- one row ---- */

#define TM_TYPE_TEXT_ROW (tm_text_row_get_type ())
G_DECLARE_FINAL_TYPE (TmTextRow, tm_text_row, TM, TEXT_ROW, GObject)

struct _TmTextRow
{
  GObject  parent_instance;
  char   **cells;
  double  *keys;
  char    *tooltip;     /* about the row, or NULL */
};

G_DEFINE_FINAL_TYPE (TmTextRow, tm_text_row, G_TYPE_OBJECT)

static void
tm_text_row_finalize (GObject *object)
{
  TmTextRow *row = TM_TEXT_ROW (object);

  g_strfreev (row->cells);
  g_free (row->keys);
  g_free (row->tooltip);
  G_OBJECT_CLASS (tm_text_row_parent_class)->finalize (object);
}

static void
tm_text_row_class_init (TmTextRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_text_row_finalize;
}

static void
tm_text_row_init (TmTextRow *row)
{
}

/* ---- the table ---- */

struct _TmTextTable
{
  GtkWidget          parent_instance;
  GtkWidget         *scrolled;
  GtkColumnView     *view;
  GListStore        *rows;
  GtkSortListModel  *sorted;
  guint              n_columns;
  GPtrArray         *columns;   /* GtkColumnViewColumn* */
  GPtrArray         *infos;     /* ColumnInfo*, owned by the columns' factories */
};

/* What a column's cells need to know besides their row. */
typedef struct {
  guint  column;
  char  *tooltip;     /* about the column, or NULL */
} ColumnInfo;

static void
column_info_free (gpointer data, GClosure *closure)
{
  ColumnInfo *info = data;

  g_free (info->tooltip);
  g_free (info);
}

G_DEFINE_FINAL_TYPE (TmTextTable, tm_text_table, GTK_TYPE_WIDGET)

static void
tm_text_table_dispose (GObject *object)
{
  TmTextTable *self = TM_TEXT_TABLE (object);

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  g_clear_pointer (&self->columns, g_ptr_array_unref);
  g_clear_pointer (&self->infos, g_ptr_array_unref);
  g_clear_object (&self->sorted);
  g_clear_object (&self->rows);
  G_OBJECT_CLASS (tm_text_table_parent_class)->dispose (object);
}

static void
tm_text_table_class_init (TmTextTableClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tm_text_table_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
tm_text_table_init (TmTextTable *self)
{
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  guint column = ((ColumnInfo *) data)->column;
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0.0f : 1.0f);
  if (column == 0)
    {
      /* names wrap rather than lose their middle */
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
    }
  gtk_label_set_selectable (GTK_LABEL (label), FALSE);
  gtk_list_item_set_child (item, label);
}

/* The row's tooltip, then the column's. */
static char *
cell_tooltip (const TmTextRow *row, const ColumnInfo *info)
{
  if (row->tooltip != NULL && info->tooltip != NULL)
    return g_strdup_printf ("%s\n\n%s", row->tooltip, info->tooltip);
  return g_strdup (row->tooltip != NULL ? row->tooltip : info->tooltip);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  TmTextRow *row = gtk_list_item_get_item (item);
  const ColumnInfo *info = data;
  GtkWidget *label = gtk_list_item_get_child (item);
  g_autofree char *tooltip = cell_tooltip (row, info);

  gtk_label_set_text (GTK_LABEL (label), row->cells[info->column]);
  gtk_widget_set_tooltip_text (label, tooltip);
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const TmTextRow *x = a, *y = b;
  guint column = GPOINTER_TO_UINT (data);
  double kx = x->keys[column], ky = y->keys[column];

  if (!isnan (kx) && !isnan (ky))
    return (kx > ky) - (kx < ky);
  return g_utf8_collate (x->cells[column], y->cells[column]);
}

GtkWidget *
tm_text_table_new (const char * const *titles)
{
  TmTextTable *self = g_object_new (TM_TYPE_TEXT_TABLE, NULL);
  GtkSelectionModel *selection;

  self->rows = g_list_store_new (TM_TYPE_TEXT_ROW);
  self->columns = g_ptr_array_new_with_free_func (g_object_unref);
  self->infos = g_ptr_array_new ();
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  tm_column_sort_init (self->view);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)),
                                          g_object_ref (gtk_column_view_get_sorter (self->view)));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted))));
  gtk_column_view_set_model (self->view, selection);
  g_object_unref (selection);
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  gtk_column_view_set_reorderable (self->view, FALSE);
  for (self->n_columns = 0; titles[self->n_columns] != NULL; self->n_columns++)
    {
      guint c = self->n_columns;
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *col;
      ColumnInfo *info = g_new0 (ColumnInfo, 1);

      info->column = c;
      g_ptr_array_add (self->infos, info);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), info);
      g_signal_connect_data (factory, "bind", G_CALLBACK (bind_cb), info, column_info_free, 0);
      col = gtk_column_view_column_new (titles[c], factory);
      gtk_column_view_column_set_sorter (col, GTK_SORTER (gtk_custom_sorter_new (compare_rows, GUINT_TO_POINTER (c),
                                                                                 NULL)));
      gtk_column_view_column_set_resizable (col, TRUE);
      if (c > 0)
        tm_column_sort_descending_first (col);
      if (c == 0)
        gtk_column_view_column_set_expand (col, TRUE);
      gtk_column_view_append_column (self->view, col);
      g_ptr_array_add (self->columns, col);
    }
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (self->scrolled, TRUE);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  return GTK_WIDGET (self);
}

void
tm_text_table_clear (TmTextTable *self)
{
  g_return_if_fail (TM_IS_TEXT_TABLE (self));
  g_list_store_remove_all (self->rows);
}

void
tm_text_table_set_column_tooltip (TmTextTable *self, guint column, const char *tooltip)
{
  ColumnInfo *info;

  g_return_if_fail (TM_IS_TEXT_TABLE (self) && column < self->n_columns);
  info = g_ptr_array_index (self->infos, column);
  g_free (info->tooltip);
  info->tooltip = g_strdup (tooltip);
}

void
tm_text_table_append (TmTextTable *self, const char * const *cells, const double *keys)
{
  tm_text_table_append_with_tooltip (self, cells, keys, NULL);
}

void
tm_text_table_append_with_tooltip (TmTextTable *self, const char * const *cells, const double *keys,
                                   const char *tooltip)
{
  TmTextRow *row;

  g_return_if_fail (TM_IS_TEXT_TABLE (self));
  row = g_object_new (TM_TYPE_TEXT_ROW, NULL);
  row->tooltip = g_strdup (tooltip);
  row->cells = g_new0 (char *, self->n_columns + 1);
  row->keys = g_new (double, self->n_columns);
  for (guint c = 0; c < self->n_columns; c++)
    {
      row->cells[c] = g_strdup (cells[c] ? cells[c] : "");
      row->keys[c] = keys ? keys[c] : NAN;
    }
  g_list_store_append (self->rows, row);
  g_object_unref (row);
}

void
tm_text_table_sort_by (TmTextTable *self, guint column)
{
  g_return_if_fail (TM_IS_TEXT_TABLE (self) && column < self->n_columns);
  tm_column_sort_by (self->view, g_ptr_array_index (self->columns, column), GTK_SORT_DESCENDING);
}

guint
tm_text_table_get_n_rows (TmTextTable *self)
{
  g_return_val_if_fail (TM_IS_TEXT_TABLE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

char *
tm_text_table_dup_cell (TmTextTable *self, guint row, guint column)
{
  g_autoptr(TmTextRow) r = NULL;

  g_return_val_if_fail (TM_IS_TEXT_TABLE (self) && column < self->n_columns, NULL);
  r = g_list_model_get_item (G_LIST_MODEL (self->sorted), row);
  return r ? g_strdup (r->cells[column]) : NULL;
}

char *
tm_text_table_dup_tooltip (TmTextTable *self, guint row, guint column)
{
  g_autoptr(TmTextRow) r = NULL;
  const ColumnInfo *info;

  g_return_val_if_fail (TM_IS_TEXT_TABLE (self) && column < self->n_columns, NULL);
  r = g_list_model_get_item (G_LIST_MODEL (self->sorted), row);
  info = g_ptr_array_index (self->infos, column);
  return r != NULL ? cell_tooltip (r, info) : NULL;
}
