/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * VM-level metrics: allocation/death series, lifetimes, survival and
 * promotion, floating garbage (see tm-vm-metrics.h for the definitions).
 *
 * Everything is one pass over the object arrays (keys computed in batches,
 * since a site classifier's key table is built per call), so a window's
 * series costs about as much as reading its records once.
 */
#include "tm-vm-metrics.h"
#include "tm-churn.h"
#include "tm-trend.h"
#include "tm-heap-graph.h"
#include "tm-error.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#define KEY_BATCH (1u << 22)
#define NO_GROUP G_MAXUINT32

static gboolean
check_window (const TmTrace *trace, guint32 from_gc, guint32 to_gc, GError **error)
{
  guint32 n = tm_trace_n_gcs (trace);

  if (n == 0)
    {
      g_set_error_literal (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("the trace has no GCs"));
      return FALSE;
    }
  if (from_gc < 1 || to_gc < from_gc || to_gc > n)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("window GC %u..%u is not within GC 1..%u"), from_gc, to_gc, n);
      return FALSE;
    }
  return TRUE;
}

static gboolean
classifier_is_per_object (TmClassifier c, GError **error)
{
  switch (c)
    {
    case TM_CLASSIFIER_TYPE:
    case TM_CLASSIFIER_PACKAGE:
    case TM_CLASSIFIER_SITE:
    case TM_CLASSIFIER_CALL_SITE:
    case TM_CLASSIFIER_THREAD:
    case TM_CLASSIFIER_TRANSACTION:
      return TRUE;
    case TM_CLASSIFIER_SPACE:
    case TM_CLASSIFIER_AGE:
    case TM_N_CLASSIFIERS:
    default:
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("allocations can be grouped by type, site, call-site or thread, not by %s"),
                   c < TM_N_CLASSIFIERS ? tm_classifier_to_string (c) : _("that classifier"));
      return FALSE;
    }
}

static guint64
object_size (const TmTrace *trace, guint64 index)
{
  guint32 s = trace->obj_size[index];
  return G_LIKELY (s != TM_SIZE_OVERFLOW) ? s : tm_trace_object_size (trace, index);
}

static guint64
gc_start_ns (const TmTrace *trace, guint32 gc_id)
{
  return gc_id == 0 ? 0 : tm_trace_gc (trace, gc_id)->start_ns;
}

/* ---- group keys ------------------------------------------------------ */

/* Maps objects to the group they count in at `level`, after checking the
 * drill levels above it.  Keys come from the library's classifiers, in
 * batches. */
typedef struct {
  const TmTrace *trace;
  TmClassifier   chain[TM_CLASSIFY_MAX_DEPTH];
  guint          n_drill;
  guint32        drill_key[TM_CLASSIFY_MAX_DEPTH];
  guint32       *objects;    /* batch of object indices */
  guint32       *keys[TM_CLASSIFY_MAX_DEPTH + 1];
} KeyBatcher;

static gboolean
find_key_for_label (const TmTrace *trace, TmClassifier c, const char *label, guint32 *out)
{
  guint32 domain = tm_classifier_domain (c, trace, 0);

  for (guint32 k = 0; k < domain; k++)
    {
      g_autofree char *l = tm_classifier_key_label (c, trace, k);
      if (g_strcmp0 (l, label) == 0)
        {
          *out = k;
          return TRUE;
        }
    }
  return FALSE;
}

static void
key_batcher_init (KeyBatcher *kb, const TmTrace *trace, const TmClassifier *chain, guint n_drill)
{
  memset (kb, 0, sizeof *kb);
  kb->trace = trace;
  kb->n_drill = n_drill;
  memcpy (kb->chain, chain, sizeof (TmClassifier) * (n_drill + 1));
  kb->objects = g_new (guint32, KEY_BATCH);
  for (guint l = 0; l <= n_drill; l++)
    kb->keys[l] = g_new (guint32, KEY_BATCH);
}

static void
key_batcher_clear (KeyBatcher *kb)
{
  g_free (kb->objects);
  for (guint l = 0; l <= kb->n_drill; l++)
    g_free (kb->keys[l]);
}

/* Keys of objects [first, first + n) at the group level; objects outside
 * the drilled group get NO_GROUP. */
static const guint32 *
key_batcher_run (KeyBatcher *kb, guint64 first, guint32 n)
{
  guint32 *out = kb->keys[kb->n_drill];

  for (guint32 i = 0; i < n; i++)
    kb->objects[i] = (guint32) (first + i);
  for (guint l = 0; l <= kb->n_drill; l++)
    tm_classifier_keys (kb->chain[l], kb->trace, 0, kb->objects, n, kb->keys[l]);
  for (guint l = 0; l < kb->n_drill; l++)
    for (guint32 i = 0; i < n; i++)
      if (kb->keys[l][i] != kb->drill_key[l])
        out[i] = NO_GROUP;
  return out;
}

/* The same for short-lived counters [0, n) (n <= KEY_BATCH). */
static const guint32 *
key_batcher_run_short_lived (KeyBatcher *kb, const TmShortLived *entries, guint32 n)
{
  guint32 *out = kb->keys[kb->n_drill];

  for (guint l = 0; l <= kb->n_drill; l++)
    tm_classifier_keys_short_lived (kb->chain[l], kb->trace, entries, n, kb->keys[l]);
  for (guint l = 0; l < kb->n_drill; l++)
    for (guint32 i = 0; i < n; i++)
      if (kb->keys[l][i] != kb->drill_key[l])
        out[i] = NO_GROUP;
  return out;
}

