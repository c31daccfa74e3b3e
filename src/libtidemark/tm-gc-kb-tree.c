/* SPDX-License-Identifier: GPL-3.0-or-later
 * A CART decision tree over the knowledge base (see the header). */
#include "tm-gc-kb-tree.h"

#include <math.h>
#include <string.h>

typedef struct {
  gboolean  leaf;
  guint     feature;      /* split: features.v[feature] <= threshold goes left */
  double    threshold;
  guint     left, right;  /* node indices */
  guint     label;        /* leaf: index into the tree's labels */
  GPtrArray *names;       /* leaf: workload names (borrowed from the kb) */
} Node;

struct _TmKbTree {
  GArray    *nodes;       /* Node; 0 is the root */
  GPtrArray *labels;      /* TmGcConfig*: the distinct configurations */
};

typedef struct {
  const TmKbEntry *entry;
  guint            label;
} Sample;

static double
gini (const Sample *s, guint n, guint n_labels)
{
  g_autofree guint *count = g_new0 (guint, n_labels);
  double g = 1.0;

  if (n == 0)
    return 0.0;
  for (guint i = 0; i < n; i++)
    count[s[i].label]++;
  for (guint l = 0; l < n_labels; l++)
    g -= ((double) count[l] / n) * ((double) count[l] / n);
  return g;
}

static gboolean
pure (const Sample *s, guint n)
{
  for (guint i = 1; i < n; i++)
    if (s[i].label != s[0].label)
      return FALSE;
  return TRUE;
}

/* The most frequent label, ties to the one seen first. */
static guint
majority (const Sample *s, guint n, guint n_labels)
{
  g_autofree guint *count = g_new0 (guint, n_labels);
  guint best = s[0].label;

  for (guint i = 0; i < n; i++)
    count[s[i].label]++;
  for (guint i = 0; i < n; i++)
    if (count[s[i].label] > count[best])
      best = s[i].label;
  return best;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Moves the samples with feature <= threshold to the front (keeping
 * their order); returns how many. */
static guint
partition (Sample *s, guint n, guint feature, double threshold)
{
  g_autofree Sample *tmp = g_new (Sample, n);
  guint left = 0, k = 0;

  for (guint i = 0; i < n; i++)
    if (s[i].entry->features.v[feature] <= threshold)
      tmp[k++] = s[i];
  left = k;
  for (guint i = 0; i < n; i++)
    if (!(s[i].entry->features.v[feature] <= threshold))
      tmp[k++] = s[i];
  memcpy (s, tmp, n * sizeof *s);
  return left;
}

static guint
grow (TmKbTree *tree, Sample *s, guint n, guint depth, guint max_depth)
{
  guint n_labels = tree->labels->len;
  guint index = tree->nodes->len;
  double parent = gini (s, n, n_labels), best_score = parent;
  guint best_feature = G_MAXUINT;
  double best_threshold = 0;
  Node node = { 0 };

  g_array_set_size (tree->nodes, index + 1);
  if (n > 1 && depth < max_depth && !pure (s, n))
    for (guint f = 0; f < TM_GC_N_FEATURES; f++)
      {
        g_autofree double *v = g_new (double, n);
        for (guint i = 0; i < n; i++)
          v[i] = s[i].entry->features.v[f];
        qsort (v, n, sizeof *v, compare_doubles);
        for (guint i = 0; i + 1 < n; i++)
          {
            double t;
            g_autofree Sample *copy = NULL;
            guint left;
            double score;

            if (!(v[i + 1] > v[i]))
              continue;
            t = (v[i] + v[i + 1]) / 2;
            copy = g_memdup2 (s, n * sizeof *s);
            left = partition (copy, n, f, t);
            score = (left * gini (copy, left, n_labels) + (n - left) * gini (copy + left, n - left, n_labels)) / n;
            /* strictly better only: ties keep the lower feature and threshold */
            if (score < best_score - 1e-12)
              {
                best_score = score;
                best_feature = f;
                best_threshold = t;
              }
          }
      }
  if (best_feature == G_MAXUINT)
    {
      node.leaf = TRUE;
      node.label = majority (s, n, n_labels);
      node.names = g_ptr_array_new ();
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (node.names, s[i].entry->name);
      g_array_index (tree->nodes, Node, index) = node;
      return index;
    }
  {
    guint left = partition (s, n, best_feature, best_threshold);
    guint l = grow (tree, s, left, depth + 1, max_depth);
    guint r = grow (tree, s + left, n - left, depth + 1, max_depth);

    node.feature = best_feature;
    node.threshold = best_threshold;
    node.left = l;
    node.right = r;
    g_array_index (tree->nodes, Node, index) = node;
  }
  return index;
}

TmKbTree *
tm_kb_tree_build (const TmKb *kb, TmGoal goal, guint max_depth)
{
  g_autofree Sample *s = g_new (Sample, MAX (kb->entries->len, 1));
  TmKbTree *tree;
  guint n = 0;

  g_return_val_if_fail (goal < TM_N_GOALS, NULL);
  tree = g_new0 (TmKbTree, 1);
  tree->nodes = g_array_new (FALSE, TRUE, sizeof (Node));
  tree->labels = g_ptr_array_new ();
  for (guint i = 0; i < kb->entries->len; i++)
    {
      const TmKbEntry *e = kb->entries->pdata[i];
      guint label = G_MAXUINT;

      if (!e->has_best[goal])
        continue;
      for (guint l = 0; l < tree->labels->len && label == G_MAXUINT; l++)
        if (tm_gc_config_equal (tree->labels->pdata[l], &e->best[goal]))
          label = l;
      if (label == G_MAXUINT)
        {
          label = tree->labels->len;
          g_ptr_array_add (tree->labels, (gpointer) &e->best[goal]);
        }
      s[n++] = (Sample) { e, label };
    }
  if (n == 0)
    {
      tm_kb_tree_free (tree);
      return NULL;
    }
  grow (tree, s, n, 0, max_depth);
  return tree;
}

void
tm_kb_tree_free (TmKbTree *tree)
{
  if (tree == NULL)
    return;
  for (guint i = 0; i < tree->nodes->len; i++)
    g_clear_pointer (&g_array_index (tree->nodes, Node, i).names, g_ptr_array_unref);
  g_array_unref (tree->nodes);
  g_ptr_array_unref (tree->labels);
  g_free (tree);
}

guint
tm_kb_tree_n_nodes (const TmKbTree *tree)
{
  return tree->nodes->len;
}

static char *
format_number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.3g", v));
}

