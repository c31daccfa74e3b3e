/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TrendViz over a 200-GC window of the synthetic leak at scale ~5
 * (~10^6 objects), shallow and retained metrics, as ratios to reading the
 * window's object records once, measured side by side in one run:
 *
 *   baseline   one plain pass over the object records (type, size, death)
 *              of every object allocated before the window's last GC
 *   one-pass   tm_trend_compute, bytes by type / by site / drill-down
 *   per-GC     the naive way for comparison: list each GC's live objects
 *              and classify them (O(objects x GCs))
 *   retained   tm_trend_compute, retained bytes by type (every GC of the
 *              window with a reference graph: dominators + closures), and
 *              a retained drill-down without and with the heap states kept
 *
 * Usage: bench-trend [SCALE [GRAPH_EVERY]]   (defaults 5 and 10)
 */
#include "tm-trend.h"
#include "tm-synth.h"
#include "tm-heap-graph.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static volatile guint64 sink;

static void
plain_pass (TmTrace *trace, guint64 limit)
{
  guint64 sum = 0;

  for (guint64 i = 0; i < limit; i++)
    sum += trace->obj_size[i] ^ trace->obj_type[i] ^ trace->obj_death[i];
  sink = sum;
}

/* What every retained classification starts with: graph + dominators. */
static void
heap_states (TmTrace *trace, guint32 from, guint32 to)
{
  for (guint32 g = from; g <= to; g++)
    if (tm_trace_gc (trace, g)->has_graph)
      {
        g_autoptr(GError) error = NULL;
        TmHeapAnalysis *heap = tm_heap_analysis_new (trace, g, NULL, NULL, NULL, &error);
        if (heap == NULL)
          g_error ("%s", error->message);
        tm_heap_analysis_unref (heap);
      }
}

static TmHeapCache *heaps;   /* used by run() when set */

static TmTrend *
run (TmTrace *trace, guint32 from, guint32 to, TmTrendMetric metric, const char *chain, const char *drill)
{
  g_autoptr(GError) error = NULL;
  TmTrendRequest req;
  TmTrend *trend;

  tm_trend_request_init (&req);
  req.from_gc = from;
  req.to_gc = to;
  req.metric = metric;
  if (!tm_classifier_chain_parse (chain, req.chain, &req.depth, &error) ||
      (drill && !tm_trend_request_set_drill (&req, drill, &error)))
    g_error ("%s", error->message);
  trend = tm_trend_compute_cached (trace, &req, heaps, NULL, NULL, NULL, &error);
  if (trend == NULL)
    g_error ("%s", error->message);
  tm_trend_request_clear (&req);
  return trend;
}

/* The naive per-GC classification of shallow bytes by type. */
static void
per_gc_by_type (TmTrace *trace, guint32 from, guint32 to, double *check_last)
{
  g_autofree double *by_type = g_new0 (double, trace->types->len);

  for (guint32 g = from; g <= to; g++)
    {
      guint32 n = 0;
      g_autofree guint32 *live = tm_trace_live_objects (trace, g, &n);
      memset (by_type, 0, trace->types->len * sizeof (double));
      for (guint32 i = 0; i < n; i++)
        by_type[trace->obj_type[live[i]]] += tm_trace_object_size (trace, live[i]);
    }
  *check_last = 0;
  for (guint t = 0; t < trace->types->len; t++)
    *check_last += by_type[t];
}

#define BEST_OF(rounds, result_ms, stmt)                 \
  do {                                                   \
    result_ms = G_MAXDOUBLE;                             \
    for (int r_ = 0; r_ < (rounds); r_++)                \
      {                                                  \
        double t0_ = now_ms ();                          \
        stmt;                                            \
        result_ms = MIN (result_ms, now_ms () - t0_);    \
      }                                                  \
  } while (0)

