/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-ds-growth-view.h"
#include "tm-render-ds-growth.h"
#include "tm-format-util.h"
#include "tm-text-table.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* ---- rows of the tree table ---- */

typedef enum {
  ROW_STRUCTURE,     /* one compared structure */
  ROW_METRIC,        /* one of its four metrics */
  ROW_LEAVES,        /* "Leaves by type" / "Leaves by allocation site" */
  ROW_LEAF_GROUP,    /* one type or site among its leaves */
} RowKind;

enum { COL_NAME, COL_BEFORE, COL_AFTER, COL_GROWTH, COL_HGP, COL_PATTERN, COL_LC, COL_MC, COL_SC, N_COLUMNS };

#define TM_TYPE_DS_GROWTH_ROW (tm_ds_growth_row_get_type ())
G_DECLARE_FINAL_TYPE (TmDsGrowthRow, tm_ds_growth_row, TM, DS_GROWTH_ROW, GObject)

struct _TmDsGrowthRow
{
  GObject  parent_instance;
  RowKind  kind;
  guint    entry;          /* index into TmDsGrowth.entries */
  gboolean by_site;        /* ROW_LEAVES: classify by site, else by type */
  char    *text[N_COLUMNS];
};

G_DEFINE_FINAL_TYPE (TmDsGrowthRow, tm_ds_growth_row, G_TYPE_OBJECT)

static void
tm_ds_growth_row_finalize (GObject *object)
{
  TmDsGrowthRow *row = TM_DS_GROWTH_ROW (object);

  for (guint i = 0; i < N_COLUMNS; i++)
    g_free (row->text[i]);
  G_OBJECT_CLASS (tm_ds_growth_row_parent_class)->finalize (object);
}

static void
tm_ds_growth_row_class_init (TmDsGrowthRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_ds_growth_row_finalize;
}

static void
tm_ds_growth_row_init (TmDsGrowthRow *row)
{
}

static TmDsGrowthRow *
row_new (RowKind kind, guint entry, const char *name)
{
  TmDsGrowthRow *row = g_object_new (TM_TYPE_DS_GROWTH_ROW, NULL);

  row->kind = kind;
  row->entry = entry;
  row->text[COL_NAME] = g_strdup (name);
  return row;
}

/* ---- the view ---- */

struct _TmDsGrowthView
{
  TmSection         parent_instance;

  GtkWidget        *box;
  GtkLabel         *title_label;
  GtkSpinner       *spinner;
  GtkDropDown      *metric_dropdown;
  GtkLabel         *status_label;
  GtkDrawingArea   *chart;
  GtkPaned       *paned;
  GtkColumnView    *table;
  GtkWidget        *sites_box;
  GtkLabel         *sites_label;
  TmTextTable      *sites_table;    /* the selected container's sites by staleness */
  GtkWidget        *by_site_box;
  GtkLabel         *by_site_note;
  TmTextTable      *by_site_table;  /* the ranked containers by allocation site */

  GListStore       *roots;        /* TmDsGrowthRow, the structures */
  GtkTreeListModel *tree;
  GtkSingleSelection *selection;
  TmDsGrowthChartLayout layout;

  TmTrace          *trace;
  TmDsGrowth       *growth;
  TmContainerReport *containers;  /* leak confidence over the same window, once computed */
  GCancellable     *cancellable;
  int               selected_entry;
};

G_DEFINE_FINAL_TYPE (TmDsGrowthView, tm_ds_growth_view, TM_TYPE_SECTION)

static TmDsMetric
current_metric (TmDsGrowthView *self)
{
  guint m = gtk_drop_down_get_selected (self->metric_dropdown);

  return m < TM_DS_N_METRICS ? (TmDsMetric) m : TM_DS_METRIC_RETAINED;
}

static char *
signed_bytes (gint64 v)
{
  g_autofree char *abs = tm_format_bytes ((double) (v < 0 ? -v : v));

  return g_strdup_printf ("%s%s", v < 0 ? "−" : "+", abs);
}

static char *
size_text (TmDsSize size)
{
  g_autofree char *bytes = tm_format_bytes ((double) size.bytes);
  g_autofree char *objects = tm_format_count (size.objects);

  /* TRANSLATORS: a size: bytes, then the number of objects */
  return g_strdup_printf (_("%s (%s obj.)"), bytes, objects);
}

