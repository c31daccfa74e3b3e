/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Short-lived objects: the model keeps counters instead of rows for
 * objects that die in their first GC, and every analysis of allocations
 * gives what it gives with rows.  Hand-built trace, every answer worked
 * out here.  Types A (16 B), B (100 B); sites s1, s2; threads t1, t2;
 * GC g starts at g seconds and lasts 10 ms.
 *
 *   interval 0: A 1..6 (s1 t1), B 7..8 (s2 t2)   GC 1: 1..4, 7 die
 *   interval 1: A 9..11 (s2 t1), B 12..14 (s1 t2) GC 2: 5, 9, 10, 12 die
 *   interval 2: A 15..16 (s1 t1)                 GC 3: 8, 15 die
 *   after GC 3: A 17..18 (s1 t1); 17 freed before the end (gc 0)
 *
 * Short-lived (died in their first GC): 1..4, 7, 9, 10, 12, 15, and 17
 * after the last GC: 10 objects.  Rows kept: 5 6 8 11 13 14 16 18.
 * Window GC 1..3 by type, site: B 200 B (s1 100, s2 100), A 112 B
 * (s1 5 objects 80 B, s2 2 objects 32 B).
 */
#include "tm-churn.h"
#include "tm-calltree-trace.h"
#include "tm-trace-writer.h"
#include "tm-error.h"

enum { TA = 1, TB = 2 };
static const guint64 sizes[3] = { 0, 16, 100 };

static void
alloc (TmTraceWriter *w, guint64 first, guint64 last, guint type, guint site, guint thread)
{
  for (guint64 id = first; id <= last; id++)
    tm_trace_writer_alloc (w, id, type, site, thread, sizes[type], 0, 0);
}

static void
gc (TmTraceWriter *w, guint g, const guint64 *dead, gsize n_dead)
{
  TmSpaceUsageRecord usage = { 1, 1000, 500, 4096 };

  tm_trace_writer_gc_start (w, g, g * G_GUINT64_CONSTANT (1000000000), TM_GC_KIND_MINOR, "test", "test");
  tm_trace_writer_deaths (w, g, dead, n_dead);
  tm_trace_writer_gc_end (w, g, g * G_GUINT64_CONSTANT (1000000000) + 10000000, 10000000, 1, &usage);
}

/* with_tx: a transaction kind is defined, so the model keeps every row */
static TmTrace *
build_trace (gboolean with_tx)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "test", "1", "test-churn", 8, 0, TM_TRACE_FLAG_DEATHS };
  guint64 f1 = 1, f2 = 2;
  static const guint64 d1[] = { 1, 2, 3, 4, 7 }, d2[] = { 5, 9, 10, 12 }, d3[] = { 8, 15 }, d0[] = { 17 };
  TmTrace *trace;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, TM_SPACE_KIND_YOUNG, "eden");
  tm_trace_writer_type (w, TA, "A", 0);
  tm_trace_writer_type (w, TB, "B", 0);
  tm_trace_writer_frame (w, 1, "M.one()", "M.java", 1);
  tm_trace_writer_frame (w, 2, "M.two()", "M.java", 2);
  tm_trace_writer_site (w, 1, 1, &f1);
  tm_trace_writer_site (w, 2, 1, &f2);
  tm_trace_writer_thread (w, 1, "t1");
  tm_trace_writer_thread (w, 2, "t2");
  if (with_tx)
    tm_trace_writer_tx_kind (w, 1, "M.run");

  alloc (w, 1, 6, TA, 1, 1);
  alloc (w, 7, 8, TB, 2, 2);
  gc (w, 1, d1, G_N_ELEMENTS (d1));
  alloc (w, 9, 11, TA, 2, 1);
  alloc (w, 12, 14, TB, 1, 2);
  gc (w, 2, d2, G_N_ELEMENTS (d2));
  alloc (w, 15, 16, TA, 1, 1);
  gc (w, 3, d3, G_N_ELEMENTS (d3));
  tm_trace_writer_tick (w, 3500000000u);
  alloc (w, 17, 18, TA, 1, 1);
  tm_trace_writer_deaths (w, 0, d0, 1);
  tm_trace_writer_end (w, 18, 12, 3, 4 * G_GUINT64_CONSTANT (1000000000));
  g_assert_true (tm_trace_writer_close (w, &error));
  g_assert_no_error (error);
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  trace = tm_trace_load_bytes (bytes, "churn", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (trace->complete);
  return trace;
}

static const TmChurnNode *
child (const TmChurnNode *n, const char *key)
{
  for (guint i = 0; i < n->children->len; i++)
    {
      const TmChurnNode *c = g_ptr_array_index (n->children, i);
      if (g_strcmp0 (c->key, key) == 0)
        return c;
    }
  g_assert_not_reached ();
  return NULL;
}

