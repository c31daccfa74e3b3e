/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the fuzz target without libFuzzer: every seed trace as is, then
 * deterministic mutations of each (byte flips, cuts, inserted and deleted
 * runs, splices).  Seeds are synthesized traces, raw and compressed. */
#include "tidemark.h"
#include "tm-synth.h"
#include "fuzz-mutate.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static GBytes *
seed (const char *scenario, gboolean compress, guint gcs)
{
  TmSynthOptions opt;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (compress);
  GBytes *b;

  tm_synth_options_init (&opt);
  opt.scenario = scenario;
  opt.scale = 0.01;
  opt.n_gcs = gcs;
  opt.graph_every = 3;
  tm_synth_write (&opt, w, NULL);
  tm_trace_writer_close (w, NULL);
  b = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  return b;
}

static void
test_replay (void)
{
  const char *scenarios[] = { "leak", "mixed" };
  GRand *rand = g_rand_new_with_seed (20261121);

  for (guint s = 0; s < G_N_ELEMENTS (scenarios); s++)
    for (int compress = 0; compress < 2; compress++)
      {
        g_autoptr(GBytes) b = seed (scenarios[s], compress, 9);
        tm_fuzz_mutate_and_run (b, rand, 1500, LLVMFuzzerTestOneInput);
      }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fuzz/replay", test_replay);
  return g_test_run ();
}
