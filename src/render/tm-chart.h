/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The overview charts, drawn with Cairo and Pango only, so the widgets of
 * the application and `tidemark-cli chart --png` draw the same pixels.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "tm-render-common.h"   /* TmColor, TmChartLayout */
#include "tm-timeline-model.h"
#include "tm-windows.h"

G_BEGIN_DECLS

typedef enum {
  TM_CHART_MEMORY,        /* heap used before/after each GC by space, reachable, pauses */
  TM_CHART_OBJECTS,       /* live objects after each GC */
  TM_CHART_OVERHEAD,      /* share of time spent in GC pauses */
  TM_CHART_ALLOCATIONS,   /* allocations and temporary allocations per second, per interval */
  TM_CHART_RSS,           /* resident memory where recorded (heaptrack), heap in use beside it */
  TM_CHART_PAUSES,        /* each stop-the-world pause at its time, its length up */
  TM_CHART_PAUSE_HISTOGRAM, /* pause lengths in the selection (or the view), log-binned */
  TM_CHART_N_KINDS
} TmChartKind;

/* A suspicious window: a marker in the lane above a chart and an outline
 * on its plot (tm-chart-lane.h). */
typedef struct {
  TmWindowKind kind;
  double       start_ns;
  double       end_ns;
  gboolean     suspicious;
} TmChartBand;

typedef struct {
  TmChartKind        kind;
  double             width;          /* device units (pixels) */
  double             height;
  double             view_start_ns;  /* visible time range */
  double             view_end_ns;
  gboolean           has_selection;
  double             sel_start_ns;
  double             sel_end_ns;
  const TmChartBand *bands;
  guint              n_bands;
  int                selected_band;  /* index into bands, -1 none */
  guint              hover_gc;       /* 1-based, 0 none */
  double             overhead_threshold;  /* dashed line on the overhead chart; <= 0 none */
  TmColor            foreground;     /* text and axes */
  TmColor            background;     /* alpha 0: leave transparent */
  gboolean           dark;           /* pick the palette for a dark background */
  const char        *font;           /* Pango font description, NULL: "Sans 9" */
  gboolean           show_legend;
  double             y_axis_width;   /* > 0: fixed room for y labels, so stacked charts align */
  gboolean           band_labels;    /* name the windows in the lane above the plot */
} TmChartOptions;

void         tm_chart_options_init   (TmChartOptions *options,
                                      TmChartKind     kind,
                                      const TmTimelineModel *model,
                                      double          width,
                                      double          height);

/* Draws the chart into cr at (0,0)-(width,height). */
void         tm_chart_render         (cairo_t               *cr,
                                      const TmTimelineModel *model,
                                      const TmChartOptions  *options,
                                      TmChartLayout         *layout);

/* Renders to a PNG file (white background unless options say otherwise). */
gboolean     tm_chart_write_png      (const TmTimelineModel *model,
                                      const TmChartOptions  *options,
                                      const char            *path,
                                      GError               **error);

const char  *tm_chart_kind_to_string (TmChartKind kind);    /* "memory", ... */
gboolean     tm_chart_kind_from_string (const char *name, TmChartKind *kind);
const char  *tm_chart_kind_title     (TmChartKind kind);    /* translated */

/* Colors shared with the app's sidebar so a band and its row match. */
TmColor      tm_chart_window_color   (TmWindowKind kind);
const char  *tm_chart_window_label   (TmWindowKind kind);   /* translated, "Memory leak" */
TmColor      tm_chart_space_color    (TmSpaceKind kind, guint layer, gboolean dark);

/* Fills bands from detected windows (TmWindow*); returns a new array. */
TmChartBand *tm_chart_bands_from_windows (GPtrArray *windows, guint *n_bands);

G_END_DECLS
