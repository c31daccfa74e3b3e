/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Call tree table: GtkTreeListModel over one GListStore per expanded node,
 * each behind a filter that keeps the paths to the search's matches;
 * GtkTreeListRowSorter keeps children under their parents while sorting.
 */
#include "tm-config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "tm-call-tree-view.h"
#include "tm-column-sort.h"
#include "tm-format-util.h"

/* ---- row objects: one node of the tree ---- */

#define TM_TYPE_CALL_ROW (tm_call_row_get_type ())
G_DECLARE_FINAL_TYPE (TmCallRow, tm_call_row, TM, CALL_ROW, GObject)

struct _TmCallRow
{
  GObject     parent_instance;
  TmCallTree *tree;      /* owned by the view, which outlives its rows' use */
  guint32     node;
};

G_DEFINE_FINAL_TYPE (TmCallRow, tm_call_row, G_TYPE_OBJECT)

static void tm_call_row_class_init (TmCallRowClass *klass) { }
static void tm_call_row_init (TmCallRow *row) { }

static TmCallRow *
call_row_new (TmCallTree *tree, guint32 node)
{
  TmCallRow *row = g_object_new (TM_TYPE_CALL_ROW, NULL);
  row->tree = tree;
  row->node = node;
  return row;
}

/* ---- the view ---- */

enum { COL_FUNCTION, COL_LOCATION, COL_FIRST_COST };
#define N_COLUMNS (COL_FIRST_COST + TM_N_COSTS)

struct _TmCallTreeView
{
  GtkWidget            parent_instance;

  GtkWidget           *box;
  GtkLabel            *hint_label;
  GtkSearchEntry      *search_entry;
  GtkColumnView       *table;

  TmCallTree          *tree;
  gboolean             native;
  guint8              *keep;         /* per node: its subtree matches the search */
  char                *search;       /* casefolded, NULL: none */
  GtkCustomFilter     *filter;
  GtkSingleSelection  *selection;
  GtkColumnViewColumn *columns[N_COLUMNS];
};

G_DEFINE_FINAL_TYPE (TmCallTreeView, tm_call_tree_view, GTK_TYPE_WIDGET)

static const char *
function_of (TmCallTree *tree, guint32 node)
{
  return tm_call_profile_get_symbol (tm_call_tree_profile (tree), tm_call_tree_node (tree, node)->symbol)->function;
}

static char *
cell_text (TmCallTreeView *self, TmCallRow *row, guint column)
{
  const TmCallNode *n = tm_call_tree_node (row->tree, row->node);
  const TmCallSymbol *sym = tm_call_profile_get_symbol (tm_call_tree_profile (row->tree), n->symbol);

  switch (column)
    {
    case COL_FUNCTION:
      return tm_call_symbol_label (sym);
    case COL_LOCATION:
      if (n->file != NULL && n->file[0] != '\0')
        {
          const char *base = strrchr (n->file, '/') ? strrchr (n->file, '/') + 1 : n->file;
          return n->line > 0 ? g_strdup_printf ("%s:%d", base, n->line) : g_strdup (base);
        }
      return tm_call_symbol_location (sym);
    default:
      {
        TmCostKind k = column - COL_FIRST_COST;
        gint64 v = n->cost.v[k];
        return tm_cost_kind_is_bytes (k) ? tm_format_bytes ((double) v) : tm_format_count ((guint64) MAX (v, 0));
      }
    }
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  guint column = GPOINTER_TO_UINT (data);
  GtkWidget *label = gtk_label_new (NULL);

  /* long signatures end in "…" with the whole name in the tooltip;
   * costs are never cut short */
  if (column == COL_FUNCTION)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (label, "tm-preview");
    }
  gtk_label_set_xalign (GTK_LABEL (label), column >= COL_FIRST_COST ? 1.0 : 0.0);
  if (column >= COL_FIRST_COST)
    gtk_widget_add_css_class (label, "numeric");
  if (column == COL_FUNCTION)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
    }
  else
    gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  guint column = GPOINTER_TO_UINT (data);
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  TmCallTreeView *self = g_object_get_data (G_OBJECT (factory), "tm-view");
  g_autoptr(TmCallRow) row = gtk_tree_list_row_get_item (tree_row);
  g_autofree char *text = cell_text (self, row, column);
  GtkWidget *label = child;

  if (column == COL_FUNCTION)
    {
      const TmCallSymbol *sym = tm_call_profile_get_symbol (tm_call_tree_profile (row->tree),
                                                            tm_call_tree_node (row->tree, row->node)->symbol);
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), tree_row);
      label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
      {
        g_autofree char *tip = sym->module[0] ? g_strdup_printf ("%s\n%s", text, sym->module) : g_strdup (text);
        gtk_widget_set_tooltip_text (label, tip);
      }
    }
  gtk_label_set_text (GTK_LABEL (label), text);
}

