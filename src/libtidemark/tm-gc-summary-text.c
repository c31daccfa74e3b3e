/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GC summary in words (the numbers are computed by
 * tm_gc_summary_compute; this only words them), shared by the app's
 * Selection page and the HTML report. */
#include "tm-config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tm-gc-summary-text.h"
#include "tm-gc-phases.h"
#include "tm-gc-summary.h"
#include "tm-format-util.h"

static char *
pause_line (const TmPauseStats *p)
{
  g_autofree char *total = tm_format_duration ((double) p->total_ns);
  g_autofree char *max = tm_format_duration ((double) p->max_ns);
  g_autofree char *p50 = tm_format_duration ((double) p->p50_ns);
  g_autofree char *p90 = tm_format_duration ((double) p->p90_ns);
  g_autofree char *p99 = tm_format_duration ((double) p->p99_ns);
  g_autofree char *p999 = tm_format_duration ((double) p->p999_ns);

  /* Translators: pause statistics, "12 · 140 ms · p50 8 ms · p90 ... · max 30 ms" */
  return g_strdup_printf (_("%u · total %s · p50 %s · p90 %s · p99 %s · p99.9 %s · max %s"),
                          p->count, total, p50, p90, p99, p999, max);
}

static char *
amount_rate (guint64 bytes, double per_s)
{
  g_autofree char *b = tm_format_bytes ((double) bytes);
  g_autofree char *r = NULL;

  if (!isfinite (per_s))
    return g_steal_pointer (&b);
  r = tm_format_bytes (per_s);
  return g_strdup_printf (_("%s (%s/s)"), b, r);
}

static const char *
kind_label (TmGcKind kind)
{
  switch (kind)
    {
    case TM_GC_KIND_MINOR: return _("Young pauses");
    case TM_GC_KIND_MAJOR: return _("Full pauses");
    case TM_GC_KIND_MIXED: return _("Mixed pauses");
    case TM_GC_KIND_CONCURRENT: return _("Concurrent-cycle pauses");
    case TM_GC_KIND_UNKNOWN:
    default: return _("Other pauses");
    }
}

gboolean
tm_gc_summary_describe (const TmTrace *trace, guint first_gc, guint last_gc,
                        TmGcSummaryRowFunc add, gpointer data)
{
  TmGcSummary g;
  guint kinds = 0;

  if (trace == NULL || first_gc < 1 || last_gc < first_gc || last_gc > tm_trace_n_gcs (trace) ||
      !tm_gc_summary_compute (trace, first_gc, last_gc, &g, NULL))
    return FALSE;

  {
    g_autofree char *paused = tm_format_duration ((double) g.pauses.total_ns);
    g_autofree char *span = tm_format_duration ((double) (g.end_ns - g.start_ns));
    g_autofree char *text = g.pauses.count > 0
      ? g_strdup_printf (_("%.2f %% (paused %s of %s)"), g.throughput * 100, paused, span)
      : g_strdup (_("pauses not logged"));
    add (data, _("Throughput"), text);
  }
  for (guint k = 0; k < TM_GC_N_KINDS; k++)
    kinds += g.by_kind[k].count > 0;
  if (g.pauses.count > 0)
    {
      g_autofree char *all = pause_line (&g.pauses);
      add (data, _("Pauses"), all);
    }
  if (kinds > 1)
    for (guint k = 0; k < TM_GC_N_KINDS; k++)
      if (g.by_kind[k].count > 0)
        {
          g_autofree char *line = pause_line (&g.by_kind[k]);
          add (data, kind_label ((TmGcKind) k), line);
        }
  {
    g_autofree char *full = tm_format_duration ((double) g.full_gc_ns);
    g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u (%s)", "%u (%s)", g.full_gcs),
                                             g.full_gcs, full);
    add (data, _("Full GCs"), text);
  }
  {
    g_autofree char *alloc = amount_rate (g.allocated_bytes, g.allocation_rate);
    add (data, _("Allocated"), alloc);
  }
  {
    g_autofree char *promo = g.has_promotion ? amount_rate (g.promoted_bytes, g.promotion_rate)
                                             : g_strdup (_("not logged (no generation sizes)"));
    add (data, _("Promoted"), promo);
  }
  {
    g_autofree char *foot = tm_format_bytes ((double) g.footprint_bytes);
    g_autofree char *peak = tm_format_bytes ((double) g.peak_used_bytes);
    g_autofree char *text = g_strdup_printf (_("%s committed, peak use %s"), foot, peak);
    add (data, _("Footprint"), text);
  }
  if (g.n_after_full > 0)
    {
      g_autofree char *mn = tm_format_bytes ((double) g.after_full_min);
      g_autofree char *mx = tm_format_bytes ((double) g.after_full_max);
      g_autofree char *text = NULL;
      if (isfinite (g.after_full_slope))
        {
          g_autofree char *slope = tm_format_bytes (fabs (g.after_full_slope));
          text = g_strdup_printf (_("%s – %s, trend %s%s/s"), mn, mx, g.after_full_slope < 0 ? "−" : "+", slope);
        }
      else
        text = g_strdup_printf (_("%s – %s"), mn, mx);
      add (data, _("After full GCs"), text);
    }
  /* what ran beside the pauses (GC logs of concurrent collectors) */
  {
    TmGcPhaseSummary ps;
    tm_gc_phase_summary_compute (trace, first_gc, last_gc, &ps);
    for (guint k = 0; k < TM_GC_PHASE_N_KINDS; k++)
      {
        g_autofree char *total = NULL, *text = NULL;
        /* the single pauses are part of the pauses above */
        if (ps.n_per_kind[k] == 0 || k == TM_GC_PHASE_PAUSE)
          continue;
        total = tm_format_duration ((double) ps.ns_per_kind[k]);
        /* Translators: count of concurrent phases (or stalls) and their total time */
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u, %s in all", "%u, %s in all", ps.n_per_kind[k]),
                                ps.n_per_kind[k], total);
        add (data, tm_gc_phase_kind_title (k), text);
      }
    tm_gc_phase_summary_clear (&ps);
  }
  return TRUE;
}
