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
 *   base + 1  a member, or in the subtree of an open top
 *   base + 2  in K and alive without G
 *
 * Closed subtrees (no reference leaves them, tm-heap-analysis.c) make the
 * dominator tree answer deep sizes too: a top whose subtree is closed
 * reaches exactly its subtree, so it is counted, never walked.
 */
#include "tm-heap-analysis-private.h"
#include "tm-error.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#define CHECK_MASK ((1u << 16) - 1)

static inline guint64
node_size (const TmHeapAnalysis *self, guint32 v)
{
  return tm_object_sizes_get (&self->sizes, self->objects[v]);
}

static int
cmp_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

typedef struct {
  guint32 *items;
  gsize    len, cap;
} Stack;

static inline void
push (Stack *s, guint32 v)
{
  if (G_UNLIKELY (s->len == s->cap))
    {
      s->cap = MAX (1024, s->cap * 2);
      s->items = g_renew (guint32, s->items, s->cap);
    }
  s->items[s->len++] = v;
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
  Stack stack = { NULL, 0, 0 }, k_nodes = { NULL, 0, 0 };
  guint32 n_tops = 0, base;
  guint64 work = 0;
  gboolean ok = FALSE, has_unreachable = FALSE;

  base = next_epoch (self);

  /* Members (once each) and the tops of S. */
  tops = g_new (guint32, MAX (n_items, 1));
  for (guint32 i = 0; i < n_items; i++)
    {
      guint32 v = items[i];
      guint64 size;

      if (stamp[v] == base + 1)
        continue;                 /* duplicate */
      stamp[v] = base + 1;
      size = node_size (self, v);
      out->objects++;
      out->bytes += size;
      if (dom->position[v] != 0)
        tops[n_tops++] = dom->position[v];
      else
        {
          /* a member no root reaches: it goes with the group, alone, and
           * what it references is found by marking */
          out->retained_objects++;
          out->retained_bytes += size;
          out->deep_objects++;
          out->deep_bytes += size;
          push (&stack, v);
          has_unreachable = TRUE;
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

  /* S: counted from the tree.  A closed subtree is all its top reaches;
   * an open one is stamped and its references scanned for K.  Only
   * reachable nodes are kept out of a subtree except through its top, so
   * a group with unreachable members stamps every subtree. */
  for (guint32 i = 0; i < n_tops; i++)
    {
      guint32 t = tops[i], end = t + dom->size[t];

      out->retained_objects += dom->size[t];
      out->retained_bytes += dom->retained_bytes[t];
      out->deep_objects += dom->size[t];
      out->deep_bytes += dom->retained_bytes[t];
      if (!has_unreachable && tm_bitmap_get (self->closed, t))
        continue;
      for (guint32 p = t; p < end; p++)
        stamp[dom->order[p]] = base + 1;
      for (guint32 p = t; p < end; p++)
        push (&stack, dom->order[p]);
    }

  /* The rest of C by marking: whatever is reached and not stamped is in K
   * (closed subtrees are entered only through their top, a member). */
  while (stack.len > 0)
    {
      guint32 v = stack.items[--stack.len];

      for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
        {
          guint32 u = g->edges[e];
          if (stamp[u] >= base)
            continue;
          stamp[u] = base;
          push (&k_nodes, u);
          out->deep_objects++;
          out->deep_bytes += node_size (self, u);
          push (&stack, u);
        }
      if ((++work & CHECK_MASK) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }

  if (k_nodes.len == 0)
    {
      ok = TRUE;
      goto out;
    }

  /* K: mark what the entries keep alive. */
  tm_heap_analysis_ensure_reverse (self);
  for (gsize i = 0; i < k_nodes.len; i++)
    {
      guint32 k = k_nodes.items[i];
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
      push (&stack, k);
      while (stack.len > 0)
        {
          guint32 v = stack.items[--stack.len];
          for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
            {
              guint32 u = g->edges[e];
              if (stamp[u] == base)
                {
                  stamp[u] = base + 2;
                  push (&stack, u);
                }
            }
        }
      if ((++work & CHECK_MASK) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }

  for (gsize i = 0; i < k_nodes.len; i++)
    {
      guint32 k = k_nodes.items[i];
      if (stamp[k] == base && dom->position[k] != 0)
        {
          out->retained_objects++;
          out->retained_bytes += node_size (self, k);
        }
    }
  ok = TRUE;

out:
  g_free (stack.items);
  g_free (k_nodes.items);
  return ok;
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
                       _("item %u out of range (heap has %u objects)"), items[i], self->n_items);
          return FALSE;
        }
    }

  if (self->graph == NULL)
    {
      for (guint32 i = 0; i < n_items; i++)
        {
          out->objects++;
          out->bytes += node_size (self, items[i]);
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
  g_mutex_unlock (&self->lock);
  return ok;
}
