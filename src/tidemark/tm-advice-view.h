/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmAdviceView: GC configuration advice (docs/advice.md) for the whole run
 * or a selected range: each rule that fires with its numbers, the flag to
 * try and the GCs that show it ("Select These GCs" selects them on the
 * charts), the workloads of the knowledge base it resembles, and a goal
 * chooser.  The document computes it (tm_document_advice) on a worker;
 * it reads only the GC timeline.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-section.h"

G_BEGIN_DECLS

#define TM_TYPE_ADVICE_VIEW (tm_advice_view_get_type ())
G_DECLARE_FINAL_TYPE (TmAdviceView, tm_advice_view, TM, ADVICE_VIEW, TmSection)

/* Advice for GCs first..last of the session's document (0, 0: the whole
 * run), computed by the document on a worker. */
GtkWidget    *tm_advice_view_new        (TmSession    *session,
                                         guint         first_gc,
                                         guint         last_gc);
/* Another range; recomputes. */
void          tm_advice_view_set_range  (TmAdviceView *self,
                                         guint         first_gc,
                                         guint         last_gc);
void          tm_advice_view_set_goal   (TmAdviceView *self,
                                         TmAdviceGoal  goal);

/* The current result (TmAdvice*), NULL while computing. */
GPtrArray    *tm_advice_view_get_advice (TmAdviceView *self);
/* Names of the nearest knowledge-base workloads, nearest first (NULL-terminated). */
const char * const *tm_advice_view_get_similar (TmAdviceView *self);
/* Selects the span of the GCs that show advice number index. */
void          tm_advice_view_select_evidence (TmAdviceView *self,
                                              guint         index);

G_END_DECLS
