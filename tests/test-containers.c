/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Container leak confidence on a hand-built trace.  Description: DS Box
 * { (Item); }.  GC g (1..5) ends at g seconds and has a graph; window
 * 1..5, so ts = 1 s, te = 5 s.  Roots: four Boxes (16 B) and one Big
 * (1000 B); Items are 100 B.
 *
 *   A (leaky):  holds a1..ag after GC g, never removes one.
 *               staleness 4, 3, 2, 1, 0 s: SC = 2/4 = 0.5
 *   B (cache):  holds two fresh items after each GC (the old pair dies).
 *               8 stints of 1 s and 2 of 0 s: SC = 0.8/4 = 0.2
 *   C:          {c1}, {c1,c2}, {c1}, {c1}, {c1}: one add, one remove: leak-free
 *   D:          {d1} until GC 4, empty at GC 5: leak-free
 *
 * MC and LC follow from the definitions with the reachable totals below;
 * the test computes them independently of the implementation's loop.
 *
 * With operations (CONTAINER_OP), round g happens at g - 0.5 s, before
 * GC g, and each operation's site is a caller (site 4, "Caller.use()"),
 * not the elements' allocation site:
 *   A: ADD a_g (a5 by ADD_OR_GET); never read, never removed.
 *      staleness to te: 4 (clamped to ts), 3.5, 2.5, 1.5, 0.5: SC = 2.4/4 = 0.6
 *   B: REMOVE the old pair, ADD a new one; GET both at g - 0.02 s.
 *      pair 1: 1.5 - max(0.98, 1) = 0.5; pairs 2-4: 0.52; pair 5 (read
 *      just before te): 5 - 4.98 = 0.02.  SC = 2 x 2.08 / 10 / 4 = 0.104;
 *      #ADD 8 (pairs 2-5), #REMOVE 6
 *   C: ADD c1, ADD c2, REMOVE c2 at 2.5: #ADD = #REMOVE = 1: leak-free
 *   D: ADD d1, REMOVE d1 at 4.5: empty at te: leak-free
 */
#include "tm-document.h"
#include "tm-trace-writer.h"
#include "tm-trace-loader.h"
#include "tm-error.h"

#include <math.h>

enum { T_BOX = 1, T_ITEM = 2, T_BIG = 3 };
enum { BOX_A = 1, BOX_B, BOX_C, BOX_D, BIG };

#define SEC G_GUINT64_CONSTANT (1000000000)

/* items of each box after GC g */
static guint
n_items (guint box, guint g)
{
  switch (box)
    {
    case BOX_A: return g;
    case BOX_B: return 2;
    case BOX_C: return g == 2 ? 2 : 1;
    case BOX_D: return g < 5 ? 1 : 0;
    default: return 0;
    }
}

static double
total_at (guint g)
{
  return 4 * 16 + 1000 + 100.0 * (n_items (BOX_A, g) + n_items (BOX_B, g) + n_items (BOX_C, g) + n_items (BOX_D, g));
}

static void
op (TmTraceWriter *w, gboolean with_ops, guint kind, double seconds, guint64 box, guint64 item)
{
  if (with_ops)
    tm_trace_writer_container_op (w, kind, (guint64) (seconds * SEC + 0.5), box, item, 4, 1);
}

