/* SPDX-License-Identifier: GPL-3.0-or-later
 * A tree in a GtkColumnView (see the header). */
#include "tm-config.h"
#include "tm-tree-table.h"
#include "tm-column-sort.h"

#include <string.h>

#define MAX_COLUMNS 32

/* ---- rows: one node each ---- */

#define TM_TYPE_TREE_TABLE_ROW (tm_tree_table_row_get_type ())
G_DECLARE_FINAL_TYPE (TmTreeTableRow, tm_tree_table_row, TM, TREE_TABLE_ROW, GObject)

struct _TmTreeTableRow
{
  GObject                 parent_instance;
  const TmTreeTableFuncs *funcs;
  gpointer                tree;
  guint32                 node;
  char                   *label;
  guint                   revision;   /* bumped when its values change */
};

enum { ROW_PROP_0, ROW_PROP_REVISION, ROW_N_PROPS };
static GParamSpec *row_props[ROW_N_PROPS];

G_DEFINE_FINAL_TYPE (TmTreeTableRow, tm_tree_table_row, G_TYPE_OBJECT)

static void
tm_tree_table_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  if (prop_id == ROW_PROP_REVISION)
    g_value_set_uint (value, TM_TREE_TABLE_ROW (object)->revision);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
tm_tree_table_row_finalize (GObject *object)
{
  TmTreeTableRow *row = TM_TREE_TABLE_ROW (object);

  g_free (row->label);
  row->funcs->unref (row->tree);
  G_OBJECT_CLASS (tm_tree_table_row_parent_class)->finalize (object);
}

static void
tm_tree_table_row_class_init (TmTreeTableRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = tm_tree_table_row_get_property;
  object_class->finalize = tm_tree_table_row_finalize;
  row_props[ROW_PROP_REVISION] = g_param_spec_uint ("revision", NULL, NULL, 0, G_MAXUINT, 0,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, ROW_N_PROPS, row_props);
}

static void
tm_tree_table_row_init (TmTreeTableRow *row)
{
}

/* ---- the table ---- */

struct _TmTreeTable
{
  GObject                 parent_instance;
  const TmTreeTableFuncs *funcs;
  gpointer                owner;
  GtkColumnView          *view;
  gpointer                tree;
  gboolean                show_root;
  GListStore             *roots;      /* the first level */
  GtkTreeListModel       *tree_model;
  GtkSortListModel       *sorted;
  GtkSingleSelection     *selection;
  GPtrArray              *rows;       /* every row made for this tree */
  GtkColumnViewColumn    *columns[MAX_COLUMNS];
  GtkSorter              *sorters[MAX_COLUMNS];
};

G_DEFINE_FINAL_TYPE (TmTreeTable, tm_tree_table, G_TYPE_OBJECT)

static TmTreeTableRow *
row_new (TmTreeTable *self, guint32 node)
{
  TmTreeTableRow *row = g_object_new (TM_TYPE_TREE_TABLE_ROW, NULL);

  row->funcs = self->funcs;
  row->tree = self->funcs->ref (self->tree);
  row->node = node;
  row->label = self->funcs->label (self->tree, node);
  g_ptr_array_add (self->rows, g_object_ref (row));
  return row;
}

static guint32
first_child (TmTreeTable *self, guint32 node, guint32 *n_children)
{
  guint32 parent, first;

  self->funcs->shape (self->tree, node, &parent, &first, n_children);
  return first;
}

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  TmTreeTable *self = user_data;
  TmTreeTableRow *parent = item;
  GListStore *store;
  guint32 first, n;

  /* rows of a tree replaced since have no children to show */
  if (parent->tree != self->tree)
    return NULL;
  first = first_child (self, parent->node, &n);
  if (n == 0)
    return NULL;
  store = g_list_store_new (TM_TYPE_TREE_TABLE_ROW);
  for (guint32 c = 0; c < n; c++)
    {
      g_autoptr(TmTreeTableRow) row = row_new (self, first + c);
      g_list_store_append (store, row);
    }
  return G_LIST_MODEL (store);
}

