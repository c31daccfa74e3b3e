/* SPDX-License-Identifier: GPL-3.0-or-later
 * The data structure growth bar chart (see tm-render-ds-growth.h). */
#include "tm-config.h"
#include "tm-render-ds-growth.h"
#include "tm-axis.h"
#include "tm-render-common.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#define LEGEND     20.0
#define MIN_ROW    14.0
#define MAX_ROW    30.0

/* Leaks in reds (single ownership: the structure is the culprit), shared
 * ownership in oranges and yellows, non-growth grey. */
TmColor
tm_ds_pattern_color (TmDsPattern pattern, gboolean dark)
{
  switch (pattern)
    {
    case TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH: return dark ? tm_render_rgb (0xf66151, 1) : tm_render_rgb (0xc01c28, 1);
    case TM_DS_PATTERN_SHARED_CONTAINER_GROWTH: return dark ? tm_render_rgb (0xffa348, 1) : tm_render_rgb (0xc64600, 1);
    case TM_DS_PATTERN_SINGLE_DATA_GROWTH:      return dark ? tm_render_rgb (0xdc8add, 1) : tm_render_rgb (0x9141ac, 1);
    case TM_DS_PATTERN_SHARED_DATA_GROWTH:      return dark ? tm_render_rgb (0xf8e45c, 1) : tm_render_rgb (0xe5a50a, 1);
    case TM_DS_PATTERN_NON_GROWTH:
    default:                                    return dark ? tm_render_rgb (0x9a9996, 1) : tm_render_rgb (0x77767b, 1);
    }
}

const char *
tm_ds_pattern_label (TmDsPattern pattern)
{
  switch (pattern)
    {
    case TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH: return _("Single-ownership container growth");
    case TM_DS_PATTERN_SHARED_CONTAINER_GROWTH: return _("Shared-ownership container growth");
    case TM_DS_PATTERN_SINGLE_DATA_GROWTH:      return _("Single-ownership data growth");
    case TM_DS_PATTERN_SHARED_DATA_GROWTH:      return _("Shared-ownership data growth");
    case TM_DS_PATTERN_NON_GROWTH:
    default:                                    return _("No growth");
    }
}

const char *
tm_ds_metric_label (TmDsMetric metric)
{
  switch (metric)
    {
    case TM_DS_METRIC_RETAINED: return _("Retained");
    case TM_DS_METRIC_DEEP:     return _("Deep");
    case TM_DS_METRIC_DS:       return _("Data structure");
    case TM_DS_METRIC_DEEP_DS:  return _("Deep data structure");
    case TM_DS_N_METRICS:
    default:                    return _("Metric");
    }
}

double
tm_ds_growth_chart_natural_height (guint n_bars, gboolean show_legend)
{
  /* the legend wraps to two rows at ordinary widths */
  return TM_RENDER_PAD + TM_RENDER_HEADER + MAX (n_bars, 1) * MAX_ROW + TM_RENDER_X_LABELS + TM_RENDER_PAD
         + (show_legend ? 2 * LEGEND + 6 : 0);
}

void
tm_ds_growth_chart_options_init (TmDsGrowthChartOptions *o,
                                 double                  width,
                                 double                  height)
{
  g_return_if_fail (o != NULL);

  memset (o, 0, sizeof *o);
  o->width = width;
  o->height = height;
  o->metric = TM_DS_METRIC_RETAINED;
  o->top = 10;
  o->selected = -1;
  o->foreground = tm_render_rgb (0x241f31, 1);
  o->background = tm_render_rgb (0xffffff, 0);
  o->show_legend = TRUE;
}

guint
tm_ds_growth_chart_pick (const TmDsGrowth *growth,
                         TmDsMetric        metric,
                         guint             top,
                         guint            *entries,
                         guint             max)
{
  guint n = 0;

  g_return_val_if_fail (growth != NULL && entries != NULL, 0);
  g_return_val_if_fail (metric < TM_DS_N_METRICS, 0);

  top = MIN (top, max);
  /* insertion into a short sorted list: top is small */
  for (guint i = 0; i < growth->entries->len; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (growth->entries, TmDsGrowthEntry, i);
      gint64 v = tm_ds_growth_entry_delta (e, metric);
      guint pos = n;

      while (pos > 0)
        {
          const TmDsGrowthEntry *p = &g_array_index (growth->entries, TmDsGrowthEntry, entries[pos - 1]);
          if (tm_ds_growth_entry_delta (p, metric) >= v)
            break;
          pos--;
        }
      if (pos >= top)
        continue;
      if (n < top)
        n++;
      memmove (entries + pos + 1, entries + pos, sizeof (guint) * (n - 1 - pos));
      entries[pos] = i;
    }
  return n;
}

