/* SPDX-License-Identifier: GPL-3.0-or-later
 * The TrendViz line chart (see tm-render-trend.h). */
#include "tm-config.h"
#include "tm-render-trend.h"
#include "tm-format-util.h"
#include "tm-axis.h"
#include "tm-downsample.h"
#include "tm-render-common.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#define SWATCH     14.0
#define HIT_PIXELS 5.0

/* Adwaita hues, ordered so neighbours in the ranking differ clearly. */
TmColor
tm_trend_series_color (guint index, gboolean is_other, gboolean dark)
{
  static const guint32 light[] = { 0x1c71d8, 0xc01c28, 0x26a269, 0xe66100, 0x813d9c,
                                   0x986a44, 0x1a5fb4, 0xa51d2d, 0x2ec27e, 0xc64600 };
  static const guint32 night[] = { 0x62a0ea, 0xf66151, 0x57e389, 0xffa348, 0xdc8add,
                                   0xcdab8f, 0x99c1f1, 0xff7b63, 0x8ff0a4, 0xffbe6f };

  if (is_other)
    return tm_render_rgb (dark ? 0x9a9996 : 0x77767b, 1);
  return tm_render_rgb ((dark ? night : light)[index % G_N_ELEMENTS (light)], 1);
}

const char *
tm_trend_metric_label (TmTrendMetric metric)
{
  switch (metric)
    {
    case TM_TREND_METRIC_OBJECTS:          return _("Objects");
    case TM_TREND_METRIC_BYTES:            return _("Bytes");
    case TM_TREND_METRIC_DEEP_OBJECTS:     return _("Deep objects");
    case TM_TREND_METRIC_DEEP_BYTES:       return _("Deep bytes");
    case TM_TREND_METRIC_RETAINED_OBJECTS: return _("Retained objects");
    case TM_TREND_METRIC_RETAINED_BYTES:   return _("Retained bytes");
    case TM_TREND_N_METRICS:
    default:                               return _("Value");
    }
}

static const char *
classifier_label (TmClassifier c)
{
  switch (c)
    {
    case TM_CLASSIFIER_TYPE:      return _("type");
    case TM_CLASSIFIER_PACKAGE:   return _("package");
    case TM_CLASSIFIER_SITE:      return _("allocation site");
    case TM_CLASSIFIER_CALL_SITE: return _("call site");
    case TM_CLASSIFIER_THREAD:    return _("thread");
    case TM_CLASSIFIER_SPACE:     return _("space");
    case TM_CLASSIFIER_AGE:       return _("age");
    case TM_CLASSIFIER_TRANSACTION: return _("transaction");
    case TM_CLASSIFIER_LEAVES:    return _("leaves");
    case TM_CLASSIFIER_DEEP_LEAVES: return _("deep leaves");
    case TM_CLASSIFIER_CONTAINING_DS: return _("containing data structure");
    case TM_CLASSIFIER_ROOT_PATH: return _("root path");
    case TM_N_CLASSIFIERS:
    default:                      return "?";
    }
}

char *
tm_trend_chart_title (const TmTrend *trend)
{
  const TmTrendRequest *r;
  g_autofree char *title = NULL;

  g_return_val_if_fail (trend != NULL, NULL);
  r = &trend->request;
  if (r->n_drill == 0)
    /* Translators: "Retained bytes by allocation site" */
    title = g_strdup_printf (_("%s by %s"), tm_trend_metric_label (r->metric),
                             classifier_label (trend->level_classifier));
  else
    {
      /* the whole drill path: "byte[] › Journey.<init>(...)" */
      g_autofree char *path = g_strjoinv (" › ", (char **) r->drill);

      /* Translators: "Bytes by allocation site in java.lang.String" */
      title = g_strdup_printf (_("%s by %s in %s"), tm_trend_metric_label (r->metric),
                               classifier_label (trend->level_classifier), path);
    }
  if (!tm_trend_metric_needs_graph (r->metric) && !tm_trend_request_needs_graph (r))
    return g_steal_pointer (&title);
  /* deep and retained sizes, data structures and root paths exist only where the
   * trace has a graph */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (the %u GC with a reference graph)",
                                       "%s (the %u GCs with a reference graph)", trend->n_points),
                          title, trend->n_points);
}

void
tm_trend_chart_options_init (TmTrendChartOptions *o, double width, double height)
{
  g_return_if_fail (o != NULL);

  memset (o, 0, sizeof *o);
  o->width = width;
  o->height = height;
  o->selected = -1;
  o->hover_ns = -1;
  o->foreground = tm_render_rgb (0x241f31, 1);
  o->background = tm_render_rgb (0xffffff, 1);
  o->show_legend = TRUE;
}

