/* SPDX-License-Identifier: GPL-3.0-or-later
 * Data structure detection on hand-built heaps: one heap per rule of
 * ds-dsl.md with the exact expected members, the data-structure view,
 * closures, the three classifiers, and invariants on random heaps. */
#include "tm-ds-detect.h"
#include "tm-ds-classify.h"
#include "tm-heap-graph.h"
#include "tm-error.h"

#include <string.h>

typedef struct {
  TmDsl       *dsl;
  TmDsTypes   *types;
  TmHeapGraph *graph;
  guint32     *obj_type;
  guint32     *obj_size;
  TmDsResult  *r;
} Heap;

/* Objects are numbered 0..n-1 (= graph nodes); obj_types index `names`;
 * each object's size is 16 + 8 * its number, so byte sums identify sets. */
static Heap *
heap_new (const char         *dsl_text,
          const char * const *names,
          const guint32      *obj_types,
          guint32             n_objects,
          const guint32      *edges,     /* pairs */
          guint32             n_edges,
          guint32             root)
{
  Heap *h = g_new0 (Heap, 1);
  g_autofree guint32 *objects = g_new (guint32, n_objects);
  g_autofree guint32 *src = g_new (guint32, MAX (n_edges, 1));
  g_autofree guint32 *dst = g_new (guint32, MAX (n_edges, 1));
  g_autoptr(GError) error = NULL;
  guint8 kind = 1;
  TmDsHeap dh;

  h->dsl = tm_dsl_new ();
  g_assert_true (tm_dsl_add_string (h->dsl, "test.ds", dsl_text, -1, &error));
  g_assert_no_error (error);
  h->types = tm_ds_types_new (h->dsl, names, NULL, g_strv_length ((char **) names));
  h->obj_type = g_memdup2 (obj_types, sizeof (guint32) * n_objects);
  h->obj_size = g_new (guint32, n_objects);
  for (guint32 i = 0; i < n_objects; i++)
    {
      objects[i] = i;
      h->obj_size[i] = 16 + 8 * i;
    }
  for (guint32 e = 0; e < n_edges; e++)
    {
      src[e] = edges[2 * e];
      dst[e] = edges[2 * e + 1];
    }
  h->graph = tm_heap_graph_new (1, objects, n_objects, src, dst, n_edges, &root, &kind, 1);
  dh.graph = h->graph;
  dh.obj_type = h->obj_type;
  dh.sizes.trace = NULL;
  dh.sizes.obj_size = h->obj_size;
  h->r = tm_ds_detect (h->types, &dh, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (h->r);
  return h;
}

static void
heap_free (Heap *h)
{
  tm_ds_result_free (h->r);
  tm_heap_graph_free (h->graph);
  tm_ds_types_free (h->types);
  tm_dsl_free (h->dsl);
  g_free (h->obj_type);
  g_free (h->obj_size);
  g_free (h);
}

/* "0H 1I 2L 3N": the members of structure s with their kinds, sorted by node */
static char *
members_string (const TmDsResult *r, guint32 s)
{
  static const char kind_char[] = "HILN";
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint64));
  GString *out = g_string_new (NULL);

  for (guint64 m = r->member_start[s]; m < r->member_start[s + 1]; m++)
    {
      guint64 p = ((guint64) r->members[m] << 8) | r->member_kind[m];
      g_array_append_val (pairs, p);
    }
  for (guint i = 0; i < pairs->len; i++)
    for (guint j = i + 1; j < pairs->len; j++)
      if (g_array_index (pairs, guint64, j) < g_array_index (pairs, guint64, i))
        {
          guint64 t = g_array_index (pairs, guint64, i);
          g_array_index (pairs, guint64, i) = g_array_index (pairs, guint64, j);
          g_array_index (pairs, guint64, j) = t;
        }
  for (guint i = 0; i < pairs->len; i++)
    {
      guint64 p = g_array_index (pairs, guint64, i);
      g_string_append_printf (out, "%s%u%c", i ? " " : "", (guint) (p >> 8), kind_char[p & 0xff]);
    }
  return g_string_free (out, FALSE);
}

