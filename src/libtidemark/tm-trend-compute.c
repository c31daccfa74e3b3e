/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Computing TrendViz series.
 *
 * One pass (shallow metrics, GC-independent classifiers): an object is in
 * the heap state after GC g iff birth < g < death (tm-trace.h), so over
 * the planned GCs P[0..m) it is counted at the points [p0, p1) with
 * p0 = first point after its birth and p1 = first point at or after its
 * death.  Adding +v at p0 and -v at p1 of its group's difference array
 * and prefix-summing at the end gives every series exactly, in
 * O(objects + groups x points) instead of O(objects x points).
 *
 * Per GC (deep/retained metrics, or `age` in the levels used): classify
 * the heap state of each planned GC, and hand out a snapshot after each.
 * Data-structure levels also go through each GC's tree; their keys are
 * structure indices of that GC's detection, so their series are matched
 * across GCs by label (the head's type and object id).
 */
#include "tm-trend-private.h"
#include "tm-error.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#define CHUNK (1u << 20)
#define NO_SLOT G_MAXUINT32

typedef struct {
  TmTrace              *trace;
  const TmTrendRequest *req;
  const guint32        *plan;
  guint                 m;
  TmClassifier          level_c;
  gboolean              level_ds;     /* a data-structure or root-path level: slots by label */
  guint32               domain;       /* of level_c over the whole trace */
  guint32              *slot_of_key;  /* domain entries, NO_SLOT if unseen */
  GHashTable           *slot_of_label;/* label -> slot + 1 (data-structure levels) */
  GArray               *slot_key;     /* guint32 */
  GPtrArray            *slot_label;   /* char* */
  GPtrArray            *slot_values;  /* gint64 diffs (m + 1) or double values (m) */
  gboolean              use_diff;
  TmHeapCache          *heaps;        /* heap states and data-structure detections */
} Acc;

static void
acc_init (Acc *acc, TmTrace *trace, const TmTrendRequest *req, const guint32 *plan, guint m,
          gboolean use_diff)
{
  memset (acc, 0, sizeof *acc);
  acc->trace = trace;
  acc->req = req;
  acc->plan = plan;
  acc->m = m;
  acc->level_c = req->chain[req->n_drill];
  acc->level_ds = tm_chain_classifier_needs_graph (acc->level_c);
  acc->domain = acc->level_ds ? 0 : tm_classifier_domain (acc->level_c, trace, tm_trace_n_gcs (trace));
  acc->slot_of_key = g_new (guint32, MAX (acc->domain, 1));
  memset (acc->slot_of_key, 0xff, acc->domain * sizeof (guint32));
  acc->slot_of_label = g_hash_table_new (g_str_hash, g_str_equal);
  acc->slot_key = g_array_new (FALSE, FALSE, sizeof (guint32));
  acc->slot_label = g_ptr_array_new_with_free_func (g_free);
  acc->slot_values = g_ptr_array_new_with_free_func (g_free);
  acc->use_diff = use_diff;
}

static void
acc_clear (Acc *acc)
{
  g_free (acc->slot_of_key);
  g_hash_table_unref (acc->slot_of_label);
  g_clear_pointer (&acc->heaps, tm_heap_cache_unref);
  g_array_unref (acc->slot_key);
  g_ptr_array_unref (acc->slot_label);
  g_ptr_array_unref (acc->slot_values);
}

static guint32
acc_slot (Acc *acc, guint32 key)
{
  guint32 slot;

  if (G_UNLIKELY (key >= acc->domain))
    key = 0;
  slot = acc->slot_of_key[key];
  if (slot != NO_SLOT)
    return slot;
  slot = acc->slot_key->len;
  acc->slot_of_key[key] = slot;
  g_array_append_val (acc->slot_key, key);
  g_ptr_array_add (acc->slot_label, tm_classifier_key_label (acc->level_c, acc->trace, key));
  if (acc->use_diff)
    g_ptr_array_add (acc->slot_values, g_new0 (gint64, acc->m + 1));
  else
    g_ptr_array_add (acc->slot_values, g_new0 (double, MAX (acc->m, 1)));
  return slot;
}

/* The slot of a data-structure group, by its label. */
static guint32
acc_slot_label (Acc *acc, guint32 key, char *label)
{
  gpointer found = g_hash_table_lookup (acc->slot_of_label, label);
  guint32 slot;

  if (found != NULL)
    {
      g_free (label);
      return GPOINTER_TO_UINT (found) - 1;
    }
  slot = acc->slot_key->len;
  g_array_append_val (acc->slot_key, key);
  g_ptr_array_add (acc->slot_label, label);   /* owns it; the table borrows it */
  g_hash_table_insert (acc->slot_of_label, label, GUINT_TO_POINTER (slot + 1));
  g_ptr_array_add (acc->slot_values, g_new0 (double, MAX (acc->m, 1)));
  return slot;
}

static int
cmp_series_last (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const TmTrendSeries *x = *(TmTrendSeries * const *) a, *y = *(TmTrendSeries * const *) b;
  guint last = GPOINTER_TO_UINT (user_data);
  double vx = last ? x->values[last - 1] : 0, vy = last ? y->values[last - 1] : 0;

  if (vx != vy)
    return vx > vy ? -1 : 1;
  return strcmp (x->key, y->key);
}

/* An immutable TmTrend of the first n points. */
static TmTrend *
acc_snapshot (Acc *acc, guint n)
{
  TmTrend *t = g_new0 (TmTrend, 1);

  t->ref_count = 1;
  t->trace = tm_trace_ref (acc->trace);
  tm_trend_request_copy (&t->request, acc->req);
  t->level_classifier = acc->level_c;
  t->n_points = n;
  t->n_planned = acc->m;
  t->complete = n == acc->m;
  t->gcs = g_new0 (guint32, MAX (n, 1));
  t->times_ns = g_new0 (guint64, MAX (n, 1));
  t->total = g_new0 (double, MAX (n, 1));
  t->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_trend_series_free);

  for (guint p = 0; p < n; p++)
    {
      t->gcs[p] = acc->plan[p];
      t->times_ns[p] = tm_trend_gc_time (tm_trace_gc (acc->trace, acc->plan[p]));
    }

  for (guint s = 0; s < acc->slot_key->len; s++)
    {
      TmTrendSeries *series = g_new0 (TmTrendSeries, 1);
      gboolean any = FALSE;

      series->key = g_strdup (g_ptr_array_index (acc->slot_label, s));
      series->key_index = g_array_index (acc->slot_key, guint32, s);
      series->values = g_new0 (double, MAX (n, 1));
      if (acc->use_diff)
        {
          const gint64 *d = g_ptr_array_index (acc->slot_values, s);
          gint64 run = 0;
          for (guint p = 0; p < n; p++)
            {
              run += d[p];
              series->values[p] = (double) run;
            }
        }
      else
        memcpy (series->values, g_ptr_array_index (acc->slot_values, s), n * sizeof (double));

      for (guint p = 0; p < n; p++)
        {
          t->total[p] += series->values[p];
          any = any || series->values[p] != 0;
        }
      if (any)
        g_ptr_array_add (t->groups, series);
      else
        tm_trend_series_free (series);
    }
  g_ptr_array_sort_with_data (t->groups, cmp_series_last, GUINT_TO_POINTER (n));
  return t;
}

