/* SPDX-License-Identifier: GPL-3.0-or-later
 * The per-GC cache of heap states (see the header). */
#include "tm-heap-cache.h"
#include "tm-heap-analysis-private.h"
#include "tm-error.h"

#include <glib/gstdio.h>
#include <unistd.h>

typedef struct {
  TmHeapState  state;
  guint32      gc_id;
  gboolean     building;      /* a worker builds the heap or detects its structures */
  guint64      items;
  guint64      last_use;
} Entry;

struct _TmHeapCache {
  gint        ref_count;
  TmTrace    *trace;
  int         graph_fd;
  guint64     max_items;
  GMutex      lock;
  GCond       built;          /* an entry finished building (or failed) */
  GHashTable *entries;        /* gc id -> Entry* (one reference) */
  TmDsl      *dsl;
  guint       dsl_serial;     /* bumped by set_dsl: detections of older serials are dropped */
  guint64     items;          /* of the built entries */
  guint64     clock;
  guint64     hits;
  guint       n_built;
  guint       n_detected;
};

TmHeapState *
tm_heap_state_ref (TmHeapState *state)
{
  g_return_val_if_fail (state != NULL, NULL);
  g_atomic_int_inc (&state->ref_count);
  return state;
}

void
tm_heap_state_unref (TmHeapState *state)
{
  if (state == NULL || !g_atomic_int_dec_and_test (&state->ref_count))
    return;
  /* the detection borrows the heap's graph: free it first */
  g_clear_pointer (&state->ds, tm_ds_result_free);
  g_clear_pointer (&state->heap, tm_heap_analysis_unref);
  g_free (state);
}

TmHeapCache *
tm_heap_cache_new (TmTrace *trace, TmDsl *dsl, int graph_fd, guint64 max_items)
{
  TmHeapCache *cache;

  g_return_val_if_fail (trace != NULL, NULL);

  cache = g_new0 (TmHeapCache, 1);
  cache->ref_count = 1;
  cache->trace = tm_trace_ref (trace);
  cache->graph_fd = graph_fd >= 0 ? dup (graph_fd) : -1;
  cache->max_items = max_items;
  cache->dsl = dsl;
  g_mutex_init (&cache->lock);
  g_cond_init (&cache->built);
  cache->entries = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) tm_heap_state_unref);
  return cache;
}

TmHeapCache *
tm_heap_cache_ref (TmHeapCache *cache)
{
  g_return_val_if_fail (cache != NULL, NULL);
  g_atomic_int_inc (&cache->ref_count);
  return cache;
}

void
tm_heap_cache_unref (TmHeapCache *cache)
{
  if (cache == NULL || !g_atomic_int_dec_and_test (&cache->ref_count))
    return;
  g_hash_table_unref (cache->entries);
  g_cond_clear (&cache->built);
  g_mutex_clear (&cache->lock);
  g_clear_pointer (&cache->dsl, tm_dsl_free);
  if (cache->graph_fd >= 0)
    g_close (cache->graph_fd, NULL);
  tm_trace_unref (cache->trace);
  g_free (cache);
}

TmTrace *
tm_heap_cache_get_trace (TmHeapCache *cache)
{
  g_return_val_if_fail (cache != NULL, NULL);
  return cache->trace;
}

/* Drops least recently used built states, never `keep` (lock held). */
static void
evict_locked (TmHeapCache *cache, Entry *keep)
{
  while (cache->items > cache->max_items)
    {
      GHashTableIter iter;
      gpointer value;
      Entry *oldest = NULL;

      g_hash_table_iter_init (&iter, cache->entries);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          Entry *e = value;
          if (!e->building && e != keep && (oldest == NULL || e->last_use < oldest->last_use))
            oldest = e;
        }
      if (oldest == NULL)
        return;
      cache->items -= oldest->items;
      g_hash_table_remove (cache->entries, GUINT_TO_POINTER (oldest->gc_id));
    }
}

