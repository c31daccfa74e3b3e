/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The TrendViz chart: one line per shown object group over the classified
 * GCs of a window (plus a dashed "Other"), the legend in a column on the
 * right (click targets for drill-down in the app).  Cairo and Pango only,
 * shared by the app's trend view and `tidemark-cli chart --kind trend`,
 * drawn in the look of tm-chart.h (axes from tm-axis.h, peak-keeping
 * downsampling from tm-downsample.h, TmChartLayout for x <-> time).
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "tm-chart.h"
#include "tm-trend.h"

G_BEGIN_DECLS

#define TM_TREND_CHART_MAX_LEGEND 32

typedef struct {
  double      width;            /* device units (pixels) */
  double      height;
  double      view_start_ns;    /* visible range; end <= start: the whole window */
  double      view_end_ns;
  int         selected;         /* index into the shown series, -1 none */
  double      hover_ns;         /* < 0: none; else marks the nearest classified GC */
  TmColor     foreground;
  TmColor     background;       /* alpha 0: leave transparent */
  gboolean    dark;
  const char *font;             /* Pango font description, NULL: "Sans 9" */
  gboolean    show_legend;
  double      y_axis_width;     /* > 0: fixed room for y labels, so stacked charts align */
  const char *title;            /* NULL: made from the request ("Bytes by type") */
  gboolean    log_scale;        /* logarithmic value axis: small series stay readable beside a big one */
} TmTrendChartOptions;

typedef struct {
  TmChartLayout plot;           /* plot area and its time range */
  double        y_max;          /* value at the top of the plot */
  double        y_min;          /* log scale: value at the bottom (0 and less sit there) */
  gboolean      log_scale;
  guint         n_legend;
  double        legend_x, legend_width;
  double        legend_y[TM_TREND_CHART_MAX_LEGEND];   /* top of each entry */
  double        legend_row;                             /* entry height */
} TmTrendChartLayout;

void     tm_trend_chart_options_init (TmTrendChartOptions *options,
                                      double               width,
                                      double               height);

/* Title made from the trend's request, translated, owned by the caller:
 * "Retained bytes by allocation site in java.lang.String". */
char    *tm_trend_chart_title        (const TmTrend *trend);

/* `shown` is what tm_trend_select() returned. */
void     tm_trend_chart_render       (cairo_t                   *cr,
                                      TmTrend                   *trend,
                                      GPtrArray                 *shown,
                                      const TmTrendChartOptions *options,
                                      TmTrendChartLayout        *layout);

gboolean tm_trend_chart_write_png    (TmTrend                   *trend,
                                      GPtrArray                 *shown,
                                      const TmTrendChartOptions *options,
                                      const char                *path,
                                      GError                   **error);

/* Where value v is drawn in the plot (either scale). */
double   tm_trend_chart_value_y      (const TmTrendChartLayout  *layout,
                                      double                     value);

/* Index into `shown` of the series under (x, y): its legend entry, or a
 * line within a few pixels; -1 for none. */
int      tm_trend_chart_hit          (const TmTrendChartLayout  *layout,
                                      TmTrend                   *trend,
                                      GPtrArray                 *shown,
                                      double                     x,
                                      double                     y);

/* Index of the classified GC nearest to time `ns` (0 when empty). */
guint    tm_trend_nearest_point      (const TmTrend *trend, double ns);

TmColor  tm_trend_series_color       (guint index, gboolean is_other, gboolean dark);
/* "Bytes", "Retained objects", ... translated */
const char *tm_trend_metric_label    (TmTrendMetric metric);

G_END_DECLS