/* match[key] for a drill label at one level; FALSE if no key has it. */
static gboolean
drill_match (TmTrace *trace, TmClassifier c, const char *label, guint8 **out)
{
  guint32 domain = tm_classifier_domain (c, trace, tm_trace_n_gcs (trace));
  guint8 *match = g_new0 (guint8, domain);
  gboolean any = FALSE;

  for (guint32 k = 0; k < domain; k++)
    {
      g_autofree char *l = tm_classifier_key_label (c, trace, k);
      if (strcmp (l, label) == 0)
        any = match[k] = TRUE;
    }
  *out = match;
  return any;
}

static void
no_group_error (const TmTrendRequest *req, guint level, GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
               _("no %s group '%s' in GCs %u..%u"),
               tm_chain_classifier_to_string (req->chain[level]), req->drill[level],
               req->from_gc, req->to_gc);
}

static gboolean
one_pass (Acc *acc, GCancellable *cancellable, GError **error)
{
  TmTrace *trace = acc->trace;
  const TmTrendRequest *req = acc->req;
  guint32 n_gcs = tm_trace_n_gcs (trace);
  const TmGc *gcs = (const TmGc *) (gpointer) trace->gcs->data;
  gboolean count_objects = req->metric == TM_TREND_METRIC_OBJECTS;
  g_autofree guint32 *after = g_new (guint32, (gsize) n_gcs + 2);
  g_autofree guint32 *at_or_after = g_new (guint32, (gsize) n_gcs + 2);
  guint8 *match[TM_CLASSIFY_MAX_DEPTH] = { NULL };
  g_autofree guint32 *idx = NULL;
  g_autofree guint32 *keys = NULL;
  g_autofree guint32 *fkeys = NULL;
  g_autofree guint32 *births = NULL;
  guint64 limit;
  guint32 b = 0;
  gboolean ok = FALSE;

  /* after[g]: first point with plan > g; at_or_after[g]: plan >= g */
  for (guint32 g = 0, j = 0, k = 0; g <= n_gcs + 1; g++)
    {
      while (j < acc->m && acc->plan[j] <= g)
        j++;
      while (k < acc->m && acc->plan[k] < g)
        k++;
      after[g] = j;
      at_or_after[g] = k;
    }

  for (guint l = 0; l < req->n_drill; l++)
    if (!drill_match (trace, req->chain[l], req->drill[l], &match[l]))
      {
        no_group_error (req, l, error);
        goto out;
      }

  /* only objects allocated before the last planned GC can be counted */
  limit = tm_trace_allocs_before_gc (trace, acc->plan[acc->m - 1]);
  idx = g_new (guint32, CHUNK);
  keys = g_new (guint32, CHUNK);
  fkeys = g_new (guint32, req->n_drill ? CHUNK : 1);
  births = g_new (guint32, CHUNK);

  for (guint64 start = 0; start < limit; start += CHUNK)
    {
      guint32 n = (guint32) MIN (CHUNK, limit - start);
      guint32 kept = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;

      /* keep only the objects alive at some point, then classify those */
      for (guint32 i = 0; i < n; i++)
        {
          guint32 o = (guint32) (start + i);
          guint32 death = trace->obj_death[o];

          while (b < n_gcs && gcs[b].allocs_before <= o)
            b++;
          if (after[b] < (death == TM_ALIVE ? acc->m : at_or_after[MIN (death, n_gcs + 1)]))
            {
              births[kept] = b;
              idx[kept++] = o;
            }
        }

      tm_classifier_keys (acc->level_c, trace, n_gcs, idx, kept, keys);
      for (guint l = 0; l < req->n_drill; l++)
        {
          guint32 fdomain = tm_classifier_domain (req->chain[l], trace, n_gcs);
          guint32 w = 0;

          tm_classifier_keys (req->chain[l], trace, n_gcs, idx, kept, fkeys);
          for (guint32 i = 0; i < kept; i++)
            {
              guint32 k = fkeys[i] < fdomain ? fkeys[i] : 0;
              if (match[l][k])
                {
                  idx[w] = idx[i];
                  keys[w] = keys[i];
                  births[w] = births[i];
                  w++;
                }
            }
          kept = w;
        }

      for (guint32 i = 0; i < kept; i++)
        {
          guint32 o = idx[i], death = trace->obj_death[o];
          guint32 p0 = after[births[i]];
          guint32 p1 = death == TM_ALIVE ? acc->m : at_or_after[MIN (death, n_gcs + 1)];
          gint64 v = count_objects ? 1 : (gint64) tm_trace_object_size (trace, o);
          guint32 slot = acc_slot (acc, keys[i]);   /* may grow slot_values */
          gint64 *d = g_ptr_array_index (acc->slot_values, slot);

          d[p0] += v;
          d[p1] -= v;
        }
    }

  if (req->n_drill > 0 && acc->slot_key->len == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("group '%s' has no live objects in GCs %u..%u"),
                   req->drill[req->n_drill - 1], req->from_gc, req->to_gc);
      goto out;
    }
  ok = TRUE;

