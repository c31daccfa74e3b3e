/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Heap analysis on a synthetic heap of N objects (default 10^7), measured
 * side by side in one run:
 *
 *   mark        one plain marking pass (tm_heap_graph_mark), the baseline
 *   dominators  tm_dominator_tree_new (semi-NCA, DFS renumbering)
 *   analysis    tm_heap_analysis_new_for_graph (dominators + closed
 *               subtrees)
 *   histogram   one plain pass summing bytes per type, the baseline of
 *   classify    tm_class_tree_new by type,site
 *   groups      deep + retained sizes of the 3 largest type groups
 *
 * and memory per object of each structure.  The heap: objects in
 * allocation order under 1,000 static roots; mostly trees (parents close
 * in allocation order, some far), linked lists, ~12% extra references to
 * anywhere (shared ownership), ~3% references back to a grandparent
 * (cycles).  Types and sites are skewed like real heaps.
 *
 * Usage: bench-heap [N]
 */
#include "tm-classify.h"
#include "tm-trace-builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#define N_TYPES   2000
#define N_FRAMES  20000
#define N_THREADS 16

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static guint64 rng_state = 0x9e3779b97f4a7c15ull;

static inline guint64
rng (void)
{
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

static inline guint32
below (guint32 n)
{
  return (guint32) ((rng () >> 32) * n >> 32);
}

/* skewed toward small values: a few types/sites hold most objects */
static inline guint32
skewed (guint32 n)
{
  double u = (double) (rng () >> 11) / (double) (1ull << 53);
  return (guint32) (u * u * u * n);
}

static TmTrace *
make_trace (guint32 n)
{
  TmTraceBuilder *b = tm_trace_builder_new (NULL, "tmtrace");
  TmTraceHeader h = { 1, 0, "bench", "1", "bench-heap", 8, 0, TM_TRACE_FLAG_GRAPHS };

  tm_trace_builder_header (b, &h);
  for (guint i = 1; i <= N_TYPES; i++)
    {
      g_autofree char *name = g_strdup_printf ("com.example.Type%u", i);
      tm_trace_builder_type (b, i, name, 0, NULL);
    }
  for (guint i = 1; i <= N_FRAMES; i++)
    {
      g_autofree char *name = g_strdup_printf ("com.example.C%u.m()", i % 997);
      tm_trace_builder_frame (b, i, name, "C.java", i, NULL);
    }
  for (guint i = 1; i <= N_FRAMES; i++)
    {
      guint64 frames[2] = { i, 1 + (i * 7) % N_FRAMES };
      tm_trace_builder_site (b, i, 2, frames, NULL);
    }
  for (guint i = 1; i <= N_THREADS; i++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%u", i);
      tm_trace_builder_thread (b, i, name, NULL);
    }
  for (guint32 i = 0; i < n; i++)
    {
      /* each type is allocated at a handful of sites */
      guint32 type = 1 + skewed (N_TYPES);
      guint32 site = 1 + (type * 13 + skewed (8)) % N_FRAMES;
      tm_trace_builder_alloc (b, (guint64) i + 1, type, site, 1 + below (N_THREADS),
                              16 + 8 * below (30), 0, 0, NULL);
    }
  tm_trace_builder_gc_start (b, 1, 1000000, TM_GC_KIND_MAJOR, "bench", "bench", NULL);
  tm_trace_builder_gc_end (b, 1, 2000000, 1000000, 0, NULL, NULL);
  tm_trace_builder_end (b, n, 0, 1, 3000000);
  return tm_trace_builder_finish (b);
}

static TmHeapGraph *
make_graph (guint32 n)
{
  GArray *src = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n + n / 4);
  GArray *dst = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n + n / 4);
  guint32 *parent = g_new (guint32, n);
  guint32 *objects = g_new (guint32, n);
  guint32 n_roots = MIN (1000, n);
  guint32 *roots = g_new (guint32, n_roots);
  TmHeapGraph *g;

