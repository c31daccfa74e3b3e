/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC summary over a range of GCs (docs/gc-summary.md has the
 * definitions).  One pass over the range plus a sort of its pauses.
 */
#include "tm-config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tm-gc-summary.h"
#include "tm-error.h"
#include "tm-native-bytes.h"
#include "tm-checked.h"

/* A concurrent cycle logged without its pauses (ZGC with -Xlog:gc) or a
 * time point of a source without GCs has pause 0: unknown, not zero. */
static gboolean
pause_known (const TmGc *gc)
{
  return gc->pause_ns > 0 || gc->kind == TM_GC_KIND_MINOR || gc->kind == TM_GC_KIND_MAJOR ||
         gc->kind == TM_GC_KIND_MIXED;
}

static int
compare_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Nearest rank: the value at rank ceil(q * n), 1-based. */
static guint64
rank (const guint64 *sorted, guint n, guint per_mille)
{
  guint64 r = ((guint64) per_mille * n + 999) / 1000;

  if (r == 0)
    r = 1;
  return sorted[MIN (r, n) - 1];
}

static void
pause_stats (guint64 *pauses, guint n, TmPauseStats *out)
{
  guint64 total = 0;

  memset (out, 0, sizeof *out);
  if (n == 0)
    return;
  qsort (pauses, n, sizeof pauses[0], compare_u64);
  for (guint i = 0; i < n; i++)
    total += pauses[i];
  out->count = n;
  out->total_ns = total;
  out->mean_ns = total / n;
  out->min_ns = pauses[0];
  out->max_ns = pauses[n - 1];
  out->p50_ns = rank (pauses, n, 500);
  out->p90_ns = rank (pauses, n, 900);
  out->p99_ns = rank (pauses, n, 990);
  out->p999_ns = rank (pauses, n, 999);
}

/* Young (young + survivor spaces) and old occupancy of a GC; FALSE if
 * the trace does not log both generations there. */
static gboolean
generations (const TmTrace *t, const TmGc *gc, guint64 young[2], gboolean *has_old)
{
  gboolean has_young = FALSE;

  young[0] = young[1] = 0;
  *has_old = FALSE;
  for (guint i = 0; i < gc->usage_count; i++)
    {
      const TmSpaceUsage *u = &g_array_index (t->space_usage, TmSpaceUsage, gc->usage_first + i);
      TmSpaceKind kind = tm_trace_space (t, u->space)->kind;

      if (kind == TM_SPACE_KIND_YOUNG || kind == TM_SPACE_KIND_SURVIVOR)
        {
          has_young = TRUE;
          young[0] += u->used_before;
          young[1] += u->used_after;
        }
      else if (kind == TM_SPACE_KIND_OLD)
        *has_old = TRUE;
    }
  return has_young && *has_old;
}

static double
per_second (guint64 bytes, guint64 span_ns)
{
  return span_ns > 0 ? (double) bytes / ((double) span_ns / 1e9) : NAN;
}

