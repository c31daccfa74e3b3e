/* SPDX-License-Identifier: GPL-3.0-or-later
 * Data structure growth over a window; the rules are in tm-ds-growth.h and
 * docs/data-structures.md. */
#include "tm-ds-growth.h"
#include "tm-root-paths.h"
#include "tm-ds-private.h"
#include "tm-error.h"

#include <stdlib.h>
#include <glib/gi18n-lib.h>

const char *
tm_ds_pattern_to_string (TmDsPattern pattern)
{
  switch (pattern)
    {
    case TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH: return "single-ownership-container-growth";
    case TM_DS_PATTERN_SHARED_CONTAINER_GROWTH: return "shared-ownership-container-growth";
    case TM_DS_PATTERN_SINGLE_DATA_GROWTH:      return "single-ownership-data-growth";
    case TM_DS_PATTERN_SHARED_DATA_GROWTH:      return "shared-ownership-data-growth";
    case TM_DS_PATTERN_NON_GROWTH:              return "non-growth";
    default:                                    return "unknown";
    }
}

const char *
tm_ds_metric_to_string (TmDsMetric metric)
{
  static const char *const names[] = { "retained", "deep", "ds", "deep_ds" };

  g_return_val_if_fail (metric < TM_DS_N_METRICS, "unknown");
  return names[metric];
}

TmDsPattern
tm_ds_growth_classify (const TmDsGrowthEntry *e)
{
  gint64 retained, deep;
  gboolean container, single;

  g_return_val_if_fail (e != NULL, TM_DS_PATTERN_NON_GROWTH);

  retained = tm_ds_growth_entry_delta (e, TM_DS_METRIC_RETAINED);
  deep = tm_ds_growth_entry_delta (e, TM_DS_METRIC_DEEP);
  if (deep <= 0 && retained <= 0)
    return TM_DS_PATTERN_NON_GROWTH;

  container = e->size[TM_DS_METRIC_DEEP_DS][1].objects > e->size[TM_DS_METRIC_DEEP_DS][0].objects;
  /* 2 * retained >= deep, without overflow for any sizes */
  single = retained >= deep - deep / 2;
  if (container)
    return single ? TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH : TM_DS_PATTERN_SHARED_CONTAINER_GROWTH;
  return single ? TM_DS_PATTERN_SINGLE_DATA_GROWTH : TM_DS_PATTERN_SHARED_DATA_GROWTH;
}

static TmDsSize
retained_of (const TmDsGrowthHeap *h, guint32 node)
{
  TmDsSize size = { 0, 0 };
  guint32 pos;

  if (h->dominators == NULL || node >= h->dominators->n_nodes)
    return size;
  pos = h->dominators->position[node];
  if (pos == 0)
    return size;   /* no root reaches it: it keeps nothing alive */
  size.objects = h->dominators->size[pos];
  size.bytes = h->dominators->retained_bytes[pos];
  return size;
}

/* Per dominator-tree position: 1 when no reference leaves the position's
 * subtree and it holds no java.lang.Class (the deep closure's barrier).
 * Then everything the head reaches is what it dominates: deep = retained,
 * no walk.  With preorder positions, subtree(p) = [p, p + size[p]); the
 * lowest and highest targets of references out of each subtree are
 * gathered bottom-up in one pass over the edges. */
static guint8 *
closed_subtrees (const TmDsResult *r, const TmDominatorTree *dom)
{
  const TmHeapGraph *g = r->graph;
  guint32 n_pos = dom->n_reachable + 1;
  g_autofree guint32 *lo = g_new (guint32, n_pos);
  g_autofree guint32 *hi = g_new (guint32, n_pos);
  guint8 *closed = g_new0 (guint8, n_pos);

  for (guint32 p = 0; p < n_pos; p++)
    lo[p] = hi[p] = p;
  for (guint32 u = 0; u < g->n_nodes; u++)
    {
      guint32 pu = dom->position[u];

      if (pu == 0)
        continue;
      if (r->type_flags[r->node_type[u]] & TM_DS_FLAG_BARRIER)
        closed[pu] = 2;   /* holds a barrier: marked, cleared below */
      for (guint64 e = tm_heap_graph_edge_begin (g, u), e_end = tm_heap_graph_edge_end (g, u); e < e_end; e++)
        {
          guint32 pv = dom->position[g->edges[e]];
          lo[pu] = MIN (lo[pu], pv);
          hi[pu] = MAX (hi[pu], pv);
        }
    }
  /* children come after their parents in preorder */
  for (guint32 p = n_pos - 1; p >= 1; p--)
    {
      guint32 parent = dom->idom[p];

      if (parent != 0)
        {
          lo[parent] = MIN (lo[parent], lo[p]);
          hi[parent] = MAX (hi[parent], hi[p]);
          if (closed[p] == 2)
            closed[parent] = 2;
        }
    }
  for (guint32 p = 1; p < n_pos; p++)
    closed[p] = closed[p] != 2 && lo[p] >= p && (guint64) hi[p] < (guint64) p + dom->size[p];
  closed[0] = 0;
  return closed;
}

