/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-chart-pauses.h"
#include "tm-format-util.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#define BINS_PER_DECADE 3   /* 1-2, 2-5, 5-10: round labels */

TmColor
tm_chart_concurrent_color (gboolean dark)
{
  return dark ? tm_render_rgb (0x57e389, 1) : tm_render_rgb (0x26a269, 1);
}

TmColor
tm_chart_stall_color (gboolean dark)
{
  return dark ? tm_render_rgb (0xffa348, 1) : tm_render_rgb (0xe66100, 1);
}

TmColor
tm_chart_pause_color (TmPauseClass c, gboolean dark)
{
  switch (c)
    {
    case TM_PAUSE_YOUNG:       return dark ? tm_render_rgb (0x62a0ea, 1) : tm_render_rgb (0x1c71d8, 1);
    case TM_PAUSE_MIXED:       return dark ? tm_render_rgb (0xc061cb, 1) : tm_render_rgb (0x9141ac, 1);
    case TM_PAUSE_CYCLE:       return tm_chart_concurrent_color (dark);
    case TM_PAUSE_FULL:        return dark ? tm_render_rgb (0xf66151, 1) : tm_render_rgb (0xc01c28, 1);
    case TM_PAUSE_DEGENERATED: return tm_chart_stall_color (dark);
    case TM_PAUSE_OTHER:
    case TM_PAUSE_N_CLASSES:
    default:                   return tm_render_rgb (0x77767b, 1);
    }
}

gboolean
tm_chart_has_phase_lane (const TmTimelineModel *m)
{
  return m->n_phases > 0;
}

/* Spans closer than a pixel are drawn as one rectangle. */
typedef struct {
  double x0, x1;
  gboolean open;
} Run;

static void
run_add (cairo_t *cr, Run *r, double x0, double x1, double y, double h)
{
  if (r->open && x0 <= r->x1)
    {
      r->x1 = MAX (r->x1, x1);
      return;
    }
  if (r->open)
    cairo_rectangle (cr, r->x0, y, r->x1 - r->x0, h);
  r->x0 = x0;
  r->x1 = x1;
  r->open = TRUE;
}

static void
run_flush (cairo_t *cr, Run *r, double y, double h)
{
  if (r->open)
    cairo_rectangle (cr, r->x0, y, r->x1 - r->x0, h);
  r->open = FALSE;
}

static void
draw_spans (cairo_t *cr, const TmTimelineModel *m, const TmChartLayout *l, gboolean cycles, double y, double h)
{
  Run run = { 0 };
  double right = l->x + l->width;

  for (guint i = tm_timeline_model_first_phase (m, l->t0); i < m->n_phases && m->phase_start[i] <= l->t1; i++)
    {
      double x0, x1;
      gboolean cycle = m->phase_kind[i] == TM_GC_PHASE_CYCLE;

      if (cycle != cycles || (!cycles && (m->phase_kind[i] != TM_GC_PHASE_CONCURRENT || m->phase_depth[i] > 0)))
        continue;
      if (m->phase_end[i] < l->t0)
        continue;
      x0 = MAX (tm_chart_layout_ns_to_x (l, m->phase_start[i]), l->x);
      x1 = MIN (tm_chart_layout_ns_to_x (l, m->phase_end[i]), right);
      /* a phase shorter than a pixel still shows; wide ones keep a gap
       * to the next, so that a cycle's phases are told apart */
      if (x1 - x0 < 1)
        x1 = x0 + 1;
      else if (!cycles && x1 - x0 >= 4)
        x1 -= 1;
      run_add (cr, &run, floor (x0), MAX (floor (x1), floor (x0) + 1), y, h);
    }
  run_flush (cr, &run, y, h);
  cairo_fill (cr);
}

const char *
tm_chart_phase_lane_label (void)
{
  /* Translators: the name of the lane of concurrent GC phases, left of the chart (keep it short: 60 px) */
  return _("Phases");
}

