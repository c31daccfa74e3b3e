/* SPDX-License-Identifier: GPL-3.0-or-later
 * The synthetic scenarios carry the truth tm-synth.h documents, and the
 * reader agrees with the writer about it. */
#include "tidemark.h"
#include "tm-synth.h"

#include <string.h>

static TmTrace *
synth (const char *scenario, double scale, guint64 seed, GBytes **out_bytes)
{
  TmSynthOptions opt;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TmTrace *t;

  tm_synth_options_init (&opt);
  opt.scenario = scenario;
  opt.scale = scale;
  opt.seed = seed;
  g_assert_true (tm_synth_write (&opt, w, &error));
  g_assert_no_error (error);
  tm_trace_writer_close (w, NULL);
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  t = tm_trace_load_bytes (bytes, scenario, NULL, &error);
  g_assert_no_error (error);
  if (out_bytes)
    *out_bytes = g_bytes_ref (bytes);
  return t;
}

static void
check_consistent (TmTrace *t, const char *scenario)
{
  /* teardown and oom also take a graph at their first GC after the main
   * thread returned (GC 199) */
  gboolean exit_graph = g_str_equal (scenario, "teardown") || g_str_equal (scenario, "oom");

  for (guint i = 0; i < t->warnings->len; i++)
    g_printerr ("warning: %s\n", g_array_index (t->warnings, TmWarning, i).message);
  g_assert_cmpuint (t->warnings->len, ==, 0);
  g_assert_true (t->complete);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 200);
  /* every 10th GC and the last carry a graph */
  g_assert_cmpuint (t->n_graphs, ==, exit_graph ? 21 : 20);
  for (guint id = 1; id <= tm_trace_n_gcs (t); id++)
    {
      const TmGc *gc = tm_trace_gc (t, id);
      /* the simulator collects all garbage at every GC, so what is alive
       * after a GC is exactly what its graph reaches, and what the spaces
       * say is in use */
      g_assert_cmpuint (gc->used_after, ==, gc->live_bytes);
      if (gc->has_graph)
        {
          g_assert_cmpuint (gc->reachable_objects, ==, gc->live_objects);
          g_assert_cmpuint (gc->reachable_bytes, ==, gc->live_bytes);
        }
    }
}

static void
test_scenarios_consistent (void)
{
  const char * const *names = tm_synth_scenarios ();
  for (guint i = 0; names[i]; i++)
    {
      g_autoptr(TmTrace) t = synth (names[i], 0.5, 7, NULL);
      g_test_message ("%s: %" G_GUINT64_FORMAT " objects", names[i], t->n_objects);
      check_consistent (t, names[i]);
    }
}

static void
test_deterministic (void)
{
  g_autoptr(GBytes) a = NULL, b = NULL, c = NULL;
  g_autoptr(TmTrace) ta = synth ("mixed", 0.3, 5, &a);
  g_autoptr(TmTrace) tb = synth ("mixed", 0.3, 5, &b);
  g_autoptr(TmTrace) tc = synth ("mixed", 0.3, 6, &c);
  g_assert_true (g_bytes_equal (a, b));
  g_assert_false (g_bytes_equal (a, c));
}

static void
test_leak_truth (void)
{
  g_autoptr(TmTrace) t = synth ("leak", 1.0, 1, NULL);
  guint64 prev = 0;
  guint64 at_start = 0, at_end = 0;

  /* reachable memory rises at every graph from 20% (GC 40) to the end */
  for (guint id = 40; id <= 200; id++)
    {
      const TmGc *gc = tm_trace_gc (t, id);
      if (!gc->has_graph)
        continue;
      if (prev)
        g_assert_cmpuint (gc->reachable_bytes, >, prev);
      else
        at_start = gc->reachable_bytes;
      prev = at_end = gc->reachable_bytes;
    }
  g_assert_cmpuint (at_end, >, at_start * 2);
  /* the warm-up spike is released: GC 30's heap is below GC 20's */
  g_assert_cmpuint (tm_trace_gc (t, 30)->reachable_bytes, <, tm_trace_gc (t, 20)->reachable_bytes);
}

static double
mean_freed (TmTrace *t, guint from, guint to)
{
  double sum = 0;
  for (guint id = from; id <= to; id++)
    sum += (double) (tm_trace_gc (t, id)->used_before - tm_trace_gc (t, id)->used_after);
  return sum / (to - from + 1);
}

static void
test_churn_truth (void)
{
  g_autoptr(TmTrace) t = synth ("churn", 0.5, 1, NULL);
  double inside = mean_freed (t, 81, 120);     /* 40%..60% */
  double before = mean_freed (t, 1, 79);
  double after = mean_freed (t, 122, 200);

  g_assert_cmpfloat (inside, >, 5 * before);
  g_assert_cmpfloat (inside, >, 5 * after);
}

static void
test_overhead_truth (void)
{
  g_autoptr(TmTrace) t = synth ("gc-overhead", 0.5, 1, NULL);
  guint64 pause_in = 0, pause_out = 0;

  for (guint id = 101; id <= 140; id++)  /* 50%..70% */
    pause_in += tm_trace_gc (t, id)->pause_ns;
  for (guint id = 1; id <= 100; id++)
    pause_out += tm_trace_gc (t, id)->pause_ns;
  /* ~12 ms per 42 ms inside; ~2 ms per 100 ms outside */
  {
    double d_in = (double) (tm_trace_gc (t, 140)->end_ns - tm_trace_gc (t, 100)->end_ns);
    double d_out = (double) tm_trace_gc (t, 100)->end_ns;
    g_assert_cmpfloat (pause_in / d_in, >, 0.2);
    g_assert_cmpfloat (pause_out / d_out, <, 0.05);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/synth/consistent", test_scenarios_consistent);
  g_test_add_func ("/synth/deterministic", test_deterministic);
  g_test_add_func ("/synth/leak", test_leak_truth);
  g_test_add_func ("/synth/churn", test_churn_truth);
  g_test_add_func ("/synth/gc-overhead", test_overhead_truth);
  return g_test_run ();
}
