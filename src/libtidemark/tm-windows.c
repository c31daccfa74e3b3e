/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Suspicious time windows of a trace (MPLR 2019, section 3): picks the
 * series each detector runs on, finds where the run effectively ends,
 * runs the searches of tm-windows-search.c, checks the evidence rules of
 * tm-windows-evidence.c and explains the results in the words of the
 * recording's source.  Rules: docs/windows.md.
 */
#include "tm-windows.h"
#include "tm-windows-private.h"
#include "tm-format-util.h"
#include "tm-heap-graph.h"
#include "tm-native-bytes.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Churn rule (docs/windows.md): a window is a churn hotspot when its
 * freed-bytes rate is at least 3x the time-weighted median rate of the
 * windows with the same number of GCs, and at least 1 MiB/s.  A steady
 * program's windows stay within a small factor of it; a phase with several
 * times the allocation rate stands out against it even when it holds most
 * of the GCs; the floor keeps programs that barely allocate from being
 * flagged for relative noise. */
#define CHURN_MEDIAN_FACTOR   3.0
#define CHURN_MIN_BYTES_PER_S (1024.0 * 1024.0)

void
tm_window_params_init (TmWindowParams *params)
{
  g_return_if_fail (params != NULL);

  memset (params, 0, sizeof *params);
  params->leak_min_coverage = 0.10;
  params->leak_tolerance = 0.75;
  params->leak_peak_min_fraction = 0.10;
  params->leak_peak_max_fraction = 0.50;
  params->leak_regression_start = 0.10;
  params->overhead_min_gcs = 5;
  params->overhead_max_gcs = 50;
  params->overhead_threshold = 0.10;
  params->churn_min_gcs = 5;
  params->churn_max_gcs = 50;
  params->churn_median_factor = CHURN_MEDIAN_FACTOR;
  params->churn_min_bytes_per_s = CHURN_MIN_BYTES_PER_S;
  params->leak_min_growth = 0.10;
  params->leak_min_points = 5;
  params->leak_regression_slack = 0.10;
  /* real runs: docs/windows.md gives the reason for each number */
  params->min_evidence = 15;
  params->min_graph_evidence = 10;
  params->teardown_min_drop = 0.50;
  params->teardown_max_fraction = 0.10;
  params->leak_continue_ratio = 0.25;
  params->backlog_old_fraction = 0.20;
  params->churn_count_median = FALSE;
}

void
tm_window_params_init_paper (TmWindowParams *params)
{
  tm_window_params_init (params);
  params->min_evidence = 0;
  params->min_graph_evidence = 0;
  params->teardown_min_drop = 0;
  params->leak_continue_ratio = 0;
  params->backlog_old_fraction = 0;
  params->churn_count_median = TRUE;
  params->churn_all_freed = TRUE;
}

const char *
tm_window_kind_to_string (TmWindowKind kind)
{
  switch (kind)
    {
    case TM_WINDOW_LEAK:            return "leak";
    case TM_WINDOW_LEAK_PEAK:       return "leak-peak";
    case TM_WINDOW_LEAK_REGRESSION: return "leak-regression";
    case TM_WINDOW_GC_OVERHEAD:     return "gc-overhead";
    case TM_WINDOW_CHURN:           return "churn";
    case TM_WINDOW_N_KINDS:
    default:                        return "unknown";
    }
}

void
tm_window_free (TmWindow *window)
{
  if (window == NULL)
    return;
  g_free (window->explanation);
  g_free (window);
}

/* ---- the series ---- */

typedef enum {
  SERIES_REACHABLE,
  SERIES_FULL_GC,
  SERIES_OCCUPANCY,
} SeriesKind;

static const char *series_ids[] = { "reachable", "full-gc-occupancy", "occupancy" };

/* The words of the recording's source: a JVM trace has GCs and heap
 * occupancy, a GC log has full collections, heaptrack has time points and
 * the heap in use (malloc'ed and not yet freed: no garbage in it). */
typedef enum { SOURCE_JVM, SOURCE_GC_LOG, SOURCE_HEAPTRACK, SOURCE_HPROF } Source;

typedef struct {
  Source      source;
  const char *gc;        /* "GC", "time point" */
  const char *gcs;       /* "GCs", "time points" */
  const char *labels[3]; /* per SeriesKind, lower case */
  const char *titles[3];
  const char *kept;      /* what a leak does: "objects are being kept alive" */
  const char *groups;    /* what trend shows grow */
} Vocab;

static const Vocab vocabs[] = {
  { SOURCE_JVM, N_("GC"), N_("GCs"),
    { N_("reachable memory"), N_("heap occupancy after whole-heap GCs"), N_("heap occupancy after GC") },
    { N_("Reachable memory"), N_("Heap occupancy after whole-heap GCs"), N_("Heap occupancy after GC") },
    N_("objects are being kept alive"), N_("the object groups that grow") },
  { SOURCE_GC_LOG, N_("GC"), N_("GCs"),
    { N_("reachable memory"), N_("occupancy after full collections"), N_("heap occupancy after GC") },
    { N_("Reachable memory"), N_("Occupancy after full collections"), N_("Heap occupancy after GC") },
    N_("objects are being kept alive"), N_("the object groups that grow") },
  { SOURCE_HEAPTRACK, N_("time point"), N_("time points"),
    { N_("reachable memory"), N_("heap in use"), N_("heap in use") },
    { N_("Reachable memory"), N_("Heap in use"), N_("Heap in use") },
    N_("blocks are allocated and not freed"), N_("the call stacks whose allocations grow") },
  /* HPROF files: each heap state is a dump (after the full GC a dump
   * tool runs first), with its reference graph */
  { SOURCE_HPROF, N_("heap dump"), N_("heap dumps"),
    { N_("reachable memory"), N_("heap occupancy after whole-heap GCs"), N_("heap occupancy after GC") },
    { N_("Reachable memory"), N_("Heap occupancy after whole-heap GCs"), N_("Heap occupancy after GC") },
    N_("objects are being kept alive"), N_("the object groups that grow") },
};

static const Vocab *
vocab_for (const TmTrace *trace)
{
  if (g_strcmp0 (trace->format, "gc-log") == 0)
    return &vocabs[SOURCE_GC_LOG];
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    return &vocabs[SOURCE_HEAPTRACK];
  if (tm_trace_is_heap_dumps (trace))
    return &vocabs[SOURCE_HPROF];
  return &vocabs[SOURCE_JVM];
}

/* The complete GCs in order, copied once from the trace's large TmGc
 * records into compact arrays that every detector then scans. */
typedef struct {
  gsize     n;
  guint64  *bounds;   /* n + 1: 0 (the run's start), then each GC's end */
  guint64  *pause;    /* clamped to the time since the previous bound; 0 if a tool forced the GC */
  guint64  *tool_pause;  /* the pause of a GC a tool forced, else 0 */
  guint64  *freed;
  guint64  *fresh;    /* freed, up to what was allocated since the previous GC */
  guint64  *after;    /* used_after */
  guint64  *reach;    /* reachable_bytes, valid with TL_GRAPH */
  guint32  *ids;
  guint8   *flags;
  guint     n_graphs;
  guint     n_post_mortem;  /* graphs left out: taken after the main thread ended */
  guint     n_full;
} Timeline;

enum { TL_GRAPH = 1, TL_FULL = 2 };

static inline guint64
clamp_coord (guint64 x)
{
  return MIN (x, TM_WINDOWS_MAX_COORD - 1);
}

/* A collection that looks at the whole heap, so occupancy after it is
 * close to the live data: full and mixed GCs, and the cycles of ZGC and
 * Shenandoah, which are concurrent but always cover the whole heap, when
 * they show what they freed.  The recorder writes a Shenandoah cycle with
 * the heap's use at one moment, the same before and after: that is the
 * live data plus whatever garbage there was (a batch job's sawtooth of
 * 6 to 137 MiB read as a leak of 41 MiB/s). */
static gboolean
is_full (const TmGc *gc)
{
  if (gc->kind == TM_GC_KIND_MAJOR || gc->kind == TM_GC_KIND_MIXED)
    return TRUE;
  return gc->kind == TM_GC_KIND_CONCURRENT && gc->used_before > gc->used_after
         && (g_str_has_prefix (gc->collector, "ZGC") || g_str_has_prefix (gc->collector, "Shenandoah"));
}

/* A collection a tool forced through JVMTI: Tidemark's recorder forces
 * one when the program has not collected for a while (to take a graph),
 * and profilers do on request.  Its pause is the recording's cost, not
 * the program's: a forced full GC of a 65 MiB heap took 168 ms and alone
 * made a 2 s window of a quiet program's warm-up 12.5% GC overhead. */
static gboolean
tool_forced (const TmGc *gc)
{
  return g_strcmp0 (gc->cause, "JvmtiEnv ForceGarbageCollection") == 0;
}

/* A graph of the program's working state: graphs taken after its main
 * thread ended (post-mortem) are not (trace-format.md, GRAPH_CONTEXT). */
