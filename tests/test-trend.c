/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TrendViz on a trace with groups of known growth.  Over GCs 1..10 the
 * heap after GC g holds, per type (size in bytes, count):
 *
 *   A  100 x 50            flat
 *   B   10 x 10g           grows; every B references its own P
 *   P    7 x 10g           B's payload (only B reaches it)
 *   C   40 x (100 - 5(g-1)) shrinks (oldest die first)
 *   D   30 x (20 + 5(g-1)) grows
 *   E    8 x 5(g-1)        appears from nothing
 *   F   20 x (2 + 3(g-1))  grows
 *   G   50 x 30            flat
 *   T 1000 x 7 per GC      churn: allocated before GC g, dies in it (never live)
 *
 * Objects that exist before GC 1 come from site Init.setup:5, later ones
 * from Grow.add:10; later ones alternate threads "main" / "worker" within
 * each GC's batch, starting with main.  Every object but P is a static
 * root; reference graphs at the even GCs.  Expected orders below are
 * worked out by hand from this table.
 */
#include "tm-trend.h"
#include "tm-trace-writer.h"
#include "tm-error.h"

#include <math.h>
#include <string.h>

#define N_GCS 10
#define N_TYPES 9

enum { TA, TB, TP, TC, TD, TE, TF, TG, TT };

static const char *type_names[N_TYPES] = { "A", "B", "P", "C", "D", "E", "F", "G", "T" };
static const guint type_size[N_TYPES] = { 100, 10, 7, 40, 30, 8, 20, 50, 1000 };

/* live count of a type after GC g (1-based) */
static guint
count_at (guint t, guint g)
{
  switch (t)
    {
    case TA: return 50;
    case TB: case TP: return 10 * g;
    case TC: return 100 - 5 * (g - 1);
    case TD: return 20 + 5 * (g - 1);
    case TE: return 5 * (g - 1);
    case TF: return 2 + 3 * (g - 1);
    case TG: return 30;
    default: return 0;
    }
}

static double
bytes_at (guint t, guint g)
{
  return (double) type_size[t] * count_at (t, g);
}

typedef struct {
  guint64 id;
  guint   type;
  guint64 payload;   /* B only: id of its P */
} Obj;

