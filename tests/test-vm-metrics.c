/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * VM-level metrics on a hand-built trace whose every answer is worked out
 * below.  Types A (16 B), B (100 B), C (40 B); GC g starts at g seconds
 * and lasts 10 ms; deaths and graphs recorded.
 *
 *   interval 1: A 1..10, B 11..12     GC 1 (minor): A 1..8 die
 *   interval 2: A 13..17, C 18..20    GC 2 (major): A 13..17, A 9, C 18 die
 *   interval 3: B 21                  GC 3 (minor): B 11 dies
 *   interval 4: A 22..25              GC 4 (minor): A 22..25, C 19 die
 *
 * Live after each GC: GC 1 A9 A10 B11 B12; GC 2 A10 B11 B12 C19 C20;
 * GC 3 A10 B12 C19 C20 B21; GC 4 A10 B12 C20 B21.
 * Graphs at GC 2 (roots B11 B12; B11->A10, B12->C19: C20 floats) and
 * GC 4 (root B12; B12->B21: A10 and C20 float).
 * Old space used before -> after: GC 1 1000->1200, GC 2 1200->300,
 * GC 3 5000->4900, GC 4 4900->5300.
 */
#include "tm-vm-metrics.h"
#include "tm-trace-writer.h"
#include "tm-error.h"

enum { TA = 1, TB = 2, TC = 3 };
static const guint64 sizes[4] = { 0, 16, 100, 40 };

static void
alloc (TmTraceWriter *w, guint64 first, guint64 last, guint type)
{
  for (guint64 id = first; id <= last; id++)
    tm_trace_writer_alloc (w, id, type, 1, 1, sizes[type], 1, 0);
}

static void
gc (TmTraceWriter *w, guint g, guint kind, guint64 old_before, guint64 old_after,
    const guint64 *dead, gsize n_dead)
{
  TmSpaceUsageRecord usage[2] = { { 1, 500, 0, 1000 }, { 2, old_before, old_after, 10000 } };

  tm_trace_writer_gc_start (w, g, g * G_GUINT64_CONSTANT (1000000000), kind, "test", "test");
  tm_trace_writer_deaths (w, g, dead, n_dead);
  tm_trace_writer_gc_end (w, g, g * G_GUINT64_CONSTANT (1000000000) + 10000000, 10000000, 2, usage);
}

static TmTrace *
build_trace (guint32 flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "test", "1", "test-vm-metrics", 8, 0, flags };
  guint64 frame = 1;
  static const guint64 d1[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  static const guint64 d2[] = { 9, 13, 14, 15, 16, 17, 18 };
  static const guint64 d3[] = { 11 };
  static const guint64 d4[] = { 19, 22, 23, 24, 25 };
  TmTrace *trace;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, TM_SPACE_KIND_YOUNG, "eden");
  tm_trace_writer_space (w, 2, TM_SPACE_KIND_OLD, "old");
  tm_trace_writer_type (w, TA, "A", 0);
  tm_trace_writer_type (w, TB, "B", 0);
  tm_trace_writer_type (w, TC, "C", 0);
  tm_trace_writer_frame (w, 1, "M.run()", "M.java", 3);
  tm_trace_writer_site (w, 1, 1, &frame);
  tm_trace_writer_thread (w, 1, "main");

  alloc (w, 1, 10, TA);
  alloc (w, 11, 12, TB);
  gc (w, 1, TM_GC_KIND_MINOR, 1000, 1200, d1, G_N_ELEMENTS (d1));
  alloc (w, 13, 17, TA);
  alloc (w, 18, 20, TC);
  gc (w, 2, TM_GC_KIND_MAJOR, 1200, 300, d2, G_N_ELEMENTS (d2));
  if (flags & TM_TRACE_FLAG_GRAPHS)
    {
      TmRootRecord roots[2] = { { 11, TM_ROOT_KIND_STATIC, 0 }, { 12, TM_ROOT_KIND_STATIC, 0 } };
      guint64 t10 = 10, t19 = 19;

      tm_trace_writer_graph_begin (w, 2);
      tm_trace_writer_roots (w, 2, roots);
      tm_trace_writer_refs (w, 11, 1, &t10);
      tm_trace_writer_refs (w, 12, 1, &t19);
      tm_trace_writer_graph_end (w, 2, 2);
    }
  alloc (w, 21, 21, TB);
  gc (w, 3, TM_GC_KIND_MINOR, 5000, 4900, d3, G_N_ELEMENTS (d3));
  alloc (w, 22, 25, TA);
  gc (w, 4, TM_GC_KIND_MINOR, 4900, 5300, d4, G_N_ELEMENTS (d4));
  if (flags & TM_TRACE_FLAG_GRAPHS)
    {
      TmRootRecord root = { 12, TM_ROOT_KIND_STATIC, 0 };
      guint64 t21 = 21;

      tm_trace_writer_graph_begin (w, 4);
      tm_trace_writer_roots (w, 1, &root);
      tm_trace_writer_refs (w, 12, 1, &t21);
      tm_trace_writer_graph_end (w, 4, 1);
    }
  tm_trace_writer_end (w, 25, 21, 4, 4 * G_GUINT64_CONSTANT (1000000000) + 10000000);
  g_assert_true (tm_trace_writer_close (w, &error));
  g_assert_no_error (error);
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  trace = tm_trace_load_bytes (bytes, "vm-metrics", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (trace->complete);
  return trace;
}

