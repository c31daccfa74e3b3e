/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the HPROF fuzz target without libFuzzer: hand-written dumps (ids
 * of 4 and 8 bytes, HEAP DUMP and HEAP DUMP SEGMENT records, every root
 * kind) as they are and under deterministic mutations; then the inputs
 * that once failed, in tests/fuzz/corpus/hprof.
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

/* Inputs that once failed (tests/fuzz/corpus/hprof), as they are. */
static void
test_regressions (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "hprof", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      LLVMFuzzerTestOneInput ((const guint8 *) contents, len);
      n++;
    }
  g_assert_cmpuint (n, >, 0);
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
  g_test_add_func ("/fuzz/replay-hprof/regressions", test_regressions);
  return g_test_run ();
}