static void
test_rows_and_counters (void)
{
  g_autoptr(TmTrace) folded = build_trace (FALSE);
  g_autoptr(TmTrace) full = build_trace (TRUE);
  static const guint64 kept[] = { 5, 6, 8, 11, 13, 14, 16, 18 };
  guint64 objects = 0, bytes = 0, index;

  g_assert_cmpuint (full->n_objects, ==, 18);
  g_assert_cmpuint (full->short_lived->len, ==, 0);
  g_assert_cmpuint (folded->n_objects, ==, G_N_ELEMENTS (kept));
  g_assert_cmpuint (folded->total_allocs, ==, 18);
  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    {
      g_assert_true (tm_trace_object_index_for_id (folded, kept[i], &index));
      g_assert_cmpuint (index, ==, i);
      g_assert_cmpuint (tm_trace_object_id (folded, i), ==, kept[i]);
      g_assert_cmpuint (tm_trace_object_seq (folded, i), ==, kept[i] - 1);
    }
  g_assert_false (tm_trace_object_index_for_id (folded, 7, &index));
  for (guint e = 0; e < folded->short_lived->len; e++)
    {
      const TmShortLived *sl = &g_array_index (folded->short_lived, TmShortLived, e);
      objects += sl->count;
      bytes += sl->bytes;
    }
  g_assert_cmpuint (objects, ==, 10);
  g_assert_cmpuint (bytes, ==, 4 * 16 + 100 + 2 * 16 + 100 + 16 + 16);
  /* heap states are the same */
  for (guint g = 1; g <= 3; g++)
    {
      g_assert_cmpuint (tm_trace_gc (folded, g)->live_objects, ==, tm_trace_gc (full, g)->live_objects);
      g_assert_cmpuint (tm_trace_gc (folded, g)->live_bytes, ==, tm_trace_gc (full, g)->live_bytes);
    }
  g_assert_cmpuint (tm_trace_gc (folded, 1)->live_objects, ==, 3);
  g_assert_cmpuint (tm_trace_gc (folded, 3)->live_objects, ==, 5);
}