static const TmAllocGroup *
find_group (const TmAllocSeries *s, const char *key)
{
  for (guint i = 0; i < s->groups->len; i++)
    {
      const TmAllocGroup *g = g_ptr_array_index (s->groups, i);
      if (g_strcmp0 (g->key, key) == 0)
        return g;
    }
  g_assert_not_reached ();
  return NULL;
}

static void
assert_values (const guint64 *got, const guint64 *want, guint n, guint64 scale)
{
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (got[i], ==, want[i] * scale);
}

static void
test_alloc_series (void)
{
  g_autoptr(TmTrace) trace = build_trace (TM_TRACE_FLAG_DEATHS | TM_TRACE_FLAG_GRAPHS);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmAllocSeries) s = NULL;
  g_autoptr(GPtrArray) top = NULL;
  TmAllocRequest req;
  const TmAllocGroup *a, *b, *c;
  static const guint64 a_alloc[] = { 10, 5, 0, 4 }, a_freed[] = { 8, 6, 0, 4 };
  static const guint64 b_alloc[] = { 2, 0, 1, 0 }, b_freed[] = { 0, 0, 1, 0 };
  static const guint64 c_alloc[] = { 0, 3, 0, 0 }, c_freed[] = { 0, 1, 0, 1 };

  tm_alloc_request_init (&req);
  g_assert_true (tm_alloc_request_parse (&req, "type", NULL, &error));
  req.from_gc = 1;
  req.to_gc = 4;
  s = tm_alloc_series_compute (trace, &req, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->n_points, ==, 4);
  g_assert_cmpuint (s->groups->len, ==, 3);
  a = find_group (s, "A");
  b = find_group (s, "B");
  c = find_group (s, "C");
  assert_values (a->alloc_objects, a_alloc, 4, 1);
  assert_values (a->alloc_bytes, a_alloc, 4, 16);
  assert_values (a->freed_objects, a_freed, 4, 1);
  assert_values (a->freed_bytes, a_freed, 4, 16);
  assert_values (b->alloc_bytes, b_alloc, 4, 100);
  assert_values (b->freed_objects, b_freed, 4, 1);
  assert_values (c->alloc_objects, c_alloc, 4, 1);
  assert_values (c->freed_bytes, c_freed, 4, 40);
  /* groups ordered by allocated bytes: B 300, A 304, C 120 -> A, B, C */
  g_assert_cmpstr (((TmAllocGroup *) g_ptr_array_index (s->groups, 0))->key, ==, "A");
  g_assert_cmpstr (((TmAllocGroup *) g_ptr_array_index (s->groups, 1))->key, ==, "B");
  g_assert_cmpuint (s->total.sum_alloc_objects, ==, 25);
  g_assert_cmpuint (s->total.sum_freed_objects, ==, 21);
  /* interval of GC 1 is 1 s: 160 B/s of A */
  g_assert_cmpfloat_with_epsilon (tm_alloc_series_rate (s, a->alloc_bytes, 0), 160.0, 1e-9);

  /* top 1 by freed objects is A; Other = total - A */
  top = tm_alloc_series_select (s, TM_ALLOC_SORT_FREED_OBJECTS, 1, TRUE);
  g_assert_cmpuint (top->len, ==, 2);
  g_assert_cmpstr (((TmAllocGroup *) g_ptr_array_index (top, 0))->key, ==, "A");
  g_assert_true (((TmAllocGroup *) g_ptr_array_index (top, 1))->is_other);
  g_assert_cmpuint (((TmAllocGroup *) g_ptr_array_index (top, 1))->sum_freed_objects, ==, 3);
  g_assert_cmpuint (((TmAllocGroup *) g_ptr_array_index (top, 1))->alloc_bytes[1], ==, 120);
  tm_alloc_request_clear (&req);
}

