/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the HPROF fuzz target without libFuzzer: hand-written dumps (ids
 * of 4 and 8 bytes, HEAP DUMP and HEAP DUMP SEGMENT records, every root
 * kind) as they are and under deterministic mutations.
 * `fuzz-replay-hprof --write-seeds DIR` writes the seeds for libFuzzer. */
#include <string.h>

#include "tidemark.h"
#include "fuzz-mutate.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);
#include "hprof-test-writer.h"

static void
test_replay (void)
{
  GRand *rand = g_rand_new_with_seed (20261123);

  for (guint v = 0; v < 4; v++)
    {
      g_autoptr(GBytes) b = hw_test_heap (v & 1 ? 8 : 4, (v & 2) != 0, v == 3);
      tm_fuzz_mutate_and_run (b, rand, 700, LLVMFuzzerTestOneInput);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--write-seeds") == 0)
    {
      for (guint v = 0; v < 4; v++)
        {
          g_autoptr(GBytes) b = hw_test_heap (v & 1 ? 8 : 4, (v & 2) != 0, v == 3);
          g_autofree char *name = g_strdup_printf ("%s/seed-%u.hprof", argv[2], v);
          if (!g_file_set_contents (name, g_bytes_get_data (b, NULL), (gssize) g_bytes_get_size (b), NULL))
            return 1;
        }
      return 0;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fuzz/replay-hprof", test_replay);
  return g_test_run ();
}
