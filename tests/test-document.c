/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmDocument: one owner of everything derived from a trace.  On the
 * synthetic leak (a graph every 10 GCs):
 * - the heap tree, TrendViz, data structure growth and path to roots of
 *   the same GCs build each GC's dominator tree once (the library's
 *   build counter, which also counts builds that bypass the cache);
 * - the async twins deliver on the caller's main context, with progress
 *   and partial results coalesced there and never after the result, and
 *   a cancelled request fails with G_IO_ERROR_CANCELLED and reports
 *   nothing;
 * - graphs are re-read through the handle opened at load, so the
 *   document keeps working after its file is removed;
 * - the windows of the same parameters are computed once;
 * - the path to roots is a real chain of references from a root, as
 *   short as a breadth-first search over the graph finds.
 */
#include "tm-document.h"
#include "tm-synth.h"
#include "tm-error.h"
#include "heap-test-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

typedef struct {
  char       *dir;
  char       *path;
} Fixture;

static Fixture fx;

static void
fixture_setup (void)
{
  g_autoptr(GError) error = NULL;
  TmSynthOptions opt;

  fx.dir = g_dir_make_tmp ("tm-document-XXXXXX", &error);
  g_assert_no_error (error);
  fx.path = g_build_filename (fx.dir, "leak.tmtrace", NULL);
  tm_synth_options_init (&opt);
  opt.scenario = "leak";
  opt.scale = 0.5;
  g_assert_true (tm_synth_write_file (&opt, fx.path, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (void)
{
  g_unlink (fx.path);
  g_rmdir (fx.dir);
  g_free (fx.path);
  g_free (fx.dir);
}

static TmDocument *
load (void)
{
  g_autoptr(GError) error = NULL;
  TmDocument *doc = tm_document_load (fx.path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* The GCs with a reference graph, ascending. */
static GArray *
graph_gcs (TmTrace *trace)
{
  GArray *gcs = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 gc = 1; gc <= tm_trace_n_gcs (trace); gc++)
    if (tm_trace_gc (trace, gc)->has_graph)
      g_array_append_val (gcs, gc);
  return gcs;
}

static void
test_one_build_per_gc (void)
{
  g_autoptr(TmDocument) doc = load ();
  TmTrace *trace = tm_document_get_trace (doc);
  g_autoptr(GArray) gcs = graph_gcs (trace);
  g_autoptr(GError) error = NULL;
  TmClassifier chain[2];
  guint depth, before, n;
  guint32 first, last;

  g_assert_cmpuint (gcs->len, >=, 4);
  first = g_array_index (gcs, guint32, 1);
  last = g_array_index (gcs, guint32, gcs->len - 1);
  n = 0;
  for (guint i = 0; i < gcs->len; i++)
    n += g_array_index (gcs, guint32, i) >= first;

  before = tm_dominator_tree_get_n_builds ();

  /* the heap view: a tree at the last GC, deep and retained sizes, a
   * data-structure level */
  {
    g_autoptr(TmClassTree) tree = NULL;

    g_assert_true (tm_classify_chain_parse ("containing-ds,type", chain, &depth, NULL));
    tree = tm_document_class_tree (doc, last, chain, depth, TM_DOCUMENT_TREE_DEFAULT, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (tm_document_tree_metrics (doc, tree, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (tm_dominator_tree_get_n_builds () - before, ==, 1);
  }

  /* the trend view: retained sizes over the window, then a drill-down,
   * then the data-structure classifier */
  {
    TmTrendRequest req;
    g_autoptr(TmTrend) a = NULL;
    g_autoptr(TmTrend) b = NULL;
    g_autoptr(TmTrend) c = NULL;

    tm_trend_request_init (&req);
    req.from_gc = first;
    req.to_gc = last;
    req.metric = TM_TREND_METRIC_RETAINED_BYTES;
    g_assert_true (tm_classify_chain_parse ("type,site", req.chain, &req.depth, NULL));
    a = tm_document_trend (doc, &req, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (a->n_points, ==, n);
    g_assert_true (tm_trend_request_set_drill (&req, "com.example.travel.Journey", &error));
    b = tm_document_trend (doc, &req, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    tm_trend_request_clear (&req);
    tm_trend_request_init (&req);
    req.from_gc = first;
    req.to_gc = last;
    g_assert_true (tm_classify_chain_parse ("containing-ds", req.chain, &req.depth, NULL));
    c = tm_document_trend (doc, &req, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    tm_trend_request_clear (&req);
    g_assert_cmpuint (tm_dominator_tree_get_n_builds () - before, ==, n);
  }

  /* data structure growth between the window's ends, and path to roots */
  {
    g_autoptr(TmDsGrowth) growth = tm_document_ds_growth (doc, first, last, NULL, NULL, NULL, &error);
    g_autoptr(TmRootPath) path = NULL;
    g_autoptr(TmHeapAnalysis) heap = NULL;
    const guint32 *objects;
    guint32 n_items;

    g_assert_no_error (error);
    g_assert_cmpuint (growth->entries->len, >, 0);
    heap = tm_document_heap (doc, last, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    objects = tm_heap_analysis_get_objects (heap, &n_items);
    path = tm_document_path_to_root (doc, last, objects[n_items - 1], NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (path->object, ==, objects[n_items - 1]);
  }
  g_assert_cmpuint (tm_dominator_tree_get_n_builds () - before, ==, n);
  g_assert_cmpuint (tm_heap_cache_get_n_built (tm_document_get_heap_cache (doc)), ==, n);
  /* one data-structure detection per GC across the tree, the trend and growth */
  g_assert_cmpuint (tm_heap_cache_get_n_detected (tm_document_get_heap_cache (doc)), ==, n);

  /* new descriptions drop the detections, not the heaps */
  g_assert_true (tm_document_set_ds_files (doc, NULL, &error));
  {
    g_autoptr(TmClassTree) tree = tm_document_class_tree (doc, last, chain, depth, TM_DOCUMENT_TREE_DEFAULT,
                                                          NULL, NULL, NULL, &error);
    g_assert_no_error (error);
  }
  g_assert_cmpuint (tm_dominator_tree_get_n_builds () - before, ==, n);
  g_assert_cmpuint (tm_heap_cache_get_n_detected (tm_document_get_heap_cache (doc)), ==, n + 1);
}

/* ---- async ---- */

typedef struct {
  GMainLoop *loop;
  GThread   *main_thread;
  guint      n_progress;
  double     last_fraction;
  guint      n_partials;
  gpointer   result;
  GError    *error;
} Wait;

static void
wait_progress (double fraction, gpointer data)
{
  Wait *w = data;

  g_assert_true (g_thread_self () == w->main_thread);
  g_assert_cmpfloat (fraction, >=, w->last_fraction);
  w->last_fraction = fraction;
  w->n_progress++;
}

static void
wait_partial (TmTrend *partial, gpointer data)
{
  Wait *w = data;

  g_assert_true (g_thread_self () == w->main_thread);
  g_assert_cmpuint (partial->n_points, <=, partial->n_planned);
  w->n_partials++;
}

static void
heap_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;
  w->result = tm_document_heap_finish (TM_DOCUMENT (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static void
trend_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;
  w->result = tm_document_trend_finish (TM_DOCUMENT (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static void
load_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;
  w->result = tm_document_load_finish (result, &w->error);
  g_main_loop_quit (w->loop);
}

/* TmProgress itself: reports from another thread arrive coalesced on the
 * creating thread, the latest value and payload only; none after stop. */
typedef struct {
  TmProgress *progress;
} Pump;

static gpointer
pump_thread (gpointer data)
{
  Pump *p = data;

  for (int i = 1; i <= 100; i++)
    tm_progress_update (i / 100.0, p->progress);
  tm_progress_offer (p->progress, g_strdup ("first"), g_free);
  tm_progress_offer (p->progress, g_strdup ("latest"), g_free);
  return NULL;
}

static void
payload_seen (gpointer payload, gpointer data)
{
  Wait *w = data;

  g_assert_true (g_thread_self () == w->main_thread);
  g_assert_cmpstr (payload, ==, "latest");
  w->n_partials++;
}

static void
test_progress (void)
{
  Wait w = { NULL, g_thread_self (), 0, 0, 0, NULL, NULL };
  Pump p = { tm_progress_new (wait_progress, payload_seen, &w, NULL) };
  GThread *t = g_thread_new ("pump", pump_thread, &p);

  g_thread_join (t);
  /* all of it was queued before the main context ran: one delivery */
  for (int i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (w.n_progress, ==, 1);
  g_assert_cmpfloat (w.last_fraction, ==, 1.0);
  g_assert_cmpuint (w.n_partials, ==, 1);

  /* after stop, queued reports are dropped */
  tm_progress_update (0.5, p.progress);
  tm_progress_stop (p.progress);
  for (int i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (w.n_progress, ==, 1);
  tm_progress_unref (p.progress);

  /* a cancelled job reports nothing */
  {
    g_autoptr(GCancellable) c = g_cancellable_new ();
    TmProgress *q = tm_progress_new (wait_progress, NULL, &w, c);

    tm_progress_update (1.0, q);
    g_cancellable_cancel (c);
    for (int i = 0; i < 10; i++)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (w.n_progress, ==, 1);
    tm_progress_unref (q);
  }
}

static void
test_async (void)
{
  Wait w = { g_main_loop_new (NULL, FALSE), g_thread_self (), 0, 0, 0, NULL, NULL };
  g_autoptr(TmDocument) doc = NULL;
  g_autoptr(GArray) gcs = NULL;
  TmTrendRequest req;

  tm_document_load_async (fx.path, wait_progress, &w, NULL, load_done, &w);
  g_main_loop_run (w.loop);
  g_assert_no_error (w.error);
  doc = w.result;
  g_assert_cmpfloat (w.last_fraction, <=, 1.0);
  gcs = graph_gcs (tm_document_get_trace (doc));
  /* nothing after the result */
  {
    guint n = w.n_progress;
    for (int i = 0; i < 100; i++)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (w.n_progress, ==, n);
  }

  /* a heap, any progress on this thread and none after the result */
  w.n_progress = 0;
  w.last_fraction = 0;
  tm_document_heap_async (doc, g_array_index (gcs, guint32, 0), wait_progress, &w, NULL, heap_done, &w);
  g_main_loop_run (w.loop);
  g_assert_no_error (w.error);
  g_assert_true (tm_heap_analysis_has_graph (w.result));
  tm_heap_analysis_unref (w.result);
  {
    guint n = w.n_progress;
    for (int i = 0; i < 100; i++)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (w.n_progress, ==, n);
  }

  /* a trend with partial snapshots on this thread */
  tm_trend_request_init (&req);
  req.from_gc = 1;
  req.to_gc = tm_trace_n_gcs (tm_document_get_trace (doc));
  req.metric = TM_TREND_METRIC_DEEP_BYTES;
  req.depth = 1;
  req.chain[0] = TM_CLASSIFIER_TYPE;
  tm_document_trend_async (doc, &req, wait_partial, &w, NULL, trend_done, &w);
  g_main_loop_run (w.loop);
  g_assert_no_error (w.error);
  g_assert_true (((TmTrend *) w.result)->complete);
  g_assert_cmpuint (((TmTrend *) w.result)->n_points, ==, gcs->len);
  tm_trend_unref (w.result);
  {
    guint n = w.n_partials;
    for (int i = 0; i < 100; i++)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (w.n_partials, ==, n);
  }

  /* cancelled before it starts: the error, and no partial result */
  {
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();

    w.n_partials = 0;
    g_cancellable_cancel (cancellable);
    req.metric = TM_TREND_METRIC_RETAINED_BYTES;
    tm_document_trend_async (doc, &req, wait_partial, &w, cancellable, trend_done, &w);
    g_main_loop_run (w.loop);
    g_assert_error (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_null (w.result);
    g_clear_error (&w.error);
    for (int i = 0; i < 100; i++)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (w.n_partials, ==, 0);
  }
  tm_trend_request_clear (&req);
  g_main_loop_unref (w.loop);
}

/* The file is gone after loading; its graphs still read through the
 * handle the document holds. */
static void
test_open_handle (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = g_build_filename (fx.dir, "copy.tmtrace", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  g_autoptr(TmDocument) doc = NULL;
  g_autoptr(GArray) gcs = NULL;

  g_assert_true (g_file_get_contents (fx.path, &contents, &len, &error));
  g_assert_true (g_file_set_contents (copy, contents, len, &error));
  doc = tm_document_load (copy, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* replaced by something else entirely */
  g_assert_true (g_file_set_contents (copy, "not a trace", -1, &error));
  gcs = graph_gcs (tm_document_get_trace (doc));
  for (guint i = 0; i < gcs->len; i++)
    {
      g_autoptr(TmHeapAnalysis) heap = tm_document_heap (doc, g_array_index (gcs, guint32, i), NULL, NULL, NULL,
                                                         &error);
      g_assert_no_error (error);
      g_assert_true (tm_heap_analysis_has_graph (heap));
    }
  g_unlink (copy);
}

static void
test_windows_once (void)
{
  g_autoptr(TmDocument) doc = load ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) a = tm_document_windows (doc, NULL, FALSE, NULL, &error);
  g_autoptr(GPtrArray) b = tm_document_windows (doc, NULL, FALSE, NULL, &error);
  g_autoptr(GPtrArray) all = tm_document_windows (doc, NULL, TRUE, NULL, &error);
  gboolean leak = FALSE;

  g_assert_no_error (error);
  g_assert_true (a == b);
  g_assert_true (all != a);
  g_assert_cmpuint (all->len, >=, a->len);
  for (guint i = 0; i < a->len; i++)
    leak |= ((TmWindow *) g_ptr_array_index (a, i))->kind == TM_WINDOW_LEAK;
  g_assert_true (leak);
}

/* Call data: the whole run's is kept, a window's is computed for it and
 * counts only the objects allocated in it. */
static void
test_call_data_once (void)
{
  g_autoptr(TmDocument) doc = load ();
  TmTrace *trace = tm_document_get_trace (doc);
  guint n = tm_trace_n_gcs (trace);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmCallData) a = tm_document_call_data (doc, 0, 0, NULL, &error);
  g_autoptr(TmCallData) b = tm_document_call_data (doc, 0, 0, NULL, &error);
  g_autoptr(TmCallData) part = tm_document_call_data (doc, n / 2, n, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (a == b);
  g_assert_true (part != a);
  g_assert_cmpuint (part->from_gc, ==, n / 2);
  g_assert_cmpuint (a->summary.allocations, >, part->summary.allocations);
  g_assert_cmpuint (part->summary.allocations, >, 0);
}

/* Path to roots against a breadth-first search from the roots. */
static void
test_path_to_root (void)
{
  g_autoptr(TmDocument) doc = load ();
  g_autoptr(GArray) gcs = graph_gcs (tm_document_get_trace (doc));
  guint32 gc = g_array_index (gcs, guint32, gcs->len - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHeapAnalysis) heap = tm_document_heap (doc, gc, NULL, NULL, NULL, &error);
  const TmHeapGraph *g = tm_heap_analysis_get_graph (heap);
  g_autofree guint32 *dist = test_root_distances (g);
  guint checked = 0;

  g_assert_no_error (error);

  for (guint32 node = 0; node < g->n_nodes; node += 1 + g->n_nodes / 97)
    {
      g_autoptr(TmRootPath) root_path = tm_document_path_to_root (doc, gc, g->node_object[node], NULL, &error);
      GArray *path;
      guint32 prev;

      g_assert_no_error (error);
      path = root_path->objects;
      if (dist[node] == G_MAXUINT32)
        {
          g_assert_cmpuint (path->len, ==, 0);
          continue;
        }
      g_assert_cmpuint (path->len, ==, dist[node]);
      g_assert_cmpuint (g_array_index (path, guint32, path->len - 1), ==, g->node_object[node]);
      g_assert_true (tm_heap_graph_node_for_object (g, g_array_index (path, guint32, 0), &prev));
      g_assert_cmpuint (dist[prev], ==, 1);
      for (guint i = 1; i < path->len; i++)
        {
          guint32 next;
          gboolean edge = FALSE;

          g_assert_true (tm_heap_graph_node_for_object (g, g_array_index (path, guint32, i), &next));
          for (guint64 e = tm_heap_graph_edge_begin (g, prev), e_end = tm_heap_graph_edge_end (g, prev); e < e_end; e++)
            edge |= g->edges[e] == next;
          g_assert_true (edge);
          prev = next;
        }
      checked++;
    }
  g_assert_cmpuint (checked, >, 50);

  /* an object not alive then */
  {
    g_autoptr(TmRootPath) none = NULL;
    guint32 dead = 0, node;

    while (tm_heap_graph_node_for_object (g, dead, &node))
      dead++;
    none = tm_document_path_to_root (doc, gc, dead, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  }
}

/* ---- streaming: the charts of a trace still loading ---- */

typedef struct {
  GPtrArray *models;
  GThread   *thread;       /* where they must arrive; NULL: any */
  gboolean   after_result;
  gboolean   done;
  GError    *error;
  TmDocument *doc;
} Stream;

static void
collect_partial (TmTimelineModel *partial, gpointer data)
{
  Stream *s = data;

  if (s->thread != NULL)
    g_assert_true (g_thread_self () == s->thread);
  if (s->done)
    s->after_result = TRUE;
  g_ptr_array_add (s->models, tm_timeline_model_ref (partial));
  /* a slow reader: the next GC's snapshot is due when reading resumes */
  if (s->thread == NULL && s->models->len < 3)
    g_usleep (G_USEC_PER_SEC / 4);
}

static void
stream_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Stream *s = data;

  s->doc = tm_document_load_finish (result, &s->error);
  s->done = TRUE;
}

static void
assert_same_double (double a, double b)
{
  if (isnan (a) || isnan (b))
    g_assert_true (isnan (a) && isnan (b));
  else
    g_assert_cmpfloat (a, ==, b);
}

/* Every snapshot is the final timeline cut at its last GC, and each
 * extends the one before. */
static void
assert_prefixes (GPtrArray *models, const TmTimelineModel *whole)
{
  guint prev = 0;

  for (guint k = 0; k < models->len; k++)
    {
      const TmTimelineModel *m = models->pdata[k];
      guint n = m->n_gcs;

      g_assert_cmpuint (n, >, prev);
      g_assert_cmpuint (n, <, whole->n_gcs);   /* the last GC is never settled before the end */
      g_assert_cmpuint (m->n_spaces, ==, whole->n_spaces);
      g_assert_cmpfloat ((double) m->duration_ns, ==, m->end_ns[n - 1]);
      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpfloat (m->start_ns[i], ==, whole->start_ns[i]);
          g_assert_cmpfloat (m->end_ns[i], ==, whole->end_ns[i]);
          g_assert_cmpfloat (m->used_before[i], ==, whole->used_before[i]);
          g_assert_cmpfloat (m->used_after[i], ==, whole->used_after[i]);
          g_assert_cmpfloat (m->live_objects[i], ==, whole->live_objects[i]);
          g_assert_cmpfloat (m->allocations[i], ==, whole->allocations[i]);
          g_assert_cmpfloat (m->overhead[i], ==, whole->overhead[i]);
          assert_same_double (m->reachable[i], whole->reachable[i]);
          for (guint s = 0; s < m->n_spaces; s++)
            {
              g_assert_cmpfloat (m->space_after[(gsize) s * n + i], ==, whole->space_after[(gsize) s * whole->n_gcs + i]);
              g_assert_cmpfloat (m->layer_top[(gsize) s * 2 * n + 2 * i],
                                 ==, whole->layer_top[(gsize) s * 2 * whole->n_gcs + 2 * i]);
            }
        }
      prev = n;
    }
}

static void
test_streaming (void)
{
  Stream s = { g_ptr_array_new_with_free_func ((GDestroyNotify) tm_timeline_model_unref) };
  TmLoadOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(TmTimelineModel) whole = NULL;

  /* on the loading thread: the first as soon as GC 1 is settled, then
   * a few a second (the callback makes reading slow at first) */
  options.partial_timeline = collect_partial;
  options.partial_data = &s;
  trace = tm_trace_load_full (fx.path, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  whole = tm_timeline_model_new (trace);
  g_assert_cmpuint (whole->n_gcs, >=, 10);
  g_assert_cmpuint (s.models->len, >=, 3);
  for (guint k = 0; k < 3; k++)
    g_assert_cmpuint (((TmTimelineModel *) s.models->pdata[k])->n_gcs, ==, k + 1);
  assert_prefixes (s.models, whole);

  /* the document's async load delivers them on this thread, never after
   * the result (a load this small may finish before any is shown) */
  g_ptr_array_set_size (s.models, 0);
  s.thread = g_thread_self ();
  tm_document_load_files_streaming_async ((const char *[]) { fx.path }, 1, NULL, NULL, collect_partial, &s,
                                          NULL, stream_done, &s);
  while (!s.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (s.error);
  for (int i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (s.after_result);
  assert_prefixes (s.models, tm_document_get_timeline (s.doc));
  g_clear_object (&s.doc);
  g_ptr_array_unref (s.models);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  fixture_setup ();
  g_test_add_func ("/document/one-build-per-gc", test_one_build_per_gc);
  g_test_add_func ("/document/progress", test_progress);
  g_test_add_func ("/document/async", test_async);
  g_test_add_func ("/document/open-handle", test_open_handle);
  g_test_add_func ("/document/windows-once", test_windows_once);
  g_test_add_func ("/document/path-to-root", test_path_to_root);
  g_test_add_func ("/document/call-data-once", test_call_data_once);
  g_test_add_func ("/document/streaming", test_streaming);
  ret = g_test_run ();
  fixture_teardown ();
  return ret;
}
