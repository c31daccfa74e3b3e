/* SPDX-License-Identifier: GPL-3.0-or-later
 * The decompression thread decodes ALLOC, REFS and DEATHS records itself
 * (fast paths without a bound check per byte where the record is followed
 * by enough bytes).  On random records of every varint length, encodings
 * with padding bytes, values past 32 bits and records cut anywhere, what
 * it hands over must be what a plain bounds-checked decode of the payload
 * gives, and must be absent exactly when that decode fails. */
#include "tidemark.h"
#include "tm-trace-reader.h"
#include "tm-trace-format.h"
#include "tm-varint.h"

#include <string.h>

/* A varint of v in `len` bytes (len >= its shortest form: padding with
 * continuation bytes the format does not forbid). */
static void
put_varint (GByteArray *out, guint64 v, guint len)
{
  for (guint i = 0; i + 1 < len; i++)
    {
      guint8 b = (guint8) ((v & 0x7f) | 0x80);
      g_byte_array_append (out, &b, 1);
      v >>= 7;
    }
  {
    guint8 b = (guint8) (v & 0x7f);
    g_byte_array_append (out, &b, 1);
  }
}

static guint
shortest (guint64 v)
{
  guint8 buf[10];
  return tm_uvarint_write (buf, v);
}

/* Mostly small values, some at the 32-bit edge, some huge; now and then
 * padded, or (rarely) an 11-byte run of continuation bytes. */
static void
random_varint (GByteArray *out, gboolean small)
{
  guint64 v;
  guint r = g_test_rand_int_range (0, 100), len;

  if (r < 50 || small)
    v = (guint64) g_test_rand_int_range (0, 200);
  else if (r < 80)
    v = (guint64) g_test_rand_int_range (0, 1 << 28);
  else if (r < 90)
    v = (guint64) G_MAXUINT32 - 2 + (guint64) g_test_rand_int_range (0, 5);
  else
    v = (guint64) g_test_rand_int () << 32 | (guint32) g_test_rand_int ();
  len = shortest (v);
  if (g_test_rand_int_range (0, 10) == 0)
    len = MIN (len + (guint) g_test_rand_int_range (1, 4), 10);
  if (g_test_rand_int_range (0, 500) == 0)
    {
      static const guint8 bad[11] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
      g_byte_array_append (out, bad, sizeof bad);
      return;
    }
  put_varint (out, v, len);
}

static GBytes *
random_records (guint n, GPtrArray *payloads)
{
  GByteArray *raw = g_byte_array_new ();

  g_byte_array_append (raw, (const guint8 *) TM_TRACE_MAGIC, TM_TRACE_MAGIC_LEN);
  for (guint i = 0; i < n; i++)
    {
      GByteArray *p = g_byte_array_new ();
      guint kind = g_test_rand_int_range (0, 3);
      guint8 tag = kind == 0 ? TM_TAG_ALLOC : kind == 1 ? TM_TAG_REFS : TM_TAG_DEATHS;
      guint8 head[11];

      if (tag == TM_TAG_ALLOC)
        for (guint f = 0; f < 7; f++)
          random_varint (p, FALSE);
      else
        {
          guint count = g_test_rand_int_range (0, 6);
          random_varint (p, FALSE);   /* object / GC */
          /* now and then a count larger than the record holds */
          put_varint (p, g_test_rand_int_range (0, 20) == 0 ? count + 40 : count, 1);
          for (guint k = 0; k < count; k++)
            random_varint (p, tag == TM_TAG_DEATHS && k > 0 && g_test_rand_int_range (0, 4) > 0);
        }
      /* cut short, or followed by bytes of an extension */
      if (p->len > 0 && g_test_rand_int_range (0, 8) == 0)
        g_byte_array_set_size (p, g_test_rand_int_range (0, p->len));
      else if (g_test_rand_int_range (0, 16) == 0)
        g_byte_array_append (p, (const guint8 *) "\x05\x81", 2);

      g_byte_array_append (raw, &tag, 1);
      g_byte_array_append (raw, head, tm_uvarint_write (head, p->len));
      g_byte_array_append (raw, p->data, p->len);
      g_ptr_array_add (payloads, g_byte_array_free_to_bytes (p));
    }
  return g_byte_array_free_to_bytes (raw);
}

