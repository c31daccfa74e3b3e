/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's analysis actions, so buttons, menus, shortcuts and other
 * views can name exactly what to open.  Those without a parameter work on
 * the selected GCs, or the whole run when nothing is selected:
 *
 *   win.heap-at-selection              the heap after the selection's last GC
 *   win.ds-growth-at-selection         data structure growth between its
 *                                      first and last GC with a graph
 *   win.trend-at-selection             TrendViz
 *   win.allocations-at-selection       VM-level metrics (allocations,
 *   win.short-lived-at-selection       lifetimes, ...; or that view's page of
 *                                      the objects dead by their first GC)
 *   win.advice-at-selection            GC configuration advice
 *   win.call-stacks                    allocations by call stack
 *
 *   win.heap-at-gc "u"                 the heap view after GC u
 *   win.heap-at-selection-start        the heap after the selection's first GC
 *   win.compare-heaps "(uu)"           Compare Heaps of GC a and GC b
 *   win.compare-heaps-at-selection     Compare Heaps of the selection's ends
 *                                      (its first and last GC with a graph)
 *   win.window-step "(is)"             select window i, then open the next
 *                                      step s of its explanation: "ds-growth",
 *                                      "compare-heaps", "trend", "allocations",
 *                                      "advice"
 */
#pragma once

#include "tm-app-window.h"

G_BEGIN_DECLS

void      tm_app_actions_install        (GtkWidgetClass *widget_class);
/* Enables them for what the open trace has. */
void      tm_app_actions_update         (TmAppWindow    *self);
/* Their entries in the Analyze menu. */
void      tm_app_actions_add_menu_items (GMenu          *analyses);
/* The GCs Compare Heaps starts with for first..last: the first and last
 * GC with a reference graph in it when there are two, else its ends. */
void      tm_app_actions_compare_gcs    (TmTrace        *trace,
                                         guint           first,
                                         guint           last,
                                         guint          *from,
                                         guint          *to);

G_END_DECLS
