/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Heap compare: merges two classification trees level by level.  The
 * merged tree is built breadth first, so each node's children are
 * appended together and stay contiguous; a node's children pair up
 * through a hash of their match keys.
 */
#include "tm-heap-diff.h"
#include "tm-error.h"

#include <string.h>
#include <glib/gi18n-lib.h>

static const char *metric_names[TM_N_HEAP_METRICS] = {
  "objects", "bytes", "deep-objects", "deep-bytes", "retained-objects", "retained-bytes",
};

const char *
tm_heap_metric_to_string (TmHeapMetric m)
{
  g_return_val_if_fail (m < TM_N_HEAP_METRICS, NULL);
  return metric_names[m];
}

gboolean
tm_heap_metric_from_string (const char *name, TmHeapMetric *out)
{
  for (guint m = 0; m < TM_N_HEAP_METRICS; m++)
    if (g_strcmp0 (name, metric_names[m]) == 0)
      {
        *out = m;
        return TRUE;
      }
  return FALSE;
}

gboolean
tm_heap_metric_needs_graph (TmHeapMetric m)
{
  return m >= TM_HEAP_METRIC_DEEP_OBJECTS;
}

guint64
tm_group_metrics_get (const TmGroupMetrics *m, TmHeapMetric metric)
{
  switch (metric)
    {
    case TM_HEAP_METRIC_OBJECTS:          return m->objects;
    case TM_HEAP_METRIC_BYTES:            return m->bytes;
    case TM_HEAP_METRIC_DEEP_OBJECTS:     return m->deep_objects;
    case TM_HEAP_METRIC_DEEP_BYTES:       return m->deep_bytes;
    case TM_HEAP_METRIC_RETAINED_OBJECTS: return m->retained_objects;
    case TM_HEAP_METRIC_RETAINED_BYTES:   return m->retained_bytes;
    case TM_N_HEAP_METRICS:
    default:                              return 0;
    }
}

/* ---- building ---- */

/* What pairs a group of one side with the other's: the classifier key
 * for per-object levels, else the label (the graph levels number their
 * groups per heap state). */
static char *
match_key (TmClassTree *tree, guint32 node, char **label)
{
  const TmClassNode *n = tm_class_tree_node (tree, node);

  *label = tm_class_tree_node_label (tree, node);
  if (n->level > 0 && tm_classifier_is_per_object (tree->levels[n->level - 1].classifier))
    return g_strdup_printf ("%u", n->key);
  return g_strdup (*label);
}

static void
clear_node (TmHeapDiffNode *n)
{
  g_free (n->label);
}

static gboolean
same_levels (TmClassTree *a, TmClassTree *b)
{
  if (a->depth != b->depth)
    return FALSE;
  for (guint i = 0; i < a->depth; i++)
    if (a->levels[i].classifier != b->levels[i].classifier || g_strcmp0 (a->levels[i].name, b->levels[i].name) != 0)
      return FALSE;
  return TRUE;
}

static int
cmp_bytes_delta (gconstpointer a, gconstpointer b, gpointer data)
{
  GArray *nodes = data;
  const TmHeapDiffNode *x = &g_array_index (nodes, TmHeapDiffNode, *(const guint32 *) a);
  const TmHeapDiffNode *y = &g_array_index (nodes, TmHeapDiffNode, *(const guint32 *) b);
  gint64 dx = (gint64) x->after.bytes - (gint64) x->before.bytes;
  gint64 dy = (gint64) y->after.bytes - (gint64) y->before.bytes;

  if (dx != dy)
    return dx > dy ? -1 : 1;
  if (x->after.bytes != y->after.bytes)
    return x->after.bytes > y->after.bytes ? -1 : 1;
  return g_strcmp0 (x->label, y->label);
}

/* Appends the merged children of node `p` (contiguous), sorted by the
 * bytes delta. */
