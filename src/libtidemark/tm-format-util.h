/* SPDX-License-Identifier: GPL-3.0-or-later
 * Human-readable numbers shared by the CLI, the renderer and the app. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "1.5 MiB", "812 B" */
char *tm_format_bytes     (double bytes);
/* "12.3 ms", "4.20 s", "2 min 3 s" */
char *tm_format_duration  (double ns);
/* A moment of a run: "0 s" at its start (not "0 ns"), else as a duration. */
char *tm_format_time_point (double ns);
/* "1,234,567"; grouped as the user's locale does ("1.234.567" in German).
 * Sizes and durations use the locale's decimal mark ("1,5 MiB"). */
char *tm_format_count     (guint64 n);
/* JSON string literal with quotes and escapes, appended to s */
void  tm_json_append_string (GString *s, const char *str);

G_END_DECLS
