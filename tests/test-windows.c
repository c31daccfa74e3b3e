/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Suspicious time windows (MPLR 2019): the detectors on series with a known
 * answer (the six shapes of the paper's Figure 3, threshold edges, window
 * length bounds, brute-force cross-checks), then on traces built with
 * TmTraceBuilder, then on the synthetic scenarios with planted phases.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "tidemark.h"
#include "tm-synth.h"
#include "tm-windows.h"
#include "tm-windows-private.h"

#define SEC G_GUINT64_CONSTANT (1000000000)
#define MSEC G_GUINT64_CONSTANT (1000000)
#define MIB (G_GUINT64_CONSTANT (1024) * 1024)

/* Points one second apart, times 1 s, 2 s, ... */
static TmSeriesPoint *
series_from_values (const guint64 *v, gsize n)
{
  TmSeriesPoint *p = g_new (TmSeriesPoint, n);

  for (gsize i = 0; i < n; i++)
    {
      p[i].time_ns = (i + 1) * SEC;
      p[i].value = v[i];
    }
  return p;
}

static gsize
heuristic_start (const guint64 *v, gsize n)
{
  g_autofree TmSeriesPoint *p = series_from_values (v, n);

  return tm_leak_heuristic_start (p, n, 0.75);
}

/* ---- Figure 3: the six shapes of the heuristic leak window ---- */

static void
test_fig3_steady_growth (void)
{
  guint64 v[20];

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    v[i] = 100 + 10 * i;
  g_assert_cmpuint (heuristic_start (v, G_N_ELEMENTS (v)), ==, 0);
}

static void
test_fig3_init_spike (void)
{
  /* start-up allocates a lot and releases it; the leak follows */
  static const guint64 v[] = { 100, 300, 500, 200, 210, 220, 230, 240, 250, 260, 270, 280 };

  /* 200 is below 75% of 500: the window restarts at index 3 */
  g_assert_cmpuint (heuristic_start (v, G_N_ELEMENTS (v)), ==, 3);
}

static void
test_fig3_spike_inside_growth (void)
{
  /* a short spike (260) above the trend; the next point (215) is still
   * >= 75% of it and above the window's start: tolerated */
  static const guint64 v[] = { 100, 120, 140, 160, 180, 200, 260, 215, 230, 245, 260, 275 };
  /* a spike too high to tolerate (215 < 75% of 400): restart after it */
  static const guint64 w[] = { 100, 120, 140, 160, 180, 200, 400, 215, 230, 245, 260, 275 };

  g_assert_cmpuint (heuristic_start (v, G_N_ELEMENTS (v)), ==, 0);
  g_assert_cmpuint (heuristic_start (w, G_N_ELEMENTS (w)), ==, 7);
}

static void
test_fig3_tolerated_dips (void)
{
  /* dips to 125 (>= 105) and 150 (>= 135) and 190 (>= 0.75 * 210) */
  static const guint64 v[] = { 100, 120, 140, 125, 160, 180, 150, 200, 210, 190, 220, 240 };

  g_assert_cmpuint (heuristic_start (v, G_N_ELEMENTS (v)), ==, 0);
}

static void
test_fig3_drop_restarts (void)
{
  /* growth to 300, then a drop of 33% (200 < 225): restart there */
  static const guint64 v[] = { 100, 150, 200, 250, 300, 200, 220, 240, 260, 280, 300, 320 };
  /* a drop below the window's first point also restarts, even if small
   * relative to the maximum */
  static const guint64 w[] = { 100, 101, 102, 99, 103, 104, 105, 106 };

  g_assert_cmpuint (heuristic_start (v, G_N_ELEMENTS (v)), ==, 5);
  g_assert_cmpuint (heuristic_start (w, G_N_ELEMENTS (w)), ==, 3);
}

static void
test_fig3_growth_at_end (void)
{
  guint64 v[100];

  /* flat, then growth over the last 10 points: a flat point is neither
   * greater than its predecessor nor than the window's first point, so
   * the window starts at the last flat point */
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    v[i] = i < 90 ? 1000 : 1000 + 50 * (i - 89);
  g_assert_cmpuint (heuristic_start (v, G_N_ELEMENTS (v)), ==, 89);
}

static void
test_heuristic_tolerance_edge (void)
{
  /* 300 is exactly 75% of 400: tolerated; 299 is not */
  static const guint64 v[] = { 100, 200, 400, 300, 310, 320 };
  static const guint64 w[] = { 100, 200, 400, 299, 310, 320 };

  g_assert_cmpuint (heuristic_start (v, G_N_ELEMENTS (v)), ==, 0);
  g_assert_cmpuint (heuristic_start (w, G_N_ELEMENTS (w)), ==, 3);
}

/* ---- leak peak ---- */

typedef struct {
  gboolean found;
  gsize i, j;
  double slope;
} Pair;

/* Brute force with the documented tie rule, in long double slopes
 * compared through exact cross products. */
static Pair
peak_brute (const TmSeriesPoint *p, gsize n, gsize wmin, gsize wmax)
{
  Pair best = { FALSE, 0, 0, 0 };

  for (gsize i = 0; i < n; i++)
    for (gsize w = wmin; w <= wmax && i + w - 1 < n; w++)
      {
        gsize j = i + w - 1;
        __int128 l, r;

        if (!best.found)
          goto take;
        l = (__int128) ((gint64) p[j].value - (gint64) p[i].value) *
            (gint64) (p[best.j].time_ns - p[best.i].time_ns);
        r = (__int128) ((gint64) p[best.j].value - (gint64) p[best.i].value) *
            (gint64) (p[j].time_ns - p[i].time_ns);
        if (l < r)
          continue;
        if (l == r && (j - i < best.j - best.i || (j - i == best.j - best.i && i >= best.i)))
          continue;
      take:
        best.found = TRUE;
        best.i = i;
        best.j = j;
      }
  return best;
}

static void
test_peak_known (void)
{
  /* slow growth, a steep stretch from index 40 to 49, slow growth again */
  guint64 v[100];
  g_autofree TmSeriesPoint *p = NULL;
  gsize f, l;
  double per_s;

  for (guint i = 0; i < 100; i++)
    v[i] = 1000 + 10 * i + (i > 40 ? 500 * (MIN (i, 49) - 40) : 0);
  p = series_from_values (v, 100);
  g_assert_true (tm_leak_peak_search (p, 100, 10, 50, &f, &l, &per_s));
  /* 10 points: the steep stretch 40..49 exactly */
  g_assert_cmpuint (f, ==, 40);
  g_assert_cmpuint (l, ==, 49);
  g_assert_cmpfloat_with_epsilon (per_s, (double) (v[49] - v[40]) / 9.0, 1e-6);

  /* invalid bounds */
  g_assert_false (tm_leak_peak_search (p, 100, 1, 50, &f, &l, &per_s));
  g_assert_false (tm_leak_peak_search (p, 100, 60, 50, &f, &l, &per_s));
  g_assert_false (tm_leak_peak_search (p, 100, 10, 101, &f, &l, &per_s));
}

static void
test_peak_linear_ties (void)
{
  /* every window has the same slope: the longest, then the earliest */
  guint64 v[40];
  g_autofree TmSeriesPoint *p = NULL;
  gsize f, l;
  double per_s;

  for (guint i = 0; i < 40; i++)
    v[i] = 5000 + 7 * i;
  p = series_from_values (v, 40);
  g_assert_true (tm_leak_peak_search (p, 40, 4, 20, &f, &l, &per_s));
  g_assert_cmpuint (f, ==, 0);
  g_assert_cmpuint (l, ==, 19);
}

static void
test_peak_matches_brute_force (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (guint round = 0; round < 400; round++)
    {
      gsize n = g_rand_int_range (rand, 2, 120);
      gsize wmin = g_rand_int_range (rand, 2, n + 1);
      gsize wmax = g_rand_int_range (rand, wmin, n + 1);
      g_autofree TmSeriesPoint *p = g_new (TmSeriesPoint, n);
      guint64 t = 0;
      gboolean coarse = round % 3 == 0;   /* few distinct values: many ties */
      Pair want;
      gsize f = 0, l = 0;
      double per_s;

      for (gsize i = 0; i < n; i++)
        {
          t += coarse ? SEC : (guint64) g_rand_int_range (rand, 1, 5000) * 1000000;
          p[i].time_ns = t;
          p[i].value = coarse ? (guint64) g_rand_int_range (rand, 0, 4) * 100
                              : (guint64) g_rand_int_range (rand, 0, 1000000) + i * 3000;
        }
      want = peak_brute (p, n, wmin, wmax);
      g_assert_true (want.found);
      g_assert_true (tm_leak_peak_search (p, n, wmin, wmax, &f, &l, &per_s));
      if (f != want.i || l != want.j)
        g_error ("round %u n=%" G_GSIZE_FORMAT " [%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT "]: got %"
                 G_GSIZE_FORMAT "..%" G_GSIZE_FORMAT ", want %" G_GSIZE_FORMAT "..%" G_GSIZE_FORMAT,
                 round, n, wmin, wmax, f, l, want.i, want.j);
    }
}

/* ---- leak regression ---- */

