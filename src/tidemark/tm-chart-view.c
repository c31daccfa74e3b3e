/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-chart-view.h"
#include "tm-downsample.h"
#include "tm-chart-lane.h"
#include "tm-chart-pauses.h"
#include "tm-format-util.h"

#include <glib/gi18n.h>
#include <math.h>

struct _TmChartView
{
  GtkWidget       parent_instance;
  TmSession      *session;
  TmChartKind     kind;
  TmChartLayout   layout;        /* from the last draw, for hit testing */
  gboolean        have_layout;

  double          drag_start_x;
  gboolean        dragging;      /* moved far enough to be a rubber band */
  double          pointer_x;
  GtkWidget      *popover;
};

G_DEFINE_FINAL_TYPE (TmChartView, tm_chart_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define DRAG_THRESHOLD 4.0

static void
session_changed_cb (TmChartView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
is_dark (GtkWidget *widget, GdkRGBA *fg)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (style, fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  /* Light text means a dark theme. */
  return (0.299 * fg->red + 0.587 * fg->green + 0.114 * fg->blue) > 0.5;
}

static void
fill_options (TmChartView *self, TmChartOptions *o, double width, double height, gboolean for_screen)
{
  TmTimelineModel *model = tm_session_get_model (self->session);
  const TmChartBand *bands;
  guint n_bands = 0;

  tm_chart_options_init (o, self->kind, model, width, height);
  o->view_start_ns = tm_session_get_visible_start (self->session);
  o->view_end_ns = tm_session_get_visible_end (self->session);
  o->has_selection = tm_session_get_has_selection (self->session);
  o->sel_start_ns = tm_session_get_selection_start (self->session);
  o->sel_end_ns = tm_session_get_selection_end (self->session);
  bands = tm_session_get_bands (self->session, &n_bands);
  o->bands = bands;
  o->n_bands = n_bands;
  o->selected_band = tm_session_get_selected_window (self->session);
  o->overhead_threshold = tm_session_get_overhead_threshold (self->session);
  if (self->kind == TM_CHART_PAUSE_HISTOGRAM && !o->has_selection)
    {
      /* beside the GC summary: the selection's pauses, else the run's */
      o->view_start_ns = tm_session_get_whole_start (self->session);
      o->view_end_ns = tm_session_get_whole_end (self->session);
    }

  if (for_screen)
    {
      GdkRGBA fg;

      o->dark = is_dark (GTK_WIDGET (self), &fg);
      o->foreground = (TmColor) { fg.red, fg.green, fg.blue, 1 };
      o->background.alpha = 0;
      o->hover_gc = tm_session_get_hover_gc (self->session);
      /* The same gutter in every chart keeps their time axes aligned. */
      o->y_axis_width = 66;
    }
}

void
tm_chart_view_export_options (TmChartView *self, TmChartOptions *o, double width, double height)
{
  g_return_if_fail (TM_IS_CHART_VIEW (self));
  fill_options (self, o, width, height, FALSE);
}

static void
tm_chart_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TmChartView *self = TM_CHART_VIEW (widget);
  TmTimelineModel *model;
  TmChartOptions o;
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);
  g_autofree char *font = NULL;
  cairo_t *cr;

  if (self->session == NULL || (model = tm_session_get_model (self->session)) == NULL || w <= 0 || h <= 0)
    return;

  fill_options (self, &o, w, h, TRUE);
  font = pango_font_description_to_string (
           pango_context_get_font_description (gtk_widget_get_pango_context (widget)));
  o.font = font;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  tm_chart_render (cr, model, &o, &self->layout);
  self->have_layout = TRUE;
  cairo_destroy (cr);
}

gboolean
tm_chart_view_time_to_x (TmChartView *self, double t_ns, double *x)
{
  g_return_val_if_fail (TM_IS_CHART_VIEW (self), FALSE);
  g_return_val_if_fail (x != NULL, FALSE);

  if (!self->have_layout)
    return FALSE;
  *x = tm_chart_layout_ns_to_x (&self->layout, t_ns);
  return TRUE;
}