static gboolean
working_graph (const TmGc *gc)
{
  return gc->has_graph && gc->graph_context != TM_GRAPH_POST_MORTEM;
}

static void
timeline_build (const TmTrace *trace, Timeline *tl)
{
  guint len = trace->gcs->len;
  gsize cap = MAX (len, 1);
  guint64 prev_after = 0;
  g_autofree guint64 *native_freed = NULL, *native_alloc = NULL;

  /* heaptrack sees every free() where it happens: churn is the bytes
   * freed between points, not the drop from an interval's peak in use,
   * which a program that frees one block and allocates the next never
   * shows (1 GB/s of 512-byte malloc/free pairs: a few KiB per point) */
  if (tm_trace_sees_frees (trace))
    {
      native_freed = g_new (guint64, cap);
      native_alloc = g_new (guint64, cap);
      tm_native_bytes_per_interval (trace, native_freed, native_alloc);
    }

  tl->n = 0;
  tl->n_graphs = tl->n_full = tl->n_post_mortem = 0;
  tl->bounds = g_new (guint64, cap + 1);
  tl->pause = g_new (guint64, cap);
  tl->tool_pause = g_new (guint64, cap);
  tl->freed = g_new (guint64, cap);
  tl->fresh = g_new (guint64, cap);
  tl->after = g_new (guint64, cap);
  tl->reach = g_new (guint64, cap);
  tl->ids = g_new (guint32, cap);
  tl->flags = g_new (guint8, cap);
  tl->bounds[0] = 0;

  for (guint i = 0; i < len; i++)
    {
      const TmGc *gc = &g_array_index (trace->gcs, TmGc, i);
      guint64 prev = tl->bounds[tl->n];
      guint64 end = clamp_coord (gc->end_ns);
      gsize k = tl->n;

      /* a GC ending before the previous one is damage: skip it */
      if (!gc->complete || end < prev)
        continue;
      tl->bounds[k + 1] = end;
      tl->pause[k] = MIN (gc->pause_ns, end - prev);
      tl->tool_pause[k] = tool_forced (gc) ? tl->pause[k] : 0;
      tl->pause[k] -= tl->tool_pause[k];
      tl->freed[k] = clamp_coord (gc->used_before > gc->used_after ? gc->used_before - gc->used_after : 0);
      tl->fresh[k] = MIN (tl->freed[k], clamp_coord (gc->used_before > prev_after ? gc->used_before - prev_after : 0));
      if (native_freed)
        {
          tl->freed[k] = clamp_coord (native_freed[i]);
          tl->fresh[k] = MIN (tl->freed[k], clamp_coord (native_alloc[i]));
        }
      prev_after = gc->used_after;
      tl->after[k] = clamp_coord (gc->used_after);
      tl->reach[k] = clamp_coord (gc->reachable_bytes);
      tl->ids[k] = gc->id;
      tl->flags[k] = (working_graph (gc) ? TL_GRAPH : 0) | (is_full (gc) ? TL_FULL : 0);
      tl->n_graphs += working_graph (gc) ? 1 : 0;
      tl->n_post_mortem += gc->has_graph && !working_graph (gc) ? 1 : 0;
      tl->n_full += is_full (gc) ? 1 : 0;
      tl->n++;
    }
}

static void
timeline_clear (Timeline *tl)
{
  g_clear_pointer (&tl->bounds, g_free);
  g_clear_pointer (&tl->pause, g_free);
  g_clear_pointer (&tl->tool_pause, g_free);
  g_clear_pointer (&tl->freed, g_free);
  g_clear_pointer (&tl->fresh, g_free);
  g_clear_pointer (&tl->after, g_free);
  g_clear_pointer (&tl->reach, g_free);
  g_clear_pointer (&tl->ids, g_free);
  g_clear_pointer (&tl->flags, g_free);
}

/* Graphs first, then occupancy after full/mixed GCs, then after all GCs:
 * the first with leak_min_points complete GCs (the last always wins). */
static SeriesKind
choose_series (guint n_graphs, guint n_full, const TmWindowParams *params)
{
  if (n_graphs >= MAX (params->leak_min_points, 2))
    return SERIES_REACHABLE;
  if (n_full >= MAX (params->leak_min_points, 2))
    return SERIES_FULL_GC;
  return SERIES_OCCUPANCY;
}

typedef struct {
  SeriesKind     kind;
  gsize          n;
  TmSeriesPoint *points;
  guint32       *gc_ids;   /* parallel to points */
} LeakSeries;

static void
leak_series_clear (LeakSeries *s)
{
  g_clear_pointer (&s->points, g_free);
  g_clear_pointer (&s->gc_ids, g_free);
}

static void
leak_series_build (const Timeline *tl, const TmWindowParams *params, LeakSeries *s)
{
  guint8 need;

  s->kind = choose_series (tl->n_graphs, tl->n_full, params);
  need = s->kind == SERIES_REACHABLE ? TL_GRAPH : s->kind == SERIES_FULL_GC ? TL_FULL : 0;
  s->n = 0;
  s->points = g_new (TmSeriesPoint, MAX (tl->n, 1));
  s->gc_ids = g_new (guint32, MAX (tl->n, 1));

  for (gsize k = 0; k < tl->n; k++)
    {
      guint64 t = tl->bounds[k + 1];

      if ((tl->flags[k] & need) != need)
        continue;
      /* times must rise strictly: of GCs ending together keep the first */
      if (s->n > 0 && t <= s->points[s->n - 1].time_ns)
        continue;
      s->points[s->n].time_ns = t;
      s->points[s->n].value = s->kind == SERIES_REACHABLE ? tl->reach[k] : tl->after[k];
      s->gc_ids[s->n] = tl->ids[k];
      s->n++;
    }
}

const char *
tm_windows_leak_series_label (const TmTrace        *trace,
                              const TmWindowParams *params)
{
  TmWindowParams defaults;

  g_return_val_if_fail (trace != NULL, NULL);
  if (params == NULL)
    {
      tm_window_params_init (&defaults);
      params = &defaults;
    }
  {
    guint graphs = 0, full = 0;

    for (guint i = 0; i < trace->gcs->len; i++)
      {
        const TmGc *gc = &g_array_index (trace->gcs, TmGc, i);

        if (gc->complete)
          {
            graphs += working_graph (gc) ? 1 : 0;
            full += is_full (gc) ? 1 : 0;
          }
      }
    return _(vocab_for (trace)->labels[choose_series (graphs, full, params)]);
  }
}

/* ---- explanations ---- */

/* Why the leak series is only a stand-in for reachable memory. */
static char *
series_caveat (const TmTrace *trace, SeriesKind kind, const TmWindowParams *params)
{
  gboolean gc_log = g_strcmp0 (trace->format, "gc-log") == 0;
  g_autofree char *graphs = NULL;

  /* heaptrack's heap in use is what was allocated and not freed: exact,
   * no garbage, and there are no reference graphs to record */
  if (kind == SERIES_REACHABLE || vocab_for (trace)->source == SOURCE_HEAPTRACK)
    return g_strdup ("");
  if (gc_log)
    return g_strdup (kind == SERIES_FULL_GC
      ? _(" This comes from a GC log, which has no reference graphs: occupancy after full collections"
          " approximates the live data but may include garbage. Record the program with tidemark-cli record"
          " to confirm and to see which objects grow.")
      : _(" This comes from a GC log without enough whole-heap collections, so the occupancy after every GC"
          " stands in for the live data; it includes garbage not yet collected. Record the program with"
          " tidemark-cli record to confirm."));

  graphs = trace->n_graphs == 0
    ? g_strdup (_("This trace has no reference graphs"))
    : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "This trace has only %u reference graph (a leak series needs %u)",
                                    "This trace has only %u reference graphs (a leak series needs %u)",
                                    trace->n_graphs),
                       trace->n_graphs, MAX (params->leak_min_points, 2));
  return g_strdup_printf (kind == SERIES_FULL_GC
      ? _(" %s: occupancy after whole-heap collections approximates the live data but may include garbage."
          " Record with more frequent reference graphs to confirm.")
      : _(" %s, so the occupancy after every GC stands in for reachable memory; it includes garbage not yet"
          " collected. Record with more frequent reference graphs (tidemark-cli record --graph-every N) to confirm."),
      graphs);
}

static char *
fmt_bytes (double b)
{
  return tm_format_bytes (b);
}

static char *
fmt_time (double ns)
{
  return tm_format_duration (ns);
}

static TmWindow *
window_new (TmWindowKind kind, guint32 first_gc, guint32 last_gc,
            guint64 start_ns, guint64 end_ns, double score, const char *unit)
{
  TmWindow *w = g_new0 (TmWindow, 1);

  w->kind = kind;
  w->first_gc = first_gc;
  w->last_gc = last_gc;
  w->start_ns = start_ns;
  w->end_ns = end_ns;
  w->score = isfinite (score) ? score : 0;
  w->unit = unit;
  w->threshold = NAN;
  return w;
}

