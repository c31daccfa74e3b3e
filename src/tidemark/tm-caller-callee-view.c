/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Caller/callee view: one flat, sortable table of functions, and the
 * callers and callees of the selected one (from TmCallerCallee).
 */
#include "tm-config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "tm-caller-callee-view.h"
#include "tm-column-sort.h"
#include "tm-format-util.h"

/* ---- rows: a function with its costs, or an edge with its cost ---- */

#define TM_TYPE_FN_ROW (tm_fn_row_get_type ())
G_DECLARE_FINAL_TYPE (TmFnRow, tm_fn_row, TM, FN_ROW, GObject)

struct _TmFnRow
{
  GObject        parent_instance;
  TmCallProfile *profile;   /* the view's, which outlives its rows' use */
  guint32        symbol;
  TmCost         cost;      /* inclusive, or through the edge */
  TmCost         self;
};

G_DEFINE_FINAL_TYPE (TmFnRow, tm_fn_row, G_TYPE_OBJECT)

static void tm_fn_row_class_init (TmFnRowClass *klass) { }
static void tm_fn_row_init (TmFnRow *row) { }

static TmFnRow *
fn_row_new (TmCallProfile *profile, guint32 symbol, const TmCost *cost, const TmCost *self)
{
  TmFnRow *row = g_object_new (TM_TYPE_FN_ROW, NULL);
  row->profile = profile;
  row->symbol = symbol;
  row->cost = *cost;
  if (self)
    row->self = *self;
  return row;
}

/* ---- columns ---- */

typedef enum { COL_FUNCTION, COL_LOCATION, COL_COST, COL_SELF } ColumnKind;

typedef struct {
  ColumnKind kind;
  TmCostKind cost;
} Column;

static const Column function_columns[] = {
  { COL_FUNCTION, 0 }, { COL_LOCATION, 0 },
  { COL_COST, TM_COST_PEAK }, { COL_SELF, TM_COST_PEAK },
  { COL_COST, TM_COST_LEAKED }, { COL_SELF, TM_COST_LEAKED },
  { COL_COST, TM_COST_ALLOCATIONS }, { COL_SELF, TM_COST_ALLOCATIONS },
  { COL_COST, TM_COST_TEMPORARY },
};
static const Column edge_columns[] = {
  { COL_FUNCTION, 0 }, { COL_COST, TM_COST_PEAK }, { COL_COST, TM_COST_LEAKED },
  { COL_COST, TM_COST_ALLOCATIONS }, { COL_COST, TM_COST_TEMPORARY },
};

struct _TmCallerCalleeView
{
  GtkWidget           parent_instance;

  GtkWidget          *box;
  GtkSearchEntry     *search_entry;
  GtkColumnView      *functions;
  GtkColumnView      *callers;
  GtkColumnView      *callees;

  TmCallProfile      *profile;
  TmCallerCallee     *cc;
  GListStore         *function_rows;
  GtkCustomFilter    *filter;
  char               *search;        /* casefolded */
  GtkSingleSelection *selection;
  GListStore         *caller_rows;
  GListStore         *callee_rows;
};

G_DEFINE_FINAL_TYPE (TmCallerCalleeView, tm_caller_callee_view, GTK_TYPE_WIDGET)

static char *
cell_text (TmFnRow *row, const Column *col)
{
  const TmCallSymbol *sym = tm_call_profile_get_symbol (row->profile, row->symbol);
  gint64 v;

  switch (col->kind)
    {
    case COL_FUNCTION:
      return tm_call_symbol_label (sym);
    case COL_LOCATION:
      return tm_call_symbol_location (sym);
    case COL_SELF:
      v = row->self.v[col->cost];
      break;
    case COL_COST:
    default:
      v = row->cost.v[col->cost];
      break;
    }
  return tm_cost_kind_is_bytes (col->cost) ? tm_format_bytes ((double) v) : tm_format_count ((guint64) MAX (v, 0));
}

static void
setup_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  const Column *col = data;
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), col->kind >= COL_COST ? 1.0 : 0.0);
  /* costs are never cut short; a long signature ends in "…", whole in
   * its tooltip; a location keeps its file name and line */
  if (col->kind == COL_LOCATION)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  else if (col->kind == COL_FUNCTION)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (label, "tm-preview");
    }
  if (col->kind >= COL_COST)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  const Column *col = data;
  g_autofree char *text = cell_text (gtk_list_item_get_item (item), data);
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), text);
  if (col->kind == COL_FUNCTION || col->kind == COL_LOCATION)
    gtk_widget_set_tooltip_text (label, text);
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const Column *col = data;
  TmFnRow *x = (TmFnRow *) a, *y = (TmFnRow *) b;
  gint64 vx, vy;

  if (col->kind == COL_FUNCTION || col->kind == COL_LOCATION)
    return g_utf8_collate (tm_call_profile_get_symbol (x->profile, x->symbol)->function,
                           tm_call_profile_get_symbol (y->profile, y->symbol)->function);
  vx = col->kind == COL_SELF ? x->self.v[col->cost] : x->cost.v[col->cost];
  vy = col->kind == COL_SELF ? y->self.v[col->cost] : y->cost.v[col->cost];
  return vx < vy ? -1 : vx > vy;
}

