/* SPDX-License-Identifier: GPL-3.0-or-later
 * The data structure growth bar chart (see tm-render-ds-growth.h). */
#include "tm-config.h"
#include "tm-render-ds-growth.h"
#include "tm-axis.h"
#include "tm-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#define PAD        10.0
#define HEADER     22.0
#define X_LABELS   18.0
#define LEGEND     20.0
#define MIN_ROW    14.0
#define MAX_ROW    30.0

static TmColor
rgb (guint32 hex, double alpha)
{
  return (TmColor) { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0, alpha };
}

static void
set_color (cairo_t *cr, TmColor c, double alpha_scale)
{
  cairo_set_source_rgba (cr, c.red, c.green, c.blue, c.alpha * alpha_scale);
}

/* Leaks in reds (single ownership: the structure is the culprit), shared
 * ownership in oranges and yellows, non-growth grey. */
TmColor
tm_ds_pattern_color (TmDsPattern pattern, gboolean dark)
{
  switch (pattern)
    {
    case TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH: return dark ? rgb (0xf66151, 1) : rgb (0xc01c28, 1);
    case TM_DS_PATTERN_SHARED_CONTAINER_GROWTH: return dark ? rgb (0xffa348, 1) : rgb (0xc64600, 1);
    case TM_DS_PATTERN_SINGLE_DATA_GROWTH:      return dark ? rgb (0xdc8add, 1) : rgb (0x9141ac, 1);
    case TM_DS_PATTERN_SHARED_DATA_GROWTH:      return dark ? rgb (0xf8e45c, 1) : rgb (0xe5a50a, 1);
    case TM_DS_PATTERN_NON_GROWTH:
    default:                                    return dark ? rgb (0x9a9996, 1) : rgb (0x77767b, 1);
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
  o->foreground = rgb (0x241f31, 1);
  o->background = rgb (0xffffff, 0);
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

typedef struct {
  cairo_t              *cr;
  PangoFontDescription *font;
  const TmDsGrowthChartOptions *o;
} Ctx;

static PangoLayout *
make_layout (Ctx *c, const char *text, gboolean bold)
{
  PangoLayout *layout = pango_cairo_create_layout (c->cr);
  PangoFontDescription *fd = pango_font_description_copy (c->font);

  if (bold)
    pango_font_description_set_weight (fd, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, fd);
  pango_layout_set_text (layout, text, -1);
  pango_font_description_free (fd);
  return layout;
}

static double
draw_text (Ctx *c, const char *text, double x, double y, double xalign, double yalign,
           gboolean bold, TmColor color, double alpha, double max_width)
{
  g_autoptr(PangoLayout) layout = make_layout (c, text, bold);
  int pw, ph;

  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_START);
    }
  pango_layout_get_pixel_size (layout, &pw, &ph);
  set_color (c->cr, color, alpha);
  cairo_move_to (c->cr, round (x - pw * xalign), round (y - ph * yalign));
  pango_cairo_show_layout (c->cr, layout);
  return pw;
}

