/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-trend-panel.h"
#include "tm-export.h"
#include "tm-notice.h"
#include "tm-render-trend.h"
#include "tm-format-util.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>

struct _TmTrendPanel
{
  GtkWidget       parent_instance;

  GtkWidget      *box;
  GtkSpinner     *spinner;
  GtkLabel       *status_label;
  GtkDropDown    *group_dropdown;
  GtkDropDown    *next_dropdown;
  GtkDropDown    *metric_dropdown;
  GtkDropDown    *sort_dropdown;
  GtkDropDown    *every_dropdown;
  GtkSpinButton  *top_spin;
  GtkCheckButton *other_check;
  GtkCheckButton *log_check;     /* logarithmic value axis */
  GtkButton      *close_button;
  GtkDrawingArea *area;

  TmSession      *session;
  TmDocument     *doc;
  TmTrace        *trace;          /* the document's */
  TmTrendRequest  request;
  TmTrendSort     sort;
  guint           top;
  gboolean        with_other;

  TmTrend        *trend;          /* latest snapshot */
  GPtrArray      *shown;          /* tm_trend_select() of it */
  char           *selected_key;   /* follows the group when the ranking changes */
  TmTrendChartLayout layout;
  gboolean        have_layout;
  double          pointer_x;

  GCancellable   *cancellable;
  gboolean        busy;
  gboolean        updating;       /* setting dropdowns from code */
};

G_DEFINE_FINAL_TYPE (TmTrendPanel, tm_trend_panel, GTK_TYPE_WIDGET)

enum { SIGNAL_DRILL, SIGNAL_CLOSE_REQUESTED, SIGNAL_REGROUPED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Classification plans offered: every n-th GC or a minimum interval. */
static const struct {
  const char *label;
  guint       every;
  guint64     interval_ns;
} plans[] = {
  { N_("Every GC"), 1, 0 },
  { N_("Every 5th GC"), 5, 0 },
  { N_("Every 10th GC"), 10, 0 },
  { N_("Every 0.5 s"), 1, 500000000 },
  { N_("Every 1 s"), 1, 1000000000 },
  { N_("Every 5 s"), 1, 5000000000 },
};

static const char *sort_titles[TM_TREND_N_SORTS] = {
  [TM_TREND_SORT_START]      = N_("Value at start"),
  [TM_TREND_SORT_END]        = N_("Value at end"),
  [TM_TREND_SORT_AVERAGE]    = N_("Average"),
  [TM_TREND_SORT_ABS_GROWTH] = N_("Absolute growth"),
  [TM_TREND_SORT_REL_GROWTH] = N_("Relative growth"),
};

static const char *metric_titles[TM_TREND_N_METRICS] = {
  N_("Objects"), N_("Bytes"), N_("Deep objects"), N_("Deep bytes"), N_("Retained objects"), N_("Retained bytes"),
};

static void
set_items (GtkDropDown *dropdown, GtkStringList *items)
{
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (items));
  g_object_unref (items);
}

static GtkStringList *
translated_list (const char * const *titles, guint n)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (list, _(titles[i]));
  return list;
}

static GtkStringList *
plan_list (void)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    gtk_string_list_append (list, _(plans[i].label));
  return list;
}

/* The classifiers of chains, in the registry's order (tm-classify-chain.h). */
static GtkStringList *
classifier_list (void)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; i < TM_N_CLASSIFIERS; i++)
    gtk_string_list_append (list, _(tm_chain_classifier_title ((TmClassifier) i)));
  return list;
}

static gboolean
is_dark (GtkWidget *widget, GdkRGBA *fg)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return 0.299 * fg->red + 0.587 * fg->green + 0.114 * fg->blue > 0.5;
}

/* ---- selection and shown series ---- */

