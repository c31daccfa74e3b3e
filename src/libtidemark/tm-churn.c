/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The short-lived objects of a window (tm-churn.h): the counters the
 * model keeps instead of their rows, plus any rows of objects that died
 * in their first GC (the model keeps those with transactions), in one
 * classification tree.
 */
#include "tm-config.h"
#include <glib/gi18n-lib.h>

#include <string.h>

#include "tm-churn.h"
#include "tm-error.h"

#define BATCH 65536u

static TmChurnNode *
node_new (char *key, guint32 key_index)
{
  TmChurnNode *n = g_new0 (TmChurnNode, 1);

  n->key = key;
  n->key_index = key_index;
  n->children = g_ptr_array_new ();
  return n;
}

static void
node_free (TmChurnNode *n)
{
  for (guint i = 0; i < n->children->len; i++)
    node_free (g_ptr_array_index (n->children, i));
  g_ptr_array_unref (n->children);
  g_free (n->key);
  g_free (n);
}

static void
node_add (TmChurnNode *n, guint64 objects, guint64 bytes, guint age_bucket, double age_seconds)
{
  n->objects += objects;
  n->bytes += bytes;
  n->by_age[age_bucket] += objects;
  n->age_seconds += age_seconds;
}

static gint
compare_nodes (gconstpointer a, gconstpointer b)
{
  const TmChurnNode *x = *(TmChurnNode * const *) a, *y = *(TmChurnNode * const *) b;

  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? 1 : -1;
  return g_strcmp0 (x->key, y->key);
}

static void
node_sort (TmChurnNode *n)
{
  g_ptr_array_sort (n->children, compare_nodes);
  for (guint i = 0; i < n->children->len; i++)
    node_sort (g_ptr_array_index (n->children, i));
}

typedef struct {
  const TmTrace *trace;
  TmChurn       *churn;
  GHashTable    *children;     /* TmChurnNode * -> GHashTable (key + 1 -> child) */
  guint32       *keys[TM_CLASSIFY_MAX_DEPTH];
} Builder;

static TmChurnNode *
child_for (Builder *bl, TmChurnNode *parent, guint level, guint32 key)
{
  GHashTable *index = g_hash_table_lookup (bl->children, parent);
  TmChurnNode *child;

  if (index == NULL)
    {
      index = g_hash_table_new (NULL, NULL);
      g_hash_table_insert (bl->children, parent, index);
    }
  child = g_hash_table_lookup (index, GUINT_TO_POINTER (key + 1));
  if (child == NULL)
    {
      TmClassifier c = bl->churn->chain[level];
      child = node_new (tm_classifier_key_label (c, bl->trace, key), key);
      g_ptr_array_add (parent->children, child);
      g_hash_table_insert (index, GUINT_TO_POINTER (key + 1), child);
    }
  return child;
}

/* Adds item i of a batch whose keys per level are in bl->keys. */
static void
add_item (Builder *bl, guint32 i, guint64 objects, guint64 bytes, guint age_bucket, double age_seconds)
{
  TmChurnNode *n = bl->churn->root;

  node_add (n, objects, bytes, age_bucket, age_seconds);
  for (guint l = 0; l < bl->churn->depth; l++)
    {
      n = child_for (bl, n, l, bl->keys[l][i]);
      node_add (n, objects, bytes, age_bucket, age_seconds);
    }
}

/* Rows born in interval b that died in their first GC (b + 1). */
static gboolean
add_rows (Builder *bl, guint32 b, GCancellable *cancellable, GError **error)
{
  const TmTrace *t = bl->trace;
  guint64 lo = tm_trace_allocs_before_gc (t, b), hi = tm_trace_allocs_before_gc (t, b + 1);
  guint64 lo_seq = tm_trace_allocations_before_gc (t, b), hi_seq = tm_trace_allocations_before_gc (t, b + 1);
  guint64 t0 = tm_trace_gc_end_ns (t, b), t1 = tm_trace_gc (t, b + 1)->start_ns;
  g_autofree guint32 *objects = g_new (guint32, BATCH);
  guint32 n = 0;

  for (guint64 i = lo; i <= hi; i++)
    {
      if (i < hi && t->obj_death[i] == b + 1)
        objects[n++] = (guint32) i;
      if (n == BATCH || (i == hi && n > 0))
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          for (guint l = 0; l < bl->churn->depth; l++)
            tm_classifier_keys (bl->churn->chain[l], t, 0, objects, n, bl->keys[l]);
          for (guint32 k = 0; k < n; k++)
            {
              guint64 born = tm_lifetime_birth_ns (tm_trace_object_seq (t, objects[k]), lo_seq, hi_seq, t0, t1);
              guint64 age = t1 > born ? t1 - born : 0;
              add_item (bl, k, 1, tm_trace_object_size (t, objects[k]), tm_lifetime_time_bucket (age), age / 1e9);
            }
          n = 0;
        }
    }
  return TRUE;
}

