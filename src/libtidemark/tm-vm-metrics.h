/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * VM-level memory metrics over time (Lengauer et al., "VM-Level Memory
 * Monitoring for Resolving Performance Problems", SPLASH 2013): what the
 * program allocates and frees per class, site or thread and GC interval,
 * how long objects live, how many survive and get promoted at each GC, and
 * the floating garbage at GCs with a reference graph.
 *
 * Intervals.  GC g's interval runs from the start of GC g-1 (the trace
 * start for g = 1) to the start of GC g: the objects allocated in it are
 * those allocated after GC_START g-1 and before GC_START g, the objects
 * freed in it are those that died in GC g.  Rates divide by the interval's
 * length.  On heaptrack data a "GC" is a time point.
 *
 * Everything here is a pure function of the immutable TmTrace, safe to run
 * on any thread; the results are immutable.
 */
#pragma once

#include "tm-classify.h"
#include "tm-transactions.h"
#include "tm-heap-cache.h"

G_BEGIN_DECLS

/* ---- allocations and deaths per group and interval ------------------ */

typedef enum {
  TM_ALLOC_SORT_ALLOC_BYTES,     /* bytes allocated over the window */
  TM_ALLOC_SORT_ALLOC_OBJECTS,
  TM_ALLOC_SORT_FREED_BYTES,
  TM_ALLOC_SORT_FREED_OBJECTS,
  TM_ALLOC_SORT_NET_BYTES,       /* allocated - freed bytes */
  TM_ALLOC_N_SORTS
} TmAllocSort;

const char *tm_alloc_sort_to_string   (TmAllocSort sort);   /* "alloc-bytes" */
gboolean    tm_alloc_sort_from_string (const char *name, TmAllocSort *out);

typedef struct {
  guint32       from_gc;        /* window, inclusive, 1-based */
  guint32       to_gc;
  TmClassifier  chain[TM_CLASSIFY_MAX_DEPTH];   /* type, site, call-site or thread */
  guint         depth;          /* >= 1 */
  char         *drill[TM_CLASSIFY_MAX_DEPTH];   /* labels of the groups descended into */
  guint         n_drill;        /* < depth */
} TmAllocRequest;

typedef struct {
  char     *key;                /* group label, "Other" for the rest */
  guint32   key_index;          /* classifier key; G_MAXUINT32 for Other */
  gboolean  is_other;
  /* n_points values each */
  guint64  *alloc_objects;
  guint64  *alloc_bytes;
  guint64  *freed_objects;
  guint64  *freed_bytes;
  /* sums over the window */
  guint64   sum_alloc_objects, sum_alloc_bytes, sum_freed_objects, sum_freed_bytes;
} TmAllocGroup;

typedef struct _TmAllocSeries TmAllocSeries;

struct _TmAllocSeries {
  /*< private >*/
  gint           ref_count;
  /*< public, read-only >*/
  TmAllocRequest request;
  TmClassifier   level;         /* chain[n_drill]: what the groups are */
  guint          n_points;      /* to_gc - from_gc + 1 */
  guint32       *gcs;
  guint64       *end_ns;        /* end of each GC (x axis) */
  guint64       *interval_ns;   /* length of each GC's interval (> 0) */
  TmAllocGroup   total;         /* over every object of the drilled group */
  GPtrArray     *groups;        /* TmAllocGroup*, descending by allocated bytes */
};

void            tm_alloc_request_init  (TmAllocRequest *request);
void            tm_alloc_request_clear (TmAllocRequest *request);
/* "type,site" and the drill path "A/B" as in tm-trend.h */
gboolean        tm_alloc_request_parse (TmAllocRequest *request, const char *chain,
                                        const char *drill, GError **error);

/* TM_ERROR_INVALID_ARGUMENT for a bad window, a classifier that depends
 * on the GC (space, age) or on detection, or a drill label that names no
 * group. */
TmAllocSeries  *tm_alloc_series_compute (TmTrace              *trace,
                                         const TmAllocRequest *request,
                                         GCancellable         *cancellable,
                                         GError              **error);
TmAllocSeries  *tm_alloc_series_ref     (TmAllocSeries *series);
void            tm_alloc_series_unref   (TmAllocSeries *series);

/* The top `top_n` groups by `sort` (ties by label) and, if `with_other`
 * and any group is left, an Other group holding total - shown at every
 * point.  Borrowed pointers into `series` plus one owned Other group:
 * free the array with g_ptr_array_unref (its free func handles both). */