static guint
gc_at_x (TmChartView *self, double x)
{
  TmTimelineModel *model = self->session ? tm_session_get_model (self->session) : NULL;

  if (model == NULL || !self->have_layout || self->kind == TM_CHART_PAUSE_HISTOGRAM)
    return 0;
  if (x < self->layout.x || x > self->layout.x + self->layout.width)
    return 0;
  /* a bar of the allocations chart is the interval up to its GC */
  if (self->kind == TM_CHART_ALLOCATIONS && model->n_gcs > 0)
    return (guint) MIN (tm_downsample_lower_bound (model->start_ns, model->n_gcs,
                                                   tm_chart_layout_x_to_ns (&self->layout, x)) + 1,
                        model->n_gcs);
  return tm_timeline_model_gc_at (model, tm_chart_layout_x_to_ns (&self->layout, x));
}

/* The allocations of the interval that ends at GC i + 1 */
static void
append_allocations (GString *s, const TmTimelineModel *m, guint i)
{
  double from = m->rate_x[2 * i], to = m->rate_x[2 * i + 1];
  g_autofree char *t0 = tm_format_duration (from);
  g_autofree char *t1 = tm_format_duration (to);
  g_autofree char *count = tm_format_count ((guint64) m->allocations[i]);
  g_autofree char *temp = tm_format_count ((guint64) m->temporary[i]);
  g_autofree char *rate = tm_format_count ((guint64) round (m->alloc_rate[2 * i]));

  g_string_append_c (s, '\n');
  /* Translators: "From 1.20 s to 1.30 s: 12,000 allocations (120,000 per second)" */
  g_string_append_printf (s, _("From %s to %s: <b>%s</b> allocations (%s per second)"), t0, t1, count, rate);
  if (m->time_points || m->total_temporary > 0)
    {
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Temporary: <b>%s</b> (%.1f %%)"), temp,
                              m->allocations[i] > 0 ? 100.0 * m->temporary[i] / m->allocations[i] : 0.0);
    }
}