/* ---- allocation series ---------------------------------------------- */

static const char *alloc_sorts[TM_ALLOC_N_SORTS] = {
  "alloc-bytes", "alloc-objects", "freed-bytes", "freed-objects", "net-bytes",
};

const char *
tm_alloc_sort_to_string (TmAllocSort sort)
{
  g_return_val_if_fail (sort < TM_ALLOC_N_SORTS, "unknown");
  return alloc_sorts[sort];
}

gboolean
tm_alloc_sort_from_string (const char *name, TmAllocSort *out)
{
  for (guint i = 0; i < TM_ALLOC_N_SORTS; i++)
    if (g_strcmp0 (name, alloc_sorts[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  return FALSE;
}

void
tm_alloc_request_init (TmAllocRequest *request)
{
  memset (request, 0, sizeof *request);
  request->chain[0] = TM_CLASSIFIER_TYPE;
  request->depth = 1;
}

void
tm_alloc_request_clear (TmAllocRequest *request)
{
  for (guint i = 0; i < request->n_drill; i++)
    g_clear_pointer (&request->drill[i], g_free);
  request->n_drill = 0;
}

static void
alloc_request_copy (TmAllocRequest *dest, const TmAllocRequest *src)
{
  *dest = *src;
  for (guint i = 0; i < src->n_drill; i++)
    dest->drill[i] = g_strdup (src->drill[i]);
}

gboolean
tm_alloc_request_parse (TmAllocRequest *request, const char *chain, const char *drill, GError **error)
{
  TmTrendRequest trend;
  gboolean ok;

  tm_alloc_request_clear (request);
  if (!tm_classifier_chain_parse (chain ? chain : "type", request->chain, &request->depth, error))
    return FALSE;
  for (guint i = 0; i < request->depth; i++)
    if (!classifier_is_per_object (request->chain[i], error))
      return FALSE;
  if (drill == NULL)
    return TRUE;
  /* the drill path syntax is TrendViz's: reuse its parser */
  tm_trend_request_init (&trend);
  memcpy (trend.chain, request->chain, sizeof trend.chain);
  trend.depth = request->depth;
  ok = tm_trend_request_set_drill (&trend, drill, error);
  for (guint i = 0; ok && i < trend.n_drill; i++)
    request->drill[i] = g_strdup (trend.drill[i]);
  if (ok)
    request->n_drill = trend.n_drill;
  tm_trend_request_clear (&trend);
  return ok;
}

static TmAllocGroup *
alloc_group_new (guint n_points, char *key, guint32 key_index)
{
  TmAllocGroup *g = g_new0 (TmAllocGroup, 1);

  g->key = key;
  g->key_index = key_index;
  g->alloc_objects = g_new0 (guint64, n_points);
  g->alloc_bytes = g_new0 (guint64, n_points);
  g->freed_objects = g_new0 (guint64, n_points);
  g->freed_bytes = g_new0 (guint64, n_points);
  return g;
}

static void
alloc_group_free (TmAllocGroup *g)
{
  g_free (g->key);
  g_free (g->alloc_objects);
  g_free (g->alloc_bytes);
  g_free (g->freed_objects);
  g_free (g->freed_bytes);
  g_free (g);
}

static void
alloc_group_sum (TmAllocGroup *g, guint n_points)
{
  g->sum_alloc_objects = g->sum_alloc_bytes = g->sum_freed_objects = g->sum_freed_bytes = 0;
  for (guint p = 0; p < n_points; p++)
    {
      g->sum_alloc_objects += g->alloc_objects[p];
      g->sum_alloc_bytes += g->alloc_bytes[p];
      g->sum_freed_objects += g->freed_objects[p];
      g->sum_freed_bytes += g->freed_bytes[p];
    }
}

guint64
tm_alloc_group_rank (const TmAllocGroup *g, TmAllocSort sort)
{
  switch (sort)
    {
    case TM_ALLOC_SORT_ALLOC_OBJECTS: return g->sum_alloc_objects;
    case TM_ALLOC_SORT_FREED_BYTES:   return g->sum_freed_bytes;
    case TM_ALLOC_SORT_FREED_OBJECTS: return g->sum_freed_objects;
    case TM_ALLOC_SORT_NET_BYTES:
      return g->sum_alloc_bytes > g->sum_freed_bytes ? g->sum_alloc_bytes - g->sum_freed_bytes : 0;
    case TM_ALLOC_SORT_ALLOC_BYTES:
    case TM_ALLOC_N_SORTS:
    default:
      return g->sum_alloc_bytes;
    }
}

static gint
compare_by_alloc_bytes (gconstpointer a, gconstpointer b)
{
  const TmAllocGroup *ga = *(TmAllocGroup * const *) a, *gb = *(TmAllocGroup * const *) b;

  if (ga->sum_alloc_bytes != gb->sum_alloc_bytes)
    return ga->sum_alloc_bytes < gb->sum_alloc_bytes ? 1 : -1;
  return g_strcmp0 (ga->key, gb->key);
}

static TmAllocGroup *
alloc_group_of_key (TmAllocSeries *s, const TmTrace *trace, TmClassifier level, guint32 *group_of_key,
                    guint32 domain, guint32 key)
{
  guint32 gi;

  if (key >= domain)
    key = 0;
  gi = group_of_key[key];
  if (gi == NO_GROUP)
    {
      gi = group_of_key[key] = s->groups->len;
      g_ptr_array_add (s->groups, alloc_group_new (s->n_points, tm_classifier_key_label (level, trace, key), key));
    }
  return g_ptr_array_index (s->groups, gi);
}

TmAllocSeries *
tm_alloc_series_compute (TmTrace              *trace,
                         const TmAllocRequest *request,
                         GCancellable         *cancellable,
                         GError              **error)
{
  g_autoptr(TmAllocSeries) s = NULL;
  g_autofree guint32 *group_of_key = NULL;
  KeyBatcher kb;
  TmClassifier level;
  guint32 domain, from, to, n;
  guint64 first, last;

  g_return_val_if_fail (trace != NULL && request != NULL, NULL);

  from = request->from_gc;
  to = request->to_gc;
  if (!check_window (trace, from, to, error))
    return NULL;
  if (request->depth < 1 || request->n_drill >= request->depth)
    {
      g_set_error_literal (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                           _("the drill path needs a classifier below it"));
      return NULL;
    }
  for (guint i = 0; i < request->depth; i++)
    if (!classifier_is_per_object (request->chain[i], error))
      return NULL;

  s = g_new0 (TmAllocSeries, 1);
  s->ref_count = 1;
  alloc_request_copy (&s->request, request);
  s->level = level = request->chain[request->n_drill];
  s->n_points = n = to - from + 1;
  s->gcs = g_new (guint32, n);
  s->end_ns = g_new (guint64, n);
  s->interval_ns = g_new (guint64, n);
  for (guint p = 0; p < n; p++)
    {
      guint32 g = from + p;
      guint64 a = gc_start_ns (trace, g - 1), b = gc_start_ns (trace, g);

      s->gcs[p] = g;
      s->end_ns[p] = tm_trace_gc_end_ns (trace, g);
      s->interval_ns[p] = b > a ? b - a : 1;
    }
  s->total.key = g_strdup ("Total");
  s->total.key_index = G_MAXUINT32;
  s->total.alloc_objects = g_new0 (guint64, n);
  s->total.alloc_bytes = g_new0 (guint64, n);
  s->total.freed_objects = g_new0 (guint64, n);
  s->total.freed_bytes = g_new0 (guint64, n);
  s->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) alloc_group_free);

  key_batcher_init (&kb, trace, request->chain, request->n_drill);
  for (guint l = 0; l < request->n_drill; l++)
    if (!find_key_for_label (trace, request->chain[l], request->drill[l], &kb.drill_key[l]))
      {
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("no %s group '%s'"),
                     tm_classifier_to_string (request->chain[l]), request->drill[l]);
        key_batcher_clear (&kb);
        return NULL;
      }

  domain = tm_classifier_domain (level, trace, 0);
  group_of_key = g_new (guint32, domain);
  memset (group_of_key, 0xff, sizeof (guint32) * domain);

  /* Objects allocated before GC_START `to` are the only ones that can be
   * allocated in, or die in, the window. */
  first = 0;
  last = tm_trace_allocs_before_gc (trace, to);
  {
    const TmGc *gcs = (const TmGc *) (gpointer) trace->gcs->data;
    guint64 win_first = tm_trace_allocs_before_gc (trace, from - 1);
    guint32 birth = 0;   /* birth GC of the current object, moves forward */

    for (guint64 base = first; base < last; base += KEY_BATCH)
      {
        guint32 m = (guint32) MIN ((guint64) KEY_BATCH, last - base);
        const guint32 *keys;

        if (g_cancellable_set_error_if_cancelled (cancellable, error))
          {
            key_batcher_clear (&kb);
            return NULL;
          }
        keys = key_batcher_run (&kb, base, m);
        for (guint32 i = 0; i < m; i++)
          {
            guint64 idx = base + i;
            guint32 death = trace->obj_death[idx], key = keys[i];
            gboolean born_in = idx >= win_first;
            gboolean died_in = death >= from && death <= to;
            TmAllocGroup *g;
            guint64 size;

            if (!born_in && !died_in)
              continue;
            if (key == NO_GROUP)
              continue;
            g = alloc_group_of_key (s, trace, level, group_of_key, domain, key);
            size = object_size (trace, idx);
            if (born_in)
              {
                guint p;
                while (birth < trace->gcs->len && gcs[birth].allocs_before <= idx)
                  birth++;
                /* `birth` GCs started before it: it counts in GC birth+1's interval */
                p = birth + 1 - from;
                g->alloc_objects[p]++;
                g->alloc_bytes[p] += size;
                s->total.alloc_objects[p]++;
                s->total.alloc_bytes[p] += size;
              }
            if (died_in)
              {
                guint p = death - from;
                g->freed_objects[p]++;
                g->freed_bytes[p] += size;
                s->total.freed_objects[p]++;
                s->total.freed_bytes[p] += size;
              }
          }
      }

    /* short-lived objects born in intervals from-1 .. to-1 were allocated
     * in the window and died in it, in the GC after their birth */
    for (guint32 b = from - 1; b < to; b++)
      {
        gsize n_sl;
        const TmShortLived *sl = tm_trace_short_lived (trace, b, &n_sl);
        guint p = b + 1 - from;

        for (gsize base = 0; base < n_sl; base += KEY_BATCH)
          {
            guint32 m = (guint32) MIN ((gsize) KEY_BATCH, n_sl - base);
            const guint32 *keys = key_batcher_run_short_lived (&kb, sl + base, m);

            for (guint32 i = 0; i < m; i++)
              {
                const TmShortLived *e = &sl[base + i];
                TmAllocGroup *g;

                if (keys[i] == NO_GROUP)
                  continue;
                g = alloc_group_of_key (s, trace, level, group_of_key, domain, keys[i]);
                g->alloc_objects[p] += e->count;
                g->alloc_bytes[p] += e->bytes;
                g->freed_objects[p] += e->count;
                g->freed_bytes[p] += e->bytes;
                s->total.alloc_objects[p] += e->count;
                s->total.alloc_bytes[p] += e->bytes;
                s->total.freed_objects[p] += e->count;
                s->total.freed_bytes[p] += e->bytes;
              }
          }
      }
  }
  key_batcher_clear (&kb);

  alloc_group_sum (&s->total, n);
  for (guint i = 0; i < s->groups->len; i++)
    alloc_group_sum (g_ptr_array_index (s->groups, i), n);
  g_ptr_array_sort (s->groups, compare_by_alloc_bytes);
  return g_steal_pointer (&s);
}

