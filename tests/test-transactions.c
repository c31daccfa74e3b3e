/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Transactional leak detection on a hand-built trace.
 *
 *   checkout (kind 1, thread main): runs 1..20 allocate 3 Tmp (24 B,
 *     site checkout:10); every 10th run also 1 Leak (48 B, site
 *     remember:20) that never dies.  Run 26 (after the last GC) allocates
 *     one more Leak: no whole-heap GC checks it.
 *   browse (kind 2, thread worker): runs 21..25 allocate 2 Tmp each.
 *   GCs: 1 minor after run 5, 2 major after run 10, 3 minor after run 15,
 *     4 major after run 25; each kills the Tmp objects allocated since the
 *     GC before.
 *
 * Expected: suspects are exactly runs 10 and 20 (48 B each, Leak at
 * remember:20); checkout: 21 runs, 20 checked, 2 suspect; browse: 5 runs,
 * no suspect; 1 unchecked run.
 */
#include "tm-transactions.h"
#include "tm-classify.h"
#include "tm-trace-writer.h"
#include "tm-error.h"
#include "tm-trace-loader.h"

#include <string.h>

enum { T_TMP = 1, T_LEAK = 2 };

typedef struct {
  TmTraceWriter *w;
  guint64 next_id;
  GArray *pending;     /* Tmp ids that die at the next GC */
  guint   gcs;
  guint64 now;
  guint64 allocs, deaths;
} Gen;

static void
run (Gen *g, guint64 tx_id, guint64 kind, guint64 thread, guint n_tmp, gboolean leak)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 begin = g->now;

  for (guint i = 0; i < n_tmp; i++)
    {
      guint64 id = g->next_id++;
      tm_trace_writer_alloc (g->w, id, T_TMP, 1, thread, 24, 0, 0);
      g_array_append_val (ids, id);
      g_array_append_val (g->pending, id);
      g->allocs++;
    }
  if (leak)
    {
      guint64 id = g->next_id++;
      tm_trace_writer_alloc (g->w, id, T_LEAK, 2, thread, 48, 0, 0);
      g_array_append_val (ids, id);
      g->allocs++;
    }
  g->now += 1000000;
  tm_trace_writer_transaction (g->w, tx_id, kind, thread, begin, g->now, (guint64 *) (gpointer) ids->data,
                               ids->len);
}

static void
gc (Gen *g, guint kind)
{
  guint id = ++g->gcs;

  tm_trace_writer_gc_start (g->w, id, g->now, kind, "test", "test");
  tm_trace_writer_deaths (g->w, id, (guint64 *) (gpointer) g->pending->data, g->pending->len);
  g->deaths += g->pending->len;
  g_array_set_size (g->pending, 0);
  g->now += 5000000;
  tm_trace_writer_gc_end (g->w, id, g->now, 5000000, 0, NULL);
}

static TmTrace *
build_trace (gboolean with_transactions)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  Gen g = { tm_trace_writer_new_for_memory (TRUE), 1, g_array_new (FALSE, FALSE, sizeof (guint64)), 0, 0, 0, 0 };
  TmTraceHeader h = { 1, 0, "test", "1", "test-transactions", 8, 0, TM_TRACE_FLAG_DEATHS };
  guint64 f1 = 1, f2 = 2;
  TmTrace *trace;

  tm_trace_writer_header (g.w, &h);
  tm_trace_writer_type (g.w, T_TMP, "shop.Tmp", 0);
  tm_trace_writer_type (g.w, T_LEAK, "shop.Leak", 0);
  tm_trace_writer_frame (g.w, 1, "shop.Shop.checkout()", "Shop.java", 10);
  tm_trace_writer_frame (g.w, 2, "shop.Shop.remember()", "Shop.java", 20);
  tm_trace_writer_site (g.w, 1, 1, &f1);
  tm_trace_writer_site (g.w, 2, 1, &f2);
  tm_trace_writer_thread (g.w, 1, "main");
  tm_trace_writer_thread (g.w, 2, "worker");
  if (with_transactions)
    {
      tm_trace_writer_tx_kind (g.w, 1, "shop.Shop.checkout");
      tm_trace_writer_tx_kind (g.w, 2, "shop.Shop.browse");
    }
  for (guint r = 1; r <= 25; r++)
    {
      if (!with_transactions)
        break;
      if (r <= 20)
        run (&g, r, 1, 1, 3, r % 10 == 0);
      else
        run (&g, r, 2, 2, 2, FALSE);
      if (r == 5 || r == 15)
        gc (&g, TM_GC_KIND_MINOR);
      else if (r == 10 || r == 25)
        gc (&g, TM_GC_KIND_MAJOR);
    }
  if (with_transactions)
    run (&g, 26, 1, 1, 0, TRUE);
  else
    gc (&g, TM_GC_KIND_MAJOR);
  tm_trace_writer_end (g.w, g.allocs, g.deaths, g.gcs, g.now);
  g_assert_true (tm_trace_writer_close (g.w, &error));
  bytes = tm_trace_writer_steal_bytes (g.w);
  tm_trace_writer_free (g.w);
  g_array_unref (g.pending);
  trace = tm_trace_load_bytes (bytes, "tx", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (trace->complete);
  return trace;
}