static TmDsSize
deep_of (TmDsResult *r, const TmDsGrowthHeap *h, const guint8 *closed, guint32 s, guint32 node)
{
  guint32 pos = h->dominators != NULL && node < h->dominators->n_nodes ? h->dominators->position[node] : 0;

  if (closed != NULL && pos != 0 && closed[pos])
    return retained_of (h, node);
  return tm_ds_result_deep (r, s, NULL);
}

static TmDsSize
heap_total (const TmDsResult *r)
{
  TmDsSize size = { r->graph->n_nodes, 0 };

  for (guint32 v = 0; v < r->graph->n_nodes; v++)
    size.bytes += r->node_size[v];
  return size;
}

static int
compare_entries (const void *a, const void *b)
{
  const TmDsGrowthEntry *x = a, *y = b;
  gint64 dx = tm_ds_growth_entry_delta (x, TM_DS_METRIC_RETAINED);
  gint64 dy = tm_ds_growth_entry_delta (y, TM_DS_METRIC_RETAINED);

  /* retained HGP = retained growth / one common heap growth */
  if (dx != dy)
    return dx > dy ? -1 : 1;
  dx = tm_ds_growth_entry_delta (x, TM_DS_METRIC_DEEP);
  dy = tm_ds_growth_entry_delta (y, TM_DS_METRIC_DEEP);
  if (dx != dy)
    return dx > dy ? -1 : 1;
  return x->object_index < y->object_index ? -1 : x->object_index > y->object_index;
}

void
tm_ds_growth_free (TmDsGrowth *growth)
{
  if (growth == NULL)
    return;
  if (growth->entries != NULL)
    g_array_unref (growth->entries);
  tm_ds_result_free (growth->result[0]);
  tm_ds_result_free (growth->result[1]);
  g_clear_pointer (&growth->analysis[0], tm_heap_analysis_unref);
  g_clear_pointer (&growth->analysis[1], tm_heap_analysis_unref);
  tm_ds_types_free (growth->types);
  g_free (growth);
}

/* Root-path key -> queue of start structures (GQueue of s0 + 1), when
 * both graphs name their fields; the end's paths go to *paths1. */
static GHashTable *
path_index (TmDsGrowth *growth, const TmDsGrowthHeap *from, const TmDsGrowthHeap *to, TmRootPaths **paths1)
{
  const TmDsResult *r0 = growth->result[0];
  g_autoptr(TmRootPaths) paths0 = NULL;
  GHashTable *index;

  if (from->heap.sizes.trace == NULL || to->heap.sizes.trace == NULL
      || (paths0 = tm_root_paths_new (from->heap.graph, from->heap.sizes.trace)) == NULL
      || (*paths1 = tm_root_paths_new (to->heap.graph, to->heap.sizes.trace)) == NULL)
    return NULL;
  growth->by_path = TRUE;
  index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_queue_free);
  for (guint32 s0 = 0; s0 < r0->n_structures; s0++)
    {
      char *key;
      GQueue *q;
      if (!r0->top_level[s0] || (key = tm_root_paths_key (paths0, r0->head[s0])) == NULL)
        continue;
      q = g_hash_table_lookup (index, key);
      if (q == NULL)
        g_hash_table_insert (index, key, q = g_queue_new ());
      else
        g_free (key);
      /* several structures on one path (array elements): matched in order */
      g_queue_push_tail (q, GUINT_TO_POINTER (s0 + 1));
    }
  return index;
}

