/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TrendViz with the data-structure classifiers (tm-classify-chain.h) on
 * the synthetic leak (tm-synth.h): com.example.travel.JourneyCache's
 * ConcurrentHashMap grows by one ConcurrentHashMap$Node, JourneyKey and
 * Journey per leaked entry.  Every expected value comes from the heap
 * itself: a detection of its own (tm_ds_detect_heap_analysis, counting
 * each structure's members directly, not through tm_ds_classify) and the
 * classification trees at both ends of the window.  Also: one detection
 * per GC shared by every computation on a TmHeapCache, and a cache over
 * its budget giving the same series.
 */
#include "tm-trend.h"
#include "tm-synth.h"
#include "tm-trace-loader.h"
#include "tm-error.h"

#include <glib/gstdio.h>
#include <string.h>

#define FROM_GC 40
#define TO_GC   200
#define NO_DS   "(no data structure)"

typedef struct {
  char    *dir;
  TmTrace *trace;
} Fixture;

static Fixture fx;

static void
fixture_setup (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  TmSynthOptions opt;

  fx.dir = g_dir_make_tmp ("tm-trend-ds-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (fx.dir, "leak.tmtrace", NULL);
  tm_synth_options_init (&opt);
  opt.scenario = "leak";
  g_assert_true (tm_synth_write_file (&opt, path, &error));
  g_assert_no_error (error);
  fx.trace = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_trace_n_gcs (fx.trace), >=, TO_GC);
}

/* What one graph GC holds, counted from a detection of our own. */
typedef struct {
  GHashTable *objects;     /* structure label -> objects (non-head members) */
  GHashTable *bytes;
  guint64     journey_keys; /* JourneyKey members of the JourneyCache map */
  char       *cache_label; /* the structure with JourneyKey members */
} Oracle;

static void
oracle_clear (Oracle *o)
{
  g_hash_table_unref (o->objects);
  g_hash_table_unref (o->bytes);
  g_free (o->cache_label);
}

static void
add_count (GHashTable *t, const char *label, guint64 v)
{
  guint64 *cur = g_hash_table_lookup (t, label);

  if (cur == NULL)
    {
      cur = g_new0 (guint64, 1);
      g_hash_table_insert (t, g_strdup (label), cur);
    }
  *cur += v;
}

static guint64
get_count (GHashTable *t, const char *label)
{
  guint64 *cur = g_hash_table_lookup (t, label);
  return cur ? *cur : 0;
}

static void
oracle_at (guint32 gc, Oracle *o)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDsl) dsl = tm_dsl_new_default (&error);
  g_autoptr(TmHeapAnalysis) heap = NULL;
  g_autoptr(TmDsResult) r = NULL;
  g_autofree guint8 *contained = NULL;
  guint32 n_items = 0;

  g_assert_no_error (error);
  heap = tm_heap_analysis_new (fx.trace, gc, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  r = tm_ds_detect_heap_analysis (heap, dsl, NULL, &error);
  g_assert_no_error (error);
  tm_heap_analysis_get_objects (heap, &n_items);
  contained = g_new0 (guint8, n_items);

  memset (o, 0, sizeof *o);
  o->objects = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  o->bytes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint32 s = 0; s < r->n_structures; s++)
    {
      g_autofree char *label = tm_ds_result_structure_label (r, fx.trace, s);
      guint64 keys = 0;

      g_assert_cmpuint (r->members[r->member_start[s]], ==, r->head[s]);
      for (guint64 m = r->member_start[s] + 1; m < r->member_start[s + 1]; m++)
        {
          guint32 node = r->members[m];
          const char *type = tm_trace_type (fx.trace, r->node_type[node])->name;

          add_count (o->objects, label, 1);
          add_count (o->bytes, label, r->node_size[node]);
          contained[node] = 1;
          if (strcmp (type, "com.example.travel.JourneyKey") == 0)
            keys++;
        }
      if (keys > 0)
        {
          /* one map holds the keys */
          g_assert_null (o->cache_label);
          o->cache_label = g_strdup (label);
          o->journey_keys = keys;
        }
    }
  for (guint32 n = 0; n < n_items; n++)
    if (!contained[n])
      {
        add_count (o->objects, NO_DS, 1);
        add_count (o->bytes, NO_DS, r->node_size[n]);
      }
}

