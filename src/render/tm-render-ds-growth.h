/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The data structure growth chart: one horizontal bar per structure with
 * its heap growth portion (HGP) in the chosen metric, the top N by that
 * metric, colored by metric pattern.  Cairo and Pango only, shared by the
 * app's growth view and `tidemark-cli chart --kind ds-growth`.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "tm-chart.h"
#include "tm-ds-growth.h"

G_BEGIN_DECLS

typedef struct {
  double      width;          /* device units (pixels) */
  double      height;
  TmDsMetric  metric;         /* whose HGP the bars show (retained by default) */
  guint       top;            /* bars, default 10 */
  int         selected;       /* entry index (TmDsGrowth.entries) to highlight, -1 none */
  TmColor     foreground;
  TmColor     background;     /* alpha 0: leave transparent */
  gboolean    dark;
  const char *font;           /* Pango font description, NULL: "Sans 9" */
  gboolean    show_legend;
} TmDsGrowthChartOptions;

#define TM_DS_GROWTH_CHART_MAX_BARS 64

/* Where the bars ended up, for hit testing in the widget. */
typedef struct {
  guint   n_bars;
  guint   entry[TM_DS_GROWTH_CHART_MAX_BARS];   /* bar -> entry index */
  double  bar_y[TM_DS_GROWTH_CHART_MAX_BARS];   /* top of each row */
  double  row_height;
  double  x, width;                             /* plot area */
} TmDsGrowthChartLayout;

void     tm_ds_growth_chart_options_init (TmDsGrowthChartOptions *options,
                                          double                  width,
                                          double                  height);

/* The entries shown, in bar order: the `top` largest HGP of the metric.
 * Fills up to `max` indices and returns how many. */
guint    tm_ds_growth_chart_pick         (const TmDsGrowth       *growth,
                                          TmDsMetric              metric,
                                          guint                   top,
                                          guint                  *entries,
                                          guint                   max);

void     tm_ds_growth_chart_render       (cairo_t                      *cr,
                                          const TmTrace                *trace,
                                          const TmDsGrowth             *growth,
                                          const TmDsGrowthChartOptions *options,
                                          TmDsGrowthChartLayout        *layout);

gboolean tm_ds_growth_chart_write_png    (const TmTrace                *trace,
                                          const TmDsGrowth             *growth,
                                          const TmDsGrowthChartOptions *options,
                                          const char                   *path,
                                          GError                      **error);

/* The height at which n_bars get their full row height: for widgets that
 * size the chart to its content. */
double   tm_ds_growth_chart_natural_height (guint n_bars, gboolean show_legend);

/* Entry index under (x, y), or -1. */
int      tm_ds_growth_chart_hit          (const TmDsGrowthChartLayout  *layout,
                                          double                        x,
                                          double                        y);

TmColor      tm_ds_pattern_color         (TmDsPattern pattern, gboolean dark);
const char  *tm_ds_pattern_label         (TmDsPattern pattern);   /* translated */
const char  *tm_ds_metric_label          (TmDsMetric metric);     /* translated */

G_END_DECLS
