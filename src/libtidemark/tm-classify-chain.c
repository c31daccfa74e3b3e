/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Classifier chains with the data-structure classifiers, and the
 * detection results they classify with (tm-classify-chain.h).
 */
#include "tm-classify-chain.h"
#include "tm-error.h"

#include <string.h>

static const char *ds_titles[TM_DS_N_CLASSIFIERS] = {
  "Leaves", "Deep leaves", "Containing data structure",
};

TmClassifier
tm_chain_choice_classifier (guint choice)
{
  g_return_val_if_fail (choice < TM_CHAIN_N_CHOICES, TM_CLASSIFIER_TYPE);
  if (choice < TM_N_CLASSIFIERS)
    return (TmClassifier) choice;
  return (TmClassifier) (TM_CLASSIFIER_DS_FIRST + (choice - TM_N_CLASSIFIERS));
}

gboolean
tm_chain_classifier_is_ds (TmClassifier c)
{
  return (guint) c >= (guint) TM_CLASSIFIER_DS_FIRST &&
         (guint) c < (guint) TM_CLASSIFIER_DS_FIRST + TM_DS_N_CLASSIFIERS;
}

guint
tm_chain_classifier_choice (TmClassifier c)
{
  if (tm_chain_classifier_is_ds (c))
    return TM_N_CLASSIFIERS + (guint) (c - TM_CLASSIFIER_DS_FIRST);
  g_return_val_if_fail ((guint) c < TM_N_CLASSIFIERS, 0);
  return (guint) c;
}

TmDsClassifier
tm_chain_classifier_ds (TmClassifier c)
{
  g_return_val_if_fail (tm_chain_classifier_is_ds (c), TM_DS_CLASSIFIER_CONTAINING_DS);
  return (TmDsClassifier) (c - TM_CLASSIFIER_DS_FIRST);
}

const char *
tm_chain_classifier_to_string (TmClassifier c)
{
  if (tm_chain_classifier_is_ds (c))
    return tm_ds_classifier_to_string (tm_chain_classifier_ds (c));
  return tm_classifier_to_string (c);
}

const char *
tm_chain_classifier_title (TmClassifier c)
{
  if (tm_chain_classifier_is_ds (c))
    return ds_titles[tm_chain_classifier_ds (c)];
  return tm_classifier_title (c);
}

gboolean
tm_chain_classifier_from_string (const char *name, TmClassifier *out)
{
  TmClassifier c;
  TmDsClassifier d;

  g_return_val_if_fail (name != NULL, FALSE);
  if (tm_classifier_from_string (name, &c))
    {
      if (out)
        *out = c;
      return TRUE;
    }
  if (tm_ds_classifier_from_string (name, &d))
    {
      if (out)
        *out = (TmClassifier) (TM_CLASSIFIER_DS_FIRST + d);
      return TRUE;
    }
  return FALSE;
}

gboolean
tm_classify_chain_parse (const char *list, TmClassifier *chain, guint *depth, GError **error)
{
  g_auto(GStrv) names = NULL;

  g_return_val_if_fail (list != NULL && chain != NULL && depth != NULL, FALSE);

  names = g_strsplit (list, ",", -1);
  *depth = 0;
  for (guint i = 0; names[i] != NULL; i++)
    {
      char *name = g_strstrip (names[i]);

      if (*name == '\0')
        continue;
      if (*depth >= TM_CLASSIFY_MAX_DEPTH - 1)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                       "at most %d classifiers", TM_CLASSIFY_MAX_DEPTH - 1);
          return FALSE;
        }
      if (!tm_chain_classifier_from_string (name, &chain[*depth]))
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                       "unknown classifier '%s' (known: type, site, call-site, thread, space, age, "
                       "leaves, deep-leaves, containing-ds)", name);
          return FALSE;
        }
      (*depth)++;
    }
  if (*depth == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, "no classifier given");
      return FALSE;
    }
  return TRUE;
}

gboolean
tm_classify_chain_needs_ds (const TmClassifier *chain, guint depth)
{
  for (guint i = 0; i < depth; i++)
    if (tm_chain_classifier_is_ds (chain[i]))
      return TRUE;
  return FALSE;
}

