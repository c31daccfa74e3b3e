/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Leak confidence per container from reference graphs: see
 * tm-containers.h.  The heap states and detections come from the
 * document's cache, one GC at a time.
 */
#include "tm-containers.h"
#include "tm-containers-ops.h"
#include "tm-error.h"

#include <math.h>
#include <glib/gi18n-lib.h>

typedef struct {
  guint64  add_ns;
  guint32  last_seen;        /* graph ordinal */
  gboolean removed;
  gboolean added_within;     /* first seen after the container's first graph */
} Element;

typedef struct {
  double   sum;              /* staleness, ns */
  guint64  n;
} SiteStale;

typedef struct {
  guint32     head_object, type;
  guint32     first_gc, last_gc;
  guint32     first_idx, last_idx;
  guint64     last_t;
  double      last_ratio;
  double      area;          /* ns x fraction of reachable bytes */
  GHashTable *elements;      /* object index -> Element* */
  guint64     adds, removes;
  double      stale_sum;     /* closed stints, ns */
  guint64     stale_n;
  GHashTable *sites;         /* site -> SiteStale* */
  guint64     elements_last, bytes_first, bytes_last;
  GHashTable *nested;        /* object index + 1 of structures nested in it (a set's map) */
} Track;

static void
track_free (Track *t)
{
  g_hash_table_unref (t->elements);
  g_hash_table_unref (t->sites);
  g_hash_table_unref (t->nested);
  g_free (t);
}

static void
add_staleness (Track *t, guint32 site, double ns)
{
  SiteStale *ss = g_hash_table_lookup (t->sites, GUINT_TO_POINTER (site + 1));

  if (ss == NULL)
    {
      ss = g_new0 (SiteStale, 1);
      g_hash_table_insert (t->sites, GUINT_TO_POINTER (site + 1), ss);
    }
  ss->sum += ns;
  ss->n++;
  t->stale_sum += ns;
  t->stale_n++;
}

double
tm_leak_confidence (double sc, double mc)
{
  sc = CLAMP (sc, 0.0, 1.0);
  mc = CLAMP (mc, 0.0, 1.0);
  if (sc <= 0.0)
    return 0.0;
  return pow (sc, 1.0 - mc);
}

static gboolean
has_nested (const TmDsResult *ds, const GArray *leaves)
{
  for (guint i = 0; i < leaves->len; i++)
    if (tm_ds_result_find_head (ds, g_array_index (leaves, guint32, i)) != TM_DS_NONE)
      return TRUE;
  return FALSE;
}

static guint64
gc_time (const TmTrace *trace, guint32 gc_id)
{
  const TmGc *gc = tm_trace_gc (trace, gc_id);
  return gc->end_ns > gc->start_ns ? gc->end_ns : gc->start_ns;
}

/* A container's elements: its leaves, and those of the structures nested
 * in it, transitively.  A set holds its members through the map it
 * delegates to (DS HashSet { HashMap; }): its only leaf is that map, so
 * without this a set that grows by a listener every millisecond had one
 * element, never added or removed, and was left out as leak-free.  The
 * recorded operations of a nested structure count for the one holding it
 * (tm-containers-ops.c); its elements do so here. */
static void
container_elements (TmDsResult *ds, guint32 s, GArray *out)
{
  g_autoptr(GArray) deep = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  tm_ds_result_leaves (ds, s, out);
  for (guint i = 0; i < out->len; i++)
    g_hash_table_add (seen, GUINT_TO_POINTER (g_array_index (out, guint32, i) + 1));
  if (out->len == 0 || !has_nested (ds, out))
    return;
  tm_ds_result_deep_leaves (ds, s, deep);
  for (guint i = 0; i < deep->len; i++)
    {
      guint32 node = g_array_index (deep, guint32, i);

      if (g_hash_table_add (seen, GUINT_TO_POINTER (node + 1)))
        g_array_append_val (out, node);
    }
}

