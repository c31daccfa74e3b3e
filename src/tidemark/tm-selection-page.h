/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmSelectionPage: the first page under the charts.  The selected range
 * (or a window's) with its explanation (naming the most likely leaking
 * container when the recording has container operations), buttons for the analyses of it,
 * its figures (duration, GCs, heap after GC, live and reachable memory,
 * overhead, freed) and the GC summary of the range, or of the whole run
 * when nothing is selected.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-session.h"

G_BEGIN_DECLS

#define TM_TYPE_SELECTION_PAGE (tm_selection_page_get_type ())
G_DECLARE_FINAL_TYPE (TmSelectionPage, tm_selection_page, TM, SELECTION_PAGE, GtkWidget)

/* Shows the session's selection of `trace` (NULL: nothing loaded). */
void tm_selection_page_update            (TmSelectionPage *self,
                                          TmSession       *session,
                                          TmTrace         *trace);
/* Why the views that need objects are off (NULL: they are not). */
void tm_selection_page_set_objects_note  (TmSelectionPage *self,
                                          const char      *reason);

/* The explanation as shown: for a leak window of a recording with
 * container operations, followed (once analysed) by the container most
 * likely leaking when its leak confidence is high. */
const char *tm_selection_page_get_explanation (TmSelectionPage *self);

/* The pause histogram under the GC summary (a TmChartView). */
GtkWidget *tm_selection_page_get_histogram (TmSelectionPage *self);

G_END_DECLS