static TmTrace *
build_trace (gboolean with_ops)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "test", "1", "test-containers", 8, 0, TM_TRACE_FLAG_GRAPHS | TM_TRACE_FLAG_DEATHS };
  guint64 f_leak = 1, f_cache = 2, f_other = 3, f_caller = 4, next = 10, allocs = 0, deaths = 0;
  /* current items of each box (ids) */
  g_autoptr(GArray) a = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 b[2] = { 0, 0 }, c1 = 0, c2 = 0, d1 = 0;
  TmTrace *trace;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_type (w, T_BOX, "Box", 0);
  tm_trace_writer_type (w, T_ITEM, "Item", 0);
  tm_trace_writer_type (w, T_BIG, "Big", 0);
  tm_trace_writer_frame (w, 1, "Leaky.add()", "Leaky.java", 10);
  tm_trace_writer_frame (w, 2, "Cache.put()", "Cache.java", 20);
  tm_trace_writer_frame (w, 3, "Other.run()", "Other.java", 30);
  tm_trace_writer_site (w, 1, 1, &f_leak);
  tm_trace_writer_site (w, 2, 1, &f_cache);
  tm_trace_writer_site (w, 3, 1, &f_other);
  tm_trace_writer_frame (w, 4, "Caller.use()", "Caller.java", 40);
  tm_trace_writer_site (w, 4, 1, &f_caller);
  tm_trace_writer_thread (w, 1, "main");
  for (guint64 id = BOX_A; id <= BOX_D; id++)
    tm_trace_writer_alloc (w, id, T_BOX, 3, 1, 16, 0, 0);
  tm_trace_writer_alloc (w, BIG, T_BIG, 3, 1, 1000, 0, 0);
  allocs = 5;

  for (guint g = 1; g <= 5; g++)
    {
      g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (guint64));
      TmRootRecord roots[5];
      guint64 id;

      /* A gains one item */
      id = next++;
      tm_trace_writer_alloc (w, id, T_ITEM, 1, 1, 100, 0, 0);
      g_array_append_val (a, id);
      op (w, with_ops, g == 5 ? TM_CONTAINER_OP_ADD_OR_GET : TM_CONTAINER_OP_ADD, g - 0.5, BOX_A, id);
      /* B: a fresh pair, the old one dies */
      for (guint k = 0; k < 2; k++)
        {
          if (b[k] != 0)
            {
              g_array_append_val (dead, b[k]);
              op (w, with_ops, TM_CONTAINER_OP_REMOVE, g - 0.5, BOX_B, b[k]);
            }
          b[k] = next++;
          tm_trace_writer_alloc (w, b[k], T_ITEM, 2, 1, 100, 0, 0);
          op (w, with_ops, TM_CONTAINER_OP_ADD, g - 0.5, BOX_B, b[k]);
        }
      allocs += 3;
      /* C and D */
      if (g == 1)
        {
          c1 = next++;
          d1 = next++;
          tm_trace_writer_alloc (w, c1, T_ITEM, 3, 1, 100, 0, 0);
          tm_trace_writer_alloc (w, d1, T_ITEM, 3, 1, 100, 0, 0);
          op (w, with_ops, TM_CONTAINER_OP_ADD, g - 0.5, BOX_C, c1);
          op (w, with_ops, TM_CONTAINER_OP_ADD, g - 0.5, BOX_D, d1);
          allocs += 2;
        }
      if (g == 2)
        {
          c2 = next++;
          tm_trace_writer_alloc (w, c2, T_ITEM, 3, 1, 100, 0, 0);
          op (w, with_ops, TM_CONTAINER_OP_ADD, g - 0.5, BOX_C, c2);
          allocs++;
        }
      if (g == 3)
        {
          g_array_append_val (dead, c2);
          op (w, with_ops, TM_CONTAINER_OP_REMOVE, g - 0.5, BOX_C, c2);
        }
      if (g == 5)
        {
          g_array_append_val (dead, d1);
          op (w, with_ops, TM_CONTAINER_OP_REMOVE, g - 0.5, BOX_D, d1);
        }
      for (guint k = 0; k < 2; k++)
        op (w, with_ops, TM_CONTAINER_OP_GET, g - 0.02, BOX_B, b[k]);

      tm_trace_writer_gc_start (w, g, g * SEC - SEC / 100, TM_GC_KIND_MAJOR, "test", "test");
      tm_trace_writer_deaths (w, g, (guint64 *) (gpointer) dead->data, dead->len);
      deaths += dead->len;
      tm_trace_writer_gc_end (w, g, g * SEC, SEC / 100, 0, NULL);

      tm_trace_writer_graph_begin (w, g);
      for (guint r = 0; r < 5; r++)
        roots[r] = (TmRootRecord) { BOX_A + r, TM_ROOT_KIND_STATIC, 0 };
      tm_trace_writer_roots (w, 5, roots);
      tm_trace_writer_refs (w, BOX_A, a->len, (guint64 *) (gpointer) a->data);
      tm_trace_writer_refs (w, BOX_B, 2, b);
      {
        guint64 cs[2] = { c1, c2 };
        tm_trace_writer_refs (w, BOX_C, g == 2 ? 2 : 1, cs);
      }
      if (g < 5)
        tm_trace_writer_refs (w, BOX_D, 1, &d1);
      tm_trace_writer_graph_end (w, g, g < 5 ? 4 : 3);
    }
  tm_trace_writer_end (w, allocs, deaths, 5, 5 * SEC);
  g_assert_true (tm_trace_writer_close (w, &error));
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  trace = tm_trace_load_bytes (bytes, "containers", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (trace->complete);
  return trace;
}

/* MC by the definition: trapezoids of deep/total over 1 s steps, / 4 s */
static double
expected_mc (guint box)
{
  double area = 0;

  for (guint g = 1; g < 5; g++)
    {
      double y0 = (16 + 100.0 * n_items (box, g)) / total_at (g);
      double y1 = (16 + 100.0 * n_items (box, g + 1)) / total_at (g + 1);
      area += (y0 + y1) / 2;
    }
  return area / 4;
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
  double mc_a = expected_mc (BOX_A), mc_b = expected_mc (BOX_B);

  g_assert_true (tm_dsl_add_string (dsl, "test.ds", "DS Box { (Item); }", -1, &error));
  g_assert_no_error (error);
  for (guint g = 1; g <= 5; g++)
    g_assert_cmpuint (tm_trace_gc (trace, g)->reachable_bytes, ==, (guint64) total_at (g));

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/containers/confidence", test_confidence);
  g_test_add_func ("/containers/formula", test_formula_and_errors);
  g_test_add_func ("/containers/operations", test_operations);
  return g_test_run ();
}
