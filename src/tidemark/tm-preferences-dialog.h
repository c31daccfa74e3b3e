/* SPDX-License-Identifier: GPL-3.0-or-later
 * Preferences: the thresholds of suspicious window detection, bound to
 * GSettings (open windows re-run detection when they change). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TM_TYPE_PREFERENCES_DIALOG (tm_preferences_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TmPreferencesDialog, tm_preferences_dialog, TM, PREFERENCES_DIALOG, GtkWindow)

TmPreferencesDialog *tm_preferences_dialog_new (GtkWindow *parent);

G_END_DECLS