static char *
nodes_string (GArray *nodes)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < nodes->len; i++)
    for (guint j = i + 1; j < nodes->len; j++)
      if (g_array_index (nodes, guint32, j) < g_array_index (nodes, guint32, i))
        {
          guint32 t = g_array_index (nodes, guint32, i);
          g_array_index (nodes, guint32, i) = g_array_index (nodes, guint32, j);
          g_array_index (nodes, guint32, j) = t;
        }
  for (guint i = 0; i < nodes->len; i++)
    g_string_append_printf (out, "%s%u", i ? " " : "", g_array_index (nodes, guint32, i));
  return g_string_free (out, FALSE);
}

static void
assert_members (const TmDsResult *r, guint32 head_node, const char *expected)
{
  guint32 s = tm_ds_result_find_head (r, head_node);
  g_autofree char *got = NULL;

  g_assert_cmpuint (s, !=, TM_DS_NONE);
  got = members_string (r, s);
  g_assert_cmpstr (got, ==, expected);
}

static guint64
bytes_of (const char *list)
{
  g_auto(GStrv) parts = g_strsplit (list, " ", -1);
  guint64 sum = 0;

  for (char **p = parts; *p != NULL; p++)
    if (**p != '\0')
      sum += 16 + 8 * g_ascii_strtoull (*p, NULL, 10);
  return sum;
}

/* Rule 1: a head among the pointed-to types is a nested structure: a
 * leaf of the outer one, its insides are not the outer's members. */
static void
test_rule1_nested (void)
{
  const char *dsl =
    "namespace a {\n"
    "  DS Outer { Inner; (*); }\n"
    "  DS Inner { Node; }\n"
    "  Node { Node; (*); }\n"
    "}\n";
  const char *names[] = { "a.Root", "a.Outer", "a.Inner", "a.Node", "a.Elem", NULL };
  /*          0  1  2  3  4  5 */
  guint32 t[] = { 0, 1, 2, 3, 3, 4 };
  guint32 e[] = { 0, 1,  1, 2,  2, 3,  3, 4,  4, 5,  1, 5 };
  Heap *h = heap_new (dsl, names, t, 6, e, 6, 0);
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *s = NULL;
  guint32 outer, inner;
  TmDsSize size;

  g_assert_cmpuint (h->r->n_structures, ==, 2);
  assert_members (h->r, 1, "1H 2N 5L");
  assert_members (h->r, 2, "2H 3I 4I 5L");
  outer = tm_ds_result_find_head (h->r, 1);
  inner = tm_ds_result_find_head (h->r, 2);
  g_assert_cmpuint (tm_ds_result_find_head (h->r, 3), ==, TM_DS_NONE);

  /* the view hides the contained structure */
  g_assert_cmpuint (h->r->n_top_level, ==, 1);
  g_assert_true (h->r->top_level[outer]);
  g_assert_false (h->r->top_level[inner]);

  /* sizes: ds closure, deep ds closure (Elem once), deep closure */
  g_assert_cmpuint (h->r->ds_size[outer].objects, ==, 3);
  g_assert_cmpuint (h->r->ds_size[outer].bytes, ==, bytes_of ("1 2 5"));
  size = tm_ds_result_deep_ds (h->r, outer, nodes);
  g_assert_cmpuint (size.objects, ==, 5);
  g_assert_cmpuint (size.bytes, ==, bytes_of ("1 2 3 4 5"));
  s = nodes_string (nodes);
  g_assert_cmpstr (s, ==, "1 2 3 4 5");
  size = tm_ds_result_deep (h->r, outer, NULL);
  g_assert_cmpuint (size.objects, ==, 5);

  /* classifiers */
  g_array_set_size (nodes, 0);
  tm_ds_result_leaves (h->r, outer, nodes);
  g_clear_pointer (&s, g_free);
  s = nodes_string (nodes);
  g_assert_cmpstr (s, ==, "2 5");
  g_array_set_size (nodes, 0);
  tm_ds_result_deep_leaves (h->r, outer, nodes);
  g_clear_pointer (&s, g_free);
  s = nodes_string (nodes);
  g_assert_cmpstr (s, ==, "5");
  g_array_set_size (nodes, 0);
  tm_ds_result_containing (h->r, 5, nodes);
  g_assert_cmpuint (nodes->len, ==, 2);
  g_assert_cmpuint (g_array_index (nodes, guint32, 0), ==, outer);
  g_assert_cmpuint (g_array_index (nodes, guint32, 1), ==, inner);
  g_array_set_size (nodes, 0);
  tm_ds_result_containing (h->r, 1, nodes);   /* a head is not its own member */
  g_assert_cmpuint (nodes->len, ==, 0);
  tm_ds_result_containing (h->r, 0, nodes);
  g_assert_cmpuint (nodes->len, ==, 0);
  heap_free (h);
}

