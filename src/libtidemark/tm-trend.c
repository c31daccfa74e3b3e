/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TrendViz requests, names, the plan of classified GCs, and the series
 * selection (sorting, top N, Other).  The computation itself lives in
 * tm-trend-compute.c.
 */
#include "tm-trend-private.h"
#include "tm-error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

static const char *metric_names[TM_TREND_N_METRICS] = {
  "objects", "bytes", "deep-objects", "deep-bytes", "retained-objects", "retained-bytes",
};

static const char *sort_names[TM_TREND_N_SORTS] = {
  "start", "end", "average", "abs-growth", "rel-growth",
};

const char *
tm_trend_metric_to_string (TmTrendMetric metric)
{
  g_return_val_if_fail (metric < TM_TREND_N_METRICS, "unknown");
  return metric_names[metric];
}

gboolean
tm_trend_metric_from_string (const char *name, TmTrendMetric *out)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < TM_TREND_N_METRICS; i++)
    if (strcmp (name, metric_names[i]) == 0)
      {
        if (out)
          *out = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
tm_trend_metric_is_bytes (TmTrendMetric metric)
{
  return metric == TM_TREND_METRIC_BYTES || metric == TM_TREND_METRIC_DEEP_BYTES ||
         metric == TM_TREND_METRIC_RETAINED_BYTES;
}

gboolean
tm_trend_metric_needs_graph (TmTrendMetric metric)
{
  return metric >= TM_TREND_METRIC_DEEP_OBJECTS;
}

const char *
tm_trend_sort_to_string (TmTrendSort sort)
{
  g_return_val_if_fail (sort < TM_TREND_N_SORTS, "unknown");
  return sort_names[sort];
}

gboolean
tm_trend_sort_from_string (const char *name, TmTrendSort *out)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < TM_TREND_N_SORTS; i++)
    if (strcmp (name, sort_names[i]) == 0)
      {
        if (out)
          *out = i;
        return TRUE;
      }
  return FALSE;
}

void
tm_trend_request_init (TmTrendRequest *request)
{
  g_return_if_fail (request != NULL);
  memset (request, 0, sizeof *request);
  request->chain[0] = TM_CLASSIFIER_TYPE;
  request->depth = 1;
  request->metric = TM_TREND_METRIC_BYTES;
  request->every = 1;
}

static void
clear_drill (TmTrendRequest *request)
{
  for (guint i = 0; i < request->n_drill; i++)
    g_clear_pointer (&request->drill[i], g_free);
  request->n_drill = 0;
}

void
tm_trend_request_clear (TmTrendRequest *request)
{
  g_return_if_fail (request != NULL);
  clear_drill (request);
}

void
tm_trend_request_copy (TmTrendRequest *dest, const TmTrendRequest *src)
{
  g_return_if_fail (dest != NULL && src != NULL);
  *dest = *src;
  for (guint i = 0; i < src->n_drill; i++)
    dest->drill[i] = g_strdup (src->drill[i]);
}

gboolean
tm_trend_request_uses_ds (const TmTrendRequest *request)
{
  g_return_val_if_fail (request != NULL, FALSE);
  return tm_classify_chain_needs_ds (request->chain, MIN (request->n_drill + 1, request->depth));
}

gboolean
tm_trend_request_needs_graph (const TmTrendRequest *request)
{
  g_return_val_if_fail (request != NULL, FALSE);
  return tm_classify_chain_needs_graph (request->chain, MIN (request->n_drill + 1, request->depth));
}

gboolean
tm_trend_request_push_drill (TmTrendRequest *request, const char *label, GError **error)
{
  g_return_val_if_fail (request != NULL && label != NULL, FALSE);

  if (request->n_drill + 1 >= request->depth)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("cannot drill into '%s': the classifier chain has no level below %s"),
                   label, tm_chain_classifier_to_string (request->chain[request->n_drill]));
      return FALSE;
    }
  request->drill[request->n_drill++] = g_strdup (label);
  return TRUE;
}

