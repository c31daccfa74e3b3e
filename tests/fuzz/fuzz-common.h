/* SPDX-License-Identifier: GPL-3.0-or-later
 * What every reader's fuzz target checks of the model it got: ids in
 * range, GCs numbered, graphs readable and marked within bounds, the
 * short-lived counters well formed. */
#pragma once

#include "tidemark.h"

/* Budget of one fuzz input: small enough for -rss_limit_mb=2048. */
#define TM_FUZZ_MEMORY_LIMIT (G_GUINT64_CONSTANT (256) << 20)

static inline void
tm_fuzz_check_trace (TmTrace *trace)
{
  g_assert (trace->warnings->len <= trace->n_warnings_total);
  g_assert (!trace->stopped || !trace->complete);
  for (guint id = 1; id <= trace->gcs->len; id++)
    {
      const TmGc *gc = tm_trace_gc (trace, id);
      g_assert (gc->id == id);
      g_assert (gc->cause != NULL && gc->collector != NULL);
      g_assert (gc->allocs_before <= trace->n_objects);
      g_assert (gc->allocs_before <= gc->allocations_before && gc->allocations_before <= trace->total_allocs);
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
  g_assert (trace->short_lived_first->len == trace->gcs->len + 2);
  for (guint64 e = 0; e < trace->short_lived->len; e++)
    {
      const TmShortLived *sl = &g_array_index (trace->short_lived, TmShortLived, e);
      g_assert (sl->type < trace->types->len && sl->site < trace->sites->len && sl->thread < trace->threads->len);
      g_assert (sl->count > 0);
    }
}