static TmTrace *
build_trace (void)
{
  g_autoptr(GError) error = NULL;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 0 };
  GArray *live[N_TYPES];
  guint64 next_id = 1, n_allocs = 0, n_deaths = 0;
  guint64 init_frame = 1, grow_frame = 2;
  g_autoptr(GBytes) bytes = NULL;
  TmTrace *trace;

  h.version = 1;
  h.vm_name = "test";
  h.vm_version = "1";
  h.command_line = "test-trend";
  h.pointer_size = 8;
  h.flags = TM_TRACE_FLAG_GRAPHS | TM_TRACE_FLAG_DEATHS;
  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, TM_SPACE_KIND_OLD, "old");
  for (guint t = 0; t < N_TYPES; t++)
    tm_trace_writer_type (w, t + 1, type_names[t], 0);
  tm_trace_writer_frame (w, init_frame, "Init.setup()", "Init.java", 5);
  tm_trace_writer_frame (w, grow_frame, "Grow.add()", "Grow.java", 10);
  tm_trace_writer_site (w, 1, 1, &init_frame);
  tm_trace_writer_site (w, 2, 1, &grow_frame);
  tm_trace_writer_thread (w, 1, "main");
  tm_trace_writer_thread (w, 2, "worker");

  for (guint t = 0; t < N_TYPES; t++)
    live[t] = g_array_new (FALSE, FALSE, sizeof (Obj));

  for (guint g = 1; g <= N_GCS; g++)
    {
      g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (guint64));
      guint64 t0 = g * 100000000ull;
      TmSpaceUsageRecord usage = { 1, 0, 0, 1 << 20 };

      /* allocations before GC g: growth, then churn */
      for (guint t = 0; t < N_TYPES; t++)
        {
          guint want = t == TT ? 7 : count_at (t, g);
          guint batch = 0;

          if (t == TP)
            continue;   /* allocated with B */
          while (live[t]->len < want || (t == TT && batch < want))
            {
              Obj o = { next_id++, t, 0 };
              guint64 site = g == 1 && t != TT ? 1 : 2;
              guint64 thread = g == 1 ? 1 : (batch % 2 == 0 ? 1 : 2);

              tm_trace_writer_alloc (w, o.id, t + 1, site, thread, type_size[t], 1, 0);
              n_allocs++;
              if (t == TB)
                {
                  Obj p = { next_id++, TP, 0 };
                  tm_trace_writer_alloc (w, p.id, TP + 1, site, thread, type_size[TP], 1, 0);
                  n_allocs++;
                  o.payload = p.id;
                  g_array_append_val (live[TP], p);
                }
              g_array_append_val (live[t], o);
              batch++;
            }
        }

      tm_trace_writer_gc_start (w, g, t0, TM_GC_KIND_MAJOR, "test", "test");
      /* deaths in GC g: all churn, the oldest C beyond the wanted count */
      for (guint t = 0; t < N_TYPES; t++)
        {
          guint want = count_at (t, g);
          guint n_die = live[t]->len > want ? live[t]->len - want : 0;

          for (guint i = 0; i < n_die; i++)
            g_array_append_val (dead, g_array_index (live[t], Obj, i).id);
          g_array_remove_range (live[t], 0, n_die);
        }
      tm_trace_writer_deaths (w, g, (const guint64 *) (gpointer) dead->data, dead->len);
      n_deaths += dead->len;
      tm_trace_writer_gc_end (w, g, t0 + 1000000, 1000000, 1, &usage);

      if (g % 2 == 0)
        {
          g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (TmRootRecord));
          guint64 listed = 0;

          tm_trace_writer_graph_begin (w, g);
          for (guint t = 0; t < N_TYPES; t++)
            for (guint i = 0; t != TP && i < live[t]->len; i++)
              {
                TmRootRecord r = { g_array_index (live[t], Obj, i).id, TM_ROOT_KIND_STATIC, 0 };
                g_array_append_val (roots, r);
              }
          tm_trace_writer_roots (w, roots->len, (const TmRootRecord *) (gpointer) roots->data);
          for (guint i = 0; i < live[TB]->len; i++)
            {
              const Obj *o = &g_array_index (live[TB], Obj, i);
              tm_trace_writer_refs (w, o->id, 1, &o->payload);
              listed++;
            }
          tm_trace_writer_graph_end (w, g, listed);
        }
    }
  tm_trace_writer_end (w, n_allocs, n_deaths, N_GCS, (N_GCS + 1) * 100000000ull);
  g_assert_true (tm_trace_writer_close (w, &error));
  g_assert_no_error (error);
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  for (guint t = 0; t < N_TYPES; t++)
    g_array_unref (live[t]);

  trace = tm_trace_load_bytes (bytes, "test-trend", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (trace->complete);
  g_assert_cmpuint (tm_trace_n_gcs (trace), ==, N_GCS);
  return trace;
}

static TmTrace *shared_trace;

static TmTrend *
compute (guint from, guint to, TmTrendMetric metric, const char *chain, const char *drill)
{
  g_autoptr(GError) error = NULL;
  TmTrendRequest req;
  TmTrend *trend;

  tm_trend_request_init (&req);
  req.from_gc = from;
  req.to_gc = to;
  req.metric = metric;
  g_assert_true (tm_classifier_chain_parse (chain, req.chain, &req.depth, &error));
  if (drill)
    g_assert_true (tm_trend_request_set_drill (&req, drill, &error));
  g_assert_no_error (error);
  trend = tm_trend_compute (shared_trace, &req, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trend);
  g_assert_true (trend->complete);
  tm_trend_request_clear (&req);
  return trend;
}

static void
assert_order (TmTrend *trend, TmTrendSort sort, const char *expected)
{
  g_autoptr(GPtrArray) sel = tm_trend_select (trend, sort, 0, FALSE);
  g_autoptr(GString) got = g_string_new (NULL);

  for (guint i = 0; i < sel->len; i++)
    g_string_append_printf (got, "%s%s", i ? " " : "", ((TmTrendSeries *) g_ptr_array_index (sel, i))->key);
  g_test_message ("%s: %s", tm_trend_sort_to_string (sort), got->str);
  g_assert_cmpstr (got->str, ==, expected);
}

