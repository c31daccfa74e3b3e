/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmHeapAnalysis: construction (on a worker), the reverse graph, path to
 * GC roots.  Group metrics live in tm-heap-analysis-closure.c.
 */
#include "tm-heap-analysis-private.h"
#include "tm-error.h"

#include <glib/gi18n-lib.h>

#include <string.h>

typedef struct {
  TmProgressFunc progress;
  gpointer       data;
  double         from, span;
} SubProgress;

static void
sub_progress (double fraction, gpointer user_data)
{
  SubProgress *sp = user_data;
  sp->progress (sp->from + sp->span * fraction, sp->data);
}

static TmHeapAnalysis *
analysis_alloc (TmTrace *trace)
{
  TmHeapAnalysis *self = g_new0 (TmHeapAnalysis, 1);

  self->ref_count = 1;
  self->trace = tm_trace_ref (trace);
  self->sizes.trace = trace;
  self->sizes.obj_size = trace->obj_size;
  g_mutex_init (&self->lock);
  return self;
}

/* closed[p]: no reference leaves the dominator subtree of p, so that
 * subtree is exactly what p reaches, and a group made of closed subtrees
 * has deep = retained = the sum of its subtrees.  For an edge y -> z the
 * lowest common tree ancestor is z when z dominates y, else idom(z)
 * (which always dominates y); the edge leaves every subtree on the path
 * from y up to just below that ancestor. */
static guint64 *
compute_closed (const TmHeapGraph *g, const TmDominatorTree *dom)
{
  guint32 N = dom->n_reachable;
  g_autofree guint32 *depth = g_new (guint32, (gsize) N + 1);
  g_autofree guint32 *low = g_new (guint32, (gsize) N + 1);
  guint64 *closed = g_new0 (guint64, N / 64 + 1);

  depth[0] = 0;
  for (guint32 p = 1; p <= N; p++)
    depth[p] = depth[dom->idom[p]] + 1;
  memcpy (low, depth, ((gsize) N + 1) * sizeof *low);

  for (guint32 y = 0; y < g->n_nodes; y++)
    {
      guint32 py = dom->position[y];
      if (py == 0)
        continue;
      for (guint64 e = tm_heap_graph_edge_begin (g, y), e_end = tm_heap_graph_edge_end (g, y); e < e_end; e++)
        {
          guint32 pz = dom->position[g->edges[e]];
          guint32 lca_depth;

          if (pz <= py && py < pz + dom->size[pz])
            lca_depth = depth[pz];
          else
            lca_depth = depth[pz] - 1;
          if (lca_depth < low[py])
            low[py] = lca_depth;
        }
    }
  for (guint32 p = N; p >= 1; p--)
    {
      guint32 q = dom->idom[p];
      if (low[p] >= depth[p])
        tm_bitmap_set (closed, p);
      if (low[p] < low[q])
        low[q] = low[p];
    }
  return closed;
}

static gboolean
attach_graph (TmHeapAnalysis *self, TmHeapGraph *graph, TmProgressFunc progress,
              gpointer progress_data, double from, GCancellable *cancellable, GError **error)
{
  SubProgress sp = { progress, progress_data, from, 1.0 - from };

  for (guint32 i = 0; i < graph->n_nodes; i++)
    if (graph->node_object[i] >= self->trace->n_objects)
      {
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                     "graph of GC %u names object %u, the trace has %" G_GUINT64_FORMAT,
                     graph->gc_id, graph->node_object[i], self->trace->n_objects);
        tm_heap_graph_free (graph);
        return FALSE;
      }

  self->graph = graph;
  self->gc_id = graph->gc_id;
  self->n_items = graph->n_nodes;
  self->objects = graph->node_object;
  self->dom = tm_dominator_tree_new (graph, &self->sizes, progress ? sub_progress : NULL, &sp,
                                     cancellable, error);
  if (self->dom == NULL)
    return FALSE;
  self->stamp = g_new0 (guint32, MAX (graph->n_nodes, 1));
  self->closed = compute_closed (graph, self->dom);
  return TRUE;
}

