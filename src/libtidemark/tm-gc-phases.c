/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-gc-phases.h"

#include <glib/gi18n-lib.h>
#include <string.h>

const char *
tm_gc_phase_kind_title (TmGcPhaseKind kind)
{
  switch (kind)
    {
    case TM_GC_PHASE_CYCLE:       return _("Concurrent cycles");
    case TM_GC_PHASE_CONCURRENT:  return _("Concurrent phases");
    case TM_GC_PHASE_PAUSE:       return _("Pauses of concurrent cycles");
    case TM_GC_PHASE_DEGENERATED: return _("Degenerated GCs");
    case TM_GC_PHASE_FULL:        return _("Full GCs of a concurrent collector");
    case TM_GC_PHASE_STALL:       return _("Stalls (threads waiting for memory)");
    case TM_GC_PHASE_N_KINDS:
    default:                      return "";
    }
}

/* First phase that starts at or after t. */
static guint
lower_bound (const GArray *phases, guint64 t)
{
  guint lo = 0, hi = phases->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (phases, TmGcPhase, mid).start_ns < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
tm_gc_phase_summary_compute (const TmTrace *t, guint first_gc, guint last_gc, TmGcPhaseSummary *out)
{
  guint n = tm_trace_n_gcs (t);

  memset (out, 0, sizeof *out);
  out->totals = g_array_new (FALSE, TRUE, sizeof (TmGcPhaseTotal));
  out->start_ns = 0;
  out->end_ns = G_MAXUINT64;
  if (n > 0 && first_gc > 1 && first_gc <= n)
    out->start_ns = tm_trace_gc (t, first_gc)->start_ns;
  if (n > 0 && last_gc >= 1 && last_gc < n)
    out->end_ns = tm_trace_gc (t, last_gc)->end_ns;
  out->first_phase = lower_bound (t->gc_phases, out->start_ns);
  out->last_phase = out->end_ns == G_MAXUINT64 ? t->gc_phases->len : lower_bound (t->gc_phases, out->end_ns + 1);
  out->last_phase = MAX (out->last_phase, out->first_phase);

  for (guint i = out->first_phase; i < out->last_phase; i++)
    {
      const TmGcPhase *ph = &g_array_index (t->gc_phases, TmGcPhase, i);
      guint64 d = ph->end_ns - ph->start_ns;
      TmGcPhaseTotal *tot = NULL;

      /* few distinct names: a linear search; names are pooled, so pointers compare */
      for (guint k = 0; k < out->totals->len && tot == NULL; k++)
        {
          TmGcPhaseTotal *x = &g_array_index (out->totals, TmGcPhaseTotal, k);
          if (x->name == ph->name && x->kind == ph->kind && x->depth == ph->depth)
            tot = x;
        }
      if (tot == NULL)
        {
          TmGcPhaseTotal fresh = { ph->kind, ph->name, ph->depth, 0, 0, 0 };
          g_array_append_val (out->totals, fresh);
          tot = &g_array_index (out->totals, TmGcPhaseTotal, out->totals->len - 1);
        }
      tot->count++;
      tot->total_ns += d;
      tot->max_ns = MAX (tot->max_ns, d);
      /* sub-phases are inside phases already counted */
      if (ph->depth == 0)
        {
          out->n_per_kind[ph->kind]++;
          out->ns_per_kind[ph->kind] += d;
        }
    }
  /* by kind, keeping the order of first occurrence (insertion sort: stable) */
  for (guint i = 1; i < out->totals->len; i++)
    {
      TmGcPhaseTotal x = g_array_index (out->totals, TmGcPhaseTotal, i);
      guint j = i;
      while (j > 0 && g_array_index (out->totals, TmGcPhaseTotal, j - 1).kind > x.kind)
        {
          g_array_index (out->totals, TmGcPhaseTotal, j) = g_array_index (out->totals, TmGcPhaseTotal, j - 1);
          j--;
        }
      g_array_index (out->totals, TmGcPhaseTotal, j) = x;
    }
}

void
tm_gc_phase_summary_clear (TmGcPhaseSummary *s)
{
  g_clear_pointer (&s->totals, g_array_unref);
}
