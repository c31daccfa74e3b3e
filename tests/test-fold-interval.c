/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm_trace_builder_alloc_interval(): a source that sees every death as it
 * happens (heaptrack's frees) hands over an interval's allocations at
 * once, and the ones already dead never become rows.  The model must be
 * the one that a row per allocation, deaths "now" and the fold at the
 * next GC give: the same rows, numbers, ids, per-GC figures and
 * short-lived counters to the bit (ages are summed in the same order).
 * Both models are built here from the same pseudo-random events.
 */
#include <string.h>

#include "tm-trace-builder.h"
#include "tm-trace-private.h"

#define N_KINDS 40

typedef struct {
  TmAllocKind kind;
  guint32     pad;   /* a stride other than the struct's own */
} Kind;

typedef struct {
  TmTraceBuilder *b;
  gboolean        intervals;   /* the way under test */
  GArray         *scratch;     /* guint32 items of the current interval */
  guint64         scratch_first;
  gboolean        rows_now;    /* this interval: one by one */
  guint64         n_objects;
  gint64          fast;        /* intervals taken at once */
} Side;

static Kind kinds[N_KINDS];

static void
define (TmTraceBuilder *b)
{
  TmTraceHeader h = { 1, 0, "test", "1", "test-fold-interval", 8, 0, TM_TRACE_FLAG_DEATHS };

  tm_trace_builder_header (b, &h);
  g_assert_true (tm_trace_builder_space (b, 1, TM_SPACE_KIND_OTHER, "heap", NULL));
  for (guint i = 1; i <= 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("T%u", i);
      guint64 frame = i;
      g_assert_true (tm_trace_builder_type (b, i, name, 0, NULL));
      g_assert_true (tm_trace_builder_frame (b, i, name, "f.c", i, NULL));
      g_assert_true (tm_trace_builder_site (b, i, 1, &frame, NULL));
      g_assert_true (tm_trace_builder_thread (b, i, name, NULL));
    }
}

static void
one_by_one (Side *s, const guint32 *items, gsize n, guint64 first)
{
  g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (gsize k = 0; k < n; k++)
    {
      const TmAllocKind *kd = &kinds[items[k] & ~TM_TRACE_BUILDER_DIED].kind;
      guint64 id = first + k;
      g_autoptr(GError) error = NULL;

      tm_trace_builder_alloc (s->b, id, kd->type_id, kd->site_id, kd->thread_id, kd->size, 0, 0, &error);
      if (items[k] & TM_TRACE_BUILDER_DIED)
        g_array_append_val (dead, id);
    }
  if (dead->len > 0)
    g_assert_true (tm_trace_builder_deaths (s->b, 0, (guint64 *) (gpointer) dead->data, dead->len, NULL));
}

static void
flush (Side *s, guint64 end_ns)
{
  guint32 *items = (guint32 *) (gpointer) s->scratch->data;
  g_autoptr(GError) error = NULL;
  gint64 r;

  if (s->scratch->len == 0)
    return;
  r = tm_trace_builder_alloc_interval (s->b, s->scratch_first, items, s->scratch->len, &kinds[0].kind,
                                       sizeof (Kind), N_KINDS, end_ns, &error);
  g_assert_no_error (error);
  if (r >= 0)
    s->fast++;
  else
    one_by_one (s, items, s->scratch->len, s->scratch_first);
  g_array_set_size (s->scratch, 0);
}

static void
alloc (Side *s, guint32 kind)
{
  guint64 id = ++s->n_objects;

  if (s->intervals && !s->rows_now)
    {
      if (s->scratch->len == 0)
        s->scratch_first = id;
      g_array_append_val (s->scratch, kind);
      return;
    }
  one_by_one (s, &kind, 1, id);
}

static void
die (Side *s, guint64 id)
{
  if (s->intervals && id >= s->scratch_first && id - s->scratch_first < s->scratch->len)
    g_array_index (s->scratch, guint32, id - s->scratch_first) |= TM_TRACE_BUILDER_DIED;
  else
    g_assert_true (tm_trace_builder_deaths (s->b, 0, &id, 1, NULL));
}

static void
point (Side *s, guint32 gc, guint64 ns)
{
  TmSpaceUsageRecord u = { 1, 100, 50, 200 };

  if (s->intervals)
    flush (s, ns);
  s->rows_now = FALSE;
  g_assert_true (tm_trace_builder_gc_start (s->b, gc, ns, TM_GC_KIND_UNKNOWN, "t", "time", NULL));
  g_assert_true (tm_trace_builder_gc_end (s->b, gc, ns, 0, 1, &u, NULL));
}

/* The same events into both sides: allocations of random kinds, frees of
 * random live objects (recent ones mostly), points at growing times. */
static void
build (Side *a, Side *b, guint32 seed, guint n_points)
{
  GRand *rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) live = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 ns = 0;
  Side *sides[2] = { a, b };

  for (guint p = 1; p <= n_points + 1; p++)
    {
      guint n = g_rand_int_range (rand, 0, 3000);
      /* some intervals go one by one on the side under test too: the
       * next interval's call must fold them first */
      b->rows_now = g_rand_int_range (rand, 0, 6) == 0;
      for (guint i = 0; i < n; i++)
        {
          if (live->len > 0 && g_rand_int_range (rand, 0, 100) < 48)
            {
              /* mostly among the newest */
              guint j = g_rand_int_range (rand, 0, 4) > 0 ? live->len - 1 - g_rand_int_range (rand, 0, MIN (live->len, 50))
                                                          : (guint) g_rand_int_range (rand, 0, live->len);
              guint64 id = g_array_index (live, guint64, j);
              g_array_remove_index_fast (live, j);
              for (guint s = 0; s < 2; s++)
                die (sides[s], id);
            }
          else
            {
              guint32 kind = g_rand_int_range (rand, 0, N_KINDS);
              for (guint s = 0; s < 2; s++)
                alloc (sides[s], kind);
              g_array_append_val (live, a->n_objects);
            }
          if (g_rand_int_range (rand, 0, 500) == 0)
            ns += g_rand_int_range (rand, 1, 20000000);
        }
      ns += (guint64) g_rand_int_range (rand, 1, 2000000000);
      if (p <= n_points)
        for (guint s = 0; s < 2; s++)
          point (sides[s], p, ns);
    }
  /* the end: what came after the last point stays rows, as it would */
  for (guint s = 0; s < 2; s++)
    {
      if (sides[s]->intervals && sides[s]->scratch->len > 0)
        {
          one_by_one (sides[s], (guint32 *) (gpointer) sides[s]->scratch->data, sides[s]->scratch->len,
                      sides[s]->scratch_first);
          g_array_set_size (sides[s]->scratch, 0);
        }
      tm_trace_builder_tick (sides[s]->b, ns);
    }
  g_rand_free (rand);
}

