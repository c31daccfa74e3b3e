/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exact staleness from recorded container operations: see
 * tm-containers-ops.h.
 */
#include "tm-containers-ops.h"

#include <string.h>

typedef struct {
  guint64  present;          /* times it is in the container (a value under several keys) */
  guint64  t1;               /* last add or retrieval */
  guint32  site;             /* site index of the ADD that started the stint */
  gboolean added_within;
} Element;

gboolean
tm_container_ops_recorded (const TmTrace *trace)
{
  return trace->container_ops->len > 0 || g_hash_table_contains (trace->meta, "container_ops");
}

GHashTable *
tm_container_ops_index (const TmTrace *trace, GHashTable *wanted)
{
  GHashTable *index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < trace->container_ops->len; i++)
    {
      TmContainerOp *op = &g_array_index (trace->container_ops, TmContainerOp, i);
      guint64 *to = g_hash_table_lookup (wanted, &op->container);
      GArray *list;

      if (to == NULL)
        continue;
      list = g_hash_table_lookup (index, to);
      if (list == NULL)
        {
          list = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (index, g_memdup2 (to, sizeof *to), list);
        }
      g_array_append_val (list, i);
    }
  return index;
}

/* removal: ended by a REMOVE or CLEAR, not by te */
static void
close_stint (TmContainerOpsStats *s, Element *e, guint64 t2, guint64 ts, gboolean removal)
{
  TmContainerOpsSite *site;
  double stale;

  if (t2 < ts)
    return;
  stale = (double) (t2 - MAX (e->t1, ts));
  site = g_hash_table_lookup (s->sites, GUINT_TO_POINTER (e->site + 1));
  if (site == NULL)
    {
      site = g_new0 (TmContainerOpsSite, 1);
      g_hash_table_insert (s->sites, GUINT_TO_POINTER (e->site + 1), site);
    }
  site->sum += stale;
  site->n++;
  s->stale_sum += stale;
  s->stale_n++;
  if (removal && e->added_within)
    s->removes++;
}

void
tm_container_ops_replay (const TmTrace *trace, const GArray *op_indices, guint64 ts, guint64 te,
                         TmContainerOpsStats *s)
{
  g_autoptr(GHashTable) elements = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  GHashTableIter it;
  gpointer value;

  memset (s, 0, sizeof *s);
  s->sites = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint i = 0; op_indices != NULL && i < op_indices->len; i++)
    {
      const TmContainerOp *op = &g_array_index (trace->container_ops, TmContainerOp,
                                                g_array_index (op_indices, guint, i));
      Element *e;
      guint kind = op->kind;

      if (op->time_ns > te)
        break;
      s->ops++;
      if (kind == TM_CONTAINER_OP_CLEAR)
        {
          g_hash_table_iter_init (&it, elements);
          while (g_hash_table_iter_next (&it, NULL, &value))
            {
              Element *x = value;
              for (; x->present > 0; x->present--)
                close_stint (s, x, op->time_ns, ts, TRUE);
            }
          g_hash_table_remove_all (elements);
          continue;
        }
      e = g_hash_table_lookup (elements, &op->element);
      if (kind == TM_CONTAINER_OP_ADD_OR_GET)
        kind = e != NULL ? TM_CONTAINER_OP_GET : TM_CONTAINER_OP_ADD;
      if (e == NULL)
        {
          e = g_new0 (Element, 1);
          e->site = op->site;
          g_hash_table_insert (elements, g_memdup2 (&op->element, sizeof op->element), e);
        }
      switch (kind)
        {
        case TM_CONTAINER_OP_ADD:
          if (e->present == 0 || op->time_ns >= ts)
            {
              e->site = op->site;
              e->added_within = op->time_ns >= ts;
            }
          e->present++;
          e->t1 = op->time_ns;
          if (op->time_ns >= ts)
            s->adds++;
          break;
        case TM_CONTAINER_OP_GET:
          if (e->present == 0)
            e->present = 1;   /* there before we saw it */
          e->t1 = op->time_ns;
          break;
        case TM_CONTAINER_OP_REMOVE:
          /* an element never seen added has no known staleness */
          if (e->present > 0)
            {
              e->present--;
              close_stint (s, e, op->time_ns, ts, TRUE);
            }
          if (e->present == 0)
            g_hash_table_remove (elements, &op->element);
          break;
        default:
          break;
        }
    }
  /* what is still in the container is stale until te */
  g_hash_table_iter_init (&it, elements);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      Element *x = value;
      s->present_at_end += x->present;
      for (guint64 k = 0; k < x->present; k++)
        close_stint (s, x, te, ts, FALSE);
    }
}

void
tm_container_ops_stats_clear (TmContainerOpsStats *s)
{
  g_clear_pointer (&s->sites, g_hash_table_unref);
}