guint
tm_trend_nearest_point (const TmTrend *trend, double ns)
{
  guint best = 0;

  g_return_val_if_fail (trend != NULL, 0);
  for (guint p = 1; p < trend->n_points; p++)
    if (fabs ((double) trend->times_ns[p] - ns) < fabs ((double) trend->times_ns[best] - ns))
      best = p;
  return best;
}

/* ------------------------------------------------------------------ */

typedef struct {
  cairo_t                   *cr;
  TmRenderText               t;        /* cr, the font, middle ellipsis */
  const TmTrendChartOptions *o;
  TmTrendChartLayout         l;
  double                    *x;        /* times as doubles */
  double                    *dx, *dy;  /* downsampled */
  gsize                      cap;
} Ctx;

double
tm_trend_chart_value_y (const TmTrendChartLayout *l, double v)
{
  const TmChartLayout *p = &l->plot;
  double f;

  if (l->log_scale)
    f = v <= l->y_min ? 0 : (log10 (v) - log10 (l->y_min)) / (log10 (l->y_max) - log10 (l->y_min));
  else
    f = l->y_max > 0 ? v / l->y_max : 0;
  return p->y + p->height - f * p->height;
}

static double
y_of (const Ctx *c, double v)
{
  return tm_trend_chart_value_y (&c->l, v);
}

static gsize sample (Ctx *c, const double *y, guint n);

/* The smallest value above 0 shown: the bottom of a log scale. */
static double
visible_min_positive (Ctx *c, GPtrArray *shown, guint n)
{
  double mn = G_MAXDOUBLE;

  for (guint s = 0; s < shown->len; s++)
    {
      const TmTrendSeries *ser = g_ptr_array_index (shown, s);
      gsize k = sample (c, ser->values, n);
      for (gsize i = 0; i < k; i++)
        if (c->dx[i] >= c->l.plot.t0 && c->dx[i] <= c->l.plot.t1 && c->dy[i] > 0)
          mn = MIN (mn, c->dy[i]);
    }
  return mn;
}

/* Log scale ticks: 1, 10, 100 of each unit (bytes: B, KiB, MiB, ...;
 * counts: 1, 10, 100, 1 K, ...), from below the smallest value to above
 * the largest; labels in the user's locale. */
static void
log_scale_range (Ctx *c, double lo, double hi, gboolean bytes)
{
  double unit = bytes ? 1024 : 1000;
  double v = 1, top = 1;

  hi = MAX (hi, 1);
  lo = CLAMP (lo, 1, hi);
  /* the largest tick <= lo, the smallest >= hi */
  for (double base = 1; base <= hi * unit; base *= unit)
    for (int d = 0; d < 3; d++)
      {
        double t = base * pow (10, d);
        if (t <= lo)
          v = t;
        if (t >= hi)
          {
            top = t;
            goto done;
          }
        top = t;
      }
done:
  c->l.y_min = v;
  c->l.y_max = MAX (top, v * 10);
}

static void
draw_log_axis (Ctx *c, gboolean bytes)
{
  cairo_t *cr = c->cr;
  double unit = bytes ? 1024 : 1000;

  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  for (double base = 1; base <= c->l.y_max; base *= unit)
    for (int d = 0; d < 3; d++)
      {
        double t = base * pow (10, d);
        double y;
        g_autofree char *label = NULL;

        if (t < c->l.y_min || t > c->l.y_max)
          continue;
        y = round (y_of (c, t)) + 0.5;
        label = bytes ? tm_format_bytes (t) : tm_format_count ((guint64) t);
        tm_render_set_color (cr, c->o->foreground, t == c->l.y_min ? 0.35 : 0.10);
        cairo_move_to (cr, c->l.plot.x, y);
        cairo_line_to (cr, c->l.plot.x + c->l.plot.width, y);
        cairo_stroke (cr);
        tm_render_draw_text (&c->t, label, c->l.plot.x - 6, y, 1.0, 0.5, FALSE, c->o->foreground, 0.65, -1);
      }
  cairo_restore (cr);
}

static gsize
sample (Ctx *c, const double *y, guint n)
{
  guint buckets = MAX (1, (guint) ceil (c->l.plot.width));
  gsize need = TM_DOWNSAMPLE_CAPACITY (buckets);

  if (need > c->cap)
    {
      c->dx = g_renew (double, c->dx, need);
      c->dy = g_renew (double, c->dy, need);
      c->cap = need;
    }
  return tm_downsample_min_max (c->x, y, n, c->l.plot.t0, c->l.plot.t1, buckets, c->dx, c->dy);
}