TmHeapAnalysis *
tm_heap_analysis_new_for_graph (TmTrace       *trace,
                                TmHeapGraph   *graph,
                                GCancellable  *cancellable,
                                GError       **error)
{
  TmHeapAnalysis *self;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (graph != NULL, NULL);

  self = analysis_alloc (trace);
  if (!attach_graph (self, graph, NULL, NULL, 0.0, cancellable, error))
    {
      tm_heap_analysis_unref (self);
      return NULL;
    }
  return self;
}

TmHeapAnalysis *
tm_heap_analysis_new (TmTrace        *trace,
                      guint32         gc_id,
                      TmProgressFunc  progress,
                      gpointer        progress_data,
                      GCancellable   *cancellable,
                      GError        **error)
{
  return tm_heap_analysis_new_from_fd (trace, gc_id, -1, progress, progress_data, cancellable, error);
}

TmHeapAnalysis *
tm_heap_analysis_new_from_fd (TmTrace        *trace,
                              guint32         gc_id,
                              int             graph_fd,
                              TmProgressFunc  progress,
                              gpointer        progress_data,
                              GCancellable   *cancellable,
                              GError        **error)
{
  g_autoptr(TmHeapAnalysis) self = NULL;
  const TmGc *gc;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (gc_id < 1 || gc_id > tm_trace_n_gcs (trace))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("GC %u does not exist (the trace has %u GCs)"), gc_id, tm_trace_n_gcs (trace));
      return NULL;
    }
  gc = tm_trace_gc (trace, gc_id);
  self = analysis_alloc (trace);
  self->gc_id = gc_id;

  if (gc->has_graph)
    {
      TmHeapGraph *graph = tm_heap_graph_read_from_fd (trace, graph_fd, gc_id, cancellable, error);
      if (graph == NULL)
        return NULL;
      if (progress)
        progress (0.3, progress_data);
      if (!attach_graph (self, graph, progress, progress_data, 0.3, cancellable, error))
        return NULL;
    }
  else
    {
      self->objects_owned = tm_trace_live_objects (trace, gc_id, &self->n_items);
      self->objects = self->objects_owned;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
    }
  if (progress)
    progress (1.0, progress_data);
  return g_steal_pointer (&self);
}

TmHeapAnalysis *
tm_heap_analysis_ref (TmHeapAnalysis *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
tm_heap_analysis_unref (TmHeapAnalysis *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  tm_dominator_tree_free (self->dom);
  tm_heap_graph_free (self->graph);
  g_free (self->objects_owned);
  g_free (self->stamp);
  g_free (self->closed);
  g_free (self->root_bits);
  g_free (self->rev_start);
  g_free (self->rev_edges);
  g_mutex_clear (&self->lock);
  tm_trace_unref (self->trace);
  g_free (self);
}

TmTrace *
tm_heap_analysis_get_trace (TmHeapAnalysis *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->trace;
}

guint32
tm_heap_analysis_get_gc (TmHeapAnalysis *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->gc_id;
}

const guint32 *
tm_heap_analysis_get_objects (TmHeapAnalysis *self, guint32 *n_items)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_items)
    *n_items = self->n_items;
  return self->objects;
}

gboolean
tm_heap_analysis_has_graph (TmHeapAnalysis *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->graph != NULL;
}

const TmHeapGraph *
tm_heap_analysis_get_graph (TmHeapAnalysis *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->graph;
}

const TmDominatorTree *
tm_heap_analysis_get_dominators (TmHeapAnalysis *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->dom;
}

guint64
tm_heap_analysis_item_size (TmHeapAnalysis *self, guint32 item)
{
  g_return_val_if_fail (self != NULL && item < self->n_items, 0);
  return tm_object_sizes_get (&self->sizes, self->objects[item]);
}

