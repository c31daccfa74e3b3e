/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Semi-NCA dominators (Georgiadis 2005, as in LLVM's SemiNCAInfo) over a
 * TmHeapGraph with a virtual super-root.  Everything is flat u32 arrays
 * indexed by DFS preorder number; memory per node is what the benchmark
 * reports.  The phases:
 *
 *  1. Iterative DFS from the super-root (the roots in file order).  While
 *     scanning edges it already handles the edges whose source precedes
 *     the target in preorder (tree and forward edges): their candidate
 *     for the semidominator is the source itself, so only the minimum is
 *     kept.  Edges going "back" in preorder (cross and back edges) need
 *     eval() later and are stored as (target, source) pairs.
 *  2. Those pairs are bucketed by target (counting sort; no full reverse
 *     graph is ever built).
 *  3. Semidominators in reverse preorder with path compression; a node
 *     counts as linked once it has been processed, so no explicit link().
 *  4. NCA pass: idom(w) = the nearest ancestor of parent(w) in the partial
 *     dominator tree whose number is <= semi(w).
 *  5. Renumbering in dominator-tree preorder, subtree sizes and retained
 *     bytes, so that every subtree is a contiguous range.
 */
#include "tm-dominators.h"
#include "tm-error.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define CHECK_MASK ((1u << 18) - 1)

typedef struct {
  gsize now;
  gsize peak;
} MemMeter;

static gpointer
meter_alloc (MemMeter *m, gsize n_elems, gsize elem_size, gboolean zero)
{
  gpointer p = zero ? g_malloc0_n (MAX (n_elems, 1), elem_size) : g_malloc_n (MAX (n_elems, 1), elem_size);
  m->now += n_elems * elem_size;
  m->peak = MAX (m->peak, m->now);
  return p;
}

static void
meter_free (MemMeter *m, gpointer p, gsize n_elems, gsize elem_size)
{
  g_free (p);
  m->now -= n_elems * elem_size;
}

static gboolean
check_cancel (GCancellable *cancellable, GError **error)
{
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* Path-compressing eval: the vertex with the smallest semi on the
 * compressed path from v up to (not including) the first vertex numbered
 * below last_linked. */
typedef struct {
  guint32 *items;
  gsize    len, cap;
} Stack;

static inline guint32
eval (guint32 v, guint32 last_linked, guint32 *anc, guint32 *label,
      const guint32 *semi, Stack *stack)
{
  guint32 p, p_label;

  if (anc[v] < last_linked)
    return label[v];

  stack->len = 0;
  do
    {
      if (G_UNLIKELY (stack->len == stack->cap))
        {
          stack->cap = MAX (256, stack->cap * 2);
          stack->items = g_renew (guint32, stack->items, stack->cap);
        }
      stack->items[stack->len++] = v;
      v = anc[v];
    }
  while (anc[v] >= last_linked);

  p = v;
  p_label = label[p];
  for (gsize i = stack->len; i-- > 0;)
    {
      guint32 w = stack->items[i];
      anc[w] = anc[p];
      if (semi[p_label] < semi[label[w]])
        label[w] = p_label;
      else
        p_label = label[w];
      p = w;
    }
  return label[p];
}

/* Dominator trees built by this process, for tests that prove an
 * analysis is not repeated (tm_dominator_tree_get_n_builds). */
static gint n_builds;

guint
tm_dominator_tree_get_n_builds (void)
{
  return (guint) g_atomic_int_get (&n_builds);
}

TmDominatorTree *
tm_dominator_tree_new (const TmHeapGraph   *graph,
                       const TmObjectSizes *sizes,
                       TmProgressFunc       progress,
                       gpointer             progress_data,
                       GCancellable        *cancellable,
                       GError             **error)
{
  MemMeter m = { 0, 0 };
  guint32 n, N = 0;
  guint32 *pre = NULL, *parent = NULL, *semi = NULL, *label = NULL, *anc = NULL;
  guint32 *bsrc = NULL;
  guint64 *pairs = NULL;
  gsize n_pairs = 0, pairs_cap = 0;
  guint32 *snode = NULL;
  guint64 *sedge = NULL;
  gsize sp = 0, scap = 0;
  guint64 work = 0;
  TmDominatorTree *tree = NULL;

  g_return_val_if_fail (graph != NULL, NULL);
  g_return_val_if_fail (sizes != NULL && sizes->obj_size != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_atomic_int_inc (&n_builds);
  n = graph->n_nodes;
  if (n == G_MAXUINT32)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED, _("graph of GC %u has too many nodes"), graph->gc_id);
      return NULL;
    }

  /* 1. DFS.  parent and semi are indexed by preorder number (1..N). */
  pre = meter_alloc (&m, n, sizeof *pre, TRUE);
  parent = meter_alloc (&m, (gsize) n + 1, sizeof *parent, FALSE);
  semi = meter_alloc (&m, (gsize) n + 1, sizeof *semi, FALSE);
  label = meter_alloc (&m, (gsize) n + 1, sizeof *label, TRUE);   /* backward-edge counts for now */
  parent[0] = 0;
  semi[0] = 0;

  for (guint32 r = 0; r < graph->n_roots; r++)
    {
      guint32 root = graph->root_node[r];

      if (root >= n)
        continue;
      if (pre[root] != 0)
        {
          /* already reached from an earlier root: still an edge from the
           * super-root, so 0 is its semidominator candidate */
          semi[pre[root]] = 0;
          continue;
        }
      pre[root] = ++N;
      parent[N] = 0;
      semi[N] = 0;

      if (sp == scap)
        {
          scap = MAX (1024, scap * 2);
          snode = g_renew (guint32, snode, scap);
          sedge = g_renew (guint64, sedge, scap);
        }
      snode[sp] = root;
      sedge[sp] = tm_heap_graph_edge_begin (graph, root);
      sp++;

      while (sp > 0)
        {
          guint32 v = snode[sp - 1];
          guint32 a = pre[v];
          guint64 e = sedge[sp - 1];
          guint64 end = tm_heap_graph_edge_end (graph, v);
          guint32 child = G_MAXUINT32;

          while (e < end)
            {
              guint32 u = graph->edges[e++];
              guint32 b;

              if (G_UNLIKELY (u >= n))
                continue;
              b = pre[u];
              if (b == 0)
                {
                  child = u;
                  break;
                }
              if (a < b)
                {
                  /* forward edge: the source is a semidominator candidate */
                  if (a < semi[b])
                    semi[b] = a;
                }
              else if (a > b)
                {
                  if (n_pairs == pairs_cap)
                    {
                      gsize old = pairs_cap;
                      pairs_cap = MAX (4096, pairs_cap + pairs_cap / 2);
                      pairs = g_renew (guint64, pairs, pairs_cap);
                      m.now += (pairs_cap - old) * sizeof *pairs;
                      m.peak = MAX (m.peak, m.now);
                    }
                  pairs[n_pairs++] = ((guint64) b << 32) | a;
                  label[b]++;
                }
            }

          if ((++work & CHECK_MASK) == 0)
            {
              if (!check_cancel (cancellable, error))
                goto fail;
              if (progress)
                progress (0.4 * N / MAX (n, 1), progress_data);
            }

          if (child != G_MAXUINT32)
            {
              sedge[sp - 1] = e;
              pre[child] = ++N;
              parent[N] = a;
              semi[N] = a;
              if (sp == scap)
                {
                  scap = scap * 2;
                  snode = g_renew (guint32, snode, scap);
                  sedge = g_renew (guint64, sedge, scap);
                }
              snode[sp] = child;
              sedge[sp] = tm_heap_graph_edge_begin (graph, child);
              sp++;
            }
          else
            sp--;
        }
    }
  m.now += scap * (sizeof *snode + sizeof *sedge);
  m.peak = MAX (m.peak, m.now);
  g_clear_pointer (&snode, g_free);
  g_clear_pointer (&sedge, g_free);
  m.now -= scap * (sizeof *snode + sizeof *sedge);

  /* 2. Bucket the backward edges by target: label[b] = start of b's run,
   * the run ends where b+1's begins (or at n_pairs). */
  {
    guint64 sum = 0;
    for (guint32 b = 1; b <= N; b++)
      {
        guint32 c = label[b];
        label[b] = (guint32) sum;
        sum += c;
      }
    if (sum > G_MAXUINT32)
      {
        g_set_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED,
                     _("graph of GC %u has more than 2^32 cross references"), graph->gc_id);
        goto fail;
      }
    bsrc = meter_alloc (&m, n_pairs, sizeof *bsrc, FALSE);
    for (gsize i = 0; i < n_pairs; i++)
      {
        guint32 b = (guint32) (pairs[i] >> 32);
        bsrc[label[b]++] = (guint32) pairs[i];
      }
    /* label[b] is now the end of b's run = start of b+1's run; shift so
     * that label[b] is the start of b's run. */
    for (guint32 b = N; b >= 1; b--)
      label[b] = b > 1 ? label[b - 1] : 0;
    meter_free (&m, pairs, pairs_cap, sizeof *pairs);
    pairs = NULL;
  }

  if (!check_cancel (cancellable, error))
    goto fail;

  /* 3. Semidominators, reverse preorder. */
  anc = meter_alloc (&m, (gsize) N + 1, sizeof *anc, FALSE);
  memcpy (anc, parent, ((gsize) N + 1) * sizeof *anc);
  {
    Stack stack = { NULL, 0, 0 };
    guint32 run_end = (guint32) n_pairs;

    for (guint32 w = N; w >= 1; w--)
      {
        guint32 start = label[w];
        guint32 s = semi[w];

        for (guint32 i = start; i < run_end; i++)
          {
            guint32 l = eval (bsrc[i], w + 1, anc, label, semi, &stack);
            if (semi[l] < s)
              s = semi[l];
          }
        run_end = start;
        semi[w] = s;
        label[w] = w;

        if ((w & CHECK_MASK) == 0)
          {
            if (!check_cancel (cancellable, error))
              {
                g_free (stack.items);
                goto fail;
              }
            if (progress)
              progress (0.4 + 0.3 * (N - w) / MAX (N, 1), progress_data);
          }
      }
    g_free (stack.items);
  }
  meter_free (&m, bsrc, n_pairs, sizeof *bsrc);
  bsrc = NULL;

  /* 4. NCA: parent[] becomes idom[] in place (preorder numbers). */
  for (guint32 w = 1; w <= N; w++)
    {
      guint32 c = parent[w];
      while (c > semi[w])
        c = parent[c];
      parent[w] = c;
    }
  if (!check_cancel (cancellable, error))
    goto fail;
  if (progress)
    progress (0.75, progress_data);

  /* 5. Dominator-tree preorder.  anc becomes subtree sizes, semi the next
   * free slot per node, label the new position of each preorder number. */
  {
    guint32 *size = anc, *next = semi, *dpos = label, *idom = parent;
    guint32 *idom_d, *size_d, *order;
    guint64 *rb;

    anc = NULL;
    for (guint32 p = 0; p <= N; p++)
      size[p] = 1;
    for (guint32 p = N; p >= 1; p--)
      size[idom[p]] += size[p];

    dpos[0] = 0;
    next[0] = 1;
    for (guint32 p = 1; p <= N; p++)
      {
        guint32 q = idom[p];
        dpos[p] = next[q];
        next[q] += size[p];
        next[p] = dpos[p] + 1;
      }
    meter_free (&m, semi, (gsize) n + 1, sizeof *semi);
    semi = NULL;

    idom_d = meter_alloc (&m, (gsize) N + 1, sizeof *idom_d, FALSE);
    for (guint32 p = 1; p <= N; p++)
      idom_d[dpos[p]] = dpos[idom[p]];
    idom_d[0] = 0;
    meter_free (&m, parent, (gsize) n + 1, sizeof *parent);
    parent = NULL;

    size_d = meter_alloc (&m, (gsize) N + 1, sizeof *size_d, FALSE);
    for (guint32 p = 0; p <= N; p++)
      size_d[dpos[p]] = size[p];
    meter_free (&m, size, (gsize) N + 1, sizeof *size);

    order = meter_alloc (&m, (gsize) N + 1, sizeof *order, FALSE);
    order[0] = G_MAXUINT32;
    for (guint32 v = 0; v < n; v++)
      if (pre[v] != 0)
        {
          guint32 d = dpos[pre[v]];
          order[d] = v;
          pre[v] = d;
        }
    meter_free (&m, label, (gsize) n + 1, sizeof *label);
    label = NULL;

    rb = meter_alloc (&m, (gsize) N + 1, sizeof *rb, TRUE);
    for (guint32 d = N; d >= 1; d--)
      {
        rb[d] += tm_object_sizes_get (sizes, graph->node_object[order[d]]);
        rb[idom_d[d]] += rb[d];
      }

    tree = g_new0 (TmDominatorTree, 1);
    tree->n_nodes = n;
    tree->n_reachable = N;
    tree->position = pre;
    tree->order = order;
    tree->idom = idom_d;
    tree->size = size_d;
    tree->retained_bytes = rb;
    tree->peak_bytes = m.peak;
  }
  if (progress)
    progress (1.0, progress_data);
  return tree;

fail:
  g_free (snode);
  g_free (sedge);
  g_free (pairs);
  g_free (bsrc);
  g_free (pre);
  g_free (parent);
  g_free (semi);
  g_free (label);
  g_free (anc);
  return NULL;
}

