/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the fuzz target without libFuzzer: every seed trace as is, then
 * deterministic mutations of each (byte flips, cuts, inserted and deleted
 * runs, splices).  Seeds are synthesized traces, raw and compressed. */
#include "tidemark.h"
#include "tm-synth.h"

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
mutate_and_run (GBytes *base, GRand *rand, guint rounds)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (base, &size);

  LLVMFuzzerTestOneInput (data, size);
  for (guint r = 0; r < rounds; r++)
    {
      GByteArray *m = g_byte_array_new ();
      guint kind = g_rand_int_range (rand, 0, 5);

      g_byte_array_append (m, data, size);
      switch (kind)
        {
        case 0: /* flips */
          for (guint k = 0; k < 1 + (guint) g_rand_int_range (rand, 0, 8); k++)
            m->data[g_rand_int_range (rand, 0, m->len)] ^= (guint8) g_rand_int_range (rand, 1, 256);
          break;
        case 1: /* cut */
          g_byte_array_set_size (m, g_rand_int_range (rand, 0, m->len));
          break;
        case 2: /* delete a run */
          {
            guint at = g_rand_int_range (rand, 0, m->len);
            guint want = g_rand_int_range (rand, 1, 64);
            guint len = MIN (m->len - at, want);
            g_byte_array_remove_range (m, at, len);
          }
          break;
        case 3: /* insert random bytes */
          {
            guint8 junk[32];
            guint at = g_rand_int_range (rand, 0, m->len);
            guint len = g_rand_int_range (rand, 1, sizeof junk);
            for (guint k = 0; k < len; k++)
              junk[k] = (guint8) g_rand_int_range (rand, 0, 256);
            {
              GByteArray *n = g_byte_array_new ();
              g_byte_array_append (n, m->data, at);
              g_byte_array_append (n, junk, len);
              g_byte_array_append (n, m->data + at, m->len - at);
              g_byte_array_unref (m);
              m = n;
            }
          }
          break;
        default: /* set a byte to an interesting value */
          {
            static const guint8 vals[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
            m->data[g_rand_int_range (rand, 0, m->len)] = vals[g_rand_int_range (rand, 0, G_N_ELEMENTS (vals))];
          }
        }
      LLVMFuzzerTestOneInput (m->data, m->len);
      g_byte_array_unref (m);
    }
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
        mutate_and_run (b, rand, 1500);
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
