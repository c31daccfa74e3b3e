/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TrendViz (AntTracks TrendViz, ICPE 2019 companion): object groups over
 * time.  Over a window of GCs, the live objects at each classified GC are
 * grouped by a classifier chain; one series per group at the requested
 * level (level 1, or the children of a drilled-down group).
 *
 * Shallow metrics (objects, bytes) of GC-independent classifiers come
 * from ONE pass over the object records: each object adds its size to its
 * group at its birth and removes it at its death (difference arrays over
 * the classified GCs, then a prefix sum).  Deep and retained metrics, and
 * the `age` classifier, classify each GC's heap state (TmClassTree); deep
 * and retained only at GCs with a reference graph.
 *
 * A TmTrend is immutable once returned (partial snapshots included), so
 * it can be handed from a worker to the main thread whole.  Sorting and
 * top-N selection (tm_trend_select) are cheap views over it, so every
 * chart can keep its own settings on one computation.
 */
#pragma once

#include "tm-classify-chain.h"
#include "tm-heap-cache.h"

G_BEGIN_DECLS

typedef enum {
  TM_TREND_METRIC_OBJECTS,
  TM_TREND_METRIC_BYTES,
  TM_TREND_METRIC_DEEP_OBJECTS,
  TM_TREND_METRIC_DEEP_BYTES,
  TM_TREND_METRIC_RETAINED_OBJECTS,
  TM_TREND_METRIC_RETAINED_BYTES,
  TM_TREND_N_METRICS
} TmTrendMetric;

typedef enum {
  TM_TREND_SORT_START,       /* value at the first classified GC */
  TM_TREND_SORT_END,         /* value at the last */
  TM_TREND_SORT_AVERAGE,     /* mean over the classified GCs */
  TM_TREND_SORT_ABS_GROWTH,  /* last - first */
  TM_TREND_SORT_REL_GROWTH,  /* (last - first) / first; from 0 counts as infinite */
  TM_TREND_N_SORTS
} TmTrendSort;

#define TM_TREND_DEFAULT_SORT TM_TREND_SORT_ABS_GROWTH
#define TM_TREND_DEFAULT_TOP  5

typedef struct {
  guint32       from_gc;            /* window, inclusive, 1-based */
  guint32       to_gc;
  /* Built-in or data-structure classifiers (tm-classify-chain.h).  With
   * a data-structure classifier among the levels used (0..n_drill),
   * only GCs with a graph are classified, each through its tree. */
  TmClassifier  chain[TM_CLASSIFY_MAX_DEPTH];
  guint         depth;              /* >= 1 */
  /* Drill-down: labels of the groups to descend into, one per level;
   * the series are then that group's children under chain[n_drill].
   * n_drill < depth. */
  char         *drill[TM_CLASSIFY_MAX_DEPTH];
  guint         n_drill;
  TmTrendMetric metric;
  guint         every;              /* classify every n-th GC of the window (>= 1) */
  guint64       interval_ns;        /* > 0: instead, the next GC ending at least this long after the last classified one */
} TmTrendRequest;

void        tm_trend_request_init  (TmTrendRequest *request);
void        tm_trend_request_clear (TmTrendRequest *request);
void        tm_trend_request_copy  (TmTrendRequest *dest, const TmTrendRequest *src);
/* TRUE when a level used by the request (0..n_drill) is a data-structure one. */
gboolean    tm_trend_request_uses_ds (const TmTrendRequest *request);
/* Data-structure or root-path levels: only GCs with a graph count. */
gboolean    tm_trend_request_needs_graph (const TmTrendRequest *request);
/* Parses "A/B/C" into the drill labels; "\/" is a '/' inside a key and
 * "\\" a backslash. */
gboolean    tm_trend_request_set_drill (TmTrendRequest *request, const char *path, GError **error);
/* Appends one label to the drill path and, if needed, nothing else:
 * the chain must already have a level below it (TM_ERROR_INVALID_ARGUMENT). */
gboolean    tm_trend_request_push_drill (TmTrendRequest *request, const char *label, GError **error);