TmAllocSeries *
tm_alloc_series_ref (TmAllocSeries *series)
{
  g_atomic_int_inc (&series->ref_count);
  return series;
}

void
tm_alloc_series_unref (TmAllocSeries *s)
{
  if (s == NULL || !g_atomic_int_dec_and_test (&s->ref_count))
    return;
  tm_alloc_request_clear (&s->request);
  g_free (s->gcs);
  g_free (s->end_ns);
  g_free (s->interval_ns);
  g_free (s->total.key);
  g_free (s->total.alloc_objects);
  g_free (s->total.alloc_bytes);
  g_free (s->total.freed_objects);
  g_free (s->total.freed_bytes);
  g_ptr_array_unref (s->groups);
  g_free (s);
}

typedef struct {
  TmAllocSort sort;
} SortCtx;

static gint
compare_by_rank (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortCtx *ctx = data;
  const TmAllocGroup *ga = *(TmAllocGroup * const *) a, *gb = *(TmAllocGroup * const *) b;
  guint64 ra = tm_alloc_group_rank (ga, ctx->sort), rb = tm_alloc_group_rank (gb, ctx->sort);

  if (ra != rb)
    return ra < rb ? 1 : -1;
  return g_strcmp0 (ga->key, gb->key);
}

/* Selected groups are borrowed; the Other group is owned and marked. */
static void
free_selected (gpointer p)
{
  TmAllocGroup *g = p;
  if (g->is_other)
    alloc_group_free (g);
}

