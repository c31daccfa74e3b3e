/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-timeline-model.h"
#include "tm-downsample.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Stacking order, bottom to top: long-lived memory at the bottom, so the
 * sawtooth of the young generation rides on top of it. */
static int
space_rank (TmSpaceKind kind)
{
  switch (kind)
    {
    case TM_SPACE_KIND_OLD:       return 0;
    case TM_SPACE_KIND_HUMONGOUS: return 1;
    case TM_SPACE_KIND_OTHER:     return 2;
    case TM_SPACE_KIND_SURVIVOR:  return 3;
    case TM_SPACE_KIND_YOUNG:     return 4;
    case TM_SPACE_KIND_NON_HEAP:
    default:                      return 5;
    }
}

typedef struct {
  guint32 space;
  int     rank;
} SpaceSlot;

static int
compare_slots (gconstpointer a, gconstpointer b)
{
  const SpaceSlot *sa = a, *sb = b;

  if (sa->rank != sb->rank)
    return sa->rank - sb->rank;
  return (int) sa->space - (int) sb->space;
}

/* Allocations and temporary allocations per interval, and their rates:
 * an interval runs from one GC's start to the next one's (the counters
 * are taken at GC_START); at least 1 ms, the resolution of heaptrack's
 * time stamps, so a burst in a short interval does not spike. */
static void
allocation_rates (TmTimelineModel *m, const TmTrace *trace)
{
  guint64 prev_allocs = 0, prev_temp = 0;
  double prev_t = 0;

  for (guint i = 0; i < m->n_gcs; i++)
    {
      const TmGc *gc = tm_trace_gc (trace, i + 1);
      double dt = MAX (m->start_ns[i] - prev_t, 1e6);

      m->allocations[i] = (double) (gc->allocations_before - MIN (prev_allocs, gc->allocations_before));
      m->temporary[i] = (double) (gc->temporary_before - MIN (prev_temp, gc->temporary_before));
      m->rate_x[2 * i] = prev_t;
      m->rate_x[2 * i + 1] = m->start_ns[i];
      m->alloc_rate[2 * i] = m->alloc_rate[2 * i + 1] = m->allocations[i] / (dt / 1e9);
      m->temp_rate[2 * i] = m->temp_rate[2 * i + 1] = m->temporary[i] / (dt / 1e9);
      m->max_alloc_rate = MAX (m->max_alloc_rate, m->alloc_rate[2 * i]);
      m->total_allocations += (guint64) m->allocations[i];
      m->total_temporary += (guint64) m->temporary[i];
      prev_allocs = MAX (prev_allocs, gc->allocations_before);
      prev_temp = MAX (prev_temp, gc->temporary_before);
      prev_t = m->start_ns[i];
    }
}