/* ---- cells ---- */

static char *
cell_text (TmTreeTable *self, TmTreeTableRow *row, guint column)
{
  if (column == 0)
    return g_strdup (row->label);
  return self->funcs->text (self->owner, row->tree, row->node, column);
}

static void
update_cell (GtkListItem *item)
{
  TmTreeTable *self = g_object_get_data (G_OBJECT (item), "tm-table");
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (item), "tm-column"));
  TmTreeTableRow *row = g_object_get_data (G_OBJECT (item), "tm-row");
  GtkWidget *child = gtk_list_item_get_child (item);
  g_autofree char *text = NULL;

  if (row == NULL)
    return;
  if (column == 0)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), gtk_list_item_get_item (item));
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
      gtk_widget_set_tooltip_text (child, row->label);
    }
  text = cell_text (self, row, column);
  gtk_label_set_text (GTK_LABEL (child), text);
  if (self->funcs->decorate != NULL)
    self->funcs->decorate (self->owner, child, row->tree, row->node, column);
}

static void
row_revision_cb (TmTreeTableRow *row, GParamSpec *pspec, GtkListItem *item)
{
  update_cell (item);
}

static void
cell_setup (GtkSignalListItemFactory *factory, GtkListItem *item, TmTreeTable *self)
{
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "tm-column"));
  GtkWidget *label = gtk_label_new (NULL);

  g_object_set_data (G_OBJECT (item), "tm-table", self);
  g_object_set_data (G_OBJECT (item), "tm-column", GUINT_TO_POINTER (column));
  if (column == 0)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      /* a class name's end tells it apart (…HashMap$Node[]) */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
      gtk_label_set_width_chars (GTK_LABEL (label), 24);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
      gtk_list_item_set_child (item, label);
    }
}

static void
cell_bind (GtkSignalListItemFactory *factory, GtkListItem *item, TmTreeTable *self)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);
  g_autoptr(TmTreeTableRow) row = gtk_tree_list_row_get_item (tree_row);
  gulong id = g_signal_connect (row, "notify::revision", G_CALLBACK (row_revision_cb), item);

  g_object_set_data (G_OBJECT (item), "tm-handler", GSIZE_TO_POINTER (id));
  g_object_set_data_full (G_OBJECT (item), "tm-row", g_object_ref (row), g_object_unref);
  update_cell (item);
}

static void
cell_unbind (GtkSignalListItemFactory *factory, GtkListItem *item, TmTreeTable *self)
{
  TmTreeTableRow *row = g_object_get_data (G_OBJECT (item), "tm-row");
  gulong id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (item), "tm-handler"));

  if (row != NULL && id != 0)
    g_signal_handler_disconnect (row, id);
  g_object_set_data (G_OBJECT (item), "tm-handler", NULL);
  g_object_set_data (G_OBJECT (item), "tm-row", NULL);
}

/* ---- sorting ---- */

typedef struct {
  TmTreeTable *self;
  guint        column;
} SortKey;

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortKey *key = data;
  TmTreeTableRow *x = (TmTreeTableRow *) a, *y = (TmTreeTableRow *) b;
  gint64 vx, vy;

  if (key->column == 0)
    {
      int c = g_utf8_collate (x->label, y->label);
      return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
    }
  vx = key->self->funcs->value (key->self->owner, x->tree, x->node, key->column);
  vy = key->self->funcs->value (key->self->owner, y->tree, y->node, key->column);
  return vx < vy ? GTK_ORDERING_SMALLER : vx > vy ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