GPtrArray *
tm_alloc_series_select (TmAllocSeries *s, TmAllocSort sort, guint top_n, gboolean with_other)
{
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  GPtrArray *shown = g_ptr_array_new_with_free_func (free_selected);
  SortCtx ctx = { sort };
  guint n_show;

  for (guint i = 0; i < s->groups->len; i++)
    g_ptr_array_add (order, g_ptr_array_index (s->groups, i));
  g_ptr_array_sort_with_data (order, compare_by_rank, &ctx);
  n_show = top_n == 0 ? order->len : MIN (top_n, order->len);
  for (guint i = 0; i < n_show; i++)
    g_ptr_array_add (shown, g_ptr_array_index (order, i));
  if (with_other && n_show < order->len)
    {
      TmAllocGroup *o = alloc_group_new (s->n_points, g_strdup ("Other"), G_MAXUINT32);

      o->is_other = TRUE;
      for (guint p = 0; p < s->n_points; p++)
        {
          o->alloc_objects[p] = s->total.alloc_objects[p];
          o->alloc_bytes[p] = s->total.alloc_bytes[p];
          o->freed_objects[p] = s->total.freed_objects[p];
          o->freed_bytes[p] = s->total.freed_bytes[p];
          for (guint i = 0; i < n_show; i++)
            {
              const TmAllocGroup *g = g_ptr_array_index (order, i);
              o->alloc_objects[p] -= g->alloc_objects[p];
              o->alloc_bytes[p] -= g->alloc_bytes[p];
              o->freed_objects[p] -= g->freed_objects[p];
              o->freed_bytes[p] -= g->freed_bytes[p];
            }
        }
      alloc_group_sum (o, s->n_points);
      g_ptr_array_add (shown, o);
    }
  return shown;
}

double
tm_alloc_series_rate (const TmAllocSeries *s, const guint64 *values, guint p)
{
  g_return_val_if_fail (p < s->n_points, 0);
  return (double) values[p] * 1e9 / (double) s->interval_ns[p];
}

/* ---- lifetimes ------------------------------------------------------- */

static const char *gc_bucket_labels[TM_LIFETIME_GC_BUCKETS] = {
  "0", "1", "2", "3-4", "5-8", "9-16", "17-32", "33+",
};

static const char *time_bucket_labels[TM_LIFETIME_TIME_BUCKETS] = {
  "< 1 ms", "< 10 ms", "< 100 ms", "< 1 s", "< 10 s", "< 100 s", ">= 100 s",
};

const char *
tm_lifetime_gc_bucket_label (guint bucket)
{
  g_return_val_if_fail (bucket < TM_LIFETIME_GC_BUCKETS, "?");
  return gc_bucket_labels[bucket];
}

const char *
tm_lifetime_time_bucket_label (guint bucket)
{
  g_return_val_if_fail (bucket < TM_LIFETIME_TIME_BUCKETS, "?");
  return time_bucket_labels[bucket];
}

guint
tm_lifetime_gc_bucket (guint32 n)
{
  if (n <= 2)
    return n;
  if (n <= 4)
    return 3;
  if (n <= 8)
    return 4;
  if (n <= 16)
    return 5;
  if (n <= 32)
    return 6;
  return 7;
}