TmTimelineModel *
tm_timeline_model_new (const TmTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return tm_timeline_model_new_prefix (trace, tm_trace_n_gcs (trace));
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

TmTimelineModel *
tm_timeline_model_new_prefix (const TmTrace *trace, guint n_gcs)
{
  TmTimelineModel *m;
  gboolean prefix;
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (SpaceSlot));
  g_autofree int *slot_of_space = NULL;
  guint n, n_space_table;
  double prev_end = 0;

  g_return_val_if_fail (trace != NULL, NULL);

  n = MIN (n_gcs, tm_trace_n_gcs (trace));
  prefix = n < tm_trace_n_gcs (trace);
  n_space_table = trace->spaces ? trace->spaces->len : 0;

  m = g_new0 (TmTimelineModel, 1);
  m->ref_count = 1;
  m->n_gcs = n;
  /* a prefix ends with its last GC: what follows is not read yet */
  m->duration_ns = prefix ? 0 : trace->duration_ns;

  /* Which heap spaces appear in the usage records. */
  slot_of_space = g_new (int, MAX (n_space_table, 1));
  for (guint s = 0; s < n_space_table; s++)
    slot_of_space[s] = -1;
  for (guint k = 0; trace->space_usage && k < trace->space_usage->len; k++)
    {
      const TmSpaceUsage *u = &g_array_index (trace->space_usage, TmSpaceUsage, k);
      TmSpaceKind kind;

      if (u->space >= n_space_table || slot_of_space[u->space] != -1)
        continue;
      kind = tm_trace_space (trace, u->space)->kind;
      slot_of_space[u->space] = -2;   /* seen */
      if (kind == TM_SPACE_KIND_NON_HEAP)
        continue;
      g_array_append_val (slots, ((SpaceSlot) { u->space, space_rank (kind) }));
    }
  g_array_sort (slots, compare_slots);

  if (slots->len == 0)
    {
      m->n_spaces = 1;
      m->space_names[0] = g_strdup (_("Heap"));
      m->space_kinds[0] = TM_SPACE_KIND_OTHER;
    }
  else
    {
      m->n_spaces = MIN (slots->len, TM_TIMELINE_MAX_SPACES);
      for (guint i = 0; i < slots->len; i++)
        {
          const SpaceSlot *slot = &g_array_index (slots, SpaceSlot, i);
          guint layer = MIN (i, TM_TIMELINE_MAX_SPACES - 1);
          const TmSpace *space = tm_trace_space (trace, slot->space);

          slot_of_space[slot->space] = (int) layer;
          if (i < TM_TIMELINE_MAX_SPACES)
            {
              m->space_names[layer] = g_strdup (space->name && *space->name ? space->name : _("Unnamed space"));
              m->space_kinds[layer] = space->kind;
            }
          else if (i == TM_TIMELINE_MAX_SPACES)
            {
              g_free (m->space_names[layer]);
              m->space_names[layer] = g_strdup (_("Other spaces"));
              m->space_kinds[layer] = TM_SPACE_KIND_OTHER;
            }
        }
    }

  m->start_ns = g_new0 (double, MAX (n, 1));
  m->end_ns = g_new0 (double, MAX (n, 1));
  m->pause_ns = g_new0 (double, MAX (n, 1));
  m->kind = g_new0 (guint8, MAX (n, 1));
  m->used_before = g_new0 (double, MAX (n, 1));
  m->used_after = g_new0 (double, MAX (n, 1));
  m->space_before = g_new0 (double, (gsize) MAX (n, 1) * m->n_spaces);
  m->space_after = g_new0 (double, (gsize) MAX (n, 1) * m->n_spaces);
  m->n_oom = tm_trace_n_oom_events (trace);
  m->oom_ns = g_new0 (double, MAX (m->n_oom, 1));
  for (guint i = 0; i < m->n_oom; i++)
    m->oom_ns[i] = (double) tm_trace_oom_event (trace, i)->time_ns;
  /* a trace being read has them in file order (a late OOM record) */
  qsort (m->oom_ns, m->n_oom, sizeof (double), compare_doubles);
  m->reachable = g_new0 (double, MAX (n, 1));
  m->committed = g_new0 (double, MAX (n, 1));
  m->live_objects = g_new0 (double, MAX (n, 1));
  m->overhead = g_new0 (double, MAX (n, 1));
  m->allocations = g_new0 (double, MAX (n, 1));
  m->temporary = g_new0 (double, MAX (n, 1));
  m->rate_x = g_new0 (double, 2 * (gsize) MAX (n, 1));
  m->alloc_rate = g_new0 (double, 2 * (gsize) MAX (n, 1));
  m->temp_rate = g_new0 (double, 2 * (gsize) MAX (n, 1));
  m->saw_x = g_new0 (double, 2 * (gsize) MAX (n, 1));
  m->layer_top = g_new0 (double, 2 * (gsize) MAX (n, 1) * m->n_spaces);

  for (guint i = 0; i < n; i++)
    {
      const TmGc *gc = tm_trace_gc (trace, i + 1);
      double start = gc->start_ns, end = MAX (gc->end_ns, gc->start_ns);
      double interval;

      m->start_ns[i] = start;
      m->end_ns[i] = end;
      m->pause_ns[i] = gc->pause_ns;
      m->kind[i] = gc->kind;
      m->used_before[i] = gc->used_before;
      m->used_after[i] = gc->used_after;
      m->reachable[i] = gc->has_graph ? (double) gc->reachable_bytes : NAN;
      m->committed[i] = gc->committed_after > 0 ? (double) gc->committed_after : NAN;
      m->n_committed += gc->committed_after > 0;
      m->live_objects[i] = gc->live_objects;
      m->total_pause_ns += gc->pause_ns;
      if (gc->has_graph)
        m->n_graphs++;

      interval = end - prev_end;
      m->overhead[i] = interval > 0 ? MIN (gc->pause_ns / interval, 1.0) : 0;
      prev_end = end;

      if (slots->len == 0 || gc->usage_count == 0)
        {
          m->space_before[i] = gc->used_before;
          m->space_after[i] = gc->used_after;
        }
      else
        {
          for (guint k = gc->usage_first;
               k < (guint64) gc->usage_first + gc->usage_count && k < trace->space_usage->len; k++)
            {
              const TmSpaceUsage *u = &g_array_index (trace->space_usage, TmSpaceUsage, k);
              int layer = u->space < n_space_table ? slot_of_space[u->space] : -1;

              if (layer < 0)
                continue;
              m->space_before[(gsize) layer * n + i] += u->used_before;
              m->space_after[(gsize) layer * n + i] += u->used_after;
            }
        }

      m->saw_x[2 * i] = start;
      m->saw_x[2 * i + 1] = end;
      {
        double before = 0, after = 0;
        for (guint s = 0; s < m->n_spaces; s++)
          {
            before += m->space_before[(gsize) s * n + i];
            after += m->space_after[(gsize) s * n + i];
            m->layer_top[(gsize) s * 2 * n + 2 * i] = before;
            m->layer_top[(gsize) s * 2 * n + 2 * i + 1] = after;
          }
        m->max_memory = MAX (m->max_memory, MAX (before, after));
      }
      m->max_memory = MAX (m->max_memory, MAX (gc->used_before, gc->used_after));
      if (gc->has_graph)
        m->max_memory = MAX (m->max_memory, (double) gc->reachable_bytes);
      m->max_memory = MAX (m->max_memory, (double) gc->committed_after);
      m->max_objects = MAX (m->max_objects, (double) gc->live_objects);
      m->max_overhead = MAX (m->max_overhead, m->overhead[i]);
    }

  if (n > 0)
    m->duration_ns = MAX ((double) m->duration_ns, m->end_ns[n - 1]);
  allocation_rates (m, trace);

  m->time_points = g_strcmp0 (trace->format, "heaptrack") == 0;
  tm_timeline_model_init_phases (m, trace);
  return m;
}

