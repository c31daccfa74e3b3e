/* SPDX-License-Identifier: GPL-3.0-or-later
 * Path to GC roots of an object or a group (see the header). */
#include "tm-config.h"
#include <glib/gi18n-lib.h>
#include "tm-root-path.h"
#include "tm-error.h"

#include <string.h>


void
tm_root_path_free (TmRootPath *path)
{
  if (path == NULL)
    return;
  g_array_unref (path->objects);
  g_ptr_array_unref (path->fields);
  g_free (path->root_name);
  g_free (path->root_class);
  g_free (path);
}

guint32
tm_heap_analysis_representative (TmHeapAnalysis *heap,
                                 const guint32  *items,
                                 guint32         n_items,
                                 guint64        *retained_bytes)
{
  const TmDominatorTree *dom;
  guint32 best = G_MAXUINT32;
  guint64 best_bytes = 0;

  g_return_val_if_fail (heap != NULL, G_MAXUINT32);
  g_return_val_if_fail (items != NULL || n_items == 0, G_MAXUINT32);

  if ((dom = tm_heap_analysis_get_dominators (heap)) == NULL)
    return G_MAXUINT32;
  for (guint32 i = 0; i < n_items; i++)
    {
      guint32 p = dom->position[items[i]];
      guint64 b = p ? dom->retained_bytes[p] : 0;   /* unreachable: retains nothing */

      if (best == G_MAXUINT32 || b > best_bytes)
        {
          best = items[i];
          best_bytes = b;
        }
    }
  if (retained_bytes != NULL)
    *retained_bytes = best_bytes;
  return best;
}

/* The fields of the hops and the root's name and class, from the graph's
 * labels. */
static void
name_hops (TmRootPath *path, const TmHeapGraph *graph)
{
  guint32 prev = 0;

  for (guint i = 0; i < path->objects->len; i++)
    {
      guint32 node = 0;
      gboolean known = graph != NULL && graph->labels != NULL
                       && tm_heap_graph_node_for_object (graph, g_array_index (path->objects, guint32, i), &node);

      g_ptr_array_add (path->fields, known && i > 0 ? tm_heap_graph_edge_label (graph, prev, node) : NULL);
      if (known && i == 0)
        path->root_name = g_strdup (tm_heap_graph_root_label (graph, node));
      prev = node;
    }
  /* a static field's name is its class's name, a dot, the field */
  if (path->root_name != NULL && path->root_kind == TM_ROOT_KIND_STATIC && strrchr (path->root_name, '.') != NULL)
    path->root_class = g_strndup (path->root_name, strrchr (path->root_name, '.') - path->root_name);
}

static TmRootPath *
path_new (TmHeapAnalysis *heap, guint32 item, guint64 retained_bytes, GError **error)
{
  const guint32 *objects = tm_heap_analysis_get_objects (heap, NULL);
  GArray *items;
  TmRootPath *path;
  guint kind = 0;

  if ((items = tm_heap_analysis_path_to_root (heap, item, &kind, error)) == NULL)
    return NULL;
  for (guint i = 0; i < items->len; i++)
    g_array_index (items, guint32, i) = objects[g_array_index (items, guint32, i)];
  path = g_new0 (TmRootPath, 1);
  path->gc_id = tm_heap_analysis_get_gc (heap);
  path->object = objects[item];
  path->retained_bytes = retained_bytes;
  path->root_kind = kind;
  path->objects = items;
  path->fields = g_ptr_array_new_with_free_func (g_free);
  name_hops (path, tm_heap_analysis_get_graph (heap));
  return path;
}

TmRootPath *
tm_root_path_new (TmHeapAnalysis *heap, guint32 item, GError **error)
{
  guint64 retained = 0;
  guint32 n_items;

  g_return_val_if_fail (heap != NULL, NULL);

  tm_heap_analysis_get_objects (heap, &n_items);
  if (item >= n_items)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("item %u is not in the heap (it has %u)"),
                   item, n_items);
      return NULL;
    }
  if (tm_heap_analysis_has_graph (heap))
    tm_heap_analysis_representative (heap, &item, 1, &retained);
  return path_new (heap, item, retained, error);
}

TmRootPath *
tm_root_path_new_for_group (TmClassTree *tree, guint32 node, GError **error)
{
  const TmClassNode *n;
  guint64 retained = 0;
  guint32 best;

  g_return_val_if_fail (tree != NULL, NULL);
  g_return_val_if_fail (node < tree->nodes->len, NULL);

  if (!tm_heap_analysis_has_graph (tree->heap))
    {
      g_autofree char *msg = tm_heap_analysis_no_graph_message (tm_heap_analysis_get_trace (tree->heap),
                                                                tm_heap_analysis_get_gc (tree->heap));
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, "%s", msg);
      return NULL;
    }
  n = tm_class_tree_node (tree, node);
  best = tm_heap_analysis_representative (tree->heap, tree->members + n->first, n->count, &retained);
  if (best == G_MAXUINT32)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("the group is empty"));
      return NULL;
    }
  return path_new (tree->heap, best, retained, error);
}