/* Records one graph's view of every container. */
static gboolean
observe (TmHeapCache *heaps, GHashTable *tracks, guint32 gc_id, guint32 idx,
         GCancellable *cancellable, GError **error)
{
  TmTrace *trace = tm_heap_cache_get_trace (heaps);
  const TmGc *gc = tm_trace_gc (trace, gc_id);
  guint64 t = gc_time (trace, gc_id);
  g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) leaves = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(TmHeapState) state = tm_heap_cache_get_ds (heaps, gc_id, cancellable, error);
  const TmHeapGraph *graph;
  TmDsResult *ds;

  if (state == NULL)
    return FALSE;
  graph = tm_heap_analysis_get_graph (state->heap);
  ds = state->ds;

  tm_ds_result_view_heads (ds, heads);
  for (guint h = 0; h < heads->len; h++)
    {
      guint32 node = g_array_index (heads, guint32, h);
      guint32 s = tm_ds_result_find_head (ds, node);
      guint32 obj = graph->node_object[node];
      Track *tr = g_hash_table_lookup (tracks, GUINT_TO_POINTER (obj + 1));
      double ratio;

      if (s == TM_DS_NONE)
        continue;
      if (tr == NULL)
        {
          tr = g_new0 (Track, 1);
          tr->head_object = obj;
          tr->type = trace->obj_type[obj];
          tr->first_gc = gc_id;
          tr->first_idx = idx;
          tr->elements = g_hash_table_new_full (NULL, NULL, NULL, g_free);
          tr->sites = g_hash_table_new_full (NULL, NULL, NULL, g_free);
          tr->nested = g_hash_table_new (NULL, NULL);
          g_hash_table_insert (tracks, GUINT_TO_POINTER (obj + 1), tr);
        }
      else if (tr->last_idx + 1 < idx)
        continue;   /* it left the view (nested into another) and came back: keep the first stretch */
      ratio = gc->reachable_bytes > 0 ? (double) tm_ds_result_deep (ds, s, NULL).bytes / gc->reachable_bytes : 0.0;
      if (idx > tr->first_idx)
        tr->area += (tr->last_ratio + ratio) / 2.0 * (double) (t - tr->last_t);
      tr->last_ratio = MIN (ratio, 1.0);
      tr->last_t = t;
      tr->last_idx = idx;
      tr->last_gc = gc_id;
      tr->bytes_last = tm_ds_result_deep (ds, s, NULL).bytes;
      if (idx == tr->first_idx)
        tr->bytes_first = tr->bytes_last;

      g_array_set_size (leaves, 0);
      container_elements (ds, s, leaves);
      tr->elements_last = leaves->len;
      for (guint l = 0; l < leaves->len; l++)
        {
          guint32 leaf = g_array_index (leaves, guint32, l);
          guint32 o = graph->node_object[leaf];
          Element *e = g_hash_table_lookup (tr->elements, GUINT_TO_POINTER (o + 1));

          /* its operations are recorded on the collection it delegates to */
          if (tm_ds_result_find_head (ds, leaf) != TM_DS_NONE)
            g_hash_table_add (tr->nested, GUINT_TO_POINTER (o + 1));

          if (e == NULL)
            {
              e = g_new0 (Element, 1);
              g_hash_table_insert (tr->elements, GUINT_TO_POINTER (o + 1), e);
            }
          else if (!e->removed)
            {
              e->last_seen = idx;
              continue;
            }
          e->removed = FALSE;
          e->add_ns = t;
          e->last_seen = idx;
          e->added_within = idx > tr->first_idx;
          if (e->added_within)
            tr->adds++;
        }
      /* what it no longer holds was removed at this graph */
      {
        GHashTableIter it;
        gpointer key, value;

        g_hash_table_iter_init (&it, tr->elements);
        while (g_hash_table_iter_next (&it, &key, &value))
          {
            Element *e = value;
            if (e->removed || e->last_seen == idx)
              continue;
            e->removed = TRUE;
            add_staleness (tr, trace->obj_site[GPOINTER_TO_UINT (key) - 1], (double) (t - e->add_ns));
            if (e->added_within)
              tr->removes++;
          }
      }
    }
  return TRUE;
}

static gint
compare_sites (gconstpointer a, gconstpointer b)
{
  const TmContainerSite *x = a, *y = b;

  if (x->mean_staleness != y->mean_staleness)
    return x->mean_staleness < y->mean_staleness ? 1 : -1;
  return (x->site > y->site) - (x->site < y->site);
}

/* The least share of the region's growth of reachable memory a container
 * must explain (or, when reachable memory did not grow, of the reachable
 * memory at te it must hold) to rank among the relevant ones. */
#define RELEVANT_MIN_SHARE 0.01
/* ... and the least share of the largest container's growth: a map of
 * two entries that grew by 228 KiB (1.4% of the growth) is not the leak
 * when another grew by 16 MiB, yet its staleness (0.93) ranked it first.
 * A leak split over many containers (a list per thread) keeps them all:
 * each grows about as much as the largest. */
#define RELEVANT_MIN_OF_LARGEST 0.10

/* LC = SC^(1 - MC) is the staleness alone when MC is small: a JDK map of
 * a few KiB that gained two entries early in the region (the GC MXBean's
 * GcInfoBuilder maps, the class loader's lock map) scores 0.9 and more,
 * while a list that leaks 1.4 MiB in a steady stream has the 0.5 a
 * steady stream gives (its elements are on average half the region old).
 * A container whose growth is not even 1% of the heap's growth cannot be
 * the leak, whatever its staleness: it ranks after those that can. */