char *
tm_chart_view_describe_gc (TmChartView *self, guint gc)
{
  TmTimelineModel *m;
  TmTrace *trace;
  GString *s;
  const TmGc *g;
  g_autofree char *at = NULL, *pause = NULL, *before = NULL, *after = NULL, *freed = NULL;
  g_autofree char *objects = NULL;
  guint i;

  g_return_val_if_fail (TM_IS_CHART_VIEW (self), NULL);

  m = tm_session_get_model (self->session);
  trace = tm_session_get_trace (self->session);
  if (m == NULL || trace == NULL || gc < 1 || gc > m->n_gcs)
    return NULL;
  i = gc - 1;
  g = tm_trace_gc (trace, gc);

  at = tm_format_duration (m->start_ns[i]);
  pause = tm_format_duration (m->pause_ns[i]);
  before = tm_format_bytes (m->used_before[i]);
  after = tm_format_bytes (m->used_after[i]);
  freed = tm_format_bytes (MAX (0, m->used_before[i] - m->used_after[i]));
  objects = tm_format_count ((guint64) m->live_objects[i]);

  s = g_string_new (NULL);
  if (m->time_points)
    {
      /* heaptrack: a time point, the heap's peak since the previous one
       * and what is still allocated at it */
      g_autofree char *rss = g->committed_after ? tm_format_bytes ((double) g->committed_after) : NULL;
      g_string_append_printf (s, _("<b>Time point %u</b> at %s"), gc, at);
      if (self->kind == TM_CHART_ALLOCATIONS)
        {
          append_allocations (s, m, i);
          return g_string_free (s, FALSE);
        }
      if (self->kind == TM_CHART_OBJECTS)
        g_string_append_printf (s, _("\nBlocks allocated and not freed: <b>%s</b>"), objects);
      else
        g_string_append_printf (s, _("\nHighest since the previous point: <b>%s</b>"), before);
      g_string_append_printf (s, _("\nIn use: <b>%s</b>"), after);
      if (rss != NULL)
        g_string_append_printf (s, _("\nRSS: %s"), rss);
      return g_string_free (s, FALSE);
    }
  {
    g_autofree char *cause = g_markup_escape_text (g->cause ? g->cause : "", -1);
    g_autofree char *collector = g_markup_escape_text (g->collector ? g->collector : "", -1);
    /* Translators: "GC 12 · major · G1 Evacuation Pause" */
    g_string_append_printf (s, _("<b>GC %u</b> · %s · %s"), gc,
                            tm_gc_kind_to_string (g->kind), *cause ? cause : collector);
  }
  g_string_append_c (s, '\n');
  g_string_append_printf (s, _("At %s, pause %s"), at, pause);

  switch (self->kind)
    {
    case TM_CHART_MEMORY:
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Heap before: <b>%s</b>"), before);
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Heap after: <b>%s</b> (freed %s)"), after, freed);
      for (int k = (int) m->n_spaces - 1; k >= 0 && m->n_spaces > 1; k--)
        {
          g_autofree char *sb = tm_format_bytes (m->space_before[(gsize) k * m->n_gcs + i]);
          g_autofree char *sa = tm_format_bytes (m->space_after[(gsize) k * m->n_gcs + i]);
          g_autofree char *name = g_markup_escape_text (m->space_names[k], -1);
          g_string_append_printf (s, "\n    %s: %s → %s", name, sb, sa);
        }
      if (!isnan (m->reachable[i]))
        {
          g_autofree char *r = tm_format_bytes (m->reachable[i]);
          g_string_append_c (s, '\n');
          g_string_append_printf (s, _("Reachable: <b>%s</b>"), r);
        }
      break;
    case TM_CHART_ALLOCATIONS:
      append_allocations (s, m, i);
      break;
    case TM_CHART_RSS:
      if (!isnan (m->committed[i]))
        {
          g_autofree char *rss = tm_format_bytes (m->committed[i]);
          g_string_append_printf (s, _("\nRSS: %s"), rss);
        }
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Heap after: %s"), after);
      break;
    case TM_CHART_OBJECTS:
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Objects alive after GC: <b>%s</b>"), objects);
      g_string_append_c (s, '\n');
      g_string_append_printf (s, _("Heap after: %s"), after);
      break;
    case TM_CHART_OVERHEAD:
    case TM_CHART_N_KINDS:
    default:
      {
        double prev_end = i > 0 ? m->end_ns[i - 1] : 0;
        g_autofree char *interval = tm_format_duration (m->end_ns[i] - prev_end);
        g_string_append_c (s, '\n');
        g_string_append_printf (s, _("GC overhead: <b>%.1f %%</b> (%s paused of %s since the previous GC)"),
                                m->overhead[i] * 100, pause, interval);
      }
      break;
    }
  return g_string_free (s, FALSE);
}

/* A concurrent phase or stall under the pointer in the memory chart's
 * lane of them. */
