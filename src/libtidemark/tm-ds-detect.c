/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Detection of data structures (the four rules of ds-dsl.md), the
 * data-structure view, closures and the data-structure classifiers.
 *
 * One pass over the heads in node order; each structure is a depth-first
 * descent that stamps the nodes it admits with the structure's number, so
 * an object is visited once per structure and no per-structure clearing
 * is needed.  A nested structure is only its head here (rule 1): its own
 * descent happens when its head's turn comes, so shared work is done once.
 */
#include "tm-ds-private.h"
#include "tm-error.h"

#include <string.h>

typedef struct {
  guint32 *data;
  gsize    len;
  gsize    cap;
} Stack;

static inline void
stack_push (Stack *s, guint32 v)
{
  if (G_UNLIKELY (s->len == s->cap))
    {
      s->cap = MAX (s->cap * 2, 1024);
      s->data = g_renew (guint32, s->data, s->cap);
    }
  s->data[s->len++] = v;
}

/* Structures contained in another are hidden from the view; where
 * structures only contain each other (a cycle), the first of the cycle
 * stays visible. */
static void
compute_view (TmDsResult *r)
{
  guint32 n = r->n_structures;
  g_autofree guint32 *nested_in = g_new0 (guint32, MAX (n, 1));
  g_autofree guint8 *reached = g_new0 (guint8, MAX (n, 1));
  Stack stack = { 0 };

  for (guint32 s = 0; s < n; s++)
    for (guint64 m = r->member_start[s]; m < r->member_start[s + 1]; m++)
      if (r->member_kind[m] == TM_DS_MEMBER_NESTED)
        {
          guint32 t = tm_ds_result_find_head (r, r->members[m]);
          if (t != TM_DS_NONE && t != s)
            nested_in[t]++;
        }

  r->top_level = g_new0 (guint8, MAX (n, 1));
  for (guint32 pass = 0; pass < 2; pass++)
    for (guint32 s0 = 0; s0 < n; s0++)
      {
        /* pass 0: structures nobody contains; pass 1: leftover cycles */
        if (reached[s0] || (pass == 0 && nested_in[s0] > 0))
          continue;
        r->top_level[s0] = 1;
        r->n_top_level++;
        reached[s0] = 1;
        stack_push (&stack, s0);
        while (stack.len > 0)
          {
            guint32 s = stack.data[--stack.len];

            for (guint64 m = r->member_start[s]; m < r->member_start[s + 1]; m++)
              if (r->member_kind[m] == TM_DS_MEMBER_NESTED)
                {
                  guint32 t = tm_ds_result_find_head (r, r->members[m]);
                  if (t != TM_DS_NONE && !reached[t])
                    {
                      reached[t] = 1;
                      stack_push (&stack, t);
                    }
                }
          }
      }
  g_free (stack.data);
}

