/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-chart.h"
#include "tm-axis.h"
#include "tm-chart-lane.h"
#include "tm-chart-pauses.h"
#include "tm-downsample.h"
#include "tm-render-common.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#define PAUSE_STRIP  9.0

/* GNOME palette (Adwaita), one hue per meaning. */
TmColor
tm_chart_window_color (TmWindowKind kind)
{
  switch (kind)
    {
    case TM_WINDOW_LEAK:            return tm_render_rgb (0xe01b24, 1);
    case TM_WINDOW_LEAK_PEAK:       return tm_render_rgb (0xa51d2d, 1);
    case TM_WINDOW_LEAK_REGRESSION: return tm_render_rgb (0xc061cb, 1);
    case TM_WINDOW_GC_OVERHEAD:     return tm_render_rgb (0xe5a50a, 1);
    case TM_WINDOW_CHURN:           return tm_render_rgb (0x2ec27e, 1);
    case TM_WINDOW_N_KINDS:
    default:                        return tm_render_rgb (0x77767b, 1);
    }
}

const char *
tm_chart_window_label (TmWindowKind kind)
{
  switch (kind)
    {
    case TM_WINDOW_LEAK:            return _("Memory leak");
    case TM_WINDOW_LEAK_PEAK:       return _("Fastest leak growth");
    case TM_WINDOW_LEAK_REGRESSION: return _("Steepest recent growth");
    case TM_WINDOW_GC_OVERHEAD:     return _("High GC overhead");
    case TM_WINDOW_CHURN:           return _("High memory churn");
    case TM_WINDOW_N_KINDS:
    default:                        return _("Window");
    }
}

TmColor
tm_chart_space_color (TmSpaceKind kind, guint layer, gboolean dark)
{
  /* Light and dark variants; a second space of the same kind is shifted. */
  switch (kind)
    {
    case TM_SPACE_KIND_OLD:       return dark ? tm_render_rgb (0x3584e4, 1) : tm_render_rgb (0x1c71d8, 1);
    case TM_SPACE_KIND_HUMONGOUS: return dark ? tm_render_rgb (0xc061cb, 1) : tm_render_rgb (0x9141ac, 1);
    case TM_SPACE_KIND_SURVIVOR:  return dark ? tm_render_rgb (0x1a5fb4, 1) : tm_render_rgb (0x62a0ea, 1);
    case TM_SPACE_KIND_YOUNG:     return dark ? tm_render_rgb (0x62a0ea, 1) : tm_render_rgb (0x99c1f1, 1);
    case TM_SPACE_KIND_NON_HEAP:
    case TM_SPACE_KIND_OTHER:
    default:
      return (layer & 1) ? tm_render_rgb (0x986a44, 1) : tm_render_rgb (0xb5835a, 1);
    }
}

/* A series' colour on a light and on a dark background */
static TmColor
shade (gboolean dark, guint32 light_rgb, guint32 dark_rgb)
{
  return tm_render_rgb (dark ? dark_rgb : light_rgb, 1);
}

#define reachable_color(dark) shade ((dark), 0xc64600, 0xffa348)
#define objects_color(dark) shade ((dark), 0x813d9c, 0xc061cb)
#define overhead_color(dark) shade ((dark), 0xe5a50a, 0xf5c211)
#define major_pause_color(dark) shade ((dark), 0xc01c28, 0xf66151)
#define allocations_color(dark) shade ((dark), 0x1c71d8, 0x62a0ea)
#define temporary_color(dark) shade ((dark), 0xe66100, 0xffa348)
#define rss_color(dark) shade ((dark), 0x2190a4, 0x33c7de)

static const TmColor selection_color = { 0x35 / 255.0, 0x84 / 255.0, 0xe4 / 255.0, 1 };

const char *
tm_chart_kind_to_string (TmChartKind kind)
{
  switch (kind)
    {
    case TM_CHART_MEMORY:   return "memory";
    case TM_CHART_OBJECTS:  return "objects";
    case TM_CHART_OVERHEAD: return "overhead";
    case TM_CHART_ALLOCATIONS: return "allocations";
    case TM_CHART_RSS:      return "rss";
    case TM_CHART_PAUSES:   return "pauses";
    case TM_CHART_PAUSE_HISTOGRAM: return "pause-histogram";
    case TM_CHART_N_KINDS:
    default:                return NULL;
    }
}

gboolean
tm_chart_kind_from_string (const char *name, TmChartKind *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint k = 0; name != NULL && k < TM_CHART_N_KINDS; k++)
    if (g_strcmp0 (name, tm_chart_kind_to_string (k)) == 0)
      {
        *kind = k;
        return TRUE;
      }
  return FALSE;
}

