/* SPDX-License-Identifier: GPL-3.0-or-later
 * Survival by age from the age tables of young GCs; see tm-advice-ages.h. */
#include "tm-advice-ages.h"
#include "tm-gc-stats.h"

#include <stdlib.h>
#include <string.h>

/* the ratio at an age counts once this many pairs measured it */
#define MIN_PAIRS 3
/* surviving this share of the next young GC is "lives on" */
#define STABLE_SURVIVAL 0.9

static int
compare_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return (x > y) - (x < y);
}

static int
compare_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return (x > y) - (x < y);
}

static int
compare_u8 (const void *a, const void *b)
{
  return (int) *(const guint8 *) a - (int) *(const guint8 *) b;
}

static int
compare_gc (gconstpointer a, gconstpointer b)
{
  guint32 x = ((const TmGcAges *) a)->gc, y = ((const TmGcAges *) b)->gc;
  return (x > y) - (x < y);
}

const TmGcAges *
tm_trace_gc_ages (const TmTrace *trace, guint32 gc)
{
  TmGcAges key = { .gc = gc };
  guint i;

  if (trace->gc_ages == NULL || !g_array_binary_search (trace->gc_ages, &key, compare_gc, &i))
    return NULL;
  return &g_array_index (trace->gc_ages, TmGcAges, i);
}

static guint64
total_bytes (const TmGcAges *a)
{
  guint64 s = 0;
  for (guint k = 1; k <= TM_GC_MAX_AGE; k++)
    s += a->bytes[k];
  return s;
}

/* Nothing but concurrent-cycle pauses (G1 Remark, Cleanup) between two
 * young GCs: the survivors of the first are the input of the second. */
static gboolean
consecutive (const TmTrace *trace, guint32 a, guint32 b)
{
  for (guint32 id = a + 1; id < b; id++)
    if (tm_trace_gc (trace, id)->kind != TM_GC_KIND_CONCURRENT)
      return FALSE;
  return TRUE;
}