static const char *
column_title (const Column *col)
{
  if (col->kind == COL_FUNCTION)
    return _("Function");
  if (col->kind == COL_LOCATION)
    return _("Location");
  if (col->kind == COL_SELF)
    switch (col->cost)
      {
      case TM_COST_PEAK: return _("Self Peak");
      case TM_COST_LEAKED: return _("Self Leaked");
      case TM_COST_ALLOCATIONS: return _("Self Allocs");
      default: return _("Self");
      }
  return tm_cost_kind_label (col->cost);
}

/* Adds the columns; returns the peak column to sort by. */
static GtkColumnViewColumn *
add_columns (GtkColumnView *view, const Column *cols, guint n)
{
  GtkColumnViewColumn *peak = NULL;

  for (guint i = 0; i < n; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, (gpointer) &cols[i], NULL));
      GtkColumnViewColumn *col;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), (gpointer) &cols[i]);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), (gpointer) &cols[i]);
      col = gtk_column_view_column_new (column_title (&cols[i]), factory);
      gtk_column_view_column_set_sorter (col, sorter);
      gtk_column_view_column_set_resizable (col, TRUE);
      gtk_column_view_column_set_expand (col, cols[i].kind == COL_FUNCTION);
      if (cols[i].kind >= COL_COST)
        tm_column_sort_descending_first (col);
      /* numbers keep their width; the function name takes the rest */
      if (cols[i].kind >= COL_COST)
        gtk_column_view_column_set_fixed_width (col, 92);
      else if (cols[i].kind == COL_LOCATION)
        gtk_column_view_column_set_fixed_width (col, 120);
      gtk_column_view_append_column (view, col);
      if (cols[i].kind == COL_COST && cols[i].cost == TM_COST_PEAK)
        peak = col;
      g_object_unref (col);
    }
  return peak;
}

/* A sorted view of `store` (behind `filter` if any), by the table's sorter. */
static GListModel *
sorted (GtkColumnView *view, GListModel *store, GtkFilter *filter)
{
  GListModel *model = g_object_ref (store);

  if (filter != NULL)
    model = G_LIST_MODEL (gtk_filter_list_model_new (model, g_object_ref (filter)));
  return G_LIST_MODEL (gtk_sort_list_model_new (model, g_object_ref (gtk_column_view_get_sorter (view))));
}

static void
fill_edges (TmCallerCalleeView *self, GListStore *store, const TmCallEdge *edges, guint n)
{
  g_list_store_remove_all (store);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TmFnRow) row = fn_row_new (self->profile, edges[i].symbol, &edges[i].cost, NULL);
      g_list_store_append (store, row);
    }
}

static void
selection_changed_cb (TmCallerCalleeView *self)
{
  TmFnRow *row = gtk_single_selection_get_selected_item (self->selection);
  const TmCallFunction *f;

  g_list_store_remove_all (self->caller_rows);
  g_list_store_remove_all (self->callee_rows);
  if (row == NULL || self->cc == NULL)
    return;
  f = tm_caller_callee_function (self->cc, row->symbol);
  fill_edges (self, self->caller_rows, f->callers, f->n_callers);
  fill_edges (self, self->callee_rows, f->callees, f->n_callees);
}

static gboolean
keep_function (gpointer item, gpointer data)
{
  TmCallerCalleeView *self = data;
  TmFnRow *row = item;
  g_autofree char *folded = NULL;

  /* functions that appear in no stack are left out */
  if (row->cost.v[TM_COST_ALLOCATIONS] == 0 && row->cost.v[TM_COST_LEAKED] == 0)
    return FALSE;
  if (self->search == NULL)
    return TRUE;
  folded = g_utf8_casefold (tm_call_profile_get_symbol (row->profile, row->symbol)->function, -1);
  return strstr (folded, self->search) != NULL;
}

static void
search_changed_cb (TmCallerCalleeView *self, GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search, g_free);
  if (text[0] != '\0')
    self->search = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

gboolean
tm_caller_callee_view_select_symbol (TmCallerCalleeView *self, guint32 symbol)
{
  GListModel *model;
  guint n;

  g_return_val_if_fail (TM_IS_CALLER_CALLEE_VIEW (self), FALSE);
  if (self->selection == NULL)
    return FALSE;
  model = G_LIST_MODEL (self->selection);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TmFnRow) row = g_list_model_get_item (model, i);
      if (row->symbol == symbol)
        {
          gtk_single_selection_set_selected (self->selection, i);
          gtk_widget_activate_action (GTK_WIDGET (self->functions), "list.scroll-to-item", "u", i);
          return TRUE;
        }
    }
  return FALSE;
}

static void
edge_activate_cb (TmCallerCalleeView *self, guint position, GtkColumnView *view)
{
  g_autoptr(TmFnRow) row = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (view)), position);

  if (row != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      tm_caller_callee_view_select_symbol (self, row->symbol);
    }
}

