/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-format-util.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <string.h>

char *
tm_format_bytes (double bytes)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
  double v = fabs (bytes);
  guint u = 0;

  while (v >= 1024.0 && u + 1 < G_N_ELEMENTS (units))
    {
      v /= 1024.0;
      u++;
    }
  if (bytes < 0)
    v = -v;
  if (u == 0)
    return g_strdup_printf ("%.0f %s", v, units[u]);
  if (fabs (v) >= 100)
    return g_strdup_printf ("%.0f %s", v, units[u]);
  if (fabs (v) >= 10)
    return g_strdup_printf ("%.1f %s", v, units[u]);
  return g_strdup_printf ("%.2f %s", v, units[u]);
}

char *
tm_format_duration (double ns)
{
  double a = fabs (ns);

  if (a < 1e3)
    return g_strdup_printf ("%.0f ns", ns);
  if (a < 1e6)
    return g_strdup_printf ("%.1f µs", ns / 1e3);
  if (a < 1e9)
    return g_strdup_printf ("%.1f ms", ns / 1e6);
  if (a < 60e9)
    return g_strdup_printf ("%.2f s", ns / 1e9);
  if (a < 3600e9)
    {
      guint64 s = (guint64) (a / 1e9 + 0.5);
      return g_strdup_printf ("%s%" G_GUINT64_FORMAT " min %" G_GUINT64_FORMAT " s",
                              ns < 0 ? "-" : "", s / 60, s % 60);
    }
  {
    guint64 m = (guint64) (a / 60e9 + 0.5);
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " h %" G_GUINT64_FORMAT " min",
                            ns < 0 ? "-" : "", m / 60, m % 60);
  }
}

/* The user's digit grouping (LC_NUMERIC): "1.234.567" in German,
 * "12,34,567" in Hindi; the C locale has none, and gets English commas. */
char *
tm_format_count (guint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  const struct lconv *lc = localeconv ();
  const char *sep = lc->thousands_sep != NULL && *lc->thousands_sep ? lc->thousands_sep : ",";
  const char *grouping = lc->thousands_sep != NULL && *lc->thousands_sep ? lc->grouping : "\3";
  gsize len = strlen (digits);
  gsize cut[32];
  guint n_cut = 0;
  GString *s;

  /* where separators go, counted from the right */
  for (gsize pos = 0, g = 3; n_cut < G_N_ELEMENTS (cut); )
    {
      if (grouping != NULL && *grouping != '\0')
        {
          if (*grouping == CHAR_MAX || *grouping <= 0)
            break;
          g = (gsize) *grouping;
          if (grouping[1] != '\0')
            grouping++;
        }
      pos += g;
      if (pos >= len)
        break;
      cut[n_cut++] = len - pos;
    }
  s = g_string_sized_new (len + n_cut * strlen (sep));
  for (gsize i = 0; i < len; i++)
    {
      for (guint k = 0; k < n_cut; k++)
        if (cut[k] == i)
          g_string_append (s, sep);
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

void
tm_json_append_string (GString *s, const char *str)
{
  g_string_append_c (s, '"');
  for (const guchar *p = (const guchar *) (str ? str : ""); *p; p++)
    {
      switch (*p)
        {
        case '"':  g_string_append (s, "\\\""); break;
        case '\\': g_string_append (s, "\\\\"); break;
        case '\n': g_string_append (s, "\\n"); break;
        case '\r': g_string_append (s, "\\r"); break;
        case '\t': g_string_append (s, "\\t"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (s, "\\u%04x", *p);
          else
            g_string_append_c (s, (char) *p);
        }
    }
  g_string_append_c (s, '"');
}

char *
tm_format_time_point (double ns)
{
  if (ns < 1.0)
    return g_strdup ("0 s");
  return tm_format_duration (ns);
}
