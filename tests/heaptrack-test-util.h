/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * heaptrack_print's output for the tests: its byte format and its
 * listings (MOST CALLS TO ALLOCATION FUNCTIONS, PEAK MEMORY CONSUMERS,
 * MEMORY LEAKS, MOST TEMPORARY ALLOCATIONS) read back into numbers.
 */
#pragma once

#include <stdio.h>
#include <string.h>
#include <glib.h>

/* heaptrack_print's byte format: 376712 -> "376.71K" */
static inline char *
si_bytes (guint64 b)
{
  static const char units[] = "KMGTPE";
  double v = (double) b;
  guint u = 0;

  if (b < 1000)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "B", b);
  v /= 1000.0;
  while (v >= 1000.0 && u + 1 < sizeof units - 1)
    {
      v /= 1000.0;
      u++;
    }
  return g_strdup_printf ("%.2f%c", v, units[u]);
}

typedef enum { HP_ALLOCATIONS, HP_PEAK, HP_LEAKS, HP_TEMPORARY, HP_N_SECTIONS } HpSection;

/* One listing entry: a function (heaptrack merges by call site) or one of
 * its callers; `count` is calls (temporary allocations in HP_TEMPORARY),
 * `bytes` the formatted peak or leak, NULL where the listing has none. */
typedef struct {
  HpSection section;
  char     *function;
  char     *caller;    /* NULL for the entry itself */
  gint64    count;
  char     *bytes;
} HpEntry;

static inline void
hp_entry_free (gpointer data)
{
  HpEntry *e = data;
  g_free (e->function);
  g_free (e->caller);
  g_free (e->bytes);
  g_free (e);
}

/* Reads the listings of `heaptrack_print -a -p -T -l`; returns HpEntry*s. */
static inline GPtrArray *
hp_parse_listing (const char *text)
{
  static const char *const headers[HP_N_SECTIONS] = {
    "MOST CALLS TO ALLOCATION FUNCTIONS", "PEAK MEMORY CONSUMERS", "MEMORY LEAKS", "MOST TEMPORARY ALLOCATIONS"
  };
  GPtrArray *out = g_ptr_array_new_with_free_func (hp_entry_free);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  int section = -1;
  char *function = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      gint64 count = 0, total = 0;
      char bytes[64] = "";
      gboolean sub = g_str_has_suffix (l, "from:"), head = g_str_has_suffix (l, "from");
      HpEntry *e;

      for (int s = 0; s < HP_N_SECTIONS; s++)
        if (strcmp (l, headers[s]) == 0)
          section = s;
      if (section < 0 || l[0] == ' ' || (!sub && !head) || lines[i + 1] == NULL)
        continue;
      switch (section)
        {
        case HP_ALLOCATIONS:
          if (sscanf (l, "%" G_GINT64_FORMAT " calls %*s %*s %*s with %63s", &count, bytes) != 2 &&
              sscanf (l, "%" G_GINT64_FORMAT " calls with %63s", &count, bytes) != 2)
            continue;
          break;
        case HP_PEAK:
        case HP_LEAKS:
          if (sscanf (l, "%63s %*s %*s %*s over %" G_GINT64_FORMAT, bytes, &count) != 2 &&
              sscanf (l, "%63s %*s over %" G_GINT64_FORMAT, bytes, &count) != 2)
            continue;
          break;
        case HP_TEMPORARY:
          if (sscanf (l, "%" G_GINT64_FORMAT " temporary allocations of %" G_GINT64_FORMAT, &count, &total) != 2)
            continue;
          break;
        default:
          continue;
        }
      e = g_new0 (HpEntry, 1);
      e->section = (HpSection) section;
      e->count = count;
      e->bytes = bytes[0] ? g_strdup (bytes) : NULL;
      if (head)
        {
          g_free (function);
          function = g_strdup (lines[i + 1]);
          e->function = g_strdup (function);
        }
      else
        {
          if (function == NULL)
            {
              hp_entry_free (e);
              continue;
            }
          e->function = g_strdup (function);
          e->caller = g_strstrip (g_strdup (lines[i + 1]));
        }
      g_ptr_array_add (out, e);
    }
  g_free (function);
  return out;
}

/* The value after "KEY: " in heaptrack_print's summary, or NULL. */
static inline char *
hp_summary_value (const char *text, const char *key)
{
  g_autofree char *needle = g_strconcat ("\n", key, ": ", NULL);
  const char *at = strstr (text, needle), *end;

  if (at == NULL)
    return NULL;
  at += strlen (needle);
  end = strpbrk (at, " \n");
  return g_strndup (at, end ? (gsize) (end - at) : strlen (at));
}