/* The classification level of leaves / deep-leaves / containing-ds on the
 * heap of test_rule1_nested. */
static char *
pairs_string (GArray *keys, GArray *items)
{
  GString *out = g_string_new (NULL);

  g_assert_cmpuint (keys->len, ==, items->len);
  for (guint i = 0; i < keys->len; i++)
    g_string_append_printf (out, "%s%u:%u", i ? " " : "", g_array_index (keys, guint32, i),
                            g_array_index (items, guint32, i));
  return g_string_free (out, FALSE);
}

static void
test_classifiers (void)
{
  const char *dsl = "namespace a { DS Outer { Inner; (*); } DS Inner { Node; } Node { Node; (*); } }";
  const char *names[] = { "a.Root", "a.Outer", "a.Inner", "a.Node", "a.Elem", NULL };
  guint32 t[] = { 0, 1, 2, 3, 3, 4 };
  guint32 e[] = { 0, 1,  1, 2,  2, 3,  3, 4,  4, 5,  1, 5 };
  guint32 all[] = { 0, 1, 2, 3, 4, 5, 1 };
  Heap *h = heap_new (dsl, names, t, 6, e, 6, 0);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (guint32));
  char *s;

  /* structure 0 is Outer (head 1), 1 is Inner (head 2); 2 means none */
  g_assert_cmpuint (tm_ds_classifier_domain (h->r), ==, 3);
  tm_ds_classify (h->r, TM_DS_CLASSIFIER_LEAVES, all, 7, keys, items);
  s = pairs_string (keys, items);
  g_assert_cmpstr (s, ==, "0:2 0:5 1:5 0:2 0:5");
  g_free (s);

  g_array_set_size (keys, 0);
  g_array_set_size (items, 0);
  tm_ds_classify (h->r, TM_DS_CLASSIFIER_DEEP_LEAVES, all, 6, keys, items);
  s = pairs_string (keys, items);
  g_assert_cmpstr (s, ==, "0:5 1:5");
  g_free (s);

  g_array_set_size (keys, 0);
  g_array_set_size (items, 0);
  tm_ds_classify (h->r, TM_DS_CLASSIFIER_CONTAINING_DS, all, 6, keys, items);
  s = pairs_string (keys, items);
  g_assert_cmpstr (s, ==, "2:0 2:1 0:2 1:3 1:4 0:5 1:5");
  g_free (s);

  heap_free (h);
}

/* Rule 2 continues the descent, rule 3 stops it even where the leaf's type
 * has pointees, rule 4 excludes (and what is behind it stays out). */
static void
test_rules_2_3_4 (void)
{
  const char *dsl =
    "namespace a {\n"
    "  DS List { Node; }\n"
    "  Node { Node; (Data); }\n"
    "  Data { Part; }\n"
    "}\n";
  const char *names[] = { "a.Root", "a.List", "a.Node", "a.Data", "a.Part", "a.Other", NULL };
  /* 0 Root, 1 List, 2 Node, 3 Node, 4 Data, 5 Part, 6 Other, 7 Node (behind Other), 8 Data */
  guint32 t[] = { 0, 1, 2, 2, 3, 4, 5, 2, 3 };
  guint32 e[] = {
    0, 1,  1, 2,  2, 3,  3, 2,   /* a cycle of nodes */
    2, 4,  4, 5,                 /* Data is a leaf: Part is not reached */
    3, 6,  6, 7,                 /* Other is no pointee of Node: neither it nor what is behind */
    3, 8,  1, 8,                 /* List does not point to Data: only via Node */
  };
  Heap *h = heap_new (dsl, names, t, 9, e, G_N_ELEMENTS (e) / 2, 0);

  g_assert_cmpuint (h->r->n_structures, ==, 1);
  assert_members (h->r, 1, "1H 2I 3I 4L 8L");
  g_assert_cmpuint (h->r->ds_size[0].bytes, ==, bytes_of ("1 2 3 4 8"));
  g_assert_cmpuint (tm_ds_result_deep (h->r, 0, NULL).objects, ==, 8);
  heap_free (h);
}

