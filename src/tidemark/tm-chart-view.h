/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmChartView: one overview chart, drawn by the shared renderer
 * (src/render/tm-chart.c) and bound to the window's TmSession: hover shows
 * the GC under the pointer in every chart, Ctrl+scroll zooms, a drag
 * selects a range, a click on a band selects its suspicious window.
 */
#pragma once

#include <gtk/gtk.h>
#include "tm-session.h"
#include "tm-chart.h"

G_BEGIN_DECLS

#define TM_TYPE_CHART_VIEW (tm_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (TmChartView, tm_chart_view, TM, CHART_VIEW, GtkWidget)

GtkWidget   *tm_chart_view_new          (TmSession *session, TmChartKind kind);
TmSession   *tm_chart_view_get_session  (TmChartView *self);
void         tm_chart_view_set_session  (TmChartView *self, TmSession *session);
TmChartKind  tm_chart_view_get_kind     (TmChartView *self);
void         tm_chart_view_set_kind     (TmChartView *self, TmChartKind kind);

/* The options the view draws with right now, at another size (for export:
 * same range, bands and selection, light colors). */
void         tm_chart_view_export_options (TmChartView *self, TmChartOptions *options,
                                           double width, double height);

/* Where time t is drawn, from the last layout (FALSE before the first draw). */
gboolean     tm_chart_view_time_to_x    (TmChartView *self, double t_ns, double *x);

/* Tooltip text for a GC (Pango markup), as shown on hover. */
char        *tm_chart_view_describe_gc  (TmChartView *self, guint gc);

G_END_DECLS
