/* SPDX-License-Identifier: GPL-3.0-or-later
 * Data structure growth: one hand-built pair of heaps with a structure per
 * metric pattern (exact sizes, HGP and ranking), and the synthetic
 * easyTravel-like leak, where the cache map must rank first with
 * single-ownership container growth. */
#include "tm-ds-growth.h"
#include "tm-heap-graph.h"
#include "tm-synth.h"
#include "tm-trace-loader.h"
#include "tm-error.h"

#include <glib/gstdio.h>
#include <string.h>

/* A heap over a window: every object says at which ends it is alive. */
typedef struct {
  GArray *type, *size, *alive;   /* per object; alive: bit 0 start, bit 1 end */
  GArray *src, *dst, *when;      /* references; when: same bits */
} Window;

enum { START = 1, END = 2, BOTH = 3 };

static guint32
obj (Window *w, guint32 type, guint32 size, guint8 alive)
{
  g_array_append_val (w->type, type);
  g_array_append_val (w->size, size);
  g_array_append_val (w->alive, alive);
  return w->type->len - 1;
}

static void
ref (Window *w, guint32 a, guint32 b, guint8 when)
{
  g_array_append_val (w->src, a);
  g_array_append_val (w->dst, b);
  g_array_append_val (w->when, when);
}

static TmHeapGraph *
graph_at (Window *w, guint8 end, guint32 gc_id)
{
  g_autoptr(GArray) objects = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) src = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) dst = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 root = 0;
  guint8 kind = 1;

  for (guint32 i = 0; i < w->type->len; i++)
    if (g_array_index (w->alive, guint8, i) & end)
      g_array_append_val (objects, i);
  for (guint32 e = 0; e < w->src->len; e++)
    if (g_array_index (w->when, guint8, e) & end)
      {
        g_array_append_val (src, g_array_index (w->src, guint32, e));
        g_array_append_val (dst, g_array_index (w->dst, guint32, e));
      }
  return tm_heap_graph_new (gc_id, (guint32 *) (void *) objects->data, objects->len,
                            (guint32 *) (void *) src->data, (guint32 *) (void *) dst->data, src->len,
                            &root, &kind, 1);
}

static const TmDsGrowthEntry *
entry_for (const TmDsGrowth *g, guint32 object_index, guint *rank)
{
  *rank = G_MAXUINT;
  for (guint i = 0; i < g->entries->len; i++)
    if (g_array_index (g->entries, TmDsGrowthEntry, i).object_index == object_index)
      {
        *rank = i;
        return &g_array_index (g->entries, TmDsGrowthEntry, i);
      }
  return NULL;
}

static void
assert_growth (const TmDsGrowthEntry *e, TmDsMetric m, gint64 bytes)
{
  g_assert_cmpint (tm_ds_growth_entry_delta (e, m), ==, bytes);
}

/* Deep sizes taken from the dominator tree for closed subtrees equal a
 * walk of the closure. */
static void
assert_deep_walked (TmDsGrowth *g)
{
  for (guint i = 0; i < g->entries->len; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (g->entries, TmDsGrowthEntry, i);

      for (guint k = 0; k < 2; k++)
        {
          TmDsSize walked = { 0, 0 };

          if (e->structure[k] != TM_DS_NONE)
            walked = tm_ds_result_deep (g->result[k], e->structure[k], NULL);
          g_assert_cmpuint (e->size[TM_DS_METRIC_DEEP][k].objects, ==, walked.objects);
          g_assert_cmpuint (e->size[TM_DS_METRIC_DEEP][k].bytes, ==, walked.bytes);
        }
    }
}