TmDsResult *
tm_ds_detect (const TmDsTypes  *types,
              const TmDsHeap   *heap,
              GCancellable     *cancellable,
              GError          **error)
{
  g_autoptr(TmDsResult) r = NULL;
  const TmHeapGraph *g;
  g_autofree guint32 *stamp = NULL;
  g_autoptr(GArray) heads = NULL;
  g_autoptr(GArray) starts = NULL;
  g_autoptr(GArray) members = NULL;
  g_autoptr(GArray) kinds = NULL;
  g_autoptr(GArray) sizes = NULL;
  Stack stack = { 0 };
  guint32 n;

  g_return_val_if_fail (types != NULL, NULL);
  g_return_val_if_fail (heap != NULL && heap->graph != NULL && heap->obj_type != NULL, NULL);
  g_return_val_if_fail (heap->sizes.obj_size != NULL, NULL);

  g = heap->graph;
  n = g->n_nodes;
  r = g_new0 (TmDsResult, 1);
  g_mutex_init (&r->lock);
  r->graph = g;

  /* node facts in node order: the descent reads them for every edge */
  r->node_type = g_new (guint32, MAX (n, 1));
  r->node_size = g_new (guint64, MAX (n, 1));
  for (guint32 v = 0; v < n; v++)
    {
      guint32 obj = g->node_object[v];
      guint32 t = heap->obj_type[obj];

      r->node_type[v] = t < types->n_types ? t : types->n_types;
      r->node_size[v] = tm_object_sizes_get (&heap->sizes, obj);
    }

  r->type_flags = g_memdup2 (types->flags, (gsize) types->n_types + 1);
  stamp = g_new0 (guint32, MAX (n, 1));
  heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  starts = g_array_new (FALSE, FALSE, sizeof (guint64));
  members = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 1024);
  kinds = g_array_sized_new (FALSE, FALSE, sizeof (guint8), 1024);
  sizes = g_array_new (FALSE, FALSE, sizeof (TmDsSize));

  for (guint32 h = 0; h < n; h++)
    {
      TmDsSize size;
      guint32 epoch;
      guint64 start = members->len;
      guint8 kind = TM_DS_MEMBER_HEAD;

      if (!(types->flags[r->node_type[h]] & TM_DS_FLAG_HEAD))
        continue;
      if ((heads->len & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_free (stack.data);
          return NULL;
        }

      epoch = heads->len + 1;
      g_array_append_val (heads, h);
      g_array_append_val (starts, start);
      g_array_append_val (members, h);
      g_array_append_val (kinds, kind);
      size.objects = 1;
      size.bytes = r->node_size[h];
      stamp[h] = epoch;
      stack_push (&stack, h);

      while (stack.len > 0)
        {
          guint32 u = stack.data[--stack.len];
          guint32 tu = r->node_type[u];

          if (!(types->flags[tu] & TM_DS_FLAG_POINTEES))
            continue;
          for (guint64 e = tm_heap_graph_edge_begin (g, u), e_end = tm_heap_graph_edge_end (g, u); e < e_end; e++)
            {
              guint32 v = g->edges[e];
              guint32 tv;
              guint8 k;

              if (stamp[v] == epoch)
                continue;
              tv = r->node_type[v];
              k = tm_ds_types_kind_fast (types, tu, tv);
              if (k == TM_DS_POINTEE_NONE)
                continue;                               /* rule 4 */
              stamp[v] = epoch;
              if (types->flags[tv] & TM_DS_FLAG_HEAD)
                kind = TM_DS_MEMBER_NESTED;             /* rule 1 */
              else if (k == TM_DS_POINTEE_INTERNAL && (types->flags[tv] & TM_DS_FLAG_POINTEES))
                {
                  kind = TM_DS_MEMBER_INTERNAL;         /* rule 2 */
                  stack_push (&stack, v);
                }
              else
                kind = TM_DS_MEMBER_LEAF;               /* rule 3, or rule 2 with nothing below */
              g_array_append_val (members, v);
              g_array_append_val (kinds, kind);
              size.objects++;
              size.bytes += r->node_size[v];
            }
        }
      g_array_append_val (sizes, size);
    }
  g_free (stack.data);

  r->n_structures = heads->len;
  {
    guint64 end = members->len;
    g_array_append_val (starts, end);
  }
  r->head = (guint32 *) (void *) g_array_free (g_steal_pointer (&heads), FALSE);
  r->member_start = (guint64 *) (void *) g_array_free (g_steal_pointer (&starts), FALSE);
  r->members = (guint32 *) (void *) g_array_free (g_steal_pointer (&members), FALSE);
  r->member_kind = (guint8 *) g_array_free (g_steal_pointer (&kinds), FALSE);
  r->ds_size = (TmDsSize *) (void *) g_array_free (g_steal_pointer (&sizes), FALSE);
  compute_view (r);
  return g_steal_pointer (&r);
}

void
tm_ds_result_free (TmDsResult *result)
{
  if (result == NULL)
    return;
  g_free (result->head);
  g_free (result->member_start);
  g_free (result->members);
  g_free (result->member_kind);
  g_free (result->top_level);
  g_free (result->ds_size);
  g_free (result->node_type);
  g_free (result->node_size);
  g_free (result->type_flags);
  g_free (result->containing_start);
  g_free (result->containing);
  g_free (result->stamp);
  g_free (result->struct_stamp);
  g_mutex_clear (&result->lock);
  g_free (result);
}

guint32
tm_ds_result_find_head (const TmDsResult *result,
                        guint32           node)
{
  guint32 lo = 0, hi;

  g_return_val_if_fail (result != NULL, TM_DS_NONE);

  hi = result->n_structures;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (result->head[mid] < node)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < result->n_structures && result->head[lo] == node ? lo : TM_DS_NONE;
}

