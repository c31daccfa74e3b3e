/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Suspicious time windows (Weninger et al., "Detection of Suspicious Time
 * Windows in Memory Monitoring", MPLR 2019): memory leaks, high GC
 * overhead and high memory churn, found without the user's help.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef enum {
  TM_WINDOW_LEAK,             /* longest growth window (heuristic) */
  TM_WINDOW_LEAK_PEAK,        /* its fastest-growing subwindow */
  TM_WINDOW_LEAK_REGRESSION,  /* steepest linear regression window */
  TM_WINDOW_GC_OVERHEAD,
  TM_WINDOW_CHURN,
  TM_WINDOW_N_KINDS
} TmWindowKind;

typedef struct {
  /* leak */
  double   leak_min_coverage;        /* 0.10: window must cover >= 10% of GCs */
  double   leak_tolerance;           /* 0.75: a point >= 75% of the max so far is tolerated */
  double   leak_peak_min_fraction;   /* 0.10 */
  double   leak_peak_max_fraction;   /* 0.50 */
  double   leak_regression_start;    /* 0.10: the last 10% of GCs */
  /* GC overhead */
  guint    overhead_min_gcs;         /* 5 */
  guint    overhead_max_gcs;         /* 50 */
  double   overhead_threshold;       /* 0.10 */
  /* churn */
  guint    churn_min_gcs;            /* 5 */
  guint    churn_max_gcs;            /* 50 */
  double   churn_median_factor;      /* see tm-windows.c for the rule */
  double   churn_min_bytes_per_s;    /* absolute floor */
  /* added to the first contract (docs/windows.md) */
  double   leak_min_growth;          /* 0.10: a leak window must grow by >= 10% of its start value */
  guint    leak_min_points;          /* 5: fewest graphs (or full/mixed GCs) to base leak detection on them */
  double   leak_regression_slack;    /* 0.10: longest window with a slope >= 90% of the steepest (0: the paper's steepest) */
  /* real runs (docs/windows.md, "Real runs"); tm_window_params_init_paper() turns them off */
  guint    min_evidence;             /* 15: fewest leak-series points (leaks) or GCs (churn) to judge at all */
  guint    min_graph_evidence;       /* 10: working graphs that suffice for growth on reachable memory with fewer GCs */
  double   teardown_min_drop;        /* 0.50: a final drop to <= 50% of the peak before it ... (0: off) */
  double   teardown_max_fraction;    /* 0.10: ... within the last 10% of the points and of the time is teardown */
  double   leak_continue_ratio;      /* 0.25: the window's last third grows >= 25% as fast as the whole (0: off) */
  double   backlog_old_fraction;     /* 0.20: a leak if objects born in the window's first half hold >= 20% of its growth */
  gboolean churn_count_median;       /* FALSE: time-weighted median baseline; TRUE: median of windows (first version) */
  gboolean churn_all_freed;          /* FALSE: per GC, freed bytes up to what was allocated since the previous GC;
                                      * TRUE: all freed bytes (paper) */
} TmWindowParams;

typedef struct {
  TmWindowKind kind;
  guint32      first_gc;      /* 1-based GC ids, inclusive */
  guint32      last_gc;
  guint64      start_ns;
  guint64      end_ns;
  double       score;         /* bytes/s for leak and churn, fraction for overhead */
  const char  *unit;          /* "bytes/s" or "fraction" */
  gboolean     suspicious;    /* above its threshold */
  char        *explanation;   /* plain language, with numbers and the next step */
  /* added to the first contract */
  const char  *series;        /* leak kinds: "reachable", "full-gc-occupancy" or "occupancy"; else NULL */
  double       value_start;   /* leak kinds: series bytes at first_gc / last_gc (fitted for */
  double       value_end;     /*   leak-regression); 0 for the others */
  double       amount;        /* gc-overhead: pause ns in the window; churn: freed bytes; leak: 0 */
  double       threshold;     /* score needed to be suspicious (gc-overhead, churn); NAN for leak kinds */
  const char  *growth;        /* leak kinds: "leak", "backlog" or "warm-up"; NULL without a verdict */
  guint32      plateau_gc;    /* warm-up: the GC from which memory stayed flat; else 0 */
} TmWindow;

void        tm_window_params_init     (TmWindowParams *params);
/* The paper's rules: no teardown, no minimum evidence beyond the
 * searches' own, no continuation test, the median-of-windows churn
 * baseline (the thresholds Tidemark adds to the paper stay). */
void        tm_window_params_init_paper (TmWindowParams *params);
/* Returns TmWindow* (free with tm_window_free), suspicious ones first,
 * then by kind; when all == FALSE only suspicious ones are returned.
 * params may be NULL for the defaults.  Under 1 ms for 700 GCs, about
 * 0.2 s for 10^6 (tests/bench/RESULTS.md); reads only the GC timeline. */
GPtrArray  *tm_windows_detect         (const TmTrace        *trace,
                                       const TmWindowParams *params,
                                       gboolean              all);
const char *tm_window_kind_to_string  (TmWindowKind kind);
/* "reachable memory", "heap occupancy after whole-heap GCs", ...: what
 * the leak windows of this trace are computed on (NULL if none). */
const char *tm_windows_leak_series_label (const TmTrace        *trace,
                                          const TmWindowParams *params);
/* Why the windows say less than they could, or NULL: too little data to
 * judge growth or churn ("4 GCs: too few to judge growth"), and where
 * the run effectively ended (teardown at exit).  Free with g_free. */
char       *tm_windows_evidence_note  (const TmTrace        *trace,
                                       const TmWindowParams *params);
void        tm_window_free            (TmWindow *window);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmWindow, tm_window_free)

G_END_DECLS
