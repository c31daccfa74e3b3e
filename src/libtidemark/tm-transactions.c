/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Transactional leak detection: see tm-transactions.h.
 */
#include "tm-transactions.h"
#include "tm-error.h"

#include <string.h>
#include <glib/gi18n-lib.h>

gboolean
tm_transactions_present (const TmTrace *trace)
{
  return trace->transactions->len > 0;
}

static gboolean
whole_heap (TmGcKind kind)
{
  return kind == TM_GC_KIND_MAJOR || kind == TM_GC_KIND_CONCURRENT;
}

guint32
tm_transactions_check_gc (const TmTrace *trace, guint32 next_gc)
{
  for (guint32 g = MAX (next_gc, 1); g <= tm_trace_n_gcs (trace); g++)
    {
      const TmGc *gc = tm_trace_gc (trace, g);
      if (whole_heap (gc->kind) && gc->complete)
        return g;
    }
  return 0;
}

static guint64
object_size (const TmTrace *trace, guint64 index)
{
  guint32 s = trace->obj_size[index];
  return G_LIKELY (s != TM_SIZE_OVERFLOW) ? s : tm_trace_object_size (trace, index);
}

static gint
compare_sites (gconstpointer a, gconstpointer b)
{
  const TmTxSurvivorSite *x = a, *y = b;

  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? 1 : -1;
  if (x->type != y->type)
    return x->type < y->type ? -1 : 1;
  return (x->site > y->site) - (x->site < y->site);
}

static gint
compare_classes (gconstpointer a, gconstpointer b)
{
  const TmTxClassStats *x = a, *y = b;

  if (x->allocated_bytes != y->allocated_bytes)
    return x->allocated_bytes < y->allocated_bytes ? 1 : -1;
  return (x->type > y->type) - (x->type < y->type);
}

static gint
compare_suspects (gconstpointer a, gconstpointer b)
{
  const TmTxRun *x = *(TmTxRun * const *) a, *y = *(TmTxRun * const *) b;

  if (x->recurring_bytes != y->recurring_bytes)
    return x->recurring_bytes < y->recurring_bytes ? 1 : -1;
  return (x->index > y->index) - (x->index < y->index);
}

/* Adds to the (type, site) entry of `sites`, found through `index`
 * (key type << 32 | site -> position + 1). */
static void
add_site (GArray *sites, GHashTable *index, guint32 type, guint32 site, guint64 objects, guint64 bytes,
          guint32 runs)
{
  guint64 key = ((guint64) type << 32) | site;
  gpointer pos = g_hash_table_lookup (index, &key);
  TmTxSurvivorSite *s;

  if (pos == NULL)
    {
      TmTxSurvivorSite n = { type, site, 0, 0, 0 };
      guint64 *k = g_new (guint64, 1);

      *k = key;
      g_array_append_val (sites, n);
      g_hash_table_insert (index, k, GUINT_TO_POINTER (sites->len));
      s = &g_array_index (sites, TmTxSurvivorSite, sites->len - 1);
    }
  else
    s = &g_array_index (sites, TmTxSurvivorSite, GPOINTER_TO_UINT (pos) - 1);
  s->objects += objects;
  s->bytes += bytes;
  s->runs += runs;
}

static void
run_free (TmTxRun *run)
{
  g_array_unref (run->sites);
  g_free (run);
}

static void
kind_free (TmTxKindReport *k)
{
  g_array_unref (k->classes);
  g_array_unref (k->sites);
  g_free (k);
}