/* ---- where the run effectively ends, and whether there is enough ---- */

typedef enum { END_RUN, END_TEARDOWN, END_OOM } EndKind;

typedef struct {
  const TmTrace        *trace;
  const TmWindowParams *params;
  const Vocab          *voc;
  LeakSeries            s;
  gsize                 n;           /* series points before the effective end */
  gsize                 timeline_n;  /* timeline GCs before the effective end */
  EndKind               end;
  guint32               end_gc;      /* teardown: its first GC id */
  double                end_from;    /* teardown: the series at its peak before the drop ... */
  double                end_to;      /* ... and at the end of the run */
  gsize                 first_restart;  /* end of the series' first cycle (tm_leak_first_restart) */
  const Timeline       *tl;
  const TmOomEvent     *oom;         /* END_OOM: the first OutOfMemoryError */
  struct EndGraph      *end_graph;   /* the graph at the last point, read on demand */
} Evidence;

/* What the reference graph at the series' last kept point reaches: read
 * at most once per detection, and only for growth worth classifying. */
struct EndGraph {
  gboolean     tried;
  TmHeapGraph *graph;
  guint64     *reached;   /* bitmap over graph nodes */
};

/* An exit frees what the program held all along, so memory falls below
 * every low it had since it first reached half of its peak; a program
 * whose memory comes and goes (a batch job that builds a 60 MB index
 * every 2 s and drops it) falls to where its troughs always were, and a
 * run that ends just after a drop is no teardown. */
static gboolean
below_earlier_lows (const TmSeriesPoint *p, gsize n, gsize t)
{
  guint64 peak = 0, low = G_MAXUINT64, tail_low = G_MAXUINT64;
  gsize r = 0;

  for (gsize i = 0; i < t; i++)
    peak = MAX (peak, p[i].value);
  while (r < t && (double) p[r].value < 0.5 * (double) peak)
    r++;
  for (gsize i = r; i < t; i++)
    low = MIN (low, p[i].value);
  for (gsize i = t; i < n; i++)
    tail_low = MIN (tail_low, p[i].value);
  return tail_low < low;
}

/* Where the application effectively ends: the start of its teardown. */
static void
evidence_teardown (Evidence *ev, const Timeline *tl)
{
  const TmWindowParams *params = ev->params;
  gsize n;

  /* A drop in occupancy after a young GC is as often a collection as an
   * exit: teardown is judged on series without garbage only (reachable
   * memory, occupancy after whole-heap GCs, heaptrack's heap in use).  A
   * GC log never sees the exit (the JVM does not collect on the way out):
   * a final drop in it is a collection of data the program let go. */
  if ((ev->s.kind == SERIES_OCCUPANCY && ev->voc->source != SOURCE_HEAPTRACK) ||
      ev->voc->source == SOURCE_GC_LOG)
    return;
  n = tm_teardown_start (ev->s.points, ev->s.n, params->teardown_min_drop, params->teardown_max_fraction);
  if (n >= ev->s.n || !below_earlier_lows (ev->s.points, ev->s.n, n))
    return;
  ev->end = END_TEARDOWN;
  ev->n = n;
  ev->end_gc = ev->s.gc_ids[n];
  ev->end_from = (double) ev->s.points[n - 1].value;
  ev->end_to = (double) ev->s.points[ev->s.n - 1].value;
  /* the teardown's GCs free what the program drops at exit: no churn */
  while (ev->timeline_n > 0 && tl->ids[ev->timeline_n - 1] >= ev->end_gc)
    ev->timeline_n--;
}

/* How many of the GC ids ids[0..n) are still part of the run that ended
 * in an OutOfMemoryError: the GCs completed before it, and the first
 * graph taken at an error after it (the heap at the error).  A program
 * that catches the error goes on; the graphs taken at its later errors
 * show what it did next (a recorded program cleared its cache in the
 * handler: 1.3 MiB at the third error, after 63 MiB at the first), not
 * the heap that ran out. */
static gsize
before_oom (const Evidence *ev, const guint32 *ids, gsize n)
{
  gsize k = 0;

  while (k < n && ids[k] <= ev->oom->gc_before)
    k++;
  if (k < n && tm_trace_gc (ev->trace, ids[k])->graph_context == TM_GRAPH_AT_OOM)
    k++;
  return k;
}

/* The effective end is the first OutOfMemoryError: after it the program
 * is dying (its later graphs, if any, are post-mortem and left out). */
static gboolean
evidence_oom (Evidence *ev, const Timeline *tl)
{
  if (tm_trace_n_oom_events (ev->trace) == 0)
    return FALSE;
  ev->oom = tm_trace_oom_event (ev->trace, 0);
  ev->end = END_OOM;
  ev->n = before_oom (ev, ev->s.gc_ids, ev->s.n);
  ev->timeline_n = before_oom (ev, tl->ids, tl->n);
  return TRUE;
}

static void
evidence_build (const TmTrace *trace, const TmWindowParams *params, const Timeline *tl, Evidence *ev)
{
  memset (ev, 0, sizeof *ev);
  ev->trace = trace;
  ev->params = params;
  ev->voc = vocab_for (trace);
  ev->tl = tl;
  ev->end_graph = g_new0 (struct EndGraph, 1);
  leak_series_build (tl, params, &ev->s);
  ev->n = ev->s.n;
  ev->timeline_n = tl->n;
  ev->end = END_RUN;
  if (!evidence_oom (ev, tl))
    evidence_teardown (ev, tl);
  ev->first_restart = ev->n > 0 ? tm_leak_first_restart (ev->s.points, ev->n, params->leak_tolerance) : 0;
}

static void
evidence_clear (Evidence *ev)
{
  leak_series_clear (&ev->s);
  if (ev->end_graph)
    {
      g_free (ev->end_graph->reached);
      g_clear_pointer (&ev->end_graph->graph, tm_heap_graph_free);
      g_clear_pointer (&ev->end_graph, g_free);
    }
}

/* What the points of the leak series are called. */
static const char *
points_word (const Evidence *ev, gsize n)
{
  switch (ev->s.kind)
    {
    case SERIES_REACHABLE:
      return g_dngettext (GETTEXT_PACKAGE, "reference graph", "reference graphs", n);
    case SERIES_FULL_GC:
      return ev->voc->source == SOURCE_GC_LOG
        ? g_dngettext (GETTEXT_PACKAGE, "full collection", "full collections", n)
        : g_dngettext (GETTEXT_PACKAGE, "whole-heap GC", "whole-heap GCs", n);
    case SERIES_OCCUPANCY:
    default:
      return n == 1 ? _(ev->voc->gc) : _(ev->voc->gcs);
    }
}

/* Fewest series points a leak verdict needs: with the continuation test
 * a window's last third (3 points) and the two thirds before it. */
static gsize
min_series_points (const TmWindowParams *params)
{
  return params->leak_continue_ratio > 0 ? 6 : 2;
}

static gboolean
enough_for_churn (const Evidence *ev)
{
  return ev->timeline_n >= ev->params->min_evidence;
}

/* Reachable memory needs fewer GCs: each point is an exact heap state
 * with no garbage in it, and the recorder spaces its graphs in time (at
 * least half a second apart, and it forces a GC for one when the program
 * has not collected for an eighth of the run).  Under Parallel or Serial
 * with their large young generations, a 15 s recording of a program that
 * leaked 23 MiB had 12 GCs, each with a graph, and got no verdict. */
static gboolean
enough_graphs (const Evidence *ev)
{
  return ev->s.kind == SERIES_REACHABLE && ev->params->min_graph_evidence > 0 &&
         ev->n >= ev->params->min_graph_evidence;
}

static gboolean
enough_for_growth (const Evidence *ev)
{
  return (enough_for_churn (ev) || enough_graphs (ev)) && ev->n >= min_series_points (ev->params);
}

