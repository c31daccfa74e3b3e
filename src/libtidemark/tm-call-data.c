/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The call-stack views' data of one input, on a worker (tm-call-data.h).
 */
#include "tm-config.h"

#include <string.h>

#include "tm-call-data.h"
#include "tm-calltree-trace.h"

void
tm_trace_size_histogram (const TmTrace *trace, TmSizeBucket *sizes)
{
  memset (sizes, 0, sizeof (TmSizeBucket) * TM_SIZE_HISTOGRAM_BUCKETS);
  for (guint b = 0; b < TM_SIZE_HISTOGRAM_BUCKETS; b++)
    sizes[b].max_size = b + 1 < TM_SIZE_HISTOGRAM_BUCKETS ? G_GUINT64_CONSTANT (8) << b : G_MAXUINT64;
  for (guint64 i = 0; i < trace->n_objects; i++)
    {
      guint64 size = tm_trace_object_size (trace, i);
      guint b = 0;
      while (b + 1 < TM_SIZE_HISTOGRAM_BUCKETS && size > sizes[b].max_size)
        b++;
      sizes[b].allocations++;
      sizes[b].bytes += size;
    }
  for (guint64 e = 0; e < trace->short_lived->len; e++)
    {
      const TmShortLived *sl = &g_array_index (trace->short_lived, TmShortLived, e);
      sizes[sl->size_class].allocations += sl->count;
      sizes[sl->size_class].bytes += sl->bytes;
    }
}

static void
summary_from_trace (TmCallData *d)
{
  const TmTrace *t = d->trace;
  const TmCost *total = tm_call_profile_total (d->calls);
  TmHeaptrackSummary *s = &d->summary;

  s->command_line = t->command_line;
  s->total_time_ms = t->duration_ns / 1000000;
  s->allocations = t->total_allocs;
  s->allocated_bytes = t->total_alloc_bytes;
  s->temporary = (guint64) MAX (total->v[TM_COST_TEMPORARY], 0);
  s->leaked_bytes = (guint64) MAX (total->v[TM_COST_LEAKED], 0);
  s->peak_bytes = t->peak_used_bytes;
  for (guint g = 1; g <= tm_trace_n_gcs (t); g++)
    if (tm_trace_gc (t, g)->used_before == t->peak_used_bytes)
      {
        s->peak_time_ms = tm_trace_gc (t, g)->start_ns / 1000000;
        break;
      }
  s->complete = t->complete;
  /* a window: its own allocations, span and live bytes at its end */
  if (d->to_gc != 0)
    {
      const TmGc *first = tm_trace_gc (t, MAX (d->from_gc, 1)), *last = tm_trace_gc (t, d->to_gc);
      s->allocations = (guint64) MAX (total->v[TM_COST_ALLOCATIONS], 0);
      s->allocated_bytes = (guint64) MAX (total->v[TM_COST_ALLOCATED], 0);
      s->peak_bytes = (guint64) MAX (total->v[TM_COST_PEAK], 0);
      s->peak_time_ms = last->end_ns / 1000000;
      s->total_time_ms = (last->end_ns - MIN (first->start_ns, last->end_ns)) / 1000000;
    }
}

TmCallData *
tm_call_data_load (TmTrace *trace, guint from_gc, guint to_gc, GCancellable *cancellable, GError **error)
{
  g_autoptr(TmCallData) d = g_new0 (TmCallData, 1);
  guint n = tm_trace_n_gcs (trace);

  g_return_val_if_fail (trace != NULL, NULL);
  d->ref_count = 1;
  d->trace = tm_trace_ref (trace);
  d->from_gc = from_gc <= n ? from_gc : 0;
  d->to_gc = to_gc <= n ? to_gc : 0;
  if (g_strcmp0 (trace->format, "heaptrack") == 0 && trace->path != NULL)
    {
      guint64 from_ms = d->from_gc ? tm_trace_gc (trace, d->from_gc)->start_ns / 1000000 : 0;
      guint64 to_ms = d->to_gc ? tm_trace_gc (trace, d->to_gc)->end_ns / 1000000 : G_MAXUINT64;

      d->heaptrack = tm_heaptrack_profile_read_range (trace->path, from_ms, to_ms, NULL, NULL, cancellable, error);
      if (d->heaptrack == NULL)
        return NULL;
      d->native = TRUE;
      d->calls = tm_call_profile_ref (tm_heaptrack_profile_calls (d->heaptrack));
      d->summary = *tm_heaptrack_profile_summary (d->heaptrack);
      memcpy (d->sizes, tm_heaptrack_profile_sizes (d->heaptrack), sizeof d->sizes);
      return g_steal_pointer (&d);
    }
  d->calls = tm_call_profile_from_trace_window (trace, d->from_gc, d->to_gc);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  summary_from_trace (d);
  tm_trace_size_histogram (trace, d->sizes);
  return g_steal_pointer (&d);
}

TmCallData *
tm_call_data_ref (TmCallData *data)
{
  g_atomic_int_inc (&data->ref_count);
  return data;
}

void
tm_call_data_unref (TmCallData *data)
{
  if (data == NULL || !g_atomic_int_dec_and_test (&data->ref_count))
    return;
  tm_call_profile_unref (data->calls);
  tm_heaptrack_profile_free (data->heaptrack);
  if (data->trace)
    tm_trace_unref (data->trace);
  g_free (data);
}