static char *
describe_phase (TmChartView *self, double x, double y)
{
  TmTimelineModel *m = tm_session_get_model (self->session);
  TmTrace *trace = tm_session_get_trace (self->session);
  double lane = self->layout.y + self->layout.height + 3;
  const TmGcPhase *ph;
  g_autofree char *at = NULL, *len = NULL, *name = NULL;
  GString *s;
  int i;

  if (self->kind != TM_CHART_MEMORY || m == NULL || trace == NULL || !tm_chart_has_phase_lane (m) ||
      y < lane || y > lane + TM_CHART_PHASE_LANE || x < self->layout.x || x > self->layout.x + self->layout.width)
    return NULL;
  i = tm_timeline_model_phase_at (m, tm_chart_layout_x_to_ns (&self->layout, x),
                                  4 * (self->layout.t1 - self->layout.t0) / MAX (self->layout.width, 1));
  if (i < 0 || (guint) i >= trace->gc_phases->len)
    return NULL;
  ph = &g_array_index (trace->gc_phases, TmGcPhase, i);
  at = tm_format_duration ((double) ph->start_ns);
  len = tm_format_duration ((double) (ph->end_ns - ph->start_ns));
  name = g_markup_escape_text (ph->name, -1);
  s = g_string_new (NULL);
  g_string_append_printf (s, "<b>%s</b>", name);
  if (ph->jvm_gc_id >= 0)
    g_string_append_printf (s, " · GC(%" G_GINT64_FORMAT ")", ph->jvm_gc_id);
  g_string_append_c (s, '\n');
  /* Translators: when a concurrent GC phase started and how long it ran */
  g_string_append_printf (s, _("At %s, for %s"), at, len);
  if (*ph->detail)
    {
      g_autofree char *detail = g_markup_escape_text (ph->detail, -1);
      g_string_append_printf (s, "\n%s", detail);
    }
  return g_string_free (s, FALSE);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  TmChartView *self = TM_CHART_VIEW (widget);
  g_autofree char *markup = NULL;
  guint gc;

  if (!keyboard && self->session != NULL && self->have_layout)
    {
      /* a window's marker: its name, also where the lane has no room for it */
      const TmChartBand *bands;
      guint n = 0;
      int band;

      bands = tm_session_get_bands (self->session, &n);
      band = tm_chart_lane_hit (bands, n, &self->layout, self->kind == TM_CHART_MEMORY, x, y);
      if (band >= 0)
        {
          g_autofree char *t0 = tm_format_duration (bands[band].start_ns);
          g_autofree char *t1 = tm_format_duration (bands[band].end_ns);
          g_autofree char *text = g_strdup_printf (_("%s, %s – %s (click to select it)"),
                                                   tm_chart_window_label (bands[band].kind), t0, t1);
          gtk_tooltip_set_text (tooltip, text);
          return TRUE;
        }
    }
  if (self->kind == TM_CHART_PAUSE_HISTOGRAM)
    return FALSE;   /* no time axis */
  if (!keyboard && self->session != NULL && self->have_layout && (markup = describe_phase (self, x, y)) != NULL)
    {
      gtk_tooltip_set_markup (tooltip, markup);
      return TRUE;
    }
  if (keyboard || (gc = gc_at_x (self, x)) == 0)
    return FALSE;
  if (y < self->layout.y || y > self->layout.y + self->layout.height + 14)
    return FALSE;
  if ((markup = tm_chart_view_describe_gc (self, gc)) == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *motion, double x, double y, TmChartView *self)
{
  self->pointer_x = x;
  if (self->session)
    tm_session_set_hover_gc (self->session, gc_at_x (self, x));
}

static void
leave_cb (GtkEventControllerMotion *motion, TmChartView *self)
{
  if (self->session)
    tm_session_set_hover_gc (self->session, 0);
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll, double dx, double dy, TmChartView *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  double span, center;

  if (self->session == NULL || !self->have_layout || self->kind == TM_CHART_PAUSE_HISTOGRAM)
    return FALSE;
  span = tm_session_get_visible_end (self->session) - tm_session_get_visible_start (self->session);

  if (mods & GDK_CONTROL_MASK)
    {
      center = tm_chart_layout_x_to_ns (&self->layout, CLAMP (self->pointer_x, self->layout.x,
                                                              self->layout.x + self->layout.width));
      tm_session_zoom (self->session, center, pow (1.25, dy));
      return TRUE;
    }
  if (dx != 0 || (mods & GDK_SHIFT_MASK))
    {
      double d = dx != 0 ? dx : dy;
      tm_session_pan (self->session, d * span * 0.1);
      return TRUE;
    }
  return FALSE;   /* plain vertical scroll scrolls the page */
}

static void
drag_begin_cb (GtkGestureDrag *gesture, double x, double y, TmChartView *self)
{
  self->drag_start_x = x;
  self->dragging = FALSE;
}

static void
drag_update_cb (GtkGestureDrag *gesture, double off_x, double off_y, TmChartView *self)
{
  double x0, x1;

  if (self->session == NULL || !self->have_layout || self->kind == TM_CHART_PAUSE_HISTOGRAM)
    return;
  if (!self->dragging && fabs (off_x) < DRAG_THRESHOLD)
    return;
  self->dragging = TRUE;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);

  x0 = CLAMP (self->drag_start_x, self->layout.x, self->layout.x + self->layout.width);
  x1 = CLAMP (self->drag_start_x + off_x, self->layout.x, self->layout.x + self->layout.width);
  tm_session_select_time (self->session,
                          tm_chart_layout_x_to_ns (&self->layout, MIN (x0, x1)),
                          tm_chart_layout_x_to_ns (&self->layout, MAX (x0, x1)));
}