static char *
evidence_note (const Evidence *ev)
{
  GString *note = g_string_new (NULL);
  const char *gcs = ev->timeline_n == 1 ? _(ev->voc->gc) : _(ev->voc->gcs);

  if (!enough_for_churn (ev) && enough_for_growth (ev))
    g_string_append_printf (note, _("%u %s: too few to judge churn (a verdict needs at least %u); growth is judged"
                                    " on the %u reference graphs."),
                            (guint) ev->timeline_n, gcs, ev->params->min_evidence, (guint) ev->n);
  else if (!enough_for_churn (ev))
    g_string_append_printf (note, _("%u %s: too few to judge growth or churn (a verdict needs at least %u)."),
                            (guint) ev->timeline_n, gcs, ev->params->min_evidence);
  else if (!enough_for_growth (ev))
    g_string_append_printf (note, _("%u %s: too few to judge growth (a verdict needs at least %u)."),
                            (guint) ev->n, points_word (ev, ev->n), (guint) min_series_points (ev->params));
  if (ev->end == END_TEARDOWN)
    {
      g_autofree char *a = fmt_bytes (ev->end_from), *b = fmt_bytes (ev->end_to);

      g_string_append_printf (note, _("%sThe run ends in teardown: from %s %u %s fell from %s to %s as the"
                                      " program released its data at exit; the windows stop before it."),
                              note->len ? " " : "", _(ev->voc->gc), ev->end_gc,
                              _(ev->voc->labels[ev->s.kind]), a, b);
    }
  else if (ev->end == END_OOM)
    {
      g_autofree char *t = fmt_time ((double) ev->oom->time_ns);

      g_string_append_printf (note, _("%sThe program ran out of memory (OutOfMemoryError: %s) at %s, after %s %u;"
                                      " the windows stop there."),
                              note->len ? " " : "",
                              *ev->oom->message ? ev->oom->message : tm_oom_kind_to_string (ev->oom->kind),
                              t, _(ev->voc->gc), ev->oom->gc_before);
    }
  if (ev->tl->n_post_mortem > 0)
    g_string_append_printf (note, g_dngettext (GETTEXT_PACKAGE,
                                               "%s%u reference graph taken after the main thread ended is left out"
                                               " (not the program's working state).",
                                               "%s%u reference graphs taken after the main thread ended are left out"
                                               " (not the program's working state).", ev->tl->n_post_mortem),
                            note->len ? " " : "", ev->tl->n_post_mortem);
  return g_string_free (note, note->len == 0);
}

/* ---- leak, backlog or warm-up ---- */

/* Bytes that the graph of the series' last kept point reaches, of the
 * objects with indices lo..hi-1; -1 when the graph cannot be read. */
static double
reached_born (const Evidence *ev, guint64 lo, guint64 hi)
{
  struct EndGraph *eg = ev->end_graph;
  const TmHeapGraph *g;
  guint32 a = 0, b;
  double bytes = 0;

  if (!eg->tried)
    {
      eg->tried = TRUE;
      /* reads the trace's file (or bytes) at the graph's position only */
      eg->graph = tm_heap_graph_read ((TmTrace *) ev->trace, ev->s.gc_ids[ev->n - 1], NULL, NULL);
      if (eg->graph)
        eg->reached = tm_heap_graph_mark (eg->graph, NULL);
    }
  if ((g = eg->graph) == NULL)
    return -1;
  /* nodes are in ascending object order: the first at or after lo */
  b = g->n_nodes;
  while (a < b)
    {
      guint32 mid = a + (b - a) / 2;
      if (g->node_object[mid] < lo)
        a = mid + 1;
      else
        b = mid;
    }
  for (guint32 v = a; v < g->n_nodes && g->node_object[v] < hi; v++)
    if (tm_bitmap_get (eg->reached, v))
      bytes += (double) tm_trace_object_size (ev->trace, g->node_object[v]);
  return bytes;
}

/* The share of what a window's first half added that objects allocated
 * in that half still hold at the window's end; -1 when that cannot be
 * known.  A leak keeps what it allocates, so they hold all of it, at
 * whatever rate it grows; a backlog turns its objects over, so they are
 * gone.  (Measured against the whole window's growth, a leak that sped up
 * 4.4 times in its second half, on a loaded machine, kept 19% and was
 * called a backlog.)  The first half's growth counts as at least a
 * quarter of the window's: a window that grew only late says little
 * about its first half's objects.
 * "Still hold" needs reachability: on reachable memory the graph at the
 * window's end says it; after whole-heap GCs (and in heaptrack, where a
 * death is a free) the model's deaths do.  After a young GC they do not:
 * tenured garbage is only freed by the next whole-heap GC. */
static double
old_share (const Evidence *ev, gsize f)
{
  const TmTrace *trace = ev->trace;
  gsize n = ev->n;
  guint32 first_gc = ev->s.gc_ids[f], last_gc = ev->s.gc_ids[n - 1], mid;
  guint64 lo, hi;
  double old = 0, growth;

  if (trace->total_allocs == 0 || !(trace->flags & TM_TRACE_FLAG_DEATHS) || last_gc <= first_gc + 1)
    return -1;
  mid = first_gc + (last_gc - first_gc) / 2;
  lo = tm_trace_allocs_before_gc (trace, first_gc);
  hi = tm_trace_allocs_before_gc (trace, mid);
  if (ev->s.kind == SERIES_REACHABLE)
    {
      gsize m = f;

      while (m + 1 < n && ev->s.gc_ids[m + 1] <= mid)
        m++;
      growth = (double) ev->s.points[n - 1].value - (double) ev->s.points[f].value;
      if (growth <= 0)
        return -1;
      growth = MAX ((double) ev->s.points[m].value - (double) ev->s.points[f].value, growth / 4);
      if ((old = reached_born (ev, lo, hi)) >= 0)
        return old / growth;
      old = 0;   /* the graph cannot be read (file gone): the model's deaths */
    }
  else if (ev->s.kind == SERIES_OCCUPANCY && ev->voc->source != SOURCE_HEAPTRACK)
    return -1;
  growth = (double) tm_trace_gc (trace, last_gc)->live_bytes - (double) tm_trace_gc (trace, first_gc)->live_bytes;
  if (growth <= 0)
    return -1;
  growth = MAX ((double) tm_trace_gc (trace, mid)->live_bytes - (double) tm_trace_gc (trace, first_gc)->live_bytes,
                growth / 4);
  for (guint64 i = lo; i < hi; i++)
    {
      guint32 death = trace->obj_death[i];

      if (death == TM_ALIVE || death > last_gc)
        old += (double) tm_trace_object_size (trace, i);
    }
  return old / growth;
}

typedef enum {
  VERDICT_NONE,       /* no suspicious growth (stable, or too short-lived) */
  VERDICT_TOO_SHORT,  /* grows, but too few points to tell whether it continues */
  VERDICT_WARM_UP,    /* grew, then stayed flat */
  VERDICT_CYCLE,      /* rises again to where an earlier cycle already was */
  VERDICT_UNCOLLECTED,/* occupancy after young GCs only: garbage may be what grows */
  VERDICT_LEAK,
  VERDICT_BACKLOG,
} Verdict;

typedef struct {
  Verdict verdict;
  double  slope_all, slope_tail;  /* bytes/s */
  gsize   plateau_from;           /* index into the window */
  double  share;                  /* old_share, -1 unknown */
  guint64 earlier_max;            /* cycle: the earlier height ... */
  gsize   earlier_at;             /* ... and its index in the series */
  double  ceiling;                /* > 0: it levelled off at the heap's limit (bytes) */
} Growth;

/* Occupancy after GC of a garbage-collected heap says something about
 * live data only once a whole-heap collection ran: until then objects
 * promoted to the old generation pile up whether they are live or not.
 * The paper's rules do not ask (leak_continue_ratio 0). */
static gboolean
window_collected (const Evidence *ev, guint32 first_gc, guint32 last_gc)
{
  if (ev->s.kind != SERIES_OCCUPANCY || ev->voc->source == SOURCE_HEAPTRACK ||
      ev->params->leak_continue_ratio <= 0)
    return TRUE;
  for (gsize k = 0; k < ev->tl->n; k++)
    if (ev->tl->ids[k] > first_gc && ev->tl->ids[k] <= last_gc && (ev->tl->flags[k] & TL_FULL))
      return TRUE;
  return FALSE;
}

/* Growth that levelled off because the heap was full: the run ended in an
 * OutOfMemoryError of the Java heap with memory at the window's end at
 * least half of the heap's limit.  A leak that reaches the limit thrashes
 * there (full GCs that free a few KiB each, for seconds) until the error:
 * the plateau is the ceiling, not a warm-up.  A leak into a 48 MiB heap
 * under Parallel grew for 2.5 s and then stood at 38.9 MiB for 6.5 s
 * (old generation full) and was called warm-up.  Half: the old generation
 * of Serial and Parallel is two thirds of the heap by default, and a
 * warm-up far below the limit followed by one huge allocation that fails
 * stays a warm-up.  0 when not. */
static double
ceiling_reached (const Evidence *ev, double value)
{
  double limit;

  if (ev->end != END_OOM || ev->oom->kind != TM_OOM_JAVA_HEAP)
    return 0;
  limit = tm_trace_heap_limit (ev->trace);
  return limit > 0 && value >= 0.5 * limit ? limit : 0;
}

/* heaptrack records a realloc as a free and a new block, so a buffer or
 * table that grows by reallocation is always young: a log grown by 1000
 * bytes per ms to 1.5 MB looked like a backlog with 0% of its growth held
 * by old blocks.  A backlog grows in blocks; this growth does not when
 * the blocks in use grow by less than a quarter of the bytes' relative
 * growth (the log: 1% more blocks, 10 times the bytes). */
static gboolean
native_blocks_grow (const Evidence *ev, gsize f)
{
  const TmGc *a, *b;
  double blocks, bytes;

  if (ev->voc->source != SOURCE_HEAPTRACK)
    return TRUE;
  a = tm_trace_gc (ev->trace, ev->s.gc_ids[f]);
  b = tm_trace_gc (ev->trace, ev->s.gc_ids[ev->n - 1]);
  blocks = ((double) b->live_objects - (double) a->live_objects) / MAX ((double) a->live_objects, 1.0);
  bytes = ((double) b->live_bytes - (double) a->live_bytes) / MAX ((double) a->live_bytes, 1.0);
  return blocks >= 0.25 * bytes;
}

