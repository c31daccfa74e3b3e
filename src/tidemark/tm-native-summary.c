/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Summary page of a recording's allocations (see tm-native-summary.h).
 */
#include "tm-config.h"

#include <glib/gi18n-lib.h>

#include "tm-native-summary.h"
#include "tm-format-util.h"
#include "tm-render-sizes.h"

#define TOP_N 10

struct _TmNativeSummary
{
  GtkWidget       parent_instance;

  GtkWidget      *scroller;
  GtkLabel       *title_label;
  GtkLabel       *run_label, *allocations_label, *rate_label, *temporary_label;
  GtkLabel       *peak_label, *rss_label, *leaked_label, *allocated_label;
  GtkListBox     *top_peak, *top_leaked, *top_allocations, *top_temporary;
  GtkDrawingArea *sizes_area;

  TmCallData     *data;
};

G_DEFINE_FINAL_TYPE (TmNativeSummary, tm_native_summary, GTK_TYPE_WIDGET)

enum { SHOW_FUNCTION, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
set_label (GtkLabel *label, char *text)
{
  gtk_label_set_text (label, text);
  g_free (text);
}

static void
fill_top (TmNativeSummary *self, GtkListBox *list, const TmCallTree *tree, TmCostKind kind)
{
  const TmCallNode *root = tm_call_tree_node (tree, 0);
  g_autofree guint32 *order = g_new (guint32, root->n_children + 1);
  GtkWidget *child;
  guint shown = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
  tm_call_tree_sorted_children (tree, 0, kind, order);
  for (guint i = 0; i < root->n_children && shown < TOP_N; i++)
    {
      const TmCallNode *n = tm_call_tree_node (tree, order[i]);
      const TmCallSymbol *sym = tm_call_profile_get_symbol (tm_call_tree_profile (tree), n->symbol);
      g_autofree char *name = tm_call_symbol_label (sym);
      g_autofree char *where = tm_call_symbol_location (sym);
      g_autofree char *value = tm_cost_kind_is_bytes (kind) ? tm_format_bytes ((double) n->cost.v[kind])
                                                            : tm_format_count ((guint64) n->cost.v[kind]);
      GtkWidget *row, *box, *label, *amount;

      if (n->cost.v[kind] <= 0)
        break;
      box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      gtk_widget_set_margin_start (box, 6);
      gtk_widget_set_margin_end (box, 6);
      gtk_widget_set_margin_top (box, 3);
      gtk_widget_set_margin_bottom (box, 3);
      label = gtk_label_new (name);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      /* a long signature ends in "…", whole in its tooltip */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (label, "tm-preview");
      gtk_widget_set_hexpand (label, TRUE);
      {
        g_autofree char *tip = where[0] ? g_strdup_printf ("%s\n%s", name, where) : g_strdup (name);
        gtk_widget_set_tooltip_text (label, tip);
      }
      amount = gtk_label_new (value);
      gtk_widget_add_css_class (amount, "numeric");
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), amount);
      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data (G_OBJECT (row), "tm-symbol", GUINT_TO_POINTER (n->symbol + 1));
      gtk_list_box_append (list, row);
      shown++;
    }
  if (shown == 0)
    {
      GtkWidget *none = gtk_label_new (_("None"));
      gtk_widget_add_css_class (none, "dim-label");
      gtk_widget_set_margin_top (none, 6);
      gtk_widget_set_margin_bottom (none, 6);
      gtk_list_box_append (list, none);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (gtk_widget_get_parent (none)), FALSE);
    }
}

static void
row_activated_cb (TmNativeSummary *self, GtkListBoxRow *row, GtkListBox *list)
{
  /* symbol + 1; the "None" row has none */
  guint symbol = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "tm-symbol"));

  if (symbol == 0)
    return;
  g_signal_emit (self, signals[SHOW_FUNCTION], 0, symbol - 1,
                 list == self->top_peak ? TM_COST_PEAK : list == self->top_leaked ? TM_COST_LEAKED
                 : list == self->top_temporary ? TM_COST_TEMPORARY : TM_COST_ALLOCATIONS);
}

static void
draw_sizes (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  TmNativeSummary *self = data;

  if (self->data != NULL)
    tm_render_size_histogram (cr, width, height, self->data->sizes, _("Allocations by size"), FALSE);
}

