/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A suspicious window's explanation as the app shows it: the text
 * without the command lines meant for tidemark-cli, the next steps as
 * buttons (win.window-step: Data Structure Growth, Compare Heaps,
 * TrendViz, Allocations, GC Advice, as far as the recording supports
 * them), and the whole text on demand in a popover.
 */
#pragma once

#include <gtk/gtk.h>

#include "tidemark.h"

G_BEGIN_DECLS

/* The explanation without "(tidemark-cli ...)" hints (newly allocated). */
char      *tm_window_steps_app_text (const char     *explanation);

/* The explanation (`lines` lines at most, the rest in a popover) and the
 * buttons of window `index` of `trace`. */
GtkWidget *tm_window_steps_new      (TmTrace        *trace,
                                     const TmWindow *window,
                                     int             index,
                                     int             lines);

/* Shows or hides the buttons of a tm_window_steps_new() widget (the
 * sidebar shows them on the selected window only, so the list stays
 * short). */
void       tm_window_steps_set_buttons_visible (GtkWidget *steps,
                                                gboolean   visible);

G_END_DECLS