GtkColumnViewColumn *
tm_tree_table_add_column (TmTreeTable *self, guint column, const char *title)
{
  GtkListItemFactory *factory;
  GtkColumnViewColumn *col;
  SortKey *key;

  g_return_val_if_fail (TM_IS_TREE_TABLE (self), NULL);
  g_return_val_if_fail (column < MAX_COLUMNS && self->columns[column] == NULL, NULL);

  factory = gtk_signal_list_item_factory_new ();
  g_object_set_data (G_OBJECT (factory), "tm-column", GUINT_TO_POINTER (column));
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), self);
  col = gtk_column_view_column_new (title, factory);

  key = g_new (SortKey, 1);
  key->self = self;
  key->column = column;
  self->sorters[column] = GTK_SORTER (gtk_custom_sorter_new (compare_rows, key, g_free));
  gtk_column_view_column_set_sorter (col, self->sorters[column]);
  gtk_column_view_column_set_expand (col, column == 0);
  gtk_column_view_column_set_resizable (col, TRUE);
  if (column != 0)
    tm_column_sort_descending_first (col);
  gtk_column_view_append_column (self->view, col);
  self->columns[column] = col;
  return col;
}

GtkColumnViewColumn *
tm_tree_table_get_column (TmTreeTable *self, guint column)
{
  g_return_val_if_fail (TM_IS_TREE_TABLE (self), NULL);
  g_return_val_if_fail (column < MAX_COLUMNS, NULL);
  return self->columns[column];
}

void
tm_tree_table_sort_by (TmTreeTable *self, guint column, GtkSortType order)
{
  g_return_if_fail (TM_IS_TREE_TABLE (self));
  g_return_if_fail (column < MAX_COLUMNS && self->columns[column] != NULL);
  tm_column_sort_by (self->view, self->columns[column], order);
}

/* ---- the tree shown ---- */

void
tm_tree_table_set_tree (TmTreeTable *self, gpointer tree, gboolean show_root)
{
  g_return_if_fail (TM_IS_TREE_TABLE (self));

  g_list_store_remove_all (self->roots);
  g_ptr_array_set_size (self->rows, 0);
  if (self->tree != NULL)
    self->funcs->unref (self->tree);
  self->tree = tree != NULL ? self->funcs->ref (tree) : NULL;
  self->show_root = show_root;
  if (tree == NULL)
    return;
  if (show_root)
    {
      g_autoptr(TmTreeTableRow) row = row_new (self, 0);
      g_list_store_append (self->roots, row);
    }
  else
    {
      guint32 n, first = first_child (self, 0, &n);
      for (guint32 c = 0; c < n; c++)
        {
          g_autoptr(TmTreeTableRow) row = row_new (self, first + c);
          g_list_store_append (self->roots, row);
        }
    }
}

void
tm_tree_table_refresh (TmTreeTable *self, guint64 column_mask)
{
  g_return_if_fail (TM_IS_TREE_TABLE (self));

  for (guint i = 0; i < self->rows->len; i++)
    {
      TmTreeTableRow *row = g_ptr_array_index (self->rows, i);
      row->revision++;
      g_object_notify_by_pspec (G_OBJECT (row), row_props[ROW_PROP_REVISION]);
    }
  for (guint c = 0; c < MAX_COLUMNS; c++)
    if ((column_mask & (G_GUINT64_CONSTANT (1) << c)) && self->sorters[c] != NULL)
      gtk_sorter_changed (self->sorters[c], GTK_SORTER_CHANGE_DIFFERENT);
}

/* ---- rows ---- */

GtkSingleSelection *
tm_tree_table_get_selection (TmTreeTable *self)
{
  g_return_val_if_fail (TM_IS_TREE_TABLE (self), NULL);
  return self->selection;
}

guint
tm_tree_table_get_n_rows (TmTreeTable *self)
{
  g_return_val_if_fail (TM_IS_TREE_TABLE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->selection));
}

static GtkTreeListRow *
tree_row_at (TmTreeTable *self, guint position)
{
  return g_list_model_get_item (G_LIST_MODEL (self->selection), position);
}

static TmTreeTableRow *
row_at (TmTreeTable *self, guint position)
{
  g_autoptr(GtkTreeListRow) tree_row = tree_row_at (self, position);

  return tree_row != NULL ? gtk_tree_list_row_get_item (tree_row) : NULL;
}

