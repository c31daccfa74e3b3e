/* SPDX-License-Identifier: GPL-3.0-or-later
 * Summary statistics of a GC range; see tm-gc-stats.h. */
#include "tm-gc-stats.h"
#include "tm-native-bytes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
tm_quantile_sorted (double *values, guint n, double q)
{
  double rank;

  if (n == 0)
    return 0;
  qsort (values, n, sizeof (double), compare_doubles);
  /* nearest rank: the smallest value with at least q of the values at or below it */
  rank = ceil (q * n);
  return values[(guint) CLAMP (rank, 1, n) - 1];
}

gboolean
tm_gc_is_whole_heap (const TmGc *gc)
{
  if (gc->kind == TM_GC_KIND_MAJOR)
    return TRUE;
  return gc->kind == TM_GC_KIND_CONCURRENT
         && (g_str_has_prefix (gc->collector, "ZGC") || g_str_has_prefix (gc->collector, "Shenandoah"));
}

gboolean
tm_gc_space_kind_usage (const TmTrace *trace, const TmGc *gc, TmSpaceKind kind,
                        guint64 *before, guint64 *after, guint64 *committed)
{
  gboolean found = FALSE;

  *before = *after = *committed = 0;
  for (guint32 i = 0; i < gc->usage_count; i++)
    {
      const TmSpaceUsage *u = &g_array_index (trace->space_usage, TmSpaceUsage, gc->usage_first + i);
      TmSpaceKind k = tm_trace_space (trace, u->space)->kind;

      if (k == kind || (kind == TM_SPACE_KIND_YOUNG && k == TM_SPACE_KIND_SURVIVOR))
        {
          *before += u->used_before;
          *after += u->used_after;
          *committed += u->committed_after;
          found = TRUE;
        }
    }
  return found;
}

