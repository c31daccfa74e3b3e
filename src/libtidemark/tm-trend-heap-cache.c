/* SPDX-License-Identifier: GPL-3.0-or-later
 * Heap states kept between TrendViz computations (see the header). */
#include "tm-trend-heap-cache.h"

typedef struct {
  guint32         gc_id;
  TmHeapAnalysis *heap;       /* NULL while a worker builds it */
  guint64         items;
  guint64         last_use;
} Entry;

struct _TmTrendHeapCache {
  gint        ref_count;
  TmTrace    *trace;
  guint64     max_items;
  GMutex      lock;
  GCond       built;          /* an entry was built, or its build failed */
  GHashTable *entries;        /* gc id -> Entry* */
  guint64     items;          /* of the built entries */
  guint64     clock;
  guint64     hits;
};

TmTrendHeapCache *
tm_trend_heap_cache_new (TmTrace *trace, guint64 max_items)
{
  TmTrendHeapCache *cache;

  g_return_val_if_fail (trace != NULL, NULL);

  cache = g_new0 (TmTrendHeapCache, 1);
  cache->ref_count = 1;
  cache->trace = tm_trace_ref (trace);
  cache->max_items = max_items;
  g_mutex_init (&cache->lock);
  g_cond_init (&cache->built);
  cache->entries = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return cache;
}

TmTrendHeapCache *
tm_trend_heap_cache_ref (TmTrendHeapCache *cache)
{
  g_return_val_if_fail (cache != NULL, NULL);
  g_atomic_int_inc (&cache->ref_count);
  return cache;
}

void
tm_trend_heap_cache_unref (TmTrendHeapCache *cache)
{
  GHashTableIter iter;
  gpointer value;

  if (cache == NULL || !g_atomic_int_dec_and_test (&cache->ref_count))
    return;
  g_hash_table_iter_init (&iter, cache->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_clear_pointer (&((Entry *) value)->heap, tm_heap_analysis_unref);
  g_hash_table_unref (cache->entries);
  g_cond_clear (&cache->built);
  g_mutex_clear (&cache->lock);
  tm_trace_unref (cache->trace);
  g_free (cache);
}

/* Drops least recently used built states, never `keep` (lock held). */
static void
evict (TmTrendHeapCache *cache, guint32 keep)
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
          if (e->heap != NULL && e->gc_id != keep && (oldest == NULL || e->last_use < oldest->last_use))
            oldest = e;
        }
      if (oldest == NULL)
        return;
      cache->items -= oldest->items;
      tm_heap_analysis_unref (oldest->heap);
      g_hash_table_remove (cache->entries, GUINT_TO_POINTER (oldest->gc_id));
    }
}

TmHeapAnalysis *
tm_trend_heap_cache_get (TmTrendHeapCache *cache,
                         guint32           gc_id,
                         GCancellable     *cancellable,
                         GError          **error)
{
  TmHeapAnalysis *heap;
  Entry *e;
  guint32 n_items = 0;

  g_return_val_if_fail (cache != NULL, NULL);

  g_mutex_lock (&cache->lock);
  for (;;)
    {
      e = g_hash_table_lookup (cache->entries, GUINT_TO_POINTER (gc_id));
      if (e == NULL)
        break;
      if (e->heap != NULL)
        {
          e->last_use = ++cache->clock;
          cache->hits++;
          heap = tm_heap_analysis_ref (e->heap);
          g_mutex_unlock (&cache->lock);
          return heap;
        }
      /* another worker builds it: wait, then look again (it may have failed) */
      g_cond_wait (&cache->built, &cache->lock);
    }
  e = g_new0 (Entry, 1);
  e->gc_id = gc_id;
  g_hash_table_insert (cache->entries, GUINT_TO_POINTER (gc_id), e);
  g_mutex_unlock (&cache->lock);

  heap = tm_heap_analysis_new (cache->trace, gc_id, NULL, NULL, cancellable, error);

  g_mutex_lock (&cache->lock);
  if (heap == NULL)
    g_hash_table_remove (cache->entries, GUINT_TO_POINTER (gc_id));
  else
    {
      tm_heap_analysis_get_objects (heap, &n_items);
      e->heap = tm_heap_analysis_ref (heap);
      e->items = n_items;
      e->last_use = ++cache->clock;
      cache->items += n_items;
      evict (cache, gc_id);
    }
  g_cond_broadcast (&cache->built);
  g_mutex_unlock (&cache->lock);
  return heap;
}

guint
tm_trend_heap_cache_get_n_kept (TmTrendHeapCache *cache)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_return_val_if_fail (cache != NULL, 0);
  g_mutex_lock (&cache->lock);
  g_hash_table_iter_init (&iter, cache->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    n += ((Entry *) value)->heap != NULL;
  g_mutex_unlock (&cache->lock);
  return n;
}

guint64
tm_trend_heap_cache_get_hits (TmTrendHeapCache *cache)
{
  guint64 hits;

  g_return_val_if_fail (cache != NULL, 0);
  g_mutex_lock (&cache->lock);
  hits = cache->hits;
  g_mutex_unlock (&cache->lock);
  return hits;
}