#define EDGE(a, b) G_STMT_START { guint32 a_ = (a), b_ = (b); \
    g_array_append_val (src, a_); g_array_append_val (dst, b_); } G_STMT_END

  for (guint32 i = 0; i < n; i++)
    objects[i] = i;
  for (guint32 r = 0; r < n_roots; r++)
    {
      roots[r] = r;
      parent[r] = r;
    }
  for (guint32 i = n_roots; i < n; i++)
    {
      guint32 r = below (100), p;
      if (r < 60)
        p = i - 1 - below (MIN (i, 64));         /* near: a container being filled */
      else if (r < 70)
        p = i - 1;                               /* linked list */
      else
        p = below (i);                           /* far */
      parent[i] = p;
      EDGE (p, i);
      r = below (1000);
      if (r < 120)
        EDGE (below (n), i);                     /* shared ownership */
      else if (r < 150)
        EDGE (i, parent[p]);                     /* back to the grandparent */
    }
  g = tm_heap_graph_new (1, objects, n, (guint32 *) (gpointer) src->data, (guint32 *) (gpointer) dst->data,
                         src->len, roots, NULL, n_roots);
#undef EDGE
  g_array_unref (src);
  g_array_unref (dst);
  g_free (parent);
  g_free (objects);
  g_free (roots);
  return g;
}

static int
cmp_desc_bytes (const void *a, const void *b, gpointer data)
{
  TmClassTree *tree = data;
  guint64 x = tm_class_tree_node (tree, *(const guint32 *) a)->m.bytes;
  guint64 y = tm_class_tree_node (tree, *(const guint32 *) b)->m.bytes;
  return x > y ? -1 : x < y;
}

