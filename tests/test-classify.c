/* SPDX-License-Identifier: GPL-3.0-or-later
 * Classification trees and group metrics.
 *
 * The oracle: random traces (<= 500 live objects, several types, sites,
 * callers, threads, spaces and ages) with random reference graphs full of
 * shared ownership and cycles.  For every group of every classifier, and
 * of two-level chains, deep and retained sizes must equal brute force:
 * deep = the group plus what it reaches; retained = the group plus what
 * the roots no longer reach once the whole group is removed. */
#include "tm-classify.h"
#include "tm-error.h"
#include "tm-trace-builder.h"
#include "tm-synth.h"
#include "tm-document.h"
#include "tm-root-path.h"
#include "tm-trace-loader.h"
#include "heap-test-util.h"

#include <string.h>
#include <glib/gstdio.h>

#define N_TYPES   5
#define N_FRAMES  6
#define N_SITES   7
#define N_THREADS 3
#define N_SPACES  3
#define N_GCS     4

/* A trace of n objects over N_GCS GCs; some die on the way. */
static TmTrace *
random_trace (GRand *rand, guint32 n)
{
  TmTraceBuilder *b = tm_trace_builder_new (NULL, "tmtrace");
  TmTraceHeader h = { 0 };
  g_autoptr(GError) error = NULL;
  guint64 time = 0, oid = 1;

  h.version = 1;
  h.vm_name = "test";
  h.vm_version = "1";
  h.command_line = "test";
  h.pointer_size = 8;
  h.flags = TM_TRACE_FLAG_DEATHS | TM_TRACE_FLAG_OBJECT_SPACE;
  tm_trace_builder_header (b, &h);

  for (guint i = 1; i <= N_SPACES; i++)
    {
      g_autofree char *name = g_strdup_printf ("space-%u", i);
      g_assert_true (tm_trace_builder_space (b, i, i, name, &error));
    }
  for (guint i = 1; i <= N_TYPES; i++)
    {
      g_autofree char *name = g_strdup_printf ("com.example.T%u", i);
      g_assert_true (tm_trace_builder_type (b, i, name, 0, &error));
    }
  for (guint i = 1; i <= N_FRAMES; i++)
    {
      g_autofree char *m = g_strdup_printf ("com.example.C.m%u()", i);
      g_assert_true (tm_trace_builder_frame (b, i, m, "C.java", 10 * i, &error));
    }
  /* sites 1..N_SITES: depth 1..3 over random frames (two share frame 0) */
  for (guint i = 1; i <= N_SITES; i++)
    {
      guint64 frames[3];
      guint depth = 1 + (i % 3);
      for (guint d = 0; d < depth; d++)
        frames[d] = g_rand_int_range (rand, 1, N_FRAMES + 1);
      g_assert_true (tm_trace_builder_site (b, i, depth, frames, &error));
    }
  for (guint i = 1; i <= N_THREADS; i++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%u", i);
      g_assert_true (tm_trace_builder_thread (b, i, name, &error));
    }

  for (guint gc = 1; gc <= N_GCS; gc++)
    {
      guint32 batch = n / N_GCS + (gc == 1 ? n % N_GCS : 0);
      for (guint32 i = 0; i < batch; i++, oid++)
        g_assert_true (tm_trace_builder_alloc (b, oid,
                                               g_rand_int_range (rand, 1, N_TYPES + 1),
                                               g_rand_int_range (rand, 0, N_SITES + 1),
                                               g_rand_int_range (rand, 1, N_THREADS + 1),
                                               g_rand_int_range (rand, 16, 300),
                                               g_rand_int_range (rand, 1, N_SPACES + 1), 0, &error));
      time += 1000000;
      g_assert_true (tm_trace_builder_gc_start (b, gc, time, TM_GC_KIND_MINOR, "test", "test", &error));
      /* about 10% of the older objects die in this GC */
      for (guint64 o = 1; o < oid; o++)
        if (g_rand_int_range (rand, 0, 30) == 0)
          tm_trace_builder_death (b, gc, o, NULL);   /* dead twice: refused, fine */
      g_assert_true (tm_trace_builder_gc_end (b, gc, time + 1000, 1000, 0, NULL, &error));
    }
  tm_trace_builder_end (b, oid - 1, 0, N_GCS, time + 2000);
  return tm_trace_builder_finish (b);
}

