/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Classification trees: the items of a heap state grouped level by level
 * with a counting sort per group (keys are small dense integers), so
 * building costs O(items x levels) plus sorting each group's distinct
 * keys.  Deep and retained sizes are filled in on demand.
 */
#include "tm-classify.h"
#include "tm-heap-analysis-private.h"
#include "tm-error.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  guint32 key, first, count;
  guint64 bytes;
} Child;

static int
cmp_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

static int
cmp_child_bytes_desc (const void *a, const void *b)
{
  const Child *x = a, *y = b;
  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

TmClassTree *
tm_class_tree_new (TmHeapAnalysis     *heap,
                   const TmClassifier *chain,
                   guint               depth,
                   GCancellable       *cancellable,
                   GError            **error)
{
  g_autoptr(TmClassTree) tree = NULL;
  TmTrace *trace;
  const guint32 *objects;
  guint32 n, gc_id, max_domain = 1;
  g_autofree guint32 *keys = NULL;
  g_autofree guint32 *tmp = NULL;
  g_autofree guint32 *count = NULL;
  g_autofree guint64 *kbytes = NULL;
  g_autofree guint32 *msize = NULL;     /* sizes in member order (saturated) */
  g_autofree guint32 *tmp_size = NULL;
  g_autofree guint32 *mkey = NULL;      /* keys of one segment, in member order */
  g_autoptr(GArray) touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (Child));
  TmClassNode root = { 0 };
  guint32 level_start = 0, level_end;

  g_return_val_if_fail (heap != NULL, NULL);
  g_return_val_if_fail (chain != NULL || depth == 0, NULL);
  g_return_val_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH, NULL);

  trace = tm_heap_analysis_get_trace (heap);
  gc_id = tm_heap_analysis_get_gc (heap);
  objects = tm_heap_analysis_get_objects (heap, &n);

  tree = g_new0 (TmClassTree, 1);
  tree->ref_count = 1;
  g_mutex_init (&tree->lock);
  tree->heap = tm_heap_analysis_ref (heap);
  tree->depth = depth;
  memcpy (tree->chain, chain, depth * sizeof *chain);
  tree->nodes = g_array_new (FALSE, FALSE, sizeof (TmClassNode));
  tree->members = g_new (guint32, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    tree->members[i] = i;

  root.parent = TM_CLASS_NODE_NONE;
  root.count = n;
  root.m.objects = n;
  /* sizes travel with the members through every counting sort, so each
   * group's bytes are summed from a sequential array */
  msize = g_new (guint32, MAX (n, 1));
  tmp_size = g_new (guint32, MAX (n, 1));
  mkey = g_new (guint32, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      guint64 size = tm_object_sizes_get (&heap->sizes, objects[i]);
      msize[i] = (guint32) MIN (size, G_MAXUINT32);
      root.m.bytes += size;
    }
  g_array_append_val (tree->nodes, root);

  for (guint l = 0; l < depth; l++)
    max_domain = MAX (max_domain, tm_classifier_domain (chain[l], trace, gc_id));
  keys = g_new (guint32, MAX (n, 1));
  tmp = g_new (guint32, MAX (n, 1));
  count = g_new0 (guint32, max_domain);
  kbytes = g_new0 (guint64, max_domain);

  for (guint l = 0; l < depth; l++)
    {
      guint32 domain = tm_classifier_domain (chain[l], trace, gc_id);

      /* keys[item] for this level */
      tm_classifier_keys (chain[l], trace, gc_id, objects, n, keys);
      for (guint32 i = 0; i < n; i++)
        if (G_UNLIKELY (keys[i] >= domain))
          keys[i] = 0;

      level_end = tree->nodes->len;
      for (guint32 p = level_start; p < level_end; p++)
        {
          TmClassNode *parent = &g_array_index (tree->nodes, TmClassNode, p);
          guint32 first = parent->first, cnt = parent->count;
          guint32 *seg = tree->members + first;
          guint32 *seg_size = msize + first;
          guint32 off = 0;

          g_array_set_size (touched, 0);
          for (guint32 i = 0; i < cnt; i++)
            {
              guint32 k = keys[seg[i]];
              mkey[i] = k;
              kbytes[k] += G_LIKELY (seg_size[i] != G_MAXUINT32)
                           ? seg_size[i] : tm_object_sizes_get (&heap->sizes, objects[seg[i]]);
              if (count[k]++ == 0)
                g_array_append_val (touched, k);
            }
          qsort (touched->data, touched->len, sizeof (guint32), cmp_u32);

          g_array_set_size (children, touched->len);
          for (guint32 t = 0; t < touched->len; t++)
            {
              guint32 k = g_array_index (touched, guint32, t);
              Child *c = &g_array_index (children, Child, t);
              c->key = k;
              c->first = first + off;
              c->count = count[k];
              c->bytes = kbytes[k];
              kbytes[k] = 0;
              count[k] = off;       /* becomes the fill cursor */
              off += c->count;
            }
          for (guint32 i = 0; i < cnt; i++)
            {
              guint32 at = count[mkey[i]]++;
              tmp[at] = seg[i];
              tmp_size[at] = seg_size[i];
            }
          memcpy (seg, tmp, cnt * sizeof *seg);
          memcpy (seg_size, tmp_size, cnt * sizeof *seg_size);
          for (guint32 t = 0; t < touched->len; t++)
            {
              Child *c = &g_array_index (children, Child, t);
              count[c->key] = 0;
            }
          qsort (children->data, children->len, sizeof (Child), cmp_child_bytes_desc);

          parent->first_child = tree->nodes->len;
          parent->n_children = children->len;
          for (guint32 t = 0; t < children->len; t++)
            {
              const Child *c = &g_array_index (children, Child, t);
              TmClassNode node = { 0 };

              node.key = c->key;
              node.parent = p;
              node.level = l + 1;
              node.first = c->first;
              node.count = c->count;
              node.m.objects = c->count;
              node.m.bytes = c->bytes;
              /* may move the array: `parent` is not used after this */
              g_array_append_val (tree->nodes, node);
            }

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return NULL;
        }
      level_start = level_end;
    }

  return g_steal_pointer (&tree);
}