void
tm_gc_stats_compute (const TmTrace *trace, guint32 first_gc, guint32 last_gc, TmGcStats *st)
{
  guint n = tm_trace_n_gcs (trace);
  g_autofree double *pauses = NULL;
  g_autofree double *intervals = NULL;
  g_autofree double *minor_pauses = NULL;
  g_autofree double *live = NULL;
  guint n_pauses = 0, n_intervals = 0, n_live = 0;
  guint64 prev_after = 0, prev_end = 0, start_ns;
  gboolean have_prev = FALSE;

  memset (st, 0, sizeof *st);
  st->collector = "";
  st->throughput = 1.0;   /* no GC, no pause */
  if (first_gc == 0)
    first_gc = 1;
  if (last_gc == 0 || last_gc > n)
    last_gc = n;
  st->first_gc = first_gc;
  st->last_gc = last_gc;
  if (n == 0 || first_gc > last_gc)
    return;

  pauses = g_new (double, last_gc - first_gc + 1);
  intervals = g_new (double, last_gc - first_gc + 1);
  minor_pauses = g_new (double, last_gc - first_gc + 1);
  live = g_new (double, last_gc - first_gc + 1);

  /* the range starts where the GC before it ended */
  start_ns = 0;
  for (guint32 id = first_gc - 1; id >= 1; id--)
    {
      const TmGc *p = tm_trace_gc (trace, id);
      if (p->complete)
        {
          start_ns = p->end_ns;
          prev_after = p->used_after;
          prev_end = p->end_ns;
          have_prev = TRUE;
          break;
        }
    }

  for (guint32 id = first_gc; id <= last_gc; id++)
    {
      const TmGc *gc = tm_trace_gc (trace, id);
      guint64 ob, oa, oc, yb, ya, yc;

      if (!gc->complete)
        continue;
      st->n_gcs++;
      st->collector = gc->collector;
      switch (gc->kind)
        {
        case TM_GC_KIND_MINOR: st->n_minor++; break;
        case TM_GC_KIND_MAJOR: st->n_major++; break;
        case TM_GC_KIND_MIXED: st->n_mixed++; break;
        case TM_GC_KIND_CONCURRENT: st->n_concurrent++; break;
        case TM_GC_KIND_UNKNOWN: default: break;
        }
      pauses[n_pauses++] = (double) gc->pause_ns;
      st->pause_total_ns += (double) gc->pause_ns;
      if ((double) gc->pause_ns > st->pause_max_ns || st->pause_max_gc == 0)
        {
          st->pause_max_ns = (double) gc->pause_ns;
          st->pause_max_gc = gc->id;
        }
      /* allocation: what the heap gained since the previous GC ended */
      if (!have_prev)
        st->alloc_bytes += (double) gc->used_before;
      else if (gc->used_before > prev_after)
        st->alloc_bytes += (double) (gc->used_before - prev_after);
      st->max_used_bytes = MAX (st->max_used_bytes, gc->used_before);
      st->max_committed_bytes = MAX (st->max_committed_bytes, gc->committed_after);

      if (gc->kind == TM_GC_KIND_MINOR)
        {
          if (gc->used_before > gc->used_after)
            st->young_freed_bytes += (double) (gc->used_before - gc->used_after);
          if (tm_gc_space_kind_usage (trace, gc, TM_SPACE_KIND_OLD, &ob, &oa, &oc) && oa > ob)
            st->promoted_bytes += (double) (oa - ob);
          if (tm_gc_space_kind_usage (trace, gc, TM_SPACE_KIND_YOUNG, &yb, &ya, &yc) && yc > 0)
            st->young_committed_bytes = yc;
          if (have_prev && gc->start_ns >= prev_end)
            intervals[n_intervals++] = (double) (gc->start_ns - prev_end);
          minor_pauses[st->n_minor - 1] = (double) gc->pause_ns;
        }
      if ((tm_gc_is_whole_heap (gc) || gc->kind == TM_GC_KIND_MIXED)
          && tm_gc_space_kind_usage (trace, gc, TM_SPACE_KIND_OLD, &ob, &oa, &oc))
        {
          st->old_before_bytes += (double) ob;
          if (ob > oa)
            st->old_reclaimed_bytes += (double) (ob - oa);
        }
      if (tm_gc_is_whole_heap (gc))
        {
          st->n_whole_heap++;
          live[n_live++] = (double) gc->used_after;
          st->live_max_bytes = MAX (st->live_max_bytes, gc->used_after);
        }
      prev_after = gc->used_after;
      prev_end = gc->end_ns;
      have_prev = TRUE;
    }

  /* heaptrack: the bytes malloc'ed, not the gains of the heap in use */
  if (tm_trace_sees_frees (trace) && n > 0)
    {
      g_autofree guint64 *freed = g_new (guint64, n);
      g_autofree guint64 *allocated = g_new (guint64, n);

      tm_native_bytes_per_interval (trace, freed, allocated);
      st->alloc_bytes = 0;
      for (guint32 id = first_gc; id <= last_gc; id++)
        st->alloc_bytes += (double) allocated[id - 1];
    }
  st->duration_ns = prev_end > start_ns ? (double) (prev_end - start_ns) : 0;
  if (last_gc == n && trace->duration_ns > prev_end)
    st->duration_ns = (double) (trace->duration_ns - start_ns);
  st->throughput = st->duration_ns > 0 ? MAX (0.0, 1.0 - st->pause_total_ns / st->duration_ns) : 1.0;
  st->alloc_rate = st->duration_ns > 0 ? st->alloc_bytes / (st->duration_ns / 1e9) : 0;
  st->pause_p50_ns = tm_quantile_sorted (pauses, n_pauses, 0.50);
  st->pause_p99_ns = tm_quantile_sorted (pauses, n_pauses, 0.99);
  st->minor_interval_p50_ns = tm_quantile_sorted (intervals, n_intervals, 0.50);
  st->minor_pause_p50_ns = tm_quantile_sorted (minor_pauses, st->n_minor, 0.50);
  st->live_median_bytes = (guint64) tm_quantile_sorted (live, n_live, 0.50);
}

guint64
tm_gc_live_estimate (const TmTrace *trace)
{
  TmGcStats st;
  guint64 m = 0;

  tm_gc_stats_compute (trace, 0, 0, &st);
  if (st.live_max_bytes > 0)
    return st.live_max_bytes;
  for (guint id = 1; id <= tm_trace_n_gcs (trace); id++)
    m = MAX (m, tm_trace_gc (trace, id)->used_after);
  return m;
}