static void
side_init (Side *s, gboolean intervals)
{
  memset (s, 0, sizeof *s);
  s->b = tm_trace_builder_new ("test", "heaptrack");
  s->intervals = intervals;
  s->scratch = g_array_new (FALSE, FALSE, sizeof (guint32));
  define (s->b);
}

static void
assert_same (const TmTrace *x, const TmTrace *y)
{
  g_assert_cmpuint (x->n_objects, ==, y->n_objects);
  g_assert_cmpuint (x->total_allocs, ==, y->total_allocs);
  g_assert_cmpuint (x->total_alloc_bytes, ==, y->total_alloc_bytes);
  g_assert_cmpuint (x->total_deaths, ==, y->total_deaths);
  g_assert_cmpuint (x->first_id, ==, y->first_id);
  for (guint64 i = 0; i < x->n_objects; i++)
    {
      guint64 index;
      g_assert_cmpuint (x->obj_type[i], ==, y->obj_type[i]);
      g_assert_cmpuint (x->obj_site[i], ==, y->obj_site[i]);
      g_assert_cmpuint (x->obj_thread[i], ==, y->obj_thread[i]);
      g_assert_cmpuint (x->obj_size[i], ==, y->obj_size[i]);
      g_assert_cmpuint (x->obj_death[i], ==, y->obj_death[i]);
      g_assert_cmpuint (tm_trace_object_seq (x, i), ==, tm_trace_object_seq (y, i));
      g_assert_true (tm_trace_object_index_for_id (y, tm_trace_object_id (x, i), &index));
      g_assert_cmpuint (index, ==, i);
    }
  g_assert_cmpuint (x->gcs->len, ==, y->gcs->len);
  for (guint g = 1; g <= x->gcs->len; g++)
    {
      g_assert_cmpuint (tm_trace_gc (x, g)->allocs_before, ==, tm_trace_gc (y, g)->allocs_before);
      g_assert_cmpuint (tm_trace_gc (x, g)->allocations_before, ==, tm_trace_gc (y, g)->allocations_before);
      g_assert_cmpuint (tm_trace_gc (x, g)->live_objects, ==, tm_trace_gc (y, g)->live_objects);
      g_assert_cmpuint (tm_trace_gc (x, g)->live_bytes, ==, tm_trace_gc (y, g)->live_bytes);
    }
  g_assert_cmpuint (x->short_lived->len, ==, y->short_lived->len);
  g_assert_cmpmem (x->short_lived->data, x->short_lived->len * sizeof (TmShortLived), y->short_lived->data,
                   y->short_lived->len * sizeof (TmShortLived));
  g_assert_cmpuint (x->short_lived_first->len, ==, y->short_lived_first->len);
  g_assert_cmpmem (x->short_lived_first->data, x->short_lived_first->len * sizeof (guint64),
                   y->short_lived_first->data, y->short_lived_first->len * sizeof (guint64));
}

