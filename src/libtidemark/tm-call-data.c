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
}

TmCallData *
tm_call_data_load (TmTrace *trace, GCancellable *cancellable, GError **error)
{
  g_autoptr(TmCallData) d = g_new0 (TmCallData, 1);

  g_return_val_if_fail (trace != NULL, NULL);
  d->ref_count = 1;
  d->trace = tm_trace_ref (trace);
  if (g_strcmp0 (trace->format, "heaptrack") == 0 && trace->path != NULL)
    {
      d->heaptrack = tm_heaptrack_profile_read (trace->path, NULL, NULL, cancellable, error);
      if (d->heaptrack == NULL)
        return NULL;
      d->native = TRUE;
      d->calls = tm_call_profile_ref (tm_heaptrack_profile_calls (d->heaptrack));
      d->summary = *tm_heaptrack_profile_summary (d->heaptrack);
      memcpy (d->sizes, tm_heaptrack_profile_sizes (d->heaptrack), sizeof d->sizes);
      return g_steal_pointer (&d);
    }
  d->calls = tm_call_profile_from_trace (trace);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  summary_from_trace (d);
  tm_trace_size_histogram (trace, d->sizes);
  return g_steal_pointer (&d);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  TmCallData *d = tm_call_data_load (task_data, cancellable, &error);

  if (d == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, d, (GDestroyNotify) tm_call_data_unref);
}

void
tm_call_data_load_async (TmTrace *trace, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, tm_call_data_load_async);
  g_task_set_task_data (task, tm_trace_ref (trace), (GDestroyNotify) tm_trace_unref);
  g_task_run_in_thread (task, load_thread);
}

TmCallData *
tm_call_data_load_finish (GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
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