static gint64
row_value (TmCallRow *row, guint column)
{
  return tm_call_tree_node (row->tree, row->node)->cost.v[column - COL_FIRST_COST];
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  guint column = GPOINTER_TO_UINT (data);
  TmCallRow *x = (TmCallRow *) a, *y = (TmCallRow *) b;

  if (column == COL_FUNCTION)
    return g_utf8_collate (function_of (x->tree, x->node), function_of (y->tree, y->node));
  if (column == COL_LOCATION)
    return g_strcmp0 (tm_call_tree_node (x->tree, x->node)->file, tm_call_tree_node (y->tree, y->node)->file);
  {
    gint64 vx = row_value (x, column), vy = row_value (y, column);
    return vx < vy ? -1 : vx > vy;
  }
}

static void
add_column (TmCallTreeView *self, guint column, const char *title)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, GUINT_TO_POINTER (column), NULL));
  GtkColumnViewColumn *col;

  g_object_set_data (G_OBJECT (factory), "tm-view", self);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), GUINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (col, sorter);
  gtk_column_view_column_set_resizable (col, TRUE);
  if (column >= COL_FIRST_COST)
    tm_column_sort_descending_first (col);
  if (column == COL_FUNCTION)
    gtk_column_view_column_set_expand (col, TRUE);
  else
    gtk_column_view_column_set_fixed_width (col, column == COL_LOCATION ? 120 : 92);
  gtk_column_view_append_column (self->table, col);
  self->columns[column] = col;
  g_object_unref (col);
}

static gboolean
keep_row (gpointer item, gpointer data)
{
  TmCallTreeView *self = data;
  return self->keep == NULL || self->keep[TM_CALL_ROW (item)->node];
}

static GListModel *
children_of (TmCallTreeView *self, guint32 node)
{
  const TmCallNode *n = tm_call_tree_node (self->tree, node);
  GListStore *store;

  if (n->n_children == 0)
    return NULL;
  store = g_list_store_new (TM_TYPE_CALL_ROW);
  for (guint i = 0; i < n->n_children; i++)
    {
      g_autoptr(TmCallRow) row = call_row_new (self->tree, n->first_child + i);
      g_list_store_append (store, row);
    }
  return G_LIST_MODEL (gtk_filter_list_model_new (G_LIST_MODEL (store), g_object_ref (GTK_FILTER (self->filter))));
}

static GListModel *
create_children (gpointer item, gpointer data)
{
  TmCallTreeView *self = data;
  return children_of (self, TM_CALL_ROW (item)->node);
}

static void
rebuild_model (TmCallTreeView *self)
{
  GtkTreeListModel *tree_model;
  GtkTreeListRowSorter *row_sorter;
  GtkSortListModel *sorted;
  GListModel *roots;

  if (self->tree == NULL)
    {
      gtk_column_view_set_model (self->table, NULL);
      g_clear_object (&self->selection);
      return;
    }
  roots = children_of (self, 0);
  if (roots == NULL)
    roots = G_LIST_MODEL (g_list_store_new (TM_TYPE_CALL_ROW));
  /* searching: open the paths to the matches */
  tree_model = gtk_tree_list_model_new (roots, FALSE, self->search != NULL, create_children, self, NULL);
  row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->table)));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (tree_model), GTK_SORTER (row_sorter));
  g_clear_object (&self->selection);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (self->selection));
}

static void
update_keep (TmCallTreeView *self)
{
  guint n;

  g_clear_pointer (&self->keep, g_free);
  if (self->tree == NULL || self->search == NULL)
    return;
  n = tm_call_tree_n_nodes (self->tree);
  self->keep = g_new0 (guint8, n);
  /* children have larger indices than their parents: mark bottom-up */
  for (guint i = n; i-- > 1;)
    {
      g_autofree char *folded = g_utf8_casefold (function_of (self->tree, i), -1);
      if (self->keep[i] || strstr (folded, self->search) != NULL)
        {
          self->keep[i] = TRUE;
          self->keep[tm_call_tree_node (self->tree, i)->parent] = TRUE;
        }
    }
}

void
tm_call_tree_view_set_search (TmCallTreeView *self, const char *text)
{
  g_return_if_fail (TM_IS_CALL_TREE_VIEW (self));

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && text[0] != '\0')
    self->search = g_utf8_casefold (text, -1);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  update_keep (self);
  rebuild_model (self);
}