static void
test_alloc_window_and_drill (void)
{
  g_autoptr(TmTrace) trace = build_trace (TM_TRACE_FLAG_DEATHS);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmAllocSeries) s = NULL, d = NULL;
  TmAllocRequest req;

  /* GCs 2..3: A 9 (born before the window) still counts as freed in GC 2 */
  tm_alloc_request_init (&req);
  req.from_gc = 2;
  req.to_gc = 3;
  s = tm_alloc_series_compute (trace, &req, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (find_group (s, "A")->alloc_objects[0], ==, 5);
  g_assert_cmpuint (find_group (s, "A")->freed_objects[0], ==, 6);
  g_assert_cmpuint (find_group (s, "B")->freed_bytes[1], ==, 100);

  /* drill into type A, grouped by thread */
  g_assert_true (tm_alloc_request_parse (&req, "type,thread", "A", &error));
  req.from_gc = 1;
  req.to_gc = 4;
  d = tm_alloc_series_compute (trace, &req, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (d->groups->len, ==, 1);
  g_assert_cmpstr (find_group (d, "main")->key, ==, "main");
  g_assert_cmpuint (d->total.sum_alloc_objects, ==, 19);

  /* a drill label that names nothing, and GC-dependent classifiers */
  g_assert_true (tm_alloc_request_parse (&req, "type,thread", "Nope", &error));
  g_assert_null (tm_alloc_series_compute (trace, &req, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (tm_alloc_request_parse (&req, "age", NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  tm_alloc_request_clear (&req);
}

static const TmLifetimeGroup *
find_lifetime (const TmLifetimes *lt, const char *key)
{
  for (guint i = 0; i < lt->groups->len; i++)
    {
      const TmLifetimeGroup *g = g_ptr_array_index (lt->groups, i);
      if (g_strcmp0 (g->key, key) == 0)
        return g;
    }
  g_assert_not_reached ();
  return NULL;
}

static void
test_lifetimes (void)
{
  g_autoptr(TmTrace) trace = build_trace (TM_TRACE_FLAG_DEATHS);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmLifetimes) lt = tm_lifetimes_compute (trace, 1, 4, TM_CLASSIFIER_TYPE, 2, NULL, &error);
  const TmLifetimeGroup *a, *b, *c;

  g_assert_no_error (error);
  a = find_lifetime (lt, "A");
  b = find_lifetime (lt, "B");
  c = find_lifetime (lt, "C");
  g_assert_cmpuint (a->died_objects, ==, 18);
  g_assert_cmpuint (a->by_gcs_objects[0], ==, 17);
  g_assert_cmpuint (a->by_gcs_objects[1], ==, 1);
  g_assert_cmpfloat_with_epsilon (a->mean_gcs, 1.0 / 18, 1e-12);
  g_assert_cmpuint (b->died_objects, ==, 1);
  g_assert_cmpuint (b->by_gcs_objects[2], ==, 1);
  g_assert_cmpuint (c->by_gcs_objects[0], ==, 1);
  g_assert_cmpuint (c->by_gcs_objects[2], ==, 1);
  g_assert_cmpuint (lt->born_objects, ==, 25);
  g_assert_cmpuint (lt->died_young_objects, ==, 18);
  g_assert_cmpuint (lt->total.long_lived_objects, ==, 2);
  g_assert_cmpuint (lt->total.long_lived_bytes, ==, 140);
  /* B 11: the 11th of 12 allocations spread over [0, 1 s) (at 10/12 s),
   * collected by GC 3 starting at 3 s: 3 - 10/12 s, bucket "< 10 s" */
  g_assert_cmpfloat_with_epsilon (b->mean_seconds, 3.0 - 10.0 / 12.0, 1e-6);
  g_assert_cmpuint (b->by_time_objects[4], ==, 1);
}

static void
test_survival (void)
{
  g_autoptr(TmTrace) trace = build_trace (TM_TRACE_FLAG_DEATHS);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmSurvival) sv = tm_survival_compute (trace, 1, 4, NULL, &error);
  static const guint64 live[] = { 4, 5, 5, 4 };
  static const guint64 survived[] = { 4, 2, 1, 0 };
  /* ages 1.. after each GC */
  static const guint64 ages[4][4] = { { 4, 0, 0, 0 }, { 2, 3, 0, 0 }, { 1, 2, 2, 0 }, { 0, 1, 1, 2 } };
  const TmSurvivalPoint *pt;

  g_assert_no_error (error);
  g_assert_cmpint (sv->promotion_source, ==, TM_PROMOTION_FROM_USAGE);
  g_assert_cmpuint (sv->points->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      pt = &g_array_index (sv->points, TmSurvivalPoint, i);
      g_assert_cmpuint (pt->live_objects, ==, live[i]);
      g_assert_cmpuint (pt->survived_objects, ==, survived[i]);
      for (guint a = 0; a < 4; a++)
        g_assert_cmpuint (pt->age_objects[a], ==, ages[i][a]);
      g_assert_cmpuint (pt->age_objects[TM_SURVIVAL_AGES - 1], ==, 0);
    }
  pt = &g_array_index (sv->points, TmSurvivalPoint, 1);
  g_assert_cmpuint (pt->live_bytes, ==, 296);
  g_assert_cmpuint (pt->age_bytes[0], ==, 80);
  g_assert_cmpuint (pt->age_bytes[1], ==, 216);
  /* promoted: minor GCs only, old-space growth clamped at 0 */
  g_assert_true (g_array_index (sv->points, TmSurvivalPoint, 0).promoted_known);
  g_assert_cmpuint (g_array_index (sv->points, TmSurvivalPoint, 0).promoted_bytes, ==, 200);
  g_assert_false (g_array_index (sv->points, TmSurvivalPoint, 1).promoted_known);
  g_assert_cmpuint (g_array_index (sv->points, TmSurvivalPoint, 2).promoted_bytes, ==, 0);
  g_assert_cmpuint (g_array_index (sv->points, TmSurvivalPoint, 3).promoted_bytes, ==, 400);
}

static void
test_floating_garbage (void)
{
  g_autoptr(TmTrace) trace = build_trace (TM_TRACE_FLAG_DEATHS | TM_TRACE_FLAG_GRAPHS);
  g_autoptr(TmTrace) no_deaths = build_trace (TM_TRACE_FLAG_GRAPHS);
  g_autoptr(TmTrace) no_graphs = build_trace (TM_TRACE_FLAG_DEATHS);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) series = tm_floating_garbage_series (trace, 1, 4, &error);
  g_autoptr(GPtrArray) by_type = NULL;
  g_autoptr(TmHeapCache) heaps = NULL;
  const TmFloatingPoint *p;

  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 2);
  p = &g_array_index (series, TmFloatingPoint, 0);
  g_assert_cmpuint (p->gc, ==, 2);
  g_assert_cmpuint (p->floating_objects, ==, 1);
  g_assert_cmpuint (p->floating_bytes, ==, 40);
  p = &g_array_index (series, TmFloatingPoint, 1);
  g_assert_cmpuint (p->gc, ==, 4);
  g_assert_cmpuint (p->floating_objects, ==, 2);
  g_assert_cmpuint (p->floating_bytes, ==, 56);

  heaps = tm_heap_cache_new (trace, NULL, -1, TM_HEAP_CACHE_DEFAULT_BUDGET);
  by_type = tm_floating_garbage_breakdown (heaps, 4, TM_CLASSIFIER_TYPE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (by_type->len, ==, 2);
  g_assert_cmpstr (((TmFloatingGroup *) g_ptr_array_index (by_type, 0))->key, ==, "C");
  g_assert_cmpuint (((TmFloatingGroup *) g_ptr_array_index (by_type, 0))->bytes, ==, 40);
  g_assert_cmpstr (((TmFloatingGroup *) g_ptr_array_index (by_type, 1))->key, ==, "A");

  g_assert_null (tm_floating_garbage_breakdown (heaps, 3, TM_CLASSIFIER_TYPE, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_NO_GRAPH);
  g_clear_error (&error);
  g_assert_false (tm_floating_garbage_supported (no_deaths, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (tm_floating_garbage_supported (no_graphs, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_NO_GRAPH);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vm-metrics/alloc-series", test_alloc_series);
  g_test_add_func ("/vm-metrics/alloc-window-drill", test_alloc_window_and_drill);
  g_test_add_func ("/vm-metrics/lifetimes", test_lifetimes);
  g_test_add_func ("/vm-metrics/survival", test_survival);
  g_test_add_func ("/vm-metrics/floating-garbage", test_floating_garbage);
  return g_test_run ();
}