static char *
hgp_text (const TmDsGrowth *g, gint64 growth)
{
  if (g->heap_growth_bytes <= 0)
    return g_strdup ("—");
  return g_strdup_printf ("%.1f %%", 100.0 * (double) growth / (double) g->heap_growth_bytes);
}

static void
fill_metric (TmDsGrowthRow *row, const TmDsGrowth *g, const TmDsGrowthEntry *e, TmDsMetric m)
{
  row->text[COL_BEFORE] = size_text (e->size[m][0]);
  row->text[COL_AFTER] = size_text (e->size[m][1]);
  row->text[COL_GROWTH] = signed_bytes (tm_ds_growth_entry_delta (e, m));
  row->text[COL_HGP] = hgp_text (g, tm_ds_growth_entry_delta (e, m));
}

typedef struct {
  guint32  key;
  TmDsSize size[2];
} LeafGroup;

static gint
compare_groups (gconstpointer a, gconstpointer b)
{
  const LeafGroup *x = a, *y = b;
  gint64 dx = (gint64) x->size[1].bytes - (gint64) x->size[0].bytes;
  gint64 dy = (gint64) y->size[1].bytes - (gint64) y->size[0].bytes;

  return dx > dy ? -1 : dx < dy;
}

/* Classifies the structure's leaves at both ends by type or allocation
 * site: the paper's "what did it gain" drill-down. */
static GListModel *
leaf_groups (TmDsGrowthView *self, const TmDsGrowthRow *parent)
{
  const TmDsGrowthEntry *e = &g_array_index (self->growth->entries, TmDsGrowthEntry, parent->entry);
  g_autoptr(GHashTable) groups = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (LeafGroup));
  GListStore *store = g_list_store_new (TM_TYPE_DS_GROWTH_ROW);
  GHashTableIter iter;
  gpointer value;

  for (guint k = 0; k < 2; k++)
    {
      TmDsResult *r = self->growth->result[k];
      g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));

      if (e->structure[k] == TM_DS_NONE)
        continue;   /* born inside the window: nothing at the start */
      tm_ds_result_leaves (r, e->structure[k], nodes);
      for (guint i = 0; i < nodes->len; i++)
        {
          guint32 node = g_array_index (nodes, guint32, i);
          guint32 key = parent->by_site ? self->trace->obj_site[r->graph->node_object[node]] : r->node_type[node];
          LeafGroup *grp = g_hash_table_lookup (groups, GUINT_TO_POINTER (key + 1));

          if (grp == NULL)
            {
              grp = g_new0 (LeafGroup, 1);
              grp->key = key;
              g_hash_table_insert (groups, GUINT_TO_POINTER (key + 1), grp);
            }
          grp->size[k].objects++;
          grp->size[k].bytes += r->node_size[node];
        }
    }

  g_hash_table_iter_init (&iter, groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_append_val (sorted, *(LeafGroup *) value);
  g_array_sort (sorted, compare_groups);

  for (guint i = 0; i < sorted->len; i++)
    {
      const LeafGroup *grp = &g_array_index (sorted, LeafGroup, i);
      g_autofree char *name = parent->by_site
        ? tm_trace_site_label (self->trace, grp->key)
        : g_strdup (tm_trace_type (self->trace, grp->key)->name);
      g_autoptr(TmDsGrowthRow) row = row_new (ROW_LEAF_GROUP, parent->entry, name);
      gint64 growth = (gint64) grp->size[1].bytes - (gint64) grp->size[0].bytes;

      row->text[COL_BEFORE] = size_text (grp->size[0]);
      row->text[COL_AFTER] = size_text (grp->size[1]);
      row->text[COL_GROWTH] = signed_bytes (growth);
      row->text[COL_HGP] = hgp_text (self->growth, growth);
      g_list_store_append (store, row);
    }
  return G_LIST_MODEL (store);
}

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  TmDsGrowthView *self = user_data;
  TmDsGrowthRow *parent = item;
  GListStore *store;
  const TmDsGrowthEntry *e;

  if (self->growth == NULL)
    return NULL;
  if (parent->kind == ROW_LEAVES)
    return leaf_groups (self, parent);
  if (parent->kind != ROW_STRUCTURE)
    return NULL;

  e = &g_array_index (self->growth->entries, TmDsGrowthEntry, parent->entry);
  store = g_list_store_new (TM_TYPE_DS_GROWTH_ROW);
  for (TmDsMetric m = 0; m < TM_DS_N_METRICS; m++)
    {
      g_autoptr(TmDsGrowthRow) row = row_new (ROW_METRIC, parent->entry, tm_ds_metric_label (m));
      fill_metric (row, self->growth, e, m);
      g_list_store_append (store, row);
    }
  for (guint by_site = 0; by_site < 2; by_site++)
    {
      g_autoptr(TmDsGrowthRow) row = row_new (ROW_LEAVES, parent->entry,
                                              by_site ? _("Leaves by allocation site") : _("Leaves by type"));
      row->by_site = by_site;
      g_list_store_append (store, row);
    }
  return G_LIST_MODEL (store);
}