static void
test_patterns (void)
{
  const char *dsl_text = "namespace g { DS List { Node; } Node { Node; (*); } }";
  const char *names[] = { "g.Root", "g.List", "g.Node", "g.Elem", "g.Blob", "g.Holder", NULL };
  enum { ROOT, LIST, NODE, ELEM, BLOB, HOLDER };
  Window w = { g_array_new (FALSE, FALSE, 4), g_array_new (FALSE, FALSE, 4), g_array_new (FALSE, FALSE, 1),
               g_array_new (FALSE, FALSE, 4), g_array_new (FALSE, FALSE, 4), g_array_new (FALSE, FALSE, 1) };
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(TmDsTypes) types = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDsGrowth) growth = NULL;
  TmHeapGraph *graphs[2];
  TmDominatorTree *doms[2];
  TmDsGrowthHeap heaps[2];
  guint32 root, a, b, c, d, e, f, x, h1, h2, n, m, el, rank;
  const TmDsGrowthEntry *en;

  g_assert_true (tm_dsl_add_string (dsl, "g.ds", dsl_text, -1, &error));
  types = tm_ds_types_new (dsl, names, NULL, 6);

  root = obj (&w, ROOT, 8, BOTH);
  h1 = obj (&w, HOLDER, 8, BOTH);
  h2 = obj (&w, HOLDER, 8, BOTH);
  ref (&w, root, h1, BOTH);
  ref (&w, root, h2, BOTH);

  /* A: single-ownership container growth: two entries added */
  a = obj (&w, LIST, 40, BOTH);
  ref (&w, root, a, BOTH);
  n = obj (&w, NODE, 16, BOTH); ref (&w, a, n, BOTH);
  el = obj (&w, ELEM, 100, BOTH); ref (&w, n, el, BOTH);
  x = obj (&w, LIST, 40, BOTH); ref (&w, n, x, BOTH);      /* nested: not in the view */
  for (guint i = 0; i < 2; i++)
    {
      m = obj (&w, NODE, 16, END); ref (&w, n, m, END); n = m;
      el = obj (&w, ELEM, 100, END); ref (&w, n, el, END);
    }

  /* B: shared-ownership container growth: the new elements are also held
   * by h1, so only the nodes are retained by the list */
  b = obj (&w, LIST, 40, BOTH);
  ref (&w, root, b, BOTH);
  n = obj (&w, NODE, 16, BOTH); ref (&w, b, n, BOTH);
  el = obj (&w, ELEM, 100, BOTH); ref (&w, n, el, BOTH);
  for (guint i = 0; i < 2; i++)
    {
      m = obj (&w, NODE, 16, END); ref (&w, n, m, END); n = m;
      el = obj (&w, ELEM, 100, END); ref (&w, n, el, END); ref (&w, h1, el, END);
    }

  /* C: single-ownership data growth: the element (a leaf) grows */
  c = obj (&w, LIST, 40, BOTH);
  ref (&w, root, c, BOTH);
  n = obj (&w, NODE, 16, BOTH); ref (&w, c, n, BOTH);
  el = obj (&w, ELEM, 100, BOTH); ref (&w, n, el, BOTH);
  m = obj (&w, BLOB, 1000, BOTH); ref (&w, el, m, BOTH);
  for (guint i = 0; i < 2; i++)
    {
      m = obj (&w, BLOB, 1000, END);
      ref (&w, el, m, END);
    }

  /* D: shared-ownership data growth: the same, but h2 holds the new data */
  d = obj (&w, LIST, 40, BOTH);
  ref (&w, root, d, BOTH);
  n = obj (&w, NODE, 16, BOTH); ref (&w, d, n, BOTH);
  el = obj (&w, ELEM, 100, BOTH); ref (&w, n, el, BOTH);
  for (guint i = 0; i < 2; i++)
    {
      m = obj (&w, BLOB, 1000, END);
      ref (&w, el, m, END);
      ref (&w, h2, m, END);
    }

  /* E: non-growth; it even loses an element */
  e = obj (&w, LIST, 40, BOTH);
  ref (&w, root, e, BOTH);
  n = obj (&w, NODE, 16, BOTH); ref (&w, e, n, BOTH);
  el = obj (&w, ELEM, 100, BOTH); ref (&w, n, el, BOTH);
  m = obj (&w, NODE, 16, START); ref (&w, n, m, START);
  el = obj (&w, ELEM, 100, START); ref (&w, m, el, START);

  /* F: born inside the window: grows from zero */
  f = obj (&w, LIST, 40, END);
  ref (&w, root, f, END);

  for (guint k = 0; k < 2; k++)
    {
      TmObjectSizes sizes = { NULL, (guint32 *) (void *) w.size->data };

      graphs[k] = graph_at (&w, k == 0 ? START : END, k == 0 ? 3 : 7);
      doms[k] = tm_dominator_tree_new (graphs[k], &sizes, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      heaps[k].heap.graph = graphs[k];
      heaps[k].heap.obj_type = (guint32 *) (void *) w.type->data;
      heaps[k].heap.sizes = sizes;
      heaps[k].dominators = doms[k];
    }

  growth = tm_ds_growth_new_for_heaps (types, &heaps[0], &heaps[1], NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (growth);
  g_assert_cmpuint (growth->from_gc, ==, 3);
  g_assert_cmpuint (growth->to_gc, ==, 7);
  /* new: A 232, B 232, C 2000, D 2000, F 40; gone: E 116 */
  g_assert_cmpint (growth->heap_growth_bytes, ==, 232 + 232 + 2000 + 2000 + 40 - 116);
  g_assert_cmpuint (growth->n_structures[0], ==, 6);
  g_assert_cmpuint (growth->n_structures[1], ==, 7);
  /* x is nested; f is new and counts from zero */
  g_assert_cmpuint (growth->entries->len, ==, 6);

  en = entry_for (growth, a, &rank);
  g_assert_nonnull (en);
  g_assert_cmpuint (rank, ==, 1);
  assert_growth (en, TM_DS_METRIC_RETAINED, 232);
  assert_growth (en, TM_DS_METRIC_DEEP, 232);
  assert_growth (en, TM_DS_METRIC_DS, 232);
  assert_growth (en, TM_DS_METRIC_DEEP_DS, 232);
  g_assert_cmpuint (en->size[TM_DS_METRIC_DS][0].bytes, ==, 40 + 16 + 100 + 40);
  g_assert_cmpuint (en->size[TM_DS_METRIC_DS][1].objects, ==, 8);
  g_assert_cmpuint (en->size[TM_DS_METRIC_RETAINED][1].objects, ==, 8);
  g_assert_cmpfloat_with_epsilon (en->hgp[TM_DS_METRIC_RETAINED], 232.0 / 4388.0, 1e-12);
  g_assert_cmpint (en->pattern, ==, TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH);

  en = entry_for (growth, b, &rank);
  g_assert_cmpuint (rank, ==, 3);
  assert_growth (en, TM_DS_METRIC_RETAINED, 32);
  assert_growth (en, TM_DS_METRIC_DEEP, 232);
  assert_growth (en, TM_DS_METRIC_DS, 232);
  g_assert_cmpint (en->pattern, ==, TM_DS_PATTERN_SHARED_CONTAINER_GROWTH);

  en = entry_for (growth, c, &rank);
  g_assert_cmpuint (rank, ==, 0);
  assert_growth (en, TM_DS_METRIC_RETAINED, 2000);
  assert_growth (en, TM_DS_METRIC_DEEP, 2000);
  assert_growth (en, TM_DS_METRIC_DS, 0);
  assert_growth (en, TM_DS_METRIC_DEEP_DS, 0);
  g_assert_cmpfloat_with_epsilon (en->hgp[TM_DS_METRIC_DEEP], 2000.0 / 4388.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (en->hgp[TM_DS_METRIC_DS], 0.0, 1e-12);
  g_assert_cmpint (en->pattern, ==, TM_DS_PATTERN_SINGLE_DATA_GROWTH);

  en = entry_for (growth, d, &rank);
  g_assert_cmpuint (rank, ==, 4);
  assert_growth (en, TM_DS_METRIC_RETAINED, 0);
  assert_growth (en, TM_DS_METRIC_DEEP, 2000);
  assert_growth (en, TM_DS_METRIC_DS, 0);
  g_assert_cmpint (en->pattern, ==, TM_DS_PATTERN_SHARED_DATA_GROWTH);

  en = entry_for (growth, e, &rank);
  g_assert_cmpuint (rank, ==, 5);
  assert_growth (en, TM_DS_METRIC_RETAINED, -116);
  assert_growth (en, TM_DS_METRIC_DEEP, -116);
  assert_growth (en, TM_DS_METRIC_DEEP_DS, -116);
  g_assert_cmpfloat (en->hgp[TM_DS_METRIC_RETAINED], <, 0.0);
  g_assert_cmpint (en->pattern, ==, TM_DS_PATTERN_NON_GROWTH);

  en = entry_for (growth, f, &rank);
  g_assert_nonnull (en);
  g_assert_cmpuint (rank, ==, 2);
  g_assert_true (en->born);
  g_assert_cmpuint (en->structure[0], ==, TM_DS_NONE);
  for (guint mt = 0; mt < TM_DS_N_METRICS; mt++)
    {
      g_assert_cmpuint (en->size[mt][0].objects, ==, 0);
      assert_growth (en, mt, 40);
    }
  g_assert_cmpint (en->pattern, ==, TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH);
  g_assert_false (entry_for (growth, a, &rank)->born);
  assert_deep_walked (growth);
  g_assert_null (entry_for (growth, x, &rank));

  g_clear_pointer (&growth, tm_ds_growth_free);
  for (guint k = 0; k < 2; k++)
    {
      tm_dominator_tree_free (doms[k]);
      tm_heap_graph_free (graphs[k]);
    }
  g_array_unref (w.type); g_array_unref (w.size); g_array_unref (w.alive);
  g_array_unref (w.src); g_array_unref (w.dst); g_array_unref (w.when);
}

static void
test_pattern_rule (void)
{
  TmDsGrowthEntry e = { 0 };

  /* boundaries of the documented rule */
  e.size[TM_DS_METRIC_DEEP][1].bytes = 100;
  e.size[TM_DS_METRIC_RETAINED][1].bytes = 50;
  g_assert_cmpint (tm_ds_growth_classify (&e), ==, TM_DS_PATTERN_SINGLE_DATA_GROWTH);
  e.size[TM_DS_METRIC_RETAINED][1].bytes = 49;
  g_assert_cmpint (tm_ds_growth_classify (&e), ==, TM_DS_PATTERN_SHARED_DATA_GROWTH);
  e.size[TM_DS_METRIC_DEEP_DS][0].objects = 5;
  e.size[TM_DS_METRIC_DEEP_DS][1].objects = 6;
  g_assert_cmpint (tm_ds_growth_classify (&e), ==, TM_DS_PATTERN_SHARED_CONTAINER_GROWTH);
  e.size[TM_DS_METRIC_RETAINED][1].bytes = 51;
  g_assert_cmpint (tm_ds_growth_classify (&e), ==, TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH);
  e.size[TM_DS_METRIC_DEEP][0].bytes = 100;
  e.size[TM_DS_METRIC_RETAINED][0].bytes = 51;
  g_assert_cmpint (tm_ds_growth_classify (&e), ==, TM_DS_PATTERN_NON_GROWTH);
  g_assert_cmpstr (tm_ds_pattern_to_string (TM_DS_PATTERN_SHARED_DATA_GROWTH), ==, "shared-ownership-data-growth");
  g_assert_cmpstr (tm_ds_metric_to_string (TM_DS_METRIC_DEEP_DS), ==, "deep_ds");
}

/* The easyTravel-like leak: a ConcurrentHashMap cache whose key class
 * lacks equals/hashCode grows from 20% of the run to the end. */
static void
test_synthetic_leak (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tm-ds-growth-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "leak.tmtrace", NULL);
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(TmHeapCache) heaps = NULL;
  const TmDsl *dsl;
  g_autoptr(TmDsGrowth) growth = NULL;
  g_autoptr(GArray) leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
  TmSynthOptions options;
  const TmDsGrowthEntry *top;
  guint32 from = 0, to = 0, n = 0, keys = 0, chm = 0;

  g_assert_no_error (error);
  tm_synth_options_init (&options);
  options.scenario = "leak";
  g_assert_true (tm_synth_write_file (&options, path, &error));
  g_assert_no_error (error);
  trace = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* the window: the first graph after the leak began (20%) to the last */
  n = tm_trace_n_gcs (trace);
  for (guint32 gc = 1; gc <= n; gc++)
    if (tm_trace_gc (trace, gc)->has_graph)
      {
        if (from == 0 && gc > n / 4)
          from = gc;
        to = gc;
      }
  g_assert_cmpuint (from, >, 0);
  g_assert_cmpuint (to, >, from);

  heaps = tm_heap_cache_new (trace, NULL, -1, TM_HEAP_CACHE_DEFAULT_BUDGET);
  dsl = tm_heap_cache_get_dsl (heaps, &error);
  g_assert_no_error (error);
  growth = tm_ds_growth_new (heaps, from, to, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (growth);
  g_assert_cmpint (growth->heap_growth_bytes, >, 0);
  g_assert_cmpuint (growth->entries->len, >=, 2);   /* the cache and the session map */

  for (guint i = 0; i < growth->entries->len; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (growth->entries, TmDsGrowthEntry, i);
      if (strcmp (tm_trace_type (trace, e->type)->name, "java.util.concurrent.ConcurrentHashMap") == 0)
        chm++;
    }
  g_assert_cmpuint (chm, >=, 2);

  assert_deep_walked (growth);
  top = &g_array_index (growth->entries, TmDsGrowthEntry, 0);
  g_assert_cmpstr (tm_trace_type (trace, top->type)->name, ==, "java.util.concurrent.ConcurrentHashMap");
  g_assert_cmpint (top->pattern, ==, TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH);
  /* it is the cache: its leaves at the end are the journey keys */
  tm_ds_result_leaves (growth->result[1], top->structure[1], leaves);
  for (guint i = 0; i < leaves->len; i++)
    {
      guint32 node = g_array_index (leaves, guint32, i);
      if (strcmp (tm_trace_type (trace, growth->result[1]->node_type[node])->name,
                  "com.example.travel.JourneyKey") == 0)
        keys++;
    }
  g_assert_cmpuint (keys, >, 100);
  /* the leak is most of the heap's growth */
  g_assert_cmpfloat (top->hgp[TM_DS_METRIC_RETAINED], >, 0.5);
  g_assert_cmpfloat (top->hgp[TM_DS_METRIC_RETAINED], <=, 1.0 + 1e-9);
  if (growth->entries->len > 1)
    g_assert_cmpfloat (g_array_index (growth->entries, TmDsGrowthEntry, 1).hgp[TM_DS_METRIC_RETAINED], <, 0.1);

  /* detection straight on the heap analysis, and containing-ds: every
   * journey key lies in the cache */
  {
    g_autoptr(TmDsResult) r = tm_ds_detect_heap_analysis (growth->analysis[1], dsl, NULL, &error);
    g_autoptr(GArray) containing = g_array_new (FALSE, FALSE, sizeof (guint32));
    g_autofree char *label = NULL;
    guint32 key_node = G_MAXUINT32;

    g_assert_no_error (error);
    g_assert_cmpuint (r->n_structures, ==, growth->n_structures[1]);
    label = tm_ds_result_structure_label (r, trace, top->structure[1]);
    g_assert_true (g_str_has_prefix (label, "java.util.concurrent.ConcurrentHashMap @"));
    for (guint i = 0; i < leaves->len && key_node == G_MAXUINT32; i++)
      {
        guint32 node = g_array_index (leaves, guint32, i);
        if (strcmp (tm_trace_type (trace, r->node_type[node])->name, "com.example.travel.JourneyKey") == 0)
          key_node = node;
      }
    tm_ds_result_containing (r, key_node, containing);
    g_assert_cmpuint (containing->len, ==, 1);
    g_assert_cmpuint (g_array_index (containing, guint32, 0), ==, top->structure[1]);
  }

  /* a window without graphs is refused with the reason */
  {
    guint32 no_graph = 0;
    g_autoptr(TmDsGrowth) none = NULL;

    for (guint32 gc = 1; gc <= n && no_graph == 0; gc++)
      if (!tm_trace_gc (trace, gc)->has_graph)
        no_graph = gc;
    g_assert_cmpuint (no_graph, >, 0);
    none = tm_ds_growth_new (heaps, no_graph, to, NULL, NULL, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, TM_ERROR, TM_ERROR_NO_GRAPH);
    g_clear_error (&error);
    none = tm_ds_growth_new (heaps, to, from, NULL, NULL, NULL, &error);
    g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  }

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ds-growth/patterns", test_patterns);
  g_test_add_func ("/ds-growth/pattern-rule", test_pattern_rule);
  g_test_add_func ("/ds-growth/synthetic-leak", test_synthetic_leak);
  return g_test_run ();
}
