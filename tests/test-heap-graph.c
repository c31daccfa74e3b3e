/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tidemark.h"

static void
test_build_and_mark (void)
{
  /* objects 0..5; 0 -> 1 -> 2 -> 0 (cycle), 3 -> 4; root 0; 5 isolated;
   * an edge to object 9 (not in the heap) is dropped */
  guint32 objects[] = { 0, 1, 2, 3, 4, 5 };
  guint32 src[] = { 0, 1, 2, 3, 1 };
  guint32 dst[] = { 1, 2, 0, 4, 9 };
  guint32 roots[] = { 0 };
  guint8 kinds[] = { TM_ROOT_KIND_STATIC };
  g_autoptr(TmHeapGraph) g = tm_heap_graph_new (3, objects, 6, src, dst, 5, roots, kinds, 1);
  g_autofree guint64 *bits = NULL;
  guint64 marked;
  guint32 node;

  g_assert_cmpuint (g->n_nodes, ==, 6);
  g_assert_cmpuint (g->n_edges, ==, 4);
  g_assert_cmpuint (g->dropped_edges, ==, 1);
  bits = tm_heap_graph_mark (g, &marked);
  g_assert_cmpuint (marked, ==, 3);
  g_assert_true (tm_bitmap_get (bits, 2));
  g_assert_false (tm_bitmap_get (bits, 3));
  g_assert_false (tm_bitmap_get (bits, 5));
  g_assert_true (tm_heap_graph_node_for_object (g, 4, &node));
  g_assert_cmpuint (node, ==, 4);
  g_assert_false (tm_heap_graph_node_for_object (g, 9, &node));
}

static void
test_sparse_objects (void)
{
  /* node numbers are compact even when object indices are not */
  guint32 objects[] = { 10, 20, 30 };
  guint32 src[] = { 10, 20 };
  guint32 dst[] = { 30, 10 };
  guint32 roots[] = { 20 };
  g_autoptr(TmHeapGraph) g = tm_heap_graph_new (1, objects, 3, src, dst, 2, roots, NULL, 1);
  guint64 marked;
  g_autofree guint64 *bits = tm_heap_graph_mark (g, &marked);

  g_assert_cmpuint (marked, ==, 3);
  g_assert_cmpuint (g->edges[tm_heap_graph_edge_begin (g, 1)], ==, 0);
  g_assert_cmpuint (g->root_node[0], ==, 1);
}

/* The 64-bit form (graphs of 2^32 edges or more) holds the same edges. */
static void
test_widen (void)
{
  guint32 objects[] = { 0, 1, 2, 3, 4, 5 };
  guint32 src[] = { 3, 0, 1, 2, 3, 1 };
  guint32 dst[] = { 5, 1, 2, 0, 4, 3 };
  guint32 labels[] = { 7, 1, 2, 3, 4, 0x80000000u | 9 }  /* the last: array element 9 */;
  g_autoptr(TmHeapGraph) g = tm_heap_graph_new_from_nodes (1, g_memdup2 (objects, sizeof objects), 6, src, dst,
                                                           labels, 6);
  guint64 begin[7];
  guint64 marked;
  g_autofree char *label = NULL;
  g_autofree guint64 *bits = NULL;

  g_assert_nonnull (g->edge_start);
  g_assert_null (g->edge_start_wide);
  for (guint32 v = 0; v <= 6; v++)
    begin[v] = g->edge_start[v];
  g_assert_cmpuint (begin[1], ==, 1);   /* node 0: one edge, to 1 */
  g_assert_cmpuint (begin[2], ==, 3);   /* node 1: to 2 and to 3 */
  g_assert_cmpuint (begin[6], ==, 6);
  g_assert_cmpuint (g->edges[begin[3]], ==, 5);   /* node 3's first: 5, as given */
  tm_heap_graph_widen (g);
  g_assert_null (g->edge_start);
  for (guint32 v = 0; v < 6; v++)
    {
      g_assert_cmpuint (tm_heap_graph_edge_begin (g, v), ==, begin[v]);
      g_assert_cmpuint (tm_heap_graph_edge_end (g, v), ==, begin[v + 1]);
    }
  label = tm_heap_graph_edge_label (g, 1, 3);
  g_assert_cmpstr (label, ==, "[9]");
  g->root_node = g_new (guint32, 1);
  g->root_kind = g_new0 (guint8, 1);
  g->root_node[0] = 0;
  g->n_roots = 1;
  bits = tm_heap_graph_mark (g, &marked);
  g_assert_cmpuint (marked, ==, 6);
}

/* Edge names in 16 bits: array element indices by their low bits after
 * the element before, everything that does not fit as an escape. */
static void
test_edge_labels (void)
{
  enum { E = 0x80000000u };
  static const guint32 src[] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2 };
  static const guint32 label[] = {
    E | 0, E | 1, E | 5, E | 40000, E | 40001, E | 98303, E | 98304, E | 0x7fffffff,   /* an array */
    3, 0x7ffe, 0x7fff, 100000,                                                         /* fields */
    E | 10, E | 5,                                                                     /* out of order */
  };
  guint32 dst[G_N_ELEMENTS (src)], objects[20];
  g_autoptr(TmHeapGraph) g = NULL;
  guint escapes = 0;

  for (guint32 i = 0; i < 20; i++)
    objects[i] = i;
  for (guint i = 0; i < G_N_ELEMENTS (src); i++)
    dst[i] = 3 + i;
  g = tm_heap_graph_new_from_nodes (1, g_memdup2 (objects, sizeof objects), 20, src, dst, label, G_N_ELEMENTS (src));
  for (guint i = 0; i < G_N_ELEMENTS (src); i++)
    {
      g_autofree char *name = tm_heap_graph_edge_label (g, src[i], dst[i]);
      g_autofree char *want = g_strdup_printf ("[%u]", label[i] & ~E);
      guint16 code = g->edge_label[i];

      escapes += code == TM_EDGE_ESCAPE_FIELD || code == TM_EDGE_ESCAPE_ELEMENT;
      if (label[i] & E)
        {
          g_assert_cmpstr (name, ==, want);
          g_assert_cmpuint (tm_heap_graph_edge_field (g, i), ==, E);
        }
      else
        {
          g_assert_null (name);   /* the graph has no label strings */
          g_assert_cmpuint (tm_heap_graph_edge_field (g, i), ==, label[i]);
        }
    }
  /* 40000 (a gap past 2^15), 98303 (low bits 0x7fff), 2^31 - 1, the
   * fields 0x7fff and 100000, and 5 after 10 */
  g_assert_cmpuint (escapes, ==, 6);
  g_assert_cmpuint (g->label_escapes->len, ==, 6);
  g_assert_cmpuint (g->edge_label[1], ==, 0x8001);
  g_assert_cmpuint (g->edge_label[9], ==, 0x7ffe);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/heap-graph/build-and-mark", test_build_and_mark);
  g_test_add_func ("/heap-graph/sparse-objects", test_sparse_objects);
  g_test_add_func ("/heap-graph/widen", test_widen);
  g_test_add_func ("/heap-graph/edge-labels", test_edge_labels);
  return g_test_run ();
}
