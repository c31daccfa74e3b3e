/* SPDX-License-Identifier: GPL-3.0-or-later
 * Arithmetic on numbers that come from files: saturating instead of
 * wrapping (or, for signed values, instead of undefined behaviour).
 * Callers that must tell the user check the return of the _checked forms. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

static inline guint64
tm_add_sat (guint64 a, guint64 b)
{
  guint64 r;
  return g_uint64_checked_add (&r, a, b) ? r : G_MAXUINT64;
}

/* a + b, saturated; *saturated becomes TRUE when it was (else unchanged) */
static inline guint64
tm_add_sat_flag (guint64 a, guint64 b, gboolean *saturated)
{
  guint64 r;
  if (g_uint64_checked_add (&r, a, b))
    return r;
  *saturated = TRUE;
  return G_MAXUINT64;
}

static inline guint64
tm_mul_sat_flag (guint64 a, guint64 b, gboolean *saturated)
{
  guint64 r;
  if (g_uint64_checked_mul (&r, a, b))
    return r;
  *saturated = TRUE;
  return G_MAXUINT64;
}

static inline guint64
tm_mul_sat (guint64 a, guint64 b)
{
  guint64 r;
  return g_uint64_checked_mul (&r, a, b) ? r : G_MAXUINT64;
}

/* a + b for signed values; FALSE (and *r clamped) on overflow. */
static inline gboolean
tm_add_s64_checked (gint64 *r, gint64 a, gint64 b)
{
  if (!__builtin_add_overflow (a, b, r))
    return TRUE;
  *r = b > 0 ? G_MAXINT64 : G_MININT64;
  return FALSE;
}

static inline gint64
tm_add_s64_sat (gint64 a, gint64 b)
{
  gint64 r;
  tm_add_s64_checked (&r, a, b);
  return r;
}

/* An unsigned size from a file as a signed amount, clamped. */
static inline gint64
tm_s64_of_u64 (guint64 v)
{
  return (gint64) MIN (v, (guint64) G_MAXINT64);
}

G_END_DECLS
