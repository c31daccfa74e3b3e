/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Deep and retained sizes of a group G of heap items (graph nodes).
 * The argument is in docs/heap-analysis.md; in short, with C = G plus
 * everything reachable from G and S = the union of the dominator subtrees
 * of G's members:
 *
 *   - S is retained (each member dominates its subtree) and costs
 *     nothing: subtree sizes and retained bytes are precomputed.
 *   - A reachable node outside C keeps every path from the roots that
 *     avoids G (a path through G would put it in C).
 *   - So the only open question is K = C \ S: a node of K stays alive iff
 *     it is reached, inside K, from an "entry": a root, or a node with a
 *     predecessor outside C.  Marking from the entries within K decides
 *     it; whatever of K stays unmarked is retained jointly by G.
 *
 * One forward marking of C gives the deep size and K; when K is empty
 * (tree-shaped ownership, the common case) the dominator tree answers
 * alone.  Nothing here ever marks the whole heap for one group.
 *
 * stamp[] holds, per node, for the current group (base = epoch):
 *   < base    not in C, or inside a closed subtree (see below)
 *   base + 0  in K, not (yet) known to stay alive
 *   base + 1  in S (members no root reaches included)
 *   base + 2  in K and alive without G
 *   base + 3  a reachable member
 *
 * Closed subtrees (no reference leaves them, tm-heap-analysis.c) make the
 * dominator tree answer deep sizes too: a top whose subtree is closed
 * reaches exactly its subtree, so it is counted, never walked.
 */
#include "tm-heap-analysis-private.h"
#include "tm-error.h"

#include <stdlib.h>
#include <string.h>

#define CHECK_MASK ((1u << 16) - 1)

static int
cmp_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

/* Index of the top whose subtree holds tree position p, or -1.  Tops
 * are sorted, disjoint subtrees. */
static gint64
find_top (const TmDominatorTree *dom, const guint32 *tops, guint32 n_tops, guint32 p)
{
  guint32 lo = 0, hi = n_tops;

  if (p == 0 || n_tops == 0)
    return -1;
  /* last top with position <= p */
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;
      if (tops[mid] <= p)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || p >= tops[lo - 1] + dom->size[tops[lo - 1]])
    return -1;
  return lo - 1;
}

static guint32
next_epoch (TmHeapAnalysis *self)
{
  if (self->epoch >= G_MAXUINT32 - 8)
    {
      memset (self->stamp, 0, sizeof (guint32) * MAX (self->n_items, 1));
      self->epoch = 0;
    }
  self->epoch += 4;
  return self->epoch;
}