static void
test_regression_known (void)
{
  /* flat at 1000 until index 30, then +40 per second: the steepest
   * windows all start at or after 30, and the longest of them wins */
  guint64 v[100];
  g_autofree TmSeriesPoint *p = NULL;
  gsize f;
  double per_s, fit0, fit1;

  for (guint i = 0; i < 100; i++)
    v[i] = i <= 30 ? 1000 : 1000 + 40 * (i - 30);
  p = series_from_values (v, 100);
  g_assert_true (tm_leak_regression_search (p, 100, 10, 0, &f, &per_s, &fit0, &fit1));
  g_assert_cmpuint (f, ==, 30);
  g_assert_cmpfloat_with_epsilon (per_s, 40.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (fit0, 1000.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (fit1, 1000.0 + 40 * 69, 1e-6);

  /* falling memory: no positive slope at all */
  for (guint i = 0; i < 100; i++)
    p[i].value = 100000 - 10 * i;
  g_assert_false (tm_leak_regression_search (p, 100, 10, 0, &f, &per_s, &fit0, &fit1));
  /* bounds */
  g_assert_false (tm_leak_regression_search (p, 100, 1, 0, &f, &per_s, &fit0, &fit1));
  g_assert_false (tm_leak_regression_search (p, 100, 101, 0, &f, &per_s, &fit0, &fit1));
}

static void
test_regression_shortest_is_steepest (void)
{
  /* growth that speeds up: the last 10% is the steepest */
  guint64 v[50];
  g_autofree TmSeriesPoint *p = NULL;
  gsize f;
  double per_s, fit0, fit1;

  for (guint i = 0; i < 50; i++)
    v[i] = 1000 + (guint64) i * i * i;
  p = series_from_values (v, 50);
  g_assert_true (tm_leak_regression_search (p, 50, 5, 0, &f, &per_s, &fit0, &fit1));
  g_assert_cmpuint (f, ==, 45);
}

/* Least-squares slope of p[i..n-1] straight from the definition. */
static long double
slope_direct (const TmSeriesPoint *p, gsize i, gsize n)
{
  long double mt = 0, mv = 0, stv = 0, stt = 0;
  gsize c = n - i;

  for (gsize k = i; k < n; k++)
    {
      mt += p[k].time_ns / 1e9L;
      mv += p[k].value;
    }
  mt /= c;
  mv /= c;
  for (gsize k = i; k < n; k++)
    {
      stv += (p[k].time_ns / 1e9L - mt) * (p[k].value - mv);
      stt += (p[k].time_ns / 1e9L - mt) * (p[k].time_ns / 1e9L - mt);
    }
  return stv / stt;
}

static void
test_regression_slack (void)
{
  /* growth that speeds up: with a 10% slack the window reaches back to
   * the earliest start whose slope is still >= 90% of the steepest */
  guint64 v[50];
  g_autofree TmSeriesPoint *p = NULL;
  long double best = 0;
  gsize f, want = 0;
  double per_s, fit0, fit1;

  for (guint i = 0; i < 50; i++)
    v[i] = 1000 + (guint64) i * i * i;
  p = series_from_values (v, 50);
  for (gsize i = 0; i + 5 <= 50; i++)
    best = MAX (best, slope_direct (p, i, 50));
  for (gsize i = 50 - 5 + 1; i-- > 0;)
    if (slope_direct (p, i, 50) >= 0.9L * best)
      want = i;
  g_assert_cmpuint (want, <, 45);
  g_assert_true (tm_leak_regression_search (p, 50, 5, 0.10, &f, &per_s, &fit0, &fit1));
  g_assert_cmpuint (f, ==, want);
  g_assert_cmpfloat (per_s, >=, 0.9 * (double) best * (1 - 1e-12));
}

/* ---- rate windows ---- */

/* n GCs ending every `period` ns, amount[k] per GC */
static guint64 *
regular_bounds (gsize n, guint64 period)
{
  guint64 *b = g_new (guint64, n + 1);

  for (gsize k = 0; k <= n; k++)
    b[k] = k * period;
  return b;
}

static void
test_rate_known (void)
{
  gsize n = 100, f, l;
  g_autofree guint64 *bounds = regular_bounds (n, 100000000);
  g_autofree guint64 *pause = g_new (guint64, n);
  double rate;

  for (gsize k = 0; k < n; k++)
    pause[k] = 1000000;
  /* a burst of three long pauses, GCs 10..12 (0-based) */
  pause[10] = pause[11] = pause[12] = 90000000;
  g_assert_true (tm_rate_window_max (bounds, pause, n, 5, 50, &f, &l, &rate));
  /* windows must hold 5 GCs: the 5-GC windows around the burst tie; the
   * earliest ending one wins */
  g_assert_cmpuint (f, ==, 8);
  g_assert_cmpuint (l, ==, 12);
  g_assert_cmpfloat_with_epsilon (rate, (3 * 90e6 + 2 * 1e6) / 500e6, 1e-12);

  /* with a minimum of 3 GCs, the burst alone */
  g_assert_true (tm_rate_window_max (bounds, pause, n, 3, 50, &f, &l, &rate));
  g_assert_cmpuint (f, ==, 10);
  g_assert_cmpuint (l, ==, 12);
}

static void
test_rate_length_bounds (void)
{
  gsize n = 200, f, l;
  g_autofree guint64 *bounds = regular_bounds (n, 100000000);
  g_autofree guint64 *amount = g_new (guint64, n);
  double rate;

  /* a rising rate: the best window is always the last min_gcs GCs */
  for (gsize k = 0; k < n; k++)
    amount[k] = k;
  for (gsize lo = 1; lo <= 60; lo += 7)
    {
      g_assert_true (tm_rate_window_max (bounds, amount, n, lo, lo + 10, &f, &l, &rate));
      g_assert_cmpuint (l - f + 1, ==, lo);
      g_assert_cmpuint (l, ==, n - 1);
    }
  /* a falling rate with a max of 50 GCs: a window never exceeds 50 */
  for (gsize k = 0; k < n; k++)
    amount[k] = 1000 - k;
  g_assert_true (tm_rate_window_max (bounds, amount, n, 5, 50, &f, &l, &rate));
  g_assert_cmpuint (f, ==, 0);
  g_assert_cmpuint (l, ==, 4);
  /* too few GCs */
  g_assert_false (tm_rate_window_max (bounds, amount, 4, 5, 50, &f, &l, &rate));
  g_assert_false (tm_rate_window_max (bounds, amount, n, 6, 5, &f, &l, &rate));
}

/* Every window, exact comparisons, the documented tie rule. */
static gboolean
rate_brute (const guint64 *bounds, const guint64 *amount, gsize n, gsize kmin, gsize kmax,
            gsize *first, gsize *last)
{
  gboolean found = FALSE;
  guint64 bn = 0, bd = 1;

  for (gsize b = 1; b <= n; b++)
    for (gsize k = kmin; k <= kmax && k <= b; k++)
      {
        gsize a = b - k;
        guint64 num = 0, den = bounds[b] - bounds[a];

        if (den == 0)
          continue;
        for (gsize x = a; x < b; x++)
          num += amount[x];
        if (!found || (__int128) num * bd > (__int128) bn * den)
          {
            found = TRUE;
            bn = num;
            bd = den;
            *first = a;
            *last = b - 1;
          }
      }
  return found;
}

static void
test_rate_matches_brute_force (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 300; round++)
    {
      gsize n = g_rand_int_range (rand, 1, 150);
      gsize kmin = g_rand_int_range (rand, 1, 12);
      gsize kmax = g_rand_int_range (rand, kmin, 60);
      g_autofree guint64 *bounds = g_new (guint64, n + 1);
      g_autofree guint64 *amount = g_new (guint64, n);
      gboolean coarse = round % 2 == 0;   /* equal times and equal rates */
      gsize f1 = 0, l1 = 0, f2 = 0, l2 = 0;
      gboolean ok1, ok2;
      double rate;

      bounds[0] = 0;
      for (gsize k = 0; k < n; k++)
        {
          bounds[k + 1] = bounds[k] + (coarse ? (guint64) g_rand_int_range (rand, 0, 3) * 1000
                                              : (guint64) g_rand_int_range (rand, 1, 1000000));
          amount[k] = coarse ? (guint64) g_rand_int_range (rand, 0, 3) * 500
                             : (guint64) g_rand_int_range (rand, 0, 1000000);
        }
      ok1 = rate_brute (bounds, amount, n, kmin, kmax, &f1, &l1);
      ok2 = tm_rate_window_max (bounds, amount, n, kmin, kmax, &f2, &l2, &rate);
      g_assert_cmpint (ok1, ==, ok2);
      if (ok1 && (f1 != f2 || l1 != l2))
        g_error ("round %u n=%" G_GSIZE_FORMAT " [%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT "]: got %"
                 G_GSIZE_FORMAT "..%" G_GSIZE_FORMAT ", want %" G_GSIZE_FORMAT "..%" G_GSIZE_FORMAT,
                 round, n, kmin, kmax, f2, l2, f1, l1);
    }
}

static void
test_rate_zero_duration (void)
{
  /* all GCs end at the same instant: no window has a duration */
  guint64 bounds[8] = { 0 };
  guint64 amount[7] = { 1, 2, 3, 4, 5, 6, 7 };
  gsize f, l;
  double rate;

  g_assert_false (tm_rate_window_max (bounds, amount, 7, 5, 50, &f, &l, &rate));
  g_assert_cmpfloat (tm_rate_window_median (bounds, amount, 7, 5), ==, 0);
}

static void
test_rate_median (void)
{
  gsize n = 9;
  g_autofree guint64 *bounds = regular_bounds (n, 1000);
  guint64 amount[9] = { 5, 1, 9, 3, 7, 2, 8, 4, 6 };

  /* single-GC windows: rates amount/1000 per ns, median 5 (odd count) */
  g_assert_cmpfloat_with_epsilon (tm_rate_window_median (bounds, amount, n, 1), 5.0 / 1000, 1e-15);
  /* two-GC windows: sums 6,10,12,10,9,10,12,10 -> upper median 10 */
  g_assert_cmpfloat_with_epsilon (tm_rate_window_median (bounds, amount, n, 2), 10.0 / 2000, 1e-15);
  g_assert_cmpfloat (tm_rate_window_median (bounds, amount, n, 10), ==, 0);
}

/* ---- traces ---- */

typedef struct {
  guint64 end_ns;
  guint64 pause_ns;
  guint64 used_before;
  guint64 used_after;
  guint    kind;
  gint64   reachable;   /* >= 0: a graph with this reachable memory */
  const char *cause;    /* NULL: "test" */
  guint    context;     /* the graph's TmGraphContext (0: the working state) */
} GcSpec;

/* What else a trace of specs has: META jvm.MaxHeapSize (0: none), an
 * OutOfMemoryError of the Java heap after GC oom_after (0: none), and
 * whether deaths are recorded (the age of growth needs them). */
typedef struct {
  guint64  max_heap;
  guint32  oom_after;
  gboolean no_deaths;
  guint32  oom_again;   /* another OutOfMemoryError after this GC (0: none) */
  const char *collector;  /* NULL: "G1" */
} SpecExtras;

static TmTrace *trace_from_specs_full (const GcSpec *gcs, gsize n, const char *format, const SpecExtras *x);

static TmTrace *
trace_from_specs (const GcSpec *gcs, gsize n, const char *format)
{
  return trace_from_specs_full (gcs, n, format, NULL);
}

/* One old-generation space; each GC starts pause_ns before it ends. A
 * graph is a single fresh root object of the wanted size. */
static TmTrace *
trace_from_specs_full (const GcSpec *gcs, gsize n, const char *format, const SpecExtras *x)
{
  TmTraceBuilder *b = tm_trace_builder_new ("test.tmtrace", format);
  TmTraceHeader h = { 0 };
  guint64 frame = 1;
  guint64 next_object = 1;
  g_autoptr(GError) error = NULL;

  h.version = 1;
  h.vm_name = "test";
  h.vm_version = "1";
  h.command_line = "test";
  h.pointer_size = 8;
  h.flags = TM_TRACE_FLAG_GRAPHS | (x && x->no_deaths ? 0 : TM_TRACE_FLAG_DEATHS);
  tm_trace_builder_header (b, &h);
  if (x && x->max_heap)
    {
      g_autofree char *mh = g_strdup_printf ("%" G_GUINT64_FORMAT, x->max_heap);
      tm_trace_builder_meta (b, "jvm.MaxHeapSize", mh);
    }
  g_assert_true (tm_trace_builder_space (b, 1, TM_SPACE_KIND_OLD, "old", &error));
  g_assert_true (tm_trace_builder_type (b, 1, "byte[]", TM_TYPE_FLAG_PRIM_ARRAY, &error));
  g_assert_true (tm_trace_builder_frame (b, 1, "Main.main()", "Main.java", 1, &error));
  g_assert_true (tm_trace_builder_site (b, 1, 1, &frame, &error));
  g_assert_true (tm_trace_builder_thread (b, 1, "main", &error));

  for (gsize i = 0; i < n; i++)
    {
      TmSpaceUsageRecord u = { 1, gcs[i].used_before, gcs[i].used_after, gcs[i].used_before };
      guint64 id = i + 1;

      if (gcs[i].reachable >= 0)
        g_assert_true (tm_trace_builder_alloc (b, next_object, 1, 1, 1, gcs[i].reachable, 0, 0, &error));
      g_assert_true (tm_trace_builder_gc_start (b, id, gcs[i].end_ns - gcs[i].pause_ns,
                                                gcs[i].kind ? gcs[i].kind : TM_GC_KIND_MINOR,
                                                x && x->collector ? x->collector : "G1",
                                                gcs[i].cause ? gcs[i].cause : "test", &error));
      g_assert_true (tm_trace_builder_gc_end (b, id, gcs[i].end_ns, gcs[i].pause_ns, 1, &u, &error));
      if (gcs[i].reachable >= 0)
        {
          TmRootRecord root = { next_object, TM_ROOT_KIND_STATIC, 1 };

          g_assert_true (tm_trace_builder_graph_begin (b, id, 0, 0, &error));
          g_assert_true (tm_trace_builder_roots (b, 1, &root, &error));
          g_assert_true (tm_trace_builder_graph_end (b, id, 0, &error));
          if (gcs[i].context)
            g_assert_true (tm_trace_builder_graph_context (b, id, gcs[i].context, &error));
          next_object++;
        }
      if (x && (x->oom_after == id || x->oom_again == id))
        g_assert_true (tm_trace_builder_oom (b, gcs[i].end_ns + 1000000, id, 1, TM_OOM_JAVA_HEAP,
                                             "Java heap space", &error));
    }
  tm_trace_builder_end (b, next_object - 1, 0, n, n ? gcs[n - 1].end_ns : 0);
  return tm_trace_builder_finish (b);
}

/* A GC every 100 ms, 2 ms pauses, 64 MiB freed each, occupancy after GC
 * flat at 100 MiB with +-3% deterministic noise. */