/* Precedence when several entries match: internal beats leaf, a head is
 * always nested; "*" alone and wildcards; an object met twice is one
 * member (visited once). */
static void
test_precedence_and_wildcards (void)
{
  const char *dsl =
    "namespace b {\n"
    "  DS Map { *Node; (*); }\n"      /* *Node internal, everything else leaf */
    "  TreeNode { (*); }\n"
    "  HashNode { HashNode; (*); }\n"
    "  DS Set { Map; }\n"
    "}\n";
  const char *names[] = { "b.Root", "b.Map", "b.TreeNode", "b.HashNode", "b.Elem", "b.Set", "b.Box", NULL };
  /* 0 Root, 1 Map, 2 TreeNode, 3 HashNode, 4 HashNode, 5 Elem, 6 Map (nested, via "*" too),
   * 7 Box, 8 Set, 9 Elem */
  guint32 t[] = { 0, 1, 2, 3, 3, 4, 1, 6, 5, 4 };
  guint32 e[] = {
    0, 1,  0, 8,
    1, 2,  1, 3,  1, 5,  1, 6,  1, 7,
    2, 5,  3, 4,  4, 3,  4, 5,  4, 9,  3, 9,
    7, 9,                  /* Box is a leaf (from "*"): not descended */
    8, 6,                  /* Set contains the inner Map */
  };
  Heap *h = heap_new (dsl, names, t, 10, e, G_N_ELEMENTS (e) / 2, 0);
  guint32 outer = tm_ds_result_find_head (h->r, 1);
  guint32 inner = tm_ds_result_find_head (h->r, 6);
  guint32 set = tm_ds_result_find_head (h->r, 8);

  g_assert_cmpuint (h->r->n_structures, ==, 3);
  /* TreeNode has pointees ("*" leaf) so it is internal; 5 is met three
   * times and 9 twice: each once */
  assert_members (h->r, 1, "1H 2I 3I 4I 5L 6N 7L 9L");
  assert_members (h->r, 6, "6H");
  assert_members (h->r, 8, "6N 8H");
  /* the inner map is contained in both the outer map and the set */
  g_assert_true (h->r->top_level[outer]);
  g_assert_true (h->r->top_level[set]);
  g_assert_false (h->r->top_level[inner]);
  g_assert_cmpuint (h->r->n_top_level, ==, 2);
  {
    g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (guint32));
    g_autofree char *s = NULL;

    tm_ds_result_view_heads (h->r, heads);
    s = nodes_string (heads);
    g_assert_cmpstr (s, ==, "1 8");
  }
  heap_free (h);
}

/* Undescribed arrays of references point to every type: their elements
 * belong (leaves when their type has no pointees), described elements
 * continue, heads are nested. Primitive arrays point nowhere. */
static void
test_reference_arrays (void)
{
  const char *dsl =
    "DS c.List { java.lang.Object[]; int[]; }\n"
    "c.Node { (*); }\n"
    "DS c.Map { }\n";
  const char *names[] = { "c.Root", "c.List", "java.lang.Object[]", "c.Elem", "c.Node", "c.Map", "int[]",
                          "c.Elem[]", NULL };
  /* 0 Root, 1 List, 2 Object[], 3 Elem, 4 Node, 5 Elem, 6 Map, 7 int[], 8 Elem[], 9 Elem */
  guint32 t[] = { 0, 1, 2, 3, 4, 3, 5, 6, 7, 3 };
  guint32 e[] = {
    0, 1,  1, 2,  1, 7,
    2, 3,  2, 4,  2, 6,  2, 8,
    4, 5,  8, 9,
  };
  Heap *h = heap_new (dsl, names, t, 10, e, G_N_ELEMENTS (e) / 2, 0);

  g_assert_cmpuint (h->r->n_structures, ==, 2);
  assert_members (h->r, 1, "1H 2I 3L 4I 5L 6N 7L 8I 9L");
  assert_members (h->r, 6, "6H");
  g_assert_true (tm_ds_types_has_pointees (h->types, 2));
  g_assert_false (tm_ds_types_has_pointees (h->types, 6));
  g_assert_cmpint (tm_ds_types_pointee (h->types, 2, 0), ==, TM_DS_POINTEE_INTERNAL);
  g_assert_cmpint (tm_ds_types_pointee (h->types, 4, 3), ==, TM_DS_POINTEE_LEAF);
  g_assert_cmpint (tm_ds_types_pointee (h->types, 3, 4), ==, TM_DS_POINTEE_NONE);
  heap_free (h);
}

