/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The save side of every export (chart PNGs, chart data as CSV): a native
 * file chooser with one filter and a suggested name, then the caller's
 * writer.  One place, so all exports ask the same way.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Called when the user accepted a file; path is NULL when the file is not
 * local (the writers take paths). */
typedef void (*TmExportSaveFunc) (const char *path,
                                  gpointer    user_data);

/* Shows a modal save chooser over parent (may be NULL).  save runs on
 * "Export"; destroy (may be NULL) runs with user_data after any answer. */
void tm_export_choose_file (GtkWindow        *parent,
                            const char       *title,
                            const char       *filter_name,
                            const char       *mime_type,
                            const char       *suggested_name,
                            TmExportSaveFunc  save,
                            gpointer          user_data,
                            GDestroyNotify    destroy);

G_END_DECLS