gboolean
tm_trend_request_set_drill (TmTrendRequest *request, const char *path, GError **error)
{
  g_autoptr(GPtrArray) keys = NULL;

  g_return_val_if_fail (request != NULL && path != NULL, FALSE);

  clear_drill (request);
  keys = tm_class_path_split (path);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);

      if (key[0] == '\0')
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                       _("empty key in drill path '%s'"), path);
          clear_drill (request);
          return FALSE;
        }
      if (!tm_trend_request_push_drill (request, key, error))
        {
          clear_drill (request);
          return FALSE;
        }
    }
  return TRUE;
}

guint64
tm_trend_gc_time (const TmGc *gc)
{
  return gc->complete || gc->end_ns > 0 ? gc->end_ns : gc->start_ns;
}

GArray *
tm_trend_plan_gcs (const TmTrace *trace, const TmTrendRequest *request)
{
  GArray *plan;
  guint32 n_gcs, to;
  guint every, seen = 0;
  gboolean need_graph, have_last = FALSE;
  guint64 last_time = 0;

  g_return_val_if_fail (trace != NULL && request != NULL, NULL);

  plan = g_array_new (FALSE, FALSE, sizeof (guint32));
  n_gcs = tm_trace_n_gcs (trace);
  to = MIN (request->to_gc, n_gcs);
  every = MAX (request->every, 1);
  need_graph = tm_trend_metric_needs_graph (request->metric) || tm_trend_request_needs_graph (request);

  for (guint32 g = MAX (request->from_gc, 1); g <= to; g++)
    {
      const TmGc *gc = tm_trace_gc (trace, g);
      guint64 t = tm_trend_gc_time (gc);

      if (need_graph && !gc->has_graph)
        continue;
      if (request->interval_ns > 0)
        {
          if (have_last && t < last_time + request->interval_ns)
            continue;
        }
      else if (seen++ % every != 0)
        continue;
      g_array_append_val (plan, g);
      have_last = TRUE;
      last_time = t;
    }
  return plan;
}

void
tm_trend_series_free (TmTrendSeries *series)
{
  if (series == NULL)
    return;
  g_free (series->key);
  g_free (series->values);
  g_free (series);
}

TmTrendSeries *
tm_trend_series_copy (const TmTrendSeries *series, guint n_points)
{
  TmTrendSeries *copy = g_new0 (TmTrendSeries, 1);

  copy->key = g_strdup (series->key);
  copy->key_index = series->key_index;
  copy->is_other = series->is_other;
  copy->values = g_new0 (double, MAX (n_points, 1));
  memcpy (copy->values, series->values, n_points * sizeof (double));
  return copy;
}

TmTrend *
tm_trend_ref (TmTrend *trend)
{
  g_return_val_if_fail (trend != NULL, NULL);
  g_atomic_int_inc (&trend->ref_count);
  return trend;
}

void
tm_trend_unref (TmTrend *trend)
{
  if (trend == NULL || !g_atomic_int_dec_and_test (&trend->ref_count))
    return;
  tm_trend_request_clear (&trend->request);
  g_clear_pointer (&trend->trace, tm_trace_unref);
  g_free (trend->gcs);
  g_free (trend->times_ns);
  g_free (trend->total);
  g_ptr_array_unref (trend->groups);
  g_free (trend);
}

double
tm_trend_series_rank_value (const TmTrend *trend, const TmTrendSeries *series, TmTrendSort sort)
{
  double first, last, sum = 0;

  g_return_val_if_fail (trend != NULL && series != NULL, 0);
  if (trend->n_points == 0)
    return 0;

  first = series->values[0];
  last = series->values[trend->n_points - 1];
  switch (sort)
    {
    case TM_TREND_SORT_START:      return first;
    case TM_TREND_SORT_END:        return last;
    case TM_TREND_SORT_ABS_GROWTH: return last - first;
    case TM_TREND_SORT_REL_GROWTH:
      /* a group that appears from nothing grows more than any other */
      if (first == 0)
        return last > 0 ? INFINITY : 0;
      return (last - first) / first;
    case TM_TREND_SORT_AVERAGE:
      for (guint i = 0; i < trend->n_points; i++)
        sum += series->values[i];
      return sum / trend->n_points;
    case TM_TREND_N_SORTS:
    default:
      g_return_val_if_reached (0);
    }
}

