/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC summary of a run or of any range of GCs: throughput, pause
 * statistics overall and per kind, full GCs, allocation and promotion
 * rates, freed memory, footprint and the occupancy after full GCs.
 * Definitions (what each number is, exactly) in docs/gc-summary.md.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef struct {
  guint    count;
  guint64  total_ns;
  guint64  mean_ns;        /* total / count, rounded down */
  guint64  min_ns;
  guint64  max_ns;
  guint64  p50_ns;         /* nearest rank: the smallest pause that at */
  guint64  p90_ns;         /* least that share of the pauses do not exceed */
  guint64  p99_ns;
  guint64  p999_ns;
} TmPauseStats;

#define TM_GC_N_KINDS (TM_GC_KIND_CONCURRENT + 1)

typedef struct {
  guint        first_gc;          /* the range, 1-based, inclusive */
  guint        last_gc;
  guint64      start_ns;          /* start of the first GC of the range */
  guint64      end_ns;            /* the latest end of a GC of the range */
  double       throughput;        /* share of [start_ns, end_ns] not paused, 0..1 */
  TmPauseStats pauses;            /* every GC with a known pause */
  TmPauseStats by_kind[TM_GC_N_KINDS];
  guint        full_gcs;          /* kind major */
  guint64      full_gc_ns;
  guint64      allocated_bytes;   /* growth of occupancy between GCs, summed */
  double       allocation_rate;   /* bytes/s from the end of the first GC to the end of the last */
  gboolean     has_promotion;     /* young and old generations are logged */
  guint64      promoted_bytes;    /* to the old generation by young collections */
  double       promotion_rate;    /* bytes/s, same span as allocation_rate */
  guint64      freed_bytes;       /* before - after, summed */
  guint64      footprint_bytes;   /* the largest committed heap */
  guint64      peak_used_bytes;   /* the largest occupancy before a GC */
  guint        n_after_full;      /* occupancy after full GCs: */
  guint64      after_full_min;
  guint64      after_full_max;
  guint64      after_full_last;
  double       after_full_slope;  /* bytes/s, least squares; NAN with fewer than 2 */
} TmGcSummary;

/* first_gc..last_gc must be GCs of the trace (1 <= first <= last <= n). */
gboolean tm_gc_summary_compute (const TmTrace *trace, guint first_gc, guint last_gc,
                                TmGcSummary *out, GError **error);

G_END_DECLS