/* The narrowest band under x, so a peak inside a leak can be picked. */
static int
band_at_x (TmChartView *self, double x)
{
  const TmChartBand *bands;
  guint n = 0;
  int best = -1;
  double best_width = G_MAXDOUBLE;
  double t = tm_chart_layout_x_to_ns (&self->layout, x);

  bands = tm_session_get_bands (self->session, &n);
  for (guint i = 0; i < n; i++)
    {
      /* Bands narrower than a few pixels are hit within 3 px. */
      double slack = 3 * (self->layout.t1 - self->layout.t0) / MAX (self->layout.width, 1);
      if (t >= bands[i].start_ns - slack && t <= bands[i].end_ns + slack &&
          bands[i].end_ns - bands[i].start_ns < best_width)
        {
          best = (int) i;
          best_width = bands[i].end_ns - bands[i].start_ns;
        }
    }
  return best;
}

static void
drag_end_cb (GtkGestureDrag *gesture, double off_x, double off_y, TmChartView *self)
{
  int band;

  if (self->session == NULL || !self->have_layout || self->dragging || self->kind == TM_CHART_PAUSE_HISTOGRAM)
    return;

  /* A click on a window's marker selects it; on the plot, the narrowest
   * window under the pointer, or nothing. */
  {
    const TmChartBand *bands;
    guint n = 0;
    double y = 0;

    gtk_gesture_drag_get_start_point (gesture, NULL, &y);
    bands = tm_session_get_bands (self->session, &n);
    band = tm_chart_lane_hit (bands, n, &self->layout, self->kind == TM_CHART_MEMORY, self->drag_start_x, y);
    if (band >= 0)
      {
        tm_session_select_window (self->session, band);
        return;
      }
  }
  if (self->drag_start_x < self->layout.x || self->drag_start_x > self->layout.x + self->layout.width)
    return;
  band = band_at_x (self, self->drag_start_x);
  if (band >= 0)
    tm_session_select_window (self->session, band);
  else
    tm_session_clear_selection (self->session);
}

static void
context_menu_cb (GtkGestureClick *click, int n_press, double x, double y, TmChartView *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) zoom = g_menu_new ();
  g_autofree char *export_action = NULL;
  int band;

  if (self->popover == NULL)
    {
      self->popover = gtk_popover_menu_new_from_model (NULL);
      gtk_widget_set_parent (self->popover, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
      gtk_widget_set_halign (self->popover, GTK_ALIGN_START);
    }

  if (self->have_layout && self->kind != TM_CHART_PAUSE_HISTOGRAM && (band = band_at_x (self, x)) >= 0)
    {
      g_autofree char *action = g_strdup_printf ("win.select-window(%d)", band);
      g_menu_append (menu, _("_Select This Window"), action);
    }
  export_action = g_strdup_printf ("win.export-chart('%s')", tm_chart_kind_to_string (self->kind));
  g_menu_append (menu, _("_Export Chart as PNG…"), export_action);
  g_menu_append (zoom, _("Zoom to _Selection"), "win.zoom-selection");
  g_menu_append (zoom, _("_Reset Zoom"), "win.zoom-reset");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (zoom));

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->popover), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->popover));
  gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