TmClassTree *
tm_class_tree_ref (TmClassTree *tree)
{
  g_return_val_if_fail (tree != NULL, NULL);
  g_atomic_int_inc (&tree->ref_count);
  return tree;
}

void
tm_class_tree_unref (TmClassTree *tree)
{
  if (tree == NULL || !g_atomic_int_dec_and_test (&tree->ref_count))
    return;
  g_array_unref (tree->nodes);
  g_free (tree->members);
  tm_heap_analysis_unref (tree->heap);
  g_mutex_clear (&tree->lock);
  g_free (tree);
}

char *
tm_class_tree_node_label (TmClassTree *tree, guint32 index)
{
  const TmClassNode *node;

  g_return_val_if_fail (tree != NULL && index < tree->nodes->len, NULL);

  node = tm_class_tree_node (tree, index);
  if (node->level == 0)
    return g_strdup ("Overall");
  return tm_classifier_key_label (tree->chain[node->level - 1],
                                  tm_heap_analysis_get_trace (tree->heap), node->key);
}

gboolean
tm_class_tree_compute_metrics (TmClassTree   *tree,
                               guint32        index,
                               GCancellable  *cancellable,
                               GError       **error)
{
  TmClassNode *node;
  TmGroupMetrics m;
  gboolean done;

  g_return_val_if_fail (tree != NULL && index < tree->nodes->len, FALSE);

  node = &g_array_index (tree->nodes, TmClassNode, index);
  g_mutex_lock (&tree->lock);
  done = node->has_metrics;
  g_mutex_unlock (&tree->lock);
  if (done)
    return TRUE;

  if (!tm_heap_analysis_group_metrics (tree->heap, tree->members + node->first, node->count,
                                       TRUE, &m, cancellable, error))
    return FALSE;

  g_mutex_lock (&tree->lock);
  node->m = m;
  node->has_metrics = TRUE;
  g_mutex_unlock (&tree->lock);
  return TRUE;
}

gboolean
tm_class_tree_get_metrics (TmClassTree    *tree,
                           guint32         index,
                           TmGroupMetrics *out)
{
  const TmClassNode *node;
  gboolean done;

  g_return_val_if_fail (tree != NULL && index < tree->nodes->len, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  node = tm_class_tree_node (tree, index);
  g_mutex_lock (&tree->lock);
  done = node->has_metrics;
  *out = node->m;
  g_mutex_unlock (&tree->lock);
  return done;
}

gboolean
tm_class_tree_compute_all (TmClassTree    *tree,
                           TmProgressFunc  progress,
                           gpointer        progress_data,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_return_val_if_fail (tree != NULL, FALSE);

  for (guint32 i = 0; i < tree->nodes->len; i++)
    {
      if (!tm_class_tree_compute_metrics (tree, i, cancellable, error))
        return FALSE;
      if (progress)
        progress ((double) (i + 1) / tree->nodes->len, progress_data);
    }
  return TRUE;
}

guint32
tm_class_tree_find_child (TmClassTree *tree, guint32 parent, const char *label)
{
  const TmClassNode *p;

  g_return_val_if_fail (tree != NULL && parent < tree->nodes->len, TM_CLASS_NODE_NONE);
  g_return_val_if_fail (label != NULL, TM_CLASS_NODE_NONE);

  p = tm_class_tree_node (tree, parent);
  for (guint32 c = p->first_child; c < p->first_child + p->n_children; c++)
    {
      g_autofree char *l = tm_class_tree_node_label (tree, c);
      if (strcmp (l, label) == 0)
        return c;
    }
  return TM_CLASS_NODE_NONE;
}
