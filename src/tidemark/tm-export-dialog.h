/* SPDX-License-Identifier: GPL-3.0-or-later
 * Export a chart as PNG: pick the chart and the size, then the file. */
#pragma once

#include <gtk/gtk.h>
#include "tm-app-window.h"

G_BEGIN_DECLS

#define TM_TYPE_EXPORT_DIALOG (tm_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TmExportDialog, tm_export_dialog, TM, EXPORT_DIALOG, GtkWindow)

TmExportDialog *tm_export_dialog_new (TmAppWindow *parent, TmChartKind kind);

G_END_DECLS