void
tm_heap_cache_set_dsl (TmHeapCache *cache, TmDsl *dsl)
{
  GHashTableIter iter;
  gpointer value;
  TmDsl *old;

  g_return_if_fail (cache != NULL);

  g_mutex_lock (&cache->lock);
  /* Wait for detections with the old descriptions to finish: they read them. */
  for (;;)
    {
      gboolean busy = FALSE;

      g_hash_table_iter_init (&iter, cache->entries);
      while (!busy && g_hash_table_iter_next (&iter, NULL, &value))
        busy = ((Entry *) value)->building;
      if (!busy)
        break;
      g_cond_wait (&cache->built, &cache->lock);
    }
  old = cache->dsl;
  cache->dsl = dsl;
  g_hash_table_iter_init (&iter, cache->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Entry *e = value;
      if (e->state.ds == NULL)
        continue;
      /* Someone may still use the old detection: move the heap to a new entry. */
      if (g_atomic_int_get (&e->state.ref_count) > 1)
        {
          Entry *fresh = g_new0 (Entry, 1);

          *fresh = *e;
          fresh->state.ref_count = 1;
          fresh->state.ds = NULL;
          fresh->state.heap = tm_heap_analysis_ref (e->state.heap);
          g_hash_table_iter_replace (&iter, fresh);
        }
      else
        g_clear_pointer (&e->state.ds, tm_ds_result_free);
    }
  g_mutex_unlock (&cache->lock);
  g_clear_pointer (&old, tm_dsl_free);
}

/* Lock held. */
static const TmDsl *
ensure_dsl_locked (TmHeapCache *cache, GError **error)
{
  if (cache->dsl == NULL)
    cache->dsl = tm_dsl_new_default (error);
  return cache->dsl;
}

const TmDsl *
tm_heap_cache_get_dsl (TmHeapCache *cache, GError **error)
{
  const TmDsl *dsl;

  g_return_val_if_fail (cache != NULL, NULL);
  g_mutex_lock (&cache->lock);
  dsl = ensure_dsl_locked (cache, error);
  g_mutex_unlock (&cache->lock);
  return dsl;
}

TmDsTypes *
tm_heap_cache_new_ds_types (TmHeapCache *cache, GError **error)
{
  const TmDsl *dsl;
  TmDsTypes *types = NULL;

  g_return_val_if_fail (cache != NULL, NULL);
  g_mutex_lock (&cache->lock);
  if ((dsl = ensure_dsl_locked (cache, error)) != NULL)
    types = tm_ds_types_new_for_trace (dsl, cache->trace);
  g_mutex_unlock (&cache->lock);
  return types;
}

/* The entry of gc_id with its heap built, a new state reference; waits
 * for another worker building it.  With want_ds, also the detection. */
static Entry *
get_entry (TmHeapCache    *cache,
           guint32         gc_id,
           gboolean        want_ds,
           TmProgressFunc  progress,
           gpointer        progress_data,
           GCancellable   *cancellable,
           GError        **error)
{
  Entry *e;
  TmHeapAnalysis *heap;
  const TmDsl *dsl = NULL;
  TmDsResult *ds;
  guint32 n_items = 0;

  g_mutex_lock (&cache->lock);
  for (;;)
    {
      e = g_hash_table_lookup (cache->entries, GUINT_TO_POINTER (gc_id));
      if (e == NULL || !e->building)
        break;
      g_cond_wait (&cache->built, &cache->lock);
    }

  if (e == NULL)
    {
      e = g_new0 (Entry, 1);
      e->state.ref_count = 1;
      e->gc_id = gc_id;
      e->building = TRUE;
      g_hash_table_insert (cache->entries, GUINT_TO_POINTER (gc_id), e);
      g_mutex_unlock (&cache->lock);

      heap = tm_heap_analysis_new_from_fd (cache->trace, gc_id, cache->graph_fd,
                                           progress, progress_data, cancellable, error);

      g_mutex_lock (&cache->lock);
      e->building = FALSE;
      if (heap == NULL)
        {
          g_hash_table_remove (cache->entries, GUINT_TO_POINTER (gc_id));
          g_cond_broadcast (&cache->built);
          g_mutex_unlock (&cache->lock);
          return NULL;
        }
      cache->n_built++;
      tm_heap_analysis_get_objects (heap, &n_items);
      e->state.heap = heap;
      e->items = n_items;
      cache->items += n_items;
      g_cond_broadcast (&cache->built);
    }
  else
    cache->hits++;

  e->last_use = ++cache->clock;
  tm_heap_state_ref (&e->state);
  evict_locked (cache, e);

  if (!want_ds || e->state.ds != NULL)
    {
      g_mutex_unlock (&cache->lock);
      return e;
    }

  if (!tm_heap_analysis_has_graph (e->state.heap))
    {
      g_autofree char *msg = tm_heap_analysis_no_graph_message (cache->trace, gc_id);
      g_mutex_unlock (&cache->lock);
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, "data structures need a reference graph: %s", msg);
      tm_heap_state_unref (&e->state);
      return NULL;
    }
  if ((dsl = ensure_dsl_locked (cache, error)) == NULL)
    {
      g_mutex_unlock (&cache->lock);
      tm_heap_state_unref (&e->state);
      return NULL;
    }
  e->building = TRUE;
  g_mutex_unlock (&cache->lock);

  ds = tm_ds_detect_heap_analysis (e->state.heap, dsl, cancellable, error);

  g_mutex_lock (&cache->lock);
  e->building = FALSE;
  if (ds != NULL)
    {
      e->state.ds = ds;
      cache->n_detected++;
    }
  g_cond_broadcast (&cache->built);
  g_mutex_unlock (&cache->lock);
  if (ds == NULL)
    {
      tm_heap_state_unref (&e->state);
      return NULL;
    }
  return e;
}