static void
test_values (void)
{
  g_autoptr(TmTrend) bytes = compute (1, N_GCS, TM_TREND_METRIC_BYTES, "type", NULL);
  g_autoptr(TmTrend) objects = compute (3, 8, TM_TREND_METRIC_OBJECTS, "type", NULL);

  g_assert_cmpuint (bytes->n_points, ==, N_GCS);
  g_assert_cmpuint (bytes->groups->len, ==, 8);    /* T never live; E live from GC 2 */
  g_assert_null (tm_trend_find_group (bytes, "T"));
  for (guint t = 0; t < N_TYPES; t++)
    {
      const TmTrendSeries *s = tm_trend_find_group (bytes, type_names[t]);
      if (t == TT)
        continue;
      g_assert_nonnull (s);
      for (guint g = 1; g <= N_GCS; g++)
        g_assert_cmpfloat (s->values[g - 1], ==, bytes_at (t, g));
    }
  for (guint g = 1; g <= N_GCS; g++)
    {
      double total = 0;
      for (guint t = 0; t < N_TYPES; t++)
        total += bytes_at (t, g);
      g_assert_cmpuint (bytes->gcs[g - 1], ==, g);
      g_assert_cmpuint (bytes->times_ns[g - 1], ==, g * 100000000ull + 1000000);
      g_assert_cmpfloat (bytes->total[g - 1], ==, total);
      g_assert_cmpfloat (bytes->total[g - 1], ==, (double) tm_trace_gc (shared_trace, g)->live_bytes);
    }

  g_assert_cmpuint (objects->n_points, ==, 6);
  g_assert_cmpuint (objects->gcs[0], ==, 3);
  for (guint t = 0; t < N_TYPES; t++)
    {
      const TmTrendSeries *s = tm_trend_find_group (objects, type_names[t]);
      if (t == TT)
        continue;
      for (guint g = 3; g <= 8; g++)
        g_assert_cmpfloat (s->values[g - 3], ==, count_at (t, g));
    }
}

static void
test_sorting (void)
{
  g_autoptr(TmTrend) trend = compute (1, N_GCS, TM_TREND_METRIC_BYTES, "type", NULL);

  /* start: A 5000, C 4000, G 1500, D 600, B 100, P 70, F 40, E 0 */
  assert_order (trend, TM_TREND_SORT_START, "A C G D B P F E");
  /* end: A 5000, C 2200, D 1950, G 1500, B 1000, P 700, F 580, E 360 */
  assert_order (trend, TM_TREND_SORT_END, "A C D G B P F E");
  /* average: A 5000, C 3100, G 1500, D 1275, B 550, P 385, F 310, E 180 */
  assert_order (trend, TM_TREND_SORT_AVERAGE, "A C G D B P F E");
  /* abs: D 1350, B 900, P 630, F 540, E 360, A 0 = G 0 (end decides), C -1800 */
  assert_order (trend, TM_TREND_SORT_ABS_GROWTH, "D B P F E A G C");
  /* rel: E new, F 13.5, B 9 = P 9 (end decides), D 2.25, A 0 = G 0, C -0.45 */
  assert_order (trend, TM_TREND_SORT_REL_GROWTH, "E F B P D A G C");

  g_assert_cmpfloat (tm_trend_series_rank_value (trend, tm_trend_find_group (trend, "C"),
                                                 TM_TREND_SORT_REL_GROWTH), ==, -0.45);
  g_assert_cmpfloat (tm_trend_series_rank_value (trend, tm_trend_find_group (trend, "D"),
                                                 TM_TREND_SORT_AVERAGE), ==, 1275);
  g_assert_true (isinf (tm_trend_series_rank_value (trend, tm_trend_find_group (trend, "E"),
                                                    TM_TREND_SORT_REL_GROWTH)));
}

