/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The flame graph of a call profile (drawn by tm-render-flame.c): pick the
 * metric and the direction, click a frame to zoom into it (a context bar
 * below zooms back out), search to highlight, export PNG or SVG.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-calltree.h"

G_BEGIN_DECLS

#define TM_TYPE_FLAME_VIEW (tm_flame_view_get_type ())
G_DECLARE_FINAL_TYPE (TmFlameView, tm_flame_view, TM, FLAME_VIEW, GtkWidget)

GtkWidget *tm_flame_view_new         (void);
void       tm_flame_view_set_profile (TmFlameView   *self,
                                      TmCallProfile *profile,
                                      const char    *name);
void       tm_flame_view_set_metric  (TmFlameView *self,
                                      TmCostKind   metric);
void       tm_flame_view_set_search  (TmFlameView *self,
                                      const char  *text);
/* Zooms into the frame under (x, y) of the drawing, as a click does;
 * returns the node now zoomed (0: none). */
guint32    tm_flame_view_click       (TmFlameView *self,
                                      double       x,
                                      double       y);
/* The tree drawn (top-down, or bottom-up when toggled). */
TmCallTree *tm_flame_view_get_tree   (TmFlameView *self);
/* The drawn frames (TmFlameRect), for tests. */
GArray    *tm_flame_view_get_rects   (TmFlameView *self);
gboolean   tm_flame_view_export      (TmFlameView *self,
                                      const char  *path,
                                      gboolean     svg,
                                      GError     **error);

G_END_DECLS
