/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Container leak confidence on the hand-built trace of container-trace.h
 * (the numbers are derived there), with and without its operations; the
 * containers grouped by allocation site.
 */
#include "container-trace.h"
#include "tm-document.h"
#include "tm-trace-writer.h"
#include "tm-trace-loader.h"
#include "tm-error.h"

#include <math.h>

static TmTrace *
build_trace (gboolean with_ops)
{
  g_autoptr(GBytes) bytes = tm_test_container_trace_bytes (with_ops, 5);
  g_autoptr(GError) error = NULL;
  TmTrace *trace = tm_trace_load_bytes (bytes, "containers", NULL, &error);

  g_assert_no_error (error);
  g_assert_true (trace->complete);
  return trace;
}

/* Ranked containers by allocation site: A and B each alone at their site,
 * then A and B as if both came from one site (C's): MC adds, SC is the
 * mean over all stints, LC = SC^(1 - MC). */
static void
check_by_site (TmTrace *trace, const TmContainerReport *r, double sc_a, double sc_b, guint64 stints_b)
{
  g_autoptr(GArray) groups = tm_container_report_by_alloc_site (trace, r);
  const TmContainerAllocSite *ga, *gb, *g;
  double mc_a = tm_test_container_mc (BOX_A), mc_b = tm_test_container_mc (BOX_B);
  double sc = (sc_a * 5 + sc_b * stints_b) / (5 + stints_b);
  guint64 c_index;
  TmContainerReport joined = *r;

  g_assert_cmpuint (groups->len, ==, 2);
  ga = &g_array_index (groups, TmContainerAllocSite, 0);
  gb = &g_array_index (groups, TmContainerAllocSite, 1);
  g_assert_cmpuint (tm_trace_site (trace, ga->site)->id, ==, 5);
  g_assert_cmpuint (tm_trace_site (trace, gb->site)->id, ==, 6);
  g_assert_cmpuint (ga->n_containers, ==, 1);
  g_assert_cmpuint (ga->top, ==, 0);
  g_assert_cmpuint (gb->top, ==, 1);
  g_assert_cmpint (ga->growth_bytes, ==, 400);
  g_assert_cmpint (gb->growth_bytes, ==, 0);
  g_assert_cmpuint (ga->elements_at_end, ==, 5);
  g_assert_cmpuint (gb->elements_at_end, ==, 2);
  g_assert_cmpuint (ga->stints, ==, 5);
  g_assert_cmpuint (gb->stints, ==, stints_b);
  g_assert_cmpfloat_with_epsilon (ga->sc, sc_a, 1e-9);
  g_assert_cmpfloat_with_epsilon (gb->sc, sc_b, 1e-9);
  g_assert_cmpfloat_with_epsilon (ga->mc, mc_a, 1e-9);
  g_assert_cmpfloat_with_epsilon (ga->lc, pow (sc_a, 1 - mc_a), 1e-9);
  g_assert_cmpfloat_with_epsilon (gb->lc, pow (sc_b, 1 - mc_b), 1e-9);

  /* both heads moved to C's allocation site */
  g_assert_true (tm_trace_object_index_for_id (trace, BOX_C, &c_index));
  joined.containers = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < 2; i++)
    {
      TmContainer *c = g_memdup2 (g_ptr_array_index (r->containers, i), sizeof (TmContainer));
      c->head_object = (guint32) c_index;
      g_ptr_array_add (joined.containers, c);
    }
  g_array_unref (groups);
  groups = tm_container_report_by_alloc_site (trace, &joined);
  g_assert_cmpuint (groups->len, ==, 1);
  g = &g_array_index (groups, TmContainerAllocSite, 0);
  g_assert_cmpuint (tm_trace_site (trace, g->site)->id, ==, 3);
  g_assert_cmpuint (g->n_containers, ==, 2);
  g_assert_cmpuint (g->n_exact, ==, r->ops_recorded ? 2 : 0);
  g_assert_cmpint (g->growth_bytes, ==, 400);
  g_assert_cmpuint (g->bytes_at_end, ==, 516 + 216);
  g_assert_cmpfloat_with_epsilon (g->mc, mc_a + mc_b, 1e-9);
  g_assert_cmpfloat_with_epsilon (g->sc, sc, 1e-9);
  g_assert_cmpfloat_with_epsilon (g->lc, pow (sc, 1 - mc_a - mc_b), 1e-9);
  g_ptr_array_unref (joined.containers);
}