static void rebuild_rows (TmDsGrowthView *self);

/* Leak confidence of a structure (tm-containers.h): staleness from the
 * graphs is an upper bound, marked with "≤"; from recorded container
 * operations it is exact, unmarked. */
static void
fill_confidence (TmDsGrowthView *self, TmDsGrowthRow *row, const TmDsGrowthEntry *e)
{
  if (self->containers == NULL)
    return;
  for (guint i = 0; i < self->containers->containers->len; i++)
    {
      const TmContainer *c = g_ptr_array_index (self->containers->containers, i);
      const char *bound = c->exact ? "" : "≤ ";

      if (c->head_object != e->object_index)
        continue;
      row->text[COL_LC] = g_strdup_printf ("%s%.2f", bound, c->lc);
      row->text[COL_MC] = g_strdup_printf ("%.2f", c->mc);
      row->text[COL_SC] = g_strdup_printf ("%s%.2f", bound, c->sc);
      return;
    }
  /* not ranked: empty at the end, or everything it gained it lost again */
  row->text[COL_LC] = g_strdup (_("leak-free"));
}

/* The container of a structure row, if the report ranks it. */
static const TmContainer *
find_container (TmDsGrowthView *self, int entry)
{
  const TmDsGrowthEntry *e;

  if (self->containers == NULL || self->growth == NULL || entry < 0 || (guint) entry >= self->growth->entries->len)
    return NULL;
  e = &g_array_index (self->growth->entries, TmDsGrowthEntry, entry);
  for (guint i = 0; i < self->containers->containers->len; i++)
    {
      const TmContainer *c = g_ptr_array_index (self->containers->containers, i);
      if (c->head_object == e->object_index)
        return c;
    }
  return NULL;
}

static char *
site_text (TmTrace *trace, guint32 site)
{
  return site == TM_UNKNOWN ? g_strdup (_("(unknown site)")) : tm_trace_site_label (trace, site);
}

/* The selected container's sites, stalest first (sortable): with
 * recorded operations the callers that added its elements, else its
 * elements' allocation sites. */
static void
update_sites (TmDsGrowthView *self)
{
  const TmContainer *c = find_container (self, self->selected_entry);
  g_autofree char *name = NULL;
  g_autofree char *heading = NULL;

  gtk_widget_set_visible (self->sites_box, c != NULL);
  if (c == NULL)
    return;
  name = g_strdup_printf ("%s @%" G_GUINT64_FORMAT, tm_trace_type (self->trace, c->type)->name,
                          tm_trace_object_id (self->trace, c->head_object));
  heading = g_strdup_printf (c->exact
                               /* TRANSLATORS: a container, type @object id */
                             ? _("Call sites that added the elements of %s, by staleness (exact, from the recorded operations)")
                               /* TRANSLATORS: a container, type @object id */
                             : _("Allocation sites of the elements of %s, by staleness (an upper bound from the reference graphs)"),
                             name);
  gtk_label_set_text (self->sites_label, heading);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->sites_label), heading);
  tm_text_table_clear (self->sites_table);
  for (guint i = 0; i < c->sites->len; i++)
    {
      const TmContainerSite *cs = &g_array_index (c->sites, TmContainerSite, i);
      g_autofree char *site = site_text (self->trace, cs->site);
      g_autofree char *n = tm_format_count (cs->elements);
      g_autofree char *stale = g_strdup_printf ("%s%.3f", c->exact ? "" : "≤ ", cs->mean_staleness);
      const char *cells[] = { site, n, stale };
      double keys[] = { NAN, (double) cs->elements, cs->mean_staleness };

      tm_text_table_append (self->sites_table, cells, keys);
    }
  tm_text_table_sort_by (self->sites_table, 2);
}