static void
test_other (void)
{
  g_autoptr(TmTrend) trend = compute (1, N_GCS, TM_TREND_METRIC_BYTES, "type", NULL);

  for (TmTrendSort sort = 0; sort < TM_TREND_N_SORTS; sort++)
    for (guint top = 1; top <= 8; top++)
      {
        g_autoptr(GPtrArray) sel = tm_trend_select (trend, sort, top, TRUE);
        g_autoptr(GPtrArray) no_other = tm_trend_select (trend, sort, top, FALSE);
        const TmTrendSeries *other;

        g_assert_cmpuint (no_other->len, ==, top);
        if (top == 8)
          {
            /* nothing left: no Other series */
            g_assert_cmpuint (sel->len, ==, 8);
            continue;
          }
        g_assert_cmpuint (sel->len, ==, top + 1);
        other = g_ptr_array_index (sel, top);
        g_assert_true (other->is_other);
        g_assert_cmpstr (other->key, ==, "Other");
        for (guint g = 1; g <= N_GCS; g++)
          {
            double shown = 0, total = 0;
            for (guint i = 0; i < top; i++)
              shown += ((TmTrendSeries *) g_ptr_array_index (sel, i))->values[g - 1];
            for (guint t = 0; t < N_TYPES; t++)
              total += bytes_at (t, g);
            g_assert_cmpfloat (other->values[g - 1], ==, total - shown);
          }
      }

  /* default: abs-growth top 5 + Other = A + G + C */
  {
    g_autoptr(GPtrArray) sel = tm_trend_select (trend, TM_TREND_DEFAULT_SORT, TM_TREND_DEFAULT_TOP, TRUE);
    const TmTrendSeries *other = g_ptr_array_index (sel, 5);
    for (guint g = 1; g <= N_GCS; g++)
      g_assert_cmpfloat (other->values[g - 1], ==, bytes_at (TA, g) + bytes_at (TG, g) + bytes_at (TC, g));
  }
}

static void
assert_series (TmTrend *trend, const char *key, const double *expected)
{
  const TmTrendSeries *s = tm_trend_find_group (trend, key);

  g_assert_nonnull (s);
  for (guint p = 0; p < trend->n_points; p++)
    g_assert_cmpfloat (s->values[p], ==, expected[p]);
}