static double
visible_max (Ctx *c, GPtrArray *shown, guint n)
{
  double mx = 0;

  for (guint s = 0; s < shown->len; s++)
    {
      const TmTrendSeries *ser = g_ptr_array_index (shown, s);
      gsize k = sample (c, ser->values, n);
      for (gsize i = 0; i < k; i++)
        if (c->dx[i] >= c->l.plot.t0 && c->dx[i] <= c->l.plot.t1)
          mx = MAX (mx, c->dy[i]);
    }
  return mx;
}

static void
draw_series (Ctx *c, const TmTrendSeries *ser, guint index, guint n, gboolean selected, gboolean dimmed)
{
  cairo_t *cr = c->cr;
  TmColor color = tm_trend_series_color (index, ser->is_other, c->o->dark);
  gsize k = sample (c, ser->values, n);
  double dash[] = { 5, 3 };

  if (k == 0)
    return;
  cairo_save (cr);
  for (gsize i = 0; i < k; i++)
    {
      double x = tm_chart_layout_ns_to_x (&c->l.plot, c->dx[i]), y = y_of (c, c->dy[i]);
      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  tm_render_set_color (cr, color, dimmed ? 0.35 : 1.0);
  cairo_set_line_width (cr, selected ? 3.0 : 1.8);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  if (ser->is_other)
    cairo_set_dash (cr, dash, 2, 0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  /* sparse series (few classified GCs): mark the points */
  if (k < c->l.plot.width / 10)
    for (gsize i = 0; i < k; i++)
      {
        cairo_arc (cr, tm_chart_layout_ns_to_x (&c->l.plot, c->dx[i]), y_of (c, c->dy[i]),
                   selected ? 3.5 : 2.5, 0, 2 * G_PI);
        cairo_fill (cr);
      }
  cairo_restore (cr);
}

static void
draw_legend (Ctx *c, GPtrArray *shown)
{
  TmTrendChartLayout *l = &c->l;
  double w, h;

  tm_render_text_size (&c->t, "Xg", FALSE, &w, &h);
  l->legend_row = MAX (h + 4, 16);
  l->n_legend = MIN (shown->len, TM_TREND_CHART_MAX_LEGEND);
  for (guint s = 0; s < l->n_legend; s++)
    {
      const TmTrendSeries *ser = g_ptr_array_index (shown, s);
      double y = l->plot.y + s * l->legend_row;
      double cy = y + l->legend_row / 2;
      gboolean selected = (int) s == c->o->selected;
      TmColor color = tm_trend_series_color (s, ser->is_other, c->o->dark);

      l->legend_y[s] = y;
      if (y + l->legend_row > l->plot.y + l->plot.height + TM_RENDER_X_LABELS)
        {
          l->n_legend = s;
          break;
        }
      if (selected)
        {
          tm_render_set_color (c->cr, color, 0.15);
          cairo_rectangle (c->cr, l->legend_x - 3, y, l->legend_width + 3, l->legend_row);
          cairo_fill (c->cr);
        }
      cairo_save (c->cr);
      tm_render_set_color (c->cr, color, 1.0);
      cairo_set_line_width (c->cr, 2.5);
      if (ser->is_other)
        {
          double dash[] = { 4, 2 };
          cairo_set_dash (c->cr, dash, 2, 0);
        }
      cairo_move_to (c->cr, l->legend_x, cy);
      cairo_line_to (c->cr, l->legend_x + SWATCH - 2, cy);
      cairo_stroke (c->cr);
      cairo_restore (c->cr);
      tm_render_draw_text (&c->t, ser->is_other ? _("Other") : ser->key, l->legend_x + SWATCH + 4, cy,
                           0.0, 0.5, selected, c->o->foreground, 0.8, l->legend_width - SWATCH - 6);
    }
}

static void
draw_hover (Ctx *c, TmTrend *trend, GPtrArray *shown)
{
  guint p;
  double x;

  if (c->o->hover_ns < 0 || trend->n_points == 0)
    return;
  p = tm_trend_nearest_point (trend, c->o->hover_ns);
  x = tm_chart_layout_ns_to_x (&c->l.plot, (double) trend->times_ns[p]);
  if (x < c->l.plot.x || x > c->l.plot.x + c->l.plot.width)
    return;

  cairo_save (c->cr);
  tm_render_set_color (c->cr, c->o->foreground, 0.55);
  cairo_set_line_width (c->cr, 1);
  cairo_move_to (c->cr, round (x) + 0.5, c->l.plot.y);
  cairo_line_to (c->cr, round (x) + 0.5, c->l.plot.y + c->l.plot.height);
  cairo_stroke (c->cr);
  for (guint s = 0; s < shown->len; s++)
    {
      const TmTrendSeries *ser = g_ptr_array_index (shown, s);
      tm_render_set_color (c->cr, tm_trend_series_color (s, ser->is_other, c->o->dark), 1.0);
      cairo_arc (c->cr, x, y_of (c, ser->values[p]), 3.5, 0, 2 * G_PI);
      cairo_fill (c->cr);
    }
  cairo_restore (c->cr);
}

void
tm_trend_chart_render (cairo_t                   *cr,
                       TmTrend                   *trend,
                       GPtrArray                 *shown,
                       const TmTrendChartOptions *o,
                       TmTrendChartLayout        *layout_out)
{
  Ctx c = { 0 };
  g_autoptr(PangoFontDescription) font = NULL;
  TmAxisTicks ticks;
  TmAxisUnit unit;
  g_autofree char *title = NULL;
  double y_label_w = 0, bottom, legend_room = 0;
  guint n;

  g_return_if_fail (cr != NULL && trend != NULL && shown != NULL && o != NULL);

  n = trend->n_points;
  c.cr = cr;
  c.o = o;
  font = tm_render_font_new (o->font);
  /* long Java names keep their ends: package start and class name */
  c.t = (TmRenderText) { cr, font, PANGO_ELLIPSIZE_MIDDLE };
  c.x = g_new (double, MAX (n, 1));
  for (guint p = 0; p < n; p++)
    c.x[p] = (double) trend->times_ns[p];

  cairo_save (cr);
  tm_render_background (cr, o->background, o->width, o->height);

  /* the window, or the requested view; one point gets a little room */
  if (o->view_end_ns > o->view_start_ns)
    {
      c.l.plot.t0 = o->view_start_ns;
      c.l.plot.t1 = o->view_end_ns;
    }
  else if (n > 1)
    {
      c.l.plot.t0 = c.x[0];
      c.l.plot.t1 = c.x[n - 1];
    }
  else
    {
      c.l.plot.t0 = (n ? c.x[0] : 0) - 5e7;
      c.l.plot.t1 = (n ? c.x[0] : 0) + 5e7;
    }

  /* legend column: the longest label, at most a third of the width */
  if (o->show_legend && shown->len > 0)
    {
      for (guint s = 0; s < shown->len; s++)
        {
          const TmTrendSeries *ser = g_ptr_array_index (shown, s);
          double w, h;
          tm_render_text_size (&c.t, ser->is_other ? _("Other") : ser->key, TRUE, &w, &h);
          legend_room = MAX (legend_room, w + SWATCH + 8);
        }
      legend_room = MIN (legend_room, o->width / 3);
    }

  c.l.plot.y = TM_RENDER_PAD + TM_RENDER_HEADER + 4;
  bottom = o->height - TM_RENDER_PAD - TM_RENDER_X_LABELS;
  c.l.plot.height = MAX (bottom - c.l.plot.y, 10);
  unit = tm_trend_metric_is_bytes (trend->request.metric) ? TM_AXIS_UNIT_BYTES : TM_AXIS_UNIT_COUNT;

  /* y labels' width depends on the values, which depend on the plot
   * width: a first guess, refined once (as tm-chart.c does) */
  for (int pass = 0; pass < 2; pass++)
    {
      c.l.plot.x = TM_RENDER_PAD + (o->y_axis_width > 0 ? o->y_axis_width : pass == 0 ? 64 : y_label_w + 8);
      c.l.plot.width = MAX (o->width - c.l.plot.x - TM_RENDER_PAD - 4 - (legend_room > 0 ? legend_room + 12 : 0),
                            10);
      y_label_w = tm_render_value_ticks (&c.t, &ticks, unit, visible_max (&c, shown, n), c.l.plot.height);
      c.l.y_max = ticks.max;
      if (o->log_scale)
        {
          g_autofree char *widest = NULL;

          c.l.log_scale = TRUE;
          log_scale_range (&c, visible_min_positive (&c, shown, n), visible_max (&c, shown, n),
                           unit == TM_AXIS_UNIT_BYTES);
          widest = unit == TM_AXIS_UNIT_BYTES ? tm_format_bytes (c.l.y_max) : tm_format_count ((guint64) c.l.y_max);
          y_label_w = MAX (tm_render_text_width (&c.t, widest, FALSE), 40);
        }
    }
  c.l.legend_x = c.l.plot.x + c.l.plot.width + 12;
  c.l.legend_width = legend_room;

  title = o->title ? g_strdup (o->title) : tm_trend_chart_title (trend);
  tm_render_draw_title (&c.t, title, o->foreground, o->width - 2 * TM_RENDER_PAD);
  if (c.l.log_scale)
    draw_log_axis (&c, unit == TM_AXIS_UNIT_BYTES);
  else
    tm_render_value_axis (&c.t, &c.l.plot, c.l.y_max, &ticks, o->foreground);

  cairo_save (cr);
  cairo_rectangle (cr, c.l.plot.x - 4, c.l.plot.y - 4, c.l.plot.width + 8, c.l.plot.height + 5);
  cairo_clip (cr);
  /* Other first, so the groups stay on top; the selected one last */
  for (guint s = shown->len; s-- > 0;)
    if ((int) s != o->selected)
      draw_series (&c, g_ptr_array_index (shown, s), s, n, FALSE, o->selected >= 0);
  if (o->selected >= 0 && (guint) o->selected < shown->len)
    draw_series (&c, g_ptr_array_index (shown, o->selected), o->selected, n, TRUE, FALSE);
  draw_hover (&c, trend, shown);
  cairo_restore (cr);

  tm_render_time_axis (&c.t, &c.l.plot, bottom, c.l.plot.x + c.l.plot.width + TM_RENDER_PAD,
                       o->foreground);
  if (legend_room > 0)
    draw_legend (&c, shown);
  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = c.l;
  g_free (c.x);
  g_free (c.dx);
  g_free (c.dy);
}

typedef struct {
  TmTrend                   *trend;
  GPtrArray                 *shown;
  const TmTrendChartOptions *options;
} PngArgs;

static void
draw_png (cairo_t *cr, gpointer user_data)
{
  PngArgs *a = user_data;

  tm_trend_chart_render (cr, a->trend, a->shown, a->options, NULL);
}

gboolean
tm_trend_chart_write_png (TmTrend                   *trend,
                          GPtrArray                 *shown,
                          const TmTrendChartOptions *options,
                          const char                *path,
                          GError                   **error)
{
  PngArgs args = { trend, shown, options };

  g_return_val_if_fail (trend != NULL && shown != NULL && options != NULL && path != NULL, FALSE);

  return tm_render_write_png (options->width, options->height, draw_png, &args, path, error);
}

/* Distance from (px, py) to the segment a-b. */
static double
segment_distance (double px, double py, double ax, double ay, double bx, double by)
{
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, t;

  t = len2 > 0 ? CLAMP (((px - ax) * dx + (py - ay) * dy) / len2, 0, 1) : 0;
  return hypot (px - (ax + t * dx), py - (ay + t * dy));
}

int
tm_trend_chart_hit (const TmTrendChartLayout *l,
                    TmTrend                  *trend,
                    GPtrArray                *shown,
                    double                    x,
                    double                    y)
{
  const TmChartLayout *p;
  int best = -1;
  double best_d = HIT_PIXELS;

  g_return_val_if_fail (l != NULL && trend != NULL && shown != NULL, -1);

  if (x >= l->legend_x - 3 && x <= l->legend_x + l->legend_width)
    for (guint s = 0; s < l->n_legend && s < shown->len; s++)
      if (y >= l->legend_y[s] && y < l->legend_y[s] + l->legend_row)
        return (int) s;

  p = &l->plot;
  if (x < p->x - HIT_PIXELS || x > p->x + p->width + HIT_PIXELS || l->y_max <= 0)
    return -1;
  for (guint s = 0; s < shown->len; s++)
    {
      const TmTrendSeries *ser = g_ptr_array_index (shown, s);
      for (guint i = 0; i + 1 < trend->n_points || (trend->n_points == 1 && i == 0); i++)
        {
          guint j = trend->n_points == 1 ? 0 : i + 1;
          double ax = tm_chart_layout_ns_to_x (p, (double) trend->times_ns[i]);
          double bx = tm_chart_layout_ns_to_x (p, (double) trend->times_ns[j]);
          double ay = tm_trend_chart_value_y (l, ser->values[i]);
          double by = tm_trend_chart_value_y (l, ser->values[j]);
          double d;

          if (MAX (ax, bx) < x - HIT_PIXELS || MIN (ax, bx) > x + HIT_PIXELS)
            continue;
          d = segment_distance (x, y, ax, ay, bx, by);
          if (d < best_d)
            {
              best_d = d;
              best = (int) s;
            }
        }
    }
  return best;
}