static void
lifetime_group_free (TmLifetimeGroup *g)
{
  g_free (g->key);
  g_free (g);
}

static gint
compare_lifetime_groups (gconstpointer a, gconstpointer b)
{
  const TmLifetimeGroup *ga = *(TmLifetimeGroup * const *) a, *gb = *(TmLifetimeGroup * const *) b;

  if (ga->died_bytes != gb->died_bytes)
    return ga->died_bytes < gb->died_bytes ? 1 : -1;
  return g_strcmp0 (ga->key, gb->key);
}

/* Estimated allocation time of object idx born in the interval of GC
 * `birth_gc` (1-based; n_gcs + 1 after the last GC): the interval's
 * allocations spread evenly between the end of the GC before and the
 * start of that GC. */
static guint64
estimated_birth_ns (const TmTrace *trace, guint64 idx, guint32 birth_gc)
{
  guint64 t1 = birth_gc <= tm_trace_n_gcs (trace) ? gc_start_ns (trace, birth_gc) : trace->duration_ns;

  return tm_lifetime_birth_ns (tm_trace_object_seq (trace, idx),
                               tm_trace_allocations_before_gc (trace, birth_gc - 1),
                               tm_trace_allocations_before_gc (trace, birth_gc),
                               tm_trace_gc_end_ns (trace, birth_gc - 1), t1);
}

static void
lifetime_add (TmLifetimeGroup *g, guint32 survived, guint64 age_ns, guint64 size, guint32 long_lived)
{
  guint b = tm_lifetime_gc_bucket (survived);

  g->died_objects++;
  g->died_bytes += size;
  g->by_gcs_objects[b]++;
  g->by_gcs_bytes[b] += size;
  g->by_time_objects[tm_lifetime_time_bucket (age_ns)]++;
  /* running sums; turned into means at the end */
  g->mean_gcs += survived;
  g->mean_seconds += age_ns / 1e9;
  if (survived >= long_lived)
    {
      g->long_lived_objects++;
      g->long_lived_bytes += size;
    }
}

/* Short-lived objects: died at their first GC (0 survived). */
static void
lifetime_add_short_lived (TmLifetimeGroup *g, const TmShortLived *e)
{
  g->died_objects += e->count;
  g->died_bytes += e->bytes;
  g->by_gcs_objects[0] += e->count;
  g->by_gcs_bytes[0] += e->bytes;
  g->by_time_objects[e->age_bucket] += e->count;
  g->mean_seconds += e->age_seconds;
}

static TmLifetimeGroup *
lifetime_group_of_key (TmLifetimes *lt, const TmTrace *trace, guint32 *group_of_key, guint32 domain, guint32 key)
{
  guint32 gi;

  if (key >= domain)
    key = 0;
  gi = group_of_key[key];
  if (gi == NO_GROUP)
    {
      TmLifetimeGroup *ng = g_new0 (TmLifetimeGroup, 1);
      ng->key = tm_classifier_key_label (lt->classifier, trace, key);
      ng->key_index = key;
      gi = group_of_key[key] = lt->groups->len;
      g_ptr_array_add (lt->groups, ng);
    }
  return g_ptr_array_index (lt->groups, gi);
}

static void
lifetime_finish (TmLifetimeGroup *g)
{
  if (g->died_objects > 0)
    {
      g->mean_gcs /= (double) g->died_objects;
      g->mean_seconds /= (double) g->died_objects;
    }
}

