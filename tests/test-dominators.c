/* SPDX-License-Identifier: GPL-3.0-or-later
 * Dominator trees: hand-checked graphs, and random graphs with shared
 * ownership and cycles against brute force (remove a node, mark from the
 * roots: what disappears is what it dominates). */
#include "tm-dominators.h"
#include "tm-error.h"
#include "heap-test-util.h"

#include <string.h>

static guint32 *
identity (guint32 n)
{
  guint32 *a = g_new (guint32, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    a[i] = i;
  return a;
}

static TmHeapGraph *
graph_from_pairs (guint32 n, const guint32 (*edges)[2], guint n_edges, const guint32 *roots, guint n_roots)
{
  g_autofree guint32 *objs = identity (n);
  g_autofree guint32 *src = g_new (guint32, MAX (n_edges, 1));
  g_autofree guint32 *dst = g_new (guint32, MAX (n_edges, 1));

  for (guint i = 0; i < n_edges; i++)
    {
      src[i] = edges[i][0];
      dst[i] = edges[i][1];
    }
  return tm_heap_graph_new (1, objs, n, src, dst, n_edges, roots, NULL, n_roots);
}

static guint32
idom_of (const TmDominatorTree *t, guint32 v)
{
  return tm_dominator_tree_idom_node (t, v);
}

/* The Lengauer-Tarjan paper's example (R=0, A..L = 1..12). */
static void
test_lt_example (void)
{
  enum { R, A, B, C, D, E, F, G, H, I, J, K, L, N };
  static const guint32 edges[][2] = {
    {R, A}, {R, B}, {R, C}, {A, D}, {B, A}, {B, D}, {B, E}, {C, F}, {C, G},
    {D, L}, {E, H}, {F, I}, {G, I}, {G, J}, {H, E}, {H, K}, {I, K}, {J, I},
    {K, I}, {K, R}, {L, H},
  };
  static const guint32 expected[N] = {
    [A] = R, [B] = R, [C] = R, [D] = R, [E] = R, [F] = C, [G] = C,
    [H] = R, [I] = R, [J] = G, [K] = R, [L] = D,
  };
  guint32 root = R;
  guint32 sizes[N];
  TmObjectSizes os = { NULL, sizes };
  g_autoptr(GError) error = NULL;
  TmHeapGraph *g;
  TmDominatorTree *t;

  for (guint i = 0; i < N; i++)
    sizes[i] = 10 + i;
  g = graph_from_pairs (N, edges, G_N_ELEMENTS (edges), &root, 1);
  t = tm_dominator_tree_new (g, &os, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->n_reachable, ==, N);
  g_assert_cmpuint (idom_of (t, R), ==, G_MAXUINT32);
  for (guint v = A; v < N; v++)
    g_assert_cmpuint (idom_of (t, v), ==, expected[v]);
  /* C dominates C, F, G, J */
  g_assert_cmpuint (t->size[t->position[C]], ==, 4);
  g_assert_cmpuint (t->retained_bytes[t->position[C]], ==, sizes[C] + sizes[F] + sizes[G] + sizes[J]);
  g_assert_true (tm_dominator_tree_dominates (t, C, J));
  g_assert_false (tm_dominator_tree_dominates (t, C, I));
  {
    g_autoptr(GArray) chain = tm_dominator_tree_chain (t, J);
    g_assert_cmpuint (chain->len, ==, 4);
    g_assert_cmpuint (g_array_index (chain, guint32, 0), ==, J);
    g_assert_cmpuint (g_array_index (chain, guint32, 1), ==, G);
    g_assert_cmpuint (g_array_index (chain, guint32, 2), ==, C);
    g_assert_cmpuint (g_array_index (chain, guint32, 3), ==, R);
  }
  tm_dominator_tree_free (t);
  tm_heap_graph_free (g);
}

/* Two roots sharing a child: only the super-root dominates it; an
 * unreachable node has no place in the tree. */
static void
test_shared_and_unreachable (void)
{
  static const guint32 edges[][2] = { {0, 2}, {1, 2}, {2, 3}, {4, 3} };
  guint32 roots[] = { 0, 1 };
  guint32 sizes[] = { 1, 2, 4, 8, 16 };
  TmObjectSizes os = { NULL, sizes };
  TmHeapGraph *g = graph_from_pairs (5, edges, G_N_ELEMENTS (edges), roots, 2);
  TmDominatorTree *t = tm_dominator_tree_new (g, &os, NULL, NULL, NULL, NULL);

  g_assert_nonnull (t);
  g_assert_cmpuint (t->n_reachable, ==, 4);
  g_assert_cmpuint (idom_of (t, 2), ==, G_MAXUINT32);
  g_assert_cmpuint (t->position[2], !=, 0);
  g_assert_cmpuint (idom_of (t, 3), ==, 2);
  g_assert_cmpuint (t->position[4], ==, 0);
  g_assert_cmpuint (t->retained_bytes[t->position[0]], ==, 1);
  g_assert_cmpuint (t->retained_bytes[t->position[2]], ==, 12);
  g_assert_cmpuint (t->retained_bytes[0], ==, 15);   /* super-root: all reachable */
  tm_dominator_tree_free (t);
  tm_heap_graph_free (g);
}

static void
check_against_brute_force (const TmHeapGraph *g, const guint32 *sizes)
{
  TmObjectSizes os = { NULL, sizes };
  g_autoptr(GError) error = NULL;
  TmDominatorTree *t = tm_dominator_tree_new (g, &os, NULL, NULL, NULL, &error);
  g_autofree guint8 *reach = test_reach (g, NULL);
  g_autofree guint8 *removed = g_new0 (guint8, MAX (g->n_nodes, 1));
  guint32 n = g->n_nodes, n_reach = 0;

  g_assert_no_error (error);
  for (guint32 v = 0; v < n; v++)
    {
      n_reach += reach[v];
      g_assert_cmpint (reach[v], ==, t->position[v] != 0);
    }
  g_assert_cmpuint (t->n_reachable, ==, n_reach);

  for (guint32 d = 0; d < n; d++)
    {
      g_autofree guint8 *without = NULL;
      guint64 ret_bytes = 0, ret_objs = 0;

      if (!reach[d])
        continue;
      removed[d] = 1;
      without = test_reach (g, removed);
      removed[d] = 0;
      for (guint32 v = 0; v < n; v++)
        {
          gboolean dom = reach[v] && (v == d || !without[v]);
          g_assert_cmpint (tm_dominator_tree_dominates (t, d, v), ==, dom);
          if (dom)
            {
              ret_objs++;
              ret_bytes += sizes[v];
            }
        }
      g_assert_cmpuint (t->size[t->position[d]], ==, ret_objs);
      g_assert_cmpuint (t->retained_bytes[t->position[d]], ==, ret_bytes);
      /* idom is a strict dominator that every other strict dominator dominates */
      {
        guint32 i = idom_of (t, d);
        if (i != G_MAXUINT32)
          {
            g_assert_true (tm_dominator_tree_dominates (t, i, d));
            g_assert_cmpuint (i, !=, d);
          }
      }
    }
  tm_dominator_tree_free (t);
}

static void
test_random_oracle (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261121);

  for (guint round = 0; round < 200; round++)
    {
      guint32 n = g_rand_int_range (rand, 1, 501);
      double share = g_rand_double_range (rand, 0.0, 1.5);
      TestGraphSpec spec = test_graph_random (rand, n, share);
      g_autofree guint32 *objs = identity (n);
      g_autofree guint32 *sizes = g_new (guint32, n);
      TmHeapGraph *g = test_graph_build (&spec, 1, objs);

      for (guint32 i = 0; i < n; i++)
        sizes[i] = g_rand_int_range (rand, 16, 200);
      /* every other graph with 64-bit edge offsets, as graphs of 2^32
       * edges or more are built */
      if (round % 2 == 1)
        tm_heap_graph_widen (g);
      g_assert_true ((g->edge_start == NULL) == (round % 2 == 1));
      check_against_brute_force (g, sizes);
      tm_heap_graph_free (g);
      test_graph_spec_clear (&spec);
    }
}

