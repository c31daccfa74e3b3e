/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Caller/callee view (heaptrack_gui's): every function of a call profile
 * with its inclusive costs (once per stack, recursion counted once) and
 * self costs, sortable and searchable; below, the callers and callees of
 * the selected function with the cost through each; activating one goes
 * to it.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-calltree.h"

G_BEGIN_DECLS

#define TM_TYPE_CALLER_CALLEE_VIEW (tm_caller_callee_view_get_type ())
G_DECLARE_FINAL_TYPE (TmCallerCalleeView, tm_caller_callee_view, TM, CALLER_CALLEE_VIEW, GtkWidget)

GtkWidget *tm_caller_callee_view_new           (void);
void       tm_caller_callee_view_set_profile   (TmCallerCalleeView *self,
                                                TmCallProfile      *profile);
gboolean   tm_caller_callee_view_select_symbol (TmCallerCalleeView *self,
                                                guint32             symbol);
/* The selected function's symbol, G_MAXUINT32 if none. */
guint32    tm_caller_callee_view_get_selected  (TmCallerCalleeView *self);
/* Rows of the callers (or callees) list, for tests. */
guint      tm_caller_callee_view_n_edges       (TmCallerCalleeView *self,
                                                gboolean            callers);

G_END_DECLS
