/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTrendView: TrendViz over a selected window (AntTracks TrendViz, ICPE
 * 2019 companion) — a column of trend charts (TmTrendPanel).  The first
 * groups the window's objects by type; selecting a series (click it or
 * its legend entry) adds a chart below with that group's children under
 * the next classifier, replacing any deeper charts of the previous
 * selection; deeper drill-downs chain, and a drilled chart can be closed
 * (with the charts below it).  Every chart keeps its own settings; zoom
 * and hover are shared through the window's TmSession.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-section.h"
#include "tm-trend-panel.h"

G_BEGIN_DECLS

#define TM_TYPE_TREND_VIEW (tm_trend_view_get_type ())
G_DECLARE_FINAL_TYPE (TmTrendView, tm_trend_view, TM, TREND_VIEW, TmSection)

GtkWidget    *tm_trend_view_new          (TmSession *session);

/* Starts over with one chart of the window from_gc..to_gc of the
 * session's document (titled "Trends, GC A–B"). */
void          tm_trend_view_set_window   (TmTrendView *self,
                                          guint        from_gc,
                                          guint        to_gc);

guint         tm_trend_view_get_n_charts (TmTrendView *self);
TmTrendPanel *tm_trend_view_get_chart    (TmTrendView *self, guint index);

G_END_DECLS