gboolean
tm_container_relevant (const TmContainerReport *r, guint64 bytes_at_start, guint64 bytes_at_end)
{
  g_return_val_if_fail (r != NULL, FALSE);
  if (r->reachable_end > r->reachable_start)
    return (double) bytes_at_end - (double) bytes_at_start >=
           MAX (RELEVANT_MIN_SHARE * (double) (r->reachable_end - r->reachable_start),
                RELEVANT_MIN_OF_LARGEST * (double) r->largest_growth);
  return (double) bytes_at_end >= RELEVANT_MIN_SHARE * (double) r->reachable_end;
}

static gint
compare_containers (gconstpointer a, gconstpointer b)
{
  const TmContainer *x = *(TmContainer * const *) a, *y = *(TmContainer * const *) b;

  if (x->relevant != y->relevant)
    return x->relevant ? -1 : 1;
  if (x->lc != y->lc)
    return x->lc < y->lc ? 1 : -1;
  if (x->bytes_at_end != y->bytes_at_end)
    return x->bytes_at_end < y->bytes_at_end ? 1 : -1;
  return (x->head_object > y->head_object) - (x->head_object < y->head_object);
}

static void
container_free (TmContainer *c)
{
  g_array_unref (c->sites);
  g_free (c);
}

TmContainerReport *
tm_containers_compute (TmHeapCache *heaps, guint32 from_gc, guint32 to_gc,
                       GCancellable *cancellable, GError **error)
{
  TmTrace *trace = tm_heap_cache_get_trace (heaps);
  g_autoptr(GHashTable) tracks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) track_free);
  g_autoptr(TmContainerReport) r = NULL;
  g_autoptr(GHashTable) ops_index = NULL;
  guint32 idx = 0, last_idx = 0;
  GHashTableIter it;
  gpointer value;
  double span;

  g_return_val_if_fail (heaps != NULL, NULL);
  if (from_gc < 1 || to_gc > tm_trace_n_gcs (trace) || from_gc >= to_gc)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("the leak region must be GCs A < B within 1..%u (got %u..%u)"),
                   tm_trace_n_gcs (trace), from_gc, to_gc);
      return NULL;
    }
  r = g_new0 (TmContainerReport, 1);
  r->from_gc = from_gc;
  r->to_gc = to_gc;
  r->sc_upper_bound = TRUE;
  r->ts_ns = gc_time (trace, from_gc);
  r->te_ns = gc_time (trace, to_gc);
  r->containers = g_ptr_array_new_with_free_func ((GDestroyNotify) container_free);
  for (guint32 g = from_gc; g <= to_gc; g++)
    if (tm_trace_gc (trace, g)->has_graph)
      r->n_graphs++;
  if (r->n_graphs < 2)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH,
                   _("container leak confidence needs reference graphs at two or more GCs of %u..%u (%u there)"),
                   from_gc, to_gc, r->n_graphs);
      return NULL;
    }

  for (guint32 g = from_gc; g <= to_gc; g++)
    {
      if (!tm_trace_gc (trace, g)->has_graph)
        continue;
      if (!observe (heaps, tracks, g, idx, cancellable, error))
        return NULL;
      if (idx == 0)
        r->reachable_start = tm_trace_gc (trace, g)->reachable_bytes;
      r->reachable_end = tm_trace_gc (trace, g)->reachable_bytes;
      last_idx = idx++;
    }

  span = (double) (r->te_ns > r->ts_ns ? r->te_ns - r->ts_ns : 1);
  r->ops_recorded = tm_container_ops_recorded (trace);
  r->sc_upper_bound = !r->ops_recorded;
  if (r->ops_recorded)
    {
      /* container id -> the id of the top-level structure it belongs to */
      g_autoptr(GHashTable) wanted = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

      g_hash_table_iter_init (&it, tracks);
      while (g_hash_table_iter_next (&it, NULL, &value))
        {
          Track *tr = value;
          guint64 id = tm_trace_object_id (trace, tr->head_object);
          GHashTableIter ni;
          gpointer nk;

          g_hash_table_insert (wanted, g_memdup2 (&id, sizeof id), g_memdup2 (&id, sizeof id));
          g_hash_table_iter_init (&ni, tr->nested);
          while (g_hash_table_iter_next (&ni, &nk, NULL))
            {
              guint64 nid = tm_trace_object_id (trace, GPOINTER_TO_UINT (nk) - 1);
              if (!g_hash_table_contains (wanted, &nid))
                g_hash_table_insert (wanted, g_memdup2 (&nid, sizeof nid), g_memdup2 (&id, sizeof id));
            }
        }
      ops_index = tm_container_ops_index (trace, wanted);
    }
  g_hash_table_iter_init (&it, tracks);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      Track *tr = value;
      guint64 head_id = tm_trace_object_id (trace, tr->head_object);
      GArray *ops = ops_index ? g_hash_table_lookup (ops_index, &head_id) : NULL;
      TmContainerOpsStats st = { 0 };
      GHashTableIter ei;
      gpointer key, ev;
      TmContainer *c;

      if (tr->last_idx != last_idx)
        continue;   /* not alive at te: not a leak at te */
      if (ops != NULL)
        {
          tm_container_ops_replay (trace, ops, r->ts_ns, r->te_ns, &st);
          if (st.ops == 0)
            tm_container_ops_stats_clear (&st);
        }
      if (st.sites != NULL)
        {
          /* exact: the operations replace the graphs' estimate */
          if (st.present_at_end == 0 || st.adds == st.removes)
            {
              r->leak_free++;
              tm_container_ops_stats_clear (&st);
              continue;
            }
          g_hash_table_remove_all (tr->sites);
          g_hash_table_iter_init (&ei, st.sites);
          while (g_hash_table_iter_next (&ei, &key, &ev))
            {
              SiteStale *ss = g_new0 (SiteStale, 1);
              ss->sum = ((TmContainerOpsSite *) ev)->sum;
              ss->n = ((TmContainerOpsSite *) ev)->n;
              g_hash_table_insert (tr->sites, key, ss);
            }
          tr->stale_sum = st.stale_sum;
          tr->stale_n = st.stale_n;
          tr->adds = st.adds;
          tr->removes = st.removes;
          tm_container_ops_stats_clear (&st);
        }
      else if (tr->elements_last == 0 || tr->adds == tr->removes)
        {
          r->leak_free++;
          continue;
        }
      else
        {
          /* elements never removed are stale until te */
          g_hash_table_iter_init (&ei, tr->elements);
          while (g_hash_table_iter_next (&ei, &key, &ev))
            {
              Element *e = ev;
              if (!e->removed)
                add_staleness (tr, trace->obj_site[GPOINTER_TO_UINT (key) - 1], (double) (r->te_ns - e->add_ns));
            }
          r->sc_upper_bound = TRUE;
        }
      c = g_new0 (TmContainer, 1);
      c->exact = ops != NULL && st.ops > 0;
      c->ops = st.ops;
      c->head_object = tr->head_object;
      c->type = tr->type;
      c->first_gc = tr->first_gc;
      c->last_gc = tr->last_gc;
      c->elements_at_end = tr->elements_last;
      c->adds = tr->adds;
      c->removes = tr->removes;
      c->bytes_at_end = tr->bytes_last;
      c->bytes_at_start = tr->bytes_first;
      c->stints = tr->stale_n;
      c->mc = CLAMP (tr->area / span, 0.0, 1.0);
      c->sc = tr->stale_n > 0 ? CLAMP (tr->stale_sum / tr->stale_n / span, 0.0, 1.0) : 0.0;
      c->lc = tm_leak_confidence (c->sc, c->mc);
      c->sites = g_array_new (FALSE, FALSE, sizeof (TmContainerSite));
      g_hash_table_iter_init (&ei, tr->sites);
      while (g_hash_table_iter_next (&ei, &key, &ev))
        {
          const SiteStale *ss = ev;
          TmContainerSite cs = { GPOINTER_TO_UINT (key) - 1, ss->n, ss->sum / ss->n / span };
          g_array_append_val (c->sites, cs);
        }
      g_array_sort (c->sites, compare_sites);
      g_ptr_array_add (r->containers, c);
    }
  for (guint i = 0; i < r->containers->len; i++)
    {
      const TmContainer *c = g_ptr_array_index (r->containers, i);
      if (c->bytes_at_end > c->bytes_at_start)
        r->largest_growth = MAX (r->largest_growth, c->bytes_at_end - c->bytes_at_start);
    }
  for (guint i = 0; i < r->containers->len; i++)
    {
      TmContainer *c = g_ptr_array_index (r->containers, i);
      c->relevant = tm_container_relevant (r, c->bytes_at_start, c->bytes_at_end);
    }
  g_ptr_array_sort (r->containers, compare_containers);
  return g_steal_pointer (&r);
}

void
tm_container_report_free (TmContainerReport *r)
{
  if (r == NULL)
    return;
  g_ptr_array_unref (r->containers);
  g_free (r);
}