gboolean
tm_gc_summary_compute (const TmTrace *t, guint first_gc, guint last_gc, TmGcSummary *out, GError **error)
{
  guint n = last_gc - first_gc + 1;
  g_autofree guint64 *all = NULL;
  g_autofree guint64 *kind_pauses = NULL;
  guint n_all = 0, n_kind[TM_GC_N_KINDS] = { 0 };
  gint64 promoted = 0;
  double sx = 0, sy = 0;

  g_return_val_if_fail (t != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  out->after_full_slope = NAN;
  out->allocation_rate = NAN;
  out->promotion_rate = NAN;
  if (tm_trace_n_gcs (t) == 0 && first_gc == 0 && last_gc == 0)
    {
      /* a log with no GC yet (the JVM's header, or only its exit summary) */
      out->throughput = NAN;
      return TRUE;
    }
  if (first_gc < 1 || last_gc < first_gc || last_gc > tm_trace_n_gcs (t))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "GCs %u to %u are not a range of the %u GCs of %s",
                   first_gc, last_gc, tm_trace_n_gcs (t), t->path ? t->path : "the trace");
      return FALSE;
    }
  out->first_gc = first_gc;
  out->last_gc = last_gc;
  out->start_ns = G_MAXUINT64;
  all = g_new (guint64, n);
  /* per kind, each kind's pauses in a slice of n */
  kind_pauses = g_new (guint64, (gsize) n * TM_GC_N_KINDS);

  for (guint id = first_gc; id <= last_gc; id++)
    {
      const TmGc *gc = tm_trace_gc (t, id);
      guint k = MIN ((guint) gc->kind, TM_GC_N_KINDS - 1);

      out->start_ns = MIN (out->start_ns, gc->start_ns);
      out->end_ns = MAX (out->end_ns, gc->end_ns);
      if (pause_known (gc))
        {
          all[n_all++] = gc->pause_ns;
          kind_pauses[(gsize) k * n + n_kind[k]++] = gc->pause_ns;
        }
      if (gc->kind == TM_GC_KIND_MAJOR)
        {
          double x = (double) gc->end_ns / 1e9, y = (double) gc->used_after;
          out->full_gcs++;
          out->full_gc_ns += gc->pause_ns;
          out->after_full_min = out->n_after_full ? MIN (out->after_full_min, gc->used_after) : gc->used_after;
          out->after_full_max = MAX (out->after_full_max, gc->used_after);
          out->after_full_last = gc->used_after;
          out->n_after_full++;
          sx += x;
          sy += y;
        }
      if (gc->used_before > gc->used_after)
        out->freed_bytes += gc->used_before - gc->used_after;
      out->footprint_bytes = MAX (out->footprint_bytes, gc->committed_after);
      out->peak_used_bytes = MAX (out->peak_used_bytes, gc->used_before);
      if (id > first_gc)
        {
          const TmGc *prev = tm_trace_gc (t, id - 1);
          if (gc->used_before > prev->used_after)
            out->allocated_bytes += gc->used_before - prev->used_after;
        }
      if (gc->kind == TM_GC_KIND_MINOR || gc->kind == TM_GC_KIND_MIXED)
        {
          guint64 young[2];
          gboolean has_old;
          if (generations (t, gc, young, &has_old))
            {
              /* what left the young generation but not the heap */
              out->has_promotion = TRUE;
              promoted += ((gint64) young[0] - (gint64) young[1]) - ((gint64) gc->used_before - (gint64) gc->used_after);
            }
        }
    }

  /* heaptrack: every malloc and free is known, while occupancy shows only
   * the drop from each interval's peak (13.5 MiB allocated read as 1.45) */
  if (tm_trace_sees_frees (t))
    {
      guint len = tm_trace_n_gcs (t);
      g_autofree guint64 *freed = g_new (guint64, MAX (len, 1));
      g_autofree guint64 *allocated = g_new (guint64, MAX (len, 1));

      tm_native_bytes_per_interval (t, freed, allocated);
      out->freed_bytes = out->allocated_bytes = 0;
      for (guint id = first_gc; id <= last_gc; id++)
        {
          out->freed_bytes = tm_add_sat (out->freed_bytes, freed[id - 1]);
          if (id > first_gc)
            out->allocated_bytes = tm_add_sat (out->allocated_bytes, allocated[id - 1]);
        }
    }

  pause_stats (all, n_all, &out->pauses);
  for (guint k = 0; k < TM_GC_N_KINDS; k++)
    pause_stats (kind_pauses + (gsize) k * n, n_kind[k], &out->by_kind[k]);

  {
    guint64 span = out->end_ns - out->start_ns;
    guint64 paused = out->pauses.total_ns;
    /* pauses in no time at all: a log without time stamps */
    out->throughput = span > 0 ? 1.0 - MIN (1.0, (double) paused / (double) span) : (paused > 0 ? NAN : 1.0);
  }
  {
    guint64 span = out->end_ns - tm_trace_gc (t, first_gc)->end_ns;
    out->allocation_rate = per_second (out->allocated_bytes, span);
    if (out->has_promotion)
      {
        out->promoted_bytes = promoted > 0 ? (guint64) promoted : 0;
        out->promotion_rate = per_second (out->promoted_bytes, span);
      }
  }
  if (out->n_after_full >= 2)
    {
      /* about the means, so that large times lose no precision */
      double mx = sx / out->n_after_full, my = sy / out->n_after_full, sxx = 0, sxy = 0;
      for (guint id = first_gc; id <= last_gc; id++)
        {
          const TmGc *gc = tm_trace_gc (t, id);
          if (gc->kind != TM_GC_KIND_MAJOR)
            continue;
          sxx += ((double) gc->end_ns / 1e9 - mx) * ((double) gc->end_ns / 1e9 - mx);
          sxy += ((double) gc->end_ns / 1e9 - mx) * ((double) gc->used_after - my);
        }
      if (sxx > 0)
        out->after_full_slope = sxy / sxx;
    }
  return TRUE;
}
