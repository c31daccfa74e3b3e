/* SPDX-License-Identifier: GPL-3.0-or-later
 * Heap compare on a trace with a known answer: three types whose groups
 * grow, appear and vanish between two graph GCs, and a GC without a
 * graph (shallow sizes only). */
#include "tidemark.h"
#include "tm-heap-diff.h"

#define SEC G_GUINT64_CONSTANT (1000000000)

enum { T_A = 1, T_B, T_C };

/* GC 1: A 1->2->3 (16 B each) from a static root, B 4 (100 B) from
 * another.  GC 2: B died; A grew 3->5->6; C 7->8 (50 B each) is new.
 * GC 3 (no graph): C died, B 9 is new. */
static TmTrace *
build_trace (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "test", "1", "test-heap-diff", 8, 0, TM_TRACE_FLAG_GRAPHS | TM_TRACE_FLAG_DEATHS };
  guint64 frame = 1, dead4 = 4, dead78[2] = { 7, 8 };
  guint64 r12[1] = { 2 }, r23[1] = { 3 }, r35[1] = { 5 }, r56[1] = { 6 }, r78[1] = { 8 };
  TmRootRecord roots1[2] = { { 1, TM_ROOT_KIND_STATIC, 0 }, { 4, TM_ROOT_KIND_STATIC, 0 } };
  TmRootRecord roots2[2] = { { 1, TM_ROOT_KIND_STATIC, 0 }, { 7, TM_ROOT_KIND_STATIC, 0 } };
  TmTrace *trace;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_type (w, T_A, "A", 0);
  tm_trace_writer_type (w, T_B, "B", 0);
  tm_trace_writer_type (w, T_C, "C", 0);
  tm_trace_writer_frame (w, 1, "Main.run()", "Main.java", 1);
  tm_trace_writer_site (w, 1, 1, &frame);
  tm_trace_writer_thread (w, 1, "main");
  for (guint64 id = 1; id <= 3; id++)
    tm_trace_writer_alloc (w, id, T_A, 1, 1, 16, 0, 0);
  tm_trace_writer_alloc (w, 4, T_B, 1, 1, 100, 0, 0);

  tm_trace_writer_gc_start (w, 1, SEC - 10, TM_GC_KIND_MAJOR, "test", "test");
  tm_trace_writer_gc_end (w, 1, SEC, 10, 0, NULL);
  tm_trace_writer_graph_begin (w, 1);
  tm_trace_writer_roots (w, 2, roots1);
  tm_trace_writer_refs (w, 1, 1, r12);
  tm_trace_writer_refs (w, 2, 1, r23);
  tm_trace_writer_graph_end (w, 1, 4);

  tm_trace_writer_alloc (w, 5, T_A, 1, 1, 16, 0, 0);
  tm_trace_writer_alloc (w, 6, T_A, 1, 1, 16, 0, 0);
  tm_trace_writer_alloc (w, 7, T_C, 1, 1, 50, 0, 0);
  tm_trace_writer_alloc (w, 8, T_C, 1, 1, 50, 0, 0);
  tm_trace_writer_gc_start (w, 2, 2 * SEC - 10, TM_GC_KIND_MAJOR, "test", "test");
  tm_trace_writer_deaths (w, 2, &dead4, 1);
  tm_trace_writer_gc_end (w, 2, 2 * SEC, 10, 0, NULL);
  tm_trace_writer_graph_begin (w, 2);
  tm_trace_writer_roots (w, 2, roots2);
  tm_trace_writer_refs (w, 1, 1, r12);
  tm_trace_writer_refs (w, 2, 1, r23);
  tm_trace_writer_refs (w, 3, 1, r35);
  tm_trace_writer_refs (w, 5, 1, r56);
  tm_trace_writer_refs (w, 7, 1, r78);
  tm_trace_writer_graph_end (w, 2, 7);

  tm_trace_writer_alloc (w, 9, T_B, 1, 1, 100, 0, 0);
  tm_trace_writer_gc_start (w, 3, 3 * SEC - 10, TM_GC_KIND_MAJOR, "test", "test");
  tm_trace_writer_deaths (w, 3, dead78, 2);
  tm_trace_writer_gc_end (w, 3, 3 * SEC, 10, 0, NULL);

  tm_trace_writer_end (w, 9, 3, 3, 3 * SEC);
  g_assert_true (tm_trace_writer_close (w, &error));
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  trace = tm_trace_load_bytes (bytes, "heap-diff", NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static void
assert_side (const TmGroupMetrics *m, guint64 objects, guint64 bytes, guint64 retained_objects, guint64 retained_bytes)
{
  g_assert_cmpuint (m->objects, ==, objects);
  g_assert_cmpuint (m->bytes, ==, bytes);
  g_assert_cmpuint (m->retained_objects, ==, retained_objects);
  g_assert_cmpuint (m->retained_bytes, ==, retained_bytes);
}

static const char *
child_label (TmHeapDiff *diff, GArray *kids, guint i)
{
  return tm_heap_diff_node (diff, g_array_index (kids, guint32, i))->label;
}

static void
async_done (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static void
test_known_answer (void)
{
  g_autoptr(TmTrace) trace = build_trace ();
  g_autoptr(TmDocument) doc = tm_document_new_for_trace (trace);
  g_autoptr(TmHeapDiff) diff = NULL;
  g_autoptr(GArray) by_bytes = NULL;
  g_autoptr(GArray) by_objects = NULL;
  g_autoptr(GArray) by_retained = NULL;
  g_autoptr(GError) error = NULL;
  TmClassifier type = TM_CLASSIFIER_TYPE;
  TmGroupMetrics b, a;
  GAsyncResult *result = NULL;
  guint32 na, nb, nc;

  /* through the worker, as the app asks, with every metric */
  tm_document_heap_diff_async (doc, 1, 2, &type, 1, TM_DOCUMENT_TREE_DEFAULT, TRUE, NULL, NULL, NULL,
                               async_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  diff = tm_document_heap_diff_finish (doc, result, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_assert_true (diff->has_graph);
  g_assert_cmpuint (tm_heap_diff_get_from_gc (diff), ==, 1);
  g_assert_cmpuint (tm_heap_diff_get_to_gc (diff), ==, 2);

  g_assert_true (tm_heap_diff_get_metrics (diff, 0, &b, &a));
  assert_side (&b, 4, 148, 4, 148);
  assert_side (&a, 7, 180, 7, 180);
  g_assert_cmpint (tm_heap_diff_delta (diff, 0, TM_HEAP_METRIC_BYTES), ==, 32);
  g_assert_cmpuint (tm_heap_diff_node (diff, 0)->n_children, ==, 3);

  na = tm_heap_diff_find_path (diff, "A");
  nb = tm_heap_diff_find_path (diff, "B");
  nc = tm_heap_diff_find_path (diff, "C");
  g_assert_cmpuint (na, !=, TM_CLASS_NODE_NONE);
  g_assert_cmpuint (tm_heap_diff_find_path (diff, "D"), ==, TM_CLASS_NODE_NONE);
  tm_heap_diff_get_metrics (diff, na, &b, &a);
  assert_side (&b, 3, 48, 3, 48);
  assert_side (&a, 5, 80, 5, 80);
  tm_heap_diff_get_metrics (diff, nb, &b, &a);
  assert_side (&b, 1, 100, 1, 100);
  assert_side (&a, 0, 0, 0, 0);
  g_assert_cmpuint (tm_heap_diff_node (diff, nb)->after_node, ==, TM_CLASS_NODE_NONE);
  tm_heap_diff_get_metrics (diff, nc, &b, &a);
  assert_side (&b, 0, 0, 0, 0);
  assert_side (&a, 2, 100, 2, 100);
  g_assert_cmpuint (a.deep_bytes, ==, 100);
  g_assert_cmpuint (tm_heap_diff_node (diff, nc)->before_node, ==, TM_CLASS_NODE_NONE);

  /* most grown first: C +100 B, A +32 B, B -100 B; by objects A and C
   * both +2, the larger group first */
  by_bytes = tm_heap_diff_sorted_children (diff, 0, TM_HEAP_METRIC_BYTES, NULL, &error);
  g_assert_cmpstr (child_label (diff, by_bytes, 0), ==, "C");
  g_assert_cmpstr (child_label (diff, by_bytes, 1), ==, "A");
  g_assert_cmpstr (child_label (diff, by_bytes, 2), ==, "B");
  by_objects = tm_heap_diff_sorted_children (diff, 0, TM_HEAP_METRIC_OBJECTS, NULL, &error);
  g_assert_cmpstr (child_label (diff, by_objects, 0), ==, "A");
  g_assert_cmpstr (child_label (diff, by_objects, 1), ==, "C");
  by_retained = tm_heap_diff_sorted_children (diff, 0, TM_HEAP_METRIC_RETAINED_BYTES, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (child_label (diff, by_retained, 0), ==, "C");
}

static void
test_shallow_and_errors (void)
{
  g_autoptr(TmTrace) trace = build_trace ();
  g_autoptr(TmDocument) doc = tm_document_new_for_trace (trace);
  g_autoptr(TmHeapDiff) diff = NULL;
  g_autoptr(TmClassTree) t1 = NULL;
  g_autoptr(TmClassTree) t2 = NULL;
  g_autoptr(GError) error = NULL;
  TmClassifier type = TM_CLASSIFIER_TYPE, chain2[2] = { TM_CLASSIFIER_TYPE, TM_CLASSIFIER_SITE };
  TmGroupMetrics b, a;
  guint32 nb, nc;

  /* GC 3 has no graph: shallow sizes only, deep ones refused */
  diff = tm_document_heap_diff (doc, 2, 3, &type, 1, TM_DOCUMENT_TREE_DEFAULT, TRUE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (diff->has_graph);
  g_assert_false (tm_heap_diff_get_metrics (diff, 0, &b, &a));
  g_assert_cmpuint (b.objects, ==, 7);
  g_assert_cmpuint (a.objects, ==, 6);
  g_assert_cmpuint (a.bytes, ==, 180);
  nb = tm_heap_diff_find_path (diff, "B");
  nc = tm_heap_diff_find_path (diff, "C");
  g_assert_cmpint (tm_heap_diff_delta (diff, nb, TM_HEAP_METRIC_BYTES), ==, 100);
  g_assert_cmpint (tm_heap_diff_delta (diff, nc, TM_HEAP_METRIC_OBJECTS), ==, -2);
  g_assert_false (tm_heap_diff_compute_metrics (diff, 0, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_NO_GRAPH);
  g_clear_error (&error);

  /* trees classified differently do not compare */
  t1 = tm_document_class_tree (doc, 1, &type, 1, TM_DOCUMENT_TREE_DEFAULT, NULL, NULL, NULL, &error);
  t2 = tm_document_class_tree (doc, 2, chain2, 2, TM_DOCUMENT_TREE_DEFAULT, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (tm_heap_diff_new (t1, t2, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* a GC out of range is the document's error */
  g_assert_null (tm_document_heap_diff (doc, 1, 9, &type, 1, TM_DOCUMENT_TREE_DEFAULT, FALSE, NULL, NULL, NULL,
                                        &error));
  g_assert_nonnull (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/heap-diff/known-answer", test_known_answer);
  g_test_add_func ("/heap-diff/shallow-and-errors", test_shallow_and_errors);
  return g_test_run ();
}
