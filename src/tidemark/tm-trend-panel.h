/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTrendPanel: one TrendViz chart with its own settings (what to group
 * by, what to drill into next, metric, sorting, top N, Other, how often to
 * classify), computed on a worker (GTask + GCancellable) that hands over
 * whole immutable TmTrend snapshots as it classifies more GCs.  Zoom and
 * hover go through the window's TmSession, so every panel and the
 * overview charts stay in step.  Clicking a series or its legend entry
 * selects it and emits ::drill with its key; a drilled panel can be
 * closed (::close-requested); a new Group by emits ::regrouped.  Up and
 * Down on the focused chart do what a click does.  Exports PNG and CSV.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-session.h"
#include "tm-document.h"

G_BEGIN_DECLS

#define TM_TYPE_TREND_PANEL (tm_trend_panel_get_type ())
G_DECLARE_FINAL_TYPE (TmTrendPanel, tm_trend_panel, TM, TREND_PANEL, GtkWidget)

/* `request` holds the window, the drill path and the chain: chain[n_drill]
 * is what this panel groups by, chain[n_drill + 1] (if any) what a
 * drill-down groups by.  The document computes it (its heap states and
 * descriptions are shared with every other view).  Starts computing at
 * once. */
TmTrendPanel         *tm_trend_panel_new             (TmSession            *session,
                                                      TmDocument           *doc,
                                                      const TmTrendRequest *request,
                                                      gboolean              closable);

const TmTrendRequest *tm_trend_panel_get_request     (TmTrendPanel *self);
/* The latest snapshot (NULL before the first classified GC). */
TmTrend              *tm_trend_panel_get_trend       (TmTrendPanel *self);
/* The series shown under the current sort / top N / Other settings. */
GPtrArray            *tm_trend_panel_get_shown       (TmTrendPanel *self);
gboolean              tm_trend_panel_is_busy         (TmTrendPanel *self);

void                  tm_trend_panel_set_sort        (TmTrendPanel *self, TmTrendSort sort);
void                  tm_trend_panel_set_top         (TmTrendPanel *self, guint top, gboolean with_other);
void                  tm_trend_panel_set_metric      (TmTrendPanel *self, TmTrendMetric metric);
/* The classifier a drill-down from this panel groups by. */
void                  tm_trend_panel_set_next_classifier (TmTrendPanel *self, TmClassifier classifier);
TmClassifier          tm_trend_panel_get_next_classifier (TmTrendPanel *self);

/* Selects shown series `index` (-1: none); a group (not Other) emits
 * ::drill with its key. */
void                  tm_trend_panel_select          (TmTrendPanel *self, int index);
int                   tm_trend_panel_get_selected    (TmTrendPanel *self);

gboolean              tm_trend_panel_write_png       (TmTrendPanel *self, const char *path,
                                                      int width, int height, GError **error);
gboolean              tm_trend_panel_write_csv       (TmTrendPanel *self, const char *path, GError **error);

G_END_DECLS