static void
update_shown (TmTrendPanel *self)
{
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  if (self->trend != NULL)
    self->shown = tm_trend_select (self->trend, self->sort, self->top, self->with_other);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

int
tm_trend_panel_get_selected (TmTrendPanel *self)
{
  g_return_val_if_fail (TM_IS_TREND_PANEL (self), -1);

  if (self->shown == NULL || self->selected_key == NULL)
    return -1;
  for (guint i = 0; i < self->shown->len; i++)
    {
      const TmTrendSeries *s = g_ptr_array_index (self->shown, i);
      if (!s->is_other && g_strcmp0 (s->key, self->selected_key) == 0)
        return (int) i;
    }
  return -1;
}

void
tm_trend_panel_select (TmTrendPanel *self, int index)
{
  const TmTrendSeries *s;

  g_return_if_fail (TM_IS_TREND_PANEL (self));

  g_clear_pointer (&self->selected_key, g_free);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
  if (self->shown == NULL || index < 0 || (guint) index >= self->shown->len)
    return;
  s = g_ptr_array_index (self->shown, index);
  if (s->is_other)
    return;   /* Other is no group: nothing to drill into */
  self->selected_key = g_strdup (s->key);
  if (self->request.n_drill + 2 <= TM_CLASSIFY_MAX_DEPTH)
    g_signal_emit (self, signals[SIGNAL_DRILL], 0, s->key);
}

/* ---- the worker ---- */

static void
show_status (TmTrendPanel *self, const char *text)
{
  gtk_label_set_text (self->status_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
}

static void
set_trend (TmTrendPanel *self, TmTrend *trend)
{
  g_autofree char *status = NULL;

  if (self->trend != trend)
    {
      g_clear_pointer (&self->trend, tm_trend_unref);
      self->trend = tm_trend_ref (trend);
    }
  if (!trend->complete)
    status = g_strdup_printf (_("Classified %u of %u GCs…"), trend->n_points, trend->n_planned);
  else if (tm_trend_metric_needs_graph (trend->request.metric))
    status = g_strdup_printf (ngettext ("Deep and retained sizes need a reference graph: %u GC of the window has one.",
                                       "Deep and retained sizes need a reference graph: %u GCs of the window have one.",
                                       trend->n_points), trend->n_points);
  else if (tm_trend_request_uses_ds (&trend->request))
    status = g_strdup_printf (ngettext ("Data structures are detected on reference graphs: %u GC of the window has one.",
                                       "Data structures are detected on reference graphs: %u GCs of the window have one.",
                                       trend->n_points), trend->n_points);
  else if (tm_trend_request_needs_graph (&trend->request))
    status = g_strdup_printf (ngettext ("Root paths follow reference graphs: %u GC of the window has one.",
                                       "Root paths follow reference graphs: %u GCs of the window have one.",
                                       trend->n_points), trend->n_points);
  else if (trend->groups->len == 0)
    status = g_strdup (_("No objects of this group are alive in the window."));
  show_status (self, status);
  update_shown (self);
}

static void start (TmTrendPanel *self);

/* The document's descriptions changed: data-structure groups are stale. */
static void
descriptions_changed_cb (TmDocument *doc, TmTrendPanel *self)
{
  if (tm_trend_request_uses_ds (&self->request))
    start (self);
}

/* Main thread: a snapshot while the document computes (the final
 * result comes with the callback). */
static void
partial_cb (TmTrend *partial, gpointer data)
{
  TmTrendPanel *self = data;

  if (!partial->complete && self->busy)
    set_trend (self, partial);
}

static void
trend_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmTrendPanel) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrend) trend = tm_document_trend_finish (TM_DOCUMENT (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* a newer computation took over, or the panel is gone */
  self->busy = FALSE;
  gtk_spinner_set_spinning (self->spinner, FALSE);
  if (trend == NULL)
    {
      g_clear_pointer (&self->trend, tm_trend_unref);
      update_shown (self);
      show_status (self, error->message);
      return;
    }
  set_trend (self, trend);
}

static void
start (TmTrendPanel *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->busy = TRUE;
  gtk_spinner_set_spinning (self->spinner, TRUE);
  show_status (self, _("Classifying…"));
  /* partials reach partial_cb only while this computation is current */
  tm_document_trend_async (self->doc, &self->request, partial_cb, self, self->cancellable,
                           trend_done, g_object_ref (self));
}

/* ---- drawing and pointer ---- */

static double
gc_time (TmTrendPanel *self, guint gc)
{
  return (double) tm_trace_gc (self->trace, gc)->end_ns;
}

/* The session's visible range, clipped to the window: zooming anywhere
 * zooms every chart, and a wide range shows the whole window. */
static void
view_range (TmTrendPanel *self, double *start, double *end)
{
  double w0 = gc_time (self, MAX (self->request.from_gc, 1));
  double w1 = gc_time (self, MIN (self->request.to_gc, tm_trace_n_gcs (self->trace)));
  double v0 = self->session ? tm_session_get_visible_start (self->session) : w0;
  double v1 = self->session ? tm_session_get_visible_end (self->session) : w1;

  *start = MAX (v0, w0);
  *end = MIN (v1, w1);
  if (*end <= *start)
    {
      *start = w0;
      *end = w1 > w0 ? w1 : w0 + 1;
    }
}

static void
fill_options (TmTrendPanel *self, TmTrendChartOptions *o, double width, double height)
{
  GdkRGBA fg;
  guint hover = self->session ? tm_session_get_hover_gc (self->session) : 0;

  tm_trend_chart_options_init (o, width, height);
  view_range (self, &o->view_start_ns, &o->view_end_ns);
  o->selected = tm_trend_panel_get_selected (self);
  o->dark = is_dark (GTK_WIDGET (self), &fg);
  o->foreground = (TmColor) { fg.red, fg.green, fg.blue, fg.alpha };
  o->background.alpha = 0;
  o->y_axis_width = 64;   /* stacked panels line up */
  o->log_scale = self->log_check != NULL && gtk_check_button_get_active (self->log_check);
  if (hover > 0 && hover <= tm_trace_n_gcs (self->trace))
    o->hover_ns = gc_time (self, hover);
}

static void
area_draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  TmTrendPanel *self = data;
  TmTrendChartOptions o;

  if (self->trend == NULL || self->shown == NULL || self->trend->n_points == 0)
    {
      self->have_layout = FALSE;
      return;
    }
  fill_options (self, &o, width, height);
  tm_trend_chart_render (cr, self->trend, self->shown, &o, &self->layout);
  self->have_layout = TRUE;
}

