/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Call profiles of recorded traces: the allocation sites' call stacks
 * (as deep as the agent recorded them) with what their objects cost.
 */
#include "tm-config.h"

#include "tm-calltree-trace.h"

TmCallProfile *
tm_call_profile_from_trace (const TmTrace *trace)
{
  return tm_call_profile_from_trace_window (trace, 0, 0);
}

TmCallProfile *
tm_call_profile_from_trace_window (const TmTrace *trace, guint32 from_gc, guint32 to_gc)
{
  TmCallProfile *profile;
  g_autofree TmCost *per_site = NULL;
  g_autofree guint32 *symbol_of_frame = NULL;
  g_autofree TmCallFrame *frames = NULL;
  guint32 peak_gc = 0;
  guint64 peak_live = 0, first, last;
  guint max_depth = 0;

  g_return_val_if_fail (trace != NULL, NULL);

  /* "peak": what was live after the GC that kept the most */
  for (guint g = 1; g <= tm_trace_n_gcs (trace); g++)
    if (tm_trace_gc (trace, g)->live_bytes > peak_live)
      {
        peak_live = tm_trace_gc (trace, g)->live_bytes;
        peak_gc = g;
      }

  /* or after the window's last GC */
  if (to_gc > tm_trace_n_gcs (trace))
    to_gc = 0;
  if (to_gc != 0)
    peak_gc = to_gc;
  first = from_gc >= 1 && from_gc <= tm_trace_n_gcs (trace) ? tm_trace_allocs_before_gc (trace, from_gc) : 0;
  last = to_gc != 0 ? tm_trace_allocs_before_gc (trace, to_gc) : trace->n_objects;
  per_site = g_new0 (TmCost, trace->sites->len);
  for (guint64 i = 0; i < trace->n_objects; i++)
    {
      TmCost *c = &per_site[trace->obj_site[i]];
      gint64 size = (gint64) tm_trace_object_size (trace, i);
      guint32 death = trace->obj_death[i];

      if (peak_gc != 0 && tm_trace_object_alive_after (trace, i, peak_gc))
        c->v[TM_COST_PEAK] += size;
      /* the other costs: objects born in the window */
      if (i < first || i >= last)
        continue;
      c->v[TM_COST_ALLOCATIONS]++;
      c->v[TM_COST_ALLOCATED] += size;
      if (to_gc != 0 ? tm_trace_object_alive_after (trace, i, to_gc) : death == TM_ALIVE)
        c->v[TM_COST_LEAKED] += size;
      /* died in the first GC after its birth */
      else if (death == tm_trace_object_birth_gc (trace, i) + 1)
        c->v[TM_COST_TEMPORARY]++;
    }
  /* short-lived objects (no rows): born in intervals from_gc .. to_gc - 1
   * (or all), died in their first GC: temporary, never live at a GC */
  for (guint32 b = from_gc >= 1 && from_gc <= tm_trace_n_gcs (trace) ? from_gc : 0;
       b < (to_gc != 0 ? to_gc : tm_trace_n_gcs (trace) + 1); b++)
    {
      gsize n_sl;
      const TmShortLived *sl = tm_trace_short_lived (trace, b, &n_sl);

      for (gsize k = 0; k < n_sl; k++)
        {
          TmCost *c = &per_site[sl[k].site];
          c->v[TM_COST_ALLOCATIONS] += sl[k].count;
          c->v[TM_COST_ALLOCATED] += (gint64) sl[k].bytes;
          c->v[TM_COST_TEMPORARY] += sl[k].count;
        }
    }

  profile = tm_call_profile_new ();
  symbol_of_frame = g_new0 (guint32, trace->frames->len);
  for (guint f = 1; f < trace->frames->len; f++)
    {
      const TmFrame *fr = tm_trace_frame (trace, f);
      symbol_of_frame[f] = tm_call_profile_symbol (profile, fr->method, "", TRUE);
    }
  for (guint s = 0; s < trace->sites->len; s++)
    max_depth = MAX (max_depth, tm_trace_site (trace, s)->depth);
  frames = g_new (TmCallFrame, max_depth + 1);
  for (guint s = 0; s < trace->sites->len; s++)
    {
      const TmSite *site = tm_trace_site (trace, s);
      guint depth = 0;

      /* sites with nothing in the window (nor live at its end) */
      if (per_site[s].v[TM_COST_ALLOCATIONS] == 0 && per_site[s].v[TM_COST_PEAK] == 0)
        continue;
      for (guint k = 0; k < site->depth; k++)
        {
          guint32 f = site->frames[k];
          const TmFrame *fr;
          if (f == 0 || f >= trace->frames->len)
            continue;
          fr = tm_trace_frame (trace, f);
          frames[depth].symbol = symbol_of_frame[f];
          frames[depth].file = fr->file;
          frames[depth].line = fr->line;
          depth++;
        }
      tm_call_profile_add_stack (profile, frames, depth, &per_site[s]);
    }
  return profile;
}
