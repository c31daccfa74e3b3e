/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmAppWindow: one window per trace.  Empty state, loading page with
 * progress and Cancel, then the overview: suspicious windows in a sidebar,
 * the three charts bound to one TmSession, and a notebook of analysis
 * pages (the selected range first, then the heap, TrendViz and data
 * structure views of the Analyze menu, each a TmSection).
 */
#pragma once

#include <gtk/gtk.h>
#include "tm-application.h"
#include "tm-session.h"
#include "tm-chart.h"

G_BEGIN_DECLS

#define TM_TYPE_APP_WINDOW (tm_app_window_get_type ())
G_DECLARE_FINAL_TYPE (TmAppWindow, tm_app_window, TM, APP_WINDOW, GtkApplicationWindow)

TmAppWindow *tm_app_window_new               (TmApplication *app);
void         tm_app_window_open              (TmAppWindow *self, GFile *file);
/* Several files as one timeline: the rotated parts of a GC log. */
void         tm_app_window_open_files        (TmAppWindow *self, GFile *const *files, guint n);
GFile       *tm_app_window_get_file          (TmAppWindow *self);
TmSession   *tm_app_window_get_session       (TmAppWindow *self);
TmTrace     *tm_app_window_get_trace         (TmAppWindow *self);
gboolean     tm_app_window_is_busy           (TmAppWindow *self);   /* loading or detecting */

/* Adds a closable page to the analysis notebook and shows it. */

/* Renders a chart exactly as shown (range, bands, selection) to a PNG. */
gboolean     tm_app_window_export_chart      (TmAppWindow *self, TmChartKind kind, const char *path,
                                              int width, int height, GError **error);

/* For tests and the screenshot tool. */
GtkListBox  *tm_app_window_get_windows_list  (TmAppWindow *self);
GtkWidget   *tm_app_window_get_chart         (TmAppWindow *self, TmChartKind kind);
const char  *tm_app_window_get_page          (TmAppWindow *self);   /* "empty", "loading", "trace" */
gboolean     tm_app_window_get_banner_shown  (TmAppWindow *self);
const char  *tm_app_window_get_banner_text   (TmAppWindow *self);
const char  *tm_app_window_get_last_error    (TmAppWindow *self);

G_END_DECLS