typedef struct {
  TmTrace        *trace;
  TmHeapAnalysis *heap;
  guint8         *reach;
  const guint32  *objects;
  guint32         n;
} Fixture;

static void
brute_force (Fixture *f, const guint32 *members, guint32 count, TmGroupMetrics *out)
{
  const TmHeapGraph *g = tm_heap_analysis_get_graph (f->heap);
  g_autofree guint8 *in = g_new0 (guint8, MAX (f->n, 1));
  g_autofree guint8 *deep = g_new0 (guint8, MAX (f->n, 1));
  g_autofree guint8 *without = NULL;
  g_autofree guint32 *stack = g_new (guint32, f->n + 1);
  gsize sp = 0;

  memset (out, 0, sizeof *out);
  for (guint32 i = 0; i < count; i++)
    {
      in[members[i]] = 1;
      deep[members[i]] = 1;
      stack[sp++] = members[i];
    }
  while (sp > 0)
    {
      guint32 v = stack[--sp];
      for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
        if (!deep[g->edges[e]])
          {
            deep[g->edges[e]] = 1;
            stack[sp++] = g->edges[e];
          }
    }
  without = test_reach (g, in);
  for (guint32 v = 0; v < f->n; v++)
    {
      guint64 size = tm_trace_object_size (f->trace, f->objects[v]);
      if (in[v])
        {
          out->objects++;
          out->bytes += size;
        }
      if (deep[v])
        {
          out->deep_objects++;
          out->deep_bytes += size;
        }
      if (in[v] || (f->reach[v] && !without[v]))
        {
          out->retained_objects++;
          out->retained_bytes += size;
        }
    }
}

static void
check_tree (Fixture *f, const TmClassifier *chain, guint depth)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmClassTree) tree = tm_class_tree_new (f->heap, chain, depth, NULL, &error);
  g_autofree guint32 *keys = g_new (guint32, MAX (f->n, 1));

  g_assert_no_error (error);
  g_assert_cmpuint (tm_class_tree_node (tree, 0)->count, ==, f->n);

  for (guint32 i = 0; i < tree->nodes->len; i++)
    {
      const TmClassNode *node = tm_class_tree_node (tree, i);
      TmGroupMetrics want;
      guint32 child_sum = 0;

      /* members agree on their key at every level above them */
      for (guint32 lvl = node->level, x = i; lvl > 0; lvl--)
        {
          const TmClassNode *a = tm_class_tree_node (tree, x);
          for (guint32 m = node->first; m < node->first + node->count; m++)
            g_assert_cmpuint (tm_classifier_key (chain[lvl - 1], f->trace, tm_heap_analysis_get_gc (f->heap),
                                                 f->objects[tree->members[m]]), ==, a->key);
          x = a->parent;
        }
      for (guint32 c = 0; c < node->n_children; c++)
        child_sum += tm_class_tree_node (tree, node->first_child + c)->count;
      if (node->level < depth)
        g_assert_cmpuint (child_sum, ==, node->count);

      {
        TmGroupMetrics before, after;
        g_assert_false (tm_class_tree_get_metrics (tree, i, &before));
        g_assert_cmpuint (before.bytes, ==, node->m.bytes);
        g_assert_true (tm_class_tree_compute_metrics (tree, i, NULL, &error));
        g_assert_no_error (error);
        g_assert_true (tm_class_tree_get_metrics (tree, i, &after));
        g_assert_cmpuint (after.retained_bytes, ==, node->m.retained_bytes);
      }
      brute_force (f, tree->members + node->first, node->count, &want);
      g_assert_cmpuint (node->m.objects, ==, want.objects);
      g_assert_cmpuint (node->m.bytes, ==, want.bytes);
      g_assert_cmpuint (node->m.deep_objects, ==, want.deep_objects);
      g_assert_cmpuint (node->m.deep_bytes, ==, want.deep_bytes);
      g_assert_cmpuint (node->m.retained_objects, ==, want.retained_objects);
      g_assert_cmpuint (node->m.retained_bytes, ==, want.retained_bytes);
    }
}

