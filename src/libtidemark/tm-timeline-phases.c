/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chart side of a GC log's concurrent work: phases and stalls for the
 * memory chart's lane, and one entry per stop-the-world pause for the
 * pause charts.  Pause collectors' pauses are their GCs; a ZGC or
 * Shenandoah GC is a whole cycle, whose single pauses are phases.
 */
#include "tm-config.h"
#include "tm-timeline-model.h"
#include "tm-downsample.h"

#include <glib/gi18n-lib.h>

const char *
tm_pause_class_label (TmPauseClass c)
{
  switch (c)
    {
    case TM_PAUSE_YOUNG:       return _("Young");
    case TM_PAUSE_MIXED:       return _("Mixed");
    case TM_PAUSE_CYCLE:       return _("Concurrent-cycle pause");
    case TM_PAUSE_FULL:        return _("Full");
    case TM_PAUSE_DEGENERATED: return _("Degenerated");
    case TM_PAUSE_OTHER:
    case TM_PAUSE_N_CLASSES:
    default:                   return _("Other");
    }
}

static TmPauseClass
class_of_gc (TmGcKind kind)
{
  switch (kind)
    {
    case TM_GC_KIND_MINOR:      return TM_PAUSE_YOUNG;
    case TM_GC_KIND_MIXED:      return TM_PAUSE_MIXED;
    case TM_GC_KIND_MAJOR:      return TM_PAUSE_FULL;
    case TM_GC_KIND_CONCURRENT: return TM_PAUSE_CYCLE;
    case TM_GC_KIND_UNKNOWN:
    default:                    return TM_PAUSE_OTHER;
    }
}

static TmPauseClass
class_of_phase (TmGcPhaseKind kind)
{
  switch (kind)
    {
    case TM_GC_PHASE_DEGENERATED: return TM_PAUSE_DEGENERATED;
    case TM_GC_PHASE_FULL:        return TM_PAUSE_FULL;
    case TM_GC_PHASE_PAUSE:
    default:                      return TM_PAUSE_CYCLE;
    }
}

static void
add_pause (TmTimelineModel *m, guint *cap, double at, double len, TmPauseClass c)
{
  if (m->n_pauses == *cap)
    {
      *cap = MAX (16, *cap * 2);
      m->pause_at = g_renew (double, m->pause_at, *cap);
      m->pause_len = g_renew (double, m->pause_len, *cap);
      m->pause_class = g_renew (guint8, m->pause_class, *cap);
    }
  m->pause_at[m->n_pauses] = at;
  m->pause_len[m->n_pauses] = len;
  m->pause_class[m->n_pauses] = c;
  m->n_pauses_of_class[c]++;
  m->n_pauses++;
}

static gint
compare_starts (gconstpointer a, gconstpointer b, gpointer data)
{
  const double *start = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (start[x] != start[y])
    return start[x] < start[y] ? -1 : 1;
  return x < y ? -1 : (x > y ? 1 : 0);
}

void
tm_timeline_model_init_phases (TmTimelineModel *m, const TmTrace *t)
{
  GArray *phases = t->gc_phases;
  guint n = phases ? phases->len : 0, cap = 0;
  gboolean single_pauses = FALSE;

  m->n_phases = n;
  m->phase_start = g_new (double, MAX (n, 1));
  m->phase_end = g_new (double, MAX (n, 1));
  m->phase_kind = g_new (guint8, MAX (n, 1));
  m->phase_depth = g_new (guint8, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const TmGcPhase *ph = &g_array_index (phases, TmGcPhase, i);
      m->phase_start[i] = (double) ph->start_ns;
      m->phase_end[i] = (double) ph->end_ns;
      m->phase_kind[i] = ph->kind;
      m->phase_depth[i] = (guint8) MIN (ph->depth, 255);
      m->max_phase_ns = MAX (m->max_phase_ns, m->phase_end[i] - m->phase_start[i]);
      m->n_phases_of_kind[ph->kind]++;
      single_pauses |= tm_gc_phase_kind_is_pause (ph->kind);
    }

  if (m->time_points)
    return;
  /* the single pauses where the log gives them, else the GCs' pause times */
  if (single_pauses)
    {
      for (guint i = 0; i < n; i++)
        if (tm_gc_phase_kind_is_pause (m->phase_kind[i]))
          add_pause (m, &cap, m->phase_start[i], m->phase_end[i] - m->phase_start[i],
                     class_of_phase (m->phase_kind[i]));
    }
  else
    {
      /* GCs are in completion order: put the pauses in start order */
      g_autofree guint *order = g_new (guint, MAX (m->n_gcs, 1));
      guint k = 0;
      for (guint i = 0; i < m->n_gcs; i++)
        if (m->pause_ns[i] > 0)
          order[k++] = i;
      g_qsort_with_data (order, k, sizeof (guint), compare_starts, m->start_ns);
      for (guint j = 0; j < k; j++)
        add_pause (m, &cap, m->start_ns[order[j]], m->pause_ns[order[j]], class_of_gc (m->kind[order[j]]));
    }
}

void
tm_timeline_model_clear_phases (TmTimelineModel *m)
{
  g_clear_pointer (&m->phase_start, g_free);
  g_clear_pointer (&m->phase_end, g_free);
  g_clear_pointer (&m->phase_kind, g_free);
  g_clear_pointer (&m->phase_depth, g_free);
  g_clear_pointer (&m->pause_at, g_free);
  g_clear_pointer (&m->pause_len, g_free);
  g_clear_pointer (&m->pause_class, g_free);
}

guint
tm_timeline_model_first_phase (const TmTimelineModel *m, double t)
{
  return (guint) tm_downsample_lower_bound (m->phase_start, m->n_phases, t - m->max_phase_ns);
}

guint
tm_timeline_model_first_pause (const TmTimelineModel *m, double t)
{
  return (guint) tm_downsample_lower_bound (m->pause_at, m->n_pauses, t);
}

double
tm_timeline_model_first_event (const TmTimelineModel *m)
{
  double first = G_MAXDOUBLE;

  for (guint i = 0; i < m->n_gcs; i++)
    first = MIN (first, m->start_ns[i]);
  if (m->n_phases > 0)
    first = MIN (first, m->phase_start[0]);
  return first == G_MAXDOUBLE ? 0 : first;
}

static int
phase_rank (TmGcPhaseKind kind, guint depth)
{
  switch (kind)
    {
    case TM_GC_PHASE_STALL:
    case TM_GC_PHASE_DEGENERATED:
    case TM_GC_PHASE_FULL:       return 0;
    case TM_GC_PHASE_PAUSE:      return 1;
    case TM_GC_PHASE_CONCURRENT: return depth == 0 ? 2 : 3;
    case TM_GC_PHASE_CYCLE:
    default:                     return 4;
    }
}

int
tm_timeline_model_phase_at (const TmTimelineModel *m, double t, double slack)
{
  int best = -1, best_rank = G_MAXINT;

  for (guint i = tm_timeline_model_first_phase (m, t - slack); i < m->n_phases && m->phase_start[i] <= t + slack; i++)
    {
      int rank = phase_rank (m->phase_kind[i], m->phase_depth[i]);
      /* stalls and pauses are short: they are found within the slack */
      double s = rank <= 1 ? slack : 0;

      if (t < m->phase_start[i] - s || t > m->phase_end[i] + s || rank >= best_rank)
        continue;
      best = (int) i;
      best_rank = rank;
    }
  return best;
}