static TmTrend *
compute (TmHeapCache *heaps, const char *chain, const char *drill, TmTrendMetric metric, GError **error)
{
  TmTrendRequest req;
  TmTrend *trend;

  tm_trend_request_init (&req);
  req.from_gc = FROM_GC;
  req.to_gc = TO_GC;
  req.metric = metric;
  g_assert_true (tm_classify_chain_parse (chain, req.chain, &req.depth, NULL));
  if (drill)
    g_assert_true (tm_trend_request_set_drill (&req, drill, NULL));
  trend = tm_trend_compute_cached (fx.trace, &req, heaps, NULL, NULL, NULL, error);
  tm_trend_request_clear (&req);
  return trend;
}

static void
test_chain_parse (void)
{
  g_autoptr(GError) error = NULL;
  TmClassifier chain[TM_CLASSIFY_MAX_DEPTH];
  guint depth;

  g_assert_true (tm_classify_chain_parse (" containing-ds, type,deep-leaves ,leaves", chain, &depth, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (depth, ==, 4);
  g_assert_cmpint (chain[0], ==, TM_CLASSIFIER_CONTAINING_DS);
  g_assert_cmpint (chain[1], ==, TM_CLASSIFIER_TYPE);
  g_assert_cmpint (chain[2], ==, TM_CLASSIFIER_DEEP_LEAVES);
  g_assert_cmpint (chain[3], ==, TM_CLASSIFIER_LEAVES);
  g_assert_true (tm_classify_chain_needs_ds (chain, 1));
  g_assert_false (tm_classify_chain_needs_ds (chain + 1, 1));
  g_assert_cmpstr (tm_chain_classifier_to_string (chain[2]), ==, "deep-leaves");
  g_assert_false (tm_classify_chain_parse ("type,leafs", chain, &depth, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "'leafs'"));
  /* the registry: names round-trip, every classifier has a title and a
   * distinct name, the per-object parser refuses the others */
  for (guint i = 0; i < TM_N_CLASSIFIERS; i++)
    {
      TmClassifier c = (TmClassifier) i, back;

      for (guint j = 0; j < i; j++)
        g_assert_cmpstr (tm_chain_classifier_to_string (c), !=, tm_chain_classifier_to_string ((TmClassifier) j));
      g_assert_true (tm_chain_classifier_from_string (tm_chain_classifier_to_string (c), &back));
      g_assert_cmpint (back, ==, c);
      g_assert_cmpstr (tm_chain_classifier_title (c), !=, "");
      g_assert_true (tm_classifier_from_string (tm_chain_classifier_to_string (c), NULL) == (c < TM_N_OBJECT_CLASSIFIERS));
      g_assert_true (tm_chain_classifier_needs_graph (c) == (c >= TM_N_OBJECT_CLASSIFIERS));
    }
  g_clear_error (&error);
  g_assert_false (tm_classifier_chain_parse ("type,leaves", chain, &depth, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (tm_classifier_chain_parse ("root-path", chain, &depth, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (tm_classify_chain_parse ("root-path,type", chain, &depth, &error));
  g_assert_cmpint (chain[0], ==, TM_CLASSIFIER_ROOT_PATH);
  g_assert_true (tm_classify_chain_needs_graph (chain, 1));
  g_assert_false (tm_classify_chain_needs_ds (chain, 2));
  g_assert_true (tm_chain_classifier_is_ds (TM_CLASSIFIER_LEAVES) && tm_chain_classifier_is_ds (TM_CLASSIFIER_CONTAINING_DS));
  g_assert_false (tm_chain_classifier_is_ds (TM_CLASSIFIER_ROOT_PATH) || tm_chain_classifier_is_ds (TM_CLASSIFIER_PACKAGE));
  g_assert_cmpint (tm_chain_classifier_ds (TM_CLASSIFIER_DEEP_LEAVES), ==, TM_DS_CLASSIFIER_DEEP_LEAVES);
}

static void
test_containing_ds (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDsl) dsl = tm_dsl_new_default (&error);
  g_autoptr(TmHeapCache) ds = NULL;
  g_autoptr(TmTrend) trend = NULL;
  g_autoptr(TmTrend) bytes = NULL;
  g_autoptr(TmTrend) drill = NULL;
  g_autoptr(GPtrArray) ranked = NULL;
  g_autoptr(GPtrArray) top = NULL;
  g_autoptr(GArray) plan_gcs = g_array_new (FALSE, FALSE, sizeof (guint32));
  Oracle *oracle;
  const TmTrendSeries *cache, *keys;
  char *cache_label;
  guint n, detected;
  guint64 entries_first = 0, entries_last = 0;

  g_assert_no_error (error);
  ds = tm_heap_cache_new (fx.trace, g_steal_pointer (&dsl), -1, TM_HEAP_CACHE_DEFAULT_BUDGET);

  for (guint32 g = FROM_GC; g <= TO_GC; g++)
    if (tm_trace_gc (fx.trace, g)->has_graph)
      g_array_append_val (plan_gcs, g);
  g_assert_cmpuint (plan_gcs->len, >=, 3);

  trend = compute (ds, "containing-ds,type", NULL, TM_TREND_METRIC_OBJECTS, &error);
  g_assert_no_error (error);
  n = trend->n_points;
  /* only the GCs with a graph, each detected once */
  g_assert_cmpuint (n, ==, plan_gcs->len);
  g_assert_true (trend->complete);
  for (guint p = 0; p < n; p++)
    g_assert_cmpuint (trend->gcs[p], ==, g_array_index (plan_gcs, guint32, p));
  g_assert_cmpint (trend->level_classifier, ==, TM_CLASSIFIER_CONTAINING_DS);
  detected = tm_heap_cache_get_n_detected (ds);
  g_assert_cmpuint (detected, ==, n);

  /* every value of every group against our own count at that GC */
  oracle = g_new0 (Oracle, n);
  for (guint p = 0; p < n; p++)
    oracle_at (trend->gcs[p], &oracle[p]);
  cache_label = oracle[n - 1].cache_label;
  g_assert_nonnull (cache_label);
  g_assert_true (g_str_has_prefix (cache_label, "java.util.concurrent.ConcurrentHashMap @"));
  for (guint i = 0; i < trend->groups->len; i++)
    {
      const TmTrendSeries *s = g_ptr_array_index (trend->groups, i);
      for (guint p = 0; p < n; p++)
        g_assert_cmpfloat (s->values[p], ==, (double) get_count (oracle[p].objects, s->key));
    }
  for (guint p = 0; p < n; p++)
    {
      GHashTableIter it;
      gpointer label;

      /* and no group of the oracle is missing */
      g_hash_table_iter_init (&it, oracle[p].objects);
      while (g_hash_table_iter_next (&it, &label, NULL))
        g_assert_nonnull (tm_trend_find_group (trend, label));
    }

  /* the JourneyCache map is the top abs-growth structure; only the
   * objects in no structure (the leaked Journeys' Strings and byte[])
   * may rank above it */
  ranked = tm_trend_select (trend, TM_TREND_SORT_ABS_GROWTH, 0, FALSE);
  for (guint i = 0; i < ranked->len; i++)
    {
      const TmTrendSeries *s = g_ptr_array_index (ranked, i);
      if (strcmp (s->key, NO_DS) == 0)
        continue;
      g_assert_cmpstr (s->key, ==, cache_label);
      break;
    }
  cache = tm_trend_find_group (trend, cache_label);
  g_assert_nonnull (cache);

  /* Growth from the trees at both ends: the map's children by type.
   * Each leaked entry adds a Node, a JourneyKey and a Journey, so the
   * types that grow grow alike, by the number of leaked entries. */
  {
    guint32 ends[2] = { trend->gcs[0], trend->gcs[n - 1] };
    guint64 child[2][3] = { { 0 } };
    const char *entry_types[3] = {
      "java.util.concurrent.ConcurrentHashMap$Node", "com.example.travel.JourneyKey",
      "com.example.travel.Journey",
    };
    guint64 others[2] = { 0, 0 };
    TmClassifier chain[2] = { TM_CLASSIFIER_CONTAINING_DS, TM_CLASSIFIER_TYPE };

    for (guint e = 0; e < 2; e++)
      {
        g_autoptr(TmHeapAnalysis) heap = tm_heap_analysis_new (fx.trace, ends[e], NULL, NULL, NULL, &error);
        g_autoptr(TmClassTree) tree = NULL;
        guint32 group;
        const TmClassNode *node;

        g_assert_no_error (error);
        tree = tm_classify_chain_tree (ds, heap, chain, 2, NULL, &error);
        g_assert_no_error (error);
        group = tm_class_tree_find_child (tree, 0, cache_label);
        g_assert_cmpuint (group, !=, TM_CLASS_NODE_NONE);
        node = tm_class_tree_node (tree, group);
        g_assert_cmpfloat ((double) node->m.objects, ==, cache->values[e ? n - 1 : 0]);
        for (guint32 c = node->first_child; c < node->first_child + node->n_children; c++)
          {
            g_autofree char *label = tm_class_tree_node_label (tree, c);
            gboolean is_entry = FALSE;

            for (guint t = 0; t < 3; t++)
              if (strcmp (label, entry_types[t]) == 0)
                {
                  child[e][t] = tm_class_tree_node (tree, c)->m.objects;
                  is_entry = TRUE;
                }
            if (!is_entry)
              others[e] += tm_class_tree_node (tree, c)->m.objects;
          }
      }
    /* the trees reused the detections of the trend */
    g_assert_cmpuint (tm_heap_cache_get_n_detected (ds), ==, detected);
    entries_first = child[0][1];
    entries_last = child[1][1];
    g_assert_cmpuint (entries_last, >, entries_first);
    for (guint t = 0; t < 3; t++)
      g_assert_cmpuint (child[1][t] - child[0][t], ==, entries_last - entries_first);
    g_assert_cmpuint (others[1], ==, others[0]);
    g_assert_cmpfloat (cache->values[n - 1] - cache->values[0], ==, 3.0 * (double) (entries_last - entries_first));
    g_assert_cmpuint (oracle[0].journey_keys, ==, entries_first);
    g_assert_cmpuint (oracle[n - 1].journey_keys, ==, entries_last);
  }
  /* per graph GC: three member objects per entry leaked since the last one */
  for (guint p = 1; p < n; p++)
    g_assert_cmpfloat (cache->values[p] - cache->values[p - 1], ==,
                       3.0 * (double) (oracle[p].journey_keys - oracle[p - 1].journey_keys));

  /* Other = total - shown with the map on top of the structures */
  top = tm_trend_select (trend, TM_TREND_SORT_ABS_GROWTH, 2, TRUE);
  g_assert_cmpuint (top->len, ==, 3);
  for (guint p = 0; p < n; p++)
    {
      double sum = 0;
      for (guint i = 0; i < top->len; i++)
        sum += ((TmTrendSeries *) g_ptr_array_index (top, i))->values[p];
      g_assert_cmpfloat (sum, ==, trend->total[p]);
    }

  /* bytes: the same groups, the members' sizes */
  bytes = compute (ds, "containing-ds", NULL, TM_TREND_METRIC_BYTES, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_heap_cache_get_n_detected (ds), ==, detected);
  for (guint i = 0; i < bytes->groups->len; i++)
    {
      const TmTrendSeries *s = g_ptr_array_index (bytes->groups, i);
      for (guint p = 0; p < n; p++)
        g_assert_cmpfloat (s->values[p], ==, (double) get_count (oracle[p].bytes, s->key));
    }

  /* drill into the map: its members by type; JourneyKey counts the entries */
  drill = compute (ds, "containing-ds,type", cache_label, TM_TREND_METRIC_OBJECTS, &error);
  g_assert_no_error (error);
  g_assert_cmpint (drill->level_classifier, ==, TM_CLASSIFIER_TYPE);
  g_assert_cmpuint (tm_heap_cache_get_n_detected (ds), ==, detected);
  keys = tm_trend_find_group (drill, "com.example.travel.JourneyKey");
  g_assert_nonnull (keys);
  for (guint p = 0; p < n; p++)
    {
      g_assert_cmpfloat (keys->values[p], ==, (double) oracle[p].journey_keys);
      g_assert_cmpfloat (drill->total[p], ==, cache->values[p]);
    }

  /* a context over budget keeps only the result in use: the same series */
  {
    g_autoptr(TmDsl) dsl2 = tm_dsl_new_default (&error);
    g_autoptr(TmHeapCache) small = NULL;
    g_autoptr(TmTrend) again = NULL;

    g_assert_no_error (error);
    small = tm_heap_cache_new (fx.trace, g_steal_pointer (&dsl2), -1, 1);
    again = compute (small, "containing-ds,type", NULL, TM_TREND_METRIC_OBJECTS, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (tm_heap_cache_get_n_kept (small), ==, 1);
    g_assert_cmpuint (tm_heap_cache_get_n_detected (small), ==, n);
    g_assert_cmpuint (again->groups->len, ==, trend->groups->len);
    for (guint i = 0; i < again->groups->len; i++)
      {
        const TmTrendSeries *s = g_ptr_array_index (again->groups, i);
        const TmTrendSeries *t = tm_trend_find_group (trend, s->key);
        g_assert_nonnull (t);
        for (guint p = 0; p < n; p++)
          g_assert_cmpfloat (s->values[p], ==, t->values[p]);
      }
  }

  for (guint p = 0; p < n; p++)
    oracle_clear (&oracle[p]);
  g_free (oracle);
}

static void
test_leaves_and_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrend) leaves = NULL;
  g_autoptr(TmTrend) type_top = NULL;
  g_autoptr(TmTrend) none = NULL;
  TmTrendRequest req;
  guint32 gap_from = 0, gap_to = 0;

  /* no context: the shipped descriptions; a built-in level above a
   * data-structure one keeps the one-pass plan (every GC) */
  type_top = compute (NULL, "type,leaves", NULL, TM_TREND_METRIC_OBJECTS, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (type_top->n_points, ==, TO_GC - FROM_GC + 1);

  /* leaves: a map's leaves are its keys and values (LEAF members) */
  leaves = compute (NULL, "leaves,type", NULL, TM_TREND_METRIC_OBJECTS, &error);
  g_assert_no_error (error);
  for (guint p = 0; p < leaves->n_points; p++)
    g_assert_true (tm_trace_gc (fx.trace, leaves->gcs[p])->has_graph);
  g_assert_cmpuint (leaves->groups->len, >, 0);

  /* a window without a graph */
  for (guint32 g = FROM_GC; g < TO_GC && gap_to == 0; g++)
    if (!tm_trace_gc (fx.trace, g)->has_graph && !tm_trace_gc (fx.trace, g + 1)->has_graph)
      gap_from = g, gap_to = g + 1;
  g_assert_cmpuint (gap_to, !=, 0);
  tm_trend_request_init (&req);
  req.from_gc = gap_from;
  req.to_gc = gap_to;
  g_assert_true (tm_classify_chain_parse ("containing-ds", req.chain, &req.depth, NULL));
  g_assert_true (tm_trend_request_uses_ds (&req));
  none = tm_trend_compute (fx.trace, &req, NULL, NULL, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, TM_ERROR, TM_ERROR_NO_GRAPH);
  tm_trend_request_clear (&req);
  g_clear_error (&error);

  /* an unknown structure to drill into */
  none = compute (NULL, "containing-ds,type", "java.util.HashMap @1", TM_TREND_METRIC_OBJECTS, &error);
  g_assert_null (none);
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  fixture_setup ();
  g_test_add_func ("/trend-ds/chain-parse", test_chain_parse);
  g_test_add_func ("/trend-ds/containing-ds", test_containing_ds);
  g_test_add_func ("/trend-ds/leaves-and-errors", test_leaves_and_errors);
  ret = g_test_run ();
  g_clear_pointer (&fx.trace, tm_trace_unref);
  {
    /* the trace reads its graphs from the file on demand: removed last */
    g_autofree char *path = g_build_filename (fx.dir, "leak.tmtrace", NULL);
    g_unlink (path);
  }
  g_rmdir (fx.dir);
  g_free (fx.dir);
  return ret;
}