static gboolean
closure_metrics (TmHeapAnalysis *self, const guint32 *items, guint32 n_items,
                 TmGroupMetrics *out, GCancellable *cancellable, GError **error)
{
  const TmHeapGraph *g = self->graph;
  const TmDominatorTree *dom = self->dom;
  guint32 *stamp = self->stamp;
  g_autofree guint32 *tops = NULL;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) k_nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 n_tops = 0, base;
  guint64 work = 0;

  base = next_epoch (self);

  /* S from the dominator tree. */
  tops = g_new (guint32, MAX (n_items, 1));
  for (guint32 i = 0; i < n_items; i++)
    {
      guint32 v = items[i];
      if (stamp[v] == base + 1)
        continue;                 /* duplicate */
      stamp[v] = base + 1;
      if (dom->position[v] != 0)
        tops[n_tops++] = dom->position[v];
      else
        {
          /* a member no root reaches: it goes with the group, alone, and
           * what it references is found by marking */
          guint64 size = tm_heap_analysis_item_size (self, v);
          out->retained_objects++;
          out->retained_bytes += size;
          out->deep_objects++;
          out->deep_bytes += size;
          g_array_append_val (stack, v);
        }
    }
  qsort (tops, n_tops, sizeof *tops, cmp_u32);
  {
    guint32 kept = 0;
    for (guint32 i = 0; i < n_tops; i++)
      if (kept == 0 || tops[i] >= tops[kept - 1] + dom->size[tops[kept - 1]])
        tops[kept++] = tops[i];
    n_tops = kept;
  }
  for (guint32 i = 0; i < n_tops; i++)
    {
      out->retained_objects += dom->size[tops[i]];
      out->retained_bytes += dom->retained_bytes[tops[i]];
      if (tm_bitmap_get (self->closed, tops[i]))
        {
          /* nothing leaves this subtree: it is all the top reaches */
          out->deep_objects += dom->size[tops[i]];
          out->deep_bytes += dom->retained_bytes[tops[i]];
        }
    }
  /* Members under an open top are marked from; the rest is counted. */
  for (guint32 i = 0; i < n_items; i++)
    {
      guint32 v = items[i];
      gint64 t;

      if (stamp[v] != base + 1 || dom->position[v] == 0)
        continue;
      stamp[v] = base + 3;        /* seen once; still "in S" below */
      t = find_top (dom, tops, n_tops, dom->position[v]);
      if (tm_bitmap_get (self->closed, tops[t]))
        continue;
      out->deep_objects++;
      out->deep_bytes += tm_heap_analysis_item_size (self, v);
      g_array_append_val (stack, v);
    }

  /* C by forward marking; split into S and K.  Closed subtrees are only
   * entered through their top, a member, so they are never walked. */
  while (stack->len > 0)
    {
      guint32 v = g_array_index (stack, guint32, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);

      for (guint64 e = g->edge_start[v]; e < g->edge_start[v + 1]; e++)
        {
          guint32 u = g->edges[e];
          gint64 t;

          if (u >= g->n_nodes || stamp[u] >= base)
            continue;
          t = find_top (dom, tops, n_tops, dom->position[u]);
          if (t >= 0)
            {
              if (tm_bitmap_get (self->closed, tops[t]))
                continue;
              stamp[u] = base + 1;
            }
          else
            {
              stamp[u] = base;
              g_array_append_val (k_nodes, u);
            }
          out->deep_objects++;
          out->deep_bytes += tm_heap_analysis_item_size (self, u);
          g_array_append_val (stack, u);
        }
      if ((++work & CHECK_MASK) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }

  if (k_nodes->len == 0)
    return TRUE;

  /* K: mark what the entries keep alive. */
  tm_heap_analysis_ensure_reverse (self);
  for (guint32 i = 0; i < k_nodes->len; i++)
    {
      guint32 k = g_array_index (k_nodes, guint32, i);
      gboolean entry;

      if (stamp[k] != base || dom->position[k] == 0)
        continue;
      entry = tm_bitmap_get (self->root_bits, k);
      for (guint64 e = self->rev_start[k]; !entry && e < self->rev_start[k + 1]; e++)
        {
          guint32 u = self->rev_edges[e];
          entry = stamp[u] < base && dom->position[u] != 0;
        }
      if (!entry)
        continue;

      stamp[k] = base + 2;
      g_array_append_val (stack, k);
      while (stack->len > 0)
        {
          guint32 v = g_array_index (stack, guint32, stack->len - 1);
          g_array_set_size (stack, stack->len - 1);
          for (guint64 e = g->edge_start[v]; e < g->edge_start[v + 1]; e++)
            {
              guint32 u = g->edges[e];
              if (u < g->n_nodes && stamp[u] == base)
                {
                  stamp[u] = base + 2;
                  g_array_append_val (stack, u);
                }
            }
        }
      if ((++work & CHECK_MASK) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }

  for (guint32 i = 0; i < k_nodes->len; i++)
    {
      guint32 k = g_array_index (k_nodes, guint32, i);
      if (stamp[k] == base && dom->position[k] != 0)
        {
          out->retained_objects++;
          out->retained_bytes += tm_heap_analysis_item_size (self, k);
        }
    }
  return TRUE;
}

gboolean
tm_heap_analysis_group_metrics (TmHeapAnalysis *self,
                                const guint32  *items,
                                guint32         n_items,
                                gboolean        need_graph,
                                TmGroupMetrics *out,
                                GCancellable   *cancellable,
                                GError        **error)
{
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (items != NULL || n_items == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  for (guint32 i = 0; i < n_items; i++)
    {
      if (items[i] >= self->n_items)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                       "item %u out of range (heap has %u objects)", items[i], self->n_items);
          return FALSE;
        }
    }

  if (self->graph == NULL)
    {
      for (guint32 i = 0; i < n_items; i++)
        {
          out->objects++;
          out->bytes += tm_heap_analysis_item_size (self, items[i]);
        }
      if (need_graph)
        {
          g_autofree char *msg = tm_heap_analysis_no_graph_message (self->trace, self->gc_id);
          g_set_error_literal (error, TM_ERROR, TM_ERROR_NO_GRAPH, msg);
          return FALSE;
        }
      return TRUE;
    }

  g_mutex_lock (&self->lock);
  ok = closure_metrics (self, items, n_items, out, cancellable, error);
  /* shallow sizes over distinct members: they are exactly the base+1
   * stamps set first, so count them the simple way */
  if (ok)
    {
      /* each distinct member once: members carry base+1 (unreachable) or
       * base+3 (reachable); move them to base+2, which no member had */
      guint32 base = self->epoch;
      for (guint32 i = 0; i < n_items; i++)
        if (self->stamp[items[i]] == base + 1 || self->stamp[items[i]] == base + 3)
          {
            out->objects++;
            out->bytes += tm_heap_analysis_item_size (self, items[i]);
            self->stamp[items[i]] = base + 2;
          }
    }
  g_mutex_unlock (&self->lock);
  return ok;
}