/* Judges the growth of the window p[f..n-1] of the series, which
 * already passed the growth and coverage thresholds. */
static void
judge_growth (const Evidence *ev, gsize f, Growth *g)
{
  const TmWindowParams *params = ev->params;
  const TmSeriesPoint *p = ev->s.points;
  gsize n = ev->n, m = n - f;
  gboolean continues;

  memset (g, 0, sizeof *g);
  g->share = -1;
  if (!window_collected (ev, ev->s.gc_ids[f], ev->s.gc_ids[n - 1]))
    {
      g->verdict = VERDICT_UNCOLLECTED;
      return;
    }
  continues = tm_growth_continues (p + f, m, params->leak_continue_ratio, &g->slope_all, &g->slope_tail,
                                   &g->plateau_from);
  if (params->leak_continue_ratio > 0)
    {
      gboolean high = continues && tm_growth_new_high (p, n, f, ev->first_restart, &g->earlier_max,
                                                       &g->earlier_at);

      /* growth that slows as the heap fills still creeps in its last
       * third, but no longer reaches new heights: the ceiling excuses
       * both tests */
      if (!high)
        g->ceiling = ceiling_reached (ev, (double) p[n - 1].value);
      if (g->ceiling <= 0 && !continues)
        {
          g->verdict = m < 2 * tm_growth_tail_points (m) ? VERDICT_TOO_SHORT : VERDICT_WARM_UP;
          return;
        }
      if (g->ceiling <= 0 && !high)
        {
          g->verdict = VERDICT_CYCLE;
          return;
        }
    }
  g->share = params->backlog_old_fraction > 0 ? old_share (ev, f) : -1;
  if (g->share >= 0 && g->share < params->backlog_old_fraction && !native_blocks_grow (ev, f))
    g->share = -1;   /* the age of a reallocated block says nothing */
  g->verdict = g->share >= 0 && g->share < params->backlog_old_fraction ? VERDICT_BACKLOG : VERDICT_LEAK;
}

static const char *
verdict_growth (Verdict v)
{
  switch (v)
    {
    case VERDICT_LEAK:    return "leak";
    case VERDICT_BACKLOG: return "backlog";
    case VERDICT_WARM_UP: return "warm-up";
    case VERDICT_NONE:
    case VERDICT_TOO_SHORT:
    case VERDICT_CYCLE:
    case VERDICT_UNCOLLECTED:
    default:              return NULL;
    }
}

/* The command that shows what grew in a window: trend by type, or for
 * heaptrack, whose types are mere size classes, the call stacks of the
 * blocks allocated in it and still held at its end */
static const char *
inspect_command (const Evidence *ev)
{
  return ev->voc->source == SOURCE_HEAPTRACK ? "callers" : "trend";
}

/* The sentence on the age of what grows (empty without object rows). */
static char *
age_sentence (const Evidence *ev, const Growth *g)
{
  if (g->share < 0)
    return g_strdup ("");
  if (g->verdict == VERDICT_BACKLOG)
    return g_strdup_printf (_(" What grows is young: of what the window's first half added, objects allocated"
                              " then hold only %.0f%% at its end (a leak's hold all of it, and at least %.0f%%)."),
                            g->share * 100, ev->params->backlog_old_fraction * 100);
  if (ev->voc->source == SOURCE_HEAPTRACK)
    return g_strdup_printf (_(" What grows is old blocks accumulating: those allocated in the window's first half"
                              " still hold %.0f%% of what it added."), MIN (g->share, 1.0) * 100);
  return g_strdup_printf (_(" What grows is old objects accumulating: those allocated in the window's first half"
                            " still hold %.0f%% of what it added."), MIN (g->share, 1.0) * 100);
}

static char *
end_sentence (const Evidence *ev)
{
  g_autofree char *b = NULL;

  if (ev->end == END_OOM)
    return g_strdup_printf (_(" The run ended in an OutOfMemoryError after %s %u (%s)."),
                            _(ev->voc->gc), ev->oom->gc_before,
                            *ev->oom->message ? ev->oom->message : tm_oom_kind_to_string (ev->oom->kind));
  if (ev->end != END_TEARDOWN)
    return g_strdup ("");
  b = fmt_bytes (ev->end_to);
  return g_strdup_printf (_(" The run's teardown from %s %u (down to %s at exit) is left out."),
                          _(ev->voc->gc), ev->end_gc, b);
}

/* ---- leak detectors ---- */

static gsize
ceil_points (double fraction, gsize n)
{
  double x = fraction * (double) n;

  /* 0.1 * 30 is 3.0000000000000004 in doubles: do not make it 4 */
  return (gsize) ceil (x - 1e-9);
}

static char *
leak_explanation (const Evidence *ev, const TmWindow *w, const Growth *g, gsize m, gsize n,
                  const char *caveat)
{
  const TmWindowParams *params = ev->params;
  const TmSeriesPoint *p = ev->s.points;
  const char *label = _(ev->voc->titles[ev->s.kind]);
  const char *what = _(ev->voc->labels[ev->s.kind]);
  const char *gcs = _(ev->voc->gcs);
  gboolean graphs = ev->s.kind == SERIES_REACHABLE;
  double secs = (double) (w->end_ns - w->start_ns) / 1e9;
  double rel = (w->value_end - w->value_start) / MAX (w->value_start, 1.0);
  g_autofree char *b0 = fmt_bytes (w->value_start), *b1 = fmt_bytes (w->value_end);
  g_autofree char *d = fmt_time (secs * 1e9), *rate = fmt_bytes (w->score);
  g_autofree char *age = age_sentence (ev, g), *end = end_sentence (ev);

  switch (g->verdict)
    {
    case VERDICT_LEAK:
      if (g->ceiling > 0)
        {
          g_autofree char *lim = fmt_bytes (g->ceiling);

          return g_strdup_printf (_(
            "%s grew from %s to %s over %s (%s/s, %s %u-%u), then stayed near the heap's limit of %s until the"
            " program ran out of memory (it stopped because the heap was full, not because the growth ended):"
            " %s.%s Inspect this window for %s (tidemark-cli %s TRACE --from-gc %u --to-gc %u).%s%s"),
            label, b0, b1, d, rate, gcs, w->first_gc, w->last_gc, lim, _(ev->voc->kept), age,
            graphs ? _("growing data structures") : _(ev->voc->groups),
            graphs ? "ds-growth" : inspect_command (ev), w->first_gc, w->last_gc, end, caveat);
        }
      return g_strdup_printf (_(
        "%s grew from %s to %s over %s (%s/s, %s %u-%u), never fell below %.0f%% of its peak and was still"
        " growing in the window's last third: %s.%s Inspect this window for %s"
        " (tidemark-cli %s TRACE --from-gc %u --to-gc %u).%s%s"),
        label, b0, b1, d, rate, gcs, w->first_gc, w->last_gc, params->leak_tolerance * 100, _(ev->voc->kept), age,
        graphs ? _("growing data structures") : _(ev->voc->groups),
        graphs ? "ds-growth" : inspect_command (ev), w->first_gc, w->last_gc, end, caveat);
    case VERDICT_BACKLOG:
      return g_strdup_printf (_(
        "Backlog: %s grew from %s to %s over %s (%s/s, %s %u-%u).%s Objects are turned over in growing"
        " numbers: a queue or buffer fills faster than it is drained, rather than a leak. Find it among"
        " the object groups that grow (tidemark-cli %s TRACE --from-gc %u --to-gc %u) and check why its"
        " consumer falls behind.%s%s"),
        what, b0, b1, d, rate, gcs, w->first_gc, w->last_gc, age, inspect_command (ev), w->first_gc, w->last_gc,
        end, caveat);
    case VERDICT_WARM_UP:
      {
        gsize f = n - m;
        gsize k = m - tm_growth_tail_start (p + f, m);
        g_autofree char *level = fmt_bytes ((double) p[n - 1].value);
        g_autofree char *st = fmt_bytes (MAX (g->slope_tail, 0));
        g_autofree char *sa = fmt_bytes (g->slope_all);

        return g_strdup_printf (_(
          "Warm-up: %s grew to %s and stayed flat from %s %u (growth over %s %u-%u; in its last third,"
          " %s %u-%u, it grew at %s/s, under %.0f%% of the window's %s/s): a cache or pool filling to"
          " its size, not a leak. Nothing to do unless it grows again in a longer run.%s%s"),
          what, level, _(ev->voc->gc), ev->s.gc_ids[f + g->plateau_from], gcs, w->first_gc, w->last_gc,
          gcs, ev->s.gc_ids[n - k], w->last_gc, st, params->leak_continue_ratio * 100, sa, end, caveat);
      }
    case VERDICT_UNCOLLECTED:
      return g_strdup_printf (_(
        "%s grew from %s to %s over %s %u-%u, but no whole-heap collection ran in between: objects promoted"
        " to the old generation accumulate whether they are still used or not, so this growth may be"
        " garbage. Nothing to conclude without a full collection or reference graphs.%s%s"),
        label, b0, b1, gcs, w->first_gc, w->last_gc, end, caveat);
    case VERDICT_CYCLE:
      {
        g_autofree char *h = fmt_bytes ((double) g->earlier_max);

        return g_strdup_printf (_(
          "%s rose from %s to %s over %s %u-%u, but it had already reached %s at %s %u: memory goes up and"
          " down in cycles, and this rise does not go clearly beyond the earlier ones. Growth that lasts"
          " would. Nothing to do.%s%s"),
          label, b0, b1, gcs, w->first_gc, w->last_gc, h, _(ev->voc->gc), ev->s.gc_ids[g->earlier_at],
          end, caveat);
      }
    case VERDICT_TOO_SHORT:
      return g_strdup_printf (_(
        "%s grew from %s to %s (%+.1f%%) over %s %u-%u, but %u points are too few to tell whether the growth"
        " continues (%u needed). Nothing to do unless it continues in a longer run.%s%s"),
        label, b0, b1, rel * 100, gcs, w->first_gc, w->last_gc, (guint) m,
        (guint) (2 * tm_growth_tail_points (m)), end, caveat);
    case VERDICT_NONE:
    default:
      if ((double) m < params->leak_min_coverage * (double) n)
        return g_strdup_printf (_(
          "The longest growth window of %s (%s %u-%u, %s to %s over %s) has %u"
          " of %u samples, fewer than the %.0f%% a leak needs: growth is too short-lived"
          " to suspect a leak. Nothing to do unless it continues in a longer run.%s%s"),
          what, gcs, w->first_gc, w->last_gc, b0, b1, d, (guint) m, (guint) n,
          params->leak_min_coverage * 100, end, caveat);
      return g_strdup_printf (_(
        "%s changed only from %s to %s (%+.1f%%) in its longest growth window (%s %u-%u, %s),"
        " less than the %.0f%% growth a leak needs: memory looks stable. Nothing to do.%s%s"),
        label, b0, b1, rel * 100, gcs, w->first_gc, w->last_gc, d,
        params->leak_min_growth * 100, end, caveat);
    }
}