/* The plain decodes, as the loader's own (tm-trace-loader.c). */
static gboolean
plain_alloc (const guint8 *p, const guint8 *end, guint32 f[7])
{
  for (guint i = 0; i < 7; i++)
    {
      guint64 v;
      if (!tm_uvarint_read (&p, end, &v) || v > G_MAXUINT32)
        return FALSE;
      f[i] = (guint32) v;
    }
  return TRUE;
}

static gboolean
plain_list (guint8 tag, const guint8 *p, const guint8 *end, GArray *ids)
{
  guint64 first, n, prev;

  g_array_set_size (ids, 0);
  if (!tm_uvarint_read (&p, end, &first) || !tm_uvarint_read (&p, end, &n) || n > (guint64) (end - p))
    return FALSE;
  g_array_append_val (ids, first);
  prev = tag == TM_TAG_REFS ? first : 0;
  for (guint64 i = 0; i < n; i++)
    {
      guint64 v;
      if (!tm_uvarint_read (&p, end, &v))
        return FALSE;
      if (tag == TM_TAG_REFS)
        prev += (guint64) ((gint64) (v >> 1) ^ -(gint64) (v & 1));
      else if (i == 0)
        prev = v;
      else if (v == 0 || v > G_MAXUINT64 - prev)
        return FALSE;
      else
        prev += v;
      g_array_append_val (ids, prev);
    }
  return TRUE;
}

static void
check_records (GBytes *raw, GPtrArray *payloads, guint *decoded)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTraceReader) r = tm_trace_reader_new_bytes (raw, "split", &error);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  TmRecord rec;
  guint i = 0;   /* (the first record is read before the split starts) */

  g_assert_no_error (error);
  while (tm_trace_reader_next (r, &rec, &error) == TM_READ_RECORD)
    {
      GBytes *want = g_ptr_array_index (payloads, i);
      const guint8 *p = rec.payload, *end = p + rec.len;

      g_assert_cmpmem (p, rec.len, g_bytes_get_data (want, NULL), g_bytes_get_size (want));
      if (rec.tag == TM_TAG_ALLOC)
        {
          guint32 f[7];
          gboolean ok = plain_alloc (p, end, f);

          g_assert_cmpint (rec.alloc != NULL, ==, ok && i > 0);
          if (rec.alloc != NULL)
            {
              guint32 got[7] = { rec.alloc->id_zigzag, rec.alloc->type, rec.alloc->site, rec.alloc->thread,
                                 rec.alloc->size, rec.alloc->space, rec.alloc->array_length };
              g_assert_cmpmem (got, sizeof got, f, sizeof f);
              (*decoded)++;
            }
        }
      else
        {
          gboolean ok = plain_list (rec.tag, p, end, ids);

          g_assert_cmpint (rec.ids != NULL, ==, ok && i > 0);
          if (rec.ids != NULL)
            {
              g_assert_cmpuint (rec.n_ids + 1, ==, ids->len);
              g_assert_cmpmem (rec.ids, (rec.n_ids + 1) * sizeof (guint64), ids->data, ids->len * sizeof (guint64));
              (*decoded)++;
            }
        }
      i++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (i, ==, payloads->len);
}

static void
test_split_decodes (void)
{
  guint decoded = 0;

  for (guint round = 0; round < 20; round++)
    {
      g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      /* well under one chunk: every record is split by the decompression
       * thread, most with room after them (the fast paths), the last few
       * at the chunk's end (the checked ones) */
      g_autoptr(GBytes) raw = random_records (5000, payloads);

      g_assert_cmpuint (g_bytes_get_size (raw), <, 1u << 20);
      check_records (raw, payloads, &decoded);
    }
  /* both kinds occur: a test that decodes nothing proves nothing */
  g_assert_cmpuint (decoded, >, 20000);
  g_assert_cmpuint (decoded, <, 20 * 5000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-split/decodes", test_split_decodes);
  return g_test_run ();
}