static void
pressed_cb (GtkGestureClick *click, int n_press, double x, double y, TmTrendPanel *self)
{
  int hit;

  if (!self->have_layout)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self->area));
  hit = tm_trend_chart_hit (&self->layout, self->trend, self->shown, x, y);
  tm_trend_panel_select (self, hit);
}

static void
motion_cb (GtkEventControllerMotion *motion, double x, double y, TmTrendPanel *self)
{
  guint p;

  self->pointer_x = x;
  if (self->session == NULL || !self->have_layout || self->trend == NULL || self->trend->n_points == 0)
    return;
  if (x < self->layout.plot.x || x > self->layout.plot.x + self->layout.plot.width)
    {
      tm_session_set_hover_gc (self->session, 0);
      return;
    }
  p = tm_trend_nearest_point (self->trend, tm_chart_layout_x_to_ns (&self->layout.plot, x));
  tm_session_set_hover_gc (self->session, self->trend->gcs[p]);
}

static void
leave_cb (GtkEventControllerMotion *motion, TmTrendPanel *self)
{
  if (self->session)
    tm_session_set_hover_gc (self->session, 0);
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll, double dx, double dy, TmTrendPanel *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  double t0, t1, span, center, f;

  if (self->session == NULL || !self->have_layout)
    return FALSE;
  view_range (self, &t0, &t1);
  span = t1 - t0;
  if (mods & GDK_CONTROL_MASK)
    {
      /* zoom what this chart shows, around the pointer, for every chart */
      center = tm_chart_layout_x_to_ns (&self->layout.plot,
                                        CLAMP (self->pointer_x, self->layout.plot.x,
                                               self->layout.plot.x + self->layout.plot.width));
      f = pow (1.25, dy);
      tm_session_set_visible (self->session, center - (center - t0) * f, center + (t1 - center) * f);
      return TRUE;
    }
  if (dx != 0 || (mods & GDK_SHIFT_MASK))
    {
      double d = (dx != 0 ? dx : dy) * span * 0.1;
      tm_session_set_visible (self->session, t0 + d, t1 + d);
      return TRUE;
    }
  return FALSE;
}

