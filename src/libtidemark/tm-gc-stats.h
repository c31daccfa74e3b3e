/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Summary statistics of a range of GCs (pauses, throughput, allocation
 * and promotion rates, occupancy after whole-heap GCs), read from the GC
 * timeline only.  The advice rules and `tune` use these numbers.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef struct {
  guint32  first_gc, last_gc;     /* 1-based, inclusive */
  guint    n_gcs;                 /* complete GCs in the range */
  guint    n_minor, n_major, n_mixed, n_concurrent;
  guint    n_whole_heap;          /* GCs that leave only live data: full GCs, ZGC/Shenandoah cycles */
  double   duration_ns;           /* from the end of the GC before the range (or 0) to the last end */
  double   pause_total_ns;
  double   pause_p50_ns, pause_p99_ns, pause_max_ns;
  guint32  pause_max_gc;          /* GC id of the longest pause */
  double   throughput;            /* 1 - pause / duration, in [0, 1] */
  double   alloc_bytes;           /* heap growth between GCs, summed */
  double   alloc_rate;            /* bytes/s */
  double   promoted_bytes;        /* old-generation growth at minor GCs */
  double   young_freed_bytes;     /* heap freed at minor GCs */
  double   old_reclaimed_bytes;   /* old generation freed at whole-heap and mixed GCs */
  double   old_before_bytes;      /* old generation before them, summed */
  guint64  max_used_bytes;        /* highest occupancy before a GC */
  guint64  max_committed_bytes;   /* highest committed heap */
  guint64  live_max_bytes;        /* highest occupancy after a whole-heap GC (0 if none) */
  guint64  live_median_bytes;
  guint64  young_committed_bytes; /* young generation committed at the last minor GC that logged it */
  double   minor_interval_p50_ns; /* median time from the previous GC's end to a minor GC's start */
  double   minor_pause_p50_ns;
  const char *collector;          /* of the last GC, "" if unknown */
} TmGcStats;

/* first_gc/last_gc 0 mean the whole run. */
void     tm_gc_stats_compute      (const TmTrace *trace, guint32 first_gc, guint32 last_gc, TmGcStats *stats);

/* The program's live data: occupancy after the largest whole-heap GC, or
 * without one the highest occupancy after any GC (an upper bound). */
guint64  tm_gc_live_estimate      (const TmTrace *trace);

/* Heap spaces of one kind (young also counts survivor), summed at a GC. */
gboolean tm_gc_space_kind_usage   (const TmTrace *trace, const TmGc *gc, TmSpaceKind kind,
                                   guint64 *before, guint64 *after, guint64 *committed);

/* TRUE for a GC after which the heap holds only live data (and floating
 * garbage): full GCs and the cycles of ZGC and Shenandoah. */
gboolean tm_gc_is_whole_heap      (const TmGc *gc);

/* q-quantile (nearest rank) of n doubles, sorted in place; 0 when n == 0. */
double   tm_quantile_sorted       (double *values, guint n, double q);

G_END_DECLS
