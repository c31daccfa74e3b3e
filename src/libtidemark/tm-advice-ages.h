/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the age tables of a GC log (-Xlog:gc+age=trace,
 * -XX:+PrintTenuringDistribution) say about how long the survivors of
 * young GCs live: per age, the share of the bytes that survive the next
 * young GC, measured between consecutive tables while both thresholds
 * kept that age in the survivor spaces.  docs/advice.md explains the
 * rules built on it.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef struct {
  guint    n_tables;                          /* young GCs in the range with an age table */
  guint    n_pairs;                           /* consecutive tables the survival is measured on */
  guint    n_forced;                          /* tables whose threshold fell below the maximum with the
                                               * survivors over the desired survivor size */
  guint8   max_threshold;                     /* MaxTenuringThreshold (the largest logged) */
  guint8   median_threshold;
  guint64  desired_survivor;                  /* median "Desired survivor size", 0 if not logged */
  guint64  p90_total;                         /* survivor bytes after a young GC, 90th percentile */
  double   mean_total;                        /* mean survivor bytes after a young GC */
  double   mean_bytes[TM_GC_MAX_AGE + 1];     /* mean bytes per table, by age */
  double   survival[TM_GC_MAX_AGE + 1];       /* share of age a seen at age a + 1 next time; < 0 unknown */
  guint    survival_pairs[TM_GC_MAX_AGE + 1]; /* pairs that measured it */
  guint    stable_age;                        /* from this age on the survivors live on (>= 90% at every
                                               * measured age, at least 2 of them); 0 = none */
} TmAgeCurve;

/* FALSE when the range has no age table. */
gboolean     tm_age_curve_compute    (const TmTrace *trace, guint32 first_gc, guint32 last_gc, TmAgeCurve *out);
/* The age table of GC id, or NULL. */
const TmGcAges *tm_trace_gc_ages     (const TmTrace *trace, guint32 gc);

G_END_DECLS
