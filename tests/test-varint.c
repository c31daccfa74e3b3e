/* SPDX-License-Identifier: GPL-3.0-or-later
 * LEB128 edge cases: every length, overflow, truncation. */
#include "tm-varint.h"

static void
test_roundtrip (void)
{
  static const guint64 values[] = {
    0, 1, 127, 128, 255, 16383, 16384, G_MAXUINT32, (guint64) G_MAXUINT32 + 1,
    G_GUINT64_CONSTANT (1) << 62, G_MAXUINT64 - 1, G_MAXUINT64,
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      guint8 buf[10];
      guint n = tm_uvarint_write (buf, values[i]);
      const guint8 *p = buf;
      guint64 out = 0;

      g_assert_true (tm_uvarint_read (&p, buf + n, &out));
      g_assert_cmpuint (out, ==, values[i]);
      g_assert_true (p == buf + n);
      /* one byte short must fail without moving */
      p = buf;
      g_assert_false (tm_uvarint_read (&p, buf + n - 1, &out));
      g_assert_true (p == buf);
    }
  g_assert_cmpuint (tm_uvarint_write ((guint8[10]){0}, G_MAXUINT64), ==, 10);
}

static void
test_signed (void)
{
  static const gint64 values[] = { 0, -1, 1, -64, 63, 64, -65, G_MININT64, G_MAXINT64 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      guint8 buf[10];
      guint n = tm_uvarint_write (buf, tm_zigzag (values[i]));
      const guint8 *p = buf;
      gint64 out = 0;

      g_assert_true (tm_svarint_read (&p, buf + n, &out));
      g_assert_cmpint (out, ==, values[i]);
    }
  /* zigzag: small magnitudes take one byte */
  g_assert_cmpuint (tm_zigzag (-1), ==, 1);
  g_assert_cmpuint (tm_zigzag (1), ==, 2);
}

static void
test_malformed (void)
{
  /* 11 continuation bytes: longer than 10 */
  guint8 longer[11] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
  /* 10th byte carries more than the 64th bit: overflow */
  guint8 overflow[10] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
  const guint8 *p;
  guint64 v;

  p = longer;
  g_assert_false (tm_uvarint_read (&p, longer + sizeof longer, &v));
  p = overflow;
  g_assert_false (tm_uvarint_read (&p, overflow + sizeof overflow, &v));
  p = longer;
  g_assert_false (tm_uvarint_read (&p, longer, &v));  /* empty input */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/varint/roundtrip", test_roundtrip);
  g_test_add_func ("/varint/signed", test_signed);
  g_test_add_func ("/varint/malformed", test_malformed);
  return g_test_run ();
}
