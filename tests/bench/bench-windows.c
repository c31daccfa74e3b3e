/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Benchmark of the suspicious-window detectors (tm-windows.c): all of them
 * on 700 GCs and on 10^6 GCs, as absolute times and as a ratio to one plain
 * pass over the timeline measured in the same run.  The trace is a leak
 * over the whole run (with tolerated dips), the worst case for the
 * leak-peak search, with an overhead burst and a churn hotspot.
 *
 * Usage: bench-windows [N_GCS...]   (default: 700 1000000)
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tidemark.h"
#include "tm-windows.h"
#include "tm-windows-private.h"

#define MIB (G_GUINT64_CONSTANT (1024) * 1024)

static TmTrace *
build_trace (guint n)
{
  TmTraceBuilder *b = tm_trace_builder_new ("bench.tmtrace", "tmtrace");
  TmTraceHeader h = { 0 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  g_autoptr(GError) error = NULL;
  guint64 t = 0;

  h.version = 1;
  h.vm_name = "bench";
  h.vm_version = "1";
  h.command_line = "bench";
  h.pointer_size = 8;
  tm_trace_builder_header (b, &h);
  if (!tm_trace_builder_space (b, 1, TM_SPACE_KIND_OLD, "old", &error))
    g_error ("%s", error->message);

  for (guint i = 0; i < n; i++)
    {
      gboolean burst = i >= n / 2 && i < n / 2 + n / 10;
      gboolean hot = i >= n / 5 && i < n / 5 + n / 10;
      guint64 pause = burst ? 30000000 : 2000000;
      guint64 after = 100 * MIB + (guint64) i * 4096 + g_rand_int_range (rand, 0, 2 * MIB);
      guint64 freed = (hot ? 10 : 1) * 64 * MIB + g_rand_int_range (rand, 0, MIB);
      TmSpaceUsageRecord u = { 1, after + freed, after, after + freed };

      t += 100000000;
      if (!tm_trace_builder_gc_start (b, i + 1, t - pause, TM_GC_KIND_MINOR, "G1", "bench", &error) ||
          !tm_trace_builder_gc_end (b, i + 1, t, pause, 1, &u, &error))
        g_error ("%s", error->message);
    }
  tm_trace_builder_end (b, 0, 0, n, t);
  return tm_trace_builder_finish (b);
}

/* One plain pass: read every GC's times, pause and occupancy. */
static guint64
plain_pass (const TmTrace *trace)
{
  guint64 acc = 0;

  for (guint i = 0; i < trace->gcs->len; i++)
    {
      const TmGc *gc = &g_array_index (trace->gcs, TmGc, i);
      acc += gc->end_ns ^ gc->pause_ns ^ gc->used_before ^ gc->used_after;
    }
  return acc;
}

static volatile guint64 sink;

/* Seconds per call: the best of `rounds` rounds of `reps` calls. */
#define TIME_BEST(result, rounds, reps, stmt)                    \
  G_STMT_START {                                                 \
    double best_ = INFINITY;                                     \
    for (guint r_ = 0; r_ < (rounds); r_++)                      \
      {                                                          \
        gint64 t0_ = g_get_monotonic_time ();                    \
        for (guint k_ = 0; k_ < (reps); k_++)                    \
          { stmt; }                                              \
        best_ = MIN (best_, (g_get_monotonic_time () - t0_) / 1e6 / (reps)); \
      }                                                          \
    (result) = best_;                                            \
  } G_STMT_END

static void
report (const char *what, double secs, double base)
{
  printf ("  %-34s %12.3f ms  %10.1f x plain pass\n", what, secs * 1e3, secs / base);
}

/* The leak-peak search done naively (every start, every width), for the
 * side-by-side comparison on a prefix of the series. */
static double
peak_naive (const TmSeriesPoint *p, gsize n, gsize wmin, gsize wmax)
{
  double best = -INFINITY;

  for (gsize i = 0; i < n; i++)
    for (gsize j = i + wmin - 1; j < n && j <= i + wmax - 1; j++)
      {
        double s = ((double) p[j].value - (double) p[i].value) / (double) (p[j].time_ns - p[i].time_ns);
        best = MAX (best, s);
      }
  return best;
}

static void
bench (guint n)
{
  g_autoptr(TmTrace) trace = build_trace (n);
  guint reps = MAX (1, 200000 / n);
  guint rounds = n > 100000 ? 3 : 20;
  double base, all, heur, peak, regr, over, churn, median, tmedian, teardown, cont, high;
  gsize m = n, f, l, start;
  g_autofree TmSeriesPoint *p = g_new (TmSeriesPoint, n);
  g_autofree guint64 *bounds = g_new (guint64, n + 1);
  g_autofree guint64 *pause = g_new (guint64, n);
  g_autofree guint64 *freed = g_new (guint64, n);
  double rate, fit0, fit1;
  gsize wmin, wmax;

  bounds[0] = 0;
  for (guint i = 0; i < n; i++)
    {
      const TmGc *gc = &g_array_index (trace->gcs, TmGc, i);
      p[i].time_ns = gc->end_ns;
      p[i].value = gc->used_after;
      bounds[i + 1] = gc->end_ns;
      pause[i] = gc->pause_ns;
      freed[i] = gc->used_before - gc->used_after;
    }

  TIME_BEST (base, rounds, reps * 10, sink += plain_pass (trace));
  TIME_BEST (all, rounds, reps, {
    GPtrArray *ws = tm_windows_detect (trace, NULL, TRUE);
    sink += ws->len;
    g_ptr_array_unref (ws);
  });
  TIME_BEST (heur, rounds, reps, sink += tm_leak_heuristic_start (p, m, 0.75));
  start = tm_leak_heuristic_start (p, m, 0.75);
  wmin = MAX (2, (gsize) ceil (0.1 * (m - start) - 1e-9));
  wmax = MAX (wmin, (gsize) floor (0.5 * (m - start) + 1e-9));
  TIME_BEST (peak, rounds, reps, sink += tm_leak_peak_search (p + start, m - start, wmin, wmax, &f, &l, &rate));
  TIME_BEST (regr, rounds, reps,
             sink += tm_leak_regression_search (p, m, MAX (2, m / 10), 0.10, &f, &rate, &fit0, &fit1));
  TIME_BEST (over, rounds, reps, sink += tm_rate_window_max (bounds, pause, n, 5, 50, &f, &l, &rate));
  TIME_BEST (churn, rounds, reps, sink += tm_rate_window_max (bounds, freed, n, 5, 50, &f, &l, &rate));
  TIME_BEST (median, rounds, reps, sink += (guint64) tm_rate_window_median (bounds, freed, n, 5));
  TIME_BEST (tmedian, rounds, reps, sink += (guint64) tm_rate_window_time_median (bounds, freed, n, 5));
  TIME_BEST (teardown, rounds, reps, sink += tm_teardown_start (p, m, 0.5, 0.1));
  TIME_BEST (cont, rounds, reps, sink += tm_growth_continues (p + start, m - start, 0.25, NULL, NULL, NULL));
  TIME_BEST (high, rounds, reps,
             sink += tm_growth_new_high (p, m, start, tm_leak_first_restart (p, m, 0.75), NULL, NULL));

  printf ("%u GCs (leak window %" G_GSIZE_FORMAT " points, peak widths %" G_GSIZE_FORMAT "-%" G_GSIZE_FORMAT "):\n",
          n, m - start, wmin, wmax);
  report ("plain pass over the timeline", base, base);
  report ("tm_windows_detect (all detectors)", all, base);
  report ("  leak heuristic, O(n)", heur, base);
  report ("  leak-peak (hulls), O(n log n)", peak, base);
  report ("  leak-regression, O(n)", regr, base);
  report ("  gc-overhead, O(5 n) of O(46 n)", over, base);
  report ("  churn max, O(5 n) of O(46 n)", churn, base);
  report ("  churn median, O(n)", median, base);
  report ("  churn time-weighted median, O(n)", tmedian, base);
  report ("  teardown, O(n)", teardown, base);
  report ("  growth continues (2 fits), O(n)", cont, base);
  report ("  new heights, O(n)", high, base);

  /* naive leak-peak on a prefix, side by side with the hull search */
  {
    gsize k = MIN (m - start, (gsize) 20000);
    gsize kmin = MAX (2, (gsize) ceil (0.1 * k - 1e-9)), kmax = MAX (kmin, k / 2);
    double naive, hull;

    TIME_BEST (naive, 1, 1, sink += (guint64) peak_naive (p + start, k, kmin, kmax));
    TIME_BEST (hull, 3, 1, sink += tm_leak_peak_search (p + start, k, kmin, kmax, &f, &l, &rate));
    printf ("  leak-peak on %" G_GSIZE_FORMAT " points: naive %.3f ms, hulls %.3f ms (%.0f x faster)\n",
            k, naive * 1e3, hull * 1e3, naive / hull);
  }
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    for (int i = 1; i < argc; i++)
      bench ((guint) g_ascii_strtoull (argv[i], NULL, 10));
  else
    {
      bench (700);
      bench (1000000);
    }
  return 0;
}