static GcSpec *
steady_specs (gsize n, guint32 seed)
{
  GcSpec *s = g_new0 (GcSpec, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  for (gsize i = 0; i < n; i++)
    {
      guint64 after = 100 * MIB + (guint64) ((gint64) (g_rand_double_range (rand, -0.03, 0.03) * 100 * MIB));

      s[i].end_ns = (i + 1) * 100000000;
      s[i].pause_ns = 2000000;
      s[i].used_after = after;
      s[i].used_before = after + 64 * MIB + g_rand_int_range (rand, 0, 4 * MIB);
      s[i].reachable = -1;
    }
  return s;
}

static const TmWindow *
find_kind (GPtrArray *ws, TmWindowKind kind)
{
  for (guint i = 0; i < ws->len; i++)
    if (((TmWindow *) ws->pdata[i])->kind == kind)
      return ws->pdata[i];
  return NULL;
}

static void
test_trace_steady_quiet (void)
{
  /* 20 different noise draws: never a suspicious window; with --all the
   * candidates are there and explained */
  for (guint32 seed = 1; seed <= 20; seed++)
    {
      g_autofree GcSpec *s = steady_specs (300, seed);
      g_autoptr(TmTrace) trace = trace_from_specs (s, 300, "tmtrace");
      g_autoptr(GPtrArray) ws = tm_windows_detect (trace, NULL, FALSE);
      g_autoptr(GPtrArray) all = tm_windows_detect (trace, NULL, TRUE);

      for (guint i = 0; i < ws->len; i++)
        g_printerr ("seed %u: %s\n", seed, ((TmWindow *) ws->pdata[i])->explanation);
      g_assert_cmpuint (ws->len, ==, 0);
      g_assert_nonnull (find_kind (all, TM_WINDOW_GC_OVERHEAD));
      g_assert_nonnull (find_kind (all, TM_WINDOW_CHURN));
      for (guint i = 0; i < all->len; i++)
        {
          const TmWindow *w = all->pdata[i];
          g_assert_false (w->suspicious);
          g_assert_true (w->explanation != NULL && strlen (w->explanation) > 40);
          g_assert_cmpuint (w->first_gc, <=, w->last_gc);
          g_assert_cmpuint (w->start_ns, <=, w->end_ns);
        }
    }
}

static void
overhead_trace (guint64 pause_ns, gboolean *suspicious, double *score)
{
  g_autofree GcSpec *s = steady_specs (100, 7);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(GPtrArray) all = NULL;
  const TmWindow *w;

  /* every GC pauses pause_ns of its 100 ms period */
  for (guint i = 0; i < 100; i++)
    s[i].pause_ns = pause_ns;
  trace = trace_from_specs (s, 100, "tmtrace");
  all = tm_windows_detect (trace, NULL, TRUE);
  w = find_kind (all, TM_WINDOW_GC_OVERHEAD);
  g_assert_nonnull (w);
  g_assert_cmpstr (w->unit, ==, "fraction");
  g_assert_cmpuint (w->last_gc - w->first_gc + 1, ==, 5);
  *suspicious = w->suspicious;
  *score = w->score;
}

/* A steady run (2% in pauses) with one 60 ms pause at GC 50: the
 * program's own long pause makes its 5-GC window 13.6% GC overhead; the
 * same pause of a collection a tool forced (the recorder's GC for a
 * graph) is not the program's overhead, and the explanation says what
 * was left out. */
static void
test_trace_overhead_tool_forced (void)
{
  for (guint forced = 0; forced <= 1; forced++)
    {
      g_autofree GcSpec *s = steady_specs (100, 7);
      g_autoptr(TmTrace) trace = NULL;
      g_autoptr(GPtrArray) all = NULL;
      const TmWindow *w;

      s[49].pause_ns = 60000000;
      s[49].kind = TM_GC_KIND_MAJOR;
      s[49].cause = forced ? "JvmtiEnv ForceGarbageCollection" : "System.gc()";
      trace = trace_from_specs (s, 100, "tmtrace");
      all = tm_windows_detect (trace, NULL, TRUE);
      w = find_kind (all, TM_WINDOW_GC_OVERHEAD);
      g_assert_nonnull (w);
      if (!forced)
        {
          g_assert_true (w->suspicious);
          g_assert_cmpfloat_with_epsilon (w->score, (4 * 2 + 60) / 500.0, 1e-9);
          g_assert_null (strstr (w->explanation, "forced"));
        }
      else
        {
          g_assert_false (w->suspicious);
          g_assert_cmpfloat_with_epsilon (w->score, 0.02, 1e-9);
        }
    }
  /* the tool's pause inside the reported window is named */
  {
    g_autofree GcSpec *s = steady_specs (100, 7);
    g_autoptr(TmTrace) trace = NULL;
    g_autoptr(GPtrArray) all = NULL;
    const TmWindow *w;

    for (guint i = 40; i < 45; i++)
      s[i].pause_ns = 15000000;
    s[42].cause = "JvmtiEnv ForceGarbageCollection";
    s[42].pause_ns = 50000000;
    trace = trace_from_specs (s, 100, "tmtrace");
    all = tm_windows_detect (trace, NULL, TRUE);
    w = find_kind (all, TM_WINDOW_GC_OVERHEAD);
    g_assert_nonnull (w);
    g_assert_true (w->suspicious);
    g_assert_cmpuint (w->first_gc, ==, 41);
    g_assert_cmpfloat_with_epsilon (w->score, 4 * 15 / 500.0, 1e-9);
    g_assert_nonnull (strstr (w->explanation, "50.0 ms of pauses of collections a tool forced"));
  }
}

static void
test_trace_overhead_edge (void)
{
  gboolean suspicious;
  double score;

  overhead_trace (10000000, &suspicious, &score);   /* exactly 10% */
  g_assert_cmpfloat (score, ==, 0.10);
  g_assert_true (suspicious);
  overhead_trace (9900000, &suspicious, &score);    /* 9.9% */
  g_assert_cmpfloat_with_epsilon (score, 0.099, 1e-12);
  g_assert_false (suspicious);
}

static void
test_trace_overhead_burst (void)
{
  g_autofree GcSpec *s = steady_specs (400, 3);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(GPtrArray) ws = NULL;
  const TmWindow *w;

  /* GCs 201..260 (1-based) pause 40 ms of their 100 ms */
  for (guint i = 200; i < 260; i++)
    s[i].pause_ns = 40000000;
  trace = trace_from_specs (s, 400, "tmtrace");
  ws = tm_windows_detect (trace, NULL, FALSE);
  w = find_kind (ws, TM_WINDOW_GC_OVERHEAD);
  g_assert_nonnull (w);
  g_assert_true (w->suspicious);
  g_assert_cmpfloat_with_epsilon (w->score, 0.40, 1e-9);
  /* the earliest of the tied 5-GC windows inside the burst */
  g_assert_cmpuint (w->first_gc, ==, 201);
  g_assert_cmpuint (w->last_gc, ==, 205);
  g_assert_cmpuint (w->start_ns, ==, 200 * 100000000ull);
  g_assert_cmpuint (w->end_ns, ==, 205 * 100000000ull);
  g_assert_nonnull (strstr (w->explanation, "40.0%"));
}

static void
churn_trace (double hotspot_factor, const TmWindow **out_w, GPtrArray **out_all)
{
  g_autofree GcSpec *s = g_new0 (GcSpec, 200);
  g_autoptr(TmTrace) trace = NULL;

  /* 10 MiB freed per 100 ms GC; GCs 81..120 free hotspot_factor times more */
  for (guint i = 0; i < 200; i++)
    {
      s[i].end_ns = (i + 1) * 100000000ull;
      s[i].pause_ns = 1000000;
      s[i].used_after = 100 * MIB;
      s[i].used_before = 100 * MIB + (guint64) ((i >= 80 && i < 120 ? hotspot_factor : 1.0) * 10 * MIB);
      s[i].reachable = -1;
    }
  trace = trace_from_specs (s, 200, "tmtrace");
  *out_all = tm_windows_detect (trace, NULL, TRUE);
  *out_w = find_kind (*out_all, TM_WINDOW_CHURN);
  g_assert_nonnull (*out_w);
}

static void
test_trace_churn (void)
{
  const TmWindow *w;
  g_autoptr(GPtrArray) a = NULL, b = NULL, c = NULL;

  churn_trace (10, &w, &a);
  g_assert_true (w->suspicious);
  g_assert_cmpuint (w->first_gc, >=, 81);
  g_assert_cmpuint (w->last_gc, <=, 120);
  g_assert_cmpfloat_with_epsilon (w->score, 1000.0 * MIB, 1.0);
  /* edges of the 3x-median rule */
  churn_trace (3.01, &w, &b);
  g_assert_true (w->suspicious);
  churn_trace (2.99, &w, &c);
  g_assert_false (w->suspicious);
}

/* A steady program: 16 MiB allocated per 100 ms GC interval, 10 MiB of
 * it dies young, 6 MiB is promoted; every 20th GC is a full collection
 * that frees the 114 MiB of old garbage piled up since the last one.
 * Counting every freed byte, a 5-GC window with a full GC frees 170 MiB,
 * 3.4 times the 50 MiB of the others: a churn window where the
 * allocation rate never changed.  A GC frees at most 16 MiB of what was
 * allocated since the previous one: no churn.  The paper's count is
 * kept by churn_all_freed. */
static void
test_trace_churn_old_garbage (void)
{
  g_autofree GcSpec *s = g_new0 (GcSpec, 200);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(GPtrArray) all = NULL, paper = NULL;
  TmWindowParams params;
  const TmWindow *w;
  guint64 prev_after = 100 * MIB;

  for (guint i = 0; i < 200; i++)
    {
      gboolean full = (i + 1) % 20 == 0;

      s[i].end_ns = (i + 1) * 100000000ull;
      s[i].pause_ns = full ? 5000000 : 1000000;
      s[i].kind = full ? TM_GC_KIND_MAJOR : TM_GC_KIND_MINOR;
      s[i].used_before = prev_after + 16 * MIB;
      s[i].used_after = 100 * MIB + 6 * MIB * ((i + 1) % 20);
      s[i].reachable = -1;
      prev_after = s[i].used_after;
    }
  trace = trace_from_specs (s, 200, "tmtrace");
  all = tm_windows_detect (trace, NULL, TRUE);
  w = find_kind (all, TM_WINDOW_CHURN);
  g_assert_nonnull (w);
  g_assert_false (w->suspicious);
  /* a window with a full GC: 4 x 10 + 16 MiB in 0.5 s */
  g_assert_cmpfloat_with_epsilon (w->score, 56.0 * MIB / 0.5, 1.0);
  tm_window_params_init (&params);
  params.churn_all_freed = TRUE;
  paper = tm_windows_detect (trace, &params, TRUE);
  w = find_kind (paper, TM_WINDOW_CHURN);
  g_assert_nonnull (w);
  g_assert_true (w->suspicious);
  g_assert_cmpfloat_with_epsilon (w->score, 170.0 * MIB / 0.5, 1.0);
  g_assert_cmpuint ((w->last_gc / 20) * 20, >=, w->first_gc);
}

/* A program that frees 10 MiB per 100 ms GC for 40 GCs, then thrashes
 * for 160 GCs (80 ms of each 100 ms in pauses, 0.5 MiB freed each), as a
 * leak at the heap's limit does before its OutOfMemoryError.  The
 * thrashing holds 80% of the time, so the rate the run keeps for half of
 * its time was its 5 MiB/s, and the program's ordinary start 20 times
 * it: a churn window.  The baseline is taken over the calm windows (less
 * than 10% in pauses): no churn; the thrashing is GC overhead. */
static void
test_trace_churn_calm_baseline (void)
{
  g_autofree GcSpec *s = g_new0 (GcSpec, 200);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(GPtrArray) all = NULL;
  const TmWindow *w;

  for (guint i = 0; i < 200; i++)
    {
      gboolean thrash = i >= 40;

      s[i].end_ns = (i + 1) * 100000000ull;
      s[i].pause_ns = thrash ? 80000000 : 1000000;
      s[i].kind = thrash ? TM_GC_KIND_MAJOR : TM_GC_KIND_MINOR;
      s[i].used_after = 100 * MIB;
      s[i].used_before = 100 * MIB + (thrash ? MIB / 2 : 10 * MIB);
      s[i].reachable = -1;
    }
  trace = trace_from_specs (s, 200, "tmtrace");
  all = tm_windows_detect (trace, NULL, TRUE);
  w = find_kind (all, TM_WINDOW_CHURN);
  g_assert_nonnull (w);
  g_assert_false (w->suspicious);
  g_assert_cmpfloat_with_epsilon (w->score, 100.0 * MIB, 1.0);
  g_assert_cmpfloat_with_epsilon (w->threshold, 300.0 * MIB, 1.0);
  w = find_kind (all, TM_WINDOW_GC_OVERHEAD);
  g_assert_true (w->suspicious);
  g_assert_cmpuint (w->first_gc, >, 40);
}

static void
test_trace_churn_floor (void)
{
  g_autofree GcSpec *s = g_new0 (GcSpec, 100);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(GPtrArray) all = NULL;
  const TmWindow *w;

  /* a hotspot 10x the median, but only 100 KiB/s: under the floor */
  for (guint i = 0; i < 100; i++)
    {
      s[i].end_ns = (i + 1) * SEC;
      s[i].pause_ns = 1000000;
      s[i].used_after = 10 * MIB;
      s[i].used_before = 10 * MIB + (i >= 40 && i < 50 ? 100 : 10) * 1024;
      s[i].reachable = -1;
    }
  trace = trace_from_specs (s, 100, "tmtrace");
  all = tm_windows_detect (trace, NULL, TRUE);
  w = find_kind (all, TM_WINDOW_CHURN);
  g_assert_nonnull (w);
  g_assert_cmpuint (w->first_gc, >=, 41);
  g_assert_cmpuint (w->last_gc, <=, 50);
  g_assert_false (w->suspicious);
  g_assert_cmpfloat (w->threshold, ==, 1024.0 * 1024.0);
}

/* occupancy after GC: flat 100 MiB, then growth over the points from
 * `grow_from` (0-based) to the end */
static TmTrace *
growth_trace (gsize n, gsize grow_from, guint full_every, const char *format)
{
  g_autofree GcSpec *s = g_new0 (GcSpec, n);

  for (gsize i = 0; i < n; i++)
    {
      s[i].end_ns = (i + 1) * 100000000ull;
      s[i].pause_ns = 1000000;
      s[i].used_after = 100 * MIB + (i > grow_from ? (i - grow_from) * 2 * MIB : 0);
      s[i].used_before = s[i].used_after + 50 * MIB;
      s[i].reachable = -1;
      s[i].kind = full_every && (i + 1) % full_every == 0 ? TM_GC_KIND_MAJOR : TM_GC_KIND_MINOR;
    }
  return trace_from_specs (s, n, format);
}

static void
test_trace_leak_coverage_edge (void)
{
  /* 100 GCs; the window starts at the last flat point.  Young GCs only,
   * which the real-run rules do not judge (garbage may grow): the
   * paper's rules */
  TmWindowParams paper;
  g_autoptr(TmTrace) t10 = growth_trace (100, 90, 0, "tmtrace");   /* 10 points: 10% */
  g_autoptr(TmTrace) t9 = growth_trace (100, 91, 0, "tmtrace");    /* 9 points */
  g_autoptr(GPtrArray) w10 = NULL, w9 = NULL;
  const TmWindow *a, *b;

  tm_window_params_init_paper (&paper);
  w10 = tm_windows_detect (t10, &paper, TRUE);
  w9 = tm_windows_detect (t9, &paper, TRUE);
  a = find_kind (w10, TM_WINDOW_LEAK);
  b = find_kind (w9, TM_WINDOW_LEAK);
  g_assert_nonnull (a);
  g_assert_true (a->suspicious);
  g_assert_cmpuint (a->first_gc, ==, 91);
  g_assert_cmpuint (a->last_gc, ==, 100);
  g_assert_cmpstr (a->series, ==, "occupancy");
  g_assert_nonnull (strstr (a->explanation, "no reference graphs"));
  g_assert_cmpfloat_with_epsilon (a->value_start, 100.0 * MIB, 0.5);
  g_assert_cmpfloat_with_epsilon (a->value_end, 118.0 * MIB, 0.5);
  /* 18 MiB in 0.9 s */
  g_assert_cmpfloat_with_epsilon (a->score, 18.0 * MIB / 0.9, 1.0);

  g_assert_nonnull (b);
  g_assert_false (b->suspicious);
  g_assert_cmpuint (b->first_gc, ==, 92);
  {
    g_autoptr(GPtrArray) shown = tm_windows_detect (t9, &paper, FALSE);
    g_autoptr(GPtrArray) real = tm_windows_detect (t10, NULL, TRUE);
    const TmWindow *r;

    g_assert_null (find_kind (shown, TM_WINDOW_LEAK));
    /* the real-run rules: no whole-heap GC collected what grows */
    r = find_kind (real, TM_WINDOW_LEAK);
    g_assert_nonnull (r);
    g_assert_false (r->suspicious);
    g_assert_null (r->growth);
    g_assert_nonnull (strstr (r->explanation, "no whole-heap collection ran"));
  }
}

static void
test_trace_leak_growth_edge (void)
{
  TmWindowParams params;
  g_autoptr(TmTrace) t = growth_trace (100, 49, 0, "tmtrace");   /* 100 MiB -> 200 MiB: +100% */
  g_autoptr(GPtrArray) a = NULL, b = NULL;

  tm_window_params_init_paper (&params);
  params.leak_min_growth = 1.0;
  a = tm_windows_detect (t, &params, FALSE);
  g_assert_nonnull (find_kind (a, TM_WINDOW_LEAK));
  params.leak_min_growth = 1.01;
  b = tm_windows_detect (t, &params, FALSE);
  g_assert_null (find_kind (b, TM_WINDOW_LEAK));
}

static void
test_trace_series_choice (void)
{
  /* every 4th GC is a full GC: 25 of them, enough to use them alone */
  g_autoptr(TmTrace) log = growth_trace (100, 20, 4, "gc-log");
  g_autoptr(TmTrace) rec = growth_trace (100, 20, 4, "tmtrace");
  g_autoptr(GPtrArray) wl = tm_windows_detect (log, NULL, FALSE);
  g_autoptr(GPtrArray) wr = tm_windows_detect (rec, NULL, FALSE);
  const TmWindow *a = find_kind (wl, TM_WINDOW_LEAK);
  const TmWindow *b = find_kind (wr, TM_WINDOW_LEAK);

  g_assert_nonnull (a);
  g_assert_cmpstr (a->series, ==, "full-gc-occupancy");
  g_assert_nonnull (strstr (a->explanation, "GC log"));
  /* full GCs are GCs 4, 8, ...; growth starts after GC 21: the last flat
   * full GC is GC 20 */
  g_assert_cmpuint (a->first_gc, ==, 20);
  g_assert_cmpuint (a->last_gc, ==, 100);
  g_assert_nonnull (b);
  g_assert_cmpstr (b->series, ==, "full-gc-occupancy");
  g_assert_null (strstr (b->explanation, "GC log"));
  g_assert_cmpstr (tm_windows_leak_series_label (log, NULL), ==, "occupancy after full collections");
}

static void
test_trace_reachable_preferred (void)
{
  /* occupancy is flat, reachable memory (graphs at every 5th GC) grows
   * from the 8th graph on: the leak is found on reachable memory */
  g_autofree GcSpec *s = steady_specs (200, 5);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(GPtrArray) ws = NULL;
  const TmWindow *w, *p, *r;

  for (guint i = 0; i < 200; i++)
    {
      guint g = i / 5;
      s[i].reachable = (i + 1) % 5 == 0 ? (gint64) (50 * MIB + (g >= 8 ? (g - 7) * MIB : 0)) : -1;
    }
  trace = trace_from_specs (s, 200, "tmtrace");
  g_assert_cmpuint (trace->n_graphs, ==, 40);
  ws = tm_windows_detect (trace, NULL, FALSE);
  w = find_kind (ws, TM_WINDOW_LEAK);
  g_assert_nonnull (w);
  g_assert_cmpstr (w->series, ==, "reachable");
  g_assert_null (strstr (w->explanation, "no reference graphs"));
  /* the 8th graph (GC 40) is the last flat point */
  g_assert_cmpuint (w->first_gc, ==, 40);
  g_assert_cmpuint (w->last_gc, ==, 200);
  g_assert_cmpfloat_with_epsilon (w->value_end, 82.0 * MIB, 0.5);
  /* linear growth: every subwindow ties, the longest (50% of 33 points =
   * 16 points) earliest wins */
  p = find_kind (ws, TM_WINDOW_LEAK_PEAK);
  g_assert_nonnull (p);
  g_assert_true (p->suspicious);
  g_assert_cmpuint (p->first_gc, ==, 40);
  g_assert_cmpuint (p->last_gc, ==, 40 + 15 * 5);
  /* the regression windows starting at GC 40 or later all rise at
   * exactly 1 MiB per 0.5 s; the 10% slack reaches back into the flat
   * part while the slope stays >= 90% of that */
  r = find_kind (ws, TM_WINDOW_LEAK_REGRESSION);
  g_assert_nonnull (r);
  g_assert_true (r->suspicious);
  g_assert_cmpuint (r->first_gc, <, 40);
  g_assert_cmpuint (r->last_gc, ==, 200);
  g_assert_cmpfloat (r->score, >=, 0.9 * MIB / 0.5);
  g_assert_cmpfloat (r->score, <, MIB / 0.5);
  /* without slack (the paper's steepest window): exactly the growth */
  {
    TmWindowParams params;
    g_autoptr(GPtrArray) strict = NULL;

    tm_window_params_init (&params);
    params.leak_regression_slack = 0;
    strict = tm_windows_detect (trace, &params, FALSE);
    r = find_kind (strict, TM_WINDOW_LEAK_REGRESSION);
    g_assert_nonnull (r);
    g_assert_cmpuint (r->first_gc, ==, 40);
    g_assert_cmpuint (r->last_gc, ==, 200);
    g_assert_cmpfloat_with_epsilon (r->score, MIB / 0.5, 1.0);
  }
}

/* A leak recorded with a graph every other GC: 20 points of reachable
 * memory rising by 1 MiB each from 40 MiB, the last by 4 MiB (a burst at
 * the end, as leaks in steps have).  10% of the points is 2, and the two
 * last points are the steepest fit by far; the paper's search then keeps
 * them alone, whose 4 MiB are under 10% of 58 MiB.  A window must have
 * the 6 points a verdict needs, and the leak is a regression leak. */
static void
test_trace_regression_noisy_end (void)
{
  g_autofree GcSpec *s = steady_specs (40, 3);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(GPtrArray) ws = NULL;
  const TmWindow *r;

  for (guint i = 0; i < 40; i++)
    {
      guint k = i / 2;
      s[i].reachable = i % 2 == 1 ? (gint64) (40 * MIB + (k < 19 ? k : 22) * MIB) : -1;
    }
  trace = trace_from_specs (s, 40, "tmtrace");
  ws = tm_windows_detect (trace, NULL, FALSE);
  r = find_kind (ws, TM_WINDOW_LEAK_REGRESSION);
  g_assert_nonnull (r);
  g_assert_true (r->suspicious);
  g_assert_cmpstr (r->series, ==, "reachable");
  g_assert_cmpuint (r->last_gc, ==, 40);
  g_assert_cmpuint (r->first_gc, <=, 40 - 5 * 2);
  g_assert_nonnull (find_kind (ws, TM_WINDOW_LEAK));
}

static void
test_trace_hump_is_not_a_leak (void)
{
  /* occupancy flat at 100 MiB except a temporary rise to 300 MiB over
   * GCs 121..160: a line fitted across the whole run tilts upwards, but
   * nothing grows for good */
  g_autofree GcSpec *s = steady_specs (200, 11);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(GPtrArray) ws = NULL, all = NULL;
  const TmWindow *r;

  for (guint i = 120; i < 160; i++)
    {
      s[i].used_after += 200 * MIB * (i - 119) / 40;
      s[i].used_before += 200 * MIB * (i - 119) / 40;
    }
  trace = trace_from_specs (s, 200, "tmtrace");
  ws = tm_windows_detect (trace, NULL, FALSE);
  g_assert_null (find_kind (ws, TM_WINDOW_LEAK));
  g_assert_null (find_kind (ws, TM_WINDOW_LEAK_PEAK));
  g_assert_null (find_kind (ws, TM_WINDOW_LEAK_REGRESSION));
  all = tm_windows_detect (trace, NULL, TRUE);
  r = find_kind (all, TM_WINDOW_LEAK_REGRESSION);
  if (r != NULL)
    g_assert_false (r->suspicious);
}

static void
test_trace_tiny (void)
{
  /* 0, 1 and 3 GCs: no crash, nothing suspicious */
  for (gsize n = 0; n <= 3; n++)
    {
      g_autofree GcSpec *s = steady_specs (MAX (n, 1), 1);
      g_autoptr(TmTrace) trace = trace_from_specs (s, n, "tmtrace");
      g_autoptr(GPtrArray) ws = tm_windows_detect (trace, NULL, TRUE);

      for (guint i = 0; i < ws->len; i++)
        g_assert_false (((TmWindow *) ws->pdata[i])->suspicious);
      g_assert_null (find_kind (ws, TM_WINDOW_GC_OVERHEAD));
    }
}

static void
test_trace_garbage (void)
{
  /* untrusted numbers: huge sizes, times that jump back, pauses longer
   * than the run, identical end times, graphs on random GCs */
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);

  for (guint round = 0; round < 60; round++)
    {
      gsize n = g_rand_int_range (rand, 0, 300);
      g_autofree GcSpec *s = g_new0 (GcSpec, MAX (n, 1));
      g_autoptr(TmTrace) trace = NULL;
      g_autoptr(GPtrArray) ws = NULL;
      guint64 t = 1000;

      for (gsize i = 0; i < n; i++)
        {
          static const guint64 big[] = { 0, 1, G_MAXUINT32, G_GUINT64_CONSTANT (1) << 62,
                                         G_MAXINT64, G_MAXUINT64 - 1 };
          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0: t += 0; break;
            case 1: t += g_rand_int_range (rand, 1, 1000); break;
            case 2: t = t > 500 ? t - 500 : t; break;
            default: t += (guint64) g_rand_int (rand) << g_rand_int_range (rand, 0, 32); break;
            }
          s[i].end_ns = MAX (t, 1);
          s[i].pause_ns = g_rand_boolean (rand) ? s[i].end_ns : (guint64) g_rand_int_range (rand, 0, 10);
          s[i].used_before = big[g_rand_int_range (rand, 0, G_N_ELEMENTS (big))];
          s[i].used_after = big[g_rand_int_range (rand, 0, G_N_ELEMENTS (big))];
          s[i].kind = g_rand_int_range (rand, 0, 5);
          s[i].reachable = g_rand_int_range (rand, 0, 4) == 0 ? g_rand_int_range (rand, 0, 1 << 30) : -1;
        }
      trace = trace_from_specs (s, n, "tmtrace");
      ws = tm_windows_detect (trace, NULL, TRUE);
      for (guint i = 0; i < ws->len; i++)
        {
          const TmWindow *w = ws->pdata[i];

          g_assert_cmpuint (w->first_gc, >=, 1);
          g_assert_cmpuint (w->first_gc, <=, w->last_gc);
          g_assert_cmpuint (w->last_gc, <=, n);
          g_assert_true (isfinite (w->score));
          g_assert_nonnull (w->explanation);
          if (w->kind == TM_WINDOW_GC_OVERHEAD)
            g_assert_cmpfloat (w->score, <=, 1.0);
        }
    }
}

