/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The root-path classifier (tm-root-classify.h).  Keys are computed once
 * per heap state: a node's group is its path's first hop (root entry,
 * edge), and every node below the same first hop shares it, so only the
 * roots' objects and their direct children are looked up by name.
 */
#include "tm-config.h"
#include <glib/gi18n-lib.h>

#include <string.h>

#include "tm-root-classify.h"
#include "tm-root-paths.h"
#include "tm-error.h"

#define NO_KEY G_MAXUINT32

typedef struct {
  guint32   *key_of_node;   /* per heap item */
  GPtrArray *labels;        /* char*, per key; [0] = unreached */
} RootLevel;

static void
root_level_free (gpointer data)
{
  RootLevel *d = data;

  g_free (d->key_of_node);
  g_ptr_array_unref (d->labels);
  g_free (d);
}

static guint32
root_domain (const TmClassLevel *level, TmHeapAnalysis *heap)
{
  const RootLevel *d = level->data;
  return d->labels->len;
}

static void
root_keys (const TmClassLevel *level, TmHeapAnalysis *heap, const guint32 *items, guint32 n, guint32 *keys)
{
  const RootLevel *d = level->data;

  /* items NULL: every item of the heap, in order */
  if (items == NULL)
    memcpy (keys, d->key_of_node, n * sizeof (guint32));
  else
    for (guint32 i = 0; i < n; i++)
      keys[i] = d->key_of_node[items[i]];
}

static char *
root_label (const TmClassLevel *level, TmHeapAnalysis *heap, guint32 key)
{
  const RootLevel *d = level->data;
  return g_strdup (key < d->labels->len ? g_ptr_array_index (d->labels, key) : TM_ROOT_CLASSIFY_UNREACHED);
}

/* "pkg.Holder.cache" for a named static field, else "(kind) Type". */
static void
append_root (GString *s, const TmHeapGraph *g, const TmTrace *trace, guint32 r)
{
  if (g->root_kind[r] == TM_ROOT_KIND_STATIC && g->root_label != NULL && g->root_label[r] != 0
      && g->labels != NULL && g->root_label[r] < g->labels->len)
    g_string_append (s, g_ptr_array_index (g->labels, g->root_label[r]));
  else
    g_string_append_printf (s, "(%s) %s", tm_root_kind_to_string (g->root_kind[r]),
                            tm_trace_type (trace, trace->obj_type[g->node_object[g->root_node[r]]])->name);
}

static void
append_field (GString *s, const TmHeapGraph *g, guint64 edge)
{
  guint32 l = tm_heap_graph_edge_field (g, edge);

  /* as Java would write the access; no slash: labels are drill paths */
  if (l & TM_EDGE_ELEMENT)
    g_string_append (s, "[]");
  else if (l != 0 && g->labels != NULL && l < g->labels->len)
    g_string_append_printf (s, ".%s", (const char *) g_ptr_array_index (g->labels, l));
  else
    g_string_append (s, ".?");
}

gboolean
tm_root_classify_level (TmHeapAnalysis *heap, TmClassLevel *level, GCancellable *cancellable, GError **error)
{
  TmTrace *trace = tm_heap_analysis_get_trace (heap);
  const TmHeapGraph *g = tm_heap_analysis_get_graph (heap);
  g_autoptr(TmRootPaths) paths = NULL;
  g_autoptr(GHashTable) key_of_label = NULL;
  g_autofree guint32 *key_of_first = NULL;
  g_autoptr(GString) s = g_string_new (NULL);
  RootLevel *d;

  memset (level, 0, sizeof *level);
  if (g == NULL)
    {
      g_autofree char *why = tm_heap_analysis_no_graph_message (trace, tm_heap_analysis_get_gc (heap));
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, _("root-path: %s"), why);
      return FALSE;
    }
  paths = tm_root_paths_build (g, trace);
  d = g_new0 (RootLevel, 1);
  d->key_of_node = g_new (guint32, MAX (g->n_nodes, 1));
  d->labels = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (d->labels, g_strdup (TM_ROOT_CLASSIFY_UNREACHED));
  key_of_label = g_hash_table_new (g_str_hash, g_str_equal);
  /* per first-hop node: its key, so that a subtree is named once */
  key_of_first = g_new (guint32, MAX (g->n_nodes, 1));
  memset (key_of_first, 0xff, sizeof (guint32) * g->n_nodes);

  for (guint32 v = 0; v < g->n_nodes; v++)
    {
      guint32 r, first;
      guint64 edge;
      gpointer found;

      if ((v & 0xffff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          root_level_free (d);
          return FALSE;
        }
      if (!tm_root_paths_first_step (paths, v, &r, &edge))
        {
          d->key_of_node[v] = 0;
          continue;
        }
      /* the node the first hop leads to (the root's object for itself) */
      first = edge == G_MAXUINT64 ? g->root_node[r] : g->edges[edge];
      if (key_of_first[first] == NO_KEY)
        {
          g_string_truncate (s, 0);
          append_root (s, g, trace, r);
          /* without field names, the root alone */
          if (edge != G_MAXUINT64 && g->edge_label != NULL)
            append_field (s, g, edge);
          found = g_hash_table_lookup (key_of_label, s->str);
          if (found == NULL)
            {
              char *label = g_strdup (s->str);
              g_ptr_array_add (d->labels, label);
              g_hash_table_insert (key_of_label, label, GUINT_TO_POINTER (d->labels->len - 1));
              found = GUINT_TO_POINTER (d->labels->len - 1);
            }
          key_of_first[first] = GPOINTER_TO_UINT (found);
        }
      d->key_of_node[v] = key_of_first[first];
    }

  level->name = "root-path";
  level->classifier = TM_CLASSIFIER_ROOT_PATH;
  level->data = d;
  level->data_free = root_level_free;
  level->domain = root_domain;
  level->keys = root_keys;
  level->label = root_label;
  return TRUE;
}