gboolean
tm_age_curve_compute (const TmTrace *trace, guint32 first_gc, guint32 last_gc, TmAgeCurve *out)
{
  guint lo, hi, n;
  g_autofree guint64 *totals = NULL;
  g_autofree guint8 *thresholds = NULL;
  g_autofree guint64 *desired = NULL;
  guint n_thr = 0, n_des = 0;
  double from[TM_GC_MAX_AGE + 1] = { 0 }, to[TM_GC_MAX_AGE + 1] = { 0 };

  memset (out, 0, sizeof *out);
  for (guint k = 0; k <= TM_GC_MAX_AGE; k++)
    out->survival[k] = -1;
  if (trace->gc_ages == NULL)
    return FALSE;
  if (first_gc == 0 && last_gc == 0)
    last_gc = G_MAXUINT32;
  /* a table per young GC at most: a scan is cheap next to the rules */
  for (lo = 0; lo < trace->gc_ages->len && g_array_index (trace->gc_ages, TmGcAges, lo).gc < first_gc; lo++)
    ;
  for (hi = lo; hi < trace->gc_ages->len && g_array_index (trace->gc_ages, TmGcAges, hi).gc <= last_gc; hi++)
    ;
  if (hi <= lo)
    return FALSE;
  n = hi - lo;
  totals = g_new (guint64, n);
  thresholds = g_new (guint8, n);
  desired = g_new (guint64, n);

  for (guint i = lo; i < hi; i++)
    {
      const TmGcAges *a = &g_array_index (trace->gc_ages, TmGcAges, i);
      guint64 tot = total_bytes (a);

      totals[out->n_tables++] = tot;
      out->mean_total += (double) tot;
      for (guint k = 1; k <= TM_GC_MAX_AGE; k++)
        out->mean_bytes[k] += (double) a->bytes[k];
      out->max_threshold = MAX (out->max_threshold, a->max_threshold);
      if (a->threshold > 0)
        thresholds[n_thr++] = a->threshold;
      if (a->desired_survivor > 0)
        desired[n_des++] = a->desired_survivor;
      if (a->threshold > 0 && a->threshold < a->max_threshold && a->desired_survivor > 0 && tot > a->desired_survivor)
        out->n_forced++;

      if (i + 1 < hi)
        {
          const TmGcAges *b = &g_array_index (trace->gc_ages, TmGcAges, i + 1);
          guint8 keep = MIN (a->threshold, b->threshold);

          if (keep == 0 || !consecutive (trace, a->gc, b->gc))
            continue;
          out->n_pairs++;
          /* age k stays in the survivor spaces while k is below the threshold */
          for (guint k = 1; k < keep && k < TM_GC_MAX_AGE; k++)
            if (a->bytes[k] > 0)
              {
                from[k] += (double) a->bytes[k];
                to[k] += (double) b->bytes[k + 1];
                out->survival_pairs[k]++;
              }
        }
    }
  out->mean_total /= n;
  for (guint k = 1; k <= TM_GC_MAX_AGE; k++)
    {
      out->mean_bytes[k] /= n;
      if (out->survival_pairs[k] >= MIN_PAIRS && from[k] > 0)
        out->survival[k] = MIN (1.0, to[k] / from[k]);
    }
  qsort (totals, n, sizeof totals[0], compare_u64);
  out->p90_total = totals[MIN (n - 1, (guint) (0.9 * n))];
  if (n_thr > 0)
    {
      qsort (thresholds, n_thr, 1, compare_u8);
      out->median_threshold = thresholds[n_thr / 2];
    }
  if (n_des > 0)
    {
      qsort (desired, n_des, sizeof desired[0], compare_u64);
      out->desired_survivor = desired[n_des / 2];
    }

  /* the youngest age from which every measured age lives on */
  for (guint k = TM_GC_MAX_AGE; k >= 1; k--)
    {
      guint measured = 0;
      gboolean stable = out->survival[k] >= STABLE_SURVIVAL;
      for (guint j = k; j <= TM_GC_MAX_AGE && stable; j++)
        if (out->survival[j] >= 0)
          {
            stable = out->survival[j] >= STABLE_SURVIVAL;
            measured++;
          }
      if (out->survival[k] >= 0 && !stable)
        break;
      if (stable && measured >= 2)
        out->stable_age = k;
    }
  return TRUE;
}

/* ---- promotion from recorded lifetimes ------------------------------- */

guint
tm_trace_tenuring_threshold (const TmTrace *trace)
{
  const char *cl = trace->command_line ? strstr (trace->command_line, "-XX:MaxTenuringThreshold=") : NULL;
  const char *flag = g_hash_table_lookup (trace->meta, "jvm.MaxTenuringThreshold");
  const char *collectors = g_hash_table_lookup (trace->meta, "collectors");

  /* a recorder that read the JVM's flag says it in META */
  if (flag != NULL)
    {
      guint64 v = g_ascii_strtoull (flag, NULL, 10);
      if (v >= 1 && v <= TM_GC_MAX_AGE)
        return (guint) v;
    }
  const char *collector = tm_trace_n_gcs (trace) > 0 ? tm_trace_gc (trace, 1)->collector : NULL;

  if (cl != NULL)
    {
      guint64 v = g_ascii_strtoull (cl + 25, NULL, 10);
      if (v <= TM_GC_MAX_AGE)
        return (guint) v;
    }
  /* the agent names the JVM's collectors ("ParNew", "PS Scavenge") */
  if ((collectors && strstr (collectors, "ParNew")) || (collector && strstr (collector, "ParNew")) ||
      (collector && g_str_equal (collector, "CMS")))
    return 6;
  if ((collectors && strstr (collectors, "PS Scavenge")) || (collector && strstr (collector, "PS Scavenge")) ||
      (collector && g_str_equal (collector, "Parallel")))
    return 7;
  return TM_GC_MAX_AGE;
}

static gboolean
is_young (TmGcKind k)
{
  return k == TM_GC_KIND_MINOR || k == TM_GC_KIND_MIXED;
}

static gboolean
is_old (TmGcKind k)
{
  return k == TM_GC_KIND_MAJOR || k == TM_GC_KIND_MIXED || k == TM_GC_KIND_CONCURRENT;
}