tm_chart_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                       int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  TmChartView *self = TM_CHART_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 320;
      *natural = 800;
    }
  else
    {
      *minimum = self->kind == TM_CHART_MEMORY ? 220 : 130;
      *natural = self->kind == TM_CHART_MEMORY ? 300 : 160;
    }
}

static void
tm_chart_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TmChartView *self = TM_CHART_VIEW (widget);

  if (self->popover)
    gtk_popover_present (GTK_POPOVER (self->popover));
}

static void
tm_chart_view_dispose (GObject *object)
{
  TmChartView *self = TM_CHART_VIEW (object);

  g_clear_pointer (&self->popover, gtk_widget_unparent);
  tm_chart_view_set_session (self, NULL);
  G_OBJECT_CLASS (tm_chart_view_parent_class)->dispose (object);
}

static void
tm_chart_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TmChartView *self = TM_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION: g_value_set_object (value, self->session); break;
    case PROP_KIND:    g_value_set_int (value, self->kind); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_chart_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TmChartView *self = TM_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION: tm_chart_view_set_session (self, g_value_get_object (value)); break;
    case PROP_KIND:    tm_chart_view_set_kind (self, g_value_get_int (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_chart_view_class_init (TmChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_chart_view_dispose;
  object_class->get_property = tm_chart_view_get_property;
  object_class->set_property = tm_chart_view_set_property;
  widget_class->snapshot = tm_chart_view_snapshot;
  widget_class->measure = tm_chart_view_measure;
  widget_class->size_allocate = tm_chart_view_size_allocate;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, TM_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* TmChartKind as an int: 0 memory, 1 live objects, 2 GC overhead. */
  properties[PROP_KIND] =
    g_param_spec_int ("kind", NULL, NULL, 0, TM_CHART_N_KINDS - 1, 0,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tm_chart_view_init (TmChartView *self)
{
  GtkEventController *motion, *scroll;
  GtkGesture *drag, *click;

  self->kind = TM_CHART_MEMORY;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  tm_chart_kind_title (self->kind), -1);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), FALSE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (context_menu_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
tm_chart_view_new (TmSession *session, TmChartKind kind)
{
  return g_object_new (TM_TYPE_CHART_VIEW, "session", session, "kind", kind, NULL);
}

TmSession *
tm_chart_view_get_session (TmChartView *self)
{
  g_return_val_if_fail (TM_IS_CHART_VIEW (self), NULL);
  return self->session;
}

void
tm_chart_view_set_session (TmChartView *self, TmSession *session)
{
  g_return_if_fail (TM_IS_CHART_VIEW (self));

  if (self->session == session)
    return;
  if (self->session)
    g_signal_handlers_disconnect_by_func (self->session, session_changed_cb, self);
  g_set_object (&self->session, session);
  if (session)
    g_signal_connect_swapped (session, "changed", G_CALLBACK (session_changed_cb), self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

TmChartKind
tm_chart_view_get_kind (TmChartView *self)
{
  g_return_val_if_fail (TM_IS_CHART_VIEW (self), TM_CHART_MEMORY);
  return self->kind;
}

void
tm_chart_view_set_kind (TmChartView *self, TmChartKind kind)
{
  g_return_if_fail (TM_IS_CHART_VIEW (self));
  g_return_if_fail (kind < TM_CHART_N_KINDS);

  if (self->kind == kind)
    return;
  self->kind = kind;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  tm_chart_kind_title (kind), -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}