/* ---- synthetic scenarios with planted phases (tm-synth.h) ---- */

/* A synthetic scenario (n_gcs 0: the default 200) loaded back. */
static TmTrace *
synth_trace (const char *scenario, guint n_gcs)
{
  TmSynthOptions o;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tm-windows-XXXXXX", &error);
  g_autofree char *path = NULL;
  TmTrace *trace;

  g_assert_no_error (error);
  path = g_build_filename (dir, "s.tmtrace", NULL);
  tm_synth_options_init (&o);
  o.scenario = scenario;
  o.n_gcs = n_gcs;
  g_assert_true (tm_synth_write_file (&o, path, &error));
  g_assert_no_error (error);
  trace = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_unlink (path);
  g_rmdir (dir);
  return trace;
}

static GPtrArray *
synth_windows (const char *scenario, TmTrace **out_trace)
{
  *out_trace = synth_trace (scenario, 0);
  return tm_windows_detect (*out_trace, NULL, FALSE);
}

static void
dump_windows (const char *what, GPtrArray *ws)
{
  for (guint i = 0; i < ws->len; i++)
    {
      const TmWindow *w = ws->pdata[i];
      g_test_message ("%s: %s GCs %u-%u score %g: %s", what, tm_window_kind_to_string (w->kind),
                      w->first_gc, w->last_gc, w->score, w->explanation);
    }
}

