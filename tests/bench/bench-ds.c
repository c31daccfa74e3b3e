/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Data structure detection on a synthetic heap of ~10^7 objects, as a
 * ratio to one plain marking pass (tm_heap_graph_mark) of the same graph,
 * measured side by side in one run.
 *
 * The heap is Java-like: HashMaps (table, node chains, String keys with
 * their byte[], values with a payload), ArrayLists of records, LinkedLists,
 * ConcurrentHashMaps nested in HashMaps, and plain object trees outside
 * any structure.  Object numbers are shuffled, as allocation order
 * scatters the parts of a structure over the heap.
 *
 * Usage: bench-ds [OBJECTS]   (default 10000000)
 */
#include "tm-ds-growth.h"
#include "tm-heap-graph.h"

#include <stdio.h>
#include <stdlib.h>

enum {
  T_ROOT, T_HOLDER, T_HASHMAP, T_HM_TABLE, T_HM_NODE, T_STRING, T_BYTES, T_VALUE,
  T_ARRAYLIST, T_OBJECTS, T_RECORD, T_LINKEDLIST, T_LL_NODE, T_CHM, T_CHM_TABLE, T_CHM_NODE,
  T_PLAIN, N_TYPES
};

static const char *const type_names[N_TYPES + 1] = {
  "com.example.Root", "com.example.Holder", "java.util.HashMap", "java.util.HashMap$Node[]",
  "java.util.HashMap$Node", "java.lang.String", "byte[]", "com.example.Value",
  "java.util.ArrayList", "java.lang.Object[]", "com.example.Record", "java.util.LinkedList",
  "java.util.LinkedList$Node", "java.util.concurrent.ConcurrentHashMap",
  "java.util.concurrent.ConcurrentHashMap$Node[]", "java.util.concurrent.ConcurrentHashMap$Node",
  "com.example.Plain", NULL
};

static const guint32 type_sizes[N_TYPES] = {
  16, 24, 48, 0, 32, 24, 0, 32, 24, 0, 40, 32, 24, 64, 0, 32, 24,
};

typedef struct {
  GArray *type, *size, *src, *dst;
  GRand  *rand;
} Builder;

static guint32
add (Builder *b, guint32 type, guint32 size)
{
  if (size == 0)
    size = type_sizes[type];
  g_array_append_val (b->type, type);
  g_array_append_val (b->size, size);
  return b->type->len - 1;
}

static void
edge (Builder *b, guint32 from, guint32 to)
{
  g_array_append_val (b->src, from);
  g_array_append_val (b->dst, to);
}

static guint32
string (Builder *b)
{
  guint32 s = add (b, T_STRING, 0);
  guint32 len = g_rand_int_range (b->rand, 8, 64);
  edge (b, s, add (b, T_BYTES, 16 + len));
  return s;
}

static guint32
value (Builder *b)
{
  guint32 v = add (b, T_VALUE, 0);
  edge (b, v, string (b));
  if (g_rand_boolean (b->rand))
    edge (b, v, add (b, T_BYTES, 16 + g_rand_int_range (b->rand, 16, 512)));
  return v;
}

static guint32
hash_map (Builder *b, gboolean concurrent, guint32 entries)
{
  guint32 cap = 16;
  guint32 m, table, prev = G_MAXUINT32;

  while (cap * 3 / 4 < entries)
    cap *= 2;
  m = add (b, concurrent ? T_CHM : T_HASHMAP, 0);
  table = add (b, concurrent ? T_CHM_TABLE : T_HM_TABLE, 16 + 4 * cap);
  edge (b, m, table);
  for (guint32 i = 0; i < entries; i++)
    {
      guint32 n = add (b, concurrent ? T_CHM_NODE : T_HM_NODE, 0);
      /* about one entry in five shares a bin: chained to the previous node */
      if (prev != G_MAXUINT32 && g_rand_int_range (b->rand, 0, 5) == 0)
        edge (b, prev, n);
      else
        edge (b, table, n);
      edge (b, n, string (b));
      edge (b, n, value (b));
      prev = n;
    }
  return m;
}