TmHeapAnalysis *
tm_heap_cache_get (TmHeapCache    *cache,
                   guint32         gc_id,
                   TmProgressFunc  progress,
                   gpointer        progress_data,
                   GCancellable   *cancellable,
                   GError        **error)
{
  Entry *e;
  TmHeapAnalysis *heap;

  g_return_val_if_fail (cache != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((e = get_entry (cache, gc_id, FALSE, progress, progress_data, cancellable, error)) == NULL)
    return NULL;
  heap = tm_heap_analysis_ref (e->state.heap);
  tm_heap_state_unref (&e->state);
  if (progress)
    progress (1.0, progress_data);
  return heap;
}

TmHeapState *
tm_heap_cache_get_ds (TmHeapCache   *cache,
                      guint32        gc_id,
                      GCancellable  *cancellable,
                      GError       **error)
{
  Entry *e;

  g_return_val_if_fail (cache != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  e = get_entry (cache, gc_id, TRUE, NULL, NULL, cancellable, error);
  return e ? &e->state : NULL;
}

void
tm_heap_cache_insert (TmHeapCache *cache, TmHeapAnalysis *heap)
{
  Entry *e, *old;
  guint32 n_items = 0;

  g_return_if_fail (cache != NULL && heap != NULL);
  g_return_if_fail (tm_heap_analysis_get_trace (heap) == cache->trace);

  e = g_new0 (Entry, 1);
  e->state.ref_count = 1;
  e->state.heap = tm_heap_analysis_ref (heap);
  e->gc_id = tm_heap_analysis_get_gc (heap);
  tm_heap_analysis_get_objects (heap, &n_items);
  e->items = n_items;

  g_mutex_lock (&cache->lock);
  while ((old = g_hash_table_lookup (cache->entries, GUINT_TO_POINTER (e->gc_id))) != NULL && old->building)
    g_cond_wait (&cache->built, &cache->lock);
  if (old != NULL)
    cache->items -= old->items;
  e->last_use = ++cache->clock;
  g_hash_table_replace (cache->entries, GUINT_TO_POINTER (e->gc_id), e);
  cache->items += e->items;
  evict_locked (cache, e);
  g_mutex_unlock (&cache->lock);
}

guint
tm_heap_cache_get_n_kept (TmHeapCache *cache)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_return_val_if_fail (cache != NULL, 0);
  g_mutex_lock (&cache->lock);
  g_hash_table_iter_init (&iter, cache->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    n += ((Entry *) value)->state.heap != NULL;
  g_mutex_unlock (&cache->lock);
  return n;
}

#define COUNTER_GETTER(type, name, field)                    \
  type                                                       \
  tm_heap_cache_get_##name (TmHeapCache *cache)              \
  {                                                          \
    type v;                                                  \
    g_return_val_if_fail (cache != NULL, 0);                 \
    g_mutex_lock (&cache->lock);                             \
    v = cache->field;                                        \
    g_mutex_unlock (&cache->lock);                           \
    return v;                                                \
  }

COUNTER_GETTER (guint64, hits, hits)
COUNTER_GETTER (guint, n_built, n_built)
COUNTER_GETTER (guint, n_detected, n_detected)