static void
merge_children (TmHeapDiff *diff, guint32 p)
{
  TmHeapDiffNode parent = g_array_index (diff->nodes, TmHeapDiffNode, p);
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) kids = g_array_new (FALSE, FALSE, sizeof (TmHeapDiffNode));
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint32));
  TmClassTree *side[2] = { diff->before, diff->after };
  guint32 side_node[2] = { parent.before_node, parent.after_node };
  guint32 first = diff->nodes->len;

  for (guint s = 0; s < 2; s++)
    {
      const TmClassNode *sn;

      if (side_node[s] == TM_CLASS_NODE_NONE)
        continue;
      sn = tm_class_tree_node (side[s], side_node[s]);
      for (guint32 c = sn->first_child; c < sn->first_child + sn->n_children; c++)
        {
          char *label = NULL;
          char *key = match_key (side[s], c, &label);
          gpointer at;
          TmHeapDiffNode *k;

          /* a key seen on this side already (two groups with one label)
           * stays a group of its own */
          if (g_hash_table_lookup_extended (by_key, key, NULL, &at)
              && (s == 0 ? g_array_index (kids, TmHeapDiffNode, GPOINTER_TO_UINT (at)).before_node
                         : g_array_index (kids, TmHeapDiffNode, GPOINTER_TO_UINT (at)).after_node)
                 == TM_CLASS_NODE_NONE)
            {
              k = &g_array_index (kids, TmHeapDiffNode, GPOINTER_TO_UINT (at));
              g_free (key);
              g_free (label);
            }
          else
            {
              TmHeapDiffNode n = { 0 };

              n.parent = p;
              n.level = parent.level + 1;
              n.before_node = n.after_node = TM_CLASS_NODE_NONE;
              n.label = label;
              g_array_append_val (kids, n);
              g_hash_table_replace (by_key, key, GUINT_TO_POINTER (kids->len - 1));
              k = &g_array_index (kids, TmHeapDiffNode, kids->len - 1);
            }
          if (s == 0)
            {
              k->before_node = c;
              tm_class_tree_get_metrics (side[s], c, &k->before);
            }
          else
            {
              k->after_node = c;
              tm_class_tree_get_metrics (side[s], c, &k->after);
            }
        }
    }

  for (guint32 i = 0; i < kids->len; i++)
    g_array_append_val (order, i);
  if (order->len > 1)
    g_array_sort_with_data (order, cmp_bytes_delta, kids);
  for (guint32 i = 0; i < order->len; i++)
    g_array_append_val (diff->nodes, g_array_index (kids, TmHeapDiffNode, g_array_index (order, guint32, i)));
  /* `parent` was copied: the array may have moved */
  g_array_index (diff->nodes, TmHeapDiffNode, p).first_child = first;
  g_array_index (diff->nodes, TmHeapDiffNode, p).n_children = kids->len;
}

TmHeapDiff *
tm_heap_diff_new (TmClassTree   *before,
                  TmClassTree   *after,
                  GCancellable  *cancellable,
                  GError       **error)
{
  TmHeapDiff *diff;
  TmHeapDiffNode root = { 0 };

  g_return_val_if_fail (before != NULL && after != NULL, NULL);

  if (tm_heap_analysis_get_trace (before->heap) != tm_heap_analysis_get_trace (after->heap) || !same_levels (before, after))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("heaps compare only when classified alike, on one trace"));
      return NULL;
    }

  diff = g_new0 (TmHeapDiff, 1);
  diff->ref_count = 1;
  g_mutex_init (&diff->lock);
  diff->before = tm_class_tree_ref (before);
  diff->after = tm_class_tree_ref (after);
  diff->has_graph = tm_heap_analysis_has_graph (before->heap) && tm_heap_analysis_has_graph (after->heap);
  diff->nodes = g_array_new (FALSE, FALSE, sizeof (TmHeapDiffNode));
  g_array_set_clear_func (diff->nodes, (GDestroyNotify) clear_node);

  root.parent = TM_CLASS_NODE_NONE;
  root.before_node = root.after_node = 0;
  root.label = g_strdup ("Overall");
  tm_class_tree_get_metrics (before, 0, &root.before);
  tm_class_tree_get_metrics (after, 0, &root.after);
  g_array_append_val (diff->nodes, root);

  for (guint32 p = 0; p < diff->nodes->len; p++)
    {
      if ((p & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          tm_heap_diff_unref (diff);
          return NULL;
        }
      merge_children (diff, p);
    }
  return diff;
}

TmHeapDiff *
tm_heap_diff_ref (TmHeapDiff *diff)
{
  g_return_val_if_fail (diff != NULL, NULL);
  g_atomic_int_inc (&diff->ref_count);
  return diff;
}

void
tm_heap_diff_unref (TmHeapDiff *diff)
{
  if (diff == NULL || !g_atomic_int_dec_and_test (&diff->ref_count))
    return;
  g_array_unref (diff->nodes);
  tm_class_tree_unref (diff->before);
  tm_class_tree_unref (diff->after);
  g_mutex_clear (&diff->lock);
  g_free (diff);
}

guint32
tm_heap_diff_get_from_gc (TmHeapDiff *diff)
{
  return tm_heap_analysis_get_gc (diff->before->heap);
}

guint32
tm_heap_diff_get_to_gc (TmHeapDiff *diff)
{
  return tm_heap_analysis_get_gc (diff->after->heap);
}

/* ---- deep and retained sizes ---- */

static gboolean
side_metrics (TmClassTree *tree, guint32 node, TmGroupMetrics *out, GCancellable *cancellable, GError **error)
{
  if (node == TM_CLASS_NODE_NONE)
    {
      memset (out, 0, sizeof *out);
      return TRUE;
    }
  if (!tm_class_tree_compute_metrics (tree, node, cancellable, error))
    return FALSE;
  tm_class_tree_get_metrics (tree, node, out);
  return TRUE;
}