/* ---- detection results, one per GC ---- */

typedef struct {
  gint            ref_count;
  TmHeapAnalysis *heap;     /* the result borrows its graph */
  TmDsResult     *result;
  guint32         gc;
  guint64         items;
  guint64         last_use;
} DsEntry;

struct _TmDsContext {
  gint        ref_count;
  GMutex      lock;
  TmDsl      *dsl;
  TmTrace    *trace;        /* of the kept entries; a new trace empties the cache */
  GHashTable *by_gc;        /* GUINT gc -> DsEntry* */
  guint64     max_items;
  guint64     items;
  guint64     clock;
  guint       n_detected;
};

static DsEntry *
entry_ref (DsEntry *e)
{
  g_atomic_int_inc (&e->ref_count);
  return e;
}

static void
entry_unref (DsEntry *e)
{
  if (e == NULL || !g_atomic_int_dec_and_test (&e->ref_count))
    return;
  tm_ds_result_free (e->result);
  tm_heap_analysis_unref (e->heap);
  g_free (e);
}

TmDsContext *
tm_ds_context_new (TmDsl *dsl, guint64 max_items)
{
  TmDsContext *ctx;

  g_return_val_if_fail (dsl != NULL, NULL);
  ctx = g_new0 (TmDsContext, 1);
  ctx->ref_count = 1;
  g_mutex_init (&ctx->lock);
  ctx->dsl = dsl;
  ctx->by_gc = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) entry_unref);
  ctx->max_items = max_items;
  return ctx;
}

TmDsContext *
tm_ds_context_new_for_files (const char * const *files, GError **error)
{
  g_autoptr(TmDsl) dsl = tm_dsl_new_default (error);

  if (dsl == NULL)
    return NULL;
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    {
      g_autoptr(GError) local = NULL;

      if (tm_dsl_add_file (dsl, files[i], &local))
        continue;
      /* a syntax error leaves that file out, as in the CLI */
      if (!g_error_matches (local, TM_ERROR, TM_ERROR_FORMAT))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      g_message ("%s", local->message);
    }
  return tm_ds_context_new (g_steal_pointer (&dsl), TM_DS_CONTEXT_DEFAULT_BUDGET);
}

TmDsContext *
tm_ds_context_ref (TmDsContext *ctx)
{
  g_return_val_if_fail (ctx != NULL, NULL);
  g_atomic_int_inc (&ctx->ref_count);
  return ctx;
}

void
tm_ds_context_unref (TmDsContext *ctx)
{
  if (ctx == NULL || !g_atomic_int_dec_and_test (&ctx->ref_count))
    return;
  g_hash_table_unref (ctx->by_gc);
  g_clear_pointer (&ctx->trace, tm_trace_unref);
  tm_dsl_free (ctx->dsl);
  g_mutex_clear (&ctx->lock);
  g_free (ctx);
}

const TmDsl *
tm_ds_context_get_dsl (TmDsContext *ctx)
{
  g_return_val_if_fail (ctx != NULL, NULL);
  return ctx->dsl;
}

guint
tm_ds_context_get_n_kept (TmDsContext *ctx)
{
  guint n;

  g_return_val_if_fail (ctx != NULL, 0);
  g_mutex_lock (&ctx->lock);
  n = g_hash_table_size (ctx->by_gc);
  g_mutex_unlock (&ctx->lock);
  return n;
}

guint
tm_ds_context_get_n_detected (TmDsContext *ctx)
{
  guint n;

  g_return_val_if_fail (ctx != NULL, 0);
  g_mutex_lock (&ctx->lock);
  n = ctx->n_detected;
  g_mutex_unlock (&ctx->lock);
  return n;
}