static guint32
path_match (GHashTable *index, const TmRootPaths *paths1, guint32 head1)
{
  g_autofree char *key = tm_root_paths_key (paths1, head1);
  GQueue *q = key ? g_hash_table_lookup (index, key) : NULL;

  if (q == NULL || g_queue_is_empty (q))
    return TM_DS_NONE;
  return GPOINTER_TO_UINT (g_queue_pop_head (q)) - 1;
}

TmDsGrowth *
tm_ds_growth_new_for_heaps (const TmDsTypes       *types,
                            const TmDsGrowthHeap  *from,
                            const TmDsGrowthHeap  *to,
                            GCancellable          *cancellable,
                            GError               **error)
{
  g_autoptr(TmDsGrowth) growth = NULL;
  const TmDsGrowthHeap *ends[2] = { from, to };
  g_autofree guint8 *closed0 = NULL;
  g_autofree guint8 *closed1 = NULL;
  const guint8 *closed[2] = { NULL, NULL };
  TmDsResult *r0, *r1;
  GHashTable *by_path;
  TmRootPaths *paths1 = NULL;

  g_return_val_if_fail (types != NULL, NULL);
  g_return_val_if_fail (from != NULL && to != NULL, NULL);

  growth = g_new0 (TmDsGrowth, 1);
  growth->from_gc = from->heap.graph->gc_id;
  growth->to_gc = to->heap.graph->gc_id;
  growth->entries = g_array_new (FALSE, TRUE, sizeof (TmDsGrowthEntry));
  for (guint k = 0; k < 2; k++)
    {
      growth->result[k] = tm_ds_detect (types, &ends[k]->heap, cancellable, error);
      if (growth->result[k] == NULL)
        return NULL;
      growth->n_structures[k] = growth->result[k]->n_structures;
      growth->heap[k] = heap_total (growth->result[k]);
    }
  if (from->dominators != NULL)
    closed[0] = closed0 = closed_subtrees (growth->result[0], from->dominators);
  if (to->dominators != NULL)
    closed[1] = closed1 = closed_subtrees (growth->result[1], to->dominators);
  r0 = growth->result[0];
  r1 = growth->result[1];
  growth->heap_growth_bytes = (gint64) growth->heap[1].bytes - (gint64) growth->heap[0].bytes;
  by_path = path_index (growth, from, to, &paths1);

  for (guint32 s1 = 0; s1 < r1->n_structures; s1++)
    {
      TmDsGrowthEntry e = { 0 };
      guint32 node0, s0;

      if (!r1->top_level[s1])
        continue;
      if ((s1 & 255) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      growth->n_candidates++;

      /* the same object at the start: same object index; in heap dumps,
       * which lose identity, the structure reached along the same path
       * from the GC roots; otherwise it was born inside the window and
       * grows from nothing */
      e.object_index = r1->graph->node_object[r1->head[s1]];
      e.node[0] = e.structure[0] = TM_DS_NONE;
      if (tm_heap_graph_node_for_object (r0->graph, e.object_index, &node0))
        {
          s0 = tm_ds_result_find_head (r0, node0);
          if (s0 == TM_DS_NONE)
            continue;   /* a type table mismatch; not the same structure */
          e.node[0] = node0;
          e.structure[0] = s0;
        }
      else if (by_path && (s0 = path_match (by_path, paths1, r1->head[s1])) != TM_DS_NONE)
        {
          e.node[0] = r0->head[s0];
          e.structure[0] = s0;
          growth->n_matched_by_path++;
        }
      else
        e.born = TRUE;
      if (!e.born)
        growth->n_matched++;

      e.type = r1->node_type[r1->head[s1]];
      e.node[1] = r1->head[s1];
      e.structure[1] = s1;
      for (guint k = 0; k < 2; k++)
        {
          TmDsResult *r = growth->result[k];
          guint32 s = e.structure[k];

          if (s == TM_DS_NONE)
            continue;   /* born in the window: sizes 0 at the start */

          e.size[TM_DS_METRIC_RETAINED][k] = retained_of (ends[k], e.node[k]);
          e.size[TM_DS_METRIC_DEEP][k] = deep_of (r, ends[k], closed[k], s, e.node[k]);
          e.size[TM_DS_METRIC_DS][k] = r->ds_size[s];
          e.size[TM_DS_METRIC_DEEP_DS][k] = tm_ds_result_deep_ds (r, s, NULL);
        }
      for (guint m = 0; m < TM_DS_N_METRICS; m++)
        e.hgp[m] = growth->heap_growth_bytes > 0
          ? (double) tm_ds_growth_entry_delta (&e, m) / (double) growth->heap_growth_bytes
          : 0.0;
      e.pattern = tm_ds_growth_classify (&e);
      g_array_append_val (growth->entries, e);
    }

  if (by_path)
    g_hash_table_unref (by_path);
  tm_root_paths_free (paths1);
  if (growth->entries->len > 1)
    qsort (growth->entries->data, growth->entries->len, sizeof (TmDsGrowthEntry), compare_entries);
  return g_steal_pointer (&growth);
}

typedef struct {
  TmProgressFunc progress;
  gpointer       data;
  double         base;
} Progress;

/* Each end's heap analysis is half of the work. */
static void
half_progress (double fraction, gpointer user_data)
{
  Progress *p = user_data;

  p->progress (p->base + 0.45 * fraction, p->data);
}

TmDsGrowth *
tm_ds_growth_new (TmHeapCache     *heaps,
                  guint32          from_gc,
                  guint32          to_gc,
                  TmProgressFunc   progress,
                  gpointer         progress_data,
                  GCancellable    *cancellable,
                  GError         **error)
{
  TmHeapAnalysis *analysis[2] = { NULL, NULL };
  guint32 gcs[2] = { from_gc, to_gc };
  TmDsGrowthHeap ends[2];
  g_autoptr(TmDsTypes) types = NULL;
  TmDsGrowth *growth;
  TmTrace *trace;

  g_return_val_if_fail (heaps != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  trace = tm_heap_cache_get_trace (heaps);

  if (from_gc < 1 || to_gc > tm_trace_n_gcs (trace) || from_gc >= to_gc)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("the window must be GCs A < B within 1..%u (got %u..%u)"),
                   tm_trace_n_gcs (trace), from_gc, to_gc);
      return NULL;
    }
  for (guint k = 0; k < 2; k++)
    if (!tm_trace_gc (trace, gcs[k])->has_graph)
      {
        g_autofree char *message = tm_heap_analysis_no_graph_message (trace, gcs[k]);
        g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, "%s", message);
        return NULL;
      }

  for (guint k = 0; k < 2; k++)
    {
      Progress p = { progress, progress_data, 0.45 * k };

      analysis[k] = tm_heap_cache_get (heaps, gcs[k], progress != NULL ? half_progress : NULL, &p,
                                       cancellable, error);
      if (analysis[k] == NULL)
        goto fail;
      if (!tm_heap_analysis_has_graph (analysis[k]))
        {
          g_autofree char *message = tm_heap_analysis_no_graph_message (trace, gcs[k]);
          g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, "%s", message);
          goto fail;
        }
      ends[k].heap.graph = tm_heap_analysis_get_graph (analysis[k]);
      ends[k].heap.obj_type = trace->obj_type;
      ends[k].heap.sizes.trace = trace;
      ends[k].heap.sizes.obj_size = trace->obj_size;
      ends[k].dominators = tm_heap_analysis_get_dominators (analysis[k]);
    }

  if ((types = tm_heap_cache_new_ds_types (heaps, error)) == NULL)
    goto fail;
  growth = tm_ds_growth_new_for_heaps (types, &ends[0], &ends[1], cancellable, error);
  if (growth == NULL)
    goto fail;
  growth->from_gc = from_gc;
  growth->to_gc = to_gc;
  growth->analysis[0] = analysis[0];
  growth->analysis[1] = analysis[1];
  growth->types = g_steal_pointer (&types);
  if (progress != NULL)
    progress (1.0, progress_data);
  return growth;

fail:
  g_clear_pointer (&analysis[0], tm_heap_analysis_unref);
  g_clear_pointer (&analysis[1], tm_heap_analysis_unref);
  return NULL;
}
