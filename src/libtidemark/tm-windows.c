/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Suspicious time windows of a trace (MPLR 2019, section 3): picks the
 * series each detector runs on, runs the searches of tm-windows-search.c
 * and explains the results in plain language.  Rules: docs/windows.md.
 */
#include "tm-windows.h"
#include "tm-windows-private.h"
#include "tm-format-util.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Churn rule (docs/windows.md): a window is a churn hotspot when its
 * freed-bytes rate is at least 3x the median rate of all windows with the
 * same number of GCs, and at least 1 MiB/s.  A steady program's windows
 * stay within a small factor of their median; a phase with several times
 * the allocation rate stands out against it; the floor keeps programs
 * that barely allocate from being flagged for relative noise. */
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
static const char *series_labels[] = {
  N_("reachable memory"),
  N_("heap occupancy after whole-heap GCs"),
  N_("heap occupancy after GC"),
};
static const char *series_titles[] = {
  N_("Reachable memory"),
  N_("Heap occupancy after whole-heap GCs"),
  N_("Heap occupancy after GC"),
};

/* The complete GCs in order, copied once from the trace's large TmGc
 * records into compact arrays that every detector then scans. */
typedef struct {
  gsize     n;
  guint64  *bounds;   /* n + 1: 0 (the run's start), then each GC's end */
  guint64  *pause;    /* clamped to the time since the previous bound */
  guint64  *freed;
  guint64  *after;    /* used_after */
  guint64  *reach;    /* reachable_bytes, valid with TL_GRAPH */
  guint32  *ids;
  guint8   *flags;
  guint     n_graphs;
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
 * Shenandoah, which are concurrent but always cover the whole heap. */
static gboolean
is_full (const TmGc *gc)
{
  if (gc->kind == TM_GC_KIND_MAJOR || gc->kind == TM_GC_KIND_MIXED)
    return TRUE;
  return gc->kind == TM_GC_KIND_CONCURRENT
         && (g_str_has_prefix (gc->collector, "ZGC") || g_str_has_prefix (gc->collector, "Shenandoah"));
}

static void
timeline_build (const TmTrace *trace, Timeline *tl)
{
  guint len = trace->gcs->len;
  gsize cap = MAX (len, 1);

  tl->n = 0;
  tl->n_graphs = tl->n_full = 0;
  tl->bounds = g_new (guint64, cap + 1);
  tl->pause = g_new (guint64, cap);
  tl->freed = g_new (guint64, cap);
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
      tl->freed[k] = clamp_coord (gc->used_before > gc->used_after ? gc->used_before - gc->used_after : 0);
      tl->after[k] = clamp_coord (gc->used_after);
      tl->reach[k] = clamp_coord (gc->reachable_bytes);
      tl->ids[k] = gc->id;
      tl->flags[k] = (gc->has_graph ? TL_GRAPH : 0) | (is_full (gc) ? TL_FULL : 0);
      tl->n_graphs += gc->has_graph ? 1 : 0;
      tl->n_full += is_full (gc) ? 1 : 0;
      tl->n++;
    }
}

static void
timeline_clear (Timeline *tl)
{
  g_clear_pointer (&tl->bounds, g_free);
  g_clear_pointer (&tl->pause, g_free);
  g_clear_pointer (&tl->freed, g_free);
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
            graphs += gc->has_graph ? 1 : 0;
            full += is_full (gc) ? 1 : 0;
          }
      }
    return _(series_labels[choose_series (graphs, full, params)]);
  }
}

/* ---- explanations ---- */