/* The ranked containers by allocation site, highest leak confidence first. */
static void
fill_by_site (TmDsGrowthView *self)
{
  g_autoptr(GArray) groups = tm_container_report_by_alloc_site (self->trace, self->containers);
  const TmContainerReport *r = self->containers;
  g_autofree char *note = NULL;

  tm_text_table_clear (self->by_site_table);
  for (guint i = 0; i < groups->len; i++)
    {
      const TmContainerAllocSite *g = &g_array_index (groups, TmContainerAllocSite, i);
      const TmContainer *top = g_ptr_array_index (r->containers, g->top);
      gboolean exact = g->n_exact == g->n_containers;
      const char *bound = exact ? "" : "≤ ";
      g_autofree char *site = site_text (self->trace, g->site);
      const char *type = g->type == TM_UNKNOWN ? _("(several types)") : tm_trace_type (self->trace, g->type)->name;
      g_autofree char *n = tm_format_count (g->n_containers);
      g_autofree char *growth = signed_bytes (g->growth_bytes);
      g_autofree char *elements = tm_format_count (g->elements_at_end);
      g_autofree char *sc = g_strdup_printf ("%s%.3f", bound, g->sc);
      g_autofree char *lc = g_strdup_printf ("%s%.3f", bound, g->lc);
      g_autofree char *mc = g_strdup_printf ("%.3f", g->mc);
      const char *from = exact ? _("exact") : g->n_exact == 0 ? _("upper bound") : _("partly exact");
      g_autofree char *top_name = g_strdup_printf ("%s @%" G_GUINT64_FORMAT, tm_trace_type (self->trace, top->type)->name,
                                                   tm_trace_object_id (self->trace, top->head_object));
      /* TRANSLATORS: the highest-ranked container of a site (type @object id, its LC), then how many of the
       * site's containers have exact staleness */
      g_autofree char *tooltip = g_strdup_printf (_("Highest leak confidence at this site: %s (%.3f). Staleness from "
                                                    "recorded operations for %u of its %u containers."),
                                                  top_name, top->lc, g->n_exact, g->n_containers);
      const char *cells[] = { site, type, n, growth, elements, sc, lc, mc, from };
      double keys[] = { NAN, NAN, g->n_containers, (double) g->growth_bytes, (double) g->elements_at_end,
                        g->sc, g->lc, g->mc, (double) g->n_exact / g->n_containers };

      tm_text_table_append_with_tooltip (self->by_site_table, cells, keys, tooltip);
    }
  tm_text_table_sort_by (self->by_site_table, 6);
  if (groups->len == 0)
    /* TRANSLATORS: the number of leak-free containers left out */
    note = g_strdup_printf (_("No container may leak over this window: the %u alive at its end are leak-free "
                              "(empty, or all they gained they lost again)."), r->leak_free);
  else
    note = g_strdup_printf (_("Containers alive at the end of the window, by the site that allocated them; "
                              "%u leak-free ones are left out. %s"), r->leak_free,
                            r->sc_upper_bound ? _("≤ marks upper bounds: the reference graphs show when elements come and go, not when they are read.")
                                              : _("Staleness is exact: from the recorded container operations."));
  gtk_label_set_text (self->by_site_note, note);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->by_site_note), note);
}

