/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmApplication: io.github.tidemark.Tidemark.  Opens files given on the
 * command line or by the desktop (HANDLES_OPEN), one window per trace;
 * app-wide actions (open, recent, sample, preferences, about, quit).
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TM_TYPE_APPLICATION (tm_application_get_type ())
G_DECLARE_FINAL_TYPE (TmApplication, tm_application, TM, APPLICATION, GtkApplication)

TmApplication *tm_application_new               (GApplicationFlags extra_flags);
/* Opens file in an empty window if there is one, else in a new window;
 * presents the window that already shows it. */
GtkWindow     *tm_application_open_file         (TmApplication *self, GFile *file);
/* The bundled sample trace, if installed or built (NULL otherwise). */
GFile         *tm_application_find_sample       (void);
GMenuModel    *tm_application_get_recent_menu   (TmApplication *self);
void           tm_application_add_recent        (TmApplication *self, GFile *file);

G_END_DECLS