/* Growth after a warm-up.  A program that loads its data fast and then
 * leaks slowly (40 MB in 2 s, then 500 KB/s for 13 s) has one growth
 * window from its start; against the load's slope the leak's last third
 * is "flat" (a warm-up), or below what a new height needs (a cycle).
 * Cut the window where two straight lines fit it best and judge the part
 * after the cut on its own, more strictly than a window: it must span a
 * third of the window's time and hold the points a verdict needs, grow
 * by leak_min_growth, and keep, in its last third, half of its own slope
 * (twice leak_continue_ratio: growth that slows like a cache filling to
 * its size does not).  Returns the start of that part when it is a leak
 * or a backlog (*g is then its verdict), else f. */
static double
segment_sse (const double *st, const double *sv, const double *stt, const double *stv, const double *svv,
             gsize a, gsize b)
{
  double k = (double) (b - a), t = st[b] - st[a], v = sv[b] - sv[a];
  double sxx = (stt[b] - stt[a]) - t * t / k, sxy = (stv[b] - stv[a]) - t * v / k;
  double syy = (svv[b] - svv[a]) - v * v / k;

  return MAX (0.0, sxx > 0 ? syy - sxy * sxy / sxx : syy);
}

static gsize
late_growth_start (const Evidence *ev, gsize f, Growth *g)
{
  const TmWindowParams *params = ev->params;
  const TmSeriesPoint *p = ev->s.points;
  gsize n = ev->n, m = n - f, best = f, tail_min;
  double best_sse = INFINITY, span;
  g_autofree double *st = NULL, *sv = NULL, *stt = NULL, *stv = NULL, *svv = NULL;
  Growth g2;

  if (params->leak_continue_ratio <= 0 || (g->verdict != VERDICT_WARM_UP && g->verdict != VERDICT_CYCLE))
    return f;
  tail_min = MAX (2 * tm_growth_tail_points (6), ceil_points (params->leak_min_coverage, n));
  if (m < tail_min + 2)
    return f;
  st = g_new0 (double, m + 1);
  sv = g_new0 (double, m + 1);
  stt = g_new0 (double, m + 1);
  stv = g_new0 (double, m + 1);
  svv = g_new0 (double, m + 1);
  for (gsize i = 0; i < m; i++)
    {
      /* seconds and MiB from the window's first point: well conditioned */
      double t = (double) (p[f + i].time_ns - p[f].time_ns) / 1e9;
      double v = ((double) p[f + i].value - (double) p[f].value) / 1048576.0;

      st[i + 1] = st[i] + t;
      sv[i + 1] = sv[i] + v;
      stt[i + 1] = stt[i] + t * t;
      stv[i + 1] = stv[i] + t * v;
      svv[i + 1] = svv[i] + v * v;
    }
  for (gsize c = 2; c + tail_min <= m; c++)
    {
      double e = segment_sse (st, sv, stt, stv, svv, 0, c) + segment_sse (st, sv, stt, stv, svv, c, m);

      if (e < best_sse)
        {
          best_sse = e;
          best = f + c;
        }
    }
  span = (double) (p[n - 1].time_ns - p[f].time_ns);
  if (best == f || (double) (p[n - 1].time_ns - p[best].time_ns) * 3 < span ||
      (double) p[n - 1].value - (double) p[best].value < params->leak_min_growth * MAX ((double) p[best].value, 1.0) ||
      !tm_growth_continues (p + best, n - best, 3 * params->leak_continue_ratio, NULL, NULL, NULL))
    return f;
  judge_growth (ev, best, &g2);
  if (g2.verdict != VERDICT_LEAK && g2.verdict != VERDICT_BACKLOG)
    return f;
  *g = g2;
  return best;
}

static TmWindow *
leak_window (const Evidence *ev, const char *caveat, Growth *g)
{
  const TmWindowParams *params = ev->params;
  const TmSeriesPoint *p = ev->s.points;
  const guint32 *ids = ev->s.gc_ids;
  gsize n = ev->n;
  gsize start = tm_leak_heuristic_start (p, n, params->leak_tolerance);
  gsize m = n - start;
  double v0, v1, secs, growth;
  TmWindow *w;

  memset (g, 0, sizeof *g);
  g->share = -1;
  if (m < 2)
    return NULL;
  v0 = (double) p[start].value;
  v1 = (double) p[n - 1].value;
  secs = (double) (p[n - 1].time_ns - p[start].time_ns) / 1e9;
  growth = v1 - v0;
  if ((double) m >= params->leak_min_coverage * (double) n && growth > 0 &&
      growth / MAX (v0, 1.0) >= params->leak_min_growth)
    {
      gsize late;

      judge_growth (ev, start, g);
      if ((late = late_growth_start (ev, start, g)) != start)
        {
          start = late;
          m = n - start;
          v0 = (double) p[start].value;
          secs = (double) (p[n - 1].time_ns - p[start].time_ns) / 1e9;
          growth = v1 - v0;
        }
    }

  w = window_new (TM_WINDOW_LEAK, ids[start], ids[n - 1], p[start].time_ns, p[n - 1].time_ns,
                  growth / secs, "bytes/s");
  w->suspicious = g->verdict == VERDICT_LEAK || g->verdict == VERDICT_BACKLOG;
  w->series = series_ids[ev->s.kind];
  w->value_start = v0;
  w->value_end = v1;
  w->growth = verdict_growth (g->verdict);
  if (g->verdict == VERDICT_WARM_UP)
    w->plateau_gc = ids[start + g->plateau_from];
  w->explanation = leak_explanation (ev, w, g, m, n, caveat);
  return w;
}