GPtrArray      *tm_alloc_series_select  (TmAllocSeries *series, TmAllocSort sort,
                                         guint top_n, gboolean with_other);
guint64         tm_alloc_group_rank     (const TmAllocGroup *group, TmAllocSort sort);
/* Bytes (or objects) per second of point p. */
double          tm_alloc_series_rate    (const TmAllocSeries *series, const guint64 *values, guint p);

/* ---- lifetimes ------------------------------------------------------ */

/* Age-at-death buckets in GCs survived: 0 (died at its first GC), 1, 2,
 * 3-4, 5-8, 9-16, 17-32, 33+. */
#define TM_LIFETIME_GC_BUCKETS 8
/* In seconds from (estimated) allocation to the GC that collected it:
 * < 1 ms, < 10 ms, < 100 ms, < 1 s, < 10 s, < 100 s, longer. */
#define TM_LIFETIME_TIME_BUCKETS 7

const char *tm_lifetime_gc_bucket_label   (guint bucket);   /* "3-4" */
const char *tm_lifetime_time_bucket_label (guint bucket);   /* "< 10 ms" */
guint       tm_lifetime_gc_bucket         (guint32 gcs_survived);
/* (inline, as the next: the loader folds millions of short-lived objects) */
static inline guint
tm_lifetime_time_bucket (guint64 age_ns)
{
  guint64 limit = 1000000;   /* 1 ms, then 10 ms, ... */

  for (guint b = 0; b < TM_LIFETIME_TIME_BUCKETS - 1; b++, limit *= 10)
    if (age_ns < limit)
      return b;
  return TM_LIFETIME_TIME_BUCKETS - 1;
}
/* The n allocations of an interval spread evenly over [t0_ns, t1_ns]:
 * the invariants of the estimate, computed once for a loop over them. */
typedef struct {
  guint64  t0_ns;
  double   span, count;
  gboolean flat;
} TmBirths;

static inline TmBirths
tm_births_new (guint64 t0_ns, guint64 t1_ns, guint64 n)
{
  return (TmBirths) { t0_ns, (double) (t1_ns - t0_ns), (double) n, t1_ns <= t0_ns || n == 0 };
}

/* Estimated allocation time of the k-th of them (k < 2^63). */
static inline guint64
tm_births_at (const TmBirths *bt, guint64 k)
{
  /* signed: the cheaper conversion, exact alike below 2^63 */
  return bt->flat ? bt->t0_ns : bt->t0_ns + (guint64) (bt->span * (double) (gint64) k / bt->count);
}

/* Estimated allocation time of allocation number `seq` of an interval
 * whose allocations [lo_seq, hi_seq) spread evenly over [t0_ns, t1_ns]. */
static inline guint64
tm_lifetime_birth_ns (guint64 seq, guint64 lo_seq, guint64 hi_seq, guint64 t0_ns, guint64 t1_ns)
{
  TmBirths bt = tm_births_new (t0_ns, t1_ns, hi_seq > lo_seq ? hi_seq - lo_seq : 0);

  return tm_births_at (&bt, seq - lo_seq);
}

typedef struct {
  char     *key;
  guint32   key_index;
  guint64   died_objects, died_bytes;             /* died in the window */
  guint64   by_gcs_objects[TM_LIFETIME_GC_BUCKETS];
  guint64   by_gcs_bytes[TM_LIFETIME_GC_BUCKETS];
  guint64   by_time_objects[TM_LIFETIME_TIME_BUCKETS];
  double    mean_gcs;                             /* mean GCs survived */
  double    mean_seconds;
  guint64   long_lived_objects, long_lived_bytes; /* survived >= long_lived_gcs */
} TmLifetimeGroup;

typedef struct {
  guint32    from_gc, to_gc;
  TmClassifier classifier;
  guint32    long_lived_gcs;   /* threshold of "long-lived but eventually dead" */
  TmLifetimeGroup total;
  /* allocated in the window's intervals, and of those died at their first GC */
  guint64    born_objects, born_bytes, died_young_objects, died_young_bytes;
  GPtrArray *groups;           /* TmLifetimeGroup*, descending by died bytes */
} TmLifetimes;

/* Objects that died in GCs from_gc..to_gc, grouped by one GC-independent
 * classifier.  Birth times are estimated by spreading each interval's
 * allocations evenly over the time between the GCs around it. */
TmLifetimes *tm_lifetimes_compute (TmTrace *trace, guint32 from_gc, guint32 to_gc,
                                   TmClassifier classifier, guint32 long_lived_gcs,
                                   GCancellable *cancellable, GError **error);