void
tm_heap_analysis_ensure_reverse (TmHeapAnalysis *self)
{
  const TmHeapGraph *g = self->graph;
  guint32 n = g->n_nodes;

  if (self->rev_start != NULL)
    return;

  self->root_bits = g_new0 (guint64, n / 64 + 1);
  for (guint32 r = 0; r < g->n_roots; r++)
    if (g->root_node[r] < n)
      tm_bitmap_set (self->root_bits, g->root_node[r]);

  self->rev_start = g_new0 (guint64, (gsize) n + 2);
  for (guint64 e = 0; e < g->n_edges; e++)
    if (g->edges[e] < n)
      self->rev_start[g->edges[e] + 2]++;
  for (guint32 v = 0; v < n; v++)
    self->rev_start[v + 2] += self->rev_start[v + 1];
  self->rev_edges = g_new (guint32, MAX (self->rev_start[n + 1], 1));
  /* rev_start[v + 1] serves as v's fill cursor and ends as its end. */
  for (guint32 v = 0; v < n; v++)
    for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
      {
        guint32 u = g->edges[e];
        if (u < n)
          self->rev_edges[self->rev_start[u + 1]++] = v;
      }
}

GArray *
tm_heap_analysis_path_to_root (TmHeapAnalysis *self,
                               guint32         item,
                               guint          *root_kind,
                               GError        **error)
{
  const TmHeapGraph *g;
  GArray *path;
  g_autofree guint32 *via = NULL;
  g_autofree guint32 *queue = NULL;
  guint32 head = 0, tail = 0, found = G_MAXUINT32;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (item < self->n_items, NULL);

  if (self->graph == NULL)
    {
      g_autofree char *msg = tm_heap_analysis_no_graph_message (self->trace, self->gc_id);
      g_set_error_literal (error, TM_ERROR, TM_ERROR_NO_GRAPH, msg);
      return NULL;
    }
  g = self->graph;
  path = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (root_kind)
    *root_kind = TM_ROOT_KIND_OTHER;
  if (self->dom->position[item] == 0)
    return path;

  g_mutex_lock (&self->lock);
  tm_heap_analysis_ensure_reverse (self);
  g_mutex_unlock (&self->lock);

  /* Breadth-first over incoming references, only through reachable
   * nodes, until a root is met: that gives a shortest chain. */
  via = g_new (guint32, g->n_nodes);
  memset (via, 0xff, sizeof (guint32) * g->n_nodes);
  queue = g_new (guint32, g->n_nodes);
  via[item] = item;
  queue[tail++] = item;
  while (head < tail && found == G_MAXUINT32)
    {
      guint32 v = queue[head++];
      if (tm_bitmap_get (self->root_bits, v))
        {
          found = v;
          break;
        }
      for (guint64 e = self->rev_start[v]; e < self->rev_start[v + 1]; e++)
        {
          guint32 u = self->rev_edges[e];
          if (via[u] == G_MAXUINT32 && self->dom->position[u] != 0)
            {
              via[u] = v;
              queue[tail++] = u;
            }
        }
    }
  if (found == G_MAXUINT32)
    return path;

  for (guint32 v = found;; v = via[v])
    {
      g_array_append_val (path, v);
      if (v == item)
        break;
    }
  if (root_kind)
    for (guint32 r = 0; r < g->n_roots; r++)
      if (g->root_node[r] == found)
        {
          *root_kind = g->root_kind[r];
          break;
        }
  return path;
}

char *
tm_heap_analysis_no_graph_message (const TmTrace *trace, guint32 gc_id)
{
  guint32 before = 0, after = 0, n = tm_trace_n_gcs (trace);

  g_return_val_if_fail (trace != NULL, NULL);

  for (guint32 id = MIN (gc_id, n + 1); id-- > 1;)
    if (tm_trace_gc (trace, id)->has_graph)
      {
        before = id;
        break;
      }
  for (guint32 id = gc_id + 1; id <= n; id++)
    if (tm_trace_gc (trace, id)->has_graph)
      {
        after = id;
        break;
      }

  if (before && after)
    return g_strdup_printf (_("GC %u has no reference graph (deep and retained sizes need one); "
                            "the nearest GCs with one are %u and %u"), gc_id, before, after);
  if (before || after)
    return g_strdup_printf (_("GC %u has no reference graph (deep and retained sizes need one); "
                            "the nearest GC with one is %u"), gc_id, before ? before : after);
  return g_strdup_printf (_("GC %u has no reference graph (deep and retained sizes need one), "
                          "and the trace has none"), gc_id);
}
