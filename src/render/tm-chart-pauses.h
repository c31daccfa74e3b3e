/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GC-log parts of the overview charts (used by tm-chart.c): the lane
 * of concurrent phases and stalls below the memory chart, the marks of
 * degenerated and full GCs of concurrent collectors, the pause-duration
 * chart over time (log scale when pauses differ by orders of magnitude)
 * and the pause histogram.
 */
#pragma once

#include "tm-chart.h"
#include "tm-render-common.h"

G_BEGIN_DECLS

#define TM_CHART_PHASE_LANE 14.0

TmColor  tm_chart_concurrent_color (gboolean dark);
TmColor  tm_chart_stall_color      (gboolean dark);
TmColor  tm_chart_pause_color      (TmPauseClass c, gboolean dark);

/* TRUE if the memory chart has a lane of phases (a GC log with
 * concurrent work or stalls). */
gboolean tm_chart_has_phase_lane   (const TmTimelineModel *model);

/* Its name, left of it. */
const char *tm_chart_phase_lane_label (void);
/* The lane, top at y, with its name in the gutter left of the plot. */
void     tm_chart_phase_lane_draw  (const TmRenderText *t, const TmTimelineModel *model,
                                    const TmChartOptions *o, const TmChartLayout *plot, double y);
/* Dashed lines through the plot where a concurrent collector fell back
 * to a stop-the-world (degenerated or full) collection. */
void     tm_chart_fallback_marks   (cairo_t *cr, const TmTimelineModel *model, const TmChartOptions *o,
                                    const TmChartLayout *plot);

/* The pause chart's value scale: logarithmic when the longest pause in
 * view is more than 30 times the shortest. */
typedef struct {
  gboolean log;
  double   lo, hi;        /* ns at the bottom and top of the plot */
  guint    n_ticks;
  double   ticks[16];
} TmPauseScale;

/* Scale for the pauses in [t0, t1]; returns the widest tick label. */
double   tm_chart_pause_scale      (const TmRenderText *t, const TmTimelineModel *model, double t0, double t1,
                                    double height, TmPauseScale *scale);
void     tm_chart_pause_axis       (const TmRenderText *t, const TmChartLayout *plot, const TmPauseScale *scale,
                                    TmColor fg);
void     tm_chart_pauses_draw      (cairo_t *cr, const TmTimelineModel *model, const TmChartOptions *o,
                                    const TmChartLayout *plot, const TmPauseScale *scale);

/* The histogram of pause durations in the selection (else the visible
 * range): bins 1-2, 2-5 and 5-10 of each decade, counts stacked by class. */
#define TM_PAUSE_HIST_MAX_BINS 64
typedef struct {
  guint   n_bins;
  double  lo_exp;                /* the first bin starts at 10^lo_exp ns (tm_chart_histogram_edge) */
  guint   count[TM_PAUSE_HIST_MAX_BINS][TM_PAUSE_N_CLASSES];
  guint   max_count;             /* the tallest stack */
  guint   n_pauses;
} TmPauseHistogram;

/* Where bin b starts (b = n_bins: where the last ends), ns. */
double   tm_chart_histogram_edge   (const TmPauseHistogram *h, guint b);
void     tm_chart_histogram_bins   (const TmTimelineModel *model, const TmChartOptions *o, TmPauseHistogram *h);
/* Bars, and the duration labels below the plot at `bottom`. */
void     tm_chart_histogram_draw   (const TmRenderText *t, const TmChartOptions *o, const TmChartLayout *plot,
                                    const TmPauseHistogram *h, double y_max, double bottom);

G_END_DECLS
