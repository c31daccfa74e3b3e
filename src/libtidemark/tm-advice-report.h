/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything the advice of a range rests on, in one place for the CLI
 * (`advise`) and the app's GC Advice view: the rules that fire
 * (tm-advice.h), the GC statistics of the range, and what the knowledge
 * base says: the nearest known workloads and, when the nearest is close
 * enough, the configuration they suggest per goal, and per goal the leaf
 * of its decision tree (tm-gc-kb-tree.h) the run falls in, with the
 * conditions that lead there.
 */
#pragma once

#include "tm-advice.h"
#include "tm-gc-config.h"
#include "tm-gc-kb-tree.h"
#include "tm-gc-stats.h"

G_BEGIN_DECLS

#define TM_ADVICE_N_NEAREST 3

typedef struct {
  GPtrArray     *advice;                 /* TmAdvice*, in rule order */
  TmGcStats      stats;
  /* the knowledge base (kb NULL: none was given or it could not be read) */
  TmKb          *kb;
  char          *kb_error;               /* why it could not be read, or NULL */
  TmKbNeighbour  near[TM_ADVICE_N_NEAREST];   /* entries point into kb */
  guint          n_near;
  gboolean       close;                  /* the nearest is within TM_KB_CLOSE_DISTANCE */
  TmGcConfig     suggest[TM_N_GOALS];
  gboolean       has_suggestion[TM_N_GOALS];
  guint64        live_bytes;             /* for the suggestions' heap flags */
  /* the knowledge base's decision tree per goal: why, not only what */
  TmKbDecision   decision[TM_N_GOALS];
  gboolean       has_decision[TM_N_GOALS];
} TmAdviceReport;

/* Advice for GCs first..last of trace (0, 0: the whole run).  kb_path:
 * the knowledge base to compare with, or NULL for none; one that cannot
 * be read leaves kb NULL and says why in kb_error. */
TmAdviceReport *tm_advice_report_new  (const TmTrace        *trace,
                                       guint32               first_gc,
                                       guint32               last_gc,
                                       const TmAdviceParams *params,
                                       const char           *kb_path);
void            tm_advice_report_free (TmAdviceReport       *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmAdviceReport, tm_advice_report_free)

G_END_DECLS
