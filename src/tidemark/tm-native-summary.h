/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The summary of a recording's allocations, like heaptrack_gui's summary
 * page: run time, calls to allocation functions and their rate, temporary
 * allocations (count and share), peak heap (and when), peak RSS, leaked
 * (suppressed apart); the top ten functions by peak contribution, leaks,
 * allocations and temporary allocations, each a click ("show-function")
 * away from its call stacks; the allocation-size histogram.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-call-data.h"

G_BEGIN_DECLS

#define TM_TYPE_NATIVE_SUMMARY (tm_native_summary_get_type ())
G_DECLARE_FINAL_TYPE (TmNativeSummary, tm_native_summary, TM, NATIVE_SUMMARY, GtkWidget)

GtkWidget *tm_native_summary_new      (void);
void       tm_native_summary_set_data (TmNativeSummary *self,
                                       TmCallData      *data);
/* The text of a figure's label ("peak", "leaked", ...), for tests. */
const char *tm_native_summary_get_figure (TmNativeSummary *self,
                                          const char      *name);
/* Rows of a top list ("peak", "leaked", "allocations", "temporary"). */
guint      tm_native_summary_n_top    (TmNativeSummary *self,
                                       const char      *list);
/* Activates row `i` of a top list, as a click does. */
void       tm_native_summary_activate (TmNativeSummary *self,
                                       const char      *list,
                                       guint            i);

G_END_DECLS