/* Drops least recently used entries until the budget holds (keeps `keep`). */
static void
evict_locked (TmDsContext *ctx, DsEntry *keep)
{
  while (ctx->items > ctx->max_items && g_hash_table_size (ctx->by_gc) > 1)
    {
      GHashTableIter iter;
      gpointer k, v;
      DsEntry *oldest = NULL;

      g_hash_table_iter_init (&iter, ctx->by_gc);
      while (g_hash_table_iter_next (&iter, &k, &v))
        if (v != keep && (oldest == NULL || ((DsEntry *) v)->last_use < oldest->last_use))
          oldest = v;
      if (oldest == NULL)
        break;
      ctx->items -= oldest->items;
      g_hash_table_remove (ctx->by_gc, GUINT_TO_POINTER (oldest->gc));
    }
}

/* The detection result of heap's GC, a new entry reference.  Detection
 * runs under the lock: two workers asking for one GC detect it once. */
static DsEntry *
context_entry (TmDsContext *ctx, TmHeapAnalysis *heap, GCancellable *cancellable, GError **error)
{
  TmTrace *trace = tm_heap_analysis_get_trace (heap);
  guint32 gc = tm_heap_analysis_get_gc (heap);
  DsEntry *e;
  TmDsResult *result;
  guint32 n_items = 0;

  if (!tm_heap_analysis_has_graph (heap))
    {
      g_autofree char *msg = tm_heap_analysis_no_graph_message (trace, gc);
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, "data structures need a reference graph: %s", msg);
      return NULL;
    }

  g_mutex_lock (&ctx->lock);
  if (ctx->trace != trace)
    {
      g_hash_table_remove_all (ctx->by_gc);
      ctx->items = 0;
      g_clear_pointer (&ctx->trace, tm_trace_unref);
      ctx->trace = tm_trace_ref (trace);
    }
  e = g_hash_table_lookup (ctx->by_gc, GUINT_TO_POINTER (gc));
  if (e != NULL)
    {
      e->last_use = ++ctx->clock;
      e = entry_ref (e);
      g_mutex_unlock (&ctx->lock);
      return e;
    }

  result = tm_ds_detect_heap_analysis (heap, ctx->dsl, cancellable, error);
  if (result == NULL)
    {
      g_mutex_unlock (&ctx->lock);
      return NULL;
    }
  ctx->n_detected++;
  e = g_new0 (DsEntry, 1);
  e->ref_count = 1;
  e->heap = tm_heap_analysis_ref (heap);
  e->result = result;
  e->gc = gc;
  tm_heap_analysis_get_objects (heap, &n_items);
  e->items = n_items;
  e->last_use = ++ctx->clock;
  g_hash_table_insert (ctx->by_gc, GUINT_TO_POINTER (gc), entry_ref (e));
  ctx->items += e->items;
  evict_locked (ctx, e);
  g_mutex_unlock (&ctx->lock);
  return e;
}

/* ---- levels ---- */

typedef struct {
  DsEntry        *entry;
  TmDsClassifier  which;
} DsLevel;

static void
ds_level_free (gpointer data)
{
  DsLevel *d = data;

  entry_unref (d->entry);
  g_free (d);
}

static guint32
ds_domain (const TmClassLevel *level, TmHeapAnalysis *heap)
{
  const DsLevel *d = level->data;
  return tm_ds_classifier_domain (d->entry->result);
}

static void
ds_pairs (const TmClassLevel *level, TmHeapAnalysis *heap, const guint32 *items, guint32 n,
          GArray *keys, GArray *out_items)
{
  const DsLevel *d = level->data;
  tm_ds_classify (d->entry->result, d->which, items, n, keys, out_items);
}

static char *
ds_label (const TmClassLevel *level, TmHeapAnalysis *heap, guint32 key)
{
  const DsLevel *d = level->data;
  return tm_ds_classifier_key_label (d->entry->result, tm_heap_analysis_get_trace (heap), key);
}

static guint32
heads_domain (const TmClassLevel *level, TmHeapAnalysis *heap)
{
  return 1;
}