static TmWindow *
leak_peak_window (const Evidence *ev, const TmWindow *leak, const Growth *g, const char *caveat)
{
  const TmWindowParams *params = ev->params;
  const TmSeriesPoint *p = ev->s.points;
  const guint32 *ids = ev->s.gc_ids;
  const char *what = _(ev->voc->labels[ev->s.kind]);
  const char *gcs = _(ev->voc->gcs);
  gsize n = ev->n, start = 0, m, wmin, wmax, f, l;
  double per_s;
  g_autofree char *c0 = NULL, *c1 = NULL, *cd = NULL, *cr = NULL;
  TmWindow *pw;

  while (ids[start] != leak->first_gc)
    start++;
  m = n - start;
  wmin = MAX (2, ceil_points (params->leak_peak_min_fraction, m));
  wmax = MIN (m, MAX (wmin, (gsize) floor (params->leak_peak_max_fraction * (double) m + 1e-9)));
  if (wmin > m || !tm_leak_peak_search (p + start, m, wmin, wmax, &f, &l, &per_s))
    return NULL;

  f += start;
  l += start;
  pw = window_new (TM_WINDOW_LEAK_PEAK, ids[f], ids[l], p[f].time_ns, p[l].time_ns, per_s, "bytes/s");
  pw->suspicious = leak->suspicious && per_s > 0;
  pw->series = series_ids[ev->s.kind];
  pw->value_start = (double) p[f].value;
  pw->value_end = (double) p[l].value;
  pw->growth = leak->growth;
  c0 = fmt_bytes (pw->value_start);
  c1 = fmt_bytes (pw->value_end);
  cd = fmt_time ((double) (p[l].time_ns - p[f].time_ns));
  cr = fmt_bytes (per_s);
  if (pw->suspicious)
    pw->explanation = g_strdup_printf (_(
      "The fastest growth inside the %s window: %s rose from %s to %s in %s (%s/s) between"
      " %s %u and %u. Start here: compare the heap after %s %u with the heap after %s %u"
      " to see which objects accumulate.%s"),
      g->verdict == VERDICT_BACKLOG ? _("backlog") : _("leak"),
      what, c0, c1, cd, cr, gcs, pw->first_gc, pw->last_gc,
      _(ev->voc->gc), pw->first_gc, _(ev->voc->gc), pw->last_gc, caveat);
  else if (g->verdict == VERDICT_WARM_UP)
    pw->explanation = g_strdup_printf (_(
      "The fastest part of the warm-up: %s went from %s to %s in %s (%s/s) between %s %u and %u,"
      " before it levelled off. Warm-up is not a leak, so this needs no action."),
      what, c0, c1, cd, cr, gcs, pw->first_gc, pw->last_gc);
  else
    pw->explanation = g_strdup_printf (_(
      "The fastest-changing part of the growth window: %s went from %s to %s in %s (%s/s)"
      " between %s %u and %u. The growth window itself is not a leak, so this needs no action."),
      what, c0, c1, cd, cr, gcs, pw->first_gc, pw->last_gc);
  return pw;
}

static TmWindow *
leak_regression_window (const Evidence *ev, const char *caveat)
{
  const TmWindowParams *params = ev->params;
  const TmSeriesPoint *p = ev->s.points;
  const guint32 *ids = ev->s.gc_ids;
  const char *what = _(ev->voc->labels[ev->s.kind]);
  const char *gcs = _(ev->voc->gcs);
  gsize n = ev->n;
  /* a window shorter than a verdict needs (its last third and the two
   * thirds before it) could only ever be "too short": on a series of a
   * few dozen graphs the steepest 10% is two or three points, whose slope
   * is noise, and it would stand in for the whole trend */
  gsize min_points = MAX (MAX (2, ceil_points (params->leak_regression_start, n)), min_series_points (params));
  gsize f;
  double per_s, fit0, fit1, rrel, real;
  g_autofree char *c0 = NULL, *c1 = NULL, *cd = NULL, *cr = NULL, *end = NULL;
  Growth g = { VERDICT_NONE, 0, 0, 0, -1, 0, 0, 0 };
  TmWindow *w;

  if (min_points > n ||
      !tm_leak_regression_search (p, n, min_points, params->leak_regression_slack, &f, &per_s, &fit0, &fit1))
    return NULL;

  rrel = (fit1 - fit0) / MAX (fit0, 1.0);
  /* a hump in the middle tilts a fitted line too: the memory at the
   * end must also really be above the window's first value */
  real = ((double) p[n - 1].value - (double) p[f].value) / MAX ((double) p[f].value, 1.0);
  if (rrel >= params->leak_min_growth && real >= params->leak_min_growth)
    {
      gsize late;

      judge_growth (ev, f, &g);
      if ((late = late_growth_start (ev, f, &g)) != f)
        {
          /* the line fitted to the growth after the warm-up */
          f = late;
          per_s = tm_ls_fit (p + f, n - f, &fit0, &fit1);
        }
    }

  w = window_new (TM_WINDOW_LEAK_REGRESSION, ids[f], ids[n - 1], p[f].time_ns, p[n - 1].time_ns,
                  per_s, "bytes/s");
  w->suspicious = g.verdict == VERDICT_LEAK || g.verdict == VERDICT_BACKLOG;
  w->series = series_ids[ev->s.kind];
  w->value_start = fit0;
  w->value_end = fit1;
  w->growth = verdict_growth (g.verdict);
  if (g.verdict == VERDICT_WARM_UP)
    w->plateau_gc = ids[f + g.plateau_from];
  c0 = fmt_bytes (fit0);
  c1 = fmt_bytes (fit1);
  cd = fmt_time ((double) (p[n - 1].time_ns - p[f].time_ns));
  cr = fmt_bytes (per_s);
  end = end_sentence (ev);
  if (w->suspicious)
    {
      g_autofree char *age = age_sentence (ev, &g);

      w->explanation = g_strdup_printf (_(
        "A straight line fitted to %s over %s %u-%u (to the end of the run) rises at %s/s, from"
        " %s to %s in %s: a steady upward trend to the end of the run%s.%s"
        " Check which object groups grow in it (tidemark-cli %s TRACE --from-gc %u --to-gc %u).%s%s"),
        what, gcs, w->first_gc, w->last_gc, cr, c0, c1, cd,
        g.verdict == VERDICT_BACKLOG ? _(", of young objects in growing numbers (a backlog)") : "",
        age, inspect_command (ev), w->first_gc, w->last_gc, end, caveat);
    }
  else if (g.verdict == VERDICT_UNCOLLECTED)
    w->explanation = g_strdup_printf (_(
      "A straight line fitted to %s over %s %u-%u rises from %s to %s, but no whole-heap collection ran in"
      " between, so the growth may be garbage promoted to the old generation. Nothing to conclude.%s"),
      what, gcs, w->first_gc, w->last_gc, c0, c1, end);
  else if (g.verdict == VERDICT_CYCLE)
    {
      g_autofree char *h = fmt_bytes ((double) g.earlier_max);

      w->explanation = g_strdup_printf (_(
        "A straight line fitted to %s over %s %u-%u rises from %s to %s, but memory had already reached %s"
        " at %s %u and the end of the window does not go clearly beyond it: cycles, not growth that"
        " lasts. Nothing to do.%s"),
        what, gcs, w->first_gc, w->last_gc, c0, c1, h, _(ev->voc->gc), ids[g.earlier_at], end);
    }
  else if (g.verdict == VERDICT_TOO_SHORT)
    w->explanation = g_strdup_printf (_(
      "A straight line fitted to %s over %s %u-%u rises from %s to %s, but %u points are too few to tell"
      " whether the growth continues (%u needed). Nothing to do unless it continues in a longer run.%s"),
      what, gcs, w->first_gc, w->last_gc, c0, c1, (guint) (n - f),
      (guint) (2 * tm_growth_tail_points (n - f)), end);
  else if (g.verdict == VERDICT_WARM_UP)
    {
      gsize k = (n - f) - tm_growth_tail_start (p + f, n - f);
      g_autofree char *st = fmt_bytes (g.slope_tail), *sa = fmt_bytes (g.slope_all);

      w->explanation = g_strdup_printf (_(
        "A straight line fitted to %s over %s %u-%u rises from %s to %s, but in its last third (%s %u-%u)"
        " memory changed at %s/s, under %.0f%% of the window's %s/s: the growth does not continue to the"
        " end (it levels off or falls back). Nothing to do.%s"),
        what, gcs, w->first_gc, w->last_gc, c0, c1, gcs, ids[n - k], w->last_gc, st,
        params->leak_continue_ratio * 100, sa, end);
    }
  else if (rrel >= params->leak_min_growth)
    {
      g_autofree char *a0 = fmt_bytes ((double) p[f].value);
      g_autofree char *a1 = fmt_bytes ((double) p[n - 1].value);

      w->explanation = g_strdup_printf (_(
        "A straight line fitted to %s over %s %u-%u rises from %s to %s, but the memory itself"
        " went from %s to %s (%+.1f%%), less than the %.0f%% a leak needs: the trend comes from a"
        " temporary rise in between, not from growth that lasts. Nothing to do.%s"),
        what, gcs, w->first_gc, w->last_gc, c0, c1, a0, a1, real * 100,
        params->leak_min_growth * 100, end);
    }
  else
    w->explanation = g_strdup_printf (_(
      "The steepest trend of %s ending at the end of the run (%s %u-%u) rises only from %s to %s"
      " (%+.1f%%) in %s, less than the %.0f%% a leak needs: no clear upward trend. Nothing to do.%s"),
      what, gcs, w->first_gc, w->last_gc, c0, c1, rrel * 100, cd,
      params->leak_min_growth * 100, end);
  return w;
}