const char *tm_trend_metric_to_string   (TmTrendMetric metric);   /* "retained-bytes" */
gboolean    tm_trend_metric_from_string (const char *name, TmTrendMetric *out);
gboolean    tm_trend_metric_is_bytes    (TmTrendMetric metric);
gboolean    tm_trend_metric_needs_graph (TmTrendMetric metric);
const char *tm_trend_sort_to_string     (TmTrendSort sort);       /* "abs-growth" */
gboolean    tm_trend_sort_from_string   (const char *name, TmTrendSort *out);

/* The GCs a request classifies (ascending ids): the window's GCs, every
 * n-th or by interval, and only GCs with a graph when the metric needs
 * one or a data-structure level is used.  Empty array when none qualifies. */
GArray     *tm_trend_plan_gcs      (const TmTrace *trace, const TmTrendRequest *request);

typedef struct {
  char     *key;          /* group label (classifier key label); "Other" for the other series */
  guint32   key_index;    /* classifier key (data-structure levels: the structure
                           * index at the first GC it was seen); G_MAXUINT32 for Other */
  double   *values;       /* n_points */
  gboolean  is_other;
} TmTrendSeries;

typedef struct _TmTrend TmTrend;

struct _TmTrend {
  /*< private >*/
  gint            ref_count;
  /*< public, read-only >*/
  TmTrace        *trace;
  TmTrendRequest  request;
  TmClassifier    level_classifier;   /* chain[n_drill]: what the series group by */
  guint           n_points;           /* classified GCs so far */
  guint           n_planned;          /* classified GCs when complete */
  guint32        *gcs;                /* n_points GC ids */
  guint64        *times_ns;           /* n_points: end of each classified GC */
  double         *total;              /* n_points: sum over all groups */
  GPtrArray      *groups;             /* TmTrendSeries*, every group, descending by last value */
  gboolean        complete;           /* n_points == n_planned */
};

TmTrend    *tm_trend_ref           (TmTrend *trend);
void        tm_trend_unref         (TmTrend *trend);

/* Called on the worker thread with an immutable snapshot after each
 * classified GC (per-GC path) or once (one-pass path). */
typedef void (*TmTrendPartialFunc) (TmTrend *partial, gpointer user_data);

/* Synchronous (for a worker).  TM_ERROR_NO_GRAPH when the metric needs a
 * graph and no GC of the window has one; TM_ERROR_INVALID_ARGUMENT for a
 * bad window or a drill label that names no group at any classified GC. */
TmTrend    *tm_trend_compute       (TmTrace              *trace,
                                    const TmTrendRequest *request,
                                    TmTrendPartialFunc    partial,
                                    gpointer              partial_data,
                                    GCancellable         *cancellable,
                                    GError              **error);

/* The same, taking the heap states and data-structure detections of the
 * per-GC path from `heaps` (the trace's cache; they stay there for the
 * next computation).  tm_trend_compute: built for this computation, with
 * the shipped descriptions, and dropped. */
TmTrend    *tm_trend_compute_cached (TmTrace              *trace,
                                     const TmTrendRequest *request,
                                     TmHeapCache          *heaps,
                                     TmTrendPartialFunc    partial,
                                     gpointer              partial_data,
                                     GCancellable         *cancellable,
                                     GError              **error);

/* Ranking value of a series under a sort strategy. */
double      tm_trend_series_rank_value (const TmTrend *trend, const TmTrendSeries *series, TmTrendSort sort);

/* The series to show: the top `top_n` groups by `sort` (descending, ties
 * by label), then, if `with_other` and any group is left, an "Other"
 * series whose value at every point is total - the shown ones.  Returns
 * copies (TmTrendSeries*, freed with the array), n_points values each. */
GPtrArray  *tm_trend_select        (TmTrend     *trend,
                                    TmTrendSort  sort,
                                    guint        top_n,
                                    gboolean     with_other);

TmTrendSeries *tm_trend_series_copy (const TmTrendSeries *series, guint n_points);
void        tm_trend_series_free   (TmTrendSeries *series);

/* CSV of the shown series: a header "gc,time_ns,KEY...,total", then one
 * row per classified GC (keys quoted when they hold , " or newlines). */
char       *tm_trend_to_csv        (TmTrend *trend, GPtrArray *shown);

/* Group series by label, or NULL. */
const TmTrendSeries *tm_trend_find_group (TmTrend *trend, const char *key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmTrend, tm_trend_unref)

G_END_DECLS