/* A fresh epoch for the shared scratch stamps; lock held. */
static guint32
next_epoch (TmDsResult *r)
{
  if (r->stamp == NULL)
    {
      r->stamp = g_new0 (guint32, MAX (r->graph->n_nodes, 1));
      r->struct_stamp = g_new0 (guint32, MAX (r->n_structures, 1));
    }
  if (++r->epoch == 0)
    {
      memset (r->stamp, 0, sizeof (guint32) * MAX (r->graph->n_nodes, 1));
      memset (r->struct_stamp, 0, sizeof (guint32) * MAX (r->n_structures, 1));
      r->epoch = 1;
    }
  return r->epoch;
}

/* Walks s and every structure nested in it; adds the members of the
 * wanted kinds (a bit mask of 1 << TmDsMemberKind) once each. */
static TmDsSize
walk_nested (TmDsResult *r, guint32 s, guint wanted, GArray *nodes)
{
  TmDsSize size = { 0, 0 };
  Stack stack = { 0 };
  guint32 epoch;

  g_mutex_lock (&r->lock);
  epoch = next_epoch (r);
  r->struct_stamp[s] = epoch;
  stack_push (&stack, s);
  while (stack.len > 0)
    {
      guint32 x = stack.data[--stack.len];

      for (guint64 m = r->member_start[x]; m < r->member_start[x + 1]; m++)
        {
          guint32 v = r->members[m];
          guint8 kind = r->member_kind[m];

          if (kind == TM_DS_MEMBER_NESTED)
            {
              guint32 t = tm_ds_result_find_head (r, v);
              if (t != TM_DS_NONE && r->struct_stamp[t] != epoch)
                {
                  r->struct_stamp[t] = epoch;
                  stack_push (&stack, t);
                }
            }
          if (!(wanted & (1u << kind)) || r->stamp[v] == epoch)
            continue;
          r->stamp[v] = epoch;
          size.objects++;
          size.bytes += r->node_size[v];
          if (nodes != NULL)
            g_array_append_val (nodes, v);
        }
    }
  g_mutex_unlock (&r->lock);
  g_free (stack.data);
  return size;
}

TmDsSize
tm_ds_result_deep_ds (TmDsResult *result,
                      guint32     s,
                      GArray     *nodes)
{
  TmDsSize none = { 0, 0 };

  g_return_val_if_fail (result != NULL, none);
  g_return_val_if_fail (s < result->n_structures, none);
  return walk_nested (result, s, 0xf, nodes);
}

void
tm_ds_result_deep_leaves (TmDsResult *result,
                          guint32     s,
                          GArray     *nodes)
{
  g_return_if_fail (result != NULL);
  g_return_if_fail (s < result->n_structures);
  g_return_if_fail (nodes != NULL);
  walk_nested (result, s, 1u << TM_DS_MEMBER_LEAF, nodes);
}

TmDsSize
tm_ds_result_deep (TmDsResult *result,
                   guint32     s,
                   GArray     *nodes)
{
  const TmHeapGraph *g;
  TmDsSize size = { 0, 0 };
  Stack stack = { 0 };
  guint32 epoch, h;

  g_return_val_if_fail (result != NULL, size);
  g_return_val_if_fail (s < result->n_structures, size);

  g = result->graph;
  h = result->head[s];
  g_mutex_lock (&result->lock);
  epoch = next_epoch (result);
  result->stamp[h] = epoch;
  stack_push (&stack, h);
  while (stack.len > 0)
    {
      guint32 u = stack.data[--stack.len];

      size.objects++;
      size.bytes += result->node_size[u];
      if (nodes != NULL)
        g_array_append_val (nodes, u);
      for (guint64 e = tm_heap_graph_edge_begin (g, u), e_end = tm_heap_graph_edge_end (g, u); e < e_end; e++)
        {
          guint32 v = g->edges[e];
          if (result->stamp[v] != epoch &&
              !(result->type_flags[result->node_type[v]] & TM_DS_FLAG_BARRIER))
            {
              result->stamp[v] = epoch;
              stack_push (&stack, v);
            }
        }
    }
  g_mutex_unlock (&result->lock);
  g_free (stack.data);
  return size;
}