void
tm_caller_callee_view_set_profile (TmCallerCalleeView *self, TmCallProfile *profile)
{
  g_autoptr(GListModel) model = NULL;

  g_return_if_fail (TM_IS_CALLER_CALLEE_VIEW (self));
  gtk_column_view_set_model (self->functions, NULL);
  g_list_store_remove_all (self->function_rows);
  g_list_store_remove_all (self->caller_rows);
  g_list_store_remove_all (self->callee_rows);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->cc, tm_caller_callee_free);
  if (profile)
    tm_call_profile_ref (profile);
  g_clear_pointer (&self->profile, tm_call_profile_unref);
  self->profile = profile;
  if (profile == NULL)
    return;

  self->cc = tm_caller_callee_new (profile);
  for (guint32 i = 0; i < tm_caller_callee_n_functions (self->cc); i++)
    {
      const TmCallFunction *f = tm_caller_callee_function (self->cc, i);
      g_autoptr(TmFnRow) row = fn_row_new (profile, f->symbol, &f->inclusive, &f->self);
      g_list_store_append (self->function_rows, row);
    }
  model = sorted (self->functions, G_LIST_MODEL (self->function_rows), GTK_FILTER (self->filter));
  self->selection = gtk_single_selection_new (g_object_ref (model));
  gtk_single_selection_set_autoselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self);
  gtk_column_view_set_model (self->functions, GTK_SELECTION_MODEL (self->selection));
  selection_changed_cb (self);
}

guint
tm_caller_callee_view_n_edges (TmCallerCalleeView *self, gboolean callers)
{
  return g_list_model_get_n_items (G_LIST_MODEL (callers ? self->caller_rows : self->callee_rows));
}

guint32
tm_caller_callee_view_get_selected (TmCallerCalleeView *self)
{
  TmFnRow *row = self->selection ? gtk_single_selection_get_selected_item (self->selection) : NULL;
  return row ? row->symbol : G_MAXUINT32;
}

static void
tm_caller_callee_view_dispose (GObject *object)
{
  TmCallerCalleeView *self = TM_CALLER_CALLEE_VIEW (object);

  if (self->functions)
    gtk_column_view_set_model (self->functions, NULL);
  g_clear_object (&self->selection);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_CALLER_CALLEE_VIEW);
  g_clear_object (&self->function_rows);
  g_clear_object (&self->caller_rows);
  g_clear_object (&self->callee_rows);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->cc, tm_caller_callee_free);
  g_clear_pointer (&self->profile, tm_call_profile_unref);
  g_clear_pointer (&self->search, g_free);
  G_OBJECT_CLASS (tm_caller_callee_view_parent_class)->dispose (object);
}

static void
tm_caller_callee_view_class_init (TmCallerCalleeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_caller_callee_view_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-caller-callee-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmCallerCalleeView, box);
  gtk_widget_class_bind_template_child (widget_class, TmCallerCalleeView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TmCallerCalleeView, functions);
  gtk_widget_class_bind_template_child (widget_class, TmCallerCalleeView, callers);
  gtk_widget_class_bind_template_child (widget_class, TmCallerCalleeView, callees);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, edge_activate_cb);
}

static void
tm_caller_callee_view_init (TmCallerCalleeView *self)
{
  GtkColumnViewColumn *peak;
  g_autoptr(GtkNoSelection) callers = NULL, callees = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->function_rows = g_list_store_new (TM_TYPE_FN_ROW);
  self->caller_rows = g_list_store_new (TM_TYPE_FN_ROW);
  self->callee_rows = g_list_store_new (TM_TYPE_FN_ROW);
  self->filter = gtk_custom_filter_new (keep_function, self, NULL);

  peak = add_columns (self->functions, function_columns, G_N_ELEMENTS (function_columns));
  tm_column_sort_init (self->functions);
  tm_column_sort_by (self->functions, peak, GTK_SORT_DESCENDING);
  peak = add_columns (self->callers, edge_columns, G_N_ELEMENTS (edge_columns));
  tm_column_sort_init (self->callers);
  tm_column_sort_by (self->callers, peak, GTK_SORT_DESCENDING);
  callers = gtk_no_selection_new (sorted (self->callers, G_LIST_MODEL (self->caller_rows), NULL));
  gtk_column_view_set_model (self->callers, GTK_SELECTION_MODEL (callers));
  peak = add_columns (self->callees, edge_columns, G_N_ELEMENTS (edge_columns));
  tm_column_sort_init (self->callees);
  tm_column_sort_by (self->callees, peak, GTK_SORT_DESCENDING);
  callees = gtk_no_selection_new (sorted (self->callees, G_LIST_MODEL (self->callee_rows), NULL));
  gtk_column_view_set_model (self->callees, GTK_SELECTION_MODEL (callees));
}

GtkWidget *
tm_caller_callee_view_new (void)
{
  return g_object_new (TM_TYPE_CALLER_CALLEE_VIEW, NULL);
}
