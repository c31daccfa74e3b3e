/* SPDX-License-Identifier: GPL-3.0-or-later
 * GC configurations, run-time features and the knowledge base; see
 * tm-gc-config.h and docs/tune.md. */
#include "tm-gc-config.h"
#include "tm-error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

static const char *const collector_flags[][2] = {
  { "Serial", "-XX:+UseSerialGC" },
  { "Parallel", "-XX:+UseParallelGC" },
  { "G1", "-XX:+UseG1GC" },
  { "ZGC", "-XX:+UseZGC" },
  { "Shenandoah", "-XX:+UseShenandoahGC" },
};

void
tm_gc_config_clear (TmGcConfig *config)
{
  g_clear_pointer (&config->collector, g_free);
  memset (config, 0, sizeof *config);
}

void
tm_gc_config_copy (TmGcConfig *dest, const TmGcConfig *src)
{
  *dest = *src;
  dest->collector = g_strdup (src->collector);
}

gboolean
tm_gc_config_equal (const TmGcConfig *a, const TmGcConfig *b)
{
  return g_strcmp0 (a->collector, b->collector) == 0 && a->heap_factor == b->heap_factor
         && a->new_ratio == b->new_ratio && a->max_tenuring == b->max_tenuring
         && a->survivor_ratio == b->survivor_ratio;
}

char *
tm_gc_config_to_string (const TmGcConfig *c)
{
  GString *s = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (c->collector)
    g_string_append_printf (s, " collector=%s", c->collector);
  if (c->heap_factor > 0)
    g_string_append_printf (s, " heap=%sx", g_ascii_formatd (buf, sizeof buf, "%g", c->heap_factor));
  if (c->new_ratio)
    g_string_append_printf (s, " new-ratio=%u", c->new_ratio);
  if (c->max_tenuring)
    g_string_append_printf (s, " max-tenuring=%u", c->max_tenuring);
  if (c->survivor_ratio)
    g_string_append_printf (s, " survivor-ratio=%u", c->survivor_ratio);
  if (s->len == 0)
    g_string_append (s, " default");
  g_string_erase (s, 0, 1);
  return g_string_free (s, FALSE);
}

static gboolean
parse_uint (const char *v, guint *out)
{
  guint64 x;
  if (!g_ascii_string_to_unsigned (v, 10, 1, 1000, &x, NULL))
    return FALSE;
  *out = (guint) x;
  return TRUE;
}

gboolean
tm_gc_config_from_string (const char *s, TmGcConfig *c, GError **error)
{
  g_auto(GStrv) words = g_strsplit (s, " ", -1);

  memset (c, 0, sizeof *c);
  for (guint i = 0; words[i]; i++)
    {
      const char *w = words[i], *eq = strchr (w, '=');
      g_autofree char *key = eq ? g_strndup (w, eq - w) : g_strdup (w);
      const char *v = eq ? eq + 1 : "";
      gboolean ok = TRUE;

      if (*w == '\0' || g_str_equal (w, "default"))
        continue;
      if (g_str_equal (key, "collector"))
        {
          ok = FALSE;
          for (guint k = 0; k < G_N_ELEMENTS (collector_flags); k++)
            if (g_str_equal (v, collector_flags[k][0]))
              ok = TRUE;
          if (ok)
            {
              g_free (c->collector);
              c->collector = g_strdup (v);
            }
        }
      else if (g_str_equal (key, "heap"))
        {
          char *end = NULL;
          c->heap_factor = g_ascii_strtod (v, &end);
          ok = end && end != v && g_str_equal (end, "x") && c->heap_factor > 0 && c->heap_factor <= 100;
        }
      else if (g_str_equal (key, "new-ratio"))
        ok = parse_uint (v, &c->new_ratio);
      else if (g_str_equal (key, "max-tenuring"))
        ok = parse_uint (v, &c->max_tenuring) && c->max_tenuring <= 15;
      else if (g_str_equal (key, "survivor-ratio"))
        ok = parse_uint (v, &c->survivor_ratio);
      else
        ok = FALSE;
      if (!ok)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "bad configuration item '%s' in '%s'", w, s);
          tm_gc_config_clear (c);
          return FALSE;
        }
    }
  return TRUE;
}