TmTxReport *
tm_transactions_analyse (TmTrace *trace, GCancellable *cancellable, GError **error)
{
  g_autoptr(TmTxReport) r = NULL;
  g_autoptr(GPtrArray) class_index = NULL;   /* per kind: GHashTable type -> position + 1 */
  g_autoptr(GPtrArray) site_index = NULL;    /* per kind: GHashTable (type, site) -> position + 1 */
  const guint32 *objs = (const guint32 *) (gpointer) trace->tx_objects->data;

  g_return_val_if_fail (trace != NULL, NULL);
  if (!tm_transactions_present (trace))
    {
      g_set_error_literal (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                           _("the trace has no transactions (record them with "
                           "'tidemark-cli record --transaction Class.method -- java ...')"));
      return NULL;
    }

  r = g_new0 (TmTxReport, 1);
  r->trace = tm_trace_ref (trace);
  r->kinds = g_ptr_array_new_with_free_func ((GDestroyNotify) kind_free);
  r->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) run_free);
  r->suspects = g_ptr_array_new ();
  class_index = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  site_index = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  for (guint k = 0; k < trace->tx_kinds->len; k++)
    {
      TmTxKindReport *kr = g_new0 (TmTxKindReport, 1);

      kr->kind = k;
      kr->classes = g_array_new (FALSE, TRUE, sizeof (TmTxClassStats));
      kr->sites = g_array_new (FALSE, TRUE, sizeof (TmTxSurvivorSite));
      g_ptr_array_add (r->kinds, kr);
      g_ptr_array_add (class_index, g_hash_table_new (NULL, NULL));
      g_ptr_array_add (site_index, g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL));
    }

  for (guint i = 0; i < trace->transactions->len; i++)
    {
      const TmTransaction *tx = &g_array_index (trace->transactions, TmTransaction, i);
      TmTxKindReport *kr = g_ptr_array_index (r->kinds, tx->kind);
      GHashTable *classes = g_ptr_array_index (class_index, tx->kind);
      g_autoptr(GHashTable) run_sites = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      TmTxRun *run = g_new0 (TmTxRun, 1);

      if ((i & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      run->index = i;
      run->check_gc = tm_transactions_check_gc (trace, tx->gcs_before_end + 1);
      run->sites = g_array_new (FALSE, TRUE, sizeof (TmTxSurvivorSite));
      g_ptr_array_add (r->runs, run);
      kr->runs++;
      if (run->check_gc == 0)
        r->unchecked_runs++;
      else
        kr->checked_runs++;

      for (guint64 j = tx->first; j < tx->first + tx->n_objects; j++)
        {
          guint32 obj = objs[j], type = trace->obj_type[obj], death = trace->obj_death[obj];
          guint64 size = object_size (trace, obj);
          gpointer pos = g_hash_table_lookup (classes, GUINT_TO_POINTER (type + 1));
          TmTxClassStats *cs;

          if (pos == NULL)
            {
              TmTxClassStats n = { type, 0, 0, 0, 0, 0, 0 };
              g_array_append_val (kr->classes, n);
              g_hash_table_insert (classes, GUINT_TO_POINTER (type + 1), GUINT_TO_POINTER (kr->classes->len));
              cs = &g_array_index (kr->classes, TmTxClassStats, kr->classes->len - 1);
            }
          else
            cs = &g_array_index (kr->classes, TmTxClassStats, GPOINTER_TO_UINT (pos) - 1);
          cs->allocated_objects++;
          cs->allocated_bytes += size;
          run->allocated_objects++;
          run->allocated_bytes += size;
          if (run->check_gc == 0)
            continue;
          if (death != TM_ALIVE && death <= run->check_gc)
            {
              cs->freed_objects++;
              cs->freed_bytes += size;
            }
          else
            {
              cs->surviving_objects++;
              cs->surviving_bytes += size;
              run->surviving_objects++;
              run->surviving_bytes += size;
              add_site (run->sites, run_sites, type, trace->obj_site[obj], 1, size, 0);
            }
        }
      for (guint s = 0; s < run->sites->len; s++)
        g_array_index (run->sites, TmTxSurvivorSite, s).runs = 1;
      g_array_sort (run->sites, compare_sites);
      for (guint s = 0; s < run->sites->len; s++)
        {
          const TmTxSurvivorSite *ss = &g_array_index (run->sites, TmTxSurvivorSite, s);
          add_site (kr->sites, g_ptr_array_index (site_index, tx->kind), ss->type, ss->site, ss->objects,
                    ss->bytes, 1);
        }
      kr->allocated_objects += run->allocated_objects;
      kr->allocated_bytes += run->allocated_bytes;
      kr->surviving_objects += run->surviving_objects;
      kr->surviving_bytes += run->surviving_bytes;
    }

  /* Now that each site's number of runs is known: the suspect part of
   * every run. */
  for (guint i = 0; i < r->runs->len; i++)
    {
      TmTxRun *run = g_ptr_array_index (r->runs, i);
      const TmTransaction *tx = &g_array_index (trace->transactions, TmTransaction, run->index);
      TmTxKindReport *kr = g_ptr_array_index (r->kinds, tx->kind);
      GHashTable *sites = g_ptr_array_index (site_index, tx->kind);

      for (guint s = 0; s < run->sites->len; s++)
        {
          const TmTxSurvivorSite *ss = &g_array_index (run->sites, TmTxSurvivorSite, s);
          guint64 key = ((guint64) ss->type << 32) | ss->site;
          guint pos = GPOINTER_TO_UINT (g_hash_table_lookup (sites, &key));
          const TmTxSurvivorSite *ks = &g_array_index (kr->sites, TmTxSurvivorSite, pos - 1);

          if (tm_tx_site_is_recurring (kr, ks))
            {
              run->recurring_objects += ss->objects;
              run->recurring_bytes += ss->bytes;
            }
        }
      if (run->recurring_objects > 0)
        {
          kr->suspect_runs++;
          g_ptr_array_add (r->suspects, run);
        }
      else if (run->surviving_objects > 0)
        kr->one_time_runs++;
    }
  for (guint k = 0; k < r->kinds->len; k++)
    {
      TmTxKindReport *kr = g_ptr_array_index (r->kinds, k);
      g_array_sort (kr->classes, compare_classes);
      g_array_sort (kr->sites, compare_sites);
    }
  g_ptr_array_sort (r->suspects, compare_suspects);
  return g_steal_pointer (&r);
}

gboolean
tm_tx_site_is_recurring (const TmTxKindReport *kind, const TmTxSurvivorSite *site)
{
  return site->runs >= 2 || kind->checked_runs < TM_TX_MIN_RUNS;
}

void
tm_tx_report_free (TmTxReport *r)
{
  if (r == NULL)
    return;
  g_ptr_array_unref (r->suspects);
  g_ptr_array_unref (r->runs);
  g_ptr_array_unref (r->kinds);
  tm_trace_unref (r->trace);
  g_free (r);
}