static void
test_churn_tree (void)
{
  g_autoptr(TmTrace) trace = build_trace (FALSE);
  g_autoptr(GError) error = NULL;
  TmClassifier chain[2] = { TM_CLASSIFIER_TYPE, TM_CLASSIFIER_SITE };
  g_autoptr(TmChurn) c = tm_churn_compute (trace, 1, 3, chain, 2, NULL, &error);
  g_autoptr(TmChurn) w = NULL;
  const TmChurnNode *a, *b;

  g_assert_no_error (error);
  g_assert_cmpuint (c->allocated_objects, ==, 16);
  g_assert_cmpuint (c->root->objects, ==, 9);
  g_assert_cmpuint (c->root->bytes, ==, 312);
  b = g_ptr_array_index (c->root->children, 0);
  g_assert_cmpstr (b->key, ==, "B");
  g_assert_cmpuint (b->bytes, ==, 200);
  g_assert_cmpuint (child (b, "M.one():1")->objects, ==, 1);
  g_assert_cmpuint (child (b, "M.two():2")->objects, ==, 1);
  a = child (c->root, "A");
  g_assert_cmpuint (a->objects, ==, 7);
  g_assert_cmpuint (a->bytes, ==, 112);
  g_assert_cmpuint (child (a, "M.one():1")->objects, ==, 5);
  g_assert_cmpuint (child (a, "M.one():1")->bytes, ==, 80);
  g_assert_cmpuint (child (a, "M.two():2")->bytes, ==, 32);
  /* A 1..4: allocations 0..3 of 8 spread over [0 s, 1 s], dead at 1 s:
   * ages 1, 7/8, 6/8, 5/8 s; A 15: first of 2 over [2.01 s, 3 s]: 0.99 s */
  g_assert_cmpuint (child (a, "M.one():1")->by_age[3], ==, 4);   /* < 1 s */
  g_assert_cmpuint (child (a, "M.one():1")->by_age[4], ==, 1);   /* < 10 s */
  g_assert_cmpfloat_with_epsilon (child (a, "M.one():1")->age_seconds, 1 + 0.875 + 0.75 + 0.625 + 0.99, 1e-9);

  chain[0] = TM_CLASSIFIER_THREAD;
  w = tm_churn_compute (trace, 2, 2, chain, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (w->allocated_objects, ==, 6);
  g_assert_cmpuint (w->root->objects, ==, 3);
  g_assert_cmpuint (child (w->root, "t1")->objects, ==, 2);
  g_assert_cmpuint (child (w->root, "t2")->bytes, ==, 100);

  chain[0] = TM_CLASSIFIER_SPACE;
  g_assert_null (tm_churn_compute (trace, 1, 3, chain, 1, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
}

/* The same numbers from counters as from rows. */
static void
test_same_as_rows (void)
{
  g_autoptr(TmTrace) folded = build_trace (FALSE);
  g_autoptr(TmTrace) full = build_trace (TRUE);
  g_autoptr(GError) error = NULL;
  TmClassifier chain[3] = { TM_CLASSIFIER_SITE, TM_CLASSIFIER_THREAD, TM_CLASSIFIER_TYPE };
  TmAllocRequest req;

  for (guint from = 1; from <= 3; from++)
    for (guint to = from; to <= 3; to++)
      {
        g_autoptr(TmLifetimes) l1 = tm_lifetimes_compute (folded, from, to, TM_CLASSIFIER_SITE, 1, NULL, &error);
        g_autoptr(TmLifetimes) l2 = tm_lifetimes_compute (full, from, to, TM_CLASSIFIER_SITE, 1, NULL, &error);
        g_autoptr(TmSurvival) s1 = tm_survival_compute (folded, from, to, NULL, &error);
        g_autoptr(TmSurvival) s2 = tm_survival_compute (full, from, to, NULL, &error);
        g_autoptr(TmAllocSeries) a1 = NULL, a2 = NULL;
        g_autoptr(TmChurn) c1 = tm_churn_compute (folded, from, to, chain, 3, NULL, &error);
        g_autoptr(TmChurn) c2 = tm_churn_compute (full, from, to, chain, 3, NULL, &error);
        g_autoptr(TmCallProfile) p1 = tm_call_profile_from_trace_window (folded, from, to);
        g_autoptr(TmCallProfile) p2 = tm_call_profile_from_trace_window (full, from, to);

        g_assert_no_error (error);
        g_assert_cmpuint (l1->born_objects, ==, l2->born_objects);
        g_assert_cmpuint (l1->died_young_bytes, ==, l2->died_young_bytes);
        g_assert_cmpuint (l1->groups->len, ==, l2->groups->len);
        g_assert_cmpmem (l1->total.by_time_objects, sizeof l1->total.by_time_objects,
                         l2->total.by_time_objects, sizeof l2->total.by_time_objects);
        g_assert_cmpmem (l1->total.by_gcs_bytes, sizeof l1->total.by_gcs_bytes,
                         l2->total.by_gcs_bytes, sizeof l2->total.by_gcs_bytes);
        g_assert_cmpfloat_with_epsilon (l1->total.mean_seconds, l2->total.mean_seconds, 1e-12);
        for (guint i = 0; i < s1->points->len; i++)
          g_assert_cmpmem (&g_array_index (s1->points, TmSurvivalPoint, i), sizeof (TmSurvivalPoint),
                           &g_array_index (s2->points, TmSurvivalPoint, i), sizeof (TmSurvivalPoint));

        tm_alloc_request_init (&req);
        g_assert_true (tm_alloc_request_parse (&req, "type,site", NULL, &error));
        req.from_gc = from;
        req.to_gc = to;
        a1 = tm_alloc_series_compute (folded, &req, NULL, &error);
        a2 = tm_alloc_series_compute (full, &req, NULL, &error);
        tm_alloc_request_clear (&req);
        g_assert_no_error (error);
        g_assert_cmpuint (a1->groups->len, ==, a2->groups->len);
        g_assert_cmpmem (a1->total.alloc_bytes, sizeof (guint64) * a1->n_points,
                         a2->total.alloc_bytes, sizeof (guint64) * a2->n_points);
        g_assert_cmpmem (a1->total.freed_objects, sizeof (guint64) * a1->n_points,
                         a2->total.freed_objects, sizeof (guint64) * a2->n_points);

        g_assert_cmpuint (c1->root->objects, ==, c2->root->objects);
        g_assert_cmpuint (c1->root->bytes, ==, c2->root->bytes);
        g_assert_cmpuint (c1->allocated_bytes, ==, c2->allocated_bytes);
        g_assert_cmpmem (c1->root->by_age, sizeof c1->root->by_age, c2->root->by_age, sizeof c2->root->by_age);

        g_assert_cmpmem (tm_call_profile_total (p1), sizeof (TmCost), tm_call_profile_total (p2), sizeof (TmCost));
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/churn/rows-and-counters", test_rows_and_counters);
  g_test_add_func ("/churn/tree", test_churn_tree);
  g_test_add_func ("/churn/same-as-rows", test_same_as_rows);
  return g_test_run ();
}