out:
  for (guint l = 0; l < req->n_drill; l++)
    g_free (match[l]);
  return ok;
}

static double
node_metric (const TmClassNode *n, TmTrendMetric metric)
{
  switch (metric)
    {
    case TM_TREND_METRIC_OBJECTS:          return (double) n->m.objects;
    case TM_TREND_METRIC_BYTES:            return (double) n->m.bytes;
    case TM_TREND_METRIC_DEEP_OBJECTS:     return (double) n->m.deep_objects;
    case TM_TREND_METRIC_DEEP_BYTES:       return (double) n->m.deep_bytes;
    case TM_TREND_METRIC_RETAINED_OBJECTS: return (double) n->m.retained_objects;
    case TM_TREND_METRIC_RETAINED_BYTES:   return (double) n->m.retained_bytes;
    case TM_TREND_N_METRICS:
    default:                               return 0;
    }
}

/* One GC through its classification tree: deep/retained sizes, or any
 * metric of a chain with data-structure levels. */
static gboolean
classify_graph_gc (Acc *acc, guint p, gboolean *found, GCancellable *cancellable, GError **error)
{
  const TmTrendRequest *req = acc->req;
  g_autoptr(TmHeapAnalysis) heap = NULL;
  g_autoptr(TmClassTree) tree = NULL;
  const TmClassNode *node;
  guint32 index = 0;

  heap = tm_heap_cache_get (acc->heaps, acc->plan[p], NULL, NULL, cancellable, error);
  if (heap == NULL)
    return FALSE;
  tree = tm_classify_chain_tree (acc->heaps, heap, req->chain, req->n_drill + 1, cancellable, error);
  if (tree == NULL)
    return FALSE;

  for (guint l = 0; l < req->n_drill && index != TM_CLASS_NODE_NONE; l++)
    index = tm_class_tree_find_child (tree, index, req->drill[l]);
  if (index == TM_CLASS_NODE_NONE)
    return TRUE;
  *found = TRUE;

  node = tm_class_tree_node (tree, index);
  for (guint32 c = node->first_child; c < node->first_child + node->n_children; c++)
    {
      guint32 slot;
      double *values;

      if (tm_trend_metric_needs_graph (req->metric) &&
          !tm_class_tree_compute_metrics (tree, c, cancellable, error))
        return FALSE;
      if (acc->level_ds)
        slot = acc_slot_label (acc, tm_class_tree_node (tree, c)->key, tm_class_tree_node_label (tree, c));
      else
        slot = acc_slot (acc, tm_class_tree_node (tree, c)->key);
      values = g_ptr_array_index (acc->slot_values, slot);
      values[p] = node_metric (tm_class_tree_node (tree, c), req->metric);
    }
  return TRUE;
}

