/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: any bytes through the trace reader, the model builder
 * and the graph reader.  Built with clang -fsanitize=fuzzer by
 * tests/fuzz/run-libfuzzer.sh, and with fuzz-replay.c as a plain test
 * that replays the seed corpus plus deterministic mutations. */
#include "tidemark.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) trace = tm_trace_load_bytes (bytes, "fuzz", NULL, &error);

  if (trace == NULL)
    {
      g_assert (error != NULL);
      return 0;
    }
  /* touch what the analyses touch */
  for (guint id = 1; id <= trace->gcs->len; id++)
    {
      const TmGc *gc = tm_trace_gc (trace, id);
      g_assert (gc->id == id);
      if (gc->has_graph)
        {
          g_autoptr(GError) gerr = NULL;
          TmHeapGraph *g = tm_heap_graph_read (trace, id, NULL, &gerr);
          if (g != NULL)
            {
              guint64 marked;
              g_free (tm_heap_graph_mark (g, &marked));
              g_assert (marked <= g->n_nodes);
              tm_heap_graph_free (g);
            }
        }
    }
  for (guint64 i = 0; i < trace->n_objects; i++)
    {
      g_assert (trace->obj_type[i] < trace->types->len);
      g_assert (trace->obj_site[i] < trace->sites->len);
      g_assert (trace->obj_thread[i] < trace->threads->len);
    }
  /* short-lived counters: valid keys, one range per birth interval */
  g_assert (trace->short_lived_first->len == tm_trace_n_gcs (trace) + 2);
  for (guint64 e = 0; e < trace->short_lived->len; e++)
    {
      const TmShortLived *sl = &g_array_index (trace->short_lived, TmShortLived, e);
      g_assert (sl->type < trace->types->len && sl->site < trace->sites->len && sl->thread < trace->threads->len);
      g_assert (sl->count > 0);
    }
  return 0;
}