void
tm_dominator_tree_free (TmDominatorTree *tree)
{
  if (tree == NULL)
    return;
  g_free (tree->position);
  g_free (tree->order);
  g_free (tree->idom);
  g_free (tree->size);
  g_free (tree->retained_bytes);
  g_free (tree);
}

guint32
tm_dominator_tree_idom_node (const TmDominatorTree *tree, guint32 node)
{
  guint32 p, d;

  g_return_val_if_fail (tree != NULL, G_MAXUINT32);
  g_return_val_if_fail (node < tree->n_nodes, G_MAXUINT32);

  p = tree->position[node];
  if (p == 0)
    return G_MAXUINT32;
  d = tree->idom[p];
  return d == 0 ? G_MAXUINT32 : tree->order[d];
}

gboolean
tm_dominator_tree_dominates (const TmDominatorTree *tree, guint32 a, guint32 b)
{
  guint32 pa, pb;

  g_return_val_if_fail (tree != NULL, FALSE);
  g_return_val_if_fail (a < tree->n_nodes && b < tree->n_nodes, FALSE);

  pa = tree->position[a];
  pb = tree->position[b];
  if (pa == 0 || pb == 0)
    return a == b;
  return pb >= pa && pb < pa + tree->size[pa];
}

GArray *
tm_dominator_tree_chain (const TmDominatorTree *tree, guint32 node)
{
  GArray *chain;
  guint32 p;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (node < tree->n_nodes, NULL);

  chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (p = tree->position[node]; p != 0; p = tree->idom[p])
    g_array_append_val (chain, tree->order[p]);
  return chain;
}