TmTimelineModel *
tm_timeline_model_ref (TmTimelineModel *model)
{
  g_return_val_if_fail (model != NULL, NULL);
  g_atomic_int_inc (&model->ref_count);
  return model;
}

void
tm_timeline_model_unref (TmTimelineModel *model)
{
  if (model == NULL || !g_atomic_int_dec_and_test (&model->ref_count))
    return;
  for (guint s = 0; s < TM_TIMELINE_MAX_SPACES; s++)
    g_free (model->space_names[s]);
  g_free (model->start_ns);
  g_free (model->end_ns);
  g_free (model->pause_ns);
  g_free (model->kind);
  g_free (model->used_before);
  g_free (model->used_after);
  g_free (model->space_before);
  g_free (model->space_after);
  g_free (model->reachable);
  g_free (model->oom_ns);
  g_free (model->committed);
  g_free (model->live_objects);
  g_free (model->overhead);
  g_free (model->allocations);
  g_free (model->temporary);
  g_free (model->rate_x);
  g_free (model->alloc_rate);
  g_free (model->temp_rate);
  g_free (model->saw_x);
  g_free (model->layer_top);
  tm_timeline_model_clear_phases (model);
  g_free (model);
}

guint
tm_timeline_model_gc_at (const TmTimelineModel *model, double t)
{
  gsize i;

  g_return_val_if_fail (model != NULL, 0);

  if (model->n_gcs == 0)
    return 0;
  i = tm_downsample_lower_bound (model->start_ns, model->n_gcs, t);
  /* Candidates: the GC starting at/after t, and the one before it. */
  if (i == 0)
    return 1;
  if (i >= model->n_gcs)
    return model->n_gcs;
  if (t <= model->end_ns[i - 1])
    return i;
  return (t - model->end_ns[i - 1] <= model->start_ns[i] - t) ? i : i + 1;
}