static void
test_model (void)
{
  g_autoptr(TmTrace) trace = build_trace (TRUE);
  const TmTransaction *tx;

  g_assert_cmpuint (trace->tx_kinds->len, ==, 3);
  g_assert_cmpstr (g_array_index (trace->tx_kinds, TmTxKind, 1).name, ==, "shop.Shop.checkout");
  g_assert_cmpuint (trace->transactions->len, ==, 26);
  tx = &g_array_index (trace->transactions, TmTransaction, 9);
  g_assert_cmpuint (tx->id, ==, 10);
  g_assert_cmpuint (tx->n_objects, ==, 4);
  g_assert_cmpuint (tx->gcs_before_end, ==, 1);
  g_assert_cmpuint (tx->end_ns - tx->begin_ns, ==, 1000000);
  g_assert_cmpstr (tm_trace_thread (trace, g_array_index (trace->transactions, TmTransaction, 22).thread)->name,
                   ==, "worker");

  /* the transaction classifier: each object's kind, by its run */
  {
    guint64 leak10;   /* the Leak of run 10: ids 1..9 runs x 3 Tmp, run 10: 3 Tmp then the Leak */
    guint64 index;
    g_autofree char *label = NULL;

    leak10 = 1 + 9 * 3 + 3;
    g_assert_true (tm_trace_object_index_for_id (trace, leak10, &index));
    g_assert_cmpuint (trace->obj_type[index], ==, T_LEAK);
    g_assert_cmpuint (tm_classifier_key (TM_CLASSIFIER_TRANSACTION, trace, 2, (guint32) index), ==, 1);
    label = tm_classifier_key_label (TM_CLASSIFIER_TRANSACTION, trace, 1);
    g_assert_cmpstr (label, ==, "shop.Shop.checkout");
    g_assert_true (tm_trace_object_index_for_id (trace, 1 + 20 * 3 + 2 + 2 * 2, &index));   /* a Tmp of browse run 23 */
    g_assert_cmpuint (tm_classifier_key (TM_CLASSIFIER_TRANSACTION, trace, 4, (guint32) index), ==, 2);
  }
}

static void
test_suspects (void)
{
  g_autoptr(TmTrace) trace = build_trace (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTxReport) r = tm_transactions_analyse (trace, NULL, &error);
  const TmTxKindReport *checkout, *browse;
  const TmTxSurvivorSite *site;

  g_assert_no_error (error);
  g_assert_cmpuint (r->suspects->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const TmTxRun *run = g_ptr_array_index (r->suspects, i);
      const TmTransaction *tx = &g_array_index (trace->transactions, TmTransaction, run->index);

      g_assert_cmpuint (tx->id, ==, 10 * (i + 1));
      g_assert_cmpuint (run->surviving_objects, ==, 1);
      g_assert_cmpuint (run->surviving_bytes, ==, 48);
      g_assert_cmpuint (run->recurring_bytes, ==, 48);
      g_assert_cmpuint (run->allocated_objects, ==, 4);
      g_assert_cmpuint (run->sites->len, ==, 1);
      site = &g_array_index (run->sites, TmTxSurvivorSite, 0);
      g_assert_cmpstr (tm_trace_type (trace, site->type)->name, ==, "shop.Leak");
      g_assert_cmpstr (tm_trace_frame (trace, tm_trace_site (trace, site->site)->frames[0])->method, ==,
                       "shop.Shop.remember()");
    }
  g_assert_cmpuint (((TmTxRun *) g_ptr_array_index (r->suspects, 0))->check_gc, ==, 2);
  g_assert_cmpuint (((TmTxRun *) g_ptr_array_index (r->suspects, 1))->check_gc, ==, 4);
  g_assert_cmpuint (r->unchecked_runs, ==, 1);

  checkout = g_ptr_array_index (r->kinds, 1);
  browse = g_ptr_array_index (r->kinds, 2);
  g_assert_cmpuint (checkout->runs, ==, 21);
  g_assert_cmpuint (checkout->checked_runs, ==, 20);
  g_assert_cmpuint (checkout->suspect_runs, ==, 2);
  g_assert_cmpuint (checkout->allocated_objects, ==, 63);
  g_assert_cmpuint (checkout->surviving_bytes, ==, 96);
  g_assert_cmpuint (checkout->sites->len, ==, 1);
  site = &g_array_index (checkout->sites, TmTxSurvivorSite, 0);
  g_assert_cmpuint (site->runs, ==, 2);
  g_assert_true (tm_tx_site_is_recurring (checkout, site));
  g_assert_cmpuint (checkout->one_time_runs, ==, 0);
  g_assert_cmpuint (site->objects, ==, 2);
  /* per class: Tmp 60 allocated, all freed; Leak 3 allocated, 2 survive
   * (the third is in the unchecked run) */
  g_assert_cmpuint (checkout->classes->len, ==, 2);
  g_assert_cmpuint (g_array_index (checkout->classes, TmTxClassStats, 0).allocated_objects, ==, 60);
  g_assert_cmpuint (g_array_index (checkout->classes, TmTxClassStats, 0).freed_objects, ==, 60);
  g_assert_cmpuint (g_array_index (checkout->classes, TmTxClassStats, 1).surviving_objects, ==, 2);
  g_assert_cmpuint (browse->runs, ==, 5);
  g_assert_cmpuint (browse->suspect_runs, ==, 0);
  g_assert_cmpuint (browse->surviving_objects, ==, 0);
  g_assert_cmpuint (g_array_index (browse->classes, TmTxClassStats, 0).freed_objects, ==, 10);
}

static void
test_no_transactions (void)
{
  g_autoptr(TmTrace) trace = build_trace (FALSE);
  g_autoptr(GError) error = NULL;

  g_assert_false (tm_transactions_present (trace));
  g_assert_null (tm_transactions_analyse (trace, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "--transaction"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transactions/model", test_model);
  g_test_add_func ("/transactions/suspects", test_suspects);
  g_test_add_func ("/transactions/none", test_no_transactions);
  return g_test_run ();
}