static double
text_width (Ctx *c, const char *text, gboolean bold)
{
  g_autoptr(PangoLayout) layout = make_layout (c, text, bold);
  int pw, ph;

  pango_layout_get_pixel_size (layout, &pw, &ph);
  return pw;
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
  Ctx c = { cr, NULL, o };
  double lo = 0, hi = 0, label_w = 0, plot_x, plot_w, plot_y, plot_h, row, zero_x;
  g_autofree char *title = NULL;
  guint n;

  g_return_if_fail (cr != NULL && trace != NULL && growth != NULL && o != NULL);

  if (layout == NULL)
    layout = &local;
  memset (layout, 0, sizeof *layout);

  c.font = pango_font_description_from_string (o->font ? o->font : "Sans 9");
  if (pango_font_description_get_size (c.font) <= 0)
    pango_font_description_set_size (c.font, 9 * PANGO_SCALE);

  cairo_save (cr);
  if (o->background.alpha > 0)
    {
      set_color (cr, o->background, 1);
      cairo_paint (cr);
    }

  /* TRANSLATORS: chart title: metric, then the GC window */
  title = g_strdup_printf (_("Heap growth portion (%s), GC %u to %u"), tm_ds_metric_label (o->metric),
                           growth->from_gc, growth->to_gc);
  draw_text (&c, title, PAD, PAD, 0, 0, TRUE, o->foreground, 1, o->width - 2 * PAD);

  n = tm_ds_growth_chart_pick (growth, o->metric, MAX (o->top, 1), bars, TM_DS_GROWTH_CHART_MAX_BARS);
  if (n == 0)
    {
      draw_text (&c, _("No data structure is alive at both ends of the window"), o->width / 2, o->height / 2,
                 0.5, 0.5, FALSE, o->foreground, 0.6, o->width - 2 * PAD);
      goto out;
    }

  for (guint i = 0; i < n; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (growth->entries, TmDsGrowthEntry, bars[i]);
      g_autofree char *label = bar_label (trace, e);

      lo = MIN (lo, e->hgp[o->metric]);
      hi = MAX (hi, e->hgp[o->metric]);
      label_w = MAX (label_w, text_width (&c, label, TRUE));   /* the selected one is bold */
    }
  label_w = MIN (label_w, o->width * 0.4);
  if (hi - lo <= 0)
    hi = lo + 0.01;

  plot_x = PAD + label_w + 8;
  plot_w = MAX (10.0, o->width - plot_x - PAD - 48);   /* room for the value labels */
  plot_y = PAD + HEADER;
  plot_h = MAX (10.0, o->height - plot_y - X_LABELS - PAD - (o->show_legend ? 2 * LEGEND : 0));
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

      set_color (cr, o->foreground, 0.12);
      cairo_move_to (cr, x, plot_y);
      cairo_line_to (cr, x, plot_y + row * n);
      cairo_stroke (cr);
      draw_text (&c, text, x, plot_y + row * n + 3, 0.5, 0, FALSE, o->foreground, 0.7, 0);
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
          set_color (cr, o->foreground, 0.08);
          cairo_rectangle (cr, 0, y, o->width, row);
          cairo_fill (cr);
        }
      set_color (cr, tm_ds_pattern_color (e->pattern, o->dark), selected ? 1.0 : 0.85);
      cairo_rectangle (cr, x0, y + row * 0.18, MAX (1.0, x1 - x0), row * 0.64);
      cairo_fill (cr);
      draw_text (&c, label, plot_x - 8, y + row / 2, 1, 0.5, selected, o->foreground, 1, label_w);
      draw_text (&c, value, x1 + 4, y + row / 2, 0, 0.5, FALSE, o->foreground, 0.8, 0);

      layout->entry[i] = bars[i];
      layout->bar_y[i] = y;
    }
  layout->n_bars = n;
  layout->row_height = row;
  layout->x = plot_x;
  layout->width = plot_w;

  /* zero line */
  set_color (cr, o->foreground, 0.6);
  cairo_move_to (cr, round (zero_x) + 0.5, plot_y);
  cairo_line_to (cr, round (zero_x) + 0.5, plot_y + row * n);
  cairo_stroke (cr);
#undef X_OF

  if (o->show_legend)
    {
      double x = PAD, y = plot_y + row * n + X_LABELS + 6;

      for (TmDsPattern p = 0; p <= TM_DS_PATTERN_NON_GROWTH; p++)
        {
          const char *text = tm_ds_pattern_label (p);
          double w = text_width (&c, text, FALSE) + 26;

          if (x + w > o->width - PAD && x > PAD)
            {
              x = PAD;
              y += LEGEND;
            }
          set_color (cr, tm_ds_pattern_color (p, o->dark), 0.85);
          cairo_rectangle (cr, x, y + 4, 12, 10);
          cairo_fill (cr);
          draw_text (&c, text, x + 16, y + 9, 0, 0.5, FALSE, o->foreground, 0.85, 0);
          x += w;
        }
    }

out:
  cairo_restore (cr);
  pango_font_description_free (c.font);
}

gboolean
tm_ds_growth_chart_write_png (const TmTrace                *trace,
                              const TmDsGrowth             *growth,
                              const TmDsGrowthChartOptions *options,
                              const char                   *path,
                              GError                      **error)
{
  TmDsGrowthChartOptions o;
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;
  int w, h;

  g_return_val_if_fail (trace != NULL && growth != NULL && options != NULL && path != NULL, FALSE);

  w = (int) ceil (options->width);
  h = (int) ceil (options->height);
  if (w < 16 || h < 16 || w > 16384 || h > 16384)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("Chart size %d × %d is out of range (16 to 16384 pixels)"), w, h);
      return FALSE;
    }
  o = *options;
  if (o.background.alpha <= 0)
    o.background = rgb (0xffffff, 1);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (surface);
  tm_ds_growth_chart_render (cr, trace, growth, &o, NULL);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  status = cairo_surface_write_to_png (surface, path);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   _("Could not write “%s”: %s"), path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
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
