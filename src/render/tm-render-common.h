/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawing pieces shared by the chart renderers (tm-chart.c,
 * tm-render-trend.c, tm-render-ds-growth.c): colors, Pango text, the
 * common frame, the value and time axes and PNG output.  One copy keeps
 * the three charts in the same look when one of them changes.
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <pango/pangocairo.h>

#include "tm-axis.h"

G_BEGIN_DECLS

/* The frame every chart shares, so stacked charts of all kinds line up. */
#define TM_RENDER_PAD      10.0   /* around the whole chart */
#define TM_RENDER_HEADER   22.0   /* title row */
#define TM_RENDER_X_LABELS 18.0   /* time axis labels below the plot */

typedef struct {
  double red, green, blue, alpha;
} TmColor;

/* Where the plot area ended up (for hit testing in the widgets). */
typedef struct {
  double x, y, width, height;
  double t0, t1;            /* visible range mapped to x .. x + width */
  double lane_y;            /* top of the lane of window markers above the plot */
  guint  lane_rows;         /* its rows; 0: no lane */
} TmChartLayout;

double       tm_chart_layout_x_to_ns (const TmChartLayout *layout, double x);
double       tm_chart_layout_ns_to_x (const TmChartLayout *layout, double ns);

/* 0xRRGGBB to a color. */
TmColor      tm_render_rgb          (guint32 hex,
                                     double  alpha);
void         tm_render_set_color    (cairo_t *cr,
                                     TmColor  color,
                                     double   alpha_scale);

/* The chart font: `font` as a Pango description, NULL or sizeless: 9 pt. */
PangoFontDescription *tm_render_font_new (const char *font);

/* What text is drawn with; `ellipsize` is where a max_width cuts it. */
typedef struct {
  cairo_t                    *cr;
  const PangoFontDescription *font;
  PangoEllipsizeMode          ellipsize;
} TmRenderText;

/* max_width <= 0: no limit. */
PangoLayout *tm_render_text_layout  (const TmRenderText *t,
                                     const char         *text,
                                     gboolean            bold,
                                     double              max_width);
void         tm_render_text_size    (const TmRenderText *t,
                                     const char         *text,
                                     gboolean            bold,
                                     double             *width,
                                     double             *height);
double       tm_render_text_width   (const TmRenderText *t,
                                     const char         *text,
                                     gboolean            bold);
/* Draws text aligned at (x, y) on whole pixels; returns its width. */
double       tm_render_draw_text    (const TmRenderText *t,
                                     const char         *text,
                                     double              x,
                                     double              y,
                                     double              xalign,
                                     double              yalign,
                                     gboolean            bold,
                                     TmColor             color,
                                     double              alpha,
                                     double              max_width);

/* The chart's title, left in the header row. */
void         tm_render_draw_title   (const TmRenderText *t,
                                     const char         *title,
                                     TmColor             foreground,
                                     double              max_width);

/* Fills width x height with color unless it is transparent. */
void         tm_render_background   (cairo_t *cr,
                                     TmColor  color,
                                     double   width,
                                     double   height);

/* Ticks for values 0..vmax on a plot `height` pixels high, the top tick
 * just above vmax (vmax <= 0: a small default range; fractions stop at
 * 100 % when the data does).  Returns the widest tick label. */
double       tm_render_value_ticks  (const TmRenderText  *t,
                                     TmAxisTicks         *ticks,
                                     TmAxisUnit           unit,
                                     double               vmax,
                                     double               height);
/* Value grid and labels left of the plot; values 0..y_max bottom to top. */
void         tm_render_value_axis   (const TmRenderText  *t,
                                     const TmChartLayout *plot,
                                     double               y_max,
                                     const TmAxisTicks   *ticks,
                                     TmColor              foreground);
/* One grid line across the plot at y with its label left of it; the
 * base line (the axis) stronger. */
void         tm_render_value_gridline (const TmRenderText  *t,
                                       const TmChartLayout *plot,
                                       double               y,
                                       const char          *label,
                                       gboolean             base,
                                       TmColor              foreground);
/* Time grid, ticks at `bottom` and labels below them; a label reaching
 * past label_right is left out, as is one overlapping its neighbour. */
void         tm_render_time_axis    (const TmRenderText  *t,
                                     const TmChartLayout *plot,
                                     double               bottom,
                                     double               label_right,
                                     TmColor              foreground);

typedef void (*TmRenderDrawFunc) (cairo_t *cr, gpointer user_data);

/* Draws into a width x height ARGB image and writes it as PNG. */
gboolean     tm_render_write_png    (double             width,
                                     double             height,
                                     TmRenderDrawFunc   draw,
                                     gpointer           user_data,
                                     const char        *path,
                                     GError           **error);

/* The same as an SVG document. */
gboolean     tm_render_write_svg    (double             width,
                                     double             height,
                                     TmRenderDrawFunc   draw,
                                     gpointer           user_data,
                                     const char        *path,
                                     GError           **error);

/* Draws width x height units at `scale` pixels per unit (2: sharp on
 * HiDPI screens and in print) and returns the PNG file's bytes. */
GBytes      *tm_render_png_bytes    (double             width,
                                     double             height,
                                     double             scale,
                                     TmRenderDrawFunc   draw,
                                     gpointer           user_data,
                                     GError           **error);

G_END_DECLS