typedef struct {
  const TmTrendSeries *series;
  double               rank;
  double               tie;   /* end value breaks ties, then the label */
} Ranked;

static int
cmp_ranked (const void *a, const void *b)
{
  const Ranked *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank > y->rank ? -1 : 1;
  if (x->tie != y->tie)
    return x->tie > y->tie ? -1 : 1;
  return strcmp (x->series->key, y->series->key);
}

GPtrArray *
tm_trend_select (TmTrend *trend, TmTrendSort sort, guint top_n, gboolean with_other)
{
  GPtrArray *out;
  g_autofree Ranked *ranked = NULL;
  guint n, shown;

  g_return_val_if_fail (trend != NULL, NULL);
  g_return_val_if_fail (sort < TM_TREND_N_SORTS, NULL);

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_trend_series_free);
  n = trend->groups->len;
  ranked = g_new0 (Ranked, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const TmTrendSeries *s = g_ptr_array_index (trend->groups, i);
      ranked[i].series = s;
      ranked[i].rank = tm_trend_series_rank_value (trend, s, sort);
      ranked[i].tie = trend->n_points ? s->values[trend->n_points - 1] : 0;
    }
  qsort (ranked, n, sizeof *ranked, cmp_ranked);

  shown = top_n == 0 ? n : MIN (top_n, n);
  for (guint i = 0; i < shown; i++)
    g_ptr_array_add (out, tm_trend_series_copy (ranked[i].series, trend->n_points));

  if (with_other && shown < n)
    {
      TmTrendSeries *other = g_new0 (TmTrendSeries, 1);

      other->key = g_strdup ("Other");
      other->key_index = G_MAXUINT32;
      other->is_other = TRUE;
      other->values = g_new0 (double, MAX (trend->n_points, 1));
      for (guint p = 0; p < trend->n_points; p++)
        {
          double v = trend->total[p];
          for (guint i = 0; i < shown; i++)
            v -= ranked[i].series->values[p];
          other->values[p] = v;
        }
      g_ptr_array_add (out, other);
    }
  return out;
}

const TmTrendSeries *
tm_trend_find_group (TmTrend *trend, const char *key)
{
  g_return_val_if_fail (trend != NULL && key != NULL, NULL);
  for (guint i = 0; i < trend->groups->len; i++)
    {
      const TmTrendSeries *s = g_ptr_array_index (trend->groups, i);
      if (strcmp (s->key, key) == 0)
        return s;
    }
  return NULL;
}

static void
csv_field (GString *s, const char *text)
{
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (s, text);
      return;
    }
  g_string_append_c (s, '"');
  for (const char *c = text; *c; c++)
    {
      if (*c == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *c);
    }
  g_string_append_c (s, '"');
}

char *
tm_trend_to_csv (TmTrend *trend, GPtrArray *shown)
{
  GString *s;

  g_return_val_if_fail (trend != NULL && shown != NULL, NULL);

  s = g_string_new ("gc,time_ns");
  for (guint i = 0; i < shown->len; i++)
    {
      g_string_append_c (s, ',');
      csv_field (s, ((TmTrendSeries *) g_ptr_array_index (shown, i))->key);
    }
  g_string_append (s, ",total\n");
  for (guint p = 0; p < trend->n_points; p++)
    {
      g_string_append_printf (s, "%u,%" G_GUINT64_FORMAT, trend->gcs[p], trend->times_ns[p]);
      for (guint i = 0; i < shown->len; i++)
        g_string_append_printf (s, ",%.0f", ((TmTrendSeries *) g_ptr_array_index (shown, i))->values[p]);
      g_string_append_printf (s, ",%.0f\n", trend->total[p]);
    }
  return g_string_free (s, FALSE);
}
