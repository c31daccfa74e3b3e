/* SPDX-License-Identifier: GPL-3.0-or-later
 * A bounds-checked cursor over one record's payload.  The first failure
 * sticks (c->ok = FALSE, c->what says which field), so decoders read all
 * fields and check once. */
#pragma once

#include <glib.h>
#include <string.h>
#include "tm-varint.h"
#include "tm-trace-format.h"

G_BEGIN_DECLS

typedef struct {
  const guint8 *p;
  const guint8 *end;
  gboolean      ok;
  const char   *what;      /* field that failed */
} TmPayload;

static inline void
tm_payload_init (TmPayload *c, const guint8 *data, gsize len)
{
  c->p = data;
  c->end = data + len;
  c->ok = TRUE;
  c->what = NULL;
}

static inline guint64
tm_payload_u (TmPayload *c, const char *what)
{
  guint64 v = 0;
  if (c->ok && !tm_uvarint_read (&c->p, c->end, &v))
    {
      c->ok = FALSE;
      c->what = what;
      v = 0;
    }
  return v;
}

/* Reads a uvarint and clamps it to `max` (fields with a small range). */
static inline guint64
tm_payload_u_max (TmPayload *c, const char *what, guint64 max)
{
  guint64 v = tm_payload_u (c, what);
  return v > max ? max : v;
}

static inline gint64
tm_payload_s (TmPayload *c, const char *what)
{
  gint64 v = 0;
  if (c->ok && !tm_svarint_read (&c->p, c->end, &v))
    {
      c->ok = FALSE;
      c->what = what;
      v = 0;
    }
  return v;
}

/* Returns a newly allocated, NUL-terminated, valid UTF-8 copy (invalid
 * sequences are replaced), or NULL on failure. */
static inline char *
tm_payload_str (TmPayload *c, const char *what)
{
  guint64 len = tm_payload_u (c, what);
  const char *s;
  if (!c->ok)
    return NULL;
  if (len > TM_TRACE_MAX_STRING || len > (guint64) (c->end - c->p))
    {
      c->ok = FALSE;
      c->what = what;
      return NULL;
    }
  s = (const char *) c->p;
  c->p += len;
  if (memchr (s, 0, len) != NULL || !g_utf8_validate_len (s, len, NULL))
    return g_utf8_make_valid (s, (gssize) len);  /* NUL or bad UTF-8: keep it readable */
  return g_strndup (s, len);
}

/* A count of elements each at least `min_bytes` long must fit the rest. */
static inline guint64
tm_payload_count (TmPayload *c, guint min_bytes, const char *what)
{
  guint64 n = tm_payload_u (c, what);
  if (c->ok && n > (guint64) (c->end - c->p) / min_bytes)
    {
      c->ok = FALSE;
      c->what = what;
      return 0;
    }
  return n;
}

G_END_DECLS