void
tm_promotion_lifetimes_clear (TmPromotionLifetimes *p)
{
  g_clear_pointer (&p->soon_gcs, g_array_unref);
}

gboolean
tm_promotion_lifetimes (const TmTrace *trace, guint32 first_gc, guint32 last_gc, guint threshold,
                        TmPromotionLifetimes *out)
{
  guint32 n = tm_trace_n_gcs (trace);
  g_autofree guint32 *young_before = NULL;   /* [g]: young GCs among 1..g */
  g_autofree guint32 *old_before = NULL;
  g_autofree guint32 *whole_before = NULL;   /* [g]: whole-heap GCs among 1..g */
  g_autofree guint32 *young_ids = NULL;      /* [k]: id of the (k+1)-th young GC */
  g_autofree guint64 *soon_at = NULL;        /* [g]: bytes freed soon after promotion by GC g */
  g_autoptr(GArray) ages = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_young = 0;

  memset (out, 0, sizeof *out);
  out->threshold = threshold;
  if (n == 0 || trace->n_objects == 0)
    return FALSE;
  if (first_gc == 0 && last_gc == 0)
    {
      first_gc = 1;
      last_gc = n;
    }
  young_before = g_new0 (guint32, n + 1);
  old_before = g_new0 (guint32, n + 1);
  whole_before = g_new0 (guint32, n + 1);
  young_ids = g_new0 (guint32, n + 1);
  soon_at = g_new0 (guint64, n + 1);
  for (guint32 g = 1; g <= n; g++)
    {
      TmGcKind k = tm_trace_gc (trace, g)->kind;
      young_before[g] = young_before[g - 1] + (is_young (k) ? 1 : 0);
      old_before[g] = old_before[g - 1] + (is_old (k) ? 1 : 0);
      whole_before[g] = whole_before[g - 1] + (tm_gc_is_whole_heap (tm_trace_gc (trace, g)) ? 1 : 0);
      if (is_young (k))
        young_ids[n_young++] = g;
      if (g >= first_gc && g <= last_gc)
        {
          out->n_young += is_young (k) ? 1 : 0;
          out->n_old += is_old (k) ? 1 : 0;
        }
    }

  /* objects born before GC b + 1 and after GC b's start: birth b */
  for (guint32 b = 0; b < n; b++)
    {
      guint64 lo = b == 0 ? 0 : tm_trace_gc (trace, b)->allocs_before;
      guint64 hi = tm_trace_gc (trace, b + 1)->allocs_before;
      guint32 p;

      if (young_before[b] + threshold + 1 > n_young)
        break;   /* nobody born from here on lived to be promoted */
      p = young_ids[young_before[b] + threshold];   /* the young GC that promoted it */
      if (whole_before[p] > whole_before[b])
        continue;   /* a whole-heap GC before p moved the survivors to the old generation, not the threshold */
      if (p > last_gc)
        break;
      for (guint64 i = lo; i < hi && i < trace->n_objects; i++)
        {
          guint32 d = trace->obj_death[i];
          guint64 size;

          if ((d != TM_ALIVE && (d <= p || d < first_gc || d > last_gc)) ||
              (d == TM_ALIVE && young_before[last_gc] < young_before[b] + threshold + 1))
            continue;
          size = tm_trace_object_size (trace, i);
          out->promoted_bytes += size;
          out->promoted_objects++;
          /* freed at the first old collection after its promotion */
          if (d != TM_ALIVE && old_before[d - 1] == old_before[p])
            {
              guint32 age = young_before[d - 1] - young_before[b];
              out->soon_bytes += size;
              out->soon_objects++;
              soon_at[d] += size;
              g_array_append_val (ages, age);
            }
        }
    }
  if (ages->len > 0)
    {
      g_array_sort (ages, (GCompareFunc) compare_u32);
      out->soon_age_p75 = g_array_index (ages, guint32, MIN (ages->len - 1, (guint) (0.75 * ages->len)));
    }
  out->soon_gcs = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 g = first_gc; g <= last_gc; g++)
    if (soon_at[g] > 0)
      g_array_append_val (out->soon_gcs, g);
  return TRUE;
}