const char *
tm_chart_kind_title (TmChartKind kind)
{
  switch (kind)
    {
    case TM_CHART_MEMORY:   return _("Memory");
    case TM_CHART_OBJECTS:  return _("Live Objects");
    case TM_CHART_OVERHEAD: return _("GC Overhead");
    case TM_CHART_ALLOCATIONS: return _("Allocations");
    case TM_CHART_RSS:      return _("Resident Memory");
    case TM_CHART_PAUSES:   return _("GC Pauses");
    case TM_CHART_PAUSE_HISTOGRAM: return _("Pause Durations");
    case TM_CHART_N_KINDS:
    default:                return "";
    }
}

void
tm_chart_options_init (TmChartOptions        *o,
                       TmChartKind            kind,
                       const TmTimelineModel *model,
                       double                 width,
                       double                 height)
{
  g_return_if_fail (o != NULL);

  memset (o, 0, sizeof *o);
  o->kind = kind;
  o->width = width;
  o->height = height;
  o->view_start_ns = 0;
  o->view_end_ns = model ? MAX ((double) model->duration_ns, 1.0) : 1.0;
  o->selected_band = -1;
  o->overhead_threshold = 0.10;
  o->foreground = tm_render_rgb (0x241f31, 1);
  o->background = tm_render_rgb (0xffffff, 1);
  o->show_legend = TRUE;
  o->band_labels = kind == TM_CHART_MEMORY;
}

TmChartBand *
tm_chart_bands_from_windows (GPtrArray *windows, guint *n_bands)
{
  TmChartBand *bands;

  g_return_val_if_fail (n_bands != NULL, NULL);

  *n_bands = windows ? windows->len : 0;
  bands = g_new0 (TmChartBand, MAX (*n_bands, 1));
  for (guint i = 0; i < *n_bands; i++)
    {
      const TmWindow *w = g_ptr_array_index (windows, i);
      bands[i].kind = w->kind;
      bands[i].start_ns = w->start_ns;
      bands[i].end_ns = w->end_ns;
      bands[i].suspicious = w->suspicious;
    }
  return bands;
}

/* ------------------------------------------------------------------ */

typedef struct {
  cairo_t              *cr;
  TmRenderText          t;      /* cr and the chart font */
  const TmTimelineModel *m;
  const TmChartOptions *o;
  TmChartLayout         l;
  double                y_max;
  /* scratch for downsampled series */
  double               *dx, *dy;
  gsize                 cap;
} Ctx;

static double
y_of (const Ctx *c, double v)
{
  return c->l.y + c->l.height - (v / c->y_max) * c->l.height;
}

/* Downsamples one series over the visible range at one bucket per pixel. */
static gsize
sample (Ctx *c, const double *x, const double *y, gsize n)
{
  guint buckets = MAX (1, (guint) ceil (c->l.width));
  gsize need = TM_DOWNSAMPLE_CAPACITY (buckets);

  if (need > c->cap)
    {
      c->dx = g_renew (double, c->dx, need);
      c->dy = g_renew (double, c->dy, need);
      c->cap = need;
    }
  return tm_downsample_min_max (x, y, n, c->l.t0, c->l.t1, buckets, c->dx, c->dy);
}

static double
max_of_sample (Ctx *c, gsize n)
{
  double mx = 0;

  for (gsize i = 0; i < n; i++)
    if (c->dx[i] >= c->l.t0 && c->dx[i] <= c->l.t1)
      mx = MAX (mx, c->dy[i]);
  return mx;
}

static void
path_series (Ctx *c, gsize n, gboolean area)
{
  cairo_t *cr = c->cr;
  double base = c->l.y + c->l.height;

  for (gsize i = 0; i < n; i++)
    {
      double x = tm_chart_layout_ns_to_x (&c->l, c->dx[i]);
      double y = y_of (c, c->dy[i]);

      if (i == 0)
        {
          if (area)
            {
              cairo_move_to (cr, x, base);
              cairo_line_to (cr, x, y);
            }
          else
            cairo_move_to (cr, x, y);
        }
      else
        cairo_line_to (cr, x, y);
    }
  if (area && n > 0)
    {
      cairo_line_to (cr, tm_chart_layout_ns_to_x (&c->l, c->dx[n - 1]), base);
      cairo_close_path (cr);
    }
}

typedef struct {
  const char *label;
  TmColor     color;
  gboolean    line;      /* a line swatch instead of a square */
} LegendItem;

#define LEGEND_ROW 16.0

/* Legend items flow right-aligned into rows: the first beside the title,
 * the others below it; none is dropped.  Fills row[] per item, returns
 * the rows used. */
