/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ranked containers grouped by the site that allocated them
 * (tm-containers.h): the containers of one site taken as one.
 */
#include "tm-config.h"
#include "tm-containers.h"

static gint
compare_groups (gconstpointer a, gconstpointer b)
{
  const TmContainerAllocSite *x = a, *y = b;

  if (x->relevant != y->relevant)
    return x->relevant ? -1 : 1;
  if (x->lc != y->lc)
    return x->lc < y->lc ? 1 : -1;
  if (x->bytes_at_end != y->bytes_at_end)
    return x->bytes_at_end < y->bytes_at_end ? 1 : -1;
  return (x->site > y->site) - (x->site < y->site);
}

GArray *
tm_container_report_by_alloc_site (const TmTrace *trace, const TmContainerReport *r)
{
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);   /* site + 1 -> group + 1 */
  GArray *groups = g_array_new (FALSE, TRUE, sizeof (TmContainerAllocSite));
  g_autoptr(GArray) stale = g_array_new (FALSE, TRUE, sizeof (double));   /* sum of SC x stints */

  g_return_val_if_fail (trace != NULL && r != NULL, groups);
  for (guint i = 0; i < r->containers->len; i++)
    {
      const TmContainer *c = g_ptr_array_index (r->containers, i);
      guint32 site = trace->obj_site[c->head_object];
      guint g = GPOINTER_TO_UINT (g_hash_table_lookup (index, GUINT_TO_POINTER (site + 1)));
      TmContainerAllocSite *s;

      if (g == 0)
        {
          TmContainerAllocSite fresh = { .site = site, .type = c->type, .top = i };
          double zero = 0;

          g_array_append_val (groups, fresh);
          g_array_append_val (stale, zero);
          g = groups->len;
          g_hash_table_insert (index, GUINT_TO_POINTER (site + 1), GUINT_TO_POINTER (g));
        }
      s = &g_array_index (groups, TmContainerAllocSite, g - 1);
      if (s->type != c->type)
        s->type = TM_UNKNOWN;
      s->n_containers++;
      s->n_exact += c->exact ? 1 : 0;
      s->growth_bytes += (gint64) c->bytes_at_end - (gint64) c->bytes_at_start;
      s->bytes_at_end += c->bytes_at_end;
      s->elements_at_end += c->elements_at_end;
      s->stints += c->stints;
      s->mc += c->mc;   /* disjoint structures: their areas add */
      g_array_index (stale, double, g - 1) += c->sc * (double) c->stints;
    }
  for (guint g = 0; g < groups->len; g++)
    {
      TmContainerAllocSite *s = &g_array_index (groups, TmContainerAllocSite, g);

      s->mc = MIN (s->mc, 1.0);
      s->sc = s->stints > 0 ? CLAMP (g_array_index (stale, double, g) / (double) s->stints, 0.0, 1.0) : 0.0;
      s->lc = tm_leak_confidence (s->sc, s->mc);
      s->relevant = tm_container_relevant (r, (guint64) MAX ((gint64) s->bytes_at_end - s->growth_bytes, 0),
                                           s->bytes_at_end);
    }
  g_array_sort (groups, compare_groups);
  return groups;
}
