/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the GC log fuzz target without libFuzzer: every seed of
 * tests/fuzz/gclog-seeds (one excerpt per log shape, plain and gzip) as
 * is, then deterministic mutations of each, then each seed with a tail of
 * NUL bytes and of garbage. */
#include <glib.h>

#include "fuzz-mutate.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
test_replay (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "fuzz", "gclog-seeds", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GRand *rand = g_rand_new_with_seed (20261123);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize len;
      g_autoptr(GBytes) b = NULL;
      g_autoptr(GByteArray) tail = g_byte_array_new ();

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      b = g_bytes_new (contents, len);
      tm_fuzz_mutate_and_run (b, rand, 600, LLVMFuzzerTestOneInput);
      /* a damaged tail, NUL bytes then garbage */
      g_byte_array_append (tail, (const guint8 *) contents, len);
      for (guint i = 0; i < 4096; i++)
        {
          guint8 z = i < 2048 ? 0 : (guint8) g_rand_int_range (rand, 0, 256);
          g_byte_array_append (tail, &z, 1);
          if (i == 2047)
            LLVMFuzzerTestOneInput (tail->data, tail->len);
        }
      LLVMFuzzerTestOneInput (tail->data, tail->len);
      n++;
    }
  g_assert_cmpuint (n, >=, 20);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fuzz/gclog-replay", test_replay);
  return g_test_run ();
}