static void
containers_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmDsGrowthView) self = user_data;
  g_autoptr(GError) error = NULL;
  TmContainerReport *report = tm_document_containers_finish (TM_DOCUMENT (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* a newer window took over */
  if (report == NULL)
    {
      /* too few graphs: the columns stay empty, the page says why */
      gtk_label_set_text (self->by_site_note, error->message);
      return;
    }
  g_clear_pointer (&self->containers, tm_container_report_free);
  self->containers = report;
  rebuild_rows (self);
  fill_by_site (self);
  update_sites (self);
}

/* Top-level rows: the structures, by the chosen metric's HGP. */
static void
rebuild_rows (TmDsGrowthView *self)
{
  TmDsMetric metric = current_metric (self);
  g_autofree guint *order = NULL;
  guint n;

  g_list_store_remove_all (self->roots);
  if (self->growth == NULL)
    return;

  order = g_new (guint, MAX (self->growth->entries->len, 1));
  n = tm_ds_growth_chart_pick (self->growth, metric, self->growth->entries->len, order,
                               self->growth->entries->len);
  for (guint i = 0; i < n; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (self->growth->entries, TmDsGrowthEntry, order[i]);
      g_autofree char *name = g_strdup_printf ("%s @%" G_GUINT64_FORMAT, tm_trace_type (self->trace, e->type)->name,
                                               tm_trace_object_id (self->trace, e->object_index));
      g_autoptr(TmDsGrowthRow) row = row_new (ROW_STRUCTURE, order[i], name);

      fill_metric (row, self->growth, e, metric);
      row->text[COL_PATTERN] = g_strdup (tm_ds_pattern_label (e->pattern));
      fill_confidence (self, row, e);
      g_list_store_append (self->roots, row);
    }
}

static void
chart_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  TmDsGrowthView *self = user_data;
  TmDsGrowthChartOptions o;
  GdkRGBA fg;

  if (self->growth == NULL)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  tm_ds_growth_chart_options_init (&o, width, height);
  o.metric = current_metric (self);
  o.selected = self->selected_entry;
  o.foreground = (TmColor) { fg.red, fg.green, fg.blue, fg.alpha };
  o.dark = 0.299 * fg.red + 0.587 * fg.green + 0.114 * fg.blue > 0.5;
  tm_ds_growth_chart_render (cr, self->trace, self->growth, &o, &self->layout);
}

void
tm_ds_growth_view_select_entry (TmDsGrowthView *self,
                                int             entry)
{
  guint n;

  g_return_if_fail (TM_IS_DS_GROWTH_VIEW (self));

  if (entry < 0)
    {
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      return;
    }
  n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));
  for (guint pos = 0; pos < n; pos++)
    {
      g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (G_LIST_MODEL (self->tree), pos);
      g_autoptr(TmDsGrowthRow) row = gtk_tree_list_row_get_item (tree_row);

      if (gtk_tree_list_row_get_depth (tree_row) == 0 && row->entry == (guint) entry)
        {
          gtk_single_selection_set_selected (self->selection, pos);
          break;
        }
    }
}

int
tm_ds_growth_view_get_selected_entry (TmDsGrowthView *self)
{
  g_return_val_if_fail (TM_IS_DS_GROWTH_VIEW (self), -1);
  return self->selected_entry;
}

TmTextTable *
tm_ds_growth_view_get_sites_table (TmDsGrowthView *self)
{
  g_return_val_if_fail (TM_IS_DS_GROWTH_VIEW (self), NULL);
  return gtk_widget_get_visible (self->sites_box) ? self->sites_table : NULL;
}

TmTextTable *
tm_ds_growth_view_get_containers_table (TmDsGrowthView *self)
{
  g_return_val_if_fail (TM_IS_DS_GROWTH_VIEW (self), NULL);
  return self->containers != NULL ? self->by_site_table : NULL;
}

guint
tm_ds_growth_view_get_n_rows (TmDsGrowthView *self)
{
  g_return_val_if_fail (TM_IS_DS_GROWTH_VIEW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->tree));
}

char *
tm_ds_growth_view_dup_cell (TmDsGrowthView *self,
                            guint           row,
                            guint           column)
{
  g_autoptr(GtkTreeListRow) tree_row = NULL;
  g_autoptr(TmDsGrowthRow) item = NULL;

  g_return_val_if_fail (TM_IS_DS_GROWTH_VIEW (self), NULL);
  g_return_val_if_fail (column < N_COLUMNS, NULL);

  tree_row = g_list_model_get_item (G_LIST_MODEL (self->tree), row);
  if (tree_row == NULL)
    return NULL;
  item = gtk_tree_list_row_get_item (tree_row);
  return g_strdup (item->text[column] != NULL ? item->text[column] : "");
}

