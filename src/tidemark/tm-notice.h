/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A short notice across the top of a window, as GNOME apps show a toast:
 * "Saved “memory.png”" with Open, or what went wrong.  It hides itself
 * after a few seconds (errors stay until closed).  GTK 4.8 has no toast
 * and Tidemark does not use libadwaita, so it is a GtkInfoBar placed
 * first in the window's vertical box.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* widget: anything inside the window. */
void         tm_notice_saved       (GtkWidget  *widget,
                                    const char *path);
void         tm_notice_error       (GtkWidget  *widget,
                                    const char *message);

/* The notice's text now, or NULL (for the tests). */
const char  *tm_notice_get_text    (GtkWidget  *widget);

G_END_DECLS