static void
heads_pairs (const TmClassLevel *level, TmHeapAnalysis *heap, const guint32 *items, guint32 n,
             GArray *keys, GArray *out_items)
{
  const DsLevel *d = level->data;
  g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) wanted = g_hash_table_new (NULL, NULL);
  guint32 zero = 0;

  tm_ds_result_view_heads (d->entry->result, heads);
  for (guint i = 0; i < heads->len; i++)
    g_hash_table_add (wanted, GUINT_TO_POINTER (g_array_index (heads, guint32, i) + 1));
  for (guint32 i = 0; i < n; i++)
    if (g_hash_table_contains (wanted, GUINT_TO_POINTER (items[i] + 1)))
      {
        g_array_append_val (keys, zero);
        g_array_append_val (out_items, items[i]);
      }
}

static char *
heads_label (const TmClassLevel *level, TmHeapAnalysis *heap, guint32 key)
{
  return g_strdup ("Data structures");
}

void
tm_classify_chain_levels_clear (TmClassLevel *levels, guint depth)
{
  for (guint i = 0; i < depth; i++)
    if (levels[i].data_free != NULL && levels[i].data != NULL)
      {
        levels[i].data_free (levels[i].data);
        levels[i].data = NULL;
      }
}

gboolean
tm_classify_chain_levels (TmDsContext        *ctx,
                          TmHeapAnalysis     *heap,
                          const TmClassifier *chain,
                          guint               depth,
                          TmClassLevel       *levels,
                          GCancellable       *cancellable,
                          GError            **error)
{
  DsEntry *entry = NULL;

  g_return_val_if_fail (heap != NULL && chain != NULL && levels != NULL, FALSE);
  g_return_val_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH, FALSE);

  memset (levels, 0, depth * sizeof (TmClassLevel));
  for (guint i = 0; i < depth; i++)
    {
      DsLevel *d;

      if (!tm_chain_classifier_is_ds (chain[i]))
        {
          tm_class_level_init_builtin (&levels[i], chain[i]);
          continue;
        }
      if (ctx == NULL)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                       "%s needs data structure descriptions", tm_chain_classifier_to_string (chain[i]));
          goto fail;
        }
      if (entry == NULL && (entry = context_entry (ctx, heap, cancellable, error)) == NULL)
        goto fail;
      d = g_new0 (DsLevel, 1);
      d->entry = entry_ref (entry);
      d->which = tm_chain_classifier_ds (chain[i]);
      levels[i].name = tm_ds_classifier_to_string (d->which);
      levels[i].builtin = TM_N_CLASSIFIERS;
      levels[i].data = d;
      levels[i].data_free = ds_level_free;
      levels[i].domain = ds_domain;
      levels[i].pairs = ds_pairs;
      levels[i].label = ds_label;
    }
  entry_unref (entry);
  return TRUE;

fail:
  entry_unref (entry);
  tm_classify_chain_levels_clear (levels, depth);
  return FALSE;
}

gboolean
tm_ds_context_heads_level (TmDsContext    *ctx,
                           TmHeapAnalysis *heap,
                           TmClassLevel   *level,
                           GCancellable   *cancellable,
                           GError        **error)
{
  DsLevel *d;
  DsEntry *entry;

  g_return_val_if_fail (ctx != NULL && heap != NULL && level != NULL, FALSE);

  memset (level, 0, sizeof *level);
  if ((entry = context_entry (ctx, heap, cancellable, error)) == NULL)
    return FALSE;
  d = g_new0 (DsLevel, 1);
  d->entry = entry;
  level->name = "data-structures";
  level->builtin = TM_N_CLASSIFIERS;
  level->data = d;
  level->data_free = ds_level_free;
  level->domain = heads_domain;
  level->pairs = heads_pairs;
  level->label = heads_label;
  return TRUE;
}

TmClassTree *
tm_classify_chain_tree (TmDsContext        *ctx,
                        TmHeapAnalysis     *heap,
                        const TmClassifier *chain,
                        guint               depth,
                        GCancellable       *cancellable,
                        GError            **error)
{
  TmClassLevel levels[TM_CLASSIFY_MAX_DEPTH];

  g_return_val_if_fail (heap != NULL && chain != NULL, NULL);
  g_return_val_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH, NULL);

  if (!tm_classify_chain_levels (ctx, heap, chain, depth, levels, cancellable, error))
    return NULL;
  return tm_class_tree_new_for_levels (heap, levels, depth, cancellable, error);
}