static void
detect_leaks (const Evidence *ev, GPtrArray *out)
{
  g_autofree char *caveat = NULL;
  TmWindow *leak, *w;
  Growth g;

  if (!enough_for_growth (ev))
    return;
  caveat = series_caveat (ev->trace, ev->s.kind, ev->params);
  leak = leak_window (ev, caveat, &g);
  if (leak != NULL)
    {
      g_ptr_array_add (out, leak);
      if ((w = leak_peak_window (ev, leak, &g, caveat)) != NULL)
        g_ptr_array_add (out, w);
    }
  if ((w = leak_regression_window (ev, caveat)) != NULL)
    g_ptr_array_add (out, w);
}

/* ---- GC overhead and churn ---- */

static guint64
window_sum (const guint64 *v, gsize first, gsize last)
{
  guint64 s = 0;

  for (gsize k = first; k <= last; k++)
    s += v[k];
  return s;
}

static void
detect_overhead (const TmWindowParams *params, const Timeline *r, GPtrArray *out)
{
  gsize f, l;
  double frac, pause, forced;
  guint64 t0, t1;
  g_autofree char *s0 = NULL, *s1 = NULL, *dp = NULL, *dd = NULL, *tool = NULL;
  TmWindow *w;

  if (!tm_rate_window_max (r->bounds, r->pause, r->n, params->overhead_min_gcs,
                           params->overhead_max_gcs, &f, &l, &frac))
    return;

  t0 = r->bounds[f];
  t1 = r->bounds[l + 1];
  pause = (double) window_sum (r->pause, f, l);
  forced = (double) window_sum (r->tool_pause, f, l);
  w = window_new (TM_WINDOW_GC_OVERHEAD, r->ids[f], r->ids[l], t0, t1, frac, "fraction");
  w->suspicious = frac >= params->overhead_threshold;
  w->amount = pause;
  w->threshold = params->overhead_threshold;
  s0 = fmt_time ((double) t0);
  s1 = fmt_time ((double) t1);
  dp = fmt_time (pause);
  dd = fmt_time ((double) (t1 - t0));
  if (forced > 0)
    {
      g_autofree char *fp = fmt_time (forced);

      tool = g_strdup_printf (_(" Not counted: %s of pauses of collections a tool forced (JvmtiEnv"
                                " ForceGarbageCollection, such as the recorder's GCs for its reference graphs)."), fp);
    }
  if (w->suspicious)
    w->explanation = g_strdup_printf (_(
      "GCs paused the program for %.1f%% of the time between %s and %s (%u GCs, %u-%u:"
      " %s of pauses in %s), at or above the %.0f%% threshold: the program spends much of its time"
      " collecting garbage instead of working. Look at heap occupancy in this window: if it stays near the"
      " limit, the heap is too small for the live data or memory leaks; otherwise reduce how much is"
      " allocated there.%s"),
      frac * 100, s0, s1, (guint) (l - f + 1), w->first_gc, w->last_gc, dp, dd, params->overhead_threshold * 100,
      tool ? tool : "");
  else
    w->explanation = g_strdup_printf (_(
      "The highest GC overhead is %.1f%% between %s and %s (%u GCs, %u-%u: %s of pauses in"
      " %s), below the %.0f%% threshold: GC pauses are not a problem in this run.%s"),
      frac * 100, s0, s1, (guint) (l - f + 1), w->first_gc, w->last_gc, dp, dd, params->overhead_threshold * 100,
      tool ? tool : "");
  g_ptr_array_add (out, w);
}

static void
detect_churn (const Evidence *ev, const Timeline *r, GPtrArray *out)
{
  const TmWindowParams *params = ev->params;
  const char *gcs = _(ev->voc->gcs);
  gsize f, l, k;
  double per_s, median, threshold, freed, ratio;
  guint64 t0, t1;
  g_autofree char *s0 = NULL, *s1 = NULL, *dd = NULL, *fb = NULL, *rate = NULL, *med = NULL, *floor_s = NULL;
  g_autofree char *times = NULL;
  /* Churn is short-lived data: a GC frees at most what was allocated
   * since the previous one of it.  What it frees beyond that is older
   * garbage, which a whole-heap collection frees in a lump: a nearly full
   * heap's compaction freed 15 MiB in a 100 ms stretch of 5 GCs and made a
   * churn window 6 times the run's rate of a program that allocated at one
   * rate throughout. */
  const guint64 *amount = params->churn_all_freed ? r->freed : r->fresh;
  TmWindow *w;

  if (!enough_for_churn (ev) ||
      !tm_rate_window_max (r->bounds, amount, r->n, params->churn_min_gcs,
                           params->churn_max_gcs, &f, &l, &per_s))
    return;

  per_s *= 1e9;
  k = l - f + 1;
  /* the baseline: the rate the run keeps for half of its time (a burst of
   * many short GC intervals cannot capture it), or the first version's
   * median over windows */
  median = (params->churn_count_median
            ? tm_rate_window_median (r->bounds, amount, r->n, k)
            : tm_rate_window_time_median_calm (r->bounds, amount, r->pause, params->overhead_threshold,
                                               r->n, k)) * 1e9;
  threshold = MAX (params->churn_median_factor * median, params->churn_min_bytes_per_s);
  ratio = median > 0 ? per_s / median : INFINITY;
  t0 = r->bounds[f];
  t1 = r->bounds[l + 1];
  freed = (double) window_sum (amount, f, l);
  w = window_new (TM_WINDOW_CHURN, r->ids[f], r->ids[l], t0, t1, per_s, "bytes/s");
  w->suspicious = per_s > 0 && per_s >= threshold;
  w->amount = freed;
  w->threshold = threshold;
  s0 = fmt_time ((double) t0);
  s1 = fmt_time ((double) t1);
  dd = fmt_time ((double) (t1 - t0));
  fb = fmt_bytes (freed);
  rate = fmt_bytes (per_s);
  med = fmt_bytes (median);
  floor_s = fmt_bytes (params->churn_min_bytes_per_s);
  times = isfinite (ratio) ? g_strdup_printf (_("%.1f times"), ratio) : g_strdup (_("far above"));
  if (w->suspicious)
    w->explanation = g_strdup_printf (_(
      "%s %s in %s between %s and %s (%s/s, %s %u-%u), %s the rate of %s/s that the run keeps"
      " for half of its time (windows of %u %s): the program creates many short-lived objects here"
      " (or drops a large amount of data at once). Find what is allocated in this window"
      " (classify by allocation site) and avoid or reuse those objects."),
      ev->voc->source == SOURCE_HEAPTRACK ? _("The program freed") : _("GCs freed"),
      fb, dd, s0, s1, rate, gcs, w->first_gc, w->last_gc,
      times, med, (guint) k, gcs);
  else
    w->explanation = g_strdup_printf (_(
      "The highest churn is %s/s between %s and %s (%s %u-%u, %s freed in %s); the run keeps %s/s"
      " for half of its time (windows of %u %s). A hotspot needs %.1f times that and at least %s/s:"
      " allocation is even enough. Nothing to do."),
      rate, s0, s1, gcs, w->first_gc, w->last_gc, fb, dd, med, (guint) k, gcs,
      params->churn_median_factor, floor_s);
  g_ptr_array_add (out, w);
}

/* ---- entry point ---- */

static gint
window_order (gconstpointer a, gconstpointer b)
{
  const TmWindow *wa = *(const TmWindow * const *) a;
  const TmWindow *wb = *(const TmWindow * const *) b;

  if (wa->suspicious != wb->suspicious)
    return wa->suspicious ? -1 : 1;
  return (gint) wa->kind - (gint) wb->kind;
}

GPtrArray *
tm_windows_detect (const TmTrace        *trace,
                   const TmWindowParams *params,
                   gboolean              all)
{
  TmWindowParams defaults;
  GPtrArray *out;
  Timeline tl = { 0 }, cut;
  Evidence ev;

  g_return_val_if_fail (trace != NULL, NULL);
  if (params == NULL)
    {
      tm_window_params_init (&defaults);
      params = &defaults;
    }

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_window_free);
  timeline_build (trace, &tl);
  evidence_build (trace, params, &tl, &ev);
  /* GC overhead and churn stop where the application effectively ends */
  cut = tl;
  cut.n = ev.timeline_n;
  detect_leaks (&ev, out);
  detect_overhead (params, &cut, out);
  detect_churn (&ev, &cut, out);
  evidence_clear (&ev);
  timeline_clear (&tl);

  if (!all)
    for (guint i = out->len; i > 0; i--)
      if (!((TmWindow *) out->pdata[i - 1])->suspicious)
        g_ptr_array_remove_index (out, i - 1);
  g_ptr_array_sort (out, window_order);
  return out;
}

char *
tm_windows_evidence_note (const TmTrace        *trace,
                          const TmWindowParams *params)
{
  TmWindowParams defaults;
  Timeline tl = { 0 };
  Evidence ev;
  char *note;

  g_return_val_if_fail (trace != NULL, NULL);
  if (params == NULL)
    {
      tm_window_params_init (&defaults);
      params = &defaults;
    }
  timeline_build (trace, &tl);
  evidence_build (trace, params, &tl, &ev);
  note = evidence_note (&ev);
  evidence_clear (&ev);
  timeline_clear (&tl);
  return note;
}