void
tm_chart_phase_lane_draw (const TmRenderText *t, const TmTimelineModel *m, const TmChartOptions *o,
                          const TmChartLayout *l, double y)
{
  cairo_t *cr = t->cr;
  TmColor green = tm_chart_concurrent_color (o->dark);
  TmColor orange = tm_chart_stall_color (o->dark);
  const double h = TM_CHART_PHASE_LANE;
  double last_stall = -G_MAXDOUBLE;
  TmRenderText small = *t;

  if (!tm_chart_has_phase_lane (m))
    return;
  cairo_save (cr);
  cairo_rectangle (cr, l->x, y, l->width, h);
  cairo_clip (cr);
  /* a faint track, the cycles lighter, their phases solid */
  tm_render_set_color (cr, o->foreground, 0.05);
  cairo_rectangle (cr, l->x, y, l->width, h);
  cairo_fill (cr);
  tm_render_set_color (cr, green, 0.28);
  draw_spans (cr, m, l, TRUE, y, h);
  tm_render_set_color (cr, green, 0.95);
  draw_spans (cr, m, l, FALSE, y + 3, h - 6);

  /* stalls: a triangle pointing down at each, one per 4 pixels */
  tm_render_set_color (cr, orange, 1.0);
  for (guint i = tm_timeline_model_first_phase (m, l->t0); i < m->n_phases && m->phase_start[i] <= l->t1; i++)
    {
      double x;
      if (m->phase_kind[i] != TM_GC_PHASE_STALL || m->phase_end[i] < l->t0)
        continue;
      x = round (tm_chart_layout_ns_to_x (l, m->phase_start[i]));
      if (x - last_stall < 4)
        continue;
      last_stall = x;
      cairo_move_to (cr, x - 4, y);
      cairo_line_to (cr, x + 4, y);
      cairo_line_to (cr, x, y + 7);
      cairo_close_path (cr);
    }
  cairo_fill (cr);

  /* Shenandoah degenerated and full GCs: the cycle stopped the program,
   * so a solid bar in the pause colour, at least 3 px wide */
  for (guint i = tm_timeline_model_first_phase (m, l->t0); i < m->n_phases && m->phase_start[i] <= l->t1; i++)
    {
      TmGcPhaseKind k = m->phase_kind[i];
      double x0, x1;
      if ((k != TM_GC_PHASE_DEGENERATED && k != TM_GC_PHASE_FULL) || m->phase_end[i] < l->t0)
        continue;
      x0 = floor (tm_chart_layout_ns_to_x (l, m->phase_start[i]));
      x1 = ceil (tm_chart_layout_ns_to_x (l, m->phase_end[i]));
      if (x1 - x0 < 3)
        {
          x0 = round ((x0 + x1) / 2) - 1;
          x1 = x0 + 3;
        }
      tm_render_set_color (cr, tm_chart_pause_color (k == TM_GC_PHASE_FULL ? TM_PAUSE_FULL : TM_PAUSE_DEGENERATED,
                                                     o->dark), 1.0);
      cairo_rectangle (cr, x0, y, x1 - x0, h);
      cairo_fill (cr);
    }
  cairo_restore (cr);

  small.ellipsize = PANGO_ELLIPSIZE_END;
  tm_render_draw_text (&small, tm_chart_phase_lane_label (), l->x - 6, y + h / 2, 1.0, 0.5, FALSE, o->foreground, 0.65,
                       MAX (l->x - TM_RENDER_PAD - 6, 10));
}

