/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC configuration advice from one recording or GC log, without reruns:
 * rules that each look for one problem in the GC timeline, say what they
 * measured, which flag to try, and which GCs show it.  Rules stay silent
 * unless the data supports them.  Rules and thresholds: docs/advice.md.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef enum {
  TM_ADVICE_GOAL_ANY = 0,      /* no goal given: advice that holds for every goal */
  TM_ADVICE_GOAL_THROUGHPUT,
  TM_ADVICE_GOAL_LATENCY,
  TM_ADVICE_GOAL_FOOTPRINT,
} TmAdviceGoal;

typedef struct {
  TmAdviceGoal goal;
  double   pause_target_ms;         /* latency goal: pauses above this are long (100) */
} TmAdviceParams;

typedef struct {
  const char *rule;             /* stable id: "heap-too-small", "leak", ... */
  const char *title;            /* one line */
  char       *finding;          /* what the data shows, with numbers */
  char       *action;           /* what to try and why */
  char       *flags;            /* JVM flags to try, "" when no flag helps */
  double      severity;         /* for ordering: share of run time at stake, 1 for failures */
  GArray     *gcs;              /* guint32 GC ids that show it (at most TM_ADVICE_MAX_EVIDENCE) */
  guint       n_gcs;            /* how many GCs show it in all */
} TmAdvice;

#define TM_ADVICE_MAX_EVIDENCE 50

void         tm_advice_params_init (TmAdviceParams *params);
/* Advice for GCs first_gc..last_gc (1-based, inclusive; 0, 0 = the whole
 * run), most severe first.  Returns TmAdvice* (free with tm_advice_free).
 * Reads the GC timeline and the trace's META only: milliseconds. */
GPtrArray   *tm_advise             (const TmTrace *trace, guint32 first_gc, guint32 last_gc,
                                    const TmAdviceParams *params);
void         tm_advice_free        (TmAdvice *advice);

const char  *tm_advice_goal_to_string   (TmAdviceGoal goal);
gboolean     tm_advice_goal_from_string (const char *s, TmAdviceGoal *goal);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmAdvice, tm_advice_free)

G_END_DECLS