/* Structures that contain each other: one of them stays in the view. */
static void
test_view_cycle (void)
{
  const char *dsl = "DS d.A { d.B; (*); }\nDS d.B { d.A; }\n";
  const char *names[] = { "d.Root", "d.A", "d.B", "d.X", NULL };
  guint32 t[] = { 0, 1, 2, 3 };
  guint32 e[] = { 0, 1,  1, 2,  2, 1,  1, 3 };
  Heap *h = heap_new (dsl, names, t, 4, e, 4, 0);
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *s = NULL;

  assert_members (h->r, 1, "1H 2N 3L");
  assert_members (h->r, 2, "1N 2H");
  g_assert_cmpuint (h->r->n_top_level, ==, 1);
  g_assert_true (h->r->top_level[0]);
  g_assert_cmpuint (tm_ds_result_deep_ds (h->r, 1, nodes).objects, ==, 3);
  s = nodes_string (nodes);
  g_assert_cmpstr (s, ==, "1 2 3");
  heap_free (h);
}

/* Invariants on random heaps with a random description set:
 *  - a structure's members are distinct and start with its head;
 *  - closed: from the head and every INTERNAL member, each reference whose
 *    target type is a pointee leads to a member;
 *  - justified: every other member is referenced by the head or an
 *    INTERNAL member whose pointees include its type, with the right kind;
 *  - every head-typed object starts exactly one structure. */
static void
test_random_invariants (void)
{
  const char *names[] = { "r.T0", "r.T1", "r.T2", "r.T3", "r.T4", "r.T5", "java.lang.Object[]", NULL };
  const guint n_types = 7;
  GRand *rand = g_rand_new_with_seed (11);

  for (guint round = 0; round < 200; round++)
    {
      GString *dsl = g_string_new (NULL);
      guint32 n = g_rand_int_range (rand, 1, 120);
      guint32 n_edges = g_rand_int_range (rand, 0, 4 * n);
      g_autofree guint32 *t = g_new (guint32, n);
      g_autofree guint32 *e = g_new (guint32, 2 * MAX (n_edges, 1));
      g_autofree guint8 *is_member = g_new0 (guint8, n);
      Heap *h;

      for (guint i = 0; i < 6; i++)
        {
          if (g_rand_boolean (rand))
            continue;
          g_string_append_printf (dsl, "%sr.T%u {", g_rand_int_range (rand, 0, 3) == 0 ? "DS " : "", i);
          for (guint j = 0; j < n_types; j++)
            switch (g_rand_int_range (rand, 0, 4))
              {
              case 0: g_string_append_printf (dsl, " %s;", names[j]); break;
              case 1: g_string_append_printf (dsl, " (%s);", names[j]); break;
              default: break;
              }
          if (g_rand_int_range (rand, 0, 5) == 0)
            g_string_append (dsl, " (*);");
          g_string_append (dsl, " }\n");
        }
      for (guint32 i = 0; i < n; i++)
        t[i] = g_rand_int_range (rand, 0, n_types);
      for (guint32 k = 0; k < n_edges; k++)
        {
          e[2 * k] = g_rand_int_range (rand, 0, n);
          e[2 * k + 1] = g_rand_int_range (rand, 0, n);
        }
      h = heap_new (dsl->str, names, t, n, e, n_edges, 0);

      {
        guint32 heads = 0;
        for (guint32 i = 0; i < n; i++)
          heads += tm_ds_types_is_head (h->types, t[i]);
        g_assert_cmpuint (heads, ==, h->r->n_structures);
      }
      for (guint32 s = 0; s < h->r->n_structures; s++)
        {
          const TmDsResult *r = h->r;
          const TmHeapGraph *g = h->graph;
          guint64 first = r->member_start[s], last = r->member_start[s + 1];

          g_assert_cmpuint (r->members[first], ==, r->head[s]);
          g_assert_cmpint (r->member_kind[first], ==, TM_DS_MEMBER_HEAD);
          memset (is_member, 0, n);
          for (guint64 m = first; m < last; m++)
            {
              g_assert_false (is_member[r->members[m]]);
              is_member[r->members[m]] = 1 + r->member_kind[m];
            }
          for (guint64 m = first; m < last; m++)
            {
              guint32 u = r->members[m];
              guint8 kind = r->member_kind[m];
              gboolean justified = (kind == TM_DS_MEMBER_HEAD);

              if (kind == TM_DS_MEMBER_HEAD || kind == TM_DS_MEMBER_INTERNAL)
                for (guint64 x = tm_heap_graph_edge_begin (g, u), x_end = tm_heap_graph_edge_end (g, u); x < x_end; x++)
                  if (tm_ds_types_pointee (h->types, t[u], t[g->edges[x]]) != TM_DS_POINTEE_NONE)
                    g_assert_true (is_member[g->edges[x]]);

              for (guint32 w = 0; w < n && !justified; w++)
                {
                  guint8 wk = is_member[w];
                  if (wk != 1 + TM_DS_MEMBER_HEAD && wk != 1 + TM_DS_MEMBER_INTERNAL)
                    continue;
                  for (guint64 x = tm_heap_graph_edge_begin (g, w), x_end = tm_heap_graph_edge_end (g, w); x < x_end && !justified; x++)
                    {
                      TmDsPointeeKind pk;
                      if (g->edges[x] != u)
                        continue;
                      pk = tm_ds_types_pointee (h->types, t[w], t[u]);
                      if (pk == TM_DS_POINTEE_NONE)
                        continue;
                      if (tm_ds_types_is_head (h->types, t[u]))
                        justified = kind == TM_DS_MEMBER_NESTED;
                      else if (pk == TM_DS_POINTEE_INTERNAL && tm_ds_types_has_pointees (h->types, t[u]))
                        justified = kind == TM_DS_MEMBER_INTERNAL;
                      else if (pk == TM_DS_POINTEE_LEAF || !tm_ds_types_has_pointees (h->types, t[u]))
                        /* first reach decides: a leaf here may be internal from another member */
                        justified = kind == TM_DS_MEMBER_LEAF || kind == TM_DS_MEMBER_INTERNAL;
                    }
                }
              g_assert_true (justified);
            }
        }
      heap_free (h);
      g_string_free (dsl, TRUE);
    }
  g_rand_free (rand);
}

