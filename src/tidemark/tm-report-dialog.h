/* SPDX-License-Identifier: GPL-3.0-or-later
 * Export Report: a save chooser, then the report written on the
 * document's worker (tm-report-html.h) with progress and Cancel, then
 * where it went with Open Report. */
#pragma once

#include <gtk/gtk.h>
#include "tm-app-window.h"

G_BEGIN_DECLS

#define TM_TYPE_REPORT_DIALOG (tm_report_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TmReportDialog, tm_report_dialog, TM, REPORT_DIALOG, GtkWindow)

typedef enum {
  TM_REPORT_DIALOG_WRITING,
  TM_REPORT_DIALOG_DONE,
  TM_REPORT_DIALOG_FAILED,
  TM_REPORT_DIALOG_CANCELLED,
} TmReportDialogState;

/* Asks for a file, then writes the report of the whole run (window -1) or
 * of the session's window `window` into it. */
void                 tm_report_dialog_export    (TmAppWindow *parent, int window);
/* Starts writing the report to path at once and shows the progress. */
TmReportDialog      *tm_report_dialog_new       (TmAppWindow *parent, int window, const char *path);
TmReportDialogState  tm_report_dialog_get_state (TmReportDialog *self);
void                 tm_report_dialog_cancel    (TmReportDialog *self);
/* What the dialog says under its heading: the path, or why it failed. */
const char          *tm_report_dialog_get_detail (TmReportDialog *self);

G_END_DECLS
