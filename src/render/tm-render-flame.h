/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Flame graphs of a call tree (tm-calltree.h), drawn with Cairo for the
 * app's flame graph view and tidemark-cli's PNG and SVG export.
 *
 * The root is at the bottom and every frame sits on its caller; a frame is
 * as wide as its share of the metric (heaptrack's flame graph).  Children
 * are ordered by cost, largest left.  Zooming into a frame makes it the
 * full width, with the frames below it kept as full-width context bars;
 * a search dims every frame whose function does not match.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "tm-calltree.h"

G_BEGIN_DECLS

#define TM_FLAME_ROW_HEIGHT 18.0

typedef struct {
  TmCostKind  metric;
  guint32     zoom;          /* node shown full width; 0 the root */
  const char *search;        /* NULL or "": no search; case-insensitive substring of the function */
  const char *title;         /* NULL: none */
  const char *font;          /* NULL: the chart font */
  gboolean    dark;          /* dark background */
} TmFlameOptions;

/* One drawn frame (for hit testing and tests). */
typedef struct {
  double   x, y, width, height;
  guint32  node;
  gboolean match;            /* matches the search */
  gboolean context;          /* an ancestor of the zoomed frame (full width) */
} TmFlameRect;

/* Draws the flame graph into width x height; fills `rects` (may be NULL)
 * with TmFlameRect for every frame drawn, wider than half a pixel. */
void     tm_render_flame        (cairo_t              *cr,
                                 double                width,
                                 double                height,
                                 const TmCallTree     *tree,
                                 const TmFlameOptions *options,
                                 GArray               *rects);

/* Height that shows every row of the tree (within min/max). */
double   tm_render_flame_height (const TmCallTree *tree,
                                 double            min_height,
                                 double            max_height);

/* The rect under (x, y), or NULL. */
const TmFlameRect *tm_flame_rect_at (GArray *rects, double x, double y);

/* Writes the flame graph as PNG or SVG (by `svg`). */
gboolean tm_render_flame_write  (const TmCallTree     *tree,
                                 const TmFlameOptions *options,
                                 double                width,
                                 double                height,
                                 gboolean              svg,
                                 const char           *path,
                                 GError              **error);

G_END_DECLS