TmLifetimes *
tm_lifetimes_compute (TmTrace *trace, guint32 from_gc, guint32 to_gc, TmClassifier classifier,
                      guint32 long_lived_gcs, GCancellable *cancellable, GError **error)
{
  g_autoptr(TmLifetimes) lt = NULL;
  g_autofree guint32 *group_of_key = NULL;
  const TmGc *gcs;
  KeyBatcher kb;
  guint32 domain, birth = 0;
  guint64 last, win_first;

  g_return_val_if_fail (trace != NULL, NULL);
  if (!check_window (trace, from_gc, to_gc, error) || !classifier_is_per_object (classifier, error))
    return NULL;

  lt = g_new0 (TmLifetimes, 1);
  lt->from_gc = from_gc;
  lt->to_gc = to_gc;
  lt->classifier = classifier;
  lt->long_lived_gcs = MAX (long_lived_gcs, 1);
  lt->total.key = g_strdup ("Total");
  lt->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) lifetime_group_free);
  domain = tm_classifier_domain (classifier, trace, 0);
  group_of_key = g_new (guint32, domain);
  memset (group_of_key, 0xff, sizeof (guint32) * domain);
  gcs = (const TmGc *) (gpointer) trace->gcs->data;
  last = tm_trace_allocs_before_gc (trace, to_gc);
  win_first = tm_trace_allocs_before_gc (trace, from_gc - 1);

  key_batcher_init (&kb, trace, &classifier, 0);
  for (guint64 base = 0; base < last; base += KEY_BATCH)
    {
      guint32 m = (guint32) MIN ((guint64) KEY_BATCH, last - base);
      const guint32 *keys;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          key_batcher_clear (&kb);
          return NULL;
        }
      keys = key_batcher_run (&kb, base, m);
      for (guint32 i = 0; i < m; i++)
        {
          guint64 idx = base + i, size;
          guint32 death = trace->obj_death[idx], survived, birth_gc;
          guint64 born_ns, died_ns;
          TmLifetimeGroup *g;

          while (birth < trace->gcs->len && gcs[birth].allocs_before <= idx)
            birth++;
          birth_gc = birth + 1;    /* the first GC the object meets */
          size = object_size (trace, idx);
          if (idx >= win_first)
            {
              lt->born_objects++;
              lt->born_bytes += size;
              if (death == birth_gc)
                {
                  lt->died_young_objects++;
                  lt->died_young_bytes += size;
                }
            }
          if (death < from_gc || death > to_gc)
            continue;
          g = lifetime_group_of_key (lt, trace, group_of_key, domain, keys[i]);
          survived = death > birth_gc ? death - birth_gc : 0;
          born_ns = estimated_birth_ns (trace, idx, birth_gc);
          died_ns = gc_start_ns (trace, death);
          lifetime_add (g, survived, died_ns > born_ns ? died_ns - born_ns : 0, size, lt->long_lived_gcs);
          lifetime_add (&lt->total, survived, died_ns > born_ns ? died_ns - born_ns : 0, size,
                        lt->long_lived_gcs);
        }
    }

  /* short-lived objects born in intervals from-1 .. to-1: born in the
   * window and died in it, at their first GC */
  for (guint32 b = from_gc - 1; b < to_gc; b++)
    {
      gsize n_sl;
      const TmShortLived *sl = tm_trace_short_lived (trace, b, &n_sl);

      for (gsize base = 0; base < n_sl; base += KEY_BATCH)
        {
          guint32 m = (guint32) MIN ((gsize) KEY_BATCH, n_sl - base);
          const guint32 *keys;

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              key_batcher_clear (&kb);
              return NULL;
            }
          keys = key_batcher_run_short_lived (&kb, sl + base, m);
          for (guint32 i = 0; i < m; i++)
            {
              const TmShortLived *e = &sl[base + i];

              lt->born_objects += e->count;
              lt->born_bytes += e->bytes;
              lt->died_young_objects += e->count;
              lt->died_young_bytes += e->bytes;
              lifetime_add_short_lived (lifetime_group_of_key (lt, trace, group_of_key, domain, keys[i]), e);
              lifetime_add_short_lived (&lt->total, e);
            }
        }
    }
  key_batcher_clear (&kb);
  lifetime_finish (&lt->total);
  for (guint i = 0; i < lt->groups->len; i++)
    lifetime_finish (g_ptr_array_index (lt->groups, i));
  g_ptr_array_sort (lt->groups, compare_lifetime_groups);
  return g_steal_pointer (&lt);
}

void
tm_lifetimes_free (TmLifetimes *lt)
{
  if (lt == NULL)
    return;
  g_free (lt->total.key);
  g_ptr_array_unref (lt->groups);
  g_free (lt);
}

/* ---- survival and promotion ----------------------------------------- */

const char *
tm_promotion_source_to_string (TmPromotionSource source)
{
  switch (source)
    {
    case TM_PROMOTION_FROM_USAGE: return "old-space-usage";
    case TM_PROMOTION_UNKNOWN:
    default:                      return "unknown";
    }
}

static gboolean
trace_has_old_space (const TmTrace *trace)
{
  for (guint i = 1; i < trace->spaces->len; i++)
    if (tm_trace_space (trace, i)->kind == TM_SPACE_KIND_OLD)
      return TRUE;
  return FALSE;
}

/* Growth of the old spaces across a GC that does not collect them. */
static gboolean
promoted_from_usage (const TmTrace *trace, const TmGc *gc, guint64 *bytes)
{
  gint64 growth = 0;
  gboolean any = FALSE;

  if (gc->kind != TM_GC_KIND_MINOR)
    return FALSE;
  for (guint32 u = 0; u < gc->usage_count; u++)
    {
      const TmSpaceUsage *su = &g_array_index (trace->space_usage, TmSpaceUsage, gc->usage_first + u);
      if (su->space < trace->spaces->len && tm_trace_space (trace, su->space)->kind == TM_SPACE_KIND_OLD)
        {
          growth += (gint64) su->used_after - (gint64) su->used_before;
          any = TRUE;
        }
    }
  *bytes = growth > 0 ? (guint64) growth : 0;
  return any;
}