/* The bound of a planted phase as a GC id: fraction f of n GCs.  A window
 * edge is accepted within one graph interval (leak, graphs every 10 GCs)
 * or within one window of the maximum length (rate windows) of it. */
static double
phase_gc (const TmTrace *t, double f)
{
  return f * tm_trace_n_gcs (t);
}

static void
test_synth_steady (void)
{
  TmTrace *t = NULL;
  g_autoptr(GPtrArray) ws = synth_windows ("steady", &t);

  dump_windows ("steady", ws);
  g_assert_cmpuint (ws->len, ==, 0);
  tm_trace_unref (t);
}

static void
test_synth_leak (void)
{
  TmTrace *t = NULL;
  g_autoptr(GPtrArray) ws = synth_windows ("leak", &t);
  const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);
  guint n = tm_trace_n_gcs (t);

  dump_windows ("leak", ws);
  g_assert_nonnull (w);
  g_assert_cmpstr (w->series, ==, "reachable");
  /* starts at the last graph before the 20% mark at the earliest, and
   * within one graph interval (10 GCs) after it */
  g_assert_cmpfloat (w->first_gc, >=, phase_gc (t, 0.20) - 10);
  g_assert_cmpfloat (w->first_gc, <=, phase_gc (t, 0.20) + 10);
  g_assert_cmpuint (w->last_gc, ==, n);
  g_assert_true (w->suspicious);
  tm_trace_unref (t);
}

static void
assert_rate_phase (const char *scenario, TmWindowKind kind, double lo, double hi, gboolean flat_live_set)
{
  TmTrace *t = NULL;
  g_autoptr(GPtrArray) ws = synth_windows (scenario, &t);
  const TmWindow *w = find_kind (ws, kind);

  dump_windows (scenario, ws);
  g_assert_nonnull (w);
  g_assert_true (w->suspicious);
  /* the window lies inside the planted phase, give or take one GC at
   * each edge (the phase bounds are rounded fractions of the GC count) */
  g_assert_cmpfloat (w->first_gc, >=, phase_gc (t, lo) - 1);
  g_assert_cmpfloat (w->last_gc, <=, phase_gc (t, hi) + 1);
  if (flat_live_set)
    g_assert_null (find_kind (ws, TM_WINDOW_LEAK));
  tm_trace_unref (t);
}

static void
test_synth_churn (void)
{
  assert_rate_phase ("churn", TM_WINDOW_CHURN, 0.40, 0.60, TRUE);
}

static void
test_synth_overhead (void)
{
  assert_rate_phase ("gc-overhead", TM_WINDOW_GC_OVERHEAD, 0.50, 0.70, FALSE);
}

static void
test_synth_mixed (void)
{
  /* leak from 10% to the end, churn at 30%..40%, GC overhead at 60%..70% */
  TmTrace *t = NULL;
  g_autoptr(GPtrArray) ws = synth_windows ("mixed", &t);
  const TmWindow *leak = find_kind (ws, TM_WINDOW_LEAK);
  const TmWindow *churn = find_kind (ws, TM_WINDOW_CHURN);
  const TmWindow *over = find_kind (ws, TM_WINDOW_GC_OVERHEAD);

  dump_windows ("mixed", ws);
  g_assert_nonnull (leak);
  g_assert_cmpfloat (leak->first_gc, >=, phase_gc (t, 0.10) - 10);
  g_assert_cmpfloat (leak->first_gc, <=, phase_gc (t, 0.10) + 10);
  g_assert_cmpuint (leak->last_gc, ==, tm_trace_n_gcs (t));
  g_assert_nonnull (churn);
  g_assert_cmpfloat (churn->first_gc, >=, phase_gc (t, 0.30) - 1);
  g_assert_cmpfloat (churn->last_gc, <=, phase_gc (t, 0.40) + 1);
  g_assert_nonnull (over);
  g_assert_cmpfloat (over->first_gc, >=, phase_gc (t, 0.60) - 1);
  g_assert_cmpfloat (over->last_gc, <=, phase_gc (t, 0.70) + 1);
  tm_trace_unref (t);
}


/* ---- real runs: teardown, warm-up, cycles, churn bursts, evidence ---- */

/* The windows under the paper's rules (tm_window_params_init_paper). */
static GPtrArray *
detect_paper (const TmTrace *t, gboolean all)
{
  TmWindowParams paper;

  tm_window_params_init_paper (&paper);
  return tm_windows_detect (t, &paper, all);
}

static void
test_teardown_known (void)
{
  /* a leak, then the final drop at exit in the last point */
  static const guint64 exit_drop[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150,
                                       160, 170, 180, 190, 5 };
  /* the fall into the drop (190, 150) belongs to the teardown */
  static const guint64 fall[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150,
                                  160, 170, 190, 150, 20 };
  /* a drop to 51% of the peak is not deep enough; 50% is */
  static const guint64 shallow[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 102, 52 };
  static const guint64 deep[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 102, 51 };
  /* a long low tail (5 of 12 points) is the program's own behaviour */
  static const guint64 long_tail[] = { 10, 20, 30, 40, 50, 60, 70, 5, 5, 5, 5, 5 };
  g_autofree TmSeriesPoint *a = series_from_values (exit_drop, G_N_ELEMENTS (exit_drop));
  g_autofree TmSeriesPoint *b = series_from_values (fall, G_N_ELEMENTS (fall));
  g_autofree TmSeriesPoint *c = series_from_values (shallow, G_N_ELEMENTS (shallow));
  g_autofree TmSeriesPoint *d = series_from_values (deep, G_N_ELEMENTS (deep));
  g_autofree TmSeriesPoint *e = series_from_values (long_tail, G_N_ELEMENTS (long_tail));

  g_assert_cmpuint (tm_teardown_start (a, 20, 0.5, 0.1), ==, 19);
  /* from the peak to the end takes 2 of 19 s: within 15%, not 10% */
  g_assert_cmpuint (tm_teardown_start (b, 20, 0.5, 0.15), ==, 18);
  g_assert_cmpuint (tm_teardown_start (b, 20, 0.5, 0.1), ==, 19);
  g_assert_cmpuint (tm_teardown_start (c, 12, 0.5, 0.1), ==, 12);
  g_assert_cmpuint (tm_teardown_start (d, 12, 0.5, 0.1), ==, 11);
  g_assert_cmpuint (tm_teardown_start (e, 12, 0.5, 0.1), ==, 12);
  /* off */
  g_assert_cmpuint (tm_teardown_start (a, 20, 0, 0.1), ==, 20);
}

