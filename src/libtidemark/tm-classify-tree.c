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

/* ---- built-in classifiers as levels ---- */

static guint32
builtin_domain (const TmClassLevel *level, TmHeapAnalysis *heap)
{
  return tm_classifier_domain (level->classifier, heap->trace, heap->gc_id);
}

static void
builtin_keys (const TmClassLevel *level, TmHeapAnalysis *heap,
              const guint32 *items, guint32 n, guint32 *keys)
{
  g_autofree guint32 *objs = NULL;

  if (items == NULL)
    {
      tm_classifier_keys (level->classifier, heap->trace, heap->gc_id, heap->objects, n, keys);
      return;
    }
  objs = g_new (guint32, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    objs[i] = heap->objects[items[i]];
  tm_classifier_keys (level->classifier, heap->trace, heap->gc_id, objs, n, keys);
}

static char *
builtin_label (const TmClassLevel *level, TmHeapAnalysis *heap, guint32 key)
{
  return tm_classifier_key_label (level->classifier, heap->trace, key);
}

void
tm_class_level_init_builtin (TmClassLevel *level, TmClassifier c)
{
  g_return_if_fail (level != NULL);
  g_return_if_fail (tm_classifier_is_per_object (c));

  memset (level, 0, sizeof *level);
  level->name = tm_classifier_to_string (c);
  level->classifier = c;
  level->domain = builtin_domain;
  level->keys = builtin_keys;
  level->label = builtin_label;
}

/* ---- building ----
 *
 * Members are heap items in group order; every array that travels with
 * them (sizes, and the keys of the levels still to come, computed once in
 * item order while that is still the member order) is permuted by each
 * split, so every pass over a group reads sequential memory. */

typedef struct {
  TmHeapAnalysis     *heap;
  TmClassTree        *tree;
  const TmClassLevel *levels;
  guint               depth;
  gsize               cap;
  guint32            *msize;                        /* saturated sizes */
  guint32            *carry[TM_CLASSIFY_MAX_DEPTH]; /* keys of `keys` levels */
  guint32             domain[TM_CLASSIFY_MAX_DEPTH];
  guint32            *tmp, *dest, *mkey;
  gsize               tmp_cap;
  guint32            *count;                        /* per key, kept zeroed */
  guint64            *kbytes;
  GArray             *touched, *children;
} Builder;

static void
builder_clear (Builder *b)
{
  g_free (b->msize);
  for (guint l = 0; l < TM_CLASSIFY_MAX_DEPTH; l++)
    g_free (b->carry[l]);
  g_free (b->tmp);
  g_free (b->dest);
  g_free (b->mkey);
  g_free (b->count);
  g_free (b->kbytes);
  g_clear_pointer (&b->touched, g_array_unref);
  g_clear_pointer (&b->children, g_array_unref);
}

static void
ensure_tmp (Builder *b, gsize n)
{
  if (n <= b->tmp_cap)
    return;
  b->tmp_cap = MAX (n, b->tmp_cap * 2);
  b->tmp = g_renew (guint32, b->tmp, b->tmp_cap);
  b->dest = g_renew (guint32, b->dest, b->tmp_cap);
  b->mkey = g_renew (guint32, b->mkey, b->tmp_cap);
}

static guint64
member_size (Builder *b, gsize at)
{
  return G_LIKELY (b->msize[at] != G_MAXUINT32)
         ? b->msize[at] : tm_object_sizes_get (&b->heap->sizes, b->heap->objects[b->tree->members[at]]);
}

static void
clamp_keys (guint32 *keys, gsize n, guint32 domain)
{
  for (gsize i = 0; i < n; i++)
    if (G_UNLIKELY (keys[i] >= domain))
      keys[i] = 0;
}

/* Appends n members at the end (items NULL: every heap item, in order),
 * with their sizes and the keys of the `keys` levels after `level`;
 * returns where they start. */
static gsize
append_members (Builder *b, const guint32 *items, gsize n, guint level)
{
  TmClassTree *tree = b->tree;
  gsize at = tree->n_members;

  if (at + n > b->cap)
    {
      b->cap = MAX (at + n, b->cap + b->cap / 2);
      tree->members = g_renew (guint32, tree->members, MAX (b->cap, 1));
      b->msize = g_renew (guint32, b->msize, MAX (b->cap, 1));
      for (guint l = 0; l < b->depth; l++)
        if (b->levels[l].keys != NULL)
          b->carry[l] = g_renew (guint32, b->carry[l], MAX (b->cap, 1));
    }
  for (gsize i = 0; i < n; i++)
    {
      guint32 item = items ? items[i] : (guint32) i;
      guint64 size = tm_object_sizes_get (&b->heap->sizes, b->heap->objects[item]);
      tree->members[at + i] = item;
      b->msize[at + i] = (guint32) MIN (size, G_MAXUINT32);
    }
  for (guint l = level; l < b->depth; l++)
    if (b->levels[l].keys != NULL)
      {
        b->levels[l].keys (&b->levels[l], b->heap, items, (guint32) n, b->carry[l] + at);
        clamp_keys (b->carry[l] + at, n, b->domain[l]);
      }
  tree->n_members += n;
  return at;
}

/* Applies the split's permutation (dest) to n entries of arr. */
static void
permute (Builder *b, guint32 *arr, gsize n)
{
  for (gsize i = 0; i < n; i++)
    b->tmp[b->dest[i]] = arr[i];
  memcpy (arr, b->tmp, n * sizeof *arr);
}

/* Groups members [first, first+cnt), whose keys are mk[0..cnt), by a
 * counting sort in place, and adds the children of node p (at level
 * `level`, 1-based). */
static void
split (Builder *b, guint32 p, guint level, gsize first, gsize cnt, const guint32 *mk)
{
  TmClassTree *tree = b->tree;
  guint32 off = 0;

  ensure_tmp (b, cnt);
  g_array_set_size (b->touched, 0);
  for (gsize i = 0; i < cnt; i++)
    {
      guint32 k = mk[i];
      b->kbytes[k] += member_size (b, first + i);
      if (b->count[k]++ == 0)
        g_array_append_val (b->touched, k);
    }
  if (b->touched->len > 1)   /* qsort (NULL, 0, ...) is undefined */
    qsort (b->touched->data, b->touched->len, sizeof (guint32), cmp_u32);

  g_array_set_size (b->children, b->touched->len);
  for (guint32 t = 0; t < b->touched->len; t++)
    {
      guint32 k = g_array_index (b->touched, guint32, t);
      Child *c = &g_array_index (b->children, Child, t);
      c->key = k;
      c->first = (guint32) first + off;
      c->count = b->count[k];
      c->bytes = b->kbytes[k];
      b->kbytes[k] = 0;
      b->count[k] = off;       /* becomes the fill cursor */
      off += c->count;
    }
  for (gsize i = 0; i < cnt; i++)
    b->dest[i] = b->count[mk[i]]++;
  for (guint32 t = 0; t < b->touched->len; t++)
    b->count[g_array_index (b->children, Child, t).key] = 0;

  permute (b, tree->members + first, cnt);
  permute (b, b->msize + first, cnt);
  for (guint l = level; l < b->depth; l++)
    if (b->carry[l] != NULL)
      permute (b, b->carry[l] + first, cnt);
  if (b->children->len > 1)
    qsort (b->children->data, b->children->len, sizeof (Child), cmp_child_bytes_desc);

  {
    TmClassNode *parent = &g_array_index (tree->nodes, TmClassNode, p);
    parent->first_child = tree->nodes->len;
    parent->n_children = b->children->len;
  }
  for (guint32 t = 0; t < b->children->len; t++)
    {
      const Child *c = &g_array_index (b->children, Child, t);
      TmClassNode node = { 0 };

      node.key = c->key;
      node.parent = p;
      node.level = level;
      node.first = c->first;
      node.count = c->count;
      node.m.objects = c->count;
      node.m.bytes = c->bytes;
      g_array_append_val (tree->nodes, node);
    }
}

TmClassTree *
tm_class_tree_new_for_levels (TmHeapAnalysis     *heap,
                              const TmClassLevel *levels,
                              guint               depth,
                              GCancellable       *cancellable,
                              GError            **error)
{
  g_autoptr(TmClassTree) tree = NULL;
  Builder b = { 0 };
  g_autoptr(GArray) pkeys = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) pitems = g_array_new (FALSE, FALSE, sizeof (guint32));
  TmClassNode root = { 0 };
  guint32 n, max_domain = 1, level_start = 0;
  gboolean ok = TRUE;

  g_return_val_if_fail (heap != NULL, NULL);
  g_return_val_if_fail (levels != NULL || depth == 0, NULL);
  g_return_val_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH, NULL);
  for (guint l = 0; l < depth; l++)
    g_return_val_if_fail ((levels[l].keys != NULL) != (levels[l].pairs != NULL), NULL);

  tm_heap_analysis_get_objects (heap, &n);
  tree = g_new0 (TmClassTree, 1);
  tree->ref_count = 1;
  g_mutex_init (&tree->lock);
  tree->heap = tm_heap_analysis_ref (heap);
  tree->depth = depth;
  for (guint l = 0; l < depth; l++)
    {
      tree->levels[l] = levels[l];
      tree->chain[l] = levels[l].classifier;
    }
  tree->nodes = g_array_new (FALSE, FALSE, sizeof (TmClassNode));

  b.heap = heap;
  b.tree = tree;
  b.levels = levels;
  b.depth = depth;
  b.touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.children = g_array_new (FALSE, FALSE, sizeof (Child));
  for (guint l = 0; l < depth; l++)
    {
      b.domain[l] = MAX (levels[l].domain (&levels[l], heap), 1);
      max_domain = MAX (max_domain, b.domain[l]);
    }
  b.count = g_new0 (guint32, max_domain);
  b.kbytes = g_new0 (guint64, max_domain);

  append_members (&b, NULL, n, 0);
  root.parent = TM_CLASS_NODE_NONE;
  root.count = n;
  root.m.objects = n;
  for (guint32 i = 0; i < n; i++)
    root.m.bytes += member_size (&b, i);
  g_array_append_val (tree->nodes, root);

  for (guint l = 0; l < depth && ok; l++)
    {
      const TmClassLevel *level = &levels[l];
      guint32 level_end = tree->nodes->len;

      for (guint32 p = level_start; p < level_end; p++)
        {
          const TmClassNode *parent = &g_array_index (tree->nodes, TmClassNode, p);
          gsize first = parent->first, cnt = parent->count;

          if (level->keys != NULL)
            split (&b, p, l + 1, first, cnt, b.carry[l] + first);
          else
            {
              /* several keys per item, or none: the children's members
               * are a new run at the end */
              g_array_set_size (pkeys, 0);
              g_array_set_size (pitems, 0);
              level->pairs (level, heap, tree->members + first, (guint32) cnt, pkeys, pitems);
              if (pkeys->len != pitems->len)
                {
                  g_set_error (error, TM_ERROR, TM_ERROR_FAILED, "level %s gave %u keys for %u items",
                               level->name, pkeys->len, pitems->len);
                  ok = FALSE;
                  break;
                }
              first = append_members (&b, (const guint32 *) (gpointer) pitems->data, pitems->len, l + 1);
              cnt = pitems->len;
              ensure_tmp (&b, cnt);
              memcpy (b.mkey, pkeys->data, cnt * sizeof (guint32));
              clamp_keys (b.mkey, cnt, b.domain[l]);
              split (&b, p, l + 1, first, cnt, b.mkey);
            }

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              ok = FALSE;
              break;
            }
        }
      level_start = level_end;
    }

  builder_clear (&b);
  if (!ok)
    return NULL;
  return g_steal_pointer (&tree);
}