void
tm_native_summary_set_data (TmNativeSummary *self, TmCallData *data)
{
  const TmHeaptrackSummary *s;
  g_autoptr(TmCallTree) tree = NULL;
  double seconds;

  g_return_if_fail (TM_IS_NATIVE_SUMMARY (self));
  g_clear_pointer (&self->data, tm_call_data_unref);
  if (data == NULL)
    return;
  self->data = tm_call_data_ref (data);
  s = &data->summary;
  seconds = (double) s->total_time_ms / 1000.0;

  set_label (self->title_label,
             s->command_line && s->command_line[0]
               ? g_strdup_printf (data->native ? _("heaptrack recording of %s") : _("Recording of %s"), s->command_line)
               : g_strdup (data->native ? _("heaptrack recording") : _("Recording")));
  set_label (self->run_label, tm_format_duration ((double) s->total_time_ms * 1e6));
  {
    g_autofree char *n = tm_format_count (s->allocations);
    g_autofree char *rate = tm_format_count ((guint64) (seconds > 0 ? (double) s->allocations / seconds : 0));
    g_autofree char *temp = tm_format_count (s->temporary);
    g_autofree char *temp_rate = tm_format_count ((guint64) (seconds > 0 ? (double) s->temporary / seconds : 0));
    set_label (self->allocations_label, g_strdup (n));
    set_label (self->rate_label, g_strdup_printf (_("%s per second"), rate));
    set_label (self->temporary_label,
               g_strdup_printf (_("%s (%.1f %% of all, %s per second)"), temp,
                                s->allocations ? 100.0 * (double) s->temporary / (double) s->allocations : 0.0,
                                temp_rate));
  }
  {
    g_autofree char *peak = tm_format_bytes ((double) s->peak_bytes);
    g_autofree char *rss = tm_format_bytes ((double) s->peak_rss_bytes);
    g_autofree char *leaked = tm_format_bytes ((double) s->leaked_bytes);
    g_autofree char *suppressed = tm_format_bytes ((double) s->suppressed_bytes);
    g_autofree char *allocated = tm_format_bytes ((double) s->allocated_bytes);
    set_label (self->peak_label, g_strdup_printf (_("%s at %.2f s"), peak, (double) s->peak_time_ms / 1000.0));
    set_label (self->rss_label, s->peak_rss_bytes ? g_strdup_printf (_("%s (with heaptrack's overhead)"), rss)
                                                  : g_strdup (_("not recorded")));
    set_label (self->leaked_label, s->suppressed_bytes ? g_strdup_printf (_("%s (and %s in suppressed leaks)"), leaked,
                                                                          suppressed)
                                                       : g_strdup (leaked));
    set_label (self->allocated_label, g_strdup (allocated));
  }

  tree = tm_call_tree_new (data->calls, TM_CALL_TREE_BOTTOM_UP);
  fill_top (self, self->top_peak, tree, TM_COST_PEAK);
  fill_top (self, self->top_leaked, tree, TM_COST_LEAKED);
  fill_top (self, self->top_allocations, tree, TM_COST_ALLOCATIONS);
  fill_top (self, self->top_temporary, tree, TM_COST_TEMPORARY);
  gtk_widget_queue_draw (GTK_WIDGET (self->sizes_area));
}

static GtkListBox *
list_named (TmNativeSummary *self, const char *list)
{
  if (g_str_equal (list, "peak"))
    return self->top_peak;
  if (g_str_equal (list, "leaked"))
    return self->top_leaked;
  if (g_str_equal (list, "temporary"))
    return self->top_temporary;
  return self->top_allocations;
}

const char *
tm_native_summary_get_figure (TmNativeSummary *self, const char *name)
{
  GtkLabel *l = g_str_equal (name, "peak") ? self->peak_label
              : g_str_equal (name, "leaked") ? self->leaked_label
              : g_str_equal (name, "temporary") ? self->temporary_label
              : g_str_equal (name, "rss") ? self->rss_label
              : g_str_equal (name, "run") ? self->run_label
              : g_str_equal (name, "rate") ? self->rate_label
              : self->allocations_label;
  return gtk_label_get_text (l);
}

guint
tm_native_summary_n_top (TmNativeSummary *self, const char *list)
{
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (list_named (self, list))); c; c = gtk_widget_get_next_sibling (c))
    n += g_object_get_data (G_OBJECT (c), "tm-symbol") != NULL;
  return n;
}

void
tm_native_summary_activate (TmNativeSummary *self, const char *list, guint i)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (list_named (self, list), (int) i);

  if (row != NULL)
    row_activated_cb (self, row, list_named (self, list));
}

static void
tm_native_summary_dispose (GObject *object)
{
  TmNativeSummary *self = TM_NATIVE_SUMMARY (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_NATIVE_SUMMARY);
  g_clear_pointer (&self->data, tm_call_data_unref);
  G_OBJECT_CLASS (tm_native_summary_parent_class)->dispose (object);
}

static void
tm_native_summary_class_init (TmNativeSummaryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_native_summary_dispose;

  /* a top-list entry was clicked: (symbol, the list's cost kind) */
  signals[SHOW_FUNCTION] = g_signal_new ("show-function", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                         NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-native-summary.ui");
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, scroller);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, run_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, allocations_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, rate_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, temporary_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, peak_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, rss_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, leaked_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, allocated_label);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, top_peak);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, top_leaked);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, top_allocations);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, top_temporary);
  gtk_widget_class_bind_template_child (widget_class, TmNativeSummary, sizes_area);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
tm_native_summary_init (TmNativeSummary *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (self->sizes_area, draw_sizes, self, NULL);
}

GtkWidget *
tm_native_summary_new (void)
{
  return g_object_new (TM_TYPE_NATIVE_SUMMARY, NULL);
}