void
tm_ds_growth_view_set_expanded (TmDsGrowthView *self,
                                guint           row,
                                gboolean        expanded)
{
  g_autoptr(GtkTreeListRow) tree_row = NULL;

  g_return_if_fail (TM_IS_DS_GROWTH_VIEW (self));

  tree_row = g_list_model_get_item (G_LIST_MODEL (self->tree), row);
  if (tree_row != NULL)
    gtk_tree_list_row_set_expanded (tree_row, expanded);
}

static void
chart_pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, TmDsGrowthView *self)
{
  int entry = tm_ds_growth_chart_hit (&self->layout, x, y);

  if (entry >= 0)
    tm_ds_growth_view_select_entry (self, entry);
}

static void
selection_changed_cb (GtkSingleSelection *selection, GParamSpec *pspec, TmDsGrowthView *self)
{
  GtkTreeListRow *tree_row = gtk_single_selection_get_selected_item (selection);
  int entry = -1;

  if (tree_row != NULL)
    {
      g_autoptr(TmDsGrowthRow) row = gtk_tree_list_row_get_item (tree_row);
      entry = (int) row->entry;
    }
  if (entry != self->selected_entry)
    {
      self->selected_entry = entry;
      gtk_widget_queue_draw (GTK_WIDGET (self->chart));
      update_sites (self);
    }
}

static void
metric_changed_cb (GtkDropDown *dropdown, GParamSpec *pspec, TmDsGrowthView *self)
{
  rebuild_rows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart));
}

/* ---- table columns ---- */

static const char *
lc_tooltip (void)
{
  return _("Leak confidence LC = SC^(1 − MC) (Xu & Rountev, ICSE 2008): 0 when no element is stale, 1 when all are "
           "stale for the whole window. ≤ marks an upper bound (staleness from the reference graphs).");
}

static const char *
mc_tooltip (void)
{
  return _("Memory contribution MC: the area under the container's share of the reachable memory over the window, "
           "0 to 1.");
}

static const char *
sc_tooltip (void)
{
  return _("Staleness contribution SC: the mean time its elements went unused (from their last add or retrieval to "
           "their removal, or the window's end), as a fraction of the window. With recorded container operations "
           "it is exact; from the reference graphs, retrievals are unknown, so it is the elements' age: an upper "
           "bound, marked ≤.");
}


static void
cell_setup (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer column)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_UINT (column) == COL_NAME ||
                                           GPOINTER_TO_UINT (column) == COL_PATTERN ? 0.0 : 1.0);
  /* names end in the part that tells them apart (the simple class name
   * and the object id); numbers and patterns are never cut short */
  if (GPOINTER_TO_UINT (column) == COL_NAME)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
      gtk_label_set_width_chars (GTK_LABEL (label), 24);
    }
  if (GPOINTER_TO_UINT (column) == COL_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
    }
  else
    gtk_list_item_set_child (item, label);
}

static void
cell_bind (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer column)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);
  g_autoptr(TmDsGrowthRow) row = gtk_tree_list_row_get_item (tree_row);
  GtkWidget *child = gtk_list_item_get_child (item);
  guint c = GPOINTER_TO_UINT (column);

  if (c == COL_NAME)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), tree_row);
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
      gtk_widget_set_tooltip_text (child, row->text[COL_NAME]);
    }
  gtk_label_set_text (GTK_LABEL (child), row->text[c] != NULL ? row->text[c] : "");
  if (c == COL_LC)
    gtk_widget_set_tooltip_text (child, lc_tooltip ());
  else if (c == COL_MC)
    gtk_widget_set_tooltip_text (child, mc_tooltip ());
  else if (c == COL_SC)
    gtk_widget_set_tooltip_text (child, sc_tooltip ());
}

static void
add_column (TmDsGrowthView *self, guint column, const char *title, gboolean expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), GUINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (self->table, col);
  g_object_unref (col);
}