int
main (int argc, char **argv)
{
  TmSynthOptions so;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(TmTrace) trace = NULL;
  guint32 n_gcs, from, to, n_graphs = 0;
  guint64 limit, live_max = 0;
  double t_load, t_plain, t_type, t_site, t_drill, t_naive, t_ret, t_heap, t_rdrill, t_rdrill_cached, naive_total;
  int fd;

  tm_synth_options_init (&so);
  so.scenario = "leak";
  so.scale = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 5.0;
  so.graph_every = argc > 2 ? (guint) atoi (argv[2]) : 10;
  so.n_gcs = 200;

  fd = g_file_open_tmp ("bench-trend-XXXXXX.tmtrace", &path, &error);
  if (fd < 0)
    g_error ("%s", error->message);
  close (fd);
  if (!tm_synth_write_file (&so, path, &error))
    g_error ("%s", error->message);

  {
    double t0 = now_ms ();
    trace = tm_trace_load (path, NULL, NULL, NULL, &error);
    t_load = now_ms () - t0;
  }
  if (trace == NULL)
    g_error ("%s", error->message);

  n_gcs = tm_trace_n_gcs (trace);
  to = n_gcs;
  from = n_gcs > 199 ? n_gcs - 199 : 1;
  limit = tm_trace_allocs_before_gc (trace, to);
  for (guint32 g = from; g <= to; g++)
    {
      live_max = MAX (live_max, tm_trace_gc (trace, g)->live_objects);
      n_graphs += tm_trace_gc (trace, g)->has_graph;
    }

  printf ("synthetic leak, scale %.1f: %" G_GUINT64_FORMAT " objects, %u GCs, window %u..%u "
          "(%u GCs, %u with a graph), up to %" G_GUINT64_FORMAT " live objects\n\n",
          so.scale, trace->n_objects, n_gcs, from, to, to - from + 1, n_graphs, live_max);

  BEST_OF (7, t_plain, plain_pass (trace, limit));
  BEST_OF (5, t_type, tm_trend_unref (run (trace, from, to, TM_TREND_METRIC_BYTES, "type", NULL)));
  BEST_OF (5, t_site, tm_trend_unref (run (trace, from, to, TM_TREND_METRIC_BYTES, "site", NULL)));
  BEST_OF (5, t_drill, tm_trend_unref (run (trace, from, to, TM_TREND_METRIC_OBJECTS, "type,call-site",
                                             "com.example.travel.Journey")));
  BEST_OF (1, t_naive, per_gc_by_type (trace, from, to, &naive_total));
  BEST_OF (1, t_heap, heap_states (trace, from, to));
  BEST_OF (1, t_ret, tm_trend_unref (run (trace, from, to, TM_TREND_METRIC_RETAINED_BYTES, "type", NULL)));
  BEST_OF (1, t_rdrill, tm_trend_unref (run (trace, from, to, TM_TREND_METRIC_RETAINED_BYTES, "type,call-site",
                                               "com.example.travel.Journey")));
  /* the app's way: the view keeps the heap states for its drill-downs */
  heaps = tm_heap_cache_new (trace, NULL, -1, G_MAXUINT64);
  tm_trend_unref (run (trace, from, to, TM_TREND_METRIC_RETAINED_BYTES, "type", NULL));
  BEST_OF (1, t_rdrill_cached, tm_trend_unref (run (trace, from, to, TM_TREND_METRIC_RETAINED_BYTES, "type,call-site",
                                                      "com.example.travel.Journey")));
  tm_heap_cache_unref (heaps);
  heaps = NULL;

  /* the two shallow ways agree */
  {
    g_autoptr(TmTrend) t = run (trace, from, to, TM_TREND_METRIC_BYTES, "type", NULL);
    if (t->total[t->n_points - 1] != naive_total)
      g_error ("one pass %.0f != per GC %.0f", t->total[t->n_points - 1], naive_total);
  }

  printf ("| | ms | ratio to the plain pass |\n|---|---|---|\n");
  printf ("| plain pass over the window's object records | %.2f | 1 |\n", t_plain);
  printf ("| loading the trace file (all records, for scale) | %.0f | %.0f x |\n", t_load, t_load / t_plain);
  printf ("| **shallow bytes by type, one pass** | **%.2f** | **%.1f x** |\n", t_type, t_type / t_plain);
  printf ("| shallow bytes by allocation site, one pass | %.2f | %.1f x |\n", t_site, t_site / t_plain);
  printf ("| drill-down: objects of Journey by call site | %.2f | %.1f x |\n", t_drill, t_drill / t_plain);
  printf ("| naive: classify each GC's live objects (by type) | %.0f | %.0f x |\n", t_naive, t_naive / t_plain);
  printf ("| **retained bytes by type, %u graph GCs** | **%.0f** | **%.0f x** |\n", n_graphs, t_ret,
          t_ret / t_plain);
  printf ("| of which reading the graphs and their dominator trees | %.0f | %.0f x |\n", t_heap, t_heap / t_plain);
  printf ("| retained drill-down (Journey by call site) | %.0f | %.0f x |\n", t_rdrill, t_rdrill / t_plain);
  printf ("| the same with the heap states kept (TmHeapCache) | %.0f | %.0f x |\n", t_rdrill_cached,
          t_rdrill_cached / t_plain);
  printf ("\none pass vs naive per-GC: %.0f x faster; retained per graph GC: %.1f ms\n",
          t_naive / t_type, n_graphs ? t_ret / n_graphs : 0);

  g_unlink (path);
  return 0;
}
