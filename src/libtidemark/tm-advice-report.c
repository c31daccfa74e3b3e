/* SPDX-License-Identifier: GPL-3.0-or-later
 * The advice of a range and the knowledge base's view of it (see the header). */
#include "tm-advice-report.h"

TmAdviceReport *
tm_advice_report_new (const TmTrace *trace, guint32 first_gc, guint32 last_gc,
                      const TmAdviceParams *params, const char *kb_path)
{
  TmAdviceReport *r = g_new0 (TmAdviceReport, 1);

  r->advice = tm_advise (trace, first_gc, last_gc, params);
  tm_gc_stats_compute (trace, first_gc, last_gc, &r->stats);
  if (kb_path != NULL)
    {
      g_autoptr(GError) error = NULL;

      r->kb = tm_kb_load (kb_path, &error);
      if (r->kb == NULL)
        r->kb_error = g_strdup (error->message);
    }
  if (r->kb != NULL && r->kb->entries->len > 0)
    {
      TmGcFeatures f;

      tm_gc_features_compute (trace, &f);
      r->n_near = tm_kb_nearest (r->kb, &f, TM_ADVICE_N_NEAREST, r->near);
      r->close = r->n_near > 0 && r->near[0].distance <= TM_KB_CLOSE_DISTANCE;
      /* suggestions only from workloads that really resemble it */
      for (guint g = 0; g < TM_N_GOALS; g++)
        r->has_suggestion[g] = r->close && tm_kb_suggest (r->kb, &f, TM_ADVICE_N_NEAREST, (TmGoal) g, &r->suggest[g]);
      r->live_bytes = tm_gc_live_estimate (trace);
      for (guint g = 0; g < TM_N_GOALS; g++)
        {
          g_autoptr(TmKbTree) tree = tm_kb_tree_build (r->kb, (TmGoal) g, TM_KB_TREE_DEPTH);
          if (tree == NULL)
            continue;
          tm_kb_tree_decide (tree, &f, &r->decision[g]);
          r->has_decision[g] = TRUE;
        }
    }
  return r;
}

void
tm_advice_report_free (TmAdviceReport *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->advice, g_ptr_array_unref);
  for (guint g = 0; g < TM_N_GOALS; g++)
    {
      tm_gc_config_clear (&r->suggest[g]);
      if (r->has_decision[g])
        tm_kb_decision_clear (&r->decision[g]);
    }
  g_clear_pointer (&r->kb, tm_kb_free);
  g_free (r->kb_error);
  g_free (r);
}
