/* SPDX-License-Identifier: GPL-3.0-or-later
 * The application's GSettings, found in the installed schemas or, when
 * running from the build tree, in the schema compiled there. */
#pragma once

#include <gio/gio.h>
#include "tm-windows.h"
#include "tm-load-options.h"

G_BEGIN_DECLS

#define TM_SETTINGS_SCHEMA "io.github.tidemark.Tidemark"

GSettings *tm_settings_get            (void);   /* shared, do not unref */
/* Window detection thresholds from the preferences. */
void       tm_settings_window_params  (GSettings *settings, TmWindowParams *params);
/* How files are loaded (the memory limit) from the preferences. */
void       tm_settings_load_options   (GSettings *settings, TmLoadOptions *options);

G_END_DECLS
