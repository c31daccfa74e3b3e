/* SPDX-License-Identifier: GPL-3.0-or-later
 * Random heap graphs with shared ownership and cycles, and brute-force
 * reachability, for the dominator and classification oracles. */
#pragma once

#include "tm-heap-graph.h"

#include <string.h>

typedef struct {
  guint32  n;
  GArray  *src, *dst;          /* object indices */
  GArray  *roots;
} TestGraphSpec;

/* Mostly a forest under a few roots, plus `share` random extra references
 * per node (sharing, cycles, self-loops, duplicates) and a few nodes no
 * root reaches. */
static inline TestGraphSpec
test_graph_random (GRand *rand, guint32 n, double share)
{
  TestGraphSpec s = { n, g_array_new (FALSE, FALSE, sizeof (guint32)),
                      g_array_new (FALSE, FALSE, sizeof (guint32)),
                      g_array_new (FALSE, FALSE, sizeof (guint32)) };
  guint32 n_roots = 1 + g_rand_int_range (rand, 0, 5);
  guint32 n_extra;

  for (guint32 r = 0; r < n_roots && n > 0; r++)
    {
      guint32 v = g_rand_int_range (rand, 0, MAX (n / 8, 1));
      g_array_append_val (s.roots, v);
    }
  for (guint32 i = 1; i < n; i++)
    if (g_rand_double (rand) < 0.93)
      {
        guint32 p = g_rand_int_range (rand, 0, i);
        g_array_append_val (s.src, p);
        g_array_append_val (s.dst, i);
      }
  n_extra = (guint32) (share * n);
  for (guint32 e = 0; e < n_extra && n > 0; e++)
    {
      guint32 a = g_rand_int_range (rand, 0, n), b;
      /* mostly near references (siblings, small cycles), some far ones */
      if (g_rand_boolean (rand))
        {
          gint64 near = (gint64) a + g_rand_int_range (rand, -6, 7);
          b = (guint32) CLAMP (near, 0, (gint64) n - 1);
        }
      else
        b = g_rand_int_range (rand, 0, n);
      g_array_append_val (s.src, a);
      g_array_append_val (s.dst, b);
    }
  return s;
}

static inline TmHeapGraph *
test_graph_build (const TestGraphSpec *s, guint32 gc_id, const guint32 *objects)
{
  return tm_heap_graph_new (gc_id, objects, s->n,
                            (const guint32 *) (gpointer) s->src->data,
                            (const guint32 *) (gpointer) s->dst->data, s->src->len,
                            (const guint32 *) (gpointer) s->roots->data, NULL, s->roots->len);
}

static inline void
test_graph_spec_clear (TestGraphSpec *s)
{
  g_array_unref (s->src);
  g_array_unref (s->dst);
  g_array_unref (s->roots);
}

/* Nodes reachable from the roots when the nodes with removed[v] set are
 * taken out of the graph (removed may be NULL).  Returns a byte per node. */
static inline guint8 *
test_reach (const TmHeapGraph *g, const guint8 *removed)
{
  guint8 *seen = g_new0 (guint8, MAX (g->n_nodes, 1));
  guint32 *stack = g_new (guint32, (gsize) g->n_nodes + g->n_roots + 1);
  gsize sp = 0;

  for (guint32 r = 0; r < g->n_roots; r++)
    {
      guint32 v = g->root_node[r];
      if (!seen[v] && !(removed && removed[v]))
        {
          seen[v] = 1;
          stack[sp++] = v;
        }
    }
  while (sp > 0)
    {
      guint32 v = stack[--sp];
      for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
        {
          guint32 u = g->edges[e];
          if (!seen[u] && !(removed && removed[u]))
            {
              seen[u] = 1;
              stack[sp++] = u;
            }
        }
    }
  g_free (stack);
  return seen;
}

/* Breadth-first distances from the roots: 1 at a root, G_MAXUINT32 where
 * no root reaches (a guint32 per node, freed with g_free). */
static inline guint32 *
test_root_distances (const TmHeapGraph *g)
{
  guint32 *dist = g_new (guint32, MAX (g->n_nodes, 1));
  guint32 *queue = g_new (guint32, MAX (g->n_nodes, 1));
  guint32 head = 0, tail = 0;

  memset (dist, 0xff, g->n_nodes * sizeof *dist);
  for (guint32 r = 0; r < g->n_roots; r++)
    if (dist[g->root_node[r]] == G_MAXUINT32)
      {
        dist[g->root_node[r]] = 1;
        queue[tail++] = g->root_node[r];
      }
  while (head < tail)
    {
      guint32 v = queue[head++];
      for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
        if (dist[g->edges[e]] == G_MAXUINT32)
          {
            dist[g->edges[e]] = dist[v] + 1;
            queue[tail++] = g->edges[e];
          }
    }
  g_free (queue);
  return dist;
}