static char *
format_value (TmTrendMetric metric, double v)
{
  if (tm_trend_metric_is_bytes (metric))
    return tm_format_bytes (v);
  return tm_format_count ((guint64) MAX (v, 0));
}

/* Keyboard: Down/Up select the next/previous group (and drill into it),
 * Escape clears the selection. */
static gboolean
key_pressed_cb (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
                TmTrendPanel *self)
{
  int n = 0, sel = tm_trend_panel_get_selected (self);

  if (self->shown == NULL)
    return FALSE;
  for (guint i = 0; i < self->shown->len; i++)
    n += !((TmTrendSeries *) g_ptr_array_index (self->shown, i))->is_other;
  if (n == 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      tm_trend_panel_select (self, sel < 0 ? 0 : (sel + 1) % n);
      return TRUE;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      tm_trend_panel_select (self, sel <= 0 ? n - 1 : sel - 1);
      return TRUE;
    case GDK_KEY_Escape:
      tm_trend_panel_select (self, -1);
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
query_tooltip_cb (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip, TmTrendPanel *self)
{
  g_autoptr(GString) s = NULL;
  guint p;

  if (keyboard || !self->have_layout || self->trend == NULL || self->trend->n_points == 0 ||
      x < self->layout.plot.x || x > self->layout.plot.x + self->layout.plot.width)
    return FALSE;
  p = tm_trend_nearest_point (self->trend, tm_chart_layout_x_to_ns (&self->layout.plot, x));
  s = g_string_new (NULL);
  {
    g_autofree char *at = tm_format_duration ((double) self->trend->times_ns[p]);
    /* TRANSLATORS: trend tooltip: the GC and when it ended */
    g_string_append_printf (s, _("<b>GC %u</b> at %s"), self->trend->gcs[p], at);
  }
  for (guint i = 0; i < self->shown->len; i++)
    {
      const TmTrendSeries *ser = g_ptr_array_index (self->shown, i);
      g_autofree char *v = format_value (self->trend->request.metric, ser->values[p]);
      g_autofree char *key = g_markup_escape_text (ser->is_other ? _("Other") : ser->key, -1);
      g_string_append_printf (s, "\n%s: <b>%s</b>", key, v);
    }
  gtk_tooltip_set_markup (tooltip, s->str);
  return TRUE;
}

static void
log_toggled_cb (GtkCheckButton *check, TmTrendPanel *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* ---- settings ---- */

static void
settings_changed_cb (GObject *object, GParamSpec *pspec, TmTrendPanel *self)
{
  guint group, metric, every;
  TmClassifier group_c;
  gboolean recompute = FALSE;

  if (self->updating)
    return;
  group = gtk_drop_down_get_selected (self->group_dropdown);
  metric = gtk_drop_down_get_selected (self->metric_dropdown);
  every = gtk_drop_down_get_selected (self->every_dropdown);

  group_c = group < TM_N_CLASSIFIERS ? (TmClassifier) group : self->request.chain[self->request.n_drill];
  if (group_c != self->request.chain[self->request.n_drill])
    {
      self->request.chain[self->request.n_drill] = group_c;
      recompute = TRUE;
      /* the groups change: a drill-down below would name an old one */
      g_clear_pointer (&self->selected_key, g_free);
      g_signal_emit (self, signals[SIGNAL_REGROUPED], 0);
    }
  if (metric < TM_TREND_N_METRICS && metric != self->request.metric)
    {
      self->request.metric = metric;
      recompute = TRUE;
    }
  if (every < G_N_ELEMENTS (plans) &&
      (plans[every].every != self->request.every || plans[every].interval_ns != self->request.interval_ns))
    {
      self->request.every = plans[every].every;
      self->request.interval_ns = plans[every].interval_ns;
      recompute = TRUE;
    }
  if (gtk_drop_down_get_selected (self->next_dropdown) < TM_N_CLASSIFIERS)
    tm_trend_panel_set_next_classifier (self, (TmClassifier) (gtk_drop_down_get_selected (self->next_dropdown)));
  self->sort = MIN (gtk_drop_down_get_selected (self->sort_dropdown), TM_TREND_N_SORTS - 1);
  self->top = (guint) gtk_spin_button_get_value_as_int (self->top_spin);
  self->with_other = gtk_check_button_get_active (self->other_check);

  if (recompute)
    start (self);
  else
    update_shown (self);
}

static void
sync_controls (TmTrendPanel *self)
{
  guint plan = 0;

  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    if (plans[i].every == self->request.every && plans[i].interval_ns == self->request.interval_ns)
      plan = i;
  self->updating = TRUE;
  gtk_drop_down_set_selected (self->group_dropdown, (guint) (self->request.chain[self->request.n_drill]));
  gtk_drop_down_set_selected (self->next_dropdown, (guint) (self->request.chain[self->request.n_drill + 1]));
  gtk_drop_down_set_selected (self->metric_dropdown, self->request.metric);
  gtk_drop_down_set_selected (self->sort_dropdown, self->sort);
  gtk_drop_down_set_selected (self->every_dropdown, plan);
  gtk_spin_button_set_value (self->top_spin, self->top);
  gtk_check_button_set_active (self->other_check, self->with_other);
  self->updating = FALSE;
}

void
tm_trend_panel_set_sort (TmTrendPanel *self, TmTrendSort sort)
{
  g_return_if_fail (TM_IS_TREND_PANEL (self) && sort < TM_TREND_N_SORTS);
  self->sort = sort;
  sync_controls (self);
  update_shown (self);
}

void
tm_trend_panel_set_top (TmTrendPanel *self, guint top, gboolean with_other)
{
  g_return_if_fail (TM_IS_TREND_PANEL (self));
  self->top = top;
  self->with_other = with_other;
  sync_controls (self);
  update_shown (self);
}

void
tm_trend_panel_set_metric (TmTrendPanel *self, TmTrendMetric metric)
{
  g_return_if_fail (TM_IS_TREND_PANEL (self) && metric < TM_TREND_N_METRICS);
  if (metric == self->request.metric)
    return;
  self->request.metric = metric;
  sync_controls (self);
  start (self);
}

void
tm_trend_panel_set_next_classifier (TmTrendPanel *self, TmClassifier classifier)
{
  g_return_if_fail (TM_IS_TREND_PANEL (self));
  if (classifier >= TM_N_CLASSIFIERS)
    return;
  /* only drill-downs use it: no recomputation */
  self->request.chain[self->request.n_drill + 1] = classifier;
  if (gtk_drop_down_get_selected (self->next_dropdown) != (guint) classifier)
    sync_controls (self);
}

TmClassifier
tm_trend_panel_get_next_classifier (TmTrendPanel *self)
{
  g_return_val_if_fail (TM_IS_TREND_PANEL (self), TM_CLASSIFIER_TYPE);
  return self->request.chain[self->request.n_drill + 1];
}

const TmTrendRequest *
tm_trend_panel_get_request (TmTrendPanel *self)
{
  g_return_val_if_fail (TM_IS_TREND_PANEL (self), NULL);
  return &self->request;
}

TmTrend *
tm_trend_panel_get_trend (TmTrendPanel *self)
{
  g_return_val_if_fail (TM_IS_TREND_PANEL (self), NULL);
  return self->trend;
}

GPtrArray *
tm_trend_panel_get_shown (TmTrendPanel *self)
{
  g_return_val_if_fail (TM_IS_TREND_PANEL (self), NULL);
  return self->shown;
}

gboolean
tm_trend_panel_is_busy (TmTrendPanel *self)
{
  g_return_val_if_fail (TM_IS_TREND_PANEL (self), FALSE);
  return self->busy;
}

/* ---- export ---- */

static gboolean
nothing_to_export (TmTrendPanel *self, GError **error)
{
  if (self->trend != NULL && self->shown != NULL && self->trend->n_points > 0)
    return FALSE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The chart has no data yet"));
  return TRUE;
}

gboolean
tm_trend_panel_write_png (TmTrendPanel *self, const char *path, int width, int height, GError **error)
{
  TmTrendChartOptions o;

  g_return_val_if_fail (TM_IS_TREND_PANEL (self) && path != NULL, FALSE);
  if (nothing_to_export (self, error))
    return FALSE;
  fill_options (self, &o, width, height);
  /* files get the light look whatever the theme */
  o.dark = FALSE;
  o.foreground = (TmColor) { 0x24 / 255.0, 0x1f / 255.0, 0x31 / 255.0, 1 };
  o.background = (TmColor) { 1, 1, 1, 1 };
  o.hover_ns = -1;
  o.y_axis_width = 0;
  return tm_trend_chart_write_png (self->trend, self->shown, &o, path, error);
}

gboolean
tm_trend_panel_write_csv (TmTrendPanel *self, const char *path, GError **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (TM_IS_TREND_PANEL (self) && path != NULL, FALSE);
  if (nothing_to_export (self, error))
    return FALSE;
  csv = tm_trend_to_csv (self->trend, self->shown);
  return g_file_set_contents (path, csv, -1, error);
}

static void
save_png (const char *path, gpointer user_data)
{
  TmTrendPanel *self = user_data;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    show_status (self, _("Only local files can be written."));
  else if (!tm_trend_panel_write_png (self, path, 1200, 400, &error))
    show_status (self, error->message);
  else
    tm_notice_saved (GTK_WIDGET (self), path);
}

static void
save_csv (const char *path, gpointer user_data)
{
  TmTrendPanel *self = user_data;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    show_status (self, _("Only local files can be written."));
  else if (!tm_trend_panel_write_csv (self, path, &error))
    show_status (self, error->message);
  else
    tm_notice_saved (GTK_WIDGET (self), path);
}

static void
export (TmTrendPanel *self, gboolean csv)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  tm_export_choose_file (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                         csv ? _("Export Chart Data") : _("Export Chart"),
                         csv ? _("CSV files") : _("PNG images"),
                         csv ? "text/csv" : "image/png",
                         csv ? "trend.csv" : "trend.png",
                         csv ? save_csv : save_png, g_object_ref (self), g_object_unref);
}

static void
export_png_cb (GtkButton *button, TmTrendPanel *self)
{
  export (self, FALSE);
}

static void
export_csv_cb (GtkButton *button, TmTrendPanel *self)
{
  export (self, TRUE);
}

static void
close_cb (GtkButton *button, TmTrendPanel *self)
{
  g_signal_emit (self, signals[SIGNAL_CLOSE_REQUESTED], 0);
}

/* ---- construction ---- */

static void
session_changed_cb (TmTrendPanel *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* A sensible next level: where the group's objects come from. */
static TmClassifier
default_next (TmClassifier c)
{
  switch (c)
    {
    case TM_CLASSIFIER_TYPE:      return TM_CLASSIFIER_SITE;
    case TM_CLASSIFIER_PACKAGE:   return TM_CLASSIFIER_TYPE;
    case TM_CLASSIFIER_SITE:      return TM_CLASSIFIER_CALL_SITE;
    case TM_CLASSIFIER_CALL_SITE: return TM_CLASSIFIER_THREAD;
    case TM_CLASSIFIER_THREAD:
    case TM_CLASSIFIER_SPACE:
    case TM_CLASSIFIER_AGE:
    case TM_CLASSIFIER_TRANSACTION:
    case TM_N_CLASSIFIERS:
    default:                      return TM_CLASSIFIER_TYPE;
    }
}

TmTrendPanel *
tm_trend_panel_new (TmSession            *session,
                    TmDocument           *doc,
                    const TmTrendRequest *request,
                    gboolean              closable)
{
  TmTrendPanel *self;

  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);
  g_return_val_if_fail (TM_IS_DOCUMENT (doc) && request != NULL, NULL);
  g_return_val_if_fail (request->n_drill + 1 < TM_CLASSIFY_MAX_DEPTH, NULL);

  self = g_object_new (TM_TYPE_TREND_PANEL, NULL);
  self->doc = g_object_ref (doc);
  self->trace = tm_trace_ref (tm_document_get_trace (doc));
  g_signal_connect_object (doc, "descriptions-changed", G_CALLBACK (descriptions_changed_cb), self, 0);
  tm_trend_request_copy (&self->request, request);
  /* this level and one below it for drill-downs */
  if (self->request.depth < self->request.n_drill + 2)
    self->request.chain[self->request.n_drill + 1] = default_next (self->request.chain[self->request.n_drill]);
  self->request.depth = self->request.n_drill + 2;
  if (session != NULL)
    {
      self->session = g_object_ref (session);
      g_signal_connect_object (session, "notify", G_CALLBACK (session_changed_cb), self, G_CONNECT_SWAPPED);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->close_button), closable);
  sync_controls (self);
  start (self);
  return self;
}

static void
tm_trend_panel_dispose (GObject *object)
{
  TmTrendPanel *self = TM_TREND_PANEL (object);

  /* results still on their way (the task keeps us alive) find no widgets */
  self->busy = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_TREND_PANEL);
  G_OBJECT_CLASS (tm_trend_panel_parent_class)->dispose (object);
}