GStrv
tm_gc_config_flags (const TmGcConfig *c, guint64 live_bytes)
{
  GPtrArray *b = g_ptr_array_new ();

  for (guint k = 0; c->collector && k < G_N_ELEMENTS (collector_flags); k++)
    if (g_str_equal (c->collector, collector_flags[k][0]))
      g_ptr_array_add (b, g_strdup (collector_flags[k][1]));
  if (c->heap_factor > 0)
    {
      /* whole MiB, at least 8 MiB: the JVM's own floor is close to that */
      guint64 mib = (guint64) ceil (MAX (8.0, c->heap_factor * (double) live_bytes / MIB));
      g_ptr_array_add (b, g_strdup_printf ("-Xmx%" G_GUINT64_FORMAT "m", mib));
    }
  if (c->new_ratio)
    g_ptr_array_add (b, g_strdup_printf ("-XX:NewRatio=%u", c->new_ratio));
  if (c->max_tenuring)
    g_ptr_array_add (b, g_strdup_printf ("-XX:MaxTenuringThreshold=%u", c->max_tenuring));
  if (c->survivor_ratio)
    g_ptr_array_add (b, g_strdup_printf ("-XX:SurvivorRatio=%u", c->survivor_ratio));
  g_ptr_array_add (b, NULL);
  return (GStrv) g_ptr_array_free (b, FALSE);
}

char *
tm_gc_config_flags_line (const TmGcConfig *c, guint64 live_bytes)
{
  g_auto(GStrv) f = tm_gc_config_flags (c, live_bytes);
  return g_strjoinv (" ", f);
}

/* ---- features --------------------------------------------------------- */

const char *const tm_gc_feature_names[TM_GC_N_FEATURES] = {
  "log10 allocation MiB/s",
  "log10 live MiB",
  "promoted fraction",
  "live growth",
  "allocation burstiness",
  "log10 GCs/s",
};

static double
median_used_after (const TmTrace *trace, guint from, guint to)
{
  g_autofree double *v = g_new (double, MAX (1, to - from));
  guint n = 0;

  for (guint id = from; id < to; id++)
    {
      const TmGc *gc = tm_trace_gc (trace, id);
      if (gc->complete)
        v[n++] = (double) gc->used_after;
    }
  return tm_quantile_sorted (v, n, 0.5);
}

void
tm_gc_features_compute (const TmTrace *trace, TmGcFeatures *f)
{
  TmGcStats st;
  guint n = tm_trace_n_gcs (trace);
  double slices[10] = { 0 }, mean = 0, var = 0, dur, top, first_q, last_q;
  guint64 prev_after = 0;

  memset (f, 0, sizeof *f);
  tm_gc_stats_compute (trace, 0, 0, &st);
  if (st.n_gcs == 0)
    return;
  dur = MAX (st.duration_ns, 1.0);
  f->v[0] = log10 (1 + st.alloc_rate / MIB);
  f->v[1] = log10 (1 + (double) (st.live_max_bytes ? st.live_max_bytes : st.max_used_bytes) / MIB);
  f->v[2] = st.promoted_bytes + st.young_freed_bytes > 0
              ? st.promoted_bytes / (st.promoted_bytes + st.young_freed_bytes) : 0;
  /* occupancy after GC: last quarter vs first quarter, relative to the peak */
  first_q = median_used_after (trace, 1, 1 + MAX (1, n / 4));
  last_q = median_used_after (trace, n + 1 - MAX (1, n / 4), n + 1);
  top = (double) MAX (st.max_used_bytes, 1);
  f->v[3] = CLAMP ((last_q - first_q) / top, -1.0, 1.0);
  /* coefficient of variation of the allocation over ten equal slices */
  for (guint id = 1; id <= n; id++)
    {
      const TmGc *gc = tm_trace_gc (trace, id);
      guint s;
      if (!gc->complete)
        continue;
      s = (guint) MIN (9.0, 10.0 * (double) gc->end_ns / dur);
      if (gc->used_before > prev_after)
        slices[s] += (double) (gc->used_before - prev_after);
      prev_after = gc->used_after;
    }
  for (guint s = 0; s < 10; s++)
    mean += slices[s] / 10;
  for (guint s = 0; s < 10; s++)
    var += (slices[s] - mean) * (slices[s] - mean) / 10;
  f->v[4] = mean > 0 ? MIN (3.0, sqrt (var) / mean) : 0;
  f->v[5] = log10 (1 + st.n_gcs / (dur / 1e9));
}
