/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Suspicious windows on a chart: a lane of markers above the plot, one
 * row per overlap, each marker a bar over the window's time range with
 * its name beside it, and a light outline of the window on the plot, so
 * the data keeps its colours.  Windows narrower than a few pixels keep a
 * minimum width.  Placement is pure geometry, so the widget's hit test
 * finds the marker that was drawn.
 */
#pragma once

#include "tm-chart.h"
#include "tm-render-common.h"

G_BEGIN_DECLS

#define TM_CHART_LANE_MAX_ROWS  3
#define TM_CHART_BAND_MIN_WIDTH 6.0

typedef struct {
  double x0, x1;   /* the marker, at least TM_CHART_BAND_MIN_WIDTH wide */
  int    row;      /* -1: outside the visible range */
} TmChartLaneSlot;

/* Rows of lane a chart reserves: labelled rows are taller. */
double tm_chart_lane_row_height (gboolean labelled);

/* Puts each band in the first row (< max_rows) where it overlaps no
 * marker nor the room for its label; the last row takes the rest.
 * Returns the rows used (0: nothing visible). */
guint  tm_chart_lane_place      (const TmChartBand   *bands,
                                 guint                n_bands,
                                 const TmChartLayout *plot,
                                 gboolean             labelled,
                                 guint                max_rows,
                                 TmChartLaneSlot     *slots);

/* The markers, from lane_y down (plot->lane_rows rows). */
void   tm_chart_lane_draw       (const TmRenderText  *t,
                                 const TmChartOptions *o,
                                 const TmChartLayout *plot,
                                 const TmChartLaneSlot *slots);

/* The outlines on the plot (clip to it first); the selected window's is
 * stronger and lightly tinted. */
void   tm_chart_lane_outline    (cairo_t             *cr,
                                 const TmChartOptions *o,
                                 const TmChartLayout *plot,
                                 const TmChartLaneSlot *slots);

/* The band whose marker is under (x, y), or -1. */
int    tm_chart_lane_hit        (const TmChartBand   *bands,
                                 guint                n_bands,
                                 const TmChartLayout *plot,
                                 gboolean             labelled,
                                 double               x,
                                 double               y);

G_END_DECLS