void         tm_lifetimes_free    (TmLifetimes *lifetimes);

/* ---- survival and promotion per GC --------------------------------- */

/* Ages after a GC in GCs survived: 1..15 and "16 or more" (HotSpot's
 * largest tenuring threshold is 15). */
#define TM_SURVIVAL_AGES 16

/* Promotion is measured as the growth of the old spaces across a young
 * GC (which does not collect them), as GC-log tools do; it needs per-space
 * usage.  Recorders do not write per-object MOVES today. */
typedef enum {
  TM_PROMOTION_UNKNOWN,        /* no old space in the trace */
  TM_PROMOTION_FROM_USAGE,     /* growth of the old spaces across young GCs */
} TmPromotionSource;

typedef struct {
  guint32  gc;
  guint64  survived_objects, survived_bytes;   /* allocated in its interval, alive after it */
  guint64  live_objects, live_bytes;           /* everything alive after it */
  gboolean promoted_known;
  guint64  promoted_bytes;
  guint64  age_objects[TM_SURVIVAL_AGES];      /* alive after it, by GCs survived */
  guint64  age_bytes[TM_SURVIVAL_AGES];
} TmSurvivalPoint;

typedef struct {
  guint32            from_gc, to_gc;
  TmPromotionSource  promotion_source;
  GArray            *points;   /* TmSurvivalPoint, one per GC of the window */
} TmSurvival;

TmSurvival  *tm_survival_compute (TmTrace *trace, guint32 from_gc, guint32 to_gc,
                                  GCancellable *cancellable, GError **error);
void         tm_survival_free    (TmSurvival *survival);
const char  *tm_promotion_source_to_string (TmPromotionSource source);

/* ---- floating garbage ----------------------------------------------- */

/* Per graph GC: objects the trace still lists as alive after the GC that
 * no root reaches in its reference graph (dead, but kept by the collector
 * until a space it did not collect is collected).  Needs a recorded trace
 * with reference graphs and recorded deaths: without recorded deaths the
 * reader itself decides deaths from the graphs, so there is none by
 * construction (TM_ERROR_NO_GRAPH / TM_ERROR_INVALID_ARGUMENT, with a
 * message saying so). */
typedef struct {
  guint32  gc;
  guint64  live_objects, live_bytes;
  guint64  floating_objects, floating_bytes;
} TmFloatingPoint;

gboolean     tm_floating_garbage_supported (const TmTrace *trace, GError **error);
/* The series over the window's graph GCs (from the model's per-GC
 * reachable totals: no graph is re-read). */
GArray      *tm_floating_garbage_series    (TmTrace *trace, guint32 from_gc, guint32 to_gc,
                                            GError **error);

typedef struct {
  char    *key;
  guint64  objects, bytes;
} TmFloatingGroup;

/* Breakdown at one graph GC by a classifier (type, site, thread, space
 * ...): marks that GC's graph (the heap state of `heaps`).  Groups
 * descending by bytes. */
GPtrArray   *tm_floating_garbage_breakdown (TmHeapCache *heaps, guint32 gc_id, TmClassifier classifier,
                                            GCancellable *cancellable, GError **error);

/* ---- everything of a window at once (the app's Allocations view) ---- */

typedef struct _TmChurn TmChurn;   /* tm-churn.h */

typedef struct {
  guint32        from_gc, to_gc;
  TmClassifier   classifier;
  TmAllocSeries *allocs;                 /* by `classifier` */
  TmLifetimes   *lifetimes;              /* by `classifier`, long-lived = 8 GCs */
  TmChurn       *churn;                  /* short-lived objects by `classifier` */
  TmSurvival    *survival;
  GArray        *floating;               /* TmFloatingPoint, or NULL: */
  char          *floating_unavailable;   /*   why not */
  TmTxReport    *transactions;           /* or NULL: */
  char          *transactions_unavailable;
} TmVmMetrics;

TmVmMetrics *tm_vm_metrics_compute (TmTrace *trace, guint32 from_gc, guint32 to_gc, TmClassifier classifier,
                                    GCancellable *cancellable, GError **error);
void         tm_vm_metrics_free    (TmVmMetrics *metrics);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmAllocSeries, tm_alloc_series_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmLifetimes, tm_lifetimes_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmSurvival, tm_survival_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmVmMetrics, tm_vm_metrics_free)

G_END_DECLS