static guint
legend_rows (Ctx *c, const LegendItem *items, guint n_items, double *widths, guint *row)
{
  const char *title = c->m->time_points && c->o->kind == TM_CHART_OBJECTS ? _("Live Allocations")
                                                                          : tm_chart_kind_title (c->o->kind);
  double title_w = tm_render_text_width (&c->t, title, TRUE);
  double used = 0;
  guint r = 0;

  if (!c->o->show_legend || n_items == 0)
    return 0;
  for (guint i = 0; i < n_items; i++)
    {
      double room = c->o->width - 2 * TM_RENDER_PAD - (r == 0 ? title_w + 24 : 0);

      widths[i] = 12 + 4 + tm_render_text_width (&c->t, items[i].label, FALSE) + 14;
      if (used > 0 && used + widths[i] > room)
        {
          r++;
          used = 0;
        }
      used += widths[i];
      row[i] = r;
    }
  return r + 1;
}

static void
draw_header (Ctx *c, const LegendItem *items, guint n_items, const double *widths, const guint *row)
{
  TmColor fg = c->o->foreground;
  const char *title = c->m->time_points && c->o->kind == TM_CHART_OBJECTS ? _("Live Allocations")
                                                                          : tm_chart_kind_title (c->o->kind);

  tm_render_draw_title (&c->t, title, fg, -1);
  if (!c->o->show_legend)
    return;
  for (guint i = 0; i < n_items; )
    {
      double total = 0, x;
      guint end = i;

      while (end < n_items && row[end] == row[i])
        total += widths[end++];
      x = c->o->width - TM_RENDER_PAD - total + 14;
      for (; i < end; i++)
        {
          double cy = TM_RENDER_PAD + TM_RENDER_HEADER / 2 - 2 + row[i] * LEGEND_ROW;

          cairo_save (c->cr);
          tm_render_set_color (c->cr, items[i].color, 1.0);
          if (items[i].line)
            {
              cairo_set_line_width (c->cr, 2);
              cairo_move_to (c->cr, x, cy);
              cairo_line_to (c->cr, x + 12, cy);
              cairo_stroke (c->cr);
            }
          else
            {
              cairo_rectangle (c->cr, x + 1, cy - 5, 10, 10);
              cairo_fill (c->cr);
            }
          cairo_restore (c->cr);
          tm_render_draw_text (&c->t, items[i].label, x + 16, cy, 0.0, 0.5, FALSE, fg, 0.75, -1);
          x += widths[i];
        }
    }
}

static void
draw_selection (Ctx *c)
{
  cairo_t *cr = c->cr;
  const TmChartOptions *o = c->o;
  double x0, x1;

  if (!o->has_selection)
    return;
  x0 = MAX (tm_chart_layout_ns_to_x (&c->l, MIN (o->sel_start_ns, o->sel_end_ns)), c->l.x);
  x1 = MIN (tm_chart_layout_ns_to_x (&c->l, MAX (o->sel_start_ns, o->sel_end_ns)), c->l.x + c->l.width);
  if (x1 < x0)
    return;

  if (o->selected_band < 0)
    {
      tm_render_set_color (cr, selection_color, 0.14);
      cairo_rectangle (cr, x0, c->l.y, MAX (x1 - x0, 1), c->l.height);
      cairo_fill (cr);
    }
  tm_render_set_color (cr, selection_color, 0.9);
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, x0, c->l.y);
  cairo_line_to (cr, x0, c->l.y + c->l.height);
  cairo_move_to (cr, x1, c->l.y);
  cairo_line_to (cr, x1, c->l.y + c->l.height);
  cairo_stroke (cr);
}

