/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs a fuzz target without libFuzzer on seed files: every file of the
 * folders named on the command line as is, then deterministic mutations
 * of each (fuzz-mutate.c).  Usage: fuzz-replay-X [--tap] [rounds=N] DIR... */
#include "fuzz-mutate.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char **dirs;
static guint rounds = 600;

static void
test_replay (void)
{
  GRand *rand = g_rand_new_with_seed (20261123);
  guint n_seeds = 0;

  for (guint d = 0; dirs[d] != NULL; d++)
    {
      g_autoptr(GDir) dir = g_dir_open (dirs[d], 0, NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (dirs[d], name, NULL));
      /* the same order on every machine */
      g_ptr_array_sort (names, (GCompareFunc) (void (*) (void)) g_strcmp0);
      for (guint i = 0; i < names->len; i++)
        {
          const char *path = names->pdata[i];
          g_autoptr(GBytes) b = NULL;
          char *data;
          gsize len;

          if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) || g_str_has_suffix (path, ".md"))
            continue;
          g_assert_true (g_file_get_contents (path, &data, &len, NULL));
          b = g_bytes_new_take (data, len);
          tm_fuzz_mutate_and_run (b, rand, rounds, LLVMFuzzerTestOneInput);
          n_seeds++;
        }
    }
  g_test_message ("%u seeds, %u mutations each", n_seeds, rounds);
  g_assert_cmpuint (n_seeds, >, 0);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (argc > 1 && g_str_has_prefix (argv[1], "rounds="))
    {
      rounds = (guint) atoi (argv[1] + strlen ("rounds="));
      argv++;
      argc--;
    }
  if (argc < 2)
    {
      g_printerr ("usage: %s [--tap] [rounds=N] SEED_DIR...\n", argv[0]);
      return 2;
    }
  dirs = argv + 1;
  g_test_add_func ("/fuzz/replay-files", test_replay);
  return g_test_run ();
}