static void
search_changed_cb (TmCallTreeView *self, GtkSearchEntry *entry)
{
  tm_call_tree_view_set_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

void
tm_call_tree_view_set_tree (TmCallTreeView *self, TmCallTree *tree, gboolean native)
{
  g_return_if_fail (TM_IS_CALL_TREE_VIEW (self));

  /* rows point into the old tree: drop them first */
  gtk_column_view_set_model (self->table, NULL);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->tree, tm_call_tree_free);
  self->tree = tree;
  self->native = native;
  if (tree != NULL)
    gtk_label_set_text (self->hint_label,
                        tm_call_tree_kind (tree) == TM_CALL_TREE_BOTTOM_UP
                          ? _("Bottom-up: the functions that allocate, then who called them. Costs include everything below a frame.")
                          : _("Top-down: where the program starts, then what it calls. Costs include everything a frame called."));
  update_keep (self);
  rebuild_model (self);
}

TmCallTree *
tm_call_tree_view_get_tree (TmCallTreeView *self)
{
  g_return_val_if_fail (TM_IS_CALL_TREE_VIEW (self), NULL);
  return self->tree;
}

guint
tm_call_tree_view_n_rows (TmCallTreeView *self)
{
  g_return_val_if_fail (TM_IS_CALL_TREE_VIEW (self), 0);
  return self->selection ? g_list_model_get_n_items (G_LIST_MODEL (self->selection)) : 0;
}

gboolean
tm_call_tree_view_select_symbol (TmCallTreeView *self, guint32 symbol)
{
  guint n;

  g_return_val_if_fail (TM_IS_CALL_TREE_VIEW (self), FALSE);
  if (self->selection == NULL)
    return FALSE;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (G_LIST_MODEL (self->selection), i);
      g_autoptr(TmCallRow) row = NULL;

      if (gtk_tree_list_row_get_depth (tree_row) != 0)
        continue;
      row = gtk_tree_list_row_get_item (tree_row);
      if (tm_call_tree_node (row->tree, row->node)->symbol != symbol)
        continue;
      gtk_tree_list_row_set_expanded (tree_row, TRUE);
      gtk_single_selection_set_selected (self->selection, i);
      gtk_widget_activate_action (GTK_WIDGET (self->table), "list.scroll-to-item", "u", i);
      return TRUE;
    }
  return FALSE;
}

guint32
tm_call_tree_view_get_selected (TmCallTreeView *self)
{
  g_autoptr(GtkTreeListRow) tree_row = NULL;
  g_autoptr(TmCallRow) row = NULL;

  g_return_val_if_fail (TM_IS_CALL_TREE_VIEW (self), TM_CALL_NO_NODE);
  if (self->selection == NULL || gtk_single_selection_get_selected_item (self->selection) == NULL)
    return TM_CALL_NO_NODE;
  tree_row = g_object_ref (gtk_single_selection_get_selected_item (self->selection));
  row = gtk_tree_list_row_get_item (tree_row);
  return row->node;
}

static void
tm_call_tree_view_dispose (GObject *object)
{
  TmCallTreeView *self = TM_CALL_TREE_VIEW (object);

  if (self->table != NULL)
    gtk_column_view_set_model (self->table, NULL);
  g_clear_object (&self->selection);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_CALL_TREE_VIEW);
  g_clear_pointer (&self->tree, tm_call_tree_free);
  g_clear_pointer (&self->keep, g_free);
  g_clear_pointer (&self->search, g_free);
  g_clear_object (&self->filter);
  G_OBJECT_CLASS (tm_call_tree_view_parent_class)->dispose (object);
}

static void
tm_call_tree_view_class_init (TmCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_call_tree_view_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-call-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmCallTreeView, box);
  gtk_widget_class_bind_template_child (widget_class, TmCallTreeView, hint_label);
  gtk_widget_class_bind_template_child (widget_class, TmCallTreeView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TmCallTreeView, table);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
}

static void
tm_call_tree_view_init (TmCallTreeView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->filter = gtk_custom_filter_new (keep_row, self, NULL);

  add_column (self, COL_FUNCTION, _("Function"));
  add_column (self, COL_LOCATION, _("Location"));
  add_column (self, COL_FIRST_COST + TM_COST_PEAK, _("Peak"));
  add_column (self, COL_FIRST_COST + TM_COST_LEAKED, _("Leaked"));
  add_column (self, COL_FIRST_COST + TM_COST_ALLOCATIONS, _("Allocations"));
  add_column (self, COL_FIRST_COST + TM_COST_TEMPORARY, _("Temporary"));
  add_column (self, COL_FIRST_COST + TM_COST_ALLOCATED, _("Allocated"));
  tm_column_sort_init (self->table);
  tm_column_sort_by (self->table, self->columns[COL_FIRST_COST + TM_COST_PEAK], GTK_SORT_DESCENDING);
}

GtkWidget *
tm_call_tree_view_new (void)
{
  return g_object_new (TM_TYPE_CALL_TREE_VIEW, NULL);
}