static void
test_growth_continues_known (void)
{
  guint64 v[30];
  g_autofree TmSeriesPoint *p = NULL;
  gsize plateau;
  double all, tail;

  /* steady growth continues */
  for (guint i = 0; i < 30; i++)
    v[i] = 100 + 10 * i;
  p = series_from_values (v, 30);
  g_assert_true (tm_growth_continues (p, 30, 0.25, &all, &tail, &plateau));
  g_assert_cmpfloat_with_epsilon (all, 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (tail, 10, 1e-9);
  g_clear_pointer (&p, g_free);

  /* grows to index 12, then flat: warm-up from index 12 */
  for (guint i = 0; i < 30; i++)
    v[i] = 100 + 10 * MIN (i, 12);
  p = series_from_values (v, 30);
  g_assert_false (tm_growth_continues (p, 30, 0.25, &all, &tail, &plateau));
  g_assert_cmpuint (plateau, ==, 12);
  g_assert_cmpfloat (tail, ==, 0);
  /* the paper's rules do not ask */
  g_assert_true (tm_growth_continues (p, 30, 0, NULL, NULL, NULL));
  g_clear_pointer (&p, g_free);

  /* the last third at exactly 25% of the window's rate is still growth:
   * slope 4 for 20 points, then 1 */
  for (guint i = 0; i < 30; i++)
    v[i] = i < 20 ? 1000 + 4 * i : 1000 + 4 * 19 + (i - 19);
  p = series_from_values (v, 30);
  g_assert_true (tm_growth_continues (p, 30, 0.2, &all, &tail, NULL));
  g_assert_cmpfloat_with_epsilon (tail, 1, 1e-9);
  g_assert_false (tm_growth_continues (p, 30, tail / all + 1e-6, NULL, NULL, NULL));
  g_clear_pointer (&p, g_free);

  /* 5 points cannot tell (a last third of 3 needs 6) */
  p = series_from_values (v, 6);
  g_assert_false (tm_growth_continues (p, 5, 0.25, NULL, NULL, NULL));
  g_assert_true (tm_growth_continues (p, 6, 0.25, NULL, NULL, NULL));
}

static void
test_growth_new_high (void)
{
  /* a sawtooth: each cycle rises to ~100 and is halved */
  static const guint64 saw[] = { 50, 70, 90, 100, 50, 70, 90, 101, 50, 60, 70, 80, 90, 100 };
  static const guint64 rising[] = { 50, 70, 90, 100, 50, 70, 90, 110, 60, 80, 100, 120, 140, 160 };
  g_autofree TmSeriesPoint *a = series_from_values (saw, G_N_ELEMENTS (saw));
  g_autofree TmSeriesPoint *b = series_from_values (rising, G_N_ELEMENTS (rising));
  gsize n = G_N_ELEMENTS (saw);
  gsize start = tm_leak_heuristic_start (a, n, 0.75);
  gsize r1 = tm_leak_first_restart (a, n, 0.75);
  guint64 h;
  gsize at;

  g_assert_cmpuint (start, ==, 8);
  g_assert_cmpuint (r1, ==, 4);
  /* the last cycle reaches 100, the one before reached 101 */
  g_assert_false (tm_growth_new_high (a, n, start, r1, &h, &at));
  g_assert_cmpuint (h, ==, 101);
  g_assert_cmpuint (at, ==, 7);
  /* each cycle higher: 160 is far above 110 */
  g_assert_true (tm_growth_new_high (b, n, tm_leak_heuristic_start (b, n, 0.75),
                                     tm_leak_first_restart (b, n, 0.75), NULL, NULL));
}

static void
test_rate_time_median (void)
{
  /* 10 GCs 100 ms apart freeing 1 MB each, then 90 GCs 10 ms apart
   * freeing 1 MB each (a burst with 90% of the GCs, half the time) ... */
  enum { N = 100 };
  guint64 bounds[N + 1], amount[N];
  double count_median, time_median;

  bounds[0] = 0;
  for (gsize k = 0; k < N; k++)
    {
      bounds[k + 1] = bounds[k] + (k < 10 ? 100000000 : 10000000);
      amount[k] = 1000000;
    }
  /* single-GC windows: 10 at 0.01/ns (1 s total) and 90 at 0.1/ns (0.9 s) */
  count_median = tm_rate_window_median (bounds, amount, N, 1);
  time_median = tm_rate_window_time_median (bounds, amount, N, 1);
  g_assert_cmpfloat_with_epsilon (count_median, 0.1, 1e-12);
  g_assert_cmpfloat_with_epsilon (time_median, 0.01, 1e-12);
  /* ... one more burst GC tips the time balance: 1 s against 1.0 s, the
   * lower weighted median is still the baseline */
  g_assert_cmpfloat (tm_rate_window_time_median (bounds, amount, N, 200), ==, 0);
}

static void
test_rate_time_median_brute (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 200; round++)
    {
      gsize n = g_rand_int_range (rand, 1, 60), k = g_rand_int_range (rand, 1, 6);
      g_autofree guint64 *bounds = g_new (guint64, n + 1), *amount = g_new (guint64, n);
      double total = 0, best = 0;
      gboolean any = FALSE;

      bounds[0] = 0;
      for (gsize i = 0; i < n; i++)
        {
          bounds[i + 1] = bounds[i] + (g_rand_boolean (rand) ? 0 : g_rand_int_range (rand, 1, 5));
          amount[i] = g_rand_int_range (rand, 0, 4);
        }
      /* brute force: the smallest rate r whose windows <= r weigh half */
      for (gsize b = k; b <= n; b++)
        if (bounds[b] > bounds[b - k])
          total += (double) (bounds[b] - bounds[b - k]);
      for (gsize c = k; c <= n; c++)
        {
          double r, below = 0;

          if (bounds[c] <= bounds[c - k])
            continue;
          r = 0;
          for (gsize j = c - k; j < c; j++)
            r += (double) amount[j];
          r /= (double) (bounds[c] - bounds[c - k]);
          for (gsize b = k; b <= n; b++)
            if (bounds[b] > bounds[b - k])
              {
                double rb = 0;
                for (gsize j = b - k; j < b; j++)
                  rb += (double) amount[j];
                rb /= (double) (bounds[b] - bounds[b - k]);
                if (rb <= r)
                  below += (double) (bounds[b] - bounds[b - k]);
              }
          if (below >= total / 2 && (!any || r < best))
            {
              best = r;
              any = TRUE;
            }
        }
      g_assert_cmpfloat (tm_rate_window_time_median (bounds, amount, n, k), ==, any ? best : 0);
    }
}

static void
test_trace_min_evidence (void)
{
  /* steady growth of 2 MiB per GC with a whole-heap GC every 2: below 15
   * GCs no verdict at all; from 15 on, judged on the whole-heap GCs */
  for (gsize n = 4; n <= 40; n++)
    {
      g_autoptr(TmTrace) t = growth_trace (n, 0, 2, "gc-log");
      g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, FALSE);
      g_autofree char *note = tm_windows_evidence_note (t, NULL);

      if (n < 15)
        {
          g_autofree char *want = g_strdup_printf ("%u GCs: too few to judge growth or churn", (guint) n);

          g_assert_null (find_kind (ws, TM_WINDOW_LEAK));
          g_assert_null (find_kind (ws, TM_WINDOW_LEAK_REGRESSION));
          g_assert_null (find_kind (ws, TM_WINDOW_CHURN));
          g_assert_nonnull (note);
          g_assert_nonnull (strstr (note, want));
        }
      else
        {
          const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);

          g_assert_nonnull (w);
          g_assert_cmpstr (w->series, ==, "full-gc-occupancy");
          g_assert_cmpstr (w->growth, ==, "leak");
          g_assert_null (note);
        }
    }
  /* enough GCs, but 5 whole-heap GCs are too few points for a verdict */
  {
    g_autoptr(TmTrace) t = growth_trace (25, 0, 5, "gc-log");
    g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, TRUE);
    g_autofree char *note = tm_windows_evidence_note (t, NULL);

    g_assert_null (find_kind (ws, TM_WINDOW_LEAK));
    g_assert_cmpstr (note, ==, "5 full collections: too few to judge growth (a verdict needs at least 6).");
  }
  /* the paper's rules judge even 8 GCs (100 -> 114 MiB) */
  {
    g_autoptr(TmTrace) t = growth_trace (8, 0, 1, "gc-log");
    g_autoptr(GPtrArray) ws = detect_paper (t, FALSE);

    g_assert_nonnull (find_kind (ws, TM_WINDOW_LEAK));
  }
}

/* A program that rarely collects, recorded with a graph at each GC (the
 * recorder forces them): reachable memory grows by 2 MiB per GC from
 * 50 MiB.  From 10 such graphs growth is judged although there are fewer
 * than 15 GCs; churn is not, and the note says both.  With 9 there is no
 * verdict, nor without graphs (occupancy after GCs). */
static void
test_trace_graph_evidence (void)
{
  for (gsize n = 8; n <= 14; n++)
    {
      g_autofree GcSpec *s = steady_specs (n, 5);
      g_autoptr(TmTrace) t = NULL;
      g_autoptr(GPtrArray) ws = NULL;
      g_autofree char *note = NULL;

      for (gsize i = 0; i < n; i++)
        {
          s[i].end_ns = (i + 1) * 1200000000ull;
          s[i].kind = TM_GC_KIND_MAJOR;
          s[i].reachable = (gint64) (50 * MIB + i * 2 * MIB);
        }
      t = trace_from_specs (s, n, "tmtrace");
      ws = tm_windows_detect (t, NULL, FALSE);
      note = tm_windows_evidence_note (t, NULL);
      g_assert_nonnull (note);
      g_assert_null (find_kind (ws, TM_WINDOW_CHURN));
      if (n < 10)
        {
          g_assert_null (find_kind (ws, TM_WINDOW_LEAK));
          g_assert_nonnull (strstr (note, "too few to judge growth or churn"));
        }
      else
        {
          g_autofree char *want = g_strdup_printf ("%u GCs: too few to judge churn (a verdict needs at least 15);"
                                                   " growth is judged on the %u reference graphs.",
                                                   (guint) n, (guint) n);
          const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);

          g_assert_nonnull (w);
          g_assert_cmpstr (w->series, ==, "reachable");
          g_assert_cmpuint (w->first_gc, ==, 1);
          g_assert_cmpuint (w->last_gc, ==, n);
          g_assert_cmpstr (note, ==, want);
        }
      /* the same GCs without graphs: occupancy, no verdict */
      for (gsize i = 0; i < n; i++)
        s[i].reachable = -1;
      {
        g_autoptr(TmTrace) o = trace_from_specs (s, n, "tmtrace");
        g_autoptr(GPtrArray) wo = tm_windows_detect (o, NULL, FALSE);

        g_assert_null (find_kind (wo, TM_WINDOW_LEAK));
      }
    }
}

/* A leak into a 40 MiB heap: reachable memory (a graph at every GC,
 * 100 ms apart) grows by 1 MiB per GC from 10 MiB for 20 GCs, then the
 * heap is full and it creeps by 20 KiB per GC for 40 GCs of thrashing
 * until an OutOfMemoryError.  The growth stopped at the ceiling: a leak.
 * The same series without the error, or under a 100 MiB limit (a plateau
 * at 31% of it, then one allocation too large), is a warm-up. */
static void
test_trace_leak_to_ceiling (void)
{
  g_autofree GcSpec *s = steady_specs (60, 2);
  const SpecExtras cases[] = {
    { 40 * MIB, 60, TRUE },    /* leak */
    { 40 * MIB, 0, TRUE },     /* no error: warm-up */
    { 100 * MIB, 60, TRUE },   /* far below the limit: warm-up */
  };

  for (guint i = 0; i < 60; i++)
    {
      s[i].kind = TM_GC_KIND_MAJOR;
      s[i].reachable = (gint64) (i < 20 ? 10 * MIB + i * MIB : 29 * MIB + (i - 19) * 20 * 1024);
      s[i].used_after = (guint64) s[i].reachable + 2 * MIB;
      s[i].used_before = s[i].used_after + 5 * MIB;
    }
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(TmTrace) t = trace_from_specs_full (s, 60, "tmtrace", &cases[c]);
      g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, TRUE);
      const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK), *r = find_kind (ws, TM_WINDOW_LEAK_REGRESSION);

      g_assert_nonnull (w);
      g_assert_nonnull (r);
      g_assert_cmpuint (w->first_gc, ==, 1);
      if (c == 0)
        {
          g_assert_true (w->suspicious);
          g_assert_cmpstr (w->growth, ==, "leak");
          g_assert_nonnull (strstr (w->explanation, "stayed near the heap's limit of 40.0 MiB"));
          g_assert_true (r->suspicious);
        }
      else
        {
          g_assert_false (w->suspicious);
          g_assert_cmpstr (w->growth, ==, "warm-up");
          g_assert_false (r->suspicious);
        }
    }

  /* Growth that slows as the heap fills, 10 + 30 (1 - e^(-i/25)) MiB: its
   * last third still rises (40% of the window's slope) but no higher than
   * a sixth of the growth above what came before.  With the error near
   * the 40 MiB limit it stopped at the ceiling: a leak (a recorded cache
   * leak into 64 MiB was called a cycle).  Without the error it is not. */
  for (guint i = 0; i < 60; i++)
    {
      s[i].reachable = (gint64) ((10 + 30 * (1 - exp (-(double) i / 25))) * MIB);
      s[i].used_after = (guint64) s[i].reachable + 2 * MIB;
      s[i].used_before = s[i].used_after + 5 * MIB;
    }
  for (guint c = 0; c < 2; c++)
    {
      g_autoptr(TmTrace) t = trace_from_specs_full (s, 60, "tmtrace", &cases[c]);
      g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, TRUE);
      const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);

      g_assert_nonnull (w);
      g_assert_cmpuint (w->first_gc, ==, 1);
      g_assert_true (w->suspicious == (c == 0));
      g_assert_cmpstr (w->growth, ==, c == 0 ? "leak" : NULL);
      if (c == 0)
        g_assert_nonnull (strstr (w->explanation, "stayed near the heap's limit of 40.0 MiB"));
    }
}

/* A program that catches its OutOfMemoryError and goes on: reachable
 * memory (a whole-heap GC with a graph every 100 ms) grows by 1 MiB per
 * GC from 10 MiB for 30 GCs, the error comes after GC 30, the graph taken
 * at it (GC 31) shows the full heap; the handler clears the cache, and the
 * graph taken at a second error (GC 33) shows 2 MiB; then 10 MiB flat.
 * The run ends at the first error: a leak over GCs 1-31.  The second
 * error's graph is what the handler left, not the heap that ran out. */
static void
test_trace_oom_caught (void)
{
  g_autofree GcSpec *s = steady_specs (40, 3);
  const SpecExtras x = { 64 * MIB, 30, TRUE, 32 };

  for (guint i = 0; i < 40; i++)
    {
      s[i].kind = TM_GC_KIND_MAJOR;
      s[i].reachable = (gint64) (i < 30 ? 10 * MIB + i * MIB : i == 30 ? 39 * MIB : i == 32 ? 2 * MIB : 10 * MIB);
      s[i].context = i == 30 || i == 32 ? TM_GRAPH_AT_OOM : 0;
      if (i == 31)
        s[i].reachable = -1;
      s[i].used_after = (guint64) MAX (s[i].reachable, 39 * (gint64) MIB) + 2 * MIB;
      s[i].used_before = s[i].used_after + 5 * MIB;
    }
  {
    g_autoptr(TmTrace) t = trace_from_specs_full (s, 40, "tmtrace", &x);
    g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, FALSE);
    const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);

    dump_windows ("oom-caught", ws);
    g_assert_nonnull (w);
    g_assert_true (w->suspicious);
    g_assert_cmpstr (w->growth, ==, "leak");
    g_assert_cmpuint (w->first_gc, ==, 1);
    g_assert_cmpuint (w->last_gc, ==, 31);
  }
}

