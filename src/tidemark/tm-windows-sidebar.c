/* SPDX-License-Identifier: GPL-3.0-or-later
 * The suspicious windows of the run (see the header). */
#include "tm-config.h"
#include "tm-windows-sidebar.h"
#include "tm-chart.h"
#include "tm-format-util.h"
#include "tm-report.h"
#include "tm-settings.h"
#include "tm-window-steps.h"

#include <glib/gi18n.h>

struct _TmWindowsSidebar
{
  GtkWidget   parent_instance;

  GtkWidget  *box;
  GtkLabel   *status_label;
  GtkListBox *list;
};

G_DEFINE_FINAL_TYPE (TmWindowsSidebar, tm_windows_sidebar, GTK_TYPE_WIDGET)

enum { WINDOW_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
draw_dot (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data)
{
  TmColor c = tm_chart_window_color (GPOINTER_TO_INT (data));

  cairo_set_source_rgba (cr, c.red, c.green, c.blue, 1);
  cairo_arc (cr, w / 2.0, h / 2.0, MIN (w, h) / 2.0 - 0.5, 0, 2 * G_PI);
  cairo_fill (cr);
}

/* The window kind's colour, as on the charts. */
static GtkWidget *
color_dot_new (TmWindowKind kind)
{
  GtkWidget *dot = gtk_drawing_area_new ();

  gtk_widget_set_size_request (dot, 12, 12);
  gtk_widget_set_valign (dot, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (dot), draw_dot, GINT_TO_POINTER (kind), NULL);
  return dot;
}

static GtkWidget *
caption_new (const char *text, const char *style)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, style);
  return label;
}

static GtkWidget *
window_row_new (TmTrace *trace, const TmWindow *w, int index, gboolean time_points)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *title, *range, *steps;
  g_autofree char *t0 = tm_format_time_point (w->start_ns);
  g_autofree char *t1 = tm_format_time_point (w->end_ns);
  g_autofree char *range_text = NULL;
  g_autofree char *score_text = tm_report_window_score (w);

  /* growth of young objects in growing numbers is a backlog, not a leak */
  title = gtk_label_new (g_strcmp0 (w->growth, "backlog") == 0 ? _("Backlog") : tm_chart_window_label (w->kind));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (top), color_dot_new (w->kind));
  gtk_box_append (GTK_BOX (top), title);

  /* Translators: "GC 40–200 · 4.00 s – 20.00 s" */
  range_text = time_points
    ? g_strdup_printf (_("Time points %u–%u · %s – %s"), w->first_gc, w->last_gc, t0, t1)
    : g_strdup_printf (_("GC %u–%u · %s – %s"), w->first_gc, w->last_gc, t0, t1);
  range = caption_new (range_text, "caption");
  gtk_label_set_wrap (GTK_LABEL (range), TRUE);
  gtk_widget_add_css_class (range, "numeric");

  gtk_box_append (GTK_BOX (box), top);
  gtk_box_append (GTK_BOX (box), range);
  gtk_box_append (GTK_BOX (box), caption_new (score_text, "caption-heading"));
  /* the text without CLI hints, the next steps as buttons (on the
   * selected window), the rest on demand */
  steps = tm_window_steps_new (trace, w, index, 4);
  tm_window_steps_set_buttons_visible (steps, FALSE);
  g_object_set_data (G_OBJECT (row), "tm-steps", steps);
  gtk_box_append (GTK_BOX (box), steps);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "window-index", GINT_TO_POINTER (index));
  gtk_widget_add_css_class (row, "window-row");
  return row;
}

void
tm_windows_sidebar_set_windows (TmWindowsSidebar *self, TmTrace *trace, GPtrArray *windows)
{
  GtkWidget *child;
  guint n = windows ? windows->len : 0;
  gboolean time_points = trace && g_strcmp0 (trace->format, "heaptrack") == 0;
  g_autofree char *note = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (TM_IS_WINDOWS_SIDEBAR (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))))
    gtk_list_box_remove (self->list, child);
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->list, window_row_new (trace, g_ptr_array_index (windows, i), (int) i, time_points));

  /* why the list says less than it could: too little data, teardown */
  if (trace)
    {
      TmWindowParams params;

      tm_settings_window_params (tm_settings_get (), &params);
      note = tm_windows_evidence_note (trace, &params);
    }
  if (n == 0 && note)
    text = g_strdup (_("No suspicious windows among what can be judged."));
  else if (n == 0)
    text = g_strdup (_("None found: memory did not keep growing, and GC overhead and churn stayed below the thresholds (see Preferences)."));
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u window worth a look. Click one to select it.",
                                         "%u windows worth a look. Click one to select it.", n), n);
  if (note)
    {
      g_autofree char *both = g_strdup_printf ("%s %s", note, text);
      gtk_label_set_label (self->status_label, both);
    }
  else
    gtk_label_set_label (self->status_label, text);
}

void
tm_windows_sidebar_set_status (TmWindowsSidebar *self, const char *text)
{
  g_return_if_fail (TM_IS_WINDOWS_SIDEBAR (self));
  gtk_label_set_label (self->status_label, text);
}

void
tm_windows_sidebar_select (TmWindowsSidebar *self, int index)
{
  GtkListBoxRow *row;

  g_return_if_fail (TM_IS_WINDOWS_SIDEBAR (self));
  row = index >= 0 ? gtk_list_box_get_row_at_index (self->list, index) : NULL;
  if (row)
    gtk_list_box_select_row (self->list, row);
  else
    gtk_list_box_unselect_all (self->list);
  /* the next steps of the selected window only */
  for (GtkWidget *r = gtk_widget_get_first_child (GTK_WIDGET (self->list)); r != NULL;
       r = gtk_widget_get_next_sibling (r))
    {
      GtkWidget *steps = g_object_get_data (G_OBJECT (r), "tm-steps");
      if (steps != NULL)
        tm_window_steps_set_buttons_visible (steps, r == GTK_WIDGET (row));
    }
}

GtkListBox *
tm_windows_sidebar_get_list (TmWindowsSidebar *self)
{
  g_return_val_if_fail (TM_IS_WINDOWS_SIDEBAR (self), NULL);
  return self->list;
}

static void
row_activated_cb (GtkListBox *box, GtkListBoxRow *row, TmWindowsSidebar *self)
{
  g_signal_emit (self, signals[WINDOW_ACTIVATED], 0,
                 GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "window-index")));
}

static void
tm_windows_sidebar_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TM_TYPE_WINDOWS_SIDEBAR);
  G_OBJECT_CLASS (tm_windows_sidebar_parent_class)->dispose (object);
}

static void
tm_windows_sidebar_class_init (TmWindowsSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_windows_sidebar_dispose;
  /* ::window-activated (index): the user picked window `index`. */
  signals[WINDOW_ACTIVATED] = g_signal_new ("window-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                            0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-windows-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, TmWindowsSidebar, box);
  gtk_widget_class_bind_template_child (widget_class, TmWindowsSidebar, status_label);
  gtk_widget_class_bind_template_child (widget_class, TmWindowsSidebar, list);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_set_css_name (widget_class, "tm-windows-sidebar");
}

static void
tm_windows_sidebar_init (TmWindowsSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