int
main (int argc, char **argv)
{
  guint32 n = argc > 1 ? (guint32) g_ascii_strtoull (argv[1], NULL, 10) : 10000000;
  TmHeapGraph *g;
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(TmHeapAnalysis) heap = NULL;
  g_autoptr(TmClassTree) tree = NULL;
  TmObjectSizes sizes;
  double t0, mark = 1e9, domt = 1e9, analysis, hist = 1e9, classify = 1e9, groups;
  guint64 n_marked = 0;
  gsize dom_peak = 0, dom_final;
  TmClassifier chain[] = { TM_CLASSIFIER_TYPE, TM_CLASSIFIER_SITE };
  struct rusage ru;
  guint n_groups = 0;
  guint64 group_deep_nodes = 0;

  if (n < 2)
    {
      fprintf (stderr, "usage: bench-heap [OBJECTS >= 2]\n");
      return 1;
    }

  t0 = now_s ();
  trace = make_trace (n);
  printf ("trace of %u objects built in %.2f s\n", n, now_s () - t0);
  t0 = now_s ();
  g = make_graph (n);
  printf ("graph: %u nodes, %" G_GUINT64_FORMAT " references, built in %.2f s\n",
          g->n_nodes, g->n_edges, now_s () - t0);
  sizes.trace = trace;
  sizes.obj_size = trace->obj_size;

  /* best of two, alternating */
  for (int round = 0; round < 2; round++)
    {
      guint64 *bits;
      TmDominatorTree *dom;

      t0 = now_s ();
      bits = tm_heap_graph_mark (g, &n_marked);
      mark = MIN (mark, now_s () - t0);
      g_free (bits);

      t0 = now_s ();
      dom = tm_dominator_tree_new (g, &sizes, NULL, NULL, NULL, NULL);
      domt = MIN (domt, now_s () - t0);
      dom_peak = dom->peak_bytes;
      dom_final = sizeof (guint32) * ((gsize) n + 3 * ((gsize) dom->n_reachable + 1))
                  + sizeof (guint64) * ((gsize) dom->n_reachable + 1);
      tm_dominator_tree_free (dom);
    }

  t0 = now_s ();
  heap = tm_heap_analysis_new_for_graph (trace, g, NULL, NULL);
  analysis = now_s () - t0;

  for (int round = 0; round < 2; round++)
    {
      guint64 *per_type = g_new0 (guint64, N_TYPES + 1);
      guint32 n_items;
      const guint32 *objects = tm_heap_analysis_get_objects (heap, &n_items);
      volatile guint64 sink = 0;

      t0 = now_s ();
      for (guint32 i = 0; i < n_items; i++)
        per_type[trace->obj_type[objects[i]]] += tm_object_sizes_get (&sizes, objects[i]);
      hist = MIN (hist, now_s () - t0);
      sink += per_type[1];
      g_free (per_type);

      g_clear_pointer (&tree, tm_class_tree_unref);
      t0 = now_s ();
      tree = tm_class_tree_new (heap, chain, 2, NULL, NULL);
      classify = MIN (classify, now_s () - t0);
      (void) sink;
    }

  /* the 3 largest type groups, deep and retained (each closure spans
   * most of this heap: the worst case, one marking-sized walk or more) */
  {
    const TmClassNode *root = tm_class_tree_node (tree, 0);
    g_autofree guint32 *kids = g_new (guint32, MAX (root->n_children, 1));
    for (guint32 c = 0; c < root->n_children; c++)
      kids[c] = root->first_child + c;
    g_qsort_with_data (kids, root->n_children, sizeof (guint32), cmp_desc_bytes, tree);
    t0 = now_s ();
    for (guint32 c = 0; c < root->n_children && c < 3; c++)
      {
        tm_class_tree_compute_metrics (tree, kids[c], NULL, NULL);
        group_deep_nodes += tm_class_tree_node (tree, kids[c])->m.deep_objects;
        n_groups++;
      }
    groups = now_s () - t0;
  }

  getrusage (RUSAGE_SELF, &ru);
  printf ("\n%-44s %10s %8s\n", "measure", "time", "ratio");
  printf ("%-44s %9.3fs %8s\n", "mark (tm_heap_graph_mark), baseline", mark, "1.00");
  printf ("%-44s %9.3fs %8.2f   (goal <= 4)\n", "dominator tree (semi-NCA)", domt, domt / mark);
  printf ("%-44s %9.3fs %8.2f\n", "heap analysis (dominators + closed subtrees)", analysis, analysis / mark);
  printf ("%-44s %9.3fs %8s\n", "histogram by type, baseline", hist, "1.00");
  printf ("%-44s %9.3fs %8.2f\n", "classification tree type,site", classify, classify / hist);
  printf ("%-44s %9.3fs %8.2f   (per group, vs mark; %u groups, avg closure %.0f%% of heap)\n",
          "deep+retained of the largest type groups", groups / MAX (n_groups, 1),
          groups / MAX (n_groups, 1) / mark, n_groups,
          100.0 * group_deep_nodes / MAX (n_groups, 1) / n);
  printf ("\nmemory per object (bytes):\n");
  printf ("  dominator computation, peak      %6.1f   (MAT's dominator phase: 28)\n", (double) dom_peak / n);
  printf ("  dominator tree, kept             %6.1f\n", (double) dom_final / n);
  printf ("  heap graph (CSR, input)          %6.1f\n",
          (double) (sizeof (guint64) * ((gsize) n + 1) + sizeof (guint32) * (g->n_edges + n)) / n);
  printf ("  classification tree (members)    %6.1f   (+ %zu bytes per node)\n", 4.0, sizeof (TmClassNode));
  printf ("  closures: stamps + closed bits   %6.1f   (+ reverse graph %.1f when joint ownership needs it)\n",
          4.0 + 1.0 / 8, (double) (sizeof (guint64) * ((gsize) n + 2) + sizeof (guint32) * g->n_edges) / n);
  printf ("max RSS of this run: %.0f MiB; %" G_GUINT64_FORMAT " objects reachable\n", ru.ru_maxrss / 1024.0, n_marked);
  return 0;
}