gboolean
tm_heap_diff_compute_metrics (TmHeapDiff    *diff,
                              guint32        index,
                              GCancellable  *cancellable,
                              GError       **error)
{
  TmHeapDiffNode *n;
  TmGroupMetrics b, a;
  gboolean done;

  g_return_val_if_fail (diff != NULL && index < diff->nodes->len, FALSE);

  if (!diff->has_graph)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH,
                   _("deep and retained sizes compare only between two GCs with a reference graph"));
      return FALSE;
    }
  n = &g_array_index (diff->nodes, TmHeapDiffNode, index);
  g_mutex_lock (&diff->lock);
  done = n->has_metrics;
  g_mutex_unlock (&diff->lock);
  if (done)
    return TRUE;
  if (!side_metrics (diff->before, n->before_node, &b, cancellable, error)
      || !side_metrics (diff->after, n->after_node, &a, cancellable, error))
    return FALSE;
  g_mutex_lock (&diff->lock);
  n->before = b;
  n->after = a;
  n->has_metrics = TRUE;
  g_mutex_unlock (&diff->lock);
  return TRUE;
}

gboolean
tm_heap_diff_compute_all (TmHeapDiff     *diff,
                          TmProgressFunc  progress,
                          gpointer        progress_data,
                          GCancellable   *cancellable,
                          GError        **error)
{
  g_return_val_if_fail (diff != NULL, FALSE);

  for (guint32 i = 0; i < diff->nodes->len; i++)
    {
      if (!tm_heap_diff_compute_metrics (diff, i, cancellable, error))
        return FALSE;
      if (progress)
        progress ((double) (i + 1) / diff->nodes->len, progress_data);
    }
  return TRUE;
}

gboolean
tm_heap_diff_get_metrics (TmHeapDiff     *diff,
                          guint32         index,
                          TmGroupMetrics *before,
                          TmGroupMetrics *after)
{
  const TmHeapDiffNode *n;
  gboolean done;

  g_return_val_if_fail (diff != NULL && index < diff->nodes->len, FALSE);

  n = tm_heap_diff_node (diff, index);
  g_mutex_lock (&diff->lock);
  done = n->has_metrics;
  if (before)
    *before = n->before;
  if (after)
    *after = n->after;
  g_mutex_unlock (&diff->lock);
  return done;
}

gint64
tm_heap_diff_delta (TmHeapDiff *diff, guint32 index, TmHeapMetric metric)
{
  TmGroupMetrics b, a;

  tm_heap_diff_get_metrics (diff, index, &b, &a);
  return (gint64) tm_group_metrics_get (&a, metric) - (gint64) tm_group_metrics_get (&b, metric);
}

typedef struct {
  TmHeapDiff   *diff;
  TmHeapMetric  metric;
} SortBy;

static int
cmp_delta (gconstpointer pa, gconstpointer pb, gpointer data)
{
  SortBy *s = data;
  guint32 x = *(const guint32 *) pa, y = *(const guint32 *) pb;
  gint64 dx = tm_heap_diff_delta (s->diff, x, s->metric), dy = tm_heap_diff_delta (s->diff, y, s->metric);
  TmGroupMetrics ax, ay;

  if (dx != dy)
    return dx > dy ? -1 : 1;
  tm_heap_diff_get_metrics (s->diff, x, NULL, &ax);
  tm_heap_diff_get_metrics (s->diff, y, NULL, &ay);
  if (tm_group_metrics_get (&ax, s->metric) != tm_group_metrics_get (&ay, s->metric))
    return tm_group_metrics_get (&ax, s->metric) > tm_group_metrics_get (&ay, s->metric) ? -1 : 1;
  return x < y ? -1 : 1;
}

GArray *
tm_heap_diff_sorted_children (TmHeapDiff   *diff,
                              guint32       index,
                              TmHeapMetric  metric,
                              GCancellable *cancellable,
                              GError      **error)
{
  const TmHeapDiffNode *n;
  GArray *kids;
  SortBy s = { diff, metric };

  g_return_val_if_fail (diff != NULL && index < diff->nodes->len, NULL);

  n = tm_heap_diff_node (diff, index);
  kids = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n->n_children);
  for (guint32 c = n->first_child; c < n->first_child + n->n_children; c++)
    {
      if (tm_heap_metric_needs_graph (metric) && !tm_heap_diff_compute_metrics (diff, c, cancellable, error))
        {
          g_array_unref (kids);
          return NULL;
        }
      g_array_append_val (kids, c);
    }
  if (kids->len > 1)
    g_array_sort_with_data (kids, cmp_delta, &s);
  return kids;
}

guint32
tm_heap_diff_find_path (TmHeapDiff *diff, const char *path)
{
  g_autoptr(GPtrArray) labels = NULL;
  guint32 node = 0;

  g_return_val_if_fail (diff != NULL && path != NULL, TM_CLASS_NODE_NONE);
  labels = tm_class_path_split (path);
  for (guint i = 0; i < labels->len && node != TM_CLASS_NODE_NONE; i++)
    {
      const TmHeapDiffNode *p = tm_heap_diff_node (diff, node);
      guint32 found = TM_CLASS_NODE_NONE;

      for (guint32 c = p->first_child; c < p->first_child + p->n_children && found == TM_CLASS_NODE_NONE; c++)
        if (strcmp (tm_heap_diff_node (diff, c)->label, g_ptr_array_index (labels, i)) == 0)
          found = c;
      node = found;
    }
  return node;
}