gboolean
tm_tree_table_get_node (TmTreeTable *self, guint position, gpointer *tree, guint32 *node)
{
  g_autoptr(TmTreeTableRow) row = NULL;

  g_return_val_if_fail (TM_IS_TREE_TABLE (self), FALSE);
  if (position == GTK_INVALID_LIST_POSITION || (row = row_at (self, position)) == NULL)
    return FALSE;
  if (tree != NULL)
    *tree = row->tree;   /* kept alive by the table's rows */
  if (node != NULL)
    *node = row->node;
  return TRUE;
}

gboolean
tm_tree_table_get_selected (TmTreeTable *self, gpointer *tree, guint32 *node)
{
  g_return_val_if_fail (TM_IS_TREE_TABLE (self), FALSE);
  return tm_tree_table_get_node (self, gtk_single_selection_get_selected (self->selection), tree, node);
}

char *
tm_tree_table_dup_cell (TmTreeTable *self, guint position, guint column)
{
  g_autoptr(TmTreeTableRow) row = NULL;

  g_return_val_if_fail (TM_IS_TREE_TABLE (self), NULL);
  g_return_val_if_fail (column < MAX_COLUMNS && self->columns[column] != NULL, NULL);
  if ((row = row_at (self, position)) == NULL)
    return NULL;
  return cell_text (self, row, column);
}

void
tm_tree_table_set_expanded (TmTreeTable *self, guint position, gboolean expanded)
{
  g_autoptr(GtkTreeListRow) tree_row = NULL;

  g_return_if_fail (TM_IS_TREE_TABLE (self));
  if ((tree_row = tree_row_at (self, position)) != NULL)
    gtk_tree_list_row_set_expanded (tree_row, expanded);
}

void
tm_tree_table_select (TmTreeTable *self, guint position)
{
  g_return_if_fail (TM_IS_TREE_TABLE (self));

  gtk_single_selection_set_selected (self->selection, position);
  if (position == GTK_INVALID_LIST_POSITION)
    return;
  /* GTK 4.8 has no gtk_column_view_scroll_to(); its inner list view
   * has the list.scroll-to-item action. */
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->view)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      {
        gtk_widget_activate_action (c, "list.scroll-to-item", "u", position);
        break;
      }
}

/* ---- search ---- */

/* The first node of the table's depth-first order. */
static guint32
first_in_order (TmTreeTable *self)
{
  guint32 n, first;

  if (self->show_root)
    return 0;
  first = first_child (self, 0, &n);
  return n > 0 ? first : TM_TREE_TABLE_NONE;
}

/* The node after `node` in depth-first order (children in stored
 * order), wrapping around to the first. */
static guint32
next_in_order (TmTreeTable *self, guint32 node)
{
  guint32 parent, first, n;

  self->funcs->shape (self->tree, node, &parent, &first, &n);
  if (n > 0)
    return first;
  while (parent != TM_TREE_TABLE_NONE)
    {
      guint32 grandparent, sibling_first, n_siblings;

      self->funcs->shape (self->tree, parent, &grandparent, &sibling_first, &n_siblings);
      if (node + 1 < sibling_first + n_siblings)
        return node + 1;
      node = parent;
      parent = grandparent;
    }
  return first_in_order (self);
}

static guint
position_of (TmTreeTable *self, GtkTreeListRow *target)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  for (guint pos = 0; pos < n; pos++)
    {
      g_autoptr(GtkTreeListRow) r = tree_row_at (self, pos);
      if (r == target)
        return pos;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* Expands the parents of `node` and returns its row's position. */
static guint
reveal (TmTreeTable *self, guint32 node)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GtkTreeListRow) row = NULL;
  guint32 top = self->show_root ? TM_TREE_TABLE_NONE : 0;

  /* the nodes from the first level down to `node` */
  for (guint32 x = node; x != top;)
    {
      guint32 parent, first, n;
      g_array_prepend_val (path, x);
      self->funcs->shape (self->tree, x, &parent, &first, &n);
      x = parent;
    }
  for (guint lvl = 0; lvl < path->len; lvl++)
    {
      GListModel *siblings;
      GtkTreeListRow *next = NULL;
      guint n;

      if (row == NULL)
        siblings = G_LIST_MODEL (self->roots);
      else
        {
          gtk_tree_list_row_set_expanded (row, TRUE);
          siblings = gtk_tree_list_row_get_children (row);
        }
      n = siblings != NULL ? g_list_model_get_n_items (siblings) : 0;
      for (guint i = 0; i < n && next == NULL; i++)
        {
          g_autoptr(TmTreeTableRow) item = g_list_model_get_item (siblings, i);
          if (item->node == g_array_index (path, guint32, lvl))
            next = row == NULL ? gtk_tree_list_model_get_child_row (self->tree_model, i)
                               : gtk_tree_list_row_get_child_row (row, i);
        }
      g_clear_object (&row);
      row = next;
      if (row == NULL)
        return GTK_INVALID_LIST_POSITION;
    }
  return row != NULL ? position_of (self, row) : GTK_INVALID_LIST_POSITION;
}

