/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Allocations by call stack, in heaptrack's views: the summary page, the
 * bottom-up and top-down trees, the caller/callee table and the flame graph, for heaptrack files
 * (heaptrack's own figures) and recorded traces (their sites' stacks).
 * The view is a TmSection: the document computes the data on a worker
 * when the view is created, and the view names its window in its title.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-section.h"
#include "tm-native-summary.h"
#include "tm-call-tree-view.h"
#include "tm-flame-view.h"
#include "tm-caller-callee-view.h"

G_BEGIN_DECLS

#define TM_TYPE_CALLS_VIEW (tm_calls_view_get_type ())
G_DECLARE_FINAL_TYPE (TmCallsView, tm_calls_view, TM, CALLS_VIEW, TmSection)

/* A window of GCs or time points (0, 0: the whole recording), see
 * tm_document_call_data(). */
GtkWidget       *tm_calls_view_new         (TmSession *session,
                                            guint      from_gc,
                                            guint      to_gc);
/* TRUE once the data is in (or failed: see the status). */
gboolean         tm_calls_view_is_ready    (TmCallsView *self);
/* "summary", "bottom-up", "top-down", "caller-callee", "flame" */
void             tm_calls_view_set_page    (TmCallsView *self, const char *name);
const char      *tm_calls_view_get_page    (TmCallsView *self);
TmNativeSummary *tm_calls_view_get_summary (TmCallsView *self);
TmCallTreeView  *tm_calls_view_get_tree    (TmCallsView *self, gboolean bottom_up);
TmFlameView     *tm_calls_view_get_flame   (TmCallsView *self);
TmCallerCalleeView *tm_calls_view_get_caller_callee (TmCallsView *self);

G_END_DECLS