/* The report over GCs 1..5: A and B ranked in that order with the given
 * SC (MC and LC checked against the definitions), C and D leak-free,
 * A's adds from one site with A's SC as its mean staleness; returns the
 * site's index. */
static guint32
check_report (TmTrace *trace, gboolean with_ops, double sc_a, double sc_b)
{
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmContainerReport) r = NULL;
  g_autoptr(TmDocument) doc = NULL;
  const TmContainer *ca, *cb;
  const TmContainerSite *site;
  double mc_a = tm_test_container_mc (BOX_A), mc_b = tm_test_container_mc (BOX_B);

  g_assert_true (tm_dsl_add_string (dsl, "test.ds", "DS Box { (Item); }", -1, &error));
  g_assert_no_error (error);
  for (guint g = 1; g <= 5; g++)
    g_assert_cmpuint (tm_trace_gc (trace, g)->reachable_bytes, ==, (guint64) tm_test_container_total (g));

  doc = tm_document_new_for_trace (trace);
  tm_document_set_dsl (doc, g_steal_pointer (&dsl));
  r = tm_document_containers (doc, 1, 5, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r->sc_upper_bound, ==, !with_ops);
  g_assert_cmpint (r->ops_recorded, ==, with_ops);
  g_assert_cmpuint (r->n_graphs, ==, 5);
  g_assert_cmpuint (r->containers->len, ==, 2);
  g_assert_cmpuint (r->leak_free, ==, 2);

  ca = g_ptr_array_index (r->containers, 0);
  cb = g_ptr_array_index (r->containers, 1);
  g_assert_cmpuint (tm_trace_object_id (trace, ca->head_object), ==, BOX_A);
  g_assert_cmpuint (tm_trace_object_id (trace, cb->head_object), ==, BOX_B);
  g_assert_cmpint (ca->exact, ==, with_ops);
  g_assert_cmpint (cb->exact, ==, with_ops);
  g_assert_cmpuint (ca->ops, ==, with_ops ? 5 : 0);
  g_assert_cmpfloat_with_epsilon (ca->sc, sc_a, 1e-9);
  g_assert_cmpfloat_with_epsilon (cb->sc, sc_b, 1e-9);
  g_assert_cmpfloat_with_epsilon (ca->mc, mc_a, 1e-9);
  g_assert_cmpfloat_with_epsilon (cb->mc, mc_b, 1e-9);
  g_assert_cmpfloat_with_epsilon (ca->lc, pow (sc_a, 1 - mc_a), 1e-9);
  g_assert_cmpfloat_with_epsilon (cb->lc, pow (sc_b, 1 - mc_b), 1e-9);
  g_assert_cmpuint (ca->elements_at_end, ==, 5);
  g_assert_cmpuint (ca->adds, ==, 4);
  g_assert_cmpuint (ca->removes, ==, 0);
  g_assert_cmpuint (cb->adds, ==, 8);
  g_assert_cmpuint (cb->removes, ==, 6);
  g_assert_cmpuint (ca->bytes_at_end, ==, 516);
  /* the sites that added the elements, by mean staleness */
  g_assert_cmpuint (ca->sites->len, ==, 1);
  site = &g_array_index (ca->sites, TmContainerSite, 0);
  g_assert_cmpfloat_with_epsilon (site->mean_staleness, sc_a, 1e-9);
  g_assert_cmpuint (site->elements, ==, 5);
  g_assert_cmpuint (ca->bytes_at_start, ==, 116);
  g_assert_cmpuint (cb->bytes_at_start, ==, 216);
  check_by_site (trace, r, sc_a, sc_b, 10);
  return site->site;
}

static void
test_confidence (void)
{
  g_autoptr(TmTrace) trace = build_trace (FALSE);
  guint32 site = check_report (trace, FALSE, 0.5, 0.2);

  /* from graphs: the elements' allocation site */
  g_assert_cmpstr (tm_trace_frame (trace, tm_trace_site (trace, site)->frames[0])->method, ==, "Leaky.add()");
}

/* The same heap with its operations recorded: exact SC, adds, removes and
 * the adding callers' sites (numbers in the comment at the top). */
static void
test_operations (void)
{
  g_autoptr(TmTrace) trace = build_trace (TRUE);
  guint32 site;

  g_assert_cmpuint (trace->container_ops->len, ==, 5 + 18 + 3 + 2 + 10);
  site = check_report (trace, TRUE, 0.6, 0.104);
  /* the caller that added, not the allocation site */
  g_assert_cmpuint (tm_trace_site (trace, site)->id, ==, 4);
}