/* A cache that fills while the program allocates (a GC with a graph
 * every 0.5 s, 1 MiB more each time, for 12 s) and is then only read: the
 * recorder's forced GCs come every 1.5 s, 4 graphs in the last 6 s.  The
 * plateau holds a third of the time but 4 of the 28 points: the last
 * third of the points still rises (a third of the window's slope), the
 * last third of the time does not: a warm-up (a recorded LRU cache filled
 * in 75% of the run was called a leak).  The same spacing with the growth
 * going on at the same rate is still a leak. */
static void
test_trace_sparse_plateau (void)
{
  GcSpec s[28];

  for (guint leak = 0; leak < 2; leak++)
    {
      guint64 t = 0;

      memset (s, 0, sizeof s);
      for (guint i = 0; i < 28; i++)
        {
          t += i < 24 ? 500 * MSEC : 1500 * MSEC;
          s[i].end_ns = t;
          s[i].pause_ns = 2 * MSEC;
          s[i].kind = i < 24 ? TM_GC_KIND_MINOR : TM_GC_KIND_MAJOR;
          s[i].reachable = (gint64) (10 * MIB + MIN (i, 23) * MIB + (leak && i >= 24 ? (i - 23) * 3 * MIB : 0));
          s[i].used_after = (guint64) s[i].reachable + MIB;
          s[i].used_before = s[i].used_after + 20 * MIB;
        }
      {
        g_autoptr(TmTrace) tr = trace_from_specs (s, 28, "tmtrace");
        g_autoptr(GPtrArray) ws = tm_windows_detect (tr, NULL, TRUE);
        const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);

        dump_windows (leak ? "sparse-leak" : "sparse-plateau", ws);
        g_assert_nonnull (w);
        g_assert_cmpuint (w->first_gc, ==, 1);
        g_assert_true (w->suspicious == (leak == 1));
        g_assert_cmpstr (w->growth, ==, leak ? "leak" : "warm-up");
        if (!leak)
          g_assert_nonnull (strstr (w->explanation, "stayed flat from GC 23 (growth over GCs 1-28; in its last third, GCs 25-28,"));
      }
    }
}

/* 20 GCs 1 s apart, each with a graph; an object of 100 KiB is allocated
 * before each of the first 10 GCs and of 500 KiB before each of the last
 * 10 (the program sped up 5 times).  Every graph reaches all the objects
 * allocated so far (a leak), or with `queue` only the newest third of
 * them (a queue whose consumer takes two jobs for every three put). */
static TmTrace *
accelerating_trace (gboolean queue)
{
  TmTraceBuilder *b = tm_trace_builder_new ("test.tmtrace", "tmtrace");
  TmTraceHeader h = { .version = 1, .vm_name = "test", .vm_version = "1", .command_line = "test",
                      .pointer_size = 8, .flags = TM_TRACE_FLAG_GRAPHS | TM_TRACE_FLAG_DEATHS };
  guint64 frame = 1, reach = 0, dead = 1;
  g_autoptr(GError) error = NULL;

  tm_trace_builder_header (b, &h);
  g_assert_true (tm_trace_builder_space (b, 1, TM_SPACE_KIND_OLD, "old", &error));
  g_assert_true (tm_trace_builder_type (b, 1, "byte[]", TM_TYPE_FLAG_PRIM_ARRAY, &error));
  g_assert_true (tm_trace_builder_frame (b, 1, "Main.main()", "Main.java", 1, &error));
  g_assert_true (tm_trace_builder_site (b, 1, 1, &frame, &error));
  g_assert_true (tm_trace_builder_thread (b, 1, "main", &error));
  for (guint64 id = 1; id <= 20; id++)
    {
      guint64 size = (id <= 10 ? 100 : 500) * 1024, from = queue ? id - id / 3 : 1;
      TmRootRecord roots[20];
      TmSpaceUsageRecord u;

      g_assert_true (tm_trace_builder_alloc (b, id, 1, 1, 1, size, 0, 0, &error));
      reach = 0;
      for (guint64 o = from; o <= id; o++)
        {
          roots[o - from] = (TmRootRecord) { o, TM_ROOT_KIND_STATIC, 1 };
          reach += (o <= 10 ? 100 : 500) * 1024;
        }
      u = (TmSpaceUsageRecord) { 1, reach + 8 * MIB, reach, reach + 8 * MIB };
      g_assert_true (tm_trace_builder_gc_start (b, id, id * SEC - 2 * MSEC, TM_GC_KIND_MAJOR, "G1", "test", &error));
      /* the jobs taken off the queue die (a trace built in memory has no
       * file to read the graphs back from: the deaths say it) */
      for (; dead < from; dead++)
        g_assert_true (tm_trace_builder_death (b, id, dead, &error));
      g_assert_true (tm_trace_builder_gc_end (b, id, id * SEC, 2 * MSEC, 1, &u, &error));
      g_assert_true (tm_trace_builder_graph_begin (b, id, 0, 0, &error));
      g_assert_true (tm_trace_builder_roots (b, (guint) (id - from + 1), roots, &error));
      g_assert_true (tm_trace_builder_graph_end (b, id, 0, &error));
    }
  tm_trace_builder_end (b, 20, 0, 20, 20 * SEC);
  return tm_trace_builder_finish (b);
}

/* A leak that speeds up 5 times half way keeps everything its first half
 * added: a leak (measured against the whole window's growth it kept 15%,
 * a "backlog").  A growing queue, speeding up the same way, keeps none of
 * it: a backlog. */
static void
test_trace_backlog_accelerating (void)
{
  for (guint queue = 0; queue < 2; queue++)
    {
      g_autoptr(TmTrace) t = accelerating_trace (queue);
      g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, FALSE);
      const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);

      dump_windows (queue ? "accelerating backlog" : "accelerating leak", ws);
      g_assert_nonnull (w);
      g_assert_true (w->suspicious);
      g_assert_cmpstr (w->growth, ==, queue ? "backlog" : "leak");
    }
}

/* Data loaded fast (2 to 42 MiB over GCs 1-10, 0.2 s apart), then GCs
 * every 0.5 s for 15 s (GCs 11-40) while:
 *   shape 0: a small leak adds 0.2 MiB per GC (6 MiB, 14%): a leak after
 *            the load, GCs 11-40 (a recorded one was called a warm-up:
 *            its last third's slope is a fifth of the load's);
 *   shape 1: nothing more (a warm-up);
 *   shape 2: a cache fills to 8 MiB more, ever slower (8 (1 - e^(-t/2 s))):
 *            a warm-up too, though the part after the load grows by 19%. */
static void
test_trace_late_leak (void)
{
  GcSpec s[40];

  for (guint shape = 0; shape < 3; shape++)
    {
      guint64 t = 0;

      memset (s, 0, sizeof s);
      for (guint i = 0; i < 40; i++)
        {
          double after = i < 10 ? 0 : (double) (i - 9) * 0.5;
          double v = i < 10 ? 2 + 40.0 * (i + 1) / 10 :
                     42 + (shape == 0 ? 0.4 * after : shape == 2 ? 8 * (1 - exp (-after / 2)) : 0);

          t += i < 10 ? 200 * MSEC : 500 * MSEC;
          s[i].end_ns = t;
          s[i].pause_ns = 2 * MSEC;
          s[i].kind = TM_GC_KIND_MAJOR;
          s[i].reachable = (gint64) (v * MIB);
          s[i].used_after = (guint64) s[i].reachable + MIB;
          s[i].used_before = s[i].used_after + 20 * MIB;
        }
      {
        g_autoptr(TmTrace) tr = trace_from_specs (s, 40, "tmtrace");
        g_autoptr(GPtrArray) ws = tm_windows_detect (tr, NULL, TRUE);
        const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK), *r = find_kind (ws, TM_WINDOW_LEAK_REGRESSION);

        dump_windows (shape == 0 ? "late-leak" : shape == 1 ? "late-flat" : "late-cache", ws);
        g_assert_nonnull (w);
        g_assert_nonnull (r);
        g_assert_true (w->suspicious == (shape == 0));
        g_assert_true (r->suspicious == (shape == 0));
        if (shape == 0)
          {
            g_assert_cmpstr (w->growth, ==, "leak");
            g_assert_cmpuint (w->first_gc, ==, 11);
            g_assert_cmpuint (w->last_gc, ==, 40);
            g_assert_cmpuint (r->first_gc, ==, 11);
            /* 0.2 MiB per 0.5 s */
            g_assert_cmpfloat (fabs (r->score - 0.4 * MIB), <, 0.01 * MIB);
          }
        else
          g_assert_true (g_strcmp0 (w->growth, "leak") != 0);
      }
    }
}

/* Shenandoah cycles as the recorder writes them: the heap's use at one
 * moment, the same before and after.  A batch job's garbage rises and
 * falls in teeth (10 to 60, 70 and 65 MiB, then up to 120 MiB at the
 * end); with no graph and no full GC nothing says what is live, so there
 * is no leak.  The same cycles from a GC log, which frees 20 MiB at each,
 * are whole-heap collections whose occupancy after them is judged. */
static void
test_trace_shenandoah_no_collection (void)
{
  GcSpec s[40];
  const double top[4] = { 60, 70, 65, 120 };

  for (guint logged = 0; logged < 2; logged++)
    {
      const SpecExtras x = { 0, 0, TRUE, 0, "Shenandoah Cycles" };

      memset (s, 0, sizeof s);
      for (guint i = 0; i < 40; i++)
        {
          double v = 10 + (top[i / 10] - 10) * (double) (i % 10 + 1) / 10;

          s[i].end_ns = (i + 1) * 300 * MSEC;
          s[i].pause_ns = MSEC;
          s[i].kind = TM_GC_KIND_CONCURRENT;
          s[i].reachable = -1;
          s[i].used_after = (guint64) (v * MIB);
          s[i].used_before = s[i].used_after + (logged ? 20 * MIB : 0);
        }
      {
        g_autoptr(TmTrace) t = trace_from_specs_full (s, 40, "tmtrace", &x);
        g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, FALSE);

        dump_windows (logged ? "shenandoah-freeing" : "shenandoah-no-collection", ws);
        g_assert_cmpstr (tm_windows_leak_series_label (t, NULL), ==,
                         logged ? "heap occupancy after whole-heap GCs" : "heap occupancy after GC");
        if (!logged)
          g_assert_null (find_kind (ws, TM_WINDOW_LEAK));
      }
    }
}

/* Batches: reachable memory (a graph at every GC, 0.25 s apart) rises
 * from its trough to 40 MiB over 8 GCs and falls back, 6 times; the run
 * ends 2 GCs after the last fall.  With troughs at 2 MiB the end is one
 * more trough, not a teardown; with troughs at 10 MiB and the end at
 * 1 MiB it is (the program let go of what it held all along). */
static void
test_trace_batches_no_teardown (void)
{
  GcSpec s[50];

  for (guint exit = 0; exit < 2; exit++)
    {
      memset (s, 0, sizeof s);
      for (guint i = 0; i < 50; i++)
        {
          double trough = exit ? 10 : 2;
          double v = i >= 48 ? (exit ? 1 : 2) : trough + (40 - trough) * (double) (i % 8) / 7;

          s[i].end_ns = (i + 1) * 250 * MSEC;
          s[i].pause_ns = MSEC;
          s[i].kind = TM_GC_KIND_MAJOR;
          s[i].reachable = (gint64) (v * MIB);
          s[i].used_after = (guint64) s[i].reachable + MIB;
          s[i].used_before = s[i].used_after + 20 * MIB;
        }
      {
        g_autoptr(TmTrace) t = trace_from_specs (s, 50, "tmtrace");
        g_autofree char *note = tm_windows_evidence_note (t, NULL);

        g_test_message ("batches%s: %s", exit ? " and exit" : "", note ? note : "(no note)");
        g_assert_true ((note != NULL && strstr (note, "teardown") != NULL) == (exit == 1));
      }
    }
}

static void
test_trace_heaptrack_words (void)
{
  g_autoptr(TmTrace) t = growth_trace (60, 20, 0, "heaptrack");
  g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, FALSE);
  const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);

  g_assert_nonnull (w);
  g_assert_true (w->suspicious);
  g_assert_nonnull (strstr (w->explanation, "Heap in use grew"));
  g_assert_nonnull (strstr (w->explanation, "time points 21-60"));
  g_assert_null (strstr (w->explanation, "GC"));
  g_assert_null (strstr (w->explanation, "garbage"));
  g_assert_null (strstr (w->explanation, "graph-every"));
  g_assert_cmpstr (tm_windows_leak_series_label (t, NULL), ==, "heap in use");
}