/* Deep closures stop at java.lang.Class: a value's class and the statics
 * behind it are not what the structure holds. */
static void
test_deep_class_barrier (void)
{
  const char *dsl = "DS e.Map { (*); }\n";
  const char *names[] = { "e.Root", "e.Map", "e.Val", "java.lang.Class", "e.Static", NULL };
  /* 0 Root, 1 Map, 2 Val, 3 Class, 4 Static (e.g. a leaking cache), 5 Val */
  guint32 t[] = { 0, 1, 2, 3, 4, 2 };
  guint32 e[] = { 0, 1,  1, 2,  2, 3,  1, 3,  3, 4,  2, 5 };
  Heap *h = heap_new (dsl, names, t, 6, e, G_N_ELEMENTS (e) / 2, 0);
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *s = NULL;
  TmDsSize size;

  /* the class is still a leaf of the map: it is referenced */
  assert_members (h->r, 1, "1H 2L 3L");
  size = tm_ds_result_deep (h->r, 0, nodes);
  s = nodes_string (nodes);
  g_assert_cmpstr (s, ==, "1 2 5");
  g_assert_cmpuint (size.bytes, ==, bytes_of ("1 2 5"));
  heap_free (h);
}

static void
test_cancel (void)
{
  const char *names[] = { "x.Root", "x.Map", NULL };
  guint32 t[] = { 0, 1, 1 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(TmDsTypes) types = NULL;
  g_autoptr(TmHeapGraph) graph = NULL;
  g_autoptr(GError) error = NULL;
  guint32 objects[] = { 0, 1, 2 }, sizes[] = { 8, 8, 8 }, root = 0;
  guint8 kind = 1;
  TmDsHeap dh;

  g_assert_true (tm_dsl_add_string (dsl, "x.ds", "DS x.Map {}", -1, NULL));
  types = tm_ds_types_new (dsl, names, NULL, 2);
  graph = tm_heap_graph_new (1, objects, 3, NULL, NULL, 0, &root, &kind, 1);
  dh.graph = graph;
  dh.obj_type = t;
  dh.sizes.trace = NULL;
  dh.sizes.obj_size = sizes;
  g_cancellable_cancel (cancellable);
  g_assert_null (tm_ds_detect (types, &dh, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Subclasses: an anonymous LinkedHashMap subclass takes LinkedHashMap's
 * description; a pointee matches subclasses of the type it names; an
 * own description wins; Object is nobody's described ancestor. */
static void
test_subclasses (void)
{
  const char *names[] = { "java.lang.Object", "java.util.HashMap", "java.util.LinkedHashMap", "app.Lru$1",
                          "java.util.HashMap$Node", "java.util.LinkedHashMap$Entry", "app.Other",
                          "app.OwnMap", NULL };
  /* 0 Object, 1 HashMap < 0, 2 LinkedHashMap < 1, 3 Lru$1 < 2, 4 Node < 0,
   * 5 Entry < 4, 6 Other < 0, 7 OwnMap < 2 with its own description */
  const guint32 supers[] = { G_MAXUINT32, 0, 1, 2, 0, 4, 0, 2 };
  const char *text =
    "namespace java.util {\n"
    "  DS LinkedHashMap { HashMap$Node; }\n"
    "  HashMap$Node { HashMap$Node; (*); }\n"
    "}\n"
    "DS app.OwnMap { app.Other; }\n"
    "DS java.lang.Object { java.lang.Object; }\n";
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDsTypes) with = NULL, without = NULL;

  g_assert_true (tm_dsl_add_string (dsl, "sub.ds", text, -1, &error));
  g_assert_no_error (error);
  with = tm_ds_types_new_with_supers (dsl, names, NULL, supers, 8);
  without = tm_ds_types_new (dsl, names, NULL, 8);

  g_assert_true (tm_ds_types_is_head (with, 3));             /* Lru$1 is a LinkedHashMap */
  g_assert_false (tm_ds_types_is_head (without, 3));         /* not without the hierarchy */
  g_assert_false (tm_ds_types_is_head (with, 1));            /* a superclass is not */
  g_assert_false (tm_ds_types_is_head (with, 6));            /* Object's description is not inherited */
  /* Lru$1 -> Entry: Entry is a HashMap$Node */
  g_assert_cmpint (tm_ds_types_pointee (with, 3, 5), ==, TM_DS_POINTEE_INTERNAL);
  g_assert_cmpint (tm_ds_types_pointee (with, 2, 5), ==, TM_DS_POINTEE_INTERNAL);
  g_assert_cmpint (tm_ds_types_pointee (without, 2, 5), ==, TM_DS_POINTEE_NONE);
  /* Entry continues like a Node (inherited description) */
  g_assert_cmpint (tm_ds_types_pointee (with, 5, 5), ==, TM_DS_POINTEE_INTERNAL);
  g_assert_cmpint (tm_ds_types_pointee (with, 5, 6), ==, TM_DS_POINTEE_LEAF);
  /* OwnMap keeps its own description */
  g_assert_true (tm_ds_types_is_head (with, 7));
  g_assert_cmpint (tm_ds_types_pointee (with, 7, 6), ==, TM_DS_POINTEE_INTERNAL);
  g_assert_cmpint (tm_ds_types_pointee (with, 7, 5), ==, TM_DS_POINTEE_NONE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ds-detect/rule1-nested", test_rule1_nested);
  g_test_add_func ("/ds-detect/rules-2-3-4", test_rules_2_3_4);
  g_test_add_func ("/ds-detect/precedence-wildcards", test_precedence_and_wildcards);
  g_test_add_func ("/ds-detect/reference-arrays", test_reference_arrays);
  g_test_add_func ("/ds-detect/view-cycle", test_view_cycle);
  g_test_add_func ("/ds-detect/random-invariants", test_random_invariants);
  g_test_add_func ("/ds-detect/deep-class-barrier", test_deep_class_barrier);
  g_test_add_func ("/ds-detect/classifiers", test_classifiers);
  g_test_add_func ("/ds-detect/cancel", test_cancel);
  g_test_add_func ("/ds-detect/subclasses", test_subclasses);
  return g_test_run ();
}