/* Shallow metrics at one GC from the model (a classifier depends on the GC). */
static gboolean
classify_live_gc (Acc *acc, guint p, guint8 **match, gboolean *found, GError **error)
{
  const TmTrendRequest *req = acc->req;
  TmTrace *trace = acc->trace;
  guint32 gc = acc->plan[p], n = 0, w;
  g_autofree guint32 *live = tm_trace_live_objects (trace, gc, &n);
  g_autofree guint32 *keys = g_new (guint32, MAX (n, 1));

  for (guint l = 0; l < req->n_drill; l++)
    {
      guint32 fdomain = tm_classifier_domain (req->chain[l], trace, tm_trace_n_gcs (trace));

      tm_classifier_keys (req->chain[l], trace, gc, live, n, keys);
      w = 0;
      for (guint32 i = 0; i < n; i++)
        if (match[l][keys[i] < fdomain ? keys[i] : 0])
          live[w++] = live[i];
      n = w;
    }
  if (n > 0 || req->n_drill == 0)
    *found = TRUE;

  tm_classifier_keys (acc->level_c, trace, gc, live, n, keys);
  for (guint32 i = 0; i < n; i++)
    {
      guint32 slot = acc_slot (acc, keys[i]);
      double *values = g_ptr_array_index (acc->slot_values, slot);
      values[p] += req->metric == TM_TREND_METRIC_OBJECTS ? 1.0
                   : (double) tm_trace_object_size (trace, live[i]);
    }
  return TRUE;
}

