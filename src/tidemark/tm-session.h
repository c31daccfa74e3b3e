/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmSession: the one source of truth for time ranges in a window (as
 * Sysprof's session): the whole trace, the visible range every chart
 * shows, and the selected range (with the GCs it covers) that analyses
 * act on.  Charts and panels bind to its properties.
 */
#pragma once

#include <glib-object.h>
#include "tm-document.h"
#include "tm-chart.h"
#include "tm-windows.h"

G_BEGIN_DECLS

#define TM_TYPE_SESSION (tm_session_get_type ())
G_DECLARE_FINAL_TYPE (TmSession, tm_session, TM, SESSION, GObject)

TmSession       *tm_session_new              (void);

/* The opened input (NULL: none); resets ranges and selection.  Views get
 * the document, its trace and chart model from here. */
void             tm_session_set_document     (TmSession *self, TmDocument *document);
/* While a trace loads (no document yet): the timeline read so far, which
 * the charts draw.  The time range grows with it; a view that showed the
 * whole keeps showing the whole, a zoomed one stays.  Setting the
 * document drops it. */
void             tm_session_set_partial_timeline (TmSession *self, TmTimelineModel *partial);
TmDocument      *tm_session_get_document     (TmSession *self);
TmTrace         *tm_session_get_trace        (TmSession *self);
TmTimelineModel *tm_session_get_model        (TmSession *self);

double           tm_session_get_whole_start  (TmSession *self);
double           tm_session_get_whole_end    (TmSession *self);
double           tm_session_get_visible_start (TmSession *self);
double           tm_session_get_visible_end  (TmSession *self);
void             tm_session_set_visible      (TmSession *self, double start_ns, double end_ns);
/* factor < 1 zooms in around center_ns */
void             tm_session_zoom             (TmSession *self, double center_ns, double factor);
void             tm_session_pan              (TmSession *self, double delta_ns);
void             tm_session_reset_zoom       (TmSession *self);

gboolean         tm_session_get_has_selection (TmSession *self);
double           tm_session_get_selection_start (TmSession *self);
double           tm_session_get_selection_end (TmSession *self);
guint            tm_session_get_selected_first_gc (TmSession *self);
guint            tm_session_get_selected_last_gc (TmSession *self);
/* Selects a time range; the selected GCs are those it touches. */
void             tm_session_select_time      (TmSession *self, double start_ns, double end_ns);
/* Selects GCs first..last (inclusive) and their time span. */
void             tm_session_select_gcs       (TmSession *self, guint first_gc, guint last_gc);
void             tm_session_clear_selection  (TmSession *self);
void             tm_session_zoom_to_selection (TmSession *self);

/* Suspicious window chosen in the sidebar or by clicking its band; -1 none. */
int              tm_session_get_selected_window (TmSession *self);
void             tm_session_set_selected_window (TmSession *self, int index);

/* Detected suspicious windows (TmWindow*), drawn as bands by every chart. */
void             tm_session_set_windows      (TmSession *self, GPtrArray *windows);
GPtrArray       *tm_session_get_windows      (TmSession *self);
const TmWindow  *tm_session_get_window       (TmSession *self, int index);
const TmChartBand *tm_session_get_bands      (TmSession *self, guint *n_bands);
/* Selects a window's GCs as the analysis range and remembers it. */
void             tm_session_select_window    (TmSession *self, int index);

double           tm_session_get_overhead_threshold (TmSession *self);
void             tm_session_set_overhead_threshold (TmSession *self, double fraction);

guint            tm_session_get_hover_gc     (TmSession *self);
void             tm_session_set_hover_gc     (TmSession *self, guint gc);

G_END_DECLS
