/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTimelineModel: the numbers the overview charts draw, derived once from
 * a TmTrace (on the loading worker) into flat per-GC arrays, immutable and
 * shareable between threads.  The draw code only asks it for downsampled
 * slices of a time range.
 */
#pragma once

#include <glib.h>
#include "tm-trace.h"

G_BEGIN_DECLS

/* At most this many space layers are stacked; the rest is summed in "Other". */
#define TM_TIMELINE_MAX_SPACES 8

typedef struct _TmTimelineModel TmTimelineModel;

/* What a pause is, for its colour in the pause charts. */
typedef enum {
  TM_PAUSE_YOUNG,        /* a young (minor) collection */
  TM_PAUSE_MIXED,        /* G1 mixed */
  TM_PAUSE_CYCLE,        /* a pause of a concurrent cycle: initial mark, remark, cleanup, ZGC/Shenandoah pauses */
  TM_PAUSE_FULL,         /* a full (major) collection */
  TM_PAUSE_DEGENERATED,  /* Shenandoah finished a cycle stop-the-world */
  TM_PAUSE_OTHER,
  TM_PAUSE_N_CLASSES
} TmPauseClass;

struct _TmTimelineModel {
  /*< private >*/
  gint         ref_count;

  /*< public, read-only >*/
  guint        n_gcs;
  guint64      duration_ns;

  /* Heap spaces stacked bottom (old) to top (young). */
  guint        n_spaces;
  char        *space_names[TM_TIMELINE_MAX_SPACES];
  TmSpaceKind  space_kinds[TM_TIMELINE_MAX_SPACES];

  /* Per GC, index i is GC id i + 1. */
  double      *start_ns;
  double      *end_ns;
  double      *pause_ns;
  guint8      *kind;              /* TmGcKind */
  double      *used_before;
  double      *used_after;
  double      *space_before;      /* [s * n_gcs + i] */
  double      *space_after;
  double      *reachable;         /* NaN where the GC has no graph */
  double      *committed;         /* committed heap after the GC; NaN where not logged */
  guint        n_committed;       /* GCs that log it */
  double      *live_objects;
  double      *overhead;          /* pause / time since the previous GC ended */

  /* The memory sawtooth: 2 vertices per GC (start: before, end: after).
   * layer_top[s * 2 n_gcs + k] is the cumulative size of spaces 0..s. */
  double      *saw_x;
  double      *layer_top;

  /* OutOfMemoryErrors, in time order */
  guint        n_oom;
  double      *oom_ns;

  /* Allocations per interval (from the previous GC's start to this
   * one's: every allocation, short-lived ones included) and heaptrack's
   * temporary allocations in it; the rates drawn as steps, 2 vertices per
   * GC at rate_x (interval start, end), in allocations per second. */
  double      *allocations;
  double      *temporary;
  double      *rate_x;
  double      *alloc_rate;
  double      *temp_rate;
  double       max_alloc_rate;
  guint64      total_allocations;
  guint64      total_temporary;

  guint        n_graphs;
  double       max_memory;
  double       max_objects;
  double       max_overhead;
  double       total_pause_ns;

  /* The timeline has time points, not GCs (heaptrack files): no pauses,
   * no collections, "objects" are blocks allocated and not yet freed. */
  gboolean     time_points;

  /* GC logs: concurrent cycles and phases, stalls, degenerated and full
   * GCs of concurrent collectors (TmTrace.gc_phases), by start time. */
  guint        n_phases;
  double      *phase_start;
  double      *phase_end;
  guint8      *phase_kind;        /* TmGcPhaseKind */
  guint8      *phase_depth;       /* 0 top level, 1+ nested */
  double       max_phase_ns;      /* the longest, for finding the ones in view */
  guint        n_phases_of_kind[TM_GC_PHASE_N_KINDS];

  /* Every stop-the-world pause by start time: the GCs of pause
   * collectors, the single pauses inside ZGC and Shenandoah cycles. */
  guint        n_pauses;
  double      *pause_at;
  double      *pause_len;
  guint8      *pause_class;       /* TmPauseClass */
  guint        n_pauses_of_class[TM_PAUSE_N_CLASSES];
};

TmTimelineModel *tm_timeline_model_new    (const TmTrace *trace);
/* The model of GCs 1..n_gcs only (all if there are fewer): the charts of
 * a trace still being read, whose later snapshots extend it.  Its
 * duration ends with GC n_gcs. */
TmTimelineModel *tm_timeline_model_new_prefix (const TmTrace *trace, guint n_gcs);
TmTimelineModel *tm_timeline_model_ref    (TmTimelineModel *model);
void             tm_timeline_model_unref  (TmTimelineModel *model);

/* The GC nearest to time t (by its start..end span), 1-based; 0 if none. */
guint            tm_timeline_model_gc_at  (const TmTimelineModel *model, double t_ns);

/* GC ids whose span intersects [t0, t1] (first > last when none). */
void             tm_timeline_model_gc_range (const TmTimelineModel *model,
                                             double t0, double t1,
                                             guint *first_gc, guint *last_gc);

/* Peak-keeping pause marks for n_buckets columns over [t0, t1]: per column
 * the longest pause starting in it (0 if none) and whether any of them was
 * a major/full GC. */
void             tm_timeline_model_pause_marks (const TmTimelineModel *model,
                                                double t0, double t1,
                                                guint n_buckets,
                                                double *out_pause_ns,
                                                gboolean *out_major);

/* Numbers of a GC range (inclusive), for the selection summary. */
typedef struct {
  guint   first_gc, last_gc, n_gcs;
  double  start_ns, end_ns;
  double  used_after_first, used_after_last;   /* heap growth = last - first */
  double  reachable_first, reachable_last;     /* NaN if no graph at either end */
  guint   reachable_first_gc, reachable_last_gc;
  double  pause_ns, overhead;                  /* total pause, pause / span */
  double  freed_bytes;                         /* sum of before - after */
  double  live_objects_first, live_objects_last;
  guint   n_major;
} TmRangeStats;

gboolean         tm_timeline_model_range_stats (const TmTimelineModel *model,
                                                guint first_gc, guint last_gc,
                                                TmRangeStats *stats);

/* Fills and frees the phase and pause arrays (tm-timeline-phases.c). */
void             tm_timeline_model_init_phases  (TmTimelineModel *model, const TmTrace *trace);
void             tm_timeline_model_clear_phases (TmTimelineModel *model);

/* First phase (pause) whose span may reach t: scan from here for a view. */
guint            tm_timeline_model_first_phase  (const TmTimelineModel *model, double t_ns);
guint            tm_timeline_model_first_pause  (const TmTimelineModel *model, double t_ns);

/* The phase at time t for a tooltip (-1: none), an index into the
 * model's phases and the trace's gc_phases: a stall or a fallback GC
 * within slack_ns first, then the top-level phase, then the cycle. */
int              tm_timeline_model_phase_at     (const TmTimelineModel *model, double t_ns, double slack_ns);

/* When the first GC, phase or stall starts (0 with none): a GC log
 * knows nothing before it. */
double           tm_timeline_model_first_event  (const TmTimelineModel *model);

/* Translated name of a pause class ("Young", "Full"...). */
const char      *tm_pause_class_label (TmPauseClass c);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmTimelineModel, tm_timeline_model_unref)

G_END_DECLS
