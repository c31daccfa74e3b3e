/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The concurrent side of a GC log over a range of GCs: how often and how
 * long each concurrent phase ran, the cycles, the pauses of concurrent
 * collectors, ZGC's stalls and Shenandoah's degenerated and full GCs
 * (TmTrace.gc_phases, from the GC log importer).
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef struct {
  TmGcPhaseKind kind;
  const char   *name;        /* string pool */
  guint32       depth;       /* of its first occurrence: nested phases are inside others */
  guint         count;
  guint64       total_ns;
  guint64       max_ns;
} TmGcPhaseTotal;

typedef struct {
  guint64  start_ns;          /* the range: phases that start in [start_ns, end_ns] */
  guint64  end_ns;
  guint    first_phase;       /* their indices in trace->gc_phases: [first, last) */
  guint    last_phase;
  GArray  *totals;            /* TmGcPhaseTotal per (kind, name), by kind then first occurrence */
  guint    n_per_kind[TM_GC_PHASE_N_KINDS];
  guint64  ns_per_kind[TM_GC_PHASE_N_KINDS];  /* concurrent: top-level phases only (no double count) */
} TmGcPhaseSummary;

/* The phases of GCs first_gc..last_gc (1-based, inclusive): those that
 * start from the first GC's start to the last GC's end; the range
 * reaches the start and the end of the log when it holds its first or
 * last GC.  A trace without GCs gives every phase. */
void tm_gc_phase_summary_compute (const TmTrace *trace, guint first_gc, guint last_gc, TmGcPhaseSummary *out);
void tm_gc_phase_summary_clear   (TmGcPhaseSummary *summary);

/* Translated name of a kind, plural: "Concurrent phases", "Allocation stalls"... */
const char *tm_gc_phase_kind_title (TmGcPhaseKind kind);

G_END_DECLS