static void
test_formula_and_errors (void)
{
  g_autoptr(TmTrace) trace = build_trace (FALSE);
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpfloat (tm_leak_confidence (0.0, 0.7), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (tm_leak_confidence (1.0, 0.3), 1.0, 1e-12);
  /* SC^(1 - MC): SC itself when MC is 0, 1 when MC is 1 (and SC > 0) */
  g_assert_cmpfloat_with_epsilon (tm_leak_confidence (0.4, 0.0), 0.4, 1e-12);
  g_assert_cmpfloat_with_epsilon (tm_leak_confidence (0.4, 1.0), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (tm_leak_confidence (0.25, 0.5), 0.5, 1e-12);

  g_autoptr(TmDocument) doc = tm_document_new_for_trace (trace);

  g_assert_true (tm_dsl_add_string (dsl, "test.ds", "DS Box { (Item); }", -1, &error));
  tm_document_set_dsl (doc, g_steal_pointer (&dsl));
  g_assert_null (tm_document_containers (doc, 3, 3, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
}

/* A set that delegates to a map (DS Set { Box; }, as HashSet holds a
 * HashMap) and grows by a 1000-byte item per GC, beside a tiny box that
 * holds two items from the start and gains a third at GC 2: GCs 1..5 at
 * 1..5 s, a graph at each, a 1000-byte root besides.  The set's elements
 * are the map's items: it is ranked, not left out as leak-free with the
 * map as its one element.  The tiny box is staler (SC = (4 + 4 + 3) / 3
 * / 4 s) and so has the higher LC, but its 8 bytes of growth are not 1%
 * of the heap's 4008: the set ranks first and is the one named. */
static TmTrace *
set_trace (guint64 t3_size)
{
  enum { T_SET = 1, T_BOX, T_ITEM, T_BIG };
  enum { SET = 1, MAP, TINY, FILLER, T1, T2, T3 };
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "test", "1", "test-containers", 8, 0, TM_TRACE_FLAG_GRAPHS | TM_TRACE_FLAG_DEATHS };
  guint64 f = 1, items[5], tiny[3] = { T1, T2, T3 }, next = 10, allocs = 0;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TmTrace *trace;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_type (w, T_SET, "Set", 0);
  tm_trace_writer_type (w, T_BOX, "Box", 0);
  tm_trace_writer_type (w, T_ITEM, "Item", 0);
  tm_trace_writer_type (w, T_BIG, "Big", 0);
  tm_trace_writer_frame (w, 1, "Registry.add()", "Registry.java", 10);
  tm_trace_writer_site (w, 1, 1, &f);
  tm_trace_writer_thread (w, 1, "main");
  tm_trace_writer_alloc (w, SET, T_SET, 1, 1, 16, 0, 0);
  tm_trace_writer_alloc (w, MAP, T_BOX, 1, 1, 16, 0, 0);
  tm_trace_writer_alloc (w, TINY, T_BOX, 1, 1, 16, 0, 0);
  tm_trace_writer_alloc (w, FILLER, T_BIG, 1, 1, 1000, 0, 0);
  tm_trace_writer_alloc (w, T1, T_ITEM, 1, 1, 8, 0, 0);
  tm_trace_writer_alloc (w, T2, T_ITEM, 1, 1, 8, 0, 0);
  allocs = 6;
  for (guint g = 1; g <= 5; g++)
    {
      TmRootRecord roots[3] = { { SET, TM_ROOT_KIND_STATIC, 0 }, { TINY, TM_ROOT_KIND_STATIC, 0 },
                                { FILLER, TM_ROOT_KIND_STATIC, 0 } };

      items[g - 1] = next++;
      tm_trace_writer_alloc (w, items[g - 1], T_ITEM, 1, 1, 1000, 0, 0);
      allocs++;
      if (g == 2)
        {
          tm_trace_writer_alloc (w, T3, T_ITEM, 1, 1, t3_size, 0, 0);
          allocs++;
        }
      tm_trace_writer_gc_start (w, g, g * G_GUINT64_CONSTANT (1000000000) - 10000000, TM_GC_KIND_MAJOR, "test", "test");
      tm_trace_writer_gc_end (w, g, g * G_GUINT64_CONSTANT (1000000000), 10000000, 0, NULL);
      tm_trace_writer_graph_begin (w, g);
      tm_trace_writer_roots (w, 3, roots);
      tm_trace_writer_refs (w, SET, 1, (guint64[]) { MAP });
      tm_trace_writer_refs (w, MAP, g, items);
      tm_trace_writer_refs (w, TINY, g == 1 ? 2 : 3, tiny);
      tm_trace_writer_graph_end (w, g, 3);
    }
  tm_trace_writer_end (w, allocs, 0, 5, 5 * G_GUINT64_CONSTANT (1000000000));
  g_assert_true (tm_trace_writer_close (w, &error));
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  trace = tm_trace_load_bytes (bytes, "set", NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static void
test_set_and_tiny_box (void)
{
  g_autoptr(TmTrace) trace = set_trace (8);
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmContainerReport) r = NULL;
  g_autoptr(TmDocument) doc = NULL;
  g_autoptr(GArray) groups = NULL;
  const TmContainer *set, *tiny;

  g_assert_true (tm_dsl_add_string (dsl, "test.ds", "DS Box { (Item); }\nDS Set { Box; }", -1, &error));
  g_assert_no_error (error);
  doc = tm_document_new_for_trace (trace);
  tm_document_set_dsl (doc, g_steal_pointer (&dsl));
  r = tm_document_containers (doc, 1, 5, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->reachable_end - r->reachable_start, ==, 4008);
  g_assert_cmpuint (r->containers->len, ==, 2);
  set = g_ptr_array_index (r->containers, 0);
  tiny = g_ptr_array_index (r->containers, 1);
  g_assert_cmpstr (tm_trace_type (trace, set->type)->name, ==, "Set");
  /* the map (present throughout) and its five items, four added */
  g_assert_cmpuint (set->elements_at_end, ==, 6);
  g_assert_cmpuint (set->adds, ==, 4);
  g_assert_cmpfloat_with_epsilon (set->sc, (4.0 + 4 + 3 + 2 + 1 + 0) / 6 / 4, 1e-9);
  g_assert_true (set->relevant);
  g_assert_cmpuint (tm_trace_object_id (trace, tiny->head_object), ==, 3);
  g_assert_cmpfloat_with_epsilon (tiny->sc, (4.0 + 4 + 3) / 3 / 4, 1e-9);
  g_assert_false (tiny->relevant);
  g_assert_cmpfloat (tiny->lc, >, set->lc);
  g_assert_true (tm_container_report_headline_container (trace, r) == set);
  groups = tm_container_report_by_alloc_site (trace, r);
  g_assert_cmpuint (groups->len, ==, 1);
  g_assert_true (g_array_index (groups, TmContainerAllocSite, 0).relevant);
}

/* The same, but the tiny box's third item has 200 bytes: 4.8% of the
 * heap's growth of 4200, so more than 1%, yet a twentieth of the set's
 * 4000.  A stale map that grew a little beside the leak is not the leak:
 * the set still ranks first and is the one named (the box ranked first
 * before, with its higher LC). */
static void
test_small_beside_large (void)
{
  g_autoptr(TmTrace) trace = set_trace (200);
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmContainerReport) r = NULL;
  g_autoptr(TmDocument) doc = NULL;
  const TmContainer *set, *tiny;

  g_assert_true (tm_dsl_add_string (dsl, "test.ds", "DS Box { (Item); }\nDS Set { Box; }", -1, &error));
  doc = tm_document_new_for_trace (trace);
  tm_document_set_dsl (doc, g_steal_pointer (&dsl));
  r = tm_document_containers (doc, 1, 5, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->reachable_end - r->reachable_start, ==, 4200);
  g_assert_cmpuint (r->containers->len, ==, 2);
  set = g_ptr_array_index (r->containers, 0);
  tiny = g_ptr_array_index (r->containers, 1);
  g_assert_cmpstr (tm_trace_type (trace, set->type)->name, ==, "Set");
  g_assert_true (set->relevant);
  g_assert_false (tiny->relevant);
  g_assert_cmpfloat (tiny->lc, >, set->lc);
  g_assert_true (tm_container_report_headline_container (trace, r) == set);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/containers/confidence", test_confidence);
  g_test_add_func ("/containers/formula", test_formula_and_errors);
  g_test_add_func ("/containers/operations", test_operations);
  g_test_add_func ("/containers/set-and-tiny-box", test_set_and_tiny_box);
  g_test_add_func ("/containers/small-beside-large", test_small_beside_large);
  return g_test_run ();
}