static guint32
array_list (Builder *b, guint32 n)
{
  guint32 l = add (b, T_ARRAYLIST, 0);
  guint32 arr = add (b, T_OBJECTS, 16 + 4 * (n + n / 2));

  edge (b, l, arr);
  for (guint32 i = 0; i < n; i++)
    {
      guint32 r = add (b, T_RECORD, 0);
      edge (b, arr, r);
      edge (b, r, string (b));
    }
  return l;
}

static guint32
linked_list (Builder *b, guint32 n)
{
  guint32 l = add (b, T_LINKEDLIST, 0);
  guint32 prev = l;

  for (guint32 i = 0; i < n; i++)
    {
      guint32 node = add (b, T_LL_NODE, 0);
      edge (b, prev, node);
      if (prev != l)
        edge (b, node, prev);
      edge (b, node, value (b));
      prev = node;
    }
  return l;
}

static guint32
plain_tree (Builder *b, guint32 n)
{
  guint32 top = add (b, T_PLAIN, 0);

  for (guint32 i = 1; i < n; i++)
    {
      guint32 o = add (b, T_PLAIN, 0);
      edge (b, top + g_rand_int_range (b->rand, 0, i), o);
    }
  return top;
}

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

int
main (int argc, char **argv)
{
  guint64 target = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 10000000;
  Builder b = { g_array_new (FALSE, FALSE, 4), g_array_new (FALSE, FALSE, 4),
                g_array_new (FALSE, FALSE, 4), g_array_new (FALSE, FALSE, 4), g_rand_new_with_seed (42) };
  g_autoptr(TmDsl) dsl = NULL;
  g_autoptr(TmDsTypes) types = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint32 *perm = NULL;
  g_autofree guint32 *obj_type = NULL;
  g_autofree guint32 *obj_size = NULL;
  g_autofree guint32 *objects = NULL;
  TmHeapGraph *g;
  guint32 root, n;
  guint8 kind = 1;
  double t0, t_mark = G_MAXDOUBLE, t_detect = G_MAXDOUBLE, t_closures, t_dom, t_growth;
  guint n_compared;
  guint64 marked = 0, deep_ds_objects = 0, members;
  TmDsResult *r = NULL;
  TmDsHeap heap;

  if (target < 1000)
    target = 1000;
  root = add (&b, T_ROOT, 0);
  while (b.type->len < target)
    {
      guint32 holder = add (&b, T_HOLDER, 0);
      guint32 pick = g_rand_int_range (b.rand, 0, 10);

      edge (&b, root, holder);
      if (pick < 4)
        edge (&b, holder, hash_map (&b, FALSE, g_rand_int_range (b.rand, 1, pick == 0 ? 2000 : 40)));
      else if (pick < 6)
        edge (&b, holder, array_list (&b, g_rand_int_range (b.rand, 1, 60)));
      else if (pick < 7)
        edge (&b, holder, linked_list (&b, g_rand_int_range (b.rand, 1, 30)));
      else if (pick < 8)
        {
          /* a map of concurrent maps: nested structures */
          guint32 outer = hash_map (&b, FALSE, 4);
          guint32 first_node = outer + 2;   /* after the map and its table */
          for (guint i = 0; i < 4; i++)
            edge (&b, first_node, hash_map (&b, TRUE, g_rand_int_range (b.rand, 1, 30)));
          edge (&b, holder, outer);
        }
      else
        edge (&b, holder, plain_tree (&b, g_rand_int_range (b.rand, 10, 200)));
    }
  n = b.type->len;

  /* shuffle object numbers: parts of a structure end up far apart */
  perm = g_new (guint32, n);
  for (guint32 i = 0; i < n; i++)
    perm[i] = i;
  for (guint32 i = n - 1; i > 0; i--)
    {
      guint32 j = g_rand_int_range (b.rand, 0, i + 1), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
  obj_type = g_new (guint32, n);
  obj_size = g_new (guint32, n);
  objects = g_new (guint32, n);
  for (guint32 i = 0; i < n; i++)
    {
      obj_type[perm[i]] = g_array_index (b.type, guint32, i);
      obj_size[perm[i]] = g_array_index (b.size, guint32, i);
      objects[i] = i;
    }
  for (guint e = 0; e < b.src->len; e++)
    {
      g_array_index (b.src, guint32, e) = perm[g_array_index (b.src, guint32, e)];
      g_array_index (b.dst, guint32, e) = perm[g_array_index (b.dst, guint32, e)];
    }
  root = perm[root];
  g = tm_heap_graph_new (1, objects, n, (guint32 *) (void *) b.src->data, (guint32 *) (void *) b.dst->data,
                         b.src->len, &root, &kind, 1);
  g_array_unref (b.src);
  g_array_unref (b.dst);
  g_array_unref (b.type);
  g_array_unref (b.size);

  dsl = tm_dsl_new_default (&error);
  if (dsl == NULL)
    {
      fprintf (stderr, "bench-ds: %s\n", error->message);
      return 1;
    }
  types = tm_ds_types_new (dsl, type_names, NULL, N_TYPES);
  heap.graph = g;
  heap.obj_type = obj_type;
  heap.sizes.trace = NULL;
  heap.sizes.obj_size = obj_size;

  /* best of three, alternating, so both see the same cache state */
  for (guint round = 0; round < 3; round++)
    {
      g_autofree guint64 *bits = NULL;

      t0 = now ();
      bits = tm_heap_graph_mark (g, &marked);
      t_mark = MIN (t_mark, now () - t0);

      g_clear_pointer (&r, tm_ds_result_free);
      t0 = now ();
      r = tm_ds_detect (types, &heap, NULL, &error);
      t_detect = MIN (t_detect, now () - t0);
      g_assert_no_error (error);
    }

  t0 = now ();
  for (guint32 s = 0; s < r->n_structures; s++)
    if (r->top_level[s])
      deep_ds_objects += tm_ds_result_deep_ds (r, s, NULL).objects;
  t_closures = now () - t0;
  members = r->member_start[r->n_structures];

  /* the whole growth analysis with the same heap at both ends: detection
   * twice and the four sizes of every visible structure; the dominator
   * tree (the heap analysis' part) is built once, outside the timing */
  {
    TmDsGrowthHeap ends;
    g_autoptr(TmDominatorTree) dom = NULL;
    g_autoptr(TmDsGrowth) growth = NULL;

    t0 = now ();
    dom = tm_dominator_tree_new (g, &heap.sizes, NULL, NULL, NULL, &error);
    t_dom = now () - t0;
    g_assert_no_error (error);
    ends.heap = heap;
    ends.dominators = dom;
    t0 = now ();
    growth = tm_ds_growth_new_for_heaps (types, &ends, &ends, NULL, &error);
    t_growth = now () - t0;
    g_assert_no_error (error);
    n_compared = growth->entries->len;
  }

  printf ("bench-ds: %u objects, %" G_GUINT64_FORMAT " references, %" G_GUINT64_FORMAT " marked\n",
          n, g->n_edges, marked);
  printf ("  structures: %u (%u in the view), %" G_GUINT64_FORMAT " memberships\n",
          r->n_structures, r->n_top_level, members);
  printf ("  marking pass:                 %8.3f s\n", t_mark);
  printf ("  detection:                    %8.3f s   ratio %.2f\n", t_detect, t_detect / t_mark);
  printf ("  deep ds closures of the view: %8.3f s   ratio %.2f (%" G_GUINT64_FORMAT " objects)\n",
          t_closures, t_closures / t_mark, deep_ds_objects);
  printf ("  dominator tree (heap analysis): %6.3f s   ratio %.2f\n", t_dom, t_dom / t_mark);
  printf ("  growth analysis, %u structures: %6.3f s   ratio %.2f (dominator tree excluded)\n",
          n_compared, t_growth, t_growth / t_mark);
  printf ("  result memory: %.1f bytes per object\n",
          (double) (members * 5 + (guint64) r->n_structures * 29 + (guint64) n * 12) / n);

  tm_ds_result_free (r);
  tm_heap_graph_free (g);
  g_rand_free (b.rand);
  return 0;
}
