/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmWindowsSidebar: the window's sidebar, the suspicious windows of the
 * run as cards (kind, range, score, explanation with its next steps),
 * a line saying how many there are or why there are none, and
 * ::window-activated (index) when the user picks one.
 */
#pragma once

#include <gtk/gtk.h>

#include "tidemark.h"

G_BEGIN_DECLS

#define TM_TYPE_WINDOWS_SIDEBAR (tm_windows_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (TmWindowsSidebar, tm_windows_sidebar, TM, WINDOWS_SIDEBAR, GtkWidget)

/* The windows detected in `trace` (TmWindow*; NULL or empty: none) and
 * the line above them, which names what could not be judged. */
void        tm_windows_sidebar_set_windows (TmWindowsSidebar *self,
                                            TmTrace          *trace,
                                            GPtrArray        *windows);
/* Replaces that line (detection running, an error). */
void        tm_windows_sidebar_set_status  (TmWindowsSidebar *self,
                                            const char       *text);
/* Marks window `index` as selected (-1: none); no signal. */
void        tm_windows_sidebar_select      (TmWindowsSidebar *self,
                                            int               index);
GtkListBox *tm_windows_sidebar_get_list    (TmWindowsSidebar *self);

G_END_DECLS
