/* SPDX-License-Identifier: GPL-3.0-or-later
 * LEB128 varints of trace format v1, bounds-checked: every byte read is
 * untrusted. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Decodes a uvarint from [*p, end).  Returns FALSE (and leaves *p) if the
 * input ends first, the varint is longer than 10 bytes or overflows. */
static inline gboolean
tm_uvarint_read (const guint8 **p, const guint8 *end, guint64 *out)
{
  const guint8 *q = *p;
  guint64 v;

  if (G_LIKELY (q < end && *q < 0x80))
    {
      *out = *q;
      *p = q + 1;
      return TRUE;
    }

  v = 0;
  for (guint shift = 0; shift < 70; shift += 7)
    {
      guint8 byte;

      if (q >= end)
        return FALSE;
      byte = *q++;
      if (shift == 63 && (byte & 0x7f) > 1)
        return FALSE;  /* overflow */
      v |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *out = v;
          *p = q;
          return TRUE;
        }
    }
  return FALSE;  /* more than 10 bytes */
}

static inline gboolean
tm_svarint_read (const guint8 **p, const guint8 *end, gint64 *out)
{
  guint64 u;

  if (!tm_uvarint_read (p, end, &u))
    return FALSE;
  *out = (gint64) (u >> 1) ^ -(gint64) (u & 1);
  return TRUE;
}

/* Writes a uvarint into buf (at least 10 bytes); returns the length. */
static inline guint
tm_uvarint_write (guint8 *buf, guint64 v)
{
  guint n = 0;

  while (v >= 0x80)
    {
      buf[n++] = (guint8) (v | 0x80);
      v >>= 7;
    }
  buf[n++] = (guint8) v;
  return n;
}

static inline guint64
tm_zigzag (gint64 v)
{
  return ((guint64) v << 1) ^ (guint64) (v >> 63);
}

G_END_DECLS
