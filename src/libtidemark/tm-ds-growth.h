/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Data structure growth over a window (Weninger et al., ICPE 2019): the
 * structures alive at both ends of the window, their retained, deep,
 * data-structure and deep data-structure sizes before and after, the heap
 * growth portion (HGP) of each growth, and the metric pattern.
 *
 * Which structures: those shown in the data-structure view at the end of
 * the window (not contained in another), identified at the start by their
 * head object (same object id).  A structure whose head was not in the
 * heap at the start was born inside the window: it grows from zero (its
 * start sizes are 0, node[0] and structure[0] are TM_DS_NONE, `born`).
 * Heap dumps lose object identity between dumps: there a structure is
 * matched with the one at the start that is reached from the GC roots
 * along the same path (tm-root-paths.h), and the match rate is reported.
 *
 * HGP of a metric = its growth in bytes / the heap's growth in bytes (the
 * live bytes of the graph at the end minus at the start), a fraction; 0
 * when the heap did not grow.
 *
 * Pattern (docs/data-structures.md), with growth = after - before in bytes:
 *   non-growth       deep and retained did not grow;
 *   container growth the deep data-structure closure gained objects (the
 *                    structure, or one nested in it, holds more entries);
 *   data growth      otherwise: the objects it refers to grew;
 *   single-ownership retained growth >= half the deep growth (the
 *                    structure alone keeps most of what was added alive);
 *   shared-ownership otherwise.
 */
#pragma once

#include "tm-ds-detect.h"
#include "tm-heap-cache.h"

G_BEGIN_DECLS

typedef enum {
  TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH,
  TM_DS_PATTERN_SHARED_CONTAINER_GROWTH,
  TM_DS_PATTERN_SINGLE_DATA_GROWTH,
  TM_DS_PATTERN_SHARED_DATA_GROWTH,
  TM_DS_PATTERN_NON_GROWTH,
} TmDsPattern;

/* cli.md names: "single-ownership-container-growth", ... */
const char *tm_ds_pattern_to_string (TmDsPattern pattern);

typedef enum {
  TM_DS_METRIC_RETAINED,
  TM_DS_METRIC_DEEP,
  TM_DS_METRIC_DS,
  TM_DS_METRIC_DEEP_DS,
  TM_DS_N_METRICS
} TmDsMetric;

/* "retained", "deep", "ds", "deep_ds" */
const char *tm_ds_metric_to_string  (TmDsMetric metric);

typedef struct {
  guint32     object_index;     /* the head object */
  guint32     type;             /* type index */
  guint32     node[2];          /* head's graph node at the start / end (TM_DS_NONE: born) */
  guint32     structure[2];     /* structure index in from / to result (TM_DS_NONE: born) */
  TmDsSize    size[TM_DS_N_METRICS][2];   /* [metric][0 = start, 1 = end] */
  double      hgp[TM_DS_N_METRICS];
  TmDsPattern pattern;
  gboolean    born;             /* created inside the window: no start, sizes 0 there */
} TmDsGrowthEntry;

typedef struct {
  guint32     from_gc;
  guint32     to_gc;
  TmDsSize    heap[2];          /* live objects/bytes of the graph at each end */
  gint64      heap_growth_bytes;
  GArray     *entries;          /* TmDsGrowthEntry, by retained HGP, largest first */
  TmDsResult *result[2];        /* detection at each end (owned) */
  guint32     n_structures[2];  /* all structures found at each end */
  guint32     n_candidates;     /* structures shown at the end (not contained in another) */
  guint32     n_matched;        /* of them, found at the start (not born in the window) */
  guint32     n_matched_by_path;/* entries matched by root path instead of identity */
  gboolean    by_path;          /* the graphs name fields: root-path matching was tried */
  /*< private >*/
  TmHeapAnalysis *analysis[2];  /* tm_ds_growth_new: what the results borrow */
  TmDsTypes      *types;
} TmDsGrowth;

/* One end of the window: the heap and its dominator tree (for retained). */
typedef struct {
  TmDsHeap               heap;
  const TmDominatorTree *dominators;
} TmDsGrowthHeap;

static inline gint64
tm_ds_growth_entry_delta (const TmDsGrowthEntry *e, TmDsMetric metric)
{
  return (gint64) e->size[metric][1].bytes - (gint64) e->size[metric][0].bytes;
}

/* The analysis on two given heaps (object indices identify objects across
 * them); the heaps must outlive the result. */
TmDsGrowth *tm_ds_growth_new_for_heaps (const TmDsTypes       *types,
                                        const TmDsGrowthHeap  *from,
                                        const TmDsGrowthHeap  *to,
                                        GCancellable          *cancellable,
                                        GError               **error);

/* The analysis of a trace between two GCs with reference graphs, on the
 * heap states of the trace's cache `heaps` with its descriptions.  Keeps
 * the heaps it uses alive inside the result.  TM_ERROR_NO_GRAPH when
 * either GC has no graph; TM_ERROR_INVALID_ARGUMENT for a bad window. */
TmDsGrowth *tm_ds_growth_new           (TmHeapCache           *heaps,
                                        guint32                from_gc,
                                        guint32                to_gc,
                                        TmProgressFunc         progress,
                                        gpointer               progress_data,
                                        GCancellable          *cancellable,
                                        GError               **error);

void        tm_ds_growth_free          (TmDsGrowth            *growth);

/* The rule above, on the four growths of one entry (exposed for tests). */
TmDsPattern tm_ds_growth_classify      (const TmDsGrowthEntry *entry);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmDsGrowth, tm_ds_growth_free)

G_END_DECLS