static void
test_synth_plateau (void)
{
  /* a bounded LRU cache full at 30% (GC 60), flat after: warm-up */
  g_autoptr(TmTrace) t = synth_trace ("plateau", 0);
  g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, TRUE);
  g_autoptr(GPtrArray) paper_ws = detect_paper (t, FALSE);
  const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);
  const TmWindow *r = find_kind (ws, TM_WINDOW_LEAK_REGRESSION);

  dump_windows ("plateau", ws);
  for (guint i = 0; i < ws->len; i++)
    g_assert_false (((TmWindow *) ws->pdata[i])->suspicious);
  g_assert_nonnull (w);
  g_assert_cmpstr (w->growth, ==, "warm-up");
  /* within one graph interval of the planted 30% */
  g_assert_cmpuint (w->plateau_gc, >=, 50);
  g_assert_cmpuint (w->plateau_gc, <=, 70);
  g_assert_nonnull (strstr (w->explanation, "Warm-up"));
  g_assert_nonnull (r);
  g_assert_false (r->suspicious);
  /* the paper's rules call it a leak */
  g_assert_nonnull (find_kind (paper_ws, TM_WINDOW_LEAK_REGRESSION));
}

static void
test_synth_teardown (void)
{
  /* a leak from 20%; the last 2 GCs release it at exit */
  g_autoptr(TmTrace) t = synth_trace ("teardown", 0);
  g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, FALSE);
  g_autoptr(GPtrArray) paper_ws = detect_paper (t, FALSE);
  g_autofree char *note = tm_windows_evidence_note (t, NULL);
  const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);

  dump_windows ("teardown", ws);
  g_assert_nonnull (w);
  g_assert_true (w->suspicious);
  g_assert_cmpstr (w->growth, ==, "leak");
  g_assert_cmpfloat (w->first_gc, >=, 40 - 10);
  g_assert_cmpfloat (w->first_gc, <=, 40 + 10);
  /* the last graph before the teardown */
  g_assert_cmpuint (w->last_gc, ==, 190);
  g_assert_nonnull (strstr (w->explanation, "teardown from GC 199"));
  g_assert_nonnull (note);
  g_assert_nonnull (strstr (note, "The run ends in teardown: from GC 199"));
  /* the teardown frees a lot at once: no churn window for it */
  g_assert_null (find_kind (ws, TM_WINDOW_CHURN));
  /* the paper's rules: the window must include the end; none does */
  g_assert_null (find_kind (paper_ws, TM_WINDOW_LEAK));
}

static void
test_synth_churn_burst (void)
{
  /* 10x the allocation at GCs 10%..90%: 80% of the GCs, ~29% of the time */
  g_autoptr(TmTrace) t = synth_trace ("churn-burst", 0);
  g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, FALSE);
  g_autoptr(GPtrArray) paper_ws = detect_paper (t, TRUE);
  const TmWindow *w = find_kind (ws, TM_WINDOW_CHURN);
  const TmWindow *pw = find_kind (paper_ws, TM_WINDOW_CHURN);

  dump_windows ("churn-burst", ws);
  g_assert_nonnull (w);
  g_assert_true (w->suspicious);
  g_assert_cmpfloat (w->first_gc, >=, phase_gc (t, 0.10) - 1);
  g_assert_cmpfloat (w->last_gc, <=, phase_gc (t, 0.90) + 1);
  /* the baseline is the rate outside the burst: ~10x below */
  g_assert_cmpfloat (w->score / (w->threshold / 3), >, 5);
  g_assert_null (find_kind (ws, TM_WINDOW_LEAK));
  /* the median of windows is the burst's own rate */
  g_assert_nonnull (pw);
  g_assert_false (pw->suspicious);
}

static void
test_synth_backlog_vs_leak (void)
{
  g_autoptr(TmTrace) b = synth_trace ("backlog", 0);
  g_autoptr(TmTrace) l = synth_trace ("leak", 0);
  g_autoptr(GPtrArray) bw = tm_windows_detect (b, NULL, FALSE);
  g_autoptr(GPtrArray) lw = tm_windows_detect (l, NULL, FALSE);
  const TmWindow *bl = find_kind (bw, TM_WINDOW_LEAK);
  const TmWindow *ll = find_kind (lw, TM_WINDOW_LEAK);

  dump_windows ("backlog", bw);
  g_assert_nonnull (bl);
  g_assert_true (bl->suspicious);
  g_assert_cmpstr (bl->growth, ==, "backlog");
  g_assert_cmpfloat (bl->first_gc, >=, 40 - 10);
  g_assert_cmpfloat (bl->first_gc, <=, 40 + 10);
  g_assert_nonnull (strstr (bl->explanation, "Backlog"));
  g_assert_cmpstr (find_kind (bw, TM_WINDOW_LEAK_REGRESSION)->growth, ==, "backlog");
  g_assert_nonnull (ll);
  g_assert_cmpstr (ll->growth, ==, "leak");
  g_assert_nonnull (strstr (ll->explanation, "old objects accumulating"));
}

static void
test_synth_oom (void)
{
  /* a leak until an OutOfMemoryError after GC 198; 2 post-mortem graphs */
  g_autoptr(TmTrace) t = synth_trace ("oom", 0);
  g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, FALSE);
  g_autofree char *note = tm_windows_evidence_note (t, NULL);
  const TmWindow *w = find_kind (ws, TM_WINDOW_LEAK);
  const TmWindow *o = find_kind (ws, TM_WINDOW_GC_OVERHEAD);

  dump_windows ("oom", ws);
  g_assert_cmpuint (tm_trace_n_oom_events (t), ==, 1);
  g_assert_nonnull (w);
  g_assert_true (w->suspicious);
  g_assert_cmpstr (w->growth, ==, "leak");
  g_assert_cmpuint (w->last_gc, ==, 190);
  g_assert_nonnull (strstr (w->explanation, "OutOfMemoryError after GC 198 (Java heap space)"));
  g_assert_nonnull (note);
  g_assert_nonnull (strstr (note, "ran out of memory (OutOfMemoryError: Java heap space)"));
  g_assert_nonnull (strstr (note, "2 reference graphs taken after the main thread ended are left out"));
  /* the thrashing before the error is GC overhead; nothing after it counts */
  g_assert_nonnull (o);
  g_assert_cmpuint (o->first_gc, >=, 170);
  g_assert_cmpuint (o->last_gc, <=, 198);
  g_assert_null (find_kind (ws, TM_WINDOW_CHURN));
}

static void
test_synth_too_few (void)
{
  /* the leak scenario over 12 GCs: one graph, 12 GCs; and a recording of
   * it cut in its warm-up (the first 14 of 200 GCs) */
  g_autoptr(TmTrace) t = synth_trace ("leak", 12);
  g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, TRUE);
  g_autofree char *note = tm_windows_evidence_note (t, NULL);

  dump_windows ("too few", ws);
  g_assert_null (find_kind (ws, TM_WINDOW_LEAK));
  g_assert_null (find_kind (ws, TM_WINDOW_CHURN));
  g_assert_nonnull (note);
  g_assert_nonnull (strstr (note, "12 GCs: too few to judge growth or churn"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/windows/fig3/steady-growth", test_fig3_steady_growth);
  g_test_add_func ("/windows/fig3/init-spike", test_fig3_init_spike);
  g_test_add_func ("/windows/fig3/spike-inside-growth", test_fig3_spike_inside_growth);
  g_test_add_func ("/windows/fig3/tolerated-dips", test_fig3_tolerated_dips);
  g_test_add_func ("/windows/fig3/drop-restarts", test_fig3_drop_restarts);
  g_test_add_func ("/windows/fig3/growth-at-end", test_fig3_growth_at_end);
  g_test_add_func ("/windows/heuristic/tolerance-edge", test_heuristic_tolerance_edge);
  g_test_add_func ("/windows/peak/known", test_peak_known);
  g_test_add_func ("/windows/peak/linear-ties", test_peak_linear_ties);
  g_test_add_func ("/windows/peak/brute-force", test_peak_matches_brute_force);
  g_test_add_func ("/windows/regression/known", test_regression_known);
  g_test_add_func ("/windows/regression/shortest", test_regression_shortest_is_steepest);
  g_test_add_func ("/windows/regression/slack", test_regression_slack);
  g_test_add_func ("/windows/regression/noisy-end", test_trace_regression_noisy_end);
  g_test_add_func ("/windows/rate/known", test_rate_known);
  g_test_add_func ("/windows/rate/length-bounds", test_rate_length_bounds);
  g_test_add_func ("/windows/rate/brute-force", test_rate_matches_brute_force);
  g_test_add_func ("/windows/rate/zero-duration", test_rate_zero_duration);
  g_test_add_func ("/windows/rate/median", test_rate_median);
  g_test_add_func ("/windows/trace/steady-quiet", test_trace_steady_quiet);
  g_test_add_func ("/windows/trace/overhead-edge", test_trace_overhead_edge);
  g_test_add_func ("/windows/trace/churn-calm-baseline", test_trace_churn_calm_baseline);
  g_test_add_func ("/windows/trace/leak-to-ceiling", test_trace_leak_to_ceiling);
  g_test_add_func ("/windows/trace/oom-caught", test_trace_oom_caught);
  g_test_add_func ("/windows/trace/sparse-plateau", test_trace_sparse_plateau);
  g_test_add_func ("/windows/trace/backlog-accelerating", test_trace_backlog_accelerating);
  g_test_add_func ("/windows/trace/late-leak", test_trace_late_leak);
  g_test_add_func ("/windows/trace/shenandoah-no-collection", test_trace_shenandoah_no_collection);
  g_test_add_func ("/windows/trace/batches-no-teardown", test_trace_batches_no_teardown);
  g_test_add_func ("/windows/trace/graph-evidence", test_trace_graph_evidence);
  g_test_add_func ("/windows/trace/churn-old-garbage", test_trace_churn_old_garbage);
  g_test_add_func ("/windows/trace/overhead-tool-forced", test_trace_overhead_tool_forced);
  g_test_add_func ("/windows/trace/overhead-burst", test_trace_overhead_burst);
  g_test_add_func ("/windows/trace/churn", test_trace_churn);
  g_test_add_func ("/windows/trace/churn-floor", test_trace_churn_floor);
  g_test_add_func ("/windows/trace/leak-coverage-edge", test_trace_leak_coverage_edge);
  g_test_add_func ("/windows/trace/leak-growth-edge", test_trace_leak_growth_edge);
  g_test_add_func ("/windows/trace/series-choice", test_trace_series_choice);
  g_test_add_func ("/windows/trace/reachable-preferred", test_trace_reachable_preferred);
  g_test_add_func ("/windows/trace/hump", test_trace_hump_is_not_a_leak);
  g_test_add_func ("/windows/trace/tiny", test_trace_tiny);
  g_test_add_func ("/windows/trace/garbage", test_trace_garbage);
  g_test_add_func ("/windows/real/teardown", test_teardown_known);
  g_test_add_func ("/windows/real/continues", test_growth_continues_known);
  g_test_add_func ("/windows/real/new-high", test_growth_new_high);
  g_test_add_func ("/windows/real/time-median", test_rate_time_median);
  g_test_add_func ("/windows/real/time-median-brute", test_rate_time_median_brute);
  g_test_add_func ("/windows/real/min-evidence", test_trace_min_evidence);
  g_test_add_func ("/windows/real/heaptrack-words", test_trace_heaptrack_words);
  g_test_add_func ("/windows/synth/plateau", test_synth_plateau);
  g_test_add_func ("/windows/synth/teardown", test_synth_teardown);
  g_test_add_func ("/windows/synth/oom", test_synth_oom);
  g_test_add_func ("/windows/synth/churn-burst", test_synth_churn_burst);
  g_test_add_func ("/windows/synth/backlog", test_synth_backlog_vs_leak);
  g_test_add_func ("/windows/synth/too-few", test_synth_too_few);
  g_test_add_func ("/windows/synth/steady", test_synth_steady);
  g_test_add_func ("/windows/synth/leak", test_synth_leak);
  g_test_add_func ("/windows/synth/churn", test_synth_churn);
  g_test_add_func ("/windows/synth/gc-overhead", test_synth_overhead);
  g_test_add_func ("/windows/synth/mixed", test_synth_mixed);

  return g_test_run ();
}
