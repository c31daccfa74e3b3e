/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-root-paths.h"

#include <string.h>

#define NO_PARENT G_MAXUINT32

struct _TmRootPaths {
  const TmHeapGraph *g;
  const TmTrace     *trace;
  guint32           *parent;     /* node -> parent node, NO_PARENT for roots and unreached */
  guint64           *via;        /* node -> edge index from the parent */
  guint32           *root;       /* node -> root entry, for roots */
  guint32           *top;        /* node -> the node one step below its root on its
                                  * path (the root itself for roots) */
  guint64           *reached;    /* bitmap */
};

static void
visit_from (TmRootPaths *rp, guint32 *queue, guint32 *tail)
{
  const TmHeapGraph *g = rp->g;

  for (guint32 head = 0; head < *tail; head++)
    {
      guint32 v = queue[head];
      for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
        {
          guint32 w = g->edges[e];
          if (tm_bitmap_get (rp->reached, w))
            continue;
          tm_bitmap_set (rp->reached, w);
          rp->parent[w] = v;
          rp->via[w] = e;
          rp->top[w] = rp->parent[v] == NO_PARENT ? w : rp->top[v];
          queue[(*tail)++] = w;
        }
    }
}

TmRootPaths *
tm_root_paths_new (const TmHeapGraph *g, const TmTrace *trace)
{
  g_return_val_if_fail (g != NULL && trace != NULL, NULL);
  if (g->edge_label == NULL || g->labels == NULL)
    return NULL;
  return tm_root_paths_build (g, trace);
}

TmRootPaths *
tm_root_paths_build (const TmHeapGraph *g, const TmTrace *trace)
{
  TmRootPaths *rp;
  g_autofree guint32 *queue = NULL;
  guint32 tail = 0;

  g_return_val_if_fail (g != NULL && trace != NULL, NULL);
  rp = g_new0 (TmRootPaths, 1);
  rp->g = g;
  rp->trace = trace;
  rp->parent = g_new (guint32, MAX (g->n_nodes, 1));
  memset (rp->parent, 0xff, sizeof (guint32) * g->n_nodes);
  rp->via = g_new0 (guint64, MAX (g->n_nodes, 1));
  rp->root = g_new0 (guint32, MAX (g->n_nodes, 1));
  rp->top = g_new (guint32, MAX (g->n_nodes, 1));
  rp->reached = g_new0 (guint64, g->n_nodes / 64 + 1);
  queue = g_new (guint32, (gsize) g->n_nodes + 1);

  /* static fields name a place in a program best: they go first */
  for (guint pass = 0; pass < 2; pass++)
    for (guint32 r = 0; r < g->n_roots; r++)
      {
        guint32 v = g->root_node[r];
        if ((g->root_kind[r] == TM_ROOT_KIND_STATIC) != (pass == 0) || tm_bitmap_get (rp->reached, v))
          continue;
        tm_bitmap_set (rp->reached, v);
        rp->root[v] = r;
        rp->top[v] = v;
        queue[tail++] = v;
      }
  visit_from (rp, queue, &tail);
  return rp;
}

static const char *
type_name (const TmRootPaths *rp, guint32 node)
{
  return tm_trace_type (rp->trace, rp->trace->obj_type[rp->g->node_object[node]])->name;
}

char *
tm_root_paths_key (const TmRootPaths *rp, guint32 node)
{
  const TmHeapGraph *g;
  g_autoptr(GPtrArray) steps = g_ptr_array_new ();
  GString *key;
  guint32 v, r;

  g_return_val_if_fail (rp != NULL, NULL);
  g = rp->g;
  if (node >= g->n_nodes || !tm_bitmap_get (rp->reached, node))
    return NULL;

  for (v = node; rp->parent[v] != NO_PARENT; v = rp->parent[v])
    g_ptr_array_add (steps, GUINT_TO_POINTER (v));
  r = rp->root[v];
  key = g_string_new (NULL);
  if (g->root_label != NULL && g->root_label[r] != 0 && g->root_kind[r] == TM_ROOT_KIND_STATIC)
    g_string_append (key, g_ptr_array_index (g->labels, g->root_label[r]));
  else
    g_string_append_printf (key, "(%s) %s", tm_root_kind_to_string (g->root_kind[r]), type_name (rp, v));
  for (guint i = steps->len; i-- > 0;)
    {
      guint32 w = GPOINTER_TO_UINT (g_ptr_array_index (steps, i));
      guint32 l = tm_heap_graph_edge_field (g, rp->via[w]);
      const char *field = (l & TM_EDGE_ELEMENT) ? "[]"
                          : l != 0 && l < g->labels->len ? (const char *) g_ptr_array_index (g->labels, l) : "?";
      g_string_append_printf (key, " / %s: %s", field, type_name (rp, w));
    }
  return g_string_free (key, FALSE);
}

gboolean
tm_root_paths_first_step (const TmRootPaths *rp, guint32 node, guint32 *root_entry, guint64 *edge)
{
  guint32 t;

  g_return_val_if_fail (rp != NULL, FALSE);
  if (node >= rp->g->n_nodes || !tm_bitmap_get (rp->reached, node))
    return FALSE;
  t = rp->top[node];
  if (rp->parent[t] == NO_PARENT)
    {
      *root_entry = rp->root[t];
      *edge = G_MAXUINT64;
    }
  else
    {
      *root_entry = rp->root[rp->parent[t]];
      *edge = rp->via[t];
    }
  return TRUE;
}

void
tm_root_paths_free (TmRootPaths *rp)
{
  if (rp == NULL)
    return;
  g_free (rp->parent);
  g_free (rp->via);
  g_free (rp->root);
  g_free (rp->top);
  g_free (rp->reached);
  g_free (rp);
}