/* The sites of the selected container, and the containers by allocation site. */
static void
add_tables (TmDsGrowthView *self)
{
  const char *sites[] = { _("Call site"), _("Elements"), _("Mean staleness"), NULL };
  const char *by_site[] = { _("Allocation site"), _("Type"), _("Containers"), _("Growth"), _("Elements"),
                            _("Staleness"), _("Leak confidence"), _("Memory contr."), _("Staleness is"), NULL };

  self->sites_table = TM_TEXT_TABLE (tm_text_table_new (sites));
  gtk_widget_set_size_request (GTK_WIDGET (self->sites_table), -1, 100);
  gtk_widget_set_vexpand (GTK_WIDGET (self->sites_table), FALSE);
  tm_text_table_set_column_tooltip (self->sites_table, 0,
                                    _("With recorded operations, the caller that added the elements; from the "
                                      "graphs, the elements' allocation site"));
  tm_text_table_set_column_tooltip (self->sites_table, 2,
                                    _("The mean staleness of the elements from this site, as a fraction of the "
                                      "window"));
  gtk_box_append (GTK_BOX (self->sites_box), GTK_WIDGET (self->sites_table));

  self->by_site_table = TM_TEXT_TABLE (tm_text_table_new (by_site));
  tm_text_table_set_column_tooltip (self->by_site_table, 0, _("Where the containers were allocated"));
  tm_text_table_set_column_tooltip (self->by_site_table, 2,
                                    _("Containers from this site that may leak (leak-free ones are left out)"));
  tm_text_table_set_column_tooltip (self->by_site_table, 3,
                                    _("Change of their deep size from their first reference graph in the window to "
                                      "its end"));
  tm_text_table_set_column_tooltip (self->by_site_table, 4, _("Their elements at the end of the window"));
  tm_text_table_set_column_tooltip (self->by_site_table, 5, sc_tooltip ());
  tm_text_table_set_column_tooltip (self->by_site_table, 6, lc_tooltip ());
  tm_text_table_set_column_tooltip (self->by_site_table, 7, mc_tooltip ());
  tm_text_table_set_column_tooltip (self->by_site_table, 8,
                                    _("Exact: every container's staleness from recorded operations; upper bound: "
                                      "from the reference graphs"));
  gtk_box_append (GTK_BOX (self->by_site_box), GTK_WIDGET (self->by_site_table));
}

static void
show_status (TmDsGrowthView *self, const char *text)
{
  gtk_label_set_text (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
}

static void
growth_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmDsGrowthView) self = user_data;
  g_autoptr(GError) error = NULL;
  TmDocument *doc = TM_DOCUMENT (source);
  TmDsGrowth *growth = tm_document_ds_growth_finish (doc, result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* a newer request took over */

  gtk_spinner_set_spinning (self->spinner, FALSE);
  if (growth == NULL)
    {
      show_status (self, error->message);
      return;
    }
  self->growth = growth;
  if (self->growth->entries->len == 0)
    show_status (self, _("No data structure is alive at both ends of the window."));
  else
    {
      /* description files that did not load, one per line */
      const TmDsl *dsl = tm_document_get_dsl (doc, NULL);
      g_autofree char *warnings = dsl ? g_strjoinv ("\n", (char **) tm_dsl_warnings (dsl)) : NULL;
      show_status (self, warnings);
    }
  rebuild_rows (self);
  /* the chart as tall as its bars need; the table gets the rest */
  {
    guint bars = MIN (self->growth->entries->len, 10);
    int h = (int) tm_ds_growth_chart_natural_height (bars, TRUE);
    gtk_drawing_area_set_content_height (self->chart, h);
    gtk_paned_set_position (self->paned, h);
  }
  gtk_widget_queue_draw (GTK_WIDGET (self->chart));
}