static void
test_same_model (void)
{
  for (guint32 seed = 1; seed <= 6; seed++)
    {
      Side rows, intervals;
      g_autoptr(TmTrace) x = NULL;
      g_autoptr(TmTrace) y = NULL;
      gsize n_short = 0;

      side_init (&rows, FALSE);
      side_init (&intervals, TRUE);
      build (&rows, &intervals, seed, 40);
      x = tm_trace_builder_finish (rows.b);
      y = tm_trace_builder_finish (intervals.b);
      /* most intervals were taken at once, and most objects died young */
      g_assert_cmpint (intervals.fast, >=, 20);
      for (guint e = 0; e < y->short_lived->len; e++)
        n_short += g_array_index (y->short_lived, TmShortLived, e).count;
      g_assert_cmpuint (n_short, >, y->total_allocs / 4);
      assert_same (x, y);
      g_array_unref (rows.scratch);
      g_array_unref (intervals.scratch);
    }
}

/* Not the plain case: the call says so and changes nothing. */
static void
test_refused (void)
{
  Side s;
  guint32 items[2] = { 0, 1 | TM_TRACE_BUILDER_DIED };
  g_autoptr(TmTrace) t = NULL;

  side_init (&s, TRUE);
  /* a kind of 4 GiB */
  kinds[1].kind.size = G_GUINT64_CONSTANT (1) << 32;
  g_assert_cmpint (tm_trace_builder_alloc_interval (s.b, 1, items, 2, &kinds[0].kind, sizeof (Kind), N_KINDS, 5, NULL),
                   ==, -1);
  kinds[1].kind.size = 24;
  /* an undefined type */
  kinds[2].kind.type_id = 99;
  items[1] = 2;
  g_assert_cmpint (tm_trace_builder_alloc_interval (s.b, 1, items, 2, &kinds[0].kind, sizeof (Kind), N_KINDS, 5, NULL),
                   ==, -1);
  kinds[2].kind.type_id = 3;
  /* a kind out of the table */
  items[1] = N_KINDS;
  g_assert_cmpint (tm_trace_builder_alloc_interval (s.b, 1, items, 2, &kinds[0].kind, sizeof (Kind), N_KINDS, 5, NULL),
                   ==, -1);
  /* rows already added in this interval */
  items[1] = 1 | TM_TRACE_BUILDER_DIED;
  g_assert_true (tm_trace_builder_alloc (s.b, 1, 1, 1, 1, 8, 0, 0, NULL));
  g_assert_cmpint (tm_trace_builder_alloc_interval (s.b, 2, items, 2, &kinds[0].kind, sizeof (Kind), N_KINDS, 5, NULL),
                   ==, -1);
  t = tm_trace_builder_finish (s.b);
  g_assert_cmpuint (t->total_allocs, ==, 1);
  g_assert_cmpuint (t->short_lived->len, ==, 0);
  g_array_unref (s.scratch);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < N_KINDS; i++)
    {
      kinds[i].kind.type_id = 1 + i % 5;
      kinds[i].kind.site_id = 1 + (i / 5) % 5;
      kinds[i].kind.thread_id = 1 + (i / 3) % 5;
      /* sizes across the size classes, 0 and 8 included */
      kinds[i].kind.size = (guint64) i * i * 7 + (i % 2) * 8;
    }
  g_test_add_func ("/fold-interval/same-model", test_same_model);
  g_test_add_func ("/fold-interval/refused", test_refused);
  return g_test_run ();
}