static void
test_drill (void)
{
  g_autoptr(TmTrend) d = compute (1, N_GCS, TM_TREND_METRIC_BYTES, "type,site,thread", "D");
  g_autoptr(TmTrend) dg = compute (1, N_GCS, TM_TREND_METRIC_OBJECTS, "type,site,thread", "D/Grow.add():10");
  g_autoptr(TmTrend) age = compute (1, N_GCS, TM_TREND_METRIC_BYTES, "type,age", "A");
  g_autoptr(GPtrArray) sel = NULL;
  double init[N_GCS], grow[N_GCS], main_t[N_GCS], worker[N_GCS];
  g_autoptr(GError) error = NULL;
  TmTrendRequest req;

  g_assert_cmpint (d->level_classifier, ==, TM_CLASSIFIER_SITE);
  g_assert_cmpuint (d->groups->len, ==, 2);
  for (guint g = 1; g <= N_GCS; g++)
    {
      init[g - 1] = 20 * 30;
      grow[g - 1] = 5.0 * (g - 1) * 30;
      main_t[g - 1] = 3.0 * (g - 1);    /* 5 per GC: main, worker, main, worker, main */
      worker[g - 1] = 2.0 * (g - 1);
      g_assert_cmpfloat (d->total[g - 1], ==, bytes_at (TD, g));
    }
  assert_series (d, "Init.setup():5", init);
  assert_series (d, "Grow.add():10", grow);
  sel = tm_trend_select (d, TM_TREND_DEFAULT_SORT, 1, TRUE);
  g_assert_cmpstr (((TmTrendSeries *) g_ptr_array_index (sel, 0))->key, ==, "Grow.add():10");
  g_assert_cmpstr (((TmTrendSeries *) g_ptr_array_index (sel, 1))->key, ==, "Other");
  assert_series (d, "Init.setup():5", ((TmTrendSeries *) g_ptr_array_index (sel, 1))->values);

  g_assert_cmpint (dg->level_classifier, ==, TM_CLASSIFIER_THREAD);
  g_assert_cmpuint (dg->groups->len, ==, 2);
  assert_series (dg, "main", main_t);
  assert_series (dg, "worker", worker);

  /* age (per-GC path): every A was born before GC 1, so at GC g all 50
   * are g GCs old */
  g_assert_cmpuint (age->groups->len, ==, N_GCS);
  for (guint g = 1; g <= N_GCS; g++)
    {
      g_autofree char *key = g_strdup_printf (g == 1 ? "%u GC" : "%u GCs", g);
      const TmTrendSeries *s = tm_trend_find_group (age, key);
      g_assert_nonnull (s);
      for (guint p = 1; p <= N_GCS; p++)
        g_assert_cmpfloat (s->values[p - 1], ==, p == g ? 5000 : 0);
    }

  /* unknown drill key, and a drill without a level below */
  tm_trend_request_init (&req);
  req.from_gc = 1;
  req.to_gc = N_GCS;
  g_assert_true (tm_classifier_chain_parse ("type,site", req.chain, &req.depth, NULL));
  g_assert_true (tm_trend_request_set_drill (&req, "NoSuchType", NULL));
  g_assert_null (tm_trend_compute (shared_trace, &req, NULL, NULL, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (tm_trend_request_set_drill (&req, "D/Grow.add():10", &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* keys holding a slash or a backslash */
  g_assert_true (tm_classifier_chain_parse ("thread,type,site", req.chain, &req.depth, NULL));
  g_assert_true (tm_trend_request_set_drill (&req, "pool\\/1/a\\\\b", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (req.n_drill, ==, 2);
  g_assert_cmpstr (req.drill[0], ==, "pool/1");
  g_assert_cmpstr (req.drill[1], ==, "a\\b");
  g_assert_false (tm_trend_request_set_drill (&req, "main//x", &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  tm_trend_request_clear (&req);
}

static void
test_retained (void)
{
  g_autoptr(TmTrend) ret = compute (1, N_GCS, TM_TREND_METRIC_RETAINED_BYTES, "type", NULL);
  g_autoptr(TmTrend) deep = compute (1, N_GCS, TM_TREND_METRIC_DEEP_OBJECTS, "type", NULL);
  g_autoptr(TmTrend) drill = compute (3, N_GCS, TM_TREND_METRIC_RETAINED_BYTES, "type,site", "B");

  /* only the GCs with a graph */
  g_assert_cmpuint (ret->n_points, ==, 5);
  for (guint p = 0; p < 5; p++)
    {
      guint g = 2 * (p + 1);
      g_assert_cmpuint (ret->gcs[p], ==, g);
      for (guint t = 0; t < N_TYPES; t++)
        {
          const TmTrendSeries *s = tm_trend_find_group (ret, type_names[t]);
          double want = t == TB ? bytes_at (TB, g) + bytes_at (TP, g) : bytes_at (t, g);
          if (t == TT)
            continue;
          g_assert_cmpfloat (s->values[p], ==, want);
        }
      g_assert_cmpfloat (tm_trend_find_group (deep, "B")->values[p], ==, 2.0 * count_at (TB, g));
      g_assert_cmpfloat (tm_trend_find_group (deep, "P")->values[p], ==, count_at (TP, g));
    }
  /* retained abs-growth: B 17 x 80 = 1360 > D 30 x 40 = 1200 > P 560 > F 480 > E 320 > A = G > C */
  assert_order (ret, TM_TREND_SORT_ABS_GROWTH, "B D P F E A G C");

  /* drill: B's Init entries (10 of them, 17 bytes with payload) flat, the rest grow */
  g_assert_cmpuint (drill->n_points, ==, 4);
  for (guint p = 0; p < 4; p++)
    {
      guint g = 4 + 2 * p;
      g_assert_cmpfloat (tm_trend_find_group (drill, "Init.setup():5")->values[p], ==, 170);
      g_assert_cmpfloat (tm_trend_find_group (drill, "Grow.add():10")->values[p], ==, 17.0 * 10 * (g - 1));
    }
}

static TmTrend *
compute_cached (TmHeapCache *heaps, const char *chain, const char *drill)
{
  g_autoptr(GError) error = NULL;
  TmTrendRequest req;
  TmTrend *trend;

  tm_trend_request_init (&req);
  req.from_gc = 1;
  req.to_gc = N_GCS;
  req.metric = TM_TREND_METRIC_RETAINED_BYTES;
  g_assert_true (tm_classifier_chain_parse (chain, req.chain, &req.depth, NULL));
  if (drill)
    g_assert_true (tm_trend_request_set_drill (&req, drill, NULL));
  trend = tm_trend_compute_cached (shared_trace, &req, heaps, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  tm_trend_request_clear (&req);
  return trend;
}

static void
assert_same (TmTrend *a, TmTrend *b)
{
  g_assert_cmpuint (a->n_points, ==, b->n_points);
  g_assert_cmpuint (a->groups->len, ==, b->groups->len);
  for (guint i = 0; i < a->groups->len; i++)
    {
      const TmTrendSeries *x = g_ptr_array_index (a->groups, i);
      const TmTrendSeries *y = tm_trend_find_group (b, x->key);
      g_assert_nonnull (y);
      g_assert_cmpmem (x->values, a->n_points * sizeof (double), y->values, b->n_points * sizeof (double));
    }
}

static gpointer
cached_thread (gpointer data)
{
  return compute_cached (data, "type", NULL);
}

static void
test_heap_cache (void)
{
  g_autoptr(TmTrend) plain = compute_cached (NULL, "type", NULL);
  g_autoptr(TmTrend) plain_drill = compute_cached (NULL, "type,site", "B");
  g_autoptr(TmHeapCache) heaps = tm_heap_cache_new (shared_trace, NULL, -1, G_MAXUINT64);
  g_autoptr(TmHeapCache) small = tm_heap_cache_new (shared_trace, NULL, -1, 1);

  /* first use builds the 5 graph GCs' states, the drill-down reuses them */
  {
    g_autoptr(TmTrend) a = compute_cached (heaps, "type", NULL);
    g_autoptr(TmTrend) b = compute_cached (heaps, "type,site", "B");
    assert_same (a, plain);
    assert_same (b, plain_drill);
    g_assert_cmpuint (tm_heap_cache_get_n_kept (heaps), ==, 5);
    g_assert_cmpuint (tm_heap_cache_get_hits (heaps), ==, 5);
  }

  /* a budget below one state keeps only the one in use */
  {
    g_autoptr(TmTrend) a = compute_cached (small, "type", NULL);
    assert_same (a, plain);
    g_assert_cmpuint (tm_heap_cache_get_n_kept (small), ==, 1);
  }

  /* two workers at once on a fresh cache: each state built once */
  {
    g_autoptr(TmHeapCache) shared = tm_heap_cache_new (shared_trace, NULL, -1, G_MAXUINT64);
    GThread *t1 = g_thread_new ("trend-1", cached_thread, shared);
    GThread *t2 = g_thread_new ("trend-2", cached_thread, shared);
    g_autoptr(TmTrend) r1 = g_thread_join (t1);
    g_autoptr(TmTrend) r2 = g_thread_join (t2);

    assert_same (r1, plain);
    assert_same (r2, plain);
    g_assert_cmpuint (tm_heap_cache_get_n_kept (shared), ==, 5);
    g_assert_cmpuint (tm_heap_cache_get_hits (shared), ==, 5);
  }
}

static void
partial_cb (TmTrend *partial, gpointer user_data)
{
  GPtrArray *seen = user_data;
  g_ptr_array_add (seen, tm_trend_ref (partial));
}

static void
test_plan_and_partial (void)
{
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_trend_unref);
  g_autoptr(GArray) plan = NULL;
  g_autoptr(TmTrend) trend = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  TmTrendRequest req;
  const guint32 every3[] = { 1, 4, 7, 10 }, interval[] = { 1, 3, 5, 7, 9 }, graphs2[] = { 2, 6, 10 };

  tm_trend_request_init (&req);
  req.from_gc = 1;
  req.to_gc = N_GCS;
  req.every = 3;
  plan = tm_trend_plan_gcs (shared_trace, &req);
  g_assert_cmpmem (plan->data, plan->len * 4, every3, sizeof every3);
  g_clear_pointer (&plan, g_array_unref);

  req.every = 1;
  req.interval_ns = 150000000;   /* GCs end 100 ms apart */
  plan = tm_trend_plan_gcs (shared_trace, &req);
  g_assert_cmpmem (plan->data, plan->len * 4, interval, sizeof interval);
  g_clear_pointer (&plan, g_array_unref);

  req.interval_ns = 0;
  req.every = 2;
  req.metric = TM_TREND_METRIC_RETAINED_OBJECTS;
  plan = tm_trend_plan_gcs (shared_trace, &req);
  g_assert_cmpmem (plan->data, plan->len * 4, graphs2, sizeof graphs2);

  /* per-GC snapshots grow one point at a time and agree with the end */
  req.every = 1;
  trend = tm_trend_compute (shared_trace, &req, partial_cb, seen, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (seen->len, ==, 5);
  for (guint i = 0; i < seen->len; i++)
    {
      TmTrend *snap = g_ptr_array_index (seen, i);
      g_assert_cmpuint (snap->n_points, ==, i + 1);
      g_assert_cmpuint (snap->n_planned, ==, 5);
      g_assert_true (snap->complete == (i == 4));
      for (guint p = 0; p < snap->n_points; p++)
        g_assert_cmpfloat (tm_trend_find_group (snap, "D")->values[p], ==,
                           tm_trend_find_group (trend, "D")->values[p]);
    }

  /* a window without graphs, for a metric that needs one */
  req.from_gc = 3;
  req.to_gc = 3;
  g_assert_null (tm_trend_compute (shared_trace, &req, NULL, NULL, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_NO_GRAPH);
  g_clear_error (&error);

  /* cancelled */
  req.to_gc = N_GCS;
  req.metric = TM_TREND_METRIC_BYTES;
  g_cancellable_cancel (cancel);
  g_assert_null (tm_trend_compute (shared_trace, &req, NULL, NULL, cancel, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* a window outside the trace */
  req.from_gc = N_GCS + 1;
  req.to_gc = N_GCS + 5;
  g_assert_null (tm_trend_compute (shared_trace, &req, NULL, NULL, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
}

/* The one-pass shallow series must equal classifying each GC's heap. */
static void
test_one_pass_matches_per_gc (void)
{
  g_autoptr(TmTrend) sites = compute (2, 9, TM_TREND_METRIC_BYTES, "site", NULL);

  for (guint p = 0; p < sites->n_points; p++)
    {
      guint32 g = sites->gcs[p], n = 0;
      g_autofree guint32 *live = tm_trace_live_objects (shared_trace, g, &n);
      double per_site[3] = { 0 };

      for (guint32 i = 0; i < n; i++)
        per_site[shared_trace->obj_site[live[i]]] += tm_trace_object_size (shared_trace, live[i]);
      for (guint k = 0; k < sites->groups->len; k++)
        {
          const TmTrendSeries *s = g_ptr_array_index (sites->groups, k);
          double want = strcmp (s->key, "Init.setup():5") == 0 ? per_site[1] : per_site[2];
          g_assert_cmpfloat (s->values[p], ==, want);
        }
    }
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  shared_trace = build_trace ();
  g_test_add_func ("/trend/values", test_values);
  g_test_add_func ("/trend/sorting", test_sorting);
  g_test_add_func ("/trend/other", test_other);
  g_test_add_func ("/trend/drill", test_drill);
  g_test_add_func ("/trend/retained", test_retained);
  g_test_add_func ("/trend/heap-cache", test_heap_cache);
  g_test_add_func ("/trend/plan-and-partial", test_plan_and_partial);
  g_test_add_func ("/trend/one-pass-matches-per-gc", test_one_pass_matches_per_gc);
  rc = g_test_run ();
  tm_trace_unref (shared_trace);
  return rc;
}