gboolean
tm_churn_classifier_ok (TmClassifier c)
{
  return c == TM_CLASSIFIER_TYPE || c == TM_CLASSIFIER_PACKAGE || c == TM_CLASSIFIER_SITE
         || c == TM_CLASSIFIER_CALL_SITE || c == TM_CLASSIFIER_THREAD;
}

TmChurn *
tm_churn_compute (const TmTrace *trace, guint32 from_gc, guint32 to_gc, const TmClassifier *chain, guint depth,
                  GCancellable *cancellable, GError **error)
{
  g_autoptr(TmChurn) churn = NULL;
  Builder bl = { 0 };
  gboolean ok = TRUE;

  g_return_val_if_fail (trace != NULL, NULL);
  if (tm_trace_n_gcs (trace) == 0)
    {
      g_set_error_literal (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("the trace has no GCs"));
      return NULL;
    }
  if (from_gc < 1 || to_gc < from_gc || to_gc > tm_trace_n_gcs (trace))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("window GC %u..%u is not within GC 1..%u"),
                   from_gc, to_gc, tm_trace_n_gcs (trace));
      return NULL;
    }
  if (depth > TM_CLASSIFY_MAX_DEPTH)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("at most %u classifiers"), TM_CLASSIFY_MAX_DEPTH);
      return NULL;
    }
  for (guint l = 0; l < depth; l++)
    if (!tm_churn_classifier_ok (chain[l]))
      {
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                     _("short-lived objects can be grouped by type, package, site, call-site or thread, not by %s"),
                     tm_classifier_to_string (chain[l]));
        return NULL;
      }

  churn = g_new0 (TmChurn, 1);
  churn->from_gc = from_gc;
  churn->to_gc = to_gc;
  churn->depth = depth;
  memcpy (churn->chain, chain, sizeof (TmClassifier) * depth);
  churn->root = node_new (g_strdup ("Overall"), G_MAXUINT32);
  churn->allocated_objects = tm_trace_allocations_before_gc (trace, to_gc)
                             - tm_trace_allocations_before_gc (trace, from_gc - 1);
  bl.trace = trace;
  bl.churn = churn;
  bl.children = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);
  for (guint l = 0; l < depth; l++)
    bl.keys[l] = g_new (guint32, BATCH);

  /* objects born before GC_START b + 1, after GC_START b */
  for (guint32 b = from_gc - 1; b < to_gc && ok; b++)
    {
      gsize n_sl;
      const TmShortLived *sl = tm_trace_short_lived (trace, b, &n_sl);
      guint64 lo = tm_trace_allocs_before_gc (trace, b), hi = tm_trace_allocs_before_gc (trace, b + 1);

      for (gsize base = 0; base < n_sl; base += BATCH)
        {
          guint32 m = (guint32) MIN ((gsize) BATCH, n_sl - base);

          for (guint l = 0; l < depth; l++)
            tm_classifier_keys_short_lived (chain[l], trace, sl + base, m, bl.keys[l]);
          for (guint32 k = 0; k < m; k++)
            {
              const TmShortLived *e = &sl[base + k];
              add_item (&bl, k, e->count, e->bytes, e->age_bucket, e->age_seconds);
              churn->allocated_bytes += e->bytes;
            }
        }
      for (guint64 i = lo; i < hi; i++)
        churn->allocated_bytes += tm_trace_object_size (trace, i);
      ok = add_rows (&bl, b, cancellable, error);
    }

  for (guint l = 0; l < depth; l++)
    g_free (bl.keys[l]);
  g_hash_table_unref (bl.children);
  if (!ok)
    return NULL;
  node_sort (churn->root);
  return g_steal_pointer (&churn);
}

void
tm_churn_free (TmChurn *churn)
{
  if (churn == NULL)
    return;
  if (churn->root != NULL)
    node_free (churn->root);
  g_free (churn);
}