void
tm_chart_fallback_marks (cairo_t *cr, const TmTimelineModel *m, const TmChartOptions *o, const TmChartLayout *l)
{
  double dash[] = { 3, 3 };

  cairo_save (cr);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, dash, 2, 0);
  for (guint i = tm_timeline_model_first_phase (m, l->t0); i < m->n_phases && m->phase_start[i] <= l->t1; i++)
    {
      TmPauseClass c;
      double x;

      if (m->phase_kind[i] == TM_GC_PHASE_DEGENERATED)
        c = TM_PAUSE_DEGENERATED;
      else if (m->phase_kind[i] == TM_GC_PHASE_FULL)
        c = TM_PAUSE_FULL;
      else
        continue;
      if (m->phase_end[i] < l->t0)
        continue;
      x = round (tm_chart_layout_ns_to_x (l, m->phase_start[i])) + 0.5;
      tm_render_set_color (cr, tm_chart_pause_color (c, o->dark), 0.9);
      cairo_move_to (cr, x, l->y);
      cairo_line_to (cr, x, l->y + l->height);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

/* ---- pauses over time ---------------------------------------------- */

static double
scale_y (const TmChartLayout *l, const TmPauseScale *s, double v)
{
  double f;

  if (s->log)
    f = (log10 (MAX (v, s->lo)) - log10 (s->lo)) / (log10 (s->hi) - log10 (s->lo));
  else
    f = v / s->hi;
  return l->y + l->height - CLAMP (f, 0, 1) * l->height;
}

double
tm_chart_pause_scale (const TmRenderText *t, const TmTimelineModel *m, double t0, double t1, double height,
                      TmPauseScale *s)
{
  double mn = G_MAXDOUBLE, mx = 0, widest = 0;

  memset (s, 0, sizeof *s);
  for (guint i = tm_timeline_model_first_pause (m, t0); i < m->n_pauses && m->pause_at[i] <= t1; i++)
    {
      mn = MIN (mn, MAX (m->pause_len[i], 1000.0));   /* 1 µs: the logs' resolution */
      mx = MAX (mx, m->pause_len[i]);
    }
  if (mx <= 0)
    {
      mn = 1e6;
      mx = 1e7;
    }
  if (mx / mn > 30)
    {
      double lo_e = floor (log10 (mn)), hi_e = ceil (log10 (mx) + 1e-9);
      s->log = TRUE;
      s->lo = pow (10, lo_e);
      s->hi = pow (10, MAX (hi_e, lo_e + 1));
      /* a tick per decade, fewer when the plot is low */
      guint step = (guint) MAX (1, ceil ((hi_e - lo_e) / MAX (1, height / 22)));
      for (double e = lo_e; e <= hi_e + 1e-9 && s->n_ticks < G_N_ELEMENTS (s->ticks); e += step)
        s->ticks[s->n_ticks++] = pow (10, e);
    }
  else
    {
      TmAxisTicks ticks;
      tm_axis_ticks (&ticks, TM_AXIS_UNIT_TIME_NS, 0, mx, CLAMP ((guint) (height / 28), 2, 8), TRUE);
      s->lo = 0;
      s->hi = ticks.max > 0 ? ticks.max : mx;
      for (guint i = 0; i < ticks.n_ticks && s->n_ticks < G_N_ELEMENTS (s->ticks); i++)
        s->ticks[s->n_ticks++] = ticks.ticks[i];
    }
  for (guint i = 0; i < s->n_ticks; i++)
    {
      g_autofree char *label = tm_format_duration (s->ticks[i]);
      widest = MAX (widest, tm_render_text_width (t, label, FALSE));
    }
  return widest;
}

void
tm_chart_pause_axis (const TmRenderText *t, const TmChartLayout *l, const TmPauseScale *s, TmColor fg)
{
  for (guint i = 0; i < s->n_ticks; i++)
    {
      g_autofree char *label = s->ticks[i] > 0 ? tm_format_duration (s->ticks[i]) : g_strdup ("0");
      tm_render_value_gridline (t, l, scale_y (l, s, s->ticks[i]), label, i == 0, fg);
    }
}

void
tm_chart_pauses_draw (cairo_t *cr, const TmTimelineModel *m, const TmChartOptions *o, const TmChartLayout *l,
                      const TmPauseScale *s)
{
  guint cols = MAX (1, (guint) ceil (l->width));
  g_autofree double *top = g_new0 (double, (gsize) cols * TM_PAUSE_N_CLASSES);
  guint first = tm_timeline_model_first_pause (m, l->t0), n_visible = 0;
  double base = l->y + l->height;

  /* per pixel column and class the longest pause: every spike stays */
  for (guint i = first; i < m->n_pauses && m->pause_at[i] <= l->t1; i++)
    {
      double x = tm_chart_layout_ns_to_x (l, m->pause_at[i]) - l->x;
      guint col = (guint) CLAMP (x, 0, cols - 1);
      double *v = &top[(gsize) col * TM_PAUSE_N_CLASSES + m->pause_class[i]];
      *v = MAX (*v, MAX (m->pause_len[i], 1.0));
      n_visible++;
    }
  /* the rarer, more severe classes on top */
  for (guint c = 0; c < TM_PAUSE_N_CLASSES; c++)
    {
      TmColor color = tm_chart_pause_color (c, o->dark);
      gboolean dots = n_visible < l->width / 5;

      for (guint col = 0; col < cols; col++)
        {
          double v = top[(gsize) col * TM_PAUSE_N_CLASSES + c];
          double x = l->x + col, y;
          if (v <= 0)
            continue;
          y = scale_y (l, s, v);
          tm_render_set_color (cr, color, 0.8);
          cairo_rectangle (cr, x - (dots ? 0.5 : 0), y, dots ? 2 : 1.5, base - y);
          cairo_fill (cr);
          if (dots)
            {
              tm_render_set_color (cr, color, 1.0);
              cairo_arc (cr, x + 0.5, y, 2.8, 0, 2 * G_PI);
              cairo_fill (cr);
            }
        }
    }
}

/* ---- histogram ------------------------------------------------------ */

double
tm_chart_histogram_edge (const TmPauseHistogram *h, guint b)
{
  static const double mult[BINS_PER_DECADE] = { 1, 2, 5 };
  return mult[b % BINS_PER_DECADE] * pow (10, h->lo_exp + b / BINS_PER_DECADE);
}

static guint
bin_of (const TmPauseHistogram *h, double v)
{
  double d = floor (log10 (v) + 1e-12), m = v / pow (10, d);
  double b = (d - h->lo_exp) * BINS_PER_DECADE + (m < 2 - 1e-9 ? 0 : m < 5 - 1e-9 ? 1 : 2);
  return (guint) CLAMP (b, 0, h->n_bins - 1);
}

void
tm_chart_histogram_bins (const TmTimelineModel *m, const TmChartOptions *o, TmPauseHistogram *h)
{
  double t0 = o->has_selection ? MIN (o->sel_start_ns, o->sel_end_ns) : o->view_start_ns;
  double t1 = o->has_selection ? MAX (o->sel_start_ns, o->sel_end_ns) : o->view_end_ns;
  double mn = G_MAXDOUBLE, mx = 0;

  memset (h, 0, sizeof *h);
  for (guint i = tm_timeline_model_first_pause (m, t0); i < m->n_pauses && m->pause_at[i] <= t1; i++)
    {
      mn = MIN (mn, MAX (m->pause_len[i], 1000.0));
      mx = MAX (mx, MAX (m->pause_len[i], 1000.0));
    }
  if (mx <= 0)
    return;
  /* whole decades, so that the axis starts and ends on a round label */
  h->lo_exp = floor (log10 (mn) + 1e-12);
  h->n_bins = (guint) CLAMP ((floor (log10 (mx) + 1e-12) - h->lo_exp + 1) * BINS_PER_DECADE, BINS_PER_DECADE,
                             TM_PAUSE_HIST_MAX_BINS);
  for (guint i = tm_timeline_model_first_pause (m, t0); i < m->n_pauses && m->pause_at[i] <= t1; i++)
    {
      h->count[bin_of (h, MAX (m->pause_len[i], 1000.0))][m->pause_class[i]]++;
      h->n_pauses++;
    }
  for (guint b = 0; b < h->n_bins; b++)
    {
      guint sum = 0;
      for (guint c = 0; c < TM_PAUSE_N_CLASSES; c++)
        sum += h->count[b][c];
      h->max_count = MAX (h->max_count, sum);
    }
}

static double
edge_x (const TmChartLayout *l, const TmPauseHistogram *h, guint b)
{
  double lo = log10 (tm_chart_histogram_edge (h, 0)), hi = log10 (tm_chart_histogram_edge (h, h->n_bins));
  return l->x + (log10 (tm_chart_histogram_edge (h, b)) - lo) / (hi - lo) * l->width;
}

void
tm_chart_histogram_draw (const TmRenderText *t, const TmChartOptions *o, const TmChartLayout *l,
                         const TmPauseHistogram *h, double y_max, double bottom)
{
  cairo_t *cr = t->cr;
  double last_right = -G_MAXDOUBLE;

  if (h->n_bins == 0 || y_max <= 0)
    return;
  for (guint b = 0; b < h->n_bins; b++)
    {
      double y = l->y + l->height, x0 = edge_x (l, h, b), x1 = edge_x (l, h, b + 1);
      for (guint c = 0; c < TM_PAUSE_N_CLASSES; c++)
        {
          double hh = h->count[b][c] / y_max * l->height;
          if (h->count[b][c] == 0)
            continue;
          tm_render_set_color (cr, tm_chart_pause_color (c, o->dark), 0.85);
          cairo_rectangle (cr, x0 + 1, y - hh, MAX (x1 - x0 - 2, 1), hh);
          cairo_fill (cr);
          y -= hh;
        }
    }
  /* the bins' edges: 1, 2, 5, 10 ... with their durations where they fit */
  for (guint b = 0; b <= h->n_bins; b++)
    {
      double x = round (edge_x (l, h, b)) + 0.5;
      gboolean decade = b % BINS_PER_DECADE == 0;
      g_autofree char *label = tm_format_duration (tm_chart_histogram_edge (h, b));
      double w = tm_render_text_width (t, label, FALSE), cx = MIN (x, o->width - 2 - w / 2);

      tm_render_set_color (cr, o->foreground, decade ? 0.35 : 0.2);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, bottom + (decade ? 4 : 2));
      cairo_stroke (cr);
      if (cx - w / 2 < last_right + 8)
        continue;
      tm_render_draw_text (t, label, cx, bottom + 3, 0.5, 0.0, FALSE, o->foreground, decade ? 0.75 : 0.55, -1);
      last_right = cx + w / 2;
    }
}