void
tm_ds_result_view_heads (const TmDsResult *result,
                         GArray           *nodes)
{
  g_return_if_fail (result != NULL);
  g_return_if_fail (nodes != NULL);

  for (guint32 s = 0; s < result->n_structures; s++)
    if (result->top_level[s])
      g_array_append_val (nodes, result->head[s]);
}

void
tm_ds_result_leaves (const TmDsResult *result,
                     guint32           s,
                     GArray           *nodes)
{
  g_return_if_fail (result != NULL);
  g_return_if_fail (s < result->n_structures);
  g_return_if_fail (nodes != NULL);

  for (guint64 m = result->member_start[s]; m < result->member_start[s + 1]; m++)
    if (result->member_kind[m] == TM_DS_MEMBER_LEAF || result->member_kind[m] == TM_DS_MEMBER_NESTED)
      g_array_append_val (nodes, result->members[m]);
}

void
tm_ds_result_containing (TmDsResult *result,
                         guint32     node,
                         GArray     *structures)
{
  g_return_if_fail (result != NULL);
  g_return_if_fail (structures != NULL);
  g_return_if_fail (node < result->graph->n_nodes);

  g_mutex_lock (&result->lock);
  if (result->containing_start == NULL)
    {
      /* inverse of the member lists, by counting sort; structures come
       * out ascending because they are filled in order */
      guint32 n = result->graph->n_nodes;
      guint64 *start = g_new0 (guint64, (gsize) n + 1);
      guint64 total = result->member_start[result->n_structures];
      g_autofree guint64 *fill = NULL;
      guint32 *list;

      for (guint32 s = 0; s < result->n_structures; s++)
        for (guint64 m = result->member_start[s] + 1; m < result->member_start[s + 1]; m++)
          start[result->members[m] + 1]++;
      for (guint32 v = 0; v < n; v++)
        start[v + 1] += start[v];
      list = g_new (guint32, MAX (total, 1));
      fill = g_memdup2 (start, sizeof (guint64) * ((gsize) n + 1));
      for (guint32 s = 0; s < result->n_structures; s++)
        for (guint64 m = result->member_start[s] + 1; m < result->member_start[s + 1]; m++)
          list[fill[result->members[m]]++] = s;
      result->containing = list;
      result->containing_start = start;
    }
  g_mutex_unlock (&result->lock);

  for (guint64 i = result->containing_start[node]; i < result->containing_start[node + 1]; i++)
    g_array_append_val (structures, result->containing[i]);
}

TmDsResult *
tm_ds_detect_heap_analysis (TmHeapAnalysis *heap,
                            const TmDsl    *dsl,
                            GCancellable   *cancellable,
                            GError        **error)
{
  g_autoptr(TmDsTypes) types = NULL;
  TmTrace *trace;
  TmDsHeap dh;

  g_return_val_if_fail (heap != NULL, NULL);
  g_return_val_if_fail (dsl != NULL, NULL);

  trace = tm_heap_analysis_get_trace (heap);
  if (!tm_heap_analysis_has_graph (heap))
    {
      g_autofree char *message = tm_heap_analysis_no_graph_message (trace, tm_heap_analysis_get_gc (heap));
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, "%s", message);
      return NULL;
    }
  types = tm_ds_types_new_for_trace (dsl, trace);
  dh.graph = tm_heap_analysis_get_graph (heap);
  dh.obj_type = trace->obj_type;
  dh.sizes.trace = trace;
  dh.sizes.obj_size = trace->obj_size;
  return tm_ds_detect (types, &dh, cancellable, error);
}

char *
tm_ds_result_structure_label (const TmDsResult *result,
                              const TmTrace    *trace,
                              guint32           s)
{
  guint32 object;

  g_return_val_if_fail (result != NULL && trace != NULL, NULL);
  g_return_val_if_fail (s < result->n_structures, NULL);

  object = result->graph->node_object[result->head[s]];
  return g_strdup_printf ("%s @%" G_GUINT64_FORMAT, tm_trace_type (trace, trace->obj_type[object])->name,
                          tm_trace_object_id (trace, object));
}