/* A 300,000-long linked list with a back reference: the DFS and the path
 * compression must not recurse. */
static void
test_long_chain (void)
{
  guint32 n = 300000;
  g_autofree guint32 *objs = identity (n);
  g_autofree guint32 *src = g_new (guint32, n);
  g_autofree guint32 *dst = g_new (guint32, n);
  g_autofree guint32 *sizes = g_new (guint32, n);
  guint32 root = 0;
  TmObjectSizes os = { NULL, sizes };
  TmHeapGraph *g;
  TmDominatorTree *t;

  for (guint32 i = 0; i + 1 < n; i++)
    {
      src[i] = i;
      dst[i] = i + 1;
      sizes[i] = 1;
    }
  sizes[n - 1] = 1;
  src[n - 1] = n - 1;   /* tail points back to the middle */
  dst[n - 1] = n / 2;
  g = tm_heap_graph_new (1, objs, n, src, dst, n, &root, NULL, 1);
  t = tm_dominator_tree_new (g, &os, NULL, NULL, NULL, NULL);
  g_assert_nonnull (t);
  g_assert_cmpuint (t->size[t->position[0]], ==, n);
  g_assert_cmpuint (t->size[t->position[n / 2]], ==, n - n / 2);
  g_assert_cmpuint (idom_of (t, n - 1), ==, n - 2);
  tm_dominator_tree_free (t);
  tm_heap_graph_free (g);
}

static void
test_cancel (void)
{
  guint32 n = 1000;
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  TestGraphSpec spec = test_graph_random (rand, n, 0.5);
  g_autofree guint32 *objs = identity (n);
  g_autofree guint32 *sizes = g_new0 (guint32, n);
  TmObjectSizes os = { NULL, sizes };
  g_autoptr(GCancellable) c = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  TmHeapGraph *g = test_graph_build (&spec, 1, objs);

  g_cancellable_cancel (c);
  g_assert_null (tm_dominator_tree_new (g, &os, NULL, NULL, c, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  tm_heap_graph_free (g);
  test_graph_spec_clear (&spec);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dominators/lengauer-tarjan-example", test_lt_example);
  g_test_add_func ("/dominators/shared-and-unreachable", test_shared_and_unreachable);
  g_test_add_func ("/dominators/random-oracle", test_random_oracle);
  g_test_add_func ("/dominators/long-chain", test_long_chain);
  g_test_add_func ("/dominators/cancel", test_cancel);
  return g_test_run ();
}