static gboolean
per_gc (Acc *acc, TmTrendPartialFunc partial, gpointer partial_data,
        GCancellable *cancellable, GError **error)
{
  const TmTrendRequest *req = acc->req;
  gboolean graph = tm_trend_metric_needs_graph (req->metric) || tm_trend_request_needs_graph (req);
  guint8 *match[TM_CLASSIFY_MAX_DEPTH] = { NULL };
  gboolean found = FALSE, ok = FALSE;

  if (!graph)
    for (guint l = 0; l < req->n_drill; l++)
      if (!drill_match (acc->trace, req->chain[l], req->drill[l], &match[l]))
        {
          no_group_error (req, l, error);
          goto out;
        }

  for (guint p = 0; p < acc->m; p++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (graph ? !classify_graph_gc (acc, p, &found, cancellable, error)
                : !classify_live_gc (acc, p, match, &found, error))
        goto out;
      if (partial && p + 1 < acc->m)
        {
          g_autoptr(TmTrend) snap = acc_snapshot (acc, p + 1);
          partial (snap, partial_data);
        }
    }
  if (!found)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("no group '%s' in GCs %u..%u"), req->drill[req->n_drill - 1],
                   req->from_gc, req->to_gc);
      goto out;
    }
  ok = TRUE;

out:
  for (guint l = 0; l < req->n_drill; l++)
    g_free (match[l]);
  return ok;
}

static gboolean
uses_age (const TmTrendRequest *req)
{
  for (guint l = 0; l <= req->n_drill; l++)
    if (req->chain[l] == TM_CLASSIFIER_AGE)
      return TRUE;
  return FALSE;
}

TmTrend *
tm_trend_compute (TmTrace              *trace,
                  const TmTrendRequest *request,
                  TmTrendPartialFunc    partial,
                  gpointer              partial_data,
                  GCancellable         *cancellable,
                  GError              **error)
{
  return tm_trend_compute_cached (trace, request, NULL, partial, partial_data, cancellable, error);
}

TmTrend *
tm_trend_compute_cached (TmTrace              *trace,
                         const TmTrendRequest *request,
                         TmHeapCache          *heaps,
                         TmTrendPartialFunc    partial,
                         gpointer              partial_data,
                         GCancellable         *cancellable,
                         GError              **error)
{
  g_autoptr(GArray) plan = NULL;
  gboolean one;
  TmTrend *result = NULL;
  Acc acc;

  g_return_val_if_fail (trace != NULL && request != NULL, NULL);
  g_return_val_if_fail (request->depth >= 1 && request->depth <= TM_CLASSIFY_MAX_DEPTH, NULL);
  g_return_val_if_fail (request->n_drill < request->depth, NULL);
  g_return_val_if_fail (request->metric < TM_TREND_N_METRICS, NULL);
  g_return_val_if_fail (heaps == NULL || tm_heap_cache_get_trace (heaps) == trace, NULL);

  if (request->from_gc < 1 || request->from_gc > request->to_gc ||
      request->from_gc > tm_trace_n_gcs (trace))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("window GC %u..%u is not inside the trace's GCs 1..%u"),
                   request->from_gc, request->to_gc, tm_trace_n_gcs (trace));
      return NULL;
    }

  plan = tm_trend_plan_gcs (trace, request);
  if (plan->len == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH,
                   _("no GC in %u..%u has a reference graph, which %s needs"),
                   request->from_gc, request->to_gc,
                   tm_trend_metric_needs_graph (request->metric) ? tm_trend_metric_to_string (request->metric)
                   : tm_trend_request_uses_ds (request) ? "data structure detection" : "root-path");
      return NULL;
    }

  one = !tm_trend_metric_needs_graph (request->metric) && !uses_age (request) &&
        !tm_trend_request_needs_graph (request);
  acc_init (&acc, trace, request, (const guint32 *) (gpointer) plan->data, plan->len, one);
  /* without a cache, states are built for this computation and dropped */
  acc.heaps = heaps ? tm_heap_cache_ref (heaps) : tm_heap_cache_new (trace, NULL, -1, 0);
  if (one ? one_pass (&acc, cancellable, error)
          : per_gc (&acc, partial, partial_data, cancellable, error))
    {
      result = acc_snapshot (&acc, plan->len);
      if (partial)
        partial (result, partial_data);
    }
  acc_clear (&acc);
  return result;
}