/* Why the leak series is only a stand-in for reachable memory. */
static char *
series_caveat (const TmTrace *trace, SeriesKind kind, const TmWindowParams *params)
{
  gboolean gc_log = g_strcmp0 (trace->format, "gc-log") == 0;
  g_autofree char *graphs = NULL;

  if (kind == SERIES_REACHABLE)
    return g_strdup ("");
  if (gc_log)
    return g_strdup (kind == SERIES_FULL_GC
      ? _(" This comes from a GC log, which has no reference graphs: occupancy after whole-heap collections"
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

/* ---- leak detectors ---- */

static gsize
ceil_points (double fraction, gsize n)
{
  double x = fraction * (double) n;

  /* 0.1 * 30 is 3.0000000000000004 in doubles: do not make it 4 */
  return (gsize) ceil (x - 1e-9);
}

static void
detect_leaks (const TmTrace *trace, const TmWindowParams *params, const Timeline *tl, GPtrArray *out)
{
  LeakSeries s = { 0 };
  const TmSeriesPoint *p;
  const guint32 *ids;
  gsize n, start, m;
  gboolean covers, leak_suspicious;
  double v0, v1, secs, growth, rel;
  const char *label, *what;
  g_autofree char *caveat = NULL;

  leak_series_build (tl, params, &s);
  p = s.points;
  ids = s.gc_ids;
  n = s.n;
  if (n < 2)
    goto out;
  label = _(series_titles[s.kind]);
  what = _(series_labels[s.kind]);
  caveat = series_caveat (trace, s.kind, params);

  /* leak: the heuristic growth window */
  start = tm_leak_heuristic_start (p, n, params->leak_tolerance);
  m = n - start;
  if (m >= 2)
    {
      g_autofree char *b0 = NULL, *b1 = NULL, *d = NULL, *rate = NULL;
      TmWindow *w;

      v0 = (double) p[start].value;
      v1 = (double) p[n - 1].value;
      secs = (double) (p[n - 1].time_ns - p[start].time_ns) / 1e9;
      growth = v1 - v0;
      rel = growth / MAX (v0, 1.0);
      covers = (double) m >= params->leak_min_coverage * (double) n;
      leak_suspicious = covers && growth > 0 && rel >= params->leak_min_growth;

      w = window_new (TM_WINDOW_LEAK, ids[start], ids[n - 1], p[start].time_ns, p[n - 1].time_ns,
                      growth / secs, "bytes/s");
      w->suspicious = leak_suspicious;
      w->series = series_ids[s.kind];
      w->value_start = v0;
      w->value_end = v1;
      b0 = fmt_bytes (v0);
      b1 = fmt_bytes (v1);
      d = fmt_time (secs * 1e9);
      rate = fmt_bytes (w->score);
      if (leak_suspicious)
        w->explanation = g_strdup_printf (_(
          "%s grew from %s to %s over %s (%s/s, GCs %u-%u) and never fell below %.0f%% of its peak:"
          " objects are being kept alive. Inspect this window for %s (tidemark-cli %s TRACE"
          " --from-gc %u --to-gc %u).%s"),
          label, b0, b1, d, rate, w->first_gc, w->last_gc, params->leak_tolerance * 100,
          s.kind == SERIES_REACHABLE ? "growing data structures" : "the object groups that grow",
          s.kind == SERIES_REACHABLE ? "ds-growth" : "trend",
          w->first_gc, w->last_gc, caveat);
      else if (!covers)
        w->explanation = g_strdup_printf (_(
          "The longest growth window of %s (GCs %u-%u, %s to %s over %s) has %u"
          " of %u samples, fewer than the %.0f%% a leak needs: growth is too short-lived"
          " to suspect a leak. Nothing to do unless it continues in a longer run.%s"),
          what, w->first_gc, w->last_gc, b0, b1, d, (guint) m, (guint) n,
          params->leak_min_coverage * 100, caveat);
      else
        w->explanation = g_strdup_printf (_(
          "%s changed only from %s to %s (%+.1f%%) in its longest growth window (GCs %u-%u, %s),"
          " less than the %.0f%% growth a leak needs: memory looks stable. Nothing to do.%s"),
          label, b0, b1, rel * 100, w->first_gc, w->last_gc, d,
          params->leak_min_growth * 100, caveat);
      g_ptr_array_add (out, w);

      /* leak-peak: its fastest-growing subwindow */
      {
        gsize wmin = MAX (2, ceil_points (params->leak_peak_min_fraction, m));
        gsize wmax = MIN (m, MAX (wmin, (gsize) floor (params->leak_peak_max_fraction * (double) m + 1e-9)));
        gsize f, l;
        double per_s;

        if (wmin <= m &&
            tm_leak_peak_search (p + start, m, wmin, wmax, &f, &l, &per_s))
          {
            g_autofree char *c0 = NULL, *c1 = NULL, *cd = NULL, *cr = NULL;
            TmWindow *pw;

            f += start;
            l += start;
            pw = window_new (TM_WINDOW_LEAK_PEAK, ids[f], ids[l], p[f].time_ns, p[l].time_ns,
                             per_s, "bytes/s");
            pw->suspicious = leak_suspicious && per_s > 0;
            pw->series = series_ids[s.kind];
            pw->value_start = (double) p[f].value;
            pw->value_end = (double) p[l].value;
            c0 = fmt_bytes (pw->value_start);
            c1 = fmt_bytes (pw->value_end);
            cd = fmt_time ((double) (p[l].time_ns - p[f].time_ns));
            cr = fmt_bytes (per_s);
            if (pw->suspicious)
              pw->explanation = g_strdup_printf (_(
                "The fastest growth inside the leak window: %s rose from %s to %s in %s (%s/s) between"
                " GCs %u and %u. Start here: compare the heap after GC %u with the heap after GC %u"
                " to see which objects accumulate.%s"),
                what, c0, c1, cd, cr, pw->first_gc, pw->last_gc,
                pw->first_gc, pw->last_gc, caveat);
            else
              pw->explanation = g_strdup_printf (_(
                "The fastest-changing part of the growth window: %s went from %s to %s in %s (%s/s)"
                " between GCs %u and %u. The growth window itself is not a leak, so this needs no action."),
                what, c0, c1, cd, cr, pw->first_gc, pw->last_gc);
            g_ptr_array_add (out, pw);
          }
      }
    }

  /* leak-regression: the steepest fitted trend ending at the run's end */
  {
    gsize min_points = MAX (2, ceil_points (params->leak_regression_start, n));
    gsize f;
    double per_s, fit0, fit1;

    if (min_points <= n &&
        tm_leak_regression_search (p, n, min_points, params->leak_regression_slack,
                                   &f, &per_s, &fit0, &fit1))
      {
        g_autofree char *c0 = NULL, *c1 = NULL, *cd = NULL, *cr = NULL;
        double rgrowth = fit1 - fit0;
        double rrel = rgrowth / MAX (fit0, 1.0);
        TmWindow *w = window_new (TM_WINDOW_LEAK_REGRESSION, ids[f], ids[n - 1],
                                  p[f].time_ns, p[n - 1].time_ns, per_s, "bytes/s");

        /* a hump in the middle tilts a fitted line too: the memory at the
         * end must also really be above the window's first value */
        double real = ((double) p[n - 1].value - (double) p[f].value) / MAX ((double) p[f].value, 1.0);

        w->suspicious = rrel >= params->leak_min_growth && real >= params->leak_min_growth;
        w->series = series_ids[s.kind];
        w->value_start = fit0;
        w->value_end = fit1;
        c0 = fmt_bytes (fit0);
        c1 = fmt_bytes (fit1);
        cd = fmt_time ((double) (p[n - 1].time_ns - p[f].time_ns));
        cr = fmt_bytes (per_s);
        if (w->suspicious)
          w->explanation = g_strdup_printf (_(
            "A straight line fitted to %s over GCs %u-%u (to the end of the run) rises at %s/s, from"
            " %s to %s in %s: a steady upward trend to the end of the run."
            " Check which object groups grow in it (tidemark-cli trend TRACE --from-gc %u --to-gc %u).%s"),
            what, w->first_gc, w->last_gc, cr, c0, c1, cd,
            w->first_gc, w->last_gc, caveat);
        else if (rrel >= params->leak_min_growth)
          {
            g_autofree char *a0 = fmt_bytes ((double) p[f].value);
            g_autofree char *a1 = fmt_bytes ((double) p[n - 1].value);

            w->explanation = g_strdup_printf (_(
              "A straight line fitted to %s over GCs %u-%u rises from %s to %s, but the memory itself"
              " went from %s to %s (%+.1f%%), less than the %.0f%% a leak needs: the trend comes from a"
              " temporary rise in between, not from growth that lasts. Nothing to do."),
              what, w->first_gc, w->last_gc, c0, c1, a0, a1, real * 100,
              params->leak_min_growth * 100);
          }
        else
          w->explanation = g_strdup_printf (_(
            "The steepest trend of %s ending at the end of the run (GCs %u-%u) rises only from %s to %s"
            " (%+.1f%%) in %s, less than the %.0f%% a leak needs: no clear upward trend. Nothing to do."),
            what, w->first_gc, w->last_gc, c0, c1, rrel * 100, cd,
            params->leak_min_growth * 100);
        g_ptr_array_add (out, w);
      }
  }

out:
  leak_series_clear (&s);
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
  double frac, pause;
  guint64 t0, t1;
  g_autofree char *s0 = NULL, *s1 = NULL, *dp = NULL, *dd = NULL;
  TmWindow *w;

  if (!tm_rate_window_max (r->bounds, r->pause, r->n, params->overhead_min_gcs,
                           params->overhead_max_gcs, &f, &l, &frac))
    return;

  t0 = r->bounds[f];
  t1 = r->bounds[l + 1];
  pause = (double) window_sum (r->pause, f, l);
  w = window_new (TM_WINDOW_GC_OVERHEAD, r->ids[f], r->ids[l], t0, t1, frac, "fraction");
  w->suspicious = frac >= params->overhead_threshold;
  w->amount = pause;
  w->threshold = params->overhead_threshold;
  s0 = fmt_time ((double) t0);
  s1 = fmt_time ((double) t1);
  dp = fmt_time (pause);
  dd = fmt_time ((double) (t1 - t0));
  if (w->suspicious)
    w->explanation = g_strdup_printf (_(
      "GCs paused the program for %.1f%% of the time between %s and %s (%u GCs, %u-%u:"
      " %s of pauses in %s), at or above the %.0f%% threshold: the program spends much of its time"
      " collecting garbage instead of working. Look at heap occupancy in this window: if it stays near the"
      " limit, the heap is too small for the live data or memory leaks; otherwise reduce how much is"
      " allocated there."),
      frac * 100, s0, s1, (guint) (l - f + 1), w->first_gc, w->last_gc, dp, dd, params->overhead_threshold * 100);
  else
    w->explanation = g_strdup_printf (_(
      "The highest GC overhead is %.1f%% between %s and %s (%u GCs, %u-%u: %s of pauses in"
      " %s), below the %.0f%% threshold: GC pauses are not a problem in this run."),
      frac * 100, s0, s1, (guint) (l - f + 1), w->first_gc, w->last_gc, dp, dd, params->overhead_threshold * 100);
  g_ptr_array_add (out, w);
}

static void
detect_churn (const TmWindowParams *params, const Timeline *r, GPtrArray *out)
{
  gsize f, l, k;
  double per_s, median, threshold, freed, ratio;
  guint64 t0, t1;
  g_autofree char *s0 = NULL, *s1 = NULL, *dd = NULL, *fb = NULL, *rate = NULL, *med = NULL, *floor_s = NULL;
  g_autofree char *times = NULL;
  TmWindow *w;

  if (!tm_rate_window_max (r->bounds, r->freed, r->n, params->churn_min_gcs,
                           params->churn_max_gcs, &f, &l, &per_s))
    return;

  per_s *= 1e9;
  k = l - f + 1;
  median = tm_rate_window_median (r->bounds, r->freed, r->n, k) * 1e9;
  threshold = MAX (params->churn_median_factor * median, params->churn_min_bytes_per_s);
  ratio = median > 0 ? per_s / median : INFINITY;
  t0 = r->bounds[f];
  t1 = r->bounds[l + 1];
  freed = (double) window_sum (r->freed, f, l);
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
      "GCs freed %s in %s between %s and %s (%s/s, GCs %u-%u), %s the run's median of %s/s for"
      " windows of %u GCs: the program creates many short-lived objects here"
      " (or drops a large amount of data at once). Find what is allocated in this window"
      " (classify by allocation site) and avoid or reuse those objects."),
      fb, dd, s0, s1, rate, w->first_gc, w->last_gc,
      times, med, (guint) k);
  else
    w->explanation = g_strdup_printf (_(
      "The highest churn is %s/s between %s and %s (GCs %u-%u, %s freed in %s); the median for windows"
      " of %u GCs is %s/s. A hotspot needs %.1f times the median and at least %s/s:"
      " allocation is even enough. Nothing to do."),
      rate, s0, s1, w->first_gc, w->last_gc, fb, dd, (guint) k, med,
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
  Timeline tl = { 0 };

  g_return_val_if_fail (trace != NULL, NULL);
  if (params == NULL)
    {
      tm_window_params_init (&defaults);
      params = &defaults;
    }

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_window_free);
  timeline_build (trace, &tl);
  detect_leaks (trace, params, &tl, out);
  detect_overhead (params, &tl, out);
  detect_churn (params, &tl, out);
  timeline_clear (&tl);

  if (!all)
    for (guint i = out->len; i > 0; i--)
      if (!((TmWindow *) out->pdata[i - 1])->suspicious)
        g_ptr_array_remove_index (out, i - 1);
  g_ptr_array_sort (out, window_order);
  return out;
}