TmSurvival *
tm_survival_compute (TmTrace *trace, guint32 from_gc, guint32 to_gc, GCancellable *cancellable,
                     GError **error)
{
  g_autoptr(TmSurvival) sv = NULL;
  /* cohort[(b * TM_SURVIVAL_AGES + a)]: objects born in the interval of
   * GC b+1 that died in GC b+1+a (a < TM_SURVIVAL_AGES), so the ones of a
   * cohort alive after GC g follow by subtraction. */
  g_autofree guint64 *born_obj = NULL, *born_bytes = NULL, *dead_obj = NULL, *dead_bytes = NULL;
  const TmGc *gcs;
  guint32 n_gcs, birth = 0;
  guint64 last;

  g_return_val_if_fail (trace != NULL, NULL);
  if (!check_window (trace, from_gc, to_gc, error))
    return NULL;

  n_gcs = tm_trace_n_gcs (trace);
  gcs = (const TmGc *) (gpointer) trace->gcs->data;
  sv = g_new0 (TmSurvival, 1);
  sv->from_gc = from_gc;
  sv->to_gc = to_gc;
  sv->points = g_array_sized_new (FALSE, TRUE, sizeof (TmSurvivalPoint), to_gc - from_gc + 1);
  sv->promotion_source = trace_has_old_space (trace) ? TM_PROMOTION_FROM_USAGE : TM_PROMOTION_UNKNOWN;

  born_obj = g_new0 (guint64, n_gcs + 1);
  born_bytes = g_new0 (guint64, n_gcs + 1);
  dead_obj = g_new0 (guint64, (gsize) (n_gcs + 1) * TM_SURVIVAL_AGES);
  dead_bytes = g_new0 (guint64, (gsize) (n_gcs + 1) * TM_SURVIVAL_AGES);
  last = tm_trace_allocs_before_gc (trace, to_gc);
  for (guint64 idx = 0; idx < last; idx++)
    {
      guint32 death = trace->obj_death[idx];
      guint64 size = object_size (trace, idx);

      if ((idx & 0xfffff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      while (birth < n_gcs && gcs[birth].allocs_before <= idx)
        birth++;
      /* born in the interval of GC birth+1, cohort index `birth` */
      born_obj[birth]++;
      born_bytes[birth] += size;
      if (death != TM_ALIVE && death >= birth + 1 && death - (birth + 1) < TM_SURVIVAL_AGES)
        {
          gsize c = (gsize) birth * TM_SURVIVAL_AGES + (death - (birth + 1));
          dead_obj[c]++;
          dead_bytes[c] += size;
        }
    }
  /* short-lived objects: cohort b, died in its first GC (age 0) */
  for (guint32 b = 0; b < to_gc; b++)
    {
      gsize n_sl;
      const TmShortLived *sl = tm_trace_short_lived (trace, b, &n_sl);

      for (gsize i = 0; i < n_sl; i++)
        {
          born_obj[b] += sl[i].count;
          born_bytes[b] += sl[i].bytes;
          dead_obj[(gsize) b * TM_SURVIVAL_AGES] += sl[i].count;
          dead_bytes[(gsize) b * TM_SURVIVAL_AGES] += sl[i].bytes;
        }
    }

  for (guint32 g = from_gc; g <= to_gc; g++)
    {
      const TmGc *gc = &gcs[g - 1];
      TmSurvivalPoint pt = { 0 };
      guint64 young_obj = 0, young_bytes = 0;

      pt.gc = g;
      pt.live_objects = gc->live_objects;
      pt.live_bytes = gc->live_bytes;
      /* age a (GCs survived, 1..15) after GC g: born in the interval of GC
       * g-a+1, i.e. cohort g-a, alive after g */
      for (guint32 a = 1; a < TM_SURVIVAL_AGES && a <= g; a++)
        {
          guint32 b = g - a;   /* cohort index */
          guint64 o = born_obj[b], by = born_bytes[b];

          for (guint32 k = 0; k < a; k++)
            {
              o -= dead_obj[(gsize) b * TM_SURVIVAL_AGES + k];
              by -= dead_bytes[(gsize) b * TM_SURVIVAL_AGES + k];
            }
          pt.age_objects[a - 1] = o;
          pt.age_bytes[a - 1] = by;
          young_obj += o;
          young_bytes += by;
        }
      pt.survived_objects = pt.age_objects[0];
      pt.survived_bytes = pt.age_bytes[0];
      pt.age_objects[TM_SURVIVAL_AGES - 1] = pt.live_objects > young_obj ? pt.live_objects - young_obj : 0;
      pt.age_bytes[TM_SURVIVAL_AGES - 1] = pt.live_bytes > young_bytes ? pt.live_bytes - young_bytes : 0;
      if (sv->promotion_source == TM_PROMOTION_FROM_USAGE)
        pt.promoted_known = promoted_from_usage (trace, gc, &pt.promoted_bytes);
      g_array_append_val (sv->points, pt);
    }
  return g_steal_pointer (&sv);
}

void
tm_survival_free (TmSurvival *sv)
{
  if (sv == NULL)
    return;
  g_array_unref (sv->points);
  g_free (sv);
}

/* ---- floating garbage ------------------------------------------------ */

gboolean
tm_floating_garbage_supported (const TmTrace *trace, GError **error)
{
  if (trace->n_graphs == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH,
                   _("floating garbage needs a recorded trace with reference graphs (%s has none)"),
                   g_strcmp0 (trace->format, "tmtrace") == 0 ? "this trace" : trace->format);
      return FALSE;
    }
  if (!(trace->flags & TM_TRACE_FLAG_DEATHS))
    {
      g_set_error_literal (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                           _("floating garbage needs recorded deaths: without them every object a "
                           "graph does not reach counts as dead in that GC"));
      return FALSE;
    }
  return TRUE;
}

GArray *
tm_floating_garbage_series (TmTrace *trace, guint32 from_gc, guint32 to_gc, GError **error)
{
  GArray *out;

  if (!check_window (trace, from_gc, to_gc, error) || !tm_floating_garbage_supported (trace, error))
    return NULL;
  out = g_array_new (FALSE, TRUE, sizeof (TmFloatingPoint));
  for (guint32 g = from_gc; g <= to_gc; g++)
    {
      const TmGc *gc = tm_trace_gc (trace, g);
      TmFloatingPoint pt = { g, gc->live_objects, gc->live_bytes, 0, 0 };

      if (!gc->has_graph)
        continue;
      pt.floating_objects = gc->live_objects > gc->reachable_objects ? gc->live_objects - gc->reachable_objects : 0;
      pt.floating_bytes = gc->live_bytes > gc->reachable_bytes ? gc->live_bytes - gc->reachable_bytes : 0;
      g_array_append_val (out, pt);
    }
  return out;
}

static void
floating_group_free (TmFloatingGroup *g)
{
  g_free (g->key);
  g_free (g);
}

static gint
compare_floating (gconstpointer a, gconstpointer b)
{
  const TmFloatingGroup *ga = *(TmFloatingGroup * const *) a, *gb = *(TmFloatingGroup * const *) b;

  if (ga->bytes != gb->bytes)
    return ga->bytes < gb->bytes ? 1 : -1;
  return g_strcmp0 (ga->key, gb->key);
}

GPtrArray *
tm_floating_garbage_breakdown (TmHeapCache *heaps, guint32 gc_id, TmClassifier classifier,
                               GCancellable *cancellable, GError **error)
{
  TmTrace *trace = tm_heap_cache_get_trace (heaps);
  g_autoptr(TmHeapAnalysis) heap = NULL;
  const TmHeapGraph *graph;
  g_autofree guint64 *marked = NULL;
  g_autofree guint32 *objects = NULL, *keys = NULL, *group_of_key = NULL;
  GPtrArray *groups;
  guint64 n_marked;
  guint32 n = 0, domain;

  if (!tm_floating_garbage_supported (trace, error))
    return NULL;
  if (gc_id < 1 || gc_id > tm_trace_n_gcs (trace) || !tm_trace_gc (trace, gc_id)->has_graph)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, _("GC %u has no reference graph"), gc_id);
      return NULL;
    }
  heap = tm_heap_cache_get (heaps, gc_id, NULL, NULL, cancellable, error);
  if (heap == NULL)
    return NULL;
  graph = tm_heap_analysis_get_graph (heap);
  marked = tm_heap_graph_mark (graph, &n_marked);
  objects = g_new (guint32, MAX (graph->n_nodes, 1));
  for (guint32 v = 0; v < graph->n_nodes; v++)
    if (!(marked[v / 64] & (G_GUINT64_CONSTANT (1) << (v % 64))))
      objects[n++] = graph->node_object[v];

  keys = g_new (guint32, MAX (n, 1));
  tm_classifier_keys (classifier, trace, gc_id, objects, n, keys);
  domain = tm_classifier_domain (classifier, trace, gc_id);
  group_of_key = g_new (guint32, domain);
  memset (group_of_key, 0xff, sizeof (guint32) * domain);
  groups = g_ptr_array_new_with_free_func ((GDestroyNotify) floating_group_free);
  for (guint32 i = 0; i < n; i++)
    {
      guint32 key = keys[i] < domain ? keys[i] : 0;
      TmFloatingGroup *g;

      if (group_of_key[key] == NO_GROUP)
        {
          g = g_new0 (TmFloatingGroup, 1);
          g->key = tm_classifier_key_label (classifier, trace, key);
          group_of_key[key] = groups->len;
          g_ptr_array_add (groups, g);
        }
      g = g_ptr_array_index (groups, group_of_key[key]);
      g->objects++;
      g->bytes += object_size (trace, objects[i]);
    }
  g_ptr_array_sort (groups, compare_floating);
  return groups;
}

