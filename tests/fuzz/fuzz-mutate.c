/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Deterministic mutations shared by the fuzz targets' replay tests. */
#include "fuzz-mutate.h"

void
tm_fuzz_mutate_and_run (GBytes *base, GRand *rand, guint rounds, TmFuzzTarget target)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (base, &size);

  target (data, size);
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
      target (m->data, m->len);
      g_byte_array_unref (m);
    }
}