/* "ConcurrentHashMap @651": the simple type name and the object id. */
static char *
bar_label (const TmTrace *trace, const TmDsGrowthEntry *e)
{
  const char *name = tm_trace_type (trace, e->type)->name;
  const char *dot = strrchr (name, '.');

  return g_strdup_printf ("%s @%" G_GUINT64_FORMAT, dot != NULL ? dot + 1 : name,
                          tm_trace_object_id (trace, e->object_index));
}

void
tm_ds_growth_chart_render (cairo_t                      *cr,
                           const TmTrace                *trace,
                           const TmDsGrowth             *growth,
                           const TmDsGrowthChartOptions *o,
                           TmDsGrowthChartLayout        *layout)
{
  guint bars[TM_DS_GROWTH_CHART_MAX_BARS];
  TmDsGrowthChartLayout local;
  TmAxisTicks ticks;
  g_autoptr(PangoFontDescription) font = NULL;
  TmRenderText pen;
  double lo = 0, hi = 0, label_w = 0, plot_x, plot_w, plot_y, plot_h, row, zero_x;
  g_autofree char *title = NULL;
  guint n;

  g_return_if_fail (cr != NULL && trace != NULL && growth != NULL && o != NULL);

  if (layout == NULL)
    layout = &local;
  memset (layout, 0, sizeof *layout);

  font = tm_render_font_new (o->font);
  /* long names keep their end: the class name and the object id */
  pen = (TmRenderText) { cr, font, PANGO_ELLIPSIZE_START };

  cairo_save (cr);
  if (o->background.alpha > 0)
    {
      tm_render_set_color (cr, o->background, 1);
      cairo_paint (cr);
    }

  /* TRANSLATORS: chart title: metric, then the GC window */
  title = g_strdup_printf (_("Heap growth portion (%s), GC %u to %u"), tm_ds_metric_label (o->metric),
                           growth->from_gc, growth->to_gc);
  tm_render_draw_text (&pen, title, TM_RENDER_PAD, TM_RENDER_PAD, 0, 0, TRUE, o->foreground, 1,
                       o->width - 2 * TM_RENDER_PAD);

  n = tm_ds_growth_chart_pick (growth, o->metric, MAX (o->top, 1), bars, TM_DS_GROWTH_CHART_MAX_BARS);
  if (n == 0)
    {
      tm_render_draw_text (&pen, _("No data structure is alive at both ends of the window"), o->width / 2,
                           o->height / 2, 0.5, 0.5, FALSE, o->foreground, 0.6, o->width - 2 * TM_RENDER_PAD);
      goto out;
    }

  for (guint i = 0; i < n; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (growth->entries, TmDsGrowthEntry, bars[i]);
      g_autofree char *label = bar_label (trace, e);

      lo = MIN (lo, e->hgp[o->metric]);
      hi = MAX (hi, e->hgp[o->metric]);
      label_w = MAX (label_w, tm_render_text_width (&pen, label, TRUE));   /* the selected one is bold */
    }
  label_w = MIN (label_w, o->width * 0.4);
  if (hi - lo <= 0)
    hi = lo + 0.01;

  plot_x = TM_RENDER_PAD + label_w + 8;
  plot_w = MAX (10.0, o->width - plot_x - TM_RENDER_PAD - 48);   /* room for the value labels */
  plot_y = TM_RENDER_PAD + TM_RENDER_HEADER;
  plot_h = MAX (10.0, o->height - plot_y - TM_RENDER_X_LABELS - TM_RENDER_PAD - (o->show_legend ? 2 * LEGEND : 0));
  row = CLAMP (plot_h / n, MIN_ROW, MAX_ROW);

  tm_axis_ticks (&ticks, TM_AXIS_UNIT_FRACTION, lo, hi, MAX (2, (guint) (plot_w / 70)), TRUE);
  lo = MIN (lo, ticks.min);
  hi = MAX (hi, ticks.max);
#define X_OF(v) (plot_x + ((v) - lo) / (hi - lo) * plot_w)
  zero_x = X_OF (0.0);

  /* grid and tick labels */
  cairo_set_line_width (cr, 1);
  for (guint t = 0; t < ticks.n_ticks; t++)
    {
      double x = round (X_OF (ticks.ticks[t])) + 0.5;
      g_autofree char *text = tm_axis_format_tick (&ticks, ticks.ticks[t]);

      tm_render_set_color (cr, o->foreground, 0.12);
      cairo_move_to (cr, x, plot_y);
      cairo_line_to (cr, x, plot_y + row * n);
      cairo_stroke (cr);
      tm_render_draw_text (&pen, text, x, plot_y + row * n + 3, 0.5, 0, FALSE, o->foreground, 0.7, 0);
    }

  for (guint i = 0; i < n; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (growth->entries, TmDsGrowthEntry, bars[i]);
      g_autofree char *label = bar_label (trace, e);
      g_autofree char *value = g_strdup_printf ("%.1f %%", 100.0 * e->hgp[o->metric]);
      double y = plot_y + i * row;
      double x0 = MIN (zero_x, X_OF (e->hgp[o->metric]));
      double x1 = MAX (zero_x, X_OF (e->hgp[o->metric]));
      gboolean selected = o->selected >= 0 && (guint) o->selected == bars[i];

      if (selected)
        {
          tm_render_set_color (cr, o->foreground, 0.08);
          cairo_rectangle (cr, 0, y, o->width, row);
          cairo_fill (cr);
        }
      tm_render_set_color (cr, tm_ds_pattern_color (e->pattern, o->dark), selected ? 1.0 : 0.85);
      cairo_rectangle (cr, x0, y + row * 0.18, MAX (1.0, x1 - x0), row * 0.64);
      cairo_fill (cr);
      tm_render_draw_text (&pen, label, plot_x - 8, y + row / 2, 1, 0.5, selected, o->foreground, 1, label_w);
      tm_render_draw_text (&pen, value, x1 + 4, y + row / 2, 0, 0.5, FALSE, o->foreground, 0.8, 0);

      layout->entry[i] = bars[i];
      layout->bar_y[i] = y;
    }
  layout->n_bars = n;
  layout->row_height = row;
  layout->x = plot_x;
  layout->width = plot_w;

  /* zero line */
  tm_render_set_color (cr, o->foreground, 0.6);
  cairo_move_to (cr, round (zero_x) + 0.5, plot_y);
  cairo_line_to (cr, round (zero_x) + 0.5, plot_y + row * n);
  cairo_stroke (cr);
#undef X_OF

  if (o->show_legend)
    {
      double x = TM_RENDER_PAD, y = plot_y + row * n + TM_RENDER_X_LABELS + 6;

      for (TmDsPattern p = 0; p <= TM_DS_PATTERN_NON_GROWTH; p++)
        {
          const char *text = tm_ds_pattern_label (p);
          double w = tm_render_text_width (&pen, text, FALSE) + 26;

          if (x + w > o->width - TM_RENDER_PAD && x > TM_RENDER_PAD)
            {
              x = TM_RENDER_PAD;
              y += LEGEND;
            }
          tm_render_set_color (cr, tm_ds_pattern_color (p, o->dark), 0.85);
          cairo_rectangle (cr, x, y + 4, 12, 10);
          cairo_fill (cr);
          tm_render_draw_text (&pen, text, x + 16, y + 9, 0, 0.5, FALSE, o->foreground, 0.85, 0);
          x += w;
        }
    }

out:
  cairo_restore (cr);
}

