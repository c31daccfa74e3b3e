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

/* Promotion from recorded lifetimes (a Tidemark trace's objects): with a
 * tenuring threshold T an object lives through T young GCs in the
 * survivor spaces (ages 1 to T) and the next one, the (T+1)-th young GC
 * after its birth, promotes it (T = 0: the first; the JVM may promote
 * earlier, never later).  Objects that met a whole-heap GC before that
 * are left out: it moved them to the old generation, not the threshold.  A promoted object died "soon after" when no
 * old-generation collection (full, mixed or concurrent) came between its
 * promotion and the GC its death was recorded at, i.e. the first chance
 * to free it did. */
typedef struct {
  guint     threshold;            /* the tenuring threshold assumed */
  guint     n_young, n_old;       /* young and old-generation collections in the range */
  guint64   promoted_bytes;       /* promoted objects that died in the range or live at its end */
  guint64   promoted_objects;
  guint64   soon_bytes;           /* ... of them freed by the first old collection after promotion */
  guint64   soon_objects;
  guint     soon_age_p75;         /* young GCs those survived before the GC that freed them (an upper
                                   * bound of their age at death), 75th percentile; > threshold */
  GArray   *soon_gcs;             /* guint32: the GCs that freed them, ascending */
} TmPromotionLifetimes;

/* The tenuring threshold a recording ran with: META
 * "jvm.MaxTenuringThreshold" (a recorder that read the flag), else
 * -XX:MaxTenuringThreshold from its command line, else the collector's
 * default (CMS 6, Parallel's initial 7, 15 for the others). */
guint        tm_trace_tenuring_threshold (const TmTrace *trace);
/* FALSE when the trace has no object lifetimes or the range no GC. */
gboolean     tm_promotion_lifetimes  (const TmTrace *trace, guint32 first_gc, guint32 last_gc, guint threshold,
                                      TmPromotionLifetimes *out);
void         tm_promotion_lifetimes_clear (TmPromotionLifetimes *p);

/* FALSE when the range has no age table. */
gboolean     tm_age_curve_compute    (const TmTrace *trace, guint32 first_gc, guint32 last_gc, TmAgeCurve *out);
/* The age table of GC id, or NULL. */
const TmGcAges *tm_trace_gc_ages     (const TmTrace *trace, guint32 gc);

G_END_DECLS