/* ---- the bundle ------------------------------------------------------ */

TmVmMetrics *
tm_vm_metrics_compute (TmTrace *trace, guint32 from_gc, guint32 to_gc, TmClassifier classifier,
                       GCancellable *cancellable, GError **error)
{
  g_autoptr(TmVmMetrics) m = g_new0 (TmVmMetrics, 1);
  g_autoptr(GError) why = NULL;
  TmAllocRequest req;

  m->from_gc = from_gc;
  m->to_gc = to_gc;
  m->classifier = classifier;
  tm_alloc_request_init (&req);
  req.chain[0] = classifier;
  req.from_gc = from_gc;
  req.to_gc = to_gc;
  m->allocs = tm_alloc_series_compute (trace, &req, cancellable, error);
  tm_alloc_request_clear (&req);
  if (m->allocs == NULL)
    return NULL;
  m->lifetimes = tm_lifetimes_compute (trace, from_gc, to_gc, classifier, 8, cancellable, error);
  if (m->lifetimes == NULL)
    return NULL;
  m->churn = tm_churn_compute (trace, from_gc, to_gc, &classifier, 1, cancellable, error);
  if (m->churn == NULL)
    return NULL;
  m->survival = tm_survival_compute (trace, from_gc, to_gc, cancellable, error);
  if (m->survival == NULL)
    return NULL;
  m->floating = tm_floating_garbage_series (trace, from_gc, to_gc, &why);
  if (m->floating == NULL)
    m->floating_unavailable = g_strdup (why->message);
  g_clear_error (&why);
  if (tm_transactions_present (trace))
    {
      m->transactions = tm_transactions_analyse (trace, cancellable, error);
      if (m->transactions == NULL)
        return NULL;
    }
  else
    m->transactions_unavailable = g_strdup ("No transactions were recorded. Record them with "
                                            "tidemark-cli record --transaction Class.method");
  return g_steal_pointer (&m);
}

void
tm_vm_metrics_free (TmVmMetrics *m)
{
  if (m == NULL)
    return;
  g_clear_pointer (&m->allocs, tm_alloc_series_unref);
  g_clear_pointer (&m->lifetimes, tm_lifetimes_free);
  g_clear_pointer (&m->churn, tm_churn_free);
  g_clear_pointer (&m->survival, tm_survival_free);
  g_clear_pointer (&m->floating, g_array_unref);
  g_clear_pointer (&m->transactions, tm_tx_report_free);
  g_free (m->floating_unavailable);
  g_free (m->transactions_unavailable);
  g_free (m);
}
