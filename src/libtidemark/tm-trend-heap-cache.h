/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTrendHeapCache: the heap states (TmHeapAnalysis: graph + dominator
 * tree) of a trace's GCs, kept for the next TrendViz computation, so that
 * a drill-down or a new sorting of deep/retained sizes does not read and
 * analyze every graph again.  Least recently used states go first once
 * their items exceed the budget.  Thread-safe: charts computing on several
 * workers share one cache, and a state being built by one worker is waited
 * for, not built twice.
 */
#pragma once

#include "tm-heap-analysis.h"

G_BEGIN_DECLS

typedef struct _TmTrendHeapCache TmTrendHeapCache;

/* max_items: budget in heap items (graph nodes) over all kept states;
 * the state in use is kept even when alone above it. */
TmTrendHeapCache *tm_trend_heap_cache_new     (TmTrace *trace, guint64 max_items);
TmTrendHeapCache *tm_trend_heap_cache_ref     (TmTrendHeapCache *cache);
void              tm_trend_heap_cache_unref   (TmTrendHeapCache *cache);

/* The heap state after gc_id (a new reference), from the cache or built
 * now (tm_heap_analysis_new). */
TmHeapAnalysis   *tm_trend_heap_cache_get     (TmTrendHeapCache *cache,
                                               guint32           gc_id,
                                               GCancellable     *cancellable,
                                               GError          **error);

/* States kept, and how many requests they answered (for tests and the
 * benchmark). */
guint             tm_trend_heap_cache_get_n_kept (TmTrendHeapCache *cache);
guint64           tm_trend_heap_cache_get_hits   (TmTrendHeapCache *cache);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmTrendHeapCache, tm_trend_heap_cache_unref)

G_END_DECLS