void
tm_timeline_model_gc_range (const TmTimelineModel *model,
                            double t0, double t1,
                            guint *first_gc, guint *last_gc)
{
  gsize a, b;

  g_return_if_fail (model != NULL && first_gc != NULL && last_gc != NULL);

  /* First GC that ends at or after t0; last GC that starts at or before t1. */
  a = tm_downsample_lower_bound (model->end_ns, model->n_gcs, t0);
  b = tm_downsample_lower_bound (model->start_ns, model->n_gcs, t1);
  while (b < model->n_gcs && model->start_ns[b] <= t1)
    b++;
  *first_gc = (guint) a + 1;
  *last_gc = (guint) b;
}

void
tm_timeline_model_pause_marks (const TmTimelineModel *model,
                               double t0, double t1,
                               guint n_buckets,
                               double *out_pause_ns,
                               gboolean *out_major)
{
  gsize i;
  double width;

  g_return_if_fail (model != NULL && out_pause_ns != NULL && out_major != NULL);

  memset (out_pause_ns, 0, sizeof (double) * n_buckets);
  memset (out_major, 0, sizeof (gboolean) * n_buckets);
  if (n_buckets == 0 || !(t1 > t0))
    return;
  width = (t1 - t0) / n_buckets;

  for (i = tm_downsample_lower_bound (model->start_ns, model->n_gcs, t0);
       i < model->n_gcs && model->start_ns[i] <= t1; i++)
    {
      guint b = (guint) MIN ((model->start_ns[i] - t0) / width, (double) (n_buckets - 1));

      out_pause_ns[b] = MAX (out_pause_ns[b], MAX (model->pause_ns[i], 1.0));
      if (model->kind[i] == TM_GC_KIND_MAJOR)
        out_major[b] = TRUE;
    }
}

gboolean
tm_timeline_model_range_stats (const TmTimelineModel *model,
                               guint first_gc, guint last_gc,
                               TmRangeStats *st)
{
  g_return_val_if_fail (model != NULL && st != NULL, FALSE);

  memset (st, 0, sizeof *st);
  if (first_gc < 1 || last_gc > model->n_gcs || first_gc > last_gc)
    return FALSE;

  st->first_gc = first_gc;
  st->last_gc = last_gc;
  st->n_gcs = last_gc - first_gc + 1;
  st->start_ns = model->start_ns[first_gc - 1];
  st->end_ns = model->end_ns[last_gc - 1];
  st->used_after_first = model->used_after[first_gc - 1];
  st->used_after_last = model->used_after[last_gc - 1];
  st->live_objects_first = model->live_objects[first_gc - 1];
  st->live_objects_last = model->live_objects[last_gc - 1];
  st->reachable_first = NAN;
  st->reachable_last = NAN;

  for (guint i = first_gc - 1; i < last_gc; i++)
    {
      st->pause_ns += model->pause_ns[i];
      st->freed_bytes += MAX (0.0, model->used_before[i] - model->used_after[i]);
      if (model->kind[i] == TM_GC_KIND_MAJOR)
        st->n_major++;
      if (!isnan (model->reachable[i]))
        {
          if (isnan (st->reachable_first))
            {
              st->reachable_first = model->reachable[i];
              st->reachable_first_gc = i + 1;
            }
          st->reachable_last = model->reachable[i];
          st->reachable_last_gc = i + 1;
        }
    }
  if (st->end_ns > st->start_ns)
    st->overhead = st->pause_ns / (st->end_ns - st->start_ns);
  return TRUE;
}