typedef struct {
  const TmTrace                *trace;
  const TmDsGrowth             *growth;
  const TmDsGrowthChartOptions *options;
} PngArgs;

static void
draw_png (cairo_t *cr, gpointer user_data)
{
  PngArgs *a = user_data;

  tm_ds_growth_chart_render (cr, a->trace, a->growth, a->options, NULL);
}

gboolean
tm_ds_growth_chart_write_png (const TmTrace                *trace,
                              const TmDsGrowth             *growth,
                              const TmDsGrowthChartOptions *options,
                              const char                   *path,
                              GError                      **error)
{
  TmDsGrowthChartOptions o;
  PngArgs args = { trace, growth, &o };

  g_return_val_if_fail (trace != NULL && growth != NULL && options != NULL && path != NULL, FALSE);

  o = *options;
  if (o.background.alpha <= 0)
    o.background = tm_render_rgb (0xffffff, 1);
  return tm_render_write_png (o.width, o.height, draw_png, &args, path, error);
}

int
tm_ds_growth_chart_hit (const TmDsGrowthChartLayout *layout,
                        double                       x,
                        double                       y)
{
  g_return_val_if_fail (layout != NULL, -1);

  for (guint i = 0; i < layout->n_bars; i++)
    if (y >= layout->bar_y[i] && y < layout->bar_y[i] + layout->row_height)
      return (int) layout->entry[i];
  return -1;
}