static void
draw_hover (Ctx *c, const double *values)
{
  cairo_t *cr = c->cr;
  guint gc = c->o->hover_gc;
  double x;

  if (gc == 0 || gc > c->m->n_gcs)
    return;
  x = tm_chart_layout_ns_to_x (&c->l, c->m->end_ns[gc - 1]);
  if (x < c->l.x || x > c->l.x + c->l.width)
    return;

  cairo_save (cr);
  tm_render_set_color (cr, c->o->foreground, 0.55);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, round (x) + 0.5, c->l.y);
  cairo_line_to (cr, round (x) + 0.5, c->l.y + c->l.height);
  cairo_stroke (cr);
  if (values != NULL && !isnan (values[gc - 1]))
    {
      double y = y_of (c, values[gc - 1]);
      tm_render_set_color (cr, c->o->foreground, 0.9);
      cairo_arc (cr, x, y, 3.5, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

static void
draw_memory (Ctx *c, double y_top_value)
{
  cairo_t *cr = c->cr;
  const TmTimelineModel *m = c->m;
  gsize n;

  /* Stacked layers, drawn from the top one (the total) down. */
  for (int s = (int) m->n_spaces - 1; s >= 0; s--)
    {
      TmColor color = tm_chart_space_color (m->space_kinds[s], s, c->o->dark);

      n = sample (c, m->saw_x, m->layer_top + (gsize) s * 2 * m->n_gcs, 2 * (gsize) m->n_gcs);
      path_series (c, n, TRUE);
      tm_render_set_color (cr, color, 0.92);
      cairo_fill (cr);
      if (s == (int) m->n_spaces - 1)
        {
          path_series (c, n, FALSE);
          tm_render_set_color (cr, color, 1.0);
          cairo_set_source_rgba (cr, color.red * 0.7, color.green * 0.7, color.blue * 0.7, 1);
          cairo_set_line_width (cr, 1);
          cairo_stroke (cr);
        }
    }

  /* The committed heap (what the JVM reserved from the OS), a dashed step
   * line: the heap's footprint, above what is used. */
  if (m->n_committed > 0 && !m->time_points)
    {
      double dash[] = { 4, 3 };
      gboolean pen = FALSE;

      n = sample (c, m->end_ns, m->committed, m->n_gcs);
      cairo_save (cr);
      for (gsize i = 0; i < n; i++)
        {
          double x = tm_chart_layout_ns_to_x (&c->l, c->dx[i]);
          if (isnan (c->dy[i]))
            {
              pen = FALSE;
              continue;
            }
          /* above the scale (see the y range): along the top edge */
          double y = y_of (c, MIN (c->dy[i], c->y_max));
          if (!pen)
            cairo_move_to (cr, x, y);
          else
            {
              double py;
              cairo_get_current_point (cr, NULL, &py);
              cairo_line_to (cr, x, py);
              cairo_line_to (cr, x, y);
            }
          pen = TRUE;
        }
      tm_render_set_color (cr, c->o->foreground, 0.7);
      cairo_set_line_width (cr, 1.2);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_stroke (cr);
      cairo_restore (cr);
    }

  /* Reachable memory where graphs exist: a line with dots when sparse. */
  if (m->n_graphs > 0)
    {
      TmColor color = reachable_color (c->o->dark);

      n = sample (c, m->end_ns, m->reachable, m->n_gcs);
      cairo_save (cr);
      cairo_rectangle (cr, c->l.x - 4, c->l.y - 4, c->l.width + 8, c->l.height + 8);
      cairo_clip (cr);
      path_series (c, n, FALSE);
      tm_render_set_color (cr, color, 1.0);
      cairo_set_line_width (cr, 2);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      cairo_stroke (cr);
      if (n > 0 && n < c->l.width / 8)
        for (gsize i = 0; i < n; i++)
          {
            cairo_arc (cr, tm_chart_layout_ns_to_x (&c->l, c->dx[i]), y_of (c, c->dy[i]), 2.5, 0, 2 * G_PI);
            cairo_fill (cr);
          }
      cairo_restore (cr);
    }
}

/* Allocations per second over each interval as steps, temporary ones
 * (a subset) over them. */
static void
draw_allocations (Ctx *c)
{
  const TmTimelineModel *m = c->m;
  const double *series[2] = { m->alloc_rate, m->temp_rate };
  TmColor colors[2] = { allocations_color (c->o->dark), temporary_color (c->o->dark) };

  for (guint k = 0; k < 2; k++)
    {
      gsize n = sample (c, m->rate_x, series[k], 2 * (gsize) m->n_gcs);

      path_series (c, n, TRUE);
      tm_render_set_color (c->cr, colors[k], k == 0 ? 0.35 : 0.55);
      cairo_fill (c->cr);
      path_series (c, n, FALSE);
      tm_render_set_color (c->cr, colors[k], 1.0);
      cairo_set_line_width (c->cr, 1.2);
      cairo_set_line_join (c->cr, CAIRO_LINE_JOIN_ROUND);
      cairo_stroke (c->cr);
    }
}

/* Resident memory (an area; gaps where not sampled) and the heap in use
 * as a line, on one scale: what the allocator's blocks are of the RSS. */
static void
draw_rss (Ctx *c)
{
  const TmTimelineModel *m = c->m;
  TmColor rss = rss_color (c->o->dark);
  TmColor heap = tm_chart_space_color (TM_SPACE_KIND_OTHER, 0, c->o->dark);
  gsize n = sample (c, m->end_ns, m->committed, m->n_gcs);
  gsize start = 0;

  for (gsize i = 0; i <= n; i++)
    {
      if (i < n && !isnan (c->dy[i]))
        continue;
      /* one run of samples: fill it */
      if (i > start)
        {
          double base = c->l.y + c->l.height;
          cairo_move_to (c->cr, tm_chart_layout_ns_to_x (&c->l, c->dx[start]), base);
          for (gsize k = start; k < i; k++)
            cairo_line_to (c->cr, tm_chart_layout_ns_to_x (&c->l, c->dx[k]), y_of (c, c->dy[k]));
          cairo_line_to (c->cr, tm_chart_layout_ns_to_x (&c->l, c->dx[i - 1]), base);
          cairo_close_path (c->cr);
          tm_render_set_color (c->cr, rss, 0.30);
          cairo_fill_preserve (c->cr);
          cairo_new_path (c->cr);
          cairo_move_to (c->cr, tm_chart_layout_ns_to_x (&c->l, c->dx[start]), y_of (c, c->dy[start]));
          for (gsize k = start + 1; k < i; k++)
            cairo_line_to (c->cr, tm_chart_layout_ns_to_x (&c->l, c->dx[k]), y_of (c, c->dy[k]));
          tm_render_set_color (c->cr, rss, 1.0);
          cairo_set_line_width (c->cr, 1.5);
          cairo_stroke (c->cr);
        }
      start = i + 1;
    }

  n = sample (c, m->end_ns, m->used_after, m->n_gcs);
  path_series (c, n, FALSE);
  tm_render_set_color (c->cr, heap, 1.0);
  cairo_set_line_width (c->cr, 2);
  cairo_set_line_join (c->cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke (c->cr);
}

static TmColor
oom_color (gboolean dark)
{
  return dark ? (TmColor) { 1.0, 0.38, 0.35, 1 } : (TmColor) { 0.80, 0.0, 0.0, 1 };
}

/* An OutOfMemoryError: a full-height line where it was thrown. */
static void
draw_oom_marks (Ctx *c)
{
  for (guint i = 0; i < c->m->n_oom; i++)
    {
      double x = round (tm_chart_layout_ns_to_x (&c->l, c->m->oom_ns[i])) + 0.5;

      if (x < c->l.x || x > c->l.x + c->l.width)
        continue;
      tm_render_set_color (c->cr, oom_color (c->o->dark), 1.0);
      cairo_set_line_width (c->cr, 2);
      cairo_move_to (c->cr, x, c->l.y);
      cairo_line_to (c->cr, x, c->l.y + c->l.height);
      cairo_stroke (c->cr);
    }
}

static void
draw_pause_marks (Ctx *c, double top)
{
  guint n = MAX (1, (guint) c->l.width);
  g_autofree double *pause = g_new (double, n);
  g_autofree gboolean *major = g_new (gboolean, n);
  double max_pause = 1;

  tm_timeline_model_pause_marks (c->m, c->l.t0, c->l.t1, n, pause, major);
  for (guint i = 0; i < n; i++)
    max_pause = MAX (max_pause, pause[i]);

  for (guint i = 0; i < n; i++)
    {
      double h;

      if (pause[i] <= 0)
        continue;
      /* Square-root scale: short pauses stay visible next to long ones. */
      h = 2 + (PAUSE_STRIP - 3) * sqrt (pause[i] / max_pause);
      if (major[i])
        tm_render_set_color (c->cr, major_pause_color (c->o->dark), 0.95);
      else
        tm_render_set_color (c->cr, c->o->foreground, 0.40);
      cairo_rectangle (c->cr, c->l.x + i, top + PAUSE_STRIP - h, 1, h);
      cairo_fill (c->cr);
    }
}

void
tm_chart_render (cairo_t               *cr,
                 const TmTimelineModel *model,
                 const TmChartOptions  *o,
                 TmChartLayout         *layout_out)
{
  Ctx c = { 0 };
  g_autoptr(PangoFontDescription) font = NULL;
  TmAxisTicks ticks;
  TmAxisUnit unit;
  LegendItem legend[TM_TIMELINE_MAX_SPACES + 8];
  double legend_w[TM_TIMELINE_MAX_SPACES + 8];
  guint legend_row[TM_TIMELINE_MAX_SPACES + 8];
  TmPauseScale pause_scale = { 0 };
  TmPauseHistogram *hist = NULL;
  gboolean timeless = o->kind == TM_CHART_PAUSE_HISTOGRAM;
  gboolean phase_lane = o->kind == TM_CHART_MEMORY && tm_chart_has_phase_lane (model);
  guint n_legend = 0, n_legend_rows;
  g_autofree TmChartLaneSlot *slots = NULL;
  double y_label_w = 0, bottom;
  const double *hover_values = NULL;
  gsize n;

  g_return_if_fail (cr != NULL && model != NULL && o != NULL);

  c.cr = cr;
  c.m = model;
  c.o = o;
  font = tm_render_font_new (o->font);
  c.t = (TmRenderText) { cr, font, PANGO_ELLIPSIZE_NONE };

  cairo_save (cr);
  tm_render_background (cr, o->background, o->width, o->height);

  /* Horizontal frame first: the y labels' width depends on the values,
   * which depend on the visible range, which needs the plot width; a first
   * guess of 64 px is refined once. */
  c.l.t0 = o->view_start_ns;
  c.l.t1 = o->view_end_ns > o->view_start_ns ? o->view_end_ns : o->view_start_ns + 1;
  /* Legend */
  switch (o->kind)
    {
    case TM_CHART_MEMORY:
      for (int s = (int) model->n_spaces - 1; s >= 0; s--)
        legend[n_legend++] = (LegendItem) { model->space_names[s],
                                            tm_chart_space_color (model->space_kinds[s], s, o->dark), FALSE };
      if (model->n_graphs > 0)
        legend[n_legend++] = (LegendItem) { _("Reachable"), reachable_color (o->dark), TRUE };
      /* heaptrack's RSS has a chart of its own (TM_CHART_RSS) */
      if (model->n_committed > 0 && !model->time_points)
        legend[n_legend++] = (LegendItem) { _("Committed"), o->foreground, TRUE };
      /* time points (heaptrack) have no collections to mark */
      if (!model->time_points)
        legend[n_legend++] = (LegendItem) { _("Major GC"), major_pause_color (o->dark), FALSE };
      if (model->n_oom > 0)
        legend[n_legend++] = (LegendItem) { _("OutOfMemoryError"), oom_color (o->dark), TRUE };
      if (model->n_phases_of_kind[TM_GC_PHASE_CONCURRENT] + model->n_phases_of_kind[TM_GC_PHASE_CYCLE] > 0)
        legend[n_legend++] = (LegendItem) { _("Concurrent phase"), tm_chart_concurrent_color (o->dark), FALSE };
      if (model->n_phases_of_kind[TM_GC_PHASE_STALL] > 0)
        legend[n_legend++] = (LegendItem) { _("Stall"), tm_chart_stall_color (o->dark), FALSE };
      if (model->n_phases_of_kind[TM_GC_PHASE_DEGENERATED] > 0)
        legend[n_legend++] = (LegendItem) { _("Degenerated GC"), tm_chart_pause_color (TM_PAUSE_DEGENERATED, o->dark), TRUE };
      if (model->n_phases_of_kind[TM_GC_PHASE_FULL] > 0)
        legend[n_legend++] = (LegendItem) { _("Full GC"), tm_chart_pause_color (TM_PAUSE_FULL, o->dark), TRUE };
      break;
    case TM_CHART_PAUSES:
    case TM_CHART_PAUSE_HISTOGRAM:
      for (guint k = 0; k < TM_PAUSE_N_CLASSES; k++)
        if (model->n_pauses_of_class[k] > 0)
          legend[n_legend++] = (LegendItem) { tm_pause_class_label (k), tm_chart_pause_color (k, o->dark), FALSE };
      break;
    case TM_CHART_OBJECTS:
      legend[n_legend++] = (LegendItem) { model->time_points ? _("Blocks allocated and not freed")
                                                             : _("Objects alive after GC"),
                                          objects_color (o->dark), FALSE };
      break;
    case TM_CHART_ALLOCATIONS:
      legend[n_legend++] = (LegendItem) { _("Allocations per second"), allocations_color (o->dark), FALSE };
      if (model->total_temporary > 0 || model->time_points)
        legend[n_legend++] = (LegendItem) { _("Temporary allocations per second"), temporary_color (o->dark), FALSE };
      break;
    case TM_CHART_RSS:
      legend[n_legend++] = (LegendItem) { model->time_points ? _("RSS") : _("Committed"), rss_color (o->dark), FALSE };
      legend[n_legend++] = (LegendItem) { model->time_points ? _("Heap in use") : _("Heap used after GC"),
                                          tm_chart_space_color (TM_SPACE_KIND_OTHER, 0, o->dark), TRUE };
      break;
    case TM_CHART_OVERHEAD:
    case TM_CHART_N_KINDS:
    default:
      legend[n_legend++] = (LegendItem) { _("Pause time since previous GC"), overhead_color (o->dark), FALSE };
      if (o->overhead_threshold > 0)
        legend[n_legend++] = (LegendItem) { _("Threshold"), tm_chart_window_color (TM_WINDOW_LEAK), TRUE };
      break;
    }
  n_legend_rows = legend_rows (&c, legend, n_legend, legend_w, legend_row);

  /* The windows' lane above the plot: its rows depend on where the
   * windows fall, so on the frame's first guess (refined below, within
   * the rows reserved here). */
  slots = g_new0 (TmChartLaneSlot, MAX (o->n_bands, 1));
  c.l.x = TM_RENDER_PAD + (o->y_axis_width > 0 ? o->y_axis_width : 64);
  c.l.width = MAX (o->width - c.l.x - TM_RENDER_PAD - 4, 10);
  c.l.lane_rows = timeless ? 0 : tm_chart_lane_place (o->bands, o->n_bands, &c.l, o->band_labels,
                                                       TM_CHART_LANE_MAX_ROWS, slots);
  c.l.lane_y = TM_RENDER_PAD + TM_RENDER_HEADER + MAX (n_legend_rows, 1) * LEGEND_ROW - LEGEND_ROW + 2;
  c.l.y = c.l.lane_y + c.l.lane_rows * tm_chart_lane_row_height (o->band_labels) + 2;
  bottom = o->height - TM_RENDER_PAD - TM_RENDER_X_LABELS;
  c.l.height = bottom - c.l.y - (o->kind == TM_CHART_MEMORY ? PAUSE_STRIP + 3 : 0)
               - (phase_lane ? TM_CHART_PHASE_LANE + 3 : 0);
  c.l.height = MAX (c.l.height, 10);

  for (int pass = 0; pass < 2; pass++)
    {
      double vmax = 0;

      if (o->y_axis_width > 0)
        c.l.x = TM_RENDER_PAD + o->y_axis_width;
      else
        c.l.x = TM_RENDER_PAD + (pass == 0 ? 64 : y_label_w + 8);
      c.l.width = MAX (o->width - c.l.x - TM_RENDER_PAD - 4, 10);

      switch (o->kind)
        {
        case TM_CHART_MEMORY:
          n = sample (&c, model->saw_x, model->layer_top + (gsize) (model->n_spaces - 1) * 2 * model->n_gcs,
                      2 * (gsize) model->n_gcs);
          vmax = max_of_sample (&c, n);
          if (model->n_graphs > 0)
            {
              n = sample (&c, model->end_ns, model->reachable, model->n_gcs);
              vmax = MAX (vmax, max_of_sample (&c, n));
            }
          /* The committed heap may be far above what is used (a small
           * live set in a large heap): it raises the scale by at most 2x,
           * so the data stays readable; above that it runs along the top. */
          if (model->n_committed > 0 && !model->time_points)
            {
              n = sample (&c, model->end_ns, model->committed, model->n_gcs);
              vmax = MAX (vmax, MIN (max_of_sample (&c, n), 2 * vmax));
            }
          unit = TM_AXIS_UNIT_BYTES;
          break;
        case TM_CHART_OBJECTS:
          n = sample (&c, model->end_ns, model->live_objects, model->n_gcs);
          vmax = max_of_sample (&c, n);
          unit = TM_AXIS_UNIT_COUNT;
          break;
        case TM_CHART_ALLOCATIONS:
          n = sample (&c, model->rate_x, model->alloc_rate, 2 * (gsize) model->n_gcs);
          vmax = max_of_sample (&c, n);
          unit = TM_AXIS_UNIT_COUNT;
          break;
        case TM_CHART_RSS:
          n = sample (&c, model->end_ns, model->committed, model->n_gcs);
          vmax = max_of_sample (&c, n);
          n = sample (&c, model->end_ns, model->used_after, model->n_gcs);
          vmax = MAX (vmax, max_of_sample (&c, n));
          unit = TM_AXIS_UNIT_BYTES;
          break;
        case TM_CHART_PAUSES:
          y_label_w = tm_chart_pause_scale (&c.t, model, c.l.t0, c.l.t1, c.l.height, &pause_scale);
          c.y_max = pause_scale.hi;
          continue;
        case TM_CHART_PAUSE_HISTOGRAM:
          if (hist == NULL)
            {
              hist = g_new (TmPauseHistogram, 1);
              tm_chart_histogram_bins (model, o, hist);
            }
          vmax = hist->max_count;
          unit = TM_AXIS_UNIT_COUNT;
          break;
        case TM_CHART_OVERHEAD:
        case TM_CHART_N_KINDS:
        default:
          n = sample (&c, model->end_ns, model->overhead, model->n_gcs);
          vmax = MAX (max_of_sample (&c, n), o->overhead_threshold * 1.25);
          unit = TM_AXIS_UNIT_FRACTION;
          break;
        }
      y_label_w = tm_render_value_ticks (&c.t, &ticks, unit, vmax, c.l.height);
      if (phase_lane)   /* the lane's name fits left of it */
        y_label_w = MAX (y_label_w, tm_render_text_width (&c.t, tm_chart_phase_lane_label (), FALSE));
      c.y_max = ticks.max;
    }

  if (c.l.lane_rows > 0 && !timeless)
    tm_chart_lane_place (o->bands, o->n_bands, &c.l, o->band_labels, c.l.lane_rows, slots);
  draw_header (&c, legend, n_legend, legend_w, legend_row);

  if (o->kind == TM_CHART_PAUSES)
    tm_chart_pause_axis (&c.t, &c.l, &pause_scale, o->foreground);
  else
    tm_render_value_axis (&c.t, &c.l, c.y_max, &ticks, o->foreground);

  cairo_save (cr);
  cairo_rectangle (cr, c.l.x, c.l.y - 1, c.l.width, c.l.height + 1);
  cairo_clip (cr);

  switch (o->kind)
    {
    case TM_CHART_MEMORY:
      draw_memory (&c, c.y_max);
      tm_chart_fallback_marks (cr, model, o, &c.l);
      hover_values = model->used_after;
      break;
    case TM_CHART_ALLOCATIONS:
      draw_allocations (&c);
      break;
    case TM_CHART_RSS:
      draw_rss (&c);
      hover_values = model->committed;
      break;
    case TM_CHART_PAUSES:
      tm_chart_pauses_draw (cr, model, o, &c.l, &pause_scale);
      break;
    case TM_CHART_PAUSE_HISTOGRAM:
      break;
    case TM_CHART_OBJECTS:
      {
        TmColor color = objects_color (o->dark);
        n = sample (&c, model->end_ns, model->live_objects, model->n_gcs);
        path_series (&c, n, TRUE);
        tm_render_set_color (cr, color, 0.22);
        cairo_fill (cr);
        path_series (&c, n, FALSE);
        tm_render_set_color (cr, color, 1.0);
        cairo_set_line_width (cr, 1.5);
        cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
        cairo_stroke (cr);
        hover_values = model->live_objects;
      }
      break;
    case TM_CHART_OVERHEAD:
    case TM_CHART_N_KINDS:
    default:
      {
        TmColor color = overhead_color (o->dark);
        n = sample (&c, model->end_ns, model->overhead, model->n_gcs);
        path_series (&c, n, TRUE);
        tm_render_set_color (cr, color, 0.45);
        cairo_fill (cr);
        path_series (&c, n, FALSE);
        tm_render_set_color (cr, color, 1.0);
        cairo_set_line_width (cr, 1.2);
        cairo_stroke (cr);
        if (o->overhead_threshold > 0 && o->overhead_threshold <= c.y_max)
          {
            double y = round (y_of (&c, o->overhead_threshold)) + 0.5;
            double dash[] = { 5, 4 };
            tm_render_set_color (cr, tm_chart_window_color (TM_WINDOW_LEAK), 0.85);
            cairo_set_line_width (cr, 1);
            cairo_set_dash (cr, dash, 2, 0);
            cairo_move_to (cr, c.l.x, y);
            cairo_line_to (cr, c.l.x + c.l.width, y);
            cairo_stroke (cr);
            cairo_set_dash (cr, NULL, 0, 0);
          }
        hover_values = model->overhead;
      }
      break;
    }

  if (!timeless)
    {
      tm_chart_lane_outline (cr, o, &c.l, slots);
      draw_oom_marks (&c);
      draw_selection (&c);
      draw_hover (&c, hover_values);
    }
  cairo_restore (cr);

  if (timeless)
    tm_chart_histogram_draw (&c.t, o, &c.l, hist, c.y_max, bottom);
  else
    tm_chart_lane_draw (&c.t, o, &c.l, slots);
  if (phase_lane)
    tm_chart_phase_lane_draw (&c.t, model, o, &c.l, c.l.y + c.l.height + 3);
  if (o->kind == TM_CHART_MEMORY)
    draw_pause_marks (&c, c.l.y + c.l.height + 3 + (phase_lane ? TM_CHART_PHASE_LANE + 3 : 0));

  if (!timeless)
    tm_render_time_axis (&c.t, &c.l, bottom, o->width - 2, o->foreground);

  cairo_restore (cr);

  if (layout_out != NULL)
    *layout_out = c.l;

  g_free (c.dx);
  g_free (c.dy);
  g_free (hist);
}

static void
draw_png (cairo_t *cr, gpointer user_data)
{
  gpointer *args = user_data;

  tm_chart_render (cr, args[0], args[1], NULL);
}

gboolean
tm_chart_write_png (const TmTimelineModel *model,
                    const TmChartOptions  *options,
                    const char            *path,
                    GError               **error)
{
  gconstpointer args[] = { model, options };

  g_return_val_if_fail (model != NULL && options != NULL && path != NULL, FALSE);

  return tm_render_write_png (options->width, options->height, draw_png, args, path, error);
}