TmClassTree *
tm_class_tree_new (TmHeapAnalysis     *heap,
                   const TmClassifier *chain,
                   guint               depth,
                   GCancellable       *cancellable,
                   GError            **error)
{
  TmClassLevel levels[TM_CLASSIFY_MAX_DEPTH];

  g_return_val_if_fail (heap != NULL, NULL);
  g_return_val_if_fail (chain != NULL || depth == 0, NULL);
  g_return_val_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH, NULL);

  for (guint l = 0; l < depth; l++)
    tm_class_level_init_builtin (&levels[l], chain[l]);
  return tm_class_tree_new_for_levels (heap, levels, depth, cancellable, error);
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
  for (guint l = 0; l < tree->depth; l++)
    if (tree->levels[l].data_free != NULL)
      tree->levels[l].data_free (tree->levels[l].data);
  g_clear_pointer (&tree->nodes, g_array_unref);
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
  {
    const TmClassLevel *level = &tree->levels[node->level - 1];
    return level->label (level, tree->heap, node->key);
  }
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

GPtrArray *
tm_class_path_split (const char *path)
{
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  GString *label = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, labels);
  for (const char *c = path; ; c++)
    {
      if (*c == '\\' && (c[1] == '/' || c[1] == '\\'))
        g_string_append_c (label, *++c);
      else if (*c == '/' || *c == '\0')
        {
          g_ptr_array_add (labels, g_strdup (label->str));
          g_string_truncate (label, 0);
          if (*c == '\0')
            break;
        }
      else
        g_string_append_c (label, *c);
    }
  g_string_free (label, TRUE);
  return labels;
}

guint32
tm_class_tree_find_path (TmClassTree *tree, const char *path)
{
  g_autoptr(GPtrArray) labels = NULL;
  guint32 node = 0;

  g_return_val_if_fail (tree != NULL && path != NULL, TM_CLASS_NODE_NONE);
  labels = tm_class_path_split (path);
  for (guint i = 0; i < labels->len && node != TM_CLASS_NODE_NONE; i++)
    node = tm_class_tree_find_child (tree, node, g_ptr_array_index (labels, i));
  return node;
}