static void
tm_trend_panel_finalize (GObject *object)
{
  TmTrendPanel *self = TM_TREND_PANEL (object);

  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->trend, tm_trend_unref);
  g_clear_pointer (&self->trace, tm_trace_unref);
  g_clear_object (&self->doc);
  g_free (self->selected_key);
  tm_trend_request_clear (&self->request);
  G_OBJECT_CLASS (tm_trend_panel_parent_class)->finalize (object);
}

static void
tm_trend_panel_class_init (TmTrendPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_trend_panel_dispose;
  object_class->finalize = tm_trend_panel_finalize;

  /* ::drill (key): a group was selected; show its children below. */
  signals[SIGNAL_DRILL] = g_signal_new ("drill", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* ::regrouped: this chart groups by another classifier now. */
  signals[SIGNAL_REGROUPED] = g_signal_new ("regrouped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                            0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_CLOSE_REQUESTED] = g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-trend-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, box);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, spinner);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, status_label);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, group_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, next_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, sort_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, every_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, top_spin);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, other_check);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, log_check);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, close_button);
  gtk_widget_class_bind_template_child (widget_class, TmTrendPanel, area);
  gtk_widget_class_bind_template_callback (widget_class, settings_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, log_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_png_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_csv_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_cb);
  gtk_widget_class_bind_template_callback (widget_class, query_tooltip_cb);
  gtk_widget_class_bind_template_callback (widget_class, key_pressed_cb);
  gtk_widget_class_bind_template_callback (widget_class, pressed_cb);
  gtk_widget_class_bind_template_callback (widget_class, motion_cb);
  gtk_widget_class_bind_template_callback (widget_class, leave_cb);
  gtk_widget_class_bind_template_callback (widget_class, scroll_cb);
  gtk_widget_class_set_css_name (widget_class, "tm-trend-panel");
}

static void
tm_trend_panel_init (TmTrendPanel *self)
{
  /* the controls are set from the request in tm_trend_panel_new() */
  self->updating = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  set_items (self->group_dropdown, classifier_list ());
  set_items (self->next_dropdown, classifier_list ());
  set_items (self->metric_dropdown, translated_list (metric_titles, TM_TREND_N_METRICS));
  set_items (self->sort_dropdown, translated_list (sort_titles, TM_TREND_N_SORTS));
  set_items (self->every_dropdown, plan_list ());
  gtk_drawing_area_set_draw_func (self->area, area_draw, self, NULL);
  self->updating = FALSE;
  self->sort = TM_TREND_DEFAULT_SORT;
  self->top = TM_TREND_DEFAULT_TOP;
  self->with_other = TRUE;
}