void
tm_kb_tree_decide (const TmKbTree *tree, const TmGcFeatures *f, TmKbDecision *out)
{
  const Node *node = &g_array_index (tree->nodes, Node, 0);
  double lo[TM_GC_N_FEATURES], hi[TM_GC_N_FEATURES];
  guint order[TM_GC_N_FEATURES], n_order = 0;

  for (guint k = 0; k < TM_GC_N_FEATURES; k++)
    {
      lo[k] = -INFINITY;
      hi[k] = INFINITY;
    }
  /* the path's bounds, the tightest per feature, in the order the
   * features first appear (a path may split one feature more than once) */
  while (!node->leaf)
    {
      gboolean left = f->v[node->feature] <= node->threshold;
      gboolean seen = FALSE;

      for (guint i = 0; i < n_order; i++)
        seen = seen || order[i] == node->feature;
      if (!seen)
        order[n_order++] = node->feature;
      if (left)
        hi[node->feature] = MIN (hi[node->feature], node->threshold);
      else
        lo[node->feature] = MAX (lo[node->feature], node->threshold);
      node = &g_array_index (tree->nodes, Node, left ? node->left : node->right);
    }
  out->conditions = g_ptr_array_new_with_free_func (g_free);
  out->like = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n_order; i++)
    {
      guint k = order[i];
      g_autofree char *l = format_number (lo[k]);
      g_autofree char *h = format_number (hi[k]);
      const char *name = tm_gc_feature_names[k];

      if (isfinite (lo[k]) && isfinite (hi[k]))
        g_ptr_array_add (out->conditions, g_strdup_printf ("%s < %s <= %s", l, name, h));
      else if (isfinite (lo[k]))
        g_ptr_array_add (out->conditions, g_strdup_printf ("%s > %s", name, l));
      else
        g_ptr_array_add (out->conditions, g_strdup_printf ("%s <= %s", name, h));
    }
  tm_gc_config_copy (&out->config, tree->labels->pdata[node->label]);
  for (guint i = 0; i < node->names->len; i++)
    g_ptr_array_add (out->like, g_strdup (node->names->pdata[i]));
}

void
tm_kb_decision_clear (TmKbDecision *d)
{
  tm_gc_config_clear (&d->config);
  g_clear_pointer (&d->conditions, g_ptr_array_unref);
  g_clear_pointer (&d->like, g_ptr_array_unref);
}