static void
test_oracle (void)
{
  static const TmClassifier pairs[][2] = {
    { TM_CLASSIFIER_TYPE, TM_CLASSIFIER_SITE },
    { TM_CLASSIFIER_THREAD, TM_CLASSIFIER_AGE },
    { TM_CLASSIFIER_CALL_SITE, TM_CLASSIFIER_SPACE },
    { TM_CLASSIFIER_AGE, TM_CLASSIFIER_TYPE },
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (6);

  for (guint round = 0; round < 40; round++)
    {
      guint32 n_alloc = g_rand_int_range (rand, 4, 501);
      g_autoptr(TmTrace) trace = random_trace (rand, n_alloc);
      g_autoptr(GError) error = NULL;
      Fixture f = { trace };
      TmHeapGraph *g;
      g_autofree guint32 *live = NULL;
      guint32 n_live;
      TestGraphSpec spec;

      g_assert_cmpuint (tm_trace_n_gcs (trace), ==, N_GCS);
      live = tm_trace_live_objects (trace, N_GCS, &n_live);
      g_assert_cmpuint (n_live, <=, 500);
      spec = test_graph_random (rand, n_live, g_rand_double_range (rand, 0.0, 1.5));
      /* spec speaks node numbers: map them to object indices */
      for (guint e = 0; e < spec.src->len; e++)
        {
          g_array_index (spec.src, guint32, e) = live[g_array_index (spec.src, guint32, e)];
          g_array_index (spec.dst, guint32, e) = live[g_array_index (spec.dst, guint32, e)];
        }
      for (guint r = 0; r < spec.roots->len; r++)
        g_array_index (spec.roots, guint32, r) = live[g_array_index (spec.roots, guint32, r)];
      g = test_graph_build (&spec, N_GCS, live);
      test_graph_spec_clear (&spec);

      f.heap = tm_heap_analysis_new_for_graph (trace, g, NULL, &error);
      g_assert_no_error (error);
      f.objects = tm_heap_analysis_get_objects (f.heap, &f.n);
      g_assert_cmpuint (f.n, ==, n_live);
      f.reach = test_reach (tm_heap_analysis_get_graph (f.heap), NULL);

      for (guint c = 0; c < TM_N_OBJECT_CLASSIFIERS; c++)
        {
          TmClassifier one = c;
          check_tree (&f, &one, 1);
        }
      for (guint p = 0; p < G_N_ELEMENTS (pairs); p++)
        check_tree (&f, pairs[p], 2);

      g_free (f.reach);
      tm_heap_analysis_unref (f.heap);
    }
}

/* Two holders jointly own a subtree: neither retains it alone, the group
 * of both does.  And a member no root reaches counts only itself. */
static void
test_joint_ownership (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  g_autoptr(TmTrace) trace = random_trace (rand, 40);
  g_autofree guint32 *live = NULL;
  guint32 n_live;
  g_autoptr(TmHeapAnalysis) heap = NULL;
  TmGroupMetrics m;
  guint32 src[4], dst[4], root;
  guint32 a = 1, b = 2, shared = 3, child = 4, orphan = 5;

  live = tm_trace_live_objects (trace, N_GCS, &n_live);
  g_assert_cmpuint (n_live, >, 6);
  /* root(0) -> a, root -> b, a -> shared, b -> shared, shared -> child */
  src[0] = live[0]; dst[0] = live[a];
  src[1] = live[0]; dst[1] = live[b];
  src[2] = live[a]; dst[2] = live[shared];
  src[3] = live[b]; dst[3] = live[shared];
  root = live[0];
  {
    guint32 s5[5] = { src[0], src[1], src[2], src[3], live[shared] };
    guint32 d5[5] = { dst[0], dst[1], dst[2], dst[3], live[child] };
    heap = tm_heap_analysis_new_for_graph (trace, tm_heap_graph_new (N_GCS, live, n_live, s5, d5, 5, &root, NULL, 1),
                                           NULL, NULL);
  }
  g_assert_nonnull (heap);
  {
    guint32 g1[] = { a };
    guint32 g2[] = { a, b };
    guint32 g3[] = { orphan };
    guint64 sz_a = tm_heap_analysis_item_size (heap, a);
    guint64 sz_b = tm_heap_analysis_item_size (heap, b);
    guint64 sz_s = tm_heap_analysis_item_size (heap, shared);
    guint64 sz_c = tm_heap_analysis_item_size (heap, child);

    g_assert_true (tm_heap_analysis_group_metrics (heap, g1, 1, TRUE, &m, NULL, NULL));
    g_assert_cmpuint (m.retained_objects, ==, 1);
    g_assert_cmpuint (m.retained_bytes, ==, sz_a);
    g_assert_cmpuint (m.deep_objects, ==, 3);
    g_assert_true (tm_heap_analysis_group_metrics (heap, g2, 2, TRUE, &m, NULL, NULL));
    g_assert_cmpuint (m.retained_objects, ==, 4);
    g_assert_cmpuint (m.retained_bytes, ==, sz_a + sz_b + sz_s + sz_c);
    g_assert_true (tm_heap_analysis_group_metrics (heap, g3, 1, TRUE, &m, NULL, NULL));
    g_assert_cmpuint (m.retained_objects, ==, 1);
    g_assert_cmpuint (m.deep_objects, ==, 1);
  }
  {
    guint kind;
    g_autoptr(GArray) path = tm_heap_analysis_path_to_root (heap, child, &kind, NULL);
    g_assert_cmpuint (path->len, ==, 4);
    g_assert_cmpuint (g_array_index (path, guint32, 0), ==, 0);
    g_assert_cmpuint (g_array_index (path, guint32, 2), ==, shared);
    g_assert_cmpuint (g_array_index (path, guint32, 3), ==, child);
  }
  {
    g_autoptr(GArray) path = tm_heap_analysis_path_to_root (heap, orphan, NULL, NULL);
    g_assert_cmpuint (path->len, ==, 0);
  }
}

/* Shallow metrics without a graph; deep ones say which GCs have one. */
static void
test_no_graph (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (2);
  g_autoptr(TmTrace) trace = random_trace (rand, 100);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHeapAnalysis) heap = tm_heap_analysis_new (trace, 2, NULL, NULL, NULL, &error);
  TmClassifier chain[] = { TM_CLASSIFIER_TYPE };
  g_autoptr(TmClassTree) tree = NULL;
  guint32 n, total = 0;

  g_assert_no_error (error);
  g_assert_false (tm_heap_analysis_has_graph (heap));
  tm_heap_analysis_get_objects (heap, &n);
  tree = tm_class_tree_new (heap, chain, 1, NULL, &error);
  g_assert_no_error (error);
  for (guint32 c = 0; c < tm_class_tree_node (tree, 0)->n_children; c++)
    total += tm_class_tree_node (tree, 1 + c)->count;
  g_assert_cmpuint (total, ==, n);
  g_assert_false (tm_class_tree_compute_metrics (tree, 0, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_NO_GRAPH);
  g_assert_nonnull (strstr (error->message, "GC 2"));
}

/* A level with any number of keys per item: every item goes to "odd" or
 * "even" and also to "all", except multiples of 7, which vanish. */
static guint32
pairs_domain (const TmClassLevel *level, TmHeapAnalysis *heap)
{
  return 3;
}

static void
pairs_classify (const TmClassLevel *level, TmHeapAnalysis *heap, const guint32 *items, guint32 n,
                GArray *keys, GArray *out_items)
{
  for (guint32 i = 0; i < n; i++)
    {
      guint32 k = items[i] % 2, all = 2;
      if (items[i] % 7 == 0)
        continue;
      g_array_append_val (keys, k);
      g_array_append_val (out_items, items[i]);
      g_array_append_val (keys, all);
      g_array_append_val (out_items, items[i]);
    }
}

static char *
pairs_label (const TmClassLevel *level, TmHeapAnalysis *heap, guint32 key)
{
  static const char *names[] = { "even", "odd", "all" };
  return g_strdup (names[key]);
}

static void
data_freed (gpointer data)
{
  (*(int *) data)++;
}

static void
test_pairs_level (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (77);
  g_autoptr(TmTrace) trace = random_trace (rand, 300);
  g_autofree guint32 *live = NULL;
  guint32 n_live;
  TestGraphSpec spec;
  Fixture f = { trace };
  TmClassLevel levels[2];
  int freed = 0;
  TmClassTree *tree;
  g_autoptr(GError) error = NULL;

  live = tm_trace_live_objects (trace, N_GCS, &n_live);
  spec = test_graph_random (rand, n_live, 0.8);
  for (guint e = 0; e < spec.src->len; e++)
    {
      g_array_index (spec.src, guint32, e) = live[g_array_index (spec.src, guint32, e)];
      g_array_index (spec.dst, guint32, e) = live[g_array_index (spec.dst, guint32, e)];
    }
  for (guint r = 0; r < spec.roots->len; r++)
    g_array_index (spec.roots, guint32, r) = live[g_array_index (spec.roots, guint32, r)];
  f.heap = tm_heap_analysis_new_for_graph (trace, test_graph_build (&spec, N_GCS, live), NULL, NULL);
  test_graph_spec_clear (&spec);
  f.objects = tm_heap_analysis_get_objects (f.heap, &f.n);
  f.reach = test_reach (tm_heap_analysis_get_graph (f.heap), NULL);

  memset (&levels[0], 0, sizeof levels[0]);
  levels[0].name = "parity";
  levels[0].classifier = TM_CLASSIFIER_NONE;
  levels[0].domain = pairs_domain;
  levels[0].pairs = pairs_classify;
  levels[0].label = pairs_label;
  levels[0].data = &freed;
  levels[0].data_free = data_freed;
  tm_class_level_init_builtin (&levels[1], TM_CLASSIFIER_TYPE);
  tree = tm_class_tree_new_for_levels (f.heap, levels, 2, NULL, &error);
  g_assert_no_error (error);

  {
    const TmClassNode *root = tm_class_tree_node (tree, 0);
    guint32 kept = 0, all = tm_class_tree_find_child (tree, 0, "all");
    for (guint32 i = 0; i < f.n; i++)
      kept += i % 7 != 0;
    g_assert_cmpuint (root->n_children, ==, 3);
    g_assert_cmpuint (all, !=, TM_CLASS_NODE_NONE);
    g_assert_cmpuint (tm_class_tree_node (tree, all)->count, ==, kept);
    g_assert_cmpuint (tm_class_tree_node (tree, tm_class_tree_find_child (tree, 0, "odd"))->count
                      + tm_class_tree_node (tree, tm_class_tree_find_child (tree, 0, "even"))->count, ==, kept);
  }
  for (guint32 i = 1; i < tree->nodes->len; i++)
    {
      const TmClassNode *node = tm_class_tree_node (tree, i);
      TmGroupMetrics want;
      for (guint32 m = node->first; m < node->first + node->count; m++)
        {
          g_assert_cmpuint (tree->members[m] % 7, !=, 0);
          if (node->level == 2)
            g_assert_cmpuint (trace->obj_type[f.objects[tree->members[m]]], ==, node->key);
        }
      g_assert_true (tm_class_tree_compute_metrics (tree, i, NULL, NULL));
      brute_force (&f, tree->members + node->first, node->count, &want);
      g_assert_cmpuint (node->m.objects, ==, want.objects);
      g_assert_cmpuint (node->m.deep_bytes, ==, want.deep_bytes);
      g_assert_cmpuint (node->m.retained_bytes, ==, want.retained_bytes);
    }
  tm_class_tree_unref (tree);
  g_assert_cmpint (freed, ==, 1);
  g_free (f.reach);
  tm_heap_analysis_unref (f.heap);
}

static void
test_chain_parse (void)
{
  TmClassifier chain[TM_CLASSIFY_MAX_DEPTH];
  guint depth = 0;
  g_autoptr(GError) error = NULL;

  g_assert_true (tm_classifier_chain_parse ("type, call-site,age", chain, &depth, &error));
  g_assert_cmpuint (depth, ==, 3);
  g_assert_cmpint (chain[1], ==, TM_CLASSIFIER_CALL_SITE);
  g_assert_false (tm_classifier_chain_parse ("type,bogus", chain, &depth, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "bogus"));
}

static void
async_done (GObject *source, GAsyncResult *result, gpointer data)
{
  GAsyncResult **out = data;
  *out = g_object_ref (result);
}

/* The heap through a document's worker, as the app asks for it. */
static TmHeapAnalysis *
new_async (TmTrace *trace, guint32 gc, GCancellable *cancellable, GError **error)
{
  g_autoptr(TmDocument) doc = tm_document_new_for_trace (trace);
  GAsyncResult *result = NULL;
  TmHeapAnalysis *heap;

  tm_document_heap_async (doc, gc, NULL, NULL, cancellable, async_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  heap = tm_document_heap_finish (doc, result, error);
  g_object_unref (result);
  return heap;
}

static guint32
find_type_child (TmClassTree *tree, const char *name)
{
  guint32 c = tm_class_tree_find_child (tree, 0, name);
  g_assert_cmpuint (c, !=, TM_CLASS_NODE_NONE);
  return c;
}

/* The leak scenario's planted truth, read back through the real file
 * path (graph re-read from its position): the static cache
 * ConcurrentHashMap -> Node[] -> Node -> {JourneyKey, Journey} retains
 * every leaked entry. */
static void
test_synth_leak (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tm-classify-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "leak.tmtrace", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(TmHeapAnalysis) heap = NULL;
  g_autoptr(TmClassTree) tree = NULL;
  TmSynthOptions opt;
  TmClassifier chain[] = { TM_CLASSIFIER_TYPE, TM_CLASSIFIER_CALL_SITE };
  guint32 last, chm, node, key, journey, n;
  const TmClassNode *j;
  const guint32 *objects;
  const TmDominatorTree *dom;

  tm_synth_options_init (&opt);
  opt.scenario = "leak";
  opt.scale = 0.3;
  g_assert_true (tm_synth_write_file (&opt, path, &error));
  g_assert_no_error (error);
  trace = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  last = tm_trace_n_gcs (trace);
  g_assert_true (tm_trace_gc (trace, last)->has_graph);

  heap = tm_heap_analysis_new (trace, last, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tm_heap_analysis_has_graph (heap));
  /* the same on a worker; and a cancelled one reports it */
  {
    g_autoptr(TmHeapAnalysis) other = new_async (trace, last, NULL, &error);
    g_autoptr(GCancellable) cancel = g_cancellable_new ();
    guint32 n1, n2;
    g_assert_no_error (error);
    tm_heap_analysis_get_objects (heap, &n1);
    tm_heap_analysis_get_objects (other, &n2);
    g_assert_cmpuint (n1, ==, n2);
    g_assert_cmpuint (tm_heap_analysis_get_dominators (other)->n_reachable, ==,
                      tm_heap_analysis_get_dominators (heap)->n_reachable);
    g_cancellable_cancel (cancel);
    g_assert_null (new_async (trace, last, cancel, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
  }
  tree = tm_class_tree_new (heap, chain, 2, NULL, &error);
  g_assert_no_error (error);

  chm = find_type_child (tree, "java.util.concurrent.ConcurrentHashMap");
  node = find_type_child (tree, "java.util.concurrent.ConcurrentHashMap$Node");
  key = find_type_child (tree, "com.example.travel.JourneyKey");
  journey = find_type_child (tree, "com.example.travel.Journey");
  for (guint32 i = 0; i < tree->nodes->len; i++)
    g_assert_true (tm_class_tree_compute_metrics (tree, i, NULL, NULL));

  j = tm_class_tree_node (tree, journey);
  /* one key per journey, each entry owned by the cache alone */
  g_assert_cmpuint (j->m.objects, >, 50);
  g_assert_cmpuint (tm_class_tree_node (tree, key)->m.objects, ==, j->m.objects);
  g_assert_cmpuint (j->m.retained_bytes, ==, j->m.deep_bytes);
  g_assert_cmpuint (tm_class_tree_node (tree, chm)->m.retained_bytes, >=,
                    j->m.deep_bytes + tm_class_tree_node (tree, key)->m.deep_bytes);
  g_assert_cmpuint (tm_class_tree_node (tree, node)->m.objects, >=, j->m.objects);
  /* all journeys are allocated (in Journey.<init>) called from one line
   * of JourneyCache.lookup */
  g_assert_cmpuint (j->n_children, ==, 1);
  {
    g_autofree char *site = tm_class_tree_node_label (tree, j->first_child);
    g_assert_true (g_str_has_prefix (site, "com.example.travel.JourneyCache.lookup("));
    g_assert_true (g_str_has_suffix (site, ":42"));
  }

  /* dominator chain of a journey: Node, Node[], the cache map */
  objects = tm_heap_analysis_get_objects (heap, &n);
  dom = tm_heap_analysis_get_dominators (heap);
  {
    guint32 item = tree->members[j->first];
    g_autoptr(GArray) chain_items = tm_dominator_tree_chain (dom, item);
    static const char *expect[] = {
      "com.example.travel.Journey", "java.util.concurrent.ConcurrentHashMap$Node",
      "java.util.concurrent.ConcurrentHashMap$Node[]", "java.util.concurrent.ConcurrentHashMap",
    };
    guint kind;
    g_autoptr(GArray) path_items = tm_heap_analysis_path_to_root (heap, item, &kind, NULL);

    g_assert_cmpuint (chain_items->len, ==, 4);
    for (guint i = 0; i < 4; i++)
      g_assert_cmpstr (tm_trace_type (trace, trace->obj_type[objects[g_array_index (chain_items, guint32, i)]])->name,
                       ==, expect[i]);
    g_assert_cmpuint (path_items->len, ==, 4);
    g_assert_cmpuint (kind, ==, TM_ROOT_KIND_STATIC);
  }

  g_unlink (path);
  g_rmdir (dir);
}

/* Path to GC roots against brute force on random graphs: each group's
 * representative is its first member retaining the most bytes (retained
 * = what no root reaches once the member is removed), and its path is a
 * chain of real references from a root, as short as breadth-first
 * search finds. */
static void
test_root_path_oracle (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (12);

  for (guint round = 0; round < 40; round++)
    {
      guint32 n_alloc = g_rand_int_range (rand, 4, 401);
      g_autoptr(TmTrace) trace = random_trace (rand, n_alloc);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmHeapAnalysis) heap = NULL;
      g_autoptr(TmClassTree) tree = NULL;
      g_autofree guint32 *live = NULL;
      g_autofree guint8 *reach = NULL;
      g_autofree guint32 *dist = NULL;
      g_autofree guint8 *removed = NULL;
      const TmHeapGraph *g;
      const guint32 *objects;
      TmClassifier type = TM_CLASSIFIER_TYPE;
      guint32 n_live;
      TestGraphSpec spec;

      live = tm_trace_live_objects (trace, N_GCS, &n_live);
      spec = test_graph_random (rand, n_live, g_rand_double_range (rand, 0.0, 1.5));
      for (guint e = 0; e < spec.src->len; e++)
        {
          g_array_index (spec.src, guint32, e) = live[g_array_index (spec.src, guint32, e)];
          g_array_index (spec.dst, guint32, e) = live[g_array_index (spec.dst, guint32, e)];
        }
      for (guint r = 0; r < spec.roots->len; r++)
        g_array_index (spec.roots, guint32, r) = live[g_array_index (spec.roots, guint32, r)];
      heap = tm_heap_analysis_new_for_graph (trace, test_graph_build (&spec, N_GCS, live), NULL, &error);
      test_graph_spec_clear (&spec);
      g_assert_no_error (error);
      g = tm_heap_analysis_get_graph (heap);
      objects = tm_heap_analysis_get_objects (heap, NULL);
      reach = test_reach (g, NULL);
      removed = g_new0 (guint8, MAX (g->n_nodes, 1));

      dist = test_root_distances (g);

      tree = tm_class_tree_new (heap, &type, 1, NULL, &error);
      g_assert_no_error (error);
      for (guint32 i = 0; i < tree->nodes->len; i++)
        {
          const TmClassNode *node = tm_class_tree_node (tree, i);
          g_autoptr(TmRootPath) path = NULL;
          guint32 expect = G_MAXUINT32, prev = 0;
          guint64 expect_bytes = 0;

          /* brute force: remove each member, count what is no longer reached */
          for (guint32 m = node->first; m < node->first + node->count; m++)
            {
              guint32 v = tree->members[m];
              g_autofree guint8 *without = NULL;
              guint64 bytes = 0;

              if (reach[v])
                {
                  removed[v] = 1;
                  without = test_reach (g, removed);
                  removed[v] = 0;
                  for (guint32 u = 0; u < g->n_nodes; u++)
                    if (reach[u] && !without[u])
                      bytes += tm_heap_analysis_item_size (heap, u);
                }
              if (expect == G_MAXUINT32 || bytes > expect_bytes)
                {
                  expect = v;
                  expect_bytes = bytes;
                }
            }
          g_assert_cmpuint (tm_heap_analysis_representative (heap, tree->members + node->first, node->count, NULL),
                            ==, expect);

          path = tm_root_path_new_for_group (tree, i, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (path->object, ==, objects[expect]);
          g_assert_cmpuint (path->retained_bytes, ==, expect_bytes);
          g_assert_cmpuint (path->gc_id, ==, N_GCS);
          if (dist[expect] == G_MAXUINT32)
            {
              g_assert_cmpuint (path->objects->len, ==, 0);
              continue;
            }
          g_assert_cmpuint (path->objects->len, ==, dist[expect]);
          g_assert_cmpuint (g_array_index (path->objects, guint32, path->objects->len - 1), ==, objects[expect]);
          for (guint k = 0; k < path->objects->len; k++)
            {
              guint32 v;

              g_assert_true (tm_heap_graph_node_for_object (g, g_array_index (path->objects, guint32, k), &v));
              if (k == 0)
                g_assert_cmpuint (dist[v], ==, 1);
              else
                {
                  gboolean edge = FALSE;
                  for (guint64 e = tm_heap_graph_edge_begin (g, prev), e_end = tm_heap_graph_edge_end (g, prev); e < e_end; e++)
                    edge |= g->edges[e] == v;
                  g_assert_true (edge);
                }
              prev = v;
            }
        }
    }
}

/* Package keys: the part of the type name before its last '.', array
 * brackets ignored; primitives, their arrays and classes of the default
 * package share one "(default package)" group. */
static void
test_package (void)
{
  static const struct { const char *type; const char *package; guint count; } types[] = {
    { "java.util.HashMap", "java.util", 3 },
    { "java.util.HashMap$Node[]", "java.util", 2 },
    { "java.lang.String", "java.lang", 5 },
    { "java.lang.String[][]", "java.lang", 1 },
    { "int[]", "(default package)", 4 },
    { "Foo", "(default package)", 2 },
    { "java.util.concurrent.ConcurrentHashMap", "java.util.concurrent", 1 },
  };
  TmTraceBuilder *b = tm_trace_builder_new (NULL, "tmtrace");
  TmTraceHeader h = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;
  g_autofree guint32 *objects = NULL;
  g_autofree guint32 *keys = NULL;
  guint64 oid = 1;
  guint32 n = 0;

  h.version = 1;
  h.vm_name = "test";
  h.vm_version = "1";
  h.command_line = "test";
  h.pointer_size = 8;
  tm_trace_builder_header (b, &h);
  g_assert_true (tm_trace_builder_thread (b, 1, "main", &error));
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    g_assert_true (tm_trace_builder_type (b, i + 1, types[i].type, 0, &error));
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    for (guint k = 0; k < types[i].count; k++, oid++)
      g_assert_true (tm_trace_builder_alloc (b, oid, i + 1, 0, 1, 32, 0, 0, &error));
  g_assert_true (tm_trace_builder_gc_start (b, 1, 1000, TM_GC_KIND_MINOR, "test", "test", &error));
  g_assert_true (tm_trace_builder_gc_end (b, 1, 2000, 1000, 0, NULL, &error));
  tm_trace_builder_end (b, oid - 1, 0, 1, 3000);
  t = tm_trace_builder_finish (b);

  n = t->n_objects;
  g_assert_cmpuint (n, ==, 18);
  objects = g_new (guint32, n);
  keys = g_new (guint32, n);
  for (guint32 i = 0; i < n; i++)
    objects[i] = i;
  tm_classifier_keys (TM_CLASSIFIER_PACKAGE, t, 1, objects, n, keys);
  for (guint32 i = 0; i < n; i++)
    {
      const char *type = tm_trace_type (t, t->obj_type[i])->name;
      g_autofree char *label = tm_classifier_key_label (TM_CLASSIFIER_PACKAGE, t, keys[i]);
      const char *want = NULL;

      for (guint k = 0; k < G_N_ELEMENTS (types); k++)
        if (g_str_equal (types[k].type, type))
          want = types[k].package;
      g_assert_cmpstr (label, ==, want);
      /* one key per package */
      for (guint32 j = 0; j < i; j++)
        {
          g_autofree char *other = tm_classifier_key_label (TM_CLASSIFIER_PACKAGE, t, keys[j]);
          g_assert_true ((keys[i] == keys[j]) == g_str_equal (label, other));
        }
    }
  g_assert_cmpuint (tm_classifier_domain (TM_CLASSIFIER_PACKAGE, t, 1), ==, t->types->len);
  {
    TmClassifier c;
    g_assert_true (tm_classifier_from_string ("package", &c));
    g_assert_cmpint (c, ==, TM_CLASSIFIER_PACKAGE);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/classify/oracle", test_oracle);
  g_test_add_func ("/classify/joint-ownership", test_joint_ownership);
  g_test_add_func ("/classify/no-graph", test_no_graph);
  g_test_add_func ("/classify/chain-parse", test_chain_parse);
  g_test_add_func ("/classify/package", test_package);
  g_test_add_func ("/classify/pairs-level", test_pairs_level);
  g_test_add_func ("/classify/synth-leak", test_synth_leak);
  g_test_add_func ("/classify/root-path-oracle", test_root_path_oracle);
  return g_test_run ();
}