gboolean
tm_tree_table_search (TmTreeTable *self, const char *text)
{
  g_autofree char *needle = NULL;
  gpointer tree = NULL;
  guint32 node = TM_TREE_TABLE_NONE, n_nodes;

  g_return_val_if_fail (TM_IS_TREE_TABLE (self), FALSE);
  if (self->tree == NULL || text == NULL || *text == '\0')
    return FALSE;
  needle = g_utf8_casefold (text, -1);

  if (tm_tree_table_get_selected (self, &tree, &node) && tree == self->tree)
    node = next_in_order (self, node);
  else
    node = first_in_order (self);
  n_nodes = self->funcs->n_nodes (self->tree);
  for (guint32 steps = 0; node != TM_TREE_TABLE_NONE && steps < n_nodes; steps++)
    {
      g_autofree char *label = self->funcs->label (self->tree, node);
      g_autofree char *folded = g_utf8_casefold (label, -1);

      if (strstr (folded, needle) != NULL)
        {
          guint pos = reveal (self, node);
          if (pos == GTK_INVALID_LIST_POSITION)
            return FALSE;
          tm_tree_table_select (self, pos);
          return TRUE;
        }
      node = next_in_order (self, node);
    }
  return FALSE;
}

/* ---- life cycle ---- */

TmTreeTable *
tm_tree_table_new (GtkColumnView *view, const TmTreeTableFuncs *funcs, gpointer owner)
{
  TmTreeTable *self;
  GtkTreeListRowSorter *row_sorter;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), NULL);
  g_return_val_if_fail (funcs != NULL, NULL);

  self = g_object_new (TM_TYPE_TREE_TABLE, NULL);
  self->funcs = funcs;
  self->owner = owner;
  self->view = g_object_ref (view);
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->roots = g_list_store_new (TM_TYPE_TREE_TABLE_ROW);
  self->tree_model = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->roots)), FALSE, FALSE,
                                              create_children, self, NULL);
  /* the view's sorter, applied per parent so children stay under it */
  row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (view)));
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->tree_model)), GTK_SORTER (row_sorter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (self->selection));
  tm_column_sort_init (view);
  return self;
}

static void
tm_tree_table_dispose (GObject *object)
{
  TmTreeTable *self = TM_TREE_TABLE (object);

  /* the view may outlive the table: nothing of it may call back */
  if (self->view != NULL)
    {
      gtk_column_view_set_model (self->view, NULL);
      for (guint c = 0; c < MAX_COLUMNS; c++)
        if (self->columns[c] != NULL)
          g_signal_handlers_disconnect_by_data (gtk_column_view_column_get_factory (self->columns[c]), self);
    }
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->roots);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  for (guint c = 0; c < MAX_COLUMNS; c++)
    {
      g_clear_object (&self->columns[c]);
      g_clear_object (&self->sorters[c]);
    }
  if (self->tree != NULL)
    {
      self->funcs->unref (self->tree);
      self->tree = NULL;
    }
  g_clear_object (&self->view);
  G_OBJECT_CLASS (tm_tree_table_parent_class)->dispose (object);
}

static void
tm_tree_table_class_init (TmTreeTableClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tm_tree_table_dispose;
}

static void
tm_tree_table_init (TmTreeTable *self)
{
}