void
tm_ds_growth_view_set_window (TmDsGrowthView *self,
                              guint           from_gc,
                              guint           to_gc)
{
  g_autofree char *title = NULL;
  g_autofree char *tab = NULL;
  TmDocument *doc;
  TmTrace *trace;

  g_return_if_fail (TM_IS_DS_GROWTH_VIEW (self));
  doc = tm_section_get_document (TM_SECTION (self));
  g_return_if_fail (TM_IS_DOCUMENT (doc));

  trace = tm_document_get_trace (doc);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_list_store_remove_all (self->roots);
  g_clear_pointer (&self->growth, tm_ds_growth_free);
  g_clear_pointer (&self->containers, tm_container_report_free);
  if (self->trace != trace)
    {
      g_clear_pointer (&self->trace, tm_trace_unref);
      self->trace = tm_trace_ref (trace);
    }
  self->selected_entry = -1;
  gtk_widget_set_visible (self->sites_box, FALSE);
  tm_text_table_clear (self->by_site_table);
  gtk_label_set_text (self->by_site_note, _("Computing the leak confidence of the containers…"));
  memset (&self->layout, 0, sizeof self->layout);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart));

  /* TRANSLATORS: view title with the window's first and last GC */
  title = g_strdup_printf (_("Data structure growth, GC %u to %u"), from_gc, to_gc);
  gtk_label_set_text (self->title_label, title);
  tab = g_strdup_printf (_("Data Structures, GC %u–%u"), from_gc, to_gc);
  tm_section_set_title (TM_SECTION (self), tab);
  show_status (self, NULL);
  gtk_spinner_set_spinning (self->spinner, TRUE);

  tm_document_ds_growth_async (doc, from_gc, to_gc, NULL, NULL, self->cancellable, growth_done,
                               g_object_ref (self));
  tm_document_containers_async (doc, from_gc, to_gc, self->cancellable, containers_done, g_object_ref (self));
}

const TmDsGrowth *
tm_ds_growth_view_get_result (TmDsGrowthView *self)
{
  g_return_val_if_fail (TM_IS_DS_GROWTH_VIEW (self), NULL);
  return self->growth;
}

GtkWidget *
tm_ds_growth_view_new (TmSession *session)
{
  g_return_val_if_fail (TM_IS_SESSION (session), NULL);
  return g_object_new (TM_TYPE_DS_GROWTH_VIEW, "session", session, NULL);
}

static void
tm_ds_growth_view_dispose (GObject *object)
{
  TmDsGrowthView *self = TM_DS_GROWTH_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_DS_GROWTH_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  g_clear_object (&self->roots);
  G_OBJECT_CLASS (tm_ds_growth_view_parent_class)->dispose (object);
}

static void
tm_ds_growth_view_finalize (GObject *object)
{
  TmDsGrowthView *self = TM_DS_GROWTH_VIEW (object);

  g_clear_pointer (&self->growth, tm_ds_growth_free);
  g_clear_pointer (&self->containers, tm_container_report_free);
  g_clear_pointer (&self->trace, tm_trace_unref);
  G_OBJECT_CLASS (tm_ds_growth_view_parent_class)->finalize (object);
}

static void
tm_ds_growth_view_class_init (TmDsGrowthViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_ds_growth_view_dispose;
  object_class->finalize = tm_ds_growth_view_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-ds-growth-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, box);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, chart);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, paned);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, table);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, sites_box);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, sites_label);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, by_site_box);
  gtk_widget_class_bind_template_child (widget_class, TmDsGrowthView, by_site_note);
  gtk_widget_class_bind_template_callback (widget_class, metric_changed_cb);
  gtk_widget_class_set_css_name (widget_class, "tm-ds-growth-view");
}

static void
tm_ds_growth_view_init (TmDsGrowthView *self)
{
  GtkGesture *click;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->selected_entry = -1;

  self->roots = g_list_store_new (TM_TYPE_DS_GROWTH_ROW);
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->roots)), FALSE, FALSE,
                                        create_children, self, NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->tree)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (self->selection));

  add_column (self, COL_NAME, _("Structure"), TRUE);
  add_column (self, COL_BEFORE, _("Before"), FALSE);
  add_column (self, COL_AFTER, _("After"), FALSE);
  add_column (self, COL_GROWTH, _("Growth"), FALSE);
  add_column (self, COL_HGP, _("HGP"), FALSE);
  add_column (self, COL_PATTERN, _("Pattern"), FALSE);
  /* TRANSLATORS: leak confidence, memory contribution, staleness contribution (Xu & Rountev) */
  add_column (self, COL_LC, _("Leak confidence"), FALSE);
  add_column (self, COL_MC, _("Memory contr."), FALSE);
  add_column (self, COL_SC, _("Staleness"), FALSE);
  add_tables (self);

  gtk_drawing_area_set_draw_func (self->chart, chart_draw, self, NULL);
  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (chart_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->chart), GTK_EVENT_CONTROLLER (click));
}
