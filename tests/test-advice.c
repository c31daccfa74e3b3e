/* SPDX-License-Identifier: GPL-3.0-or-later
 * GC advice rules on synthetic GC timelines with known answers: each rule
 * fires on a timeline built to show its problem, with exactly the GCs that
 * show it, and stays silent on a steady, healthy run and just below its
 * threshold. */
#include "tm-advice.h"
#include "tm-advice-ages.h"
#include "tm-advice-report.h"
#include "tm-gclog.h"
#include "tm-gc-stats.h"
#include "tm-trace-builder.h"

#include <string.h>

#define MIB (G_GUINT64_CONSTANT (1024) * 1024)
#define MS  G_GUINT64_CONSTANT (1000000)

enum { YOUNG = 1, SURV = 2, OLD = 3, META = 4 };

typedef struct {
  guint    kind;           /* TmGcKind, 0 = minor */
  const char *cause;       /* NULL = "Allocation Failure" */
  guint64  gap_ms;         /* from the previous GC's end to this GC's start; 0 = 1000 */
  guint64  pause_ms;       /* 0 = 5 */
  guint64  young_before, young_after;            /* MiB */
  guint64  surv_after, surv_cap;                 /* MiB; surv_cap 0 = no survivor space */
  guint64  old_before, old_after;                /* MiB */
  guint64  meta;                                 /* MiB, 0 = none */
} Gc;

/* > 0: build() ends the run with an OutOfMemoryError of the Java heap
 * after this GC. */
static guint oom_after;

/* Non-NULL: the -Xmx the recorder writes (META jvm.MaxHeapSize), in place
 * of the log's 400 MiB. */
static const char *recorded_max_heap;

/* Heap of 400 MiB: young 100 MiB committed, old 300 MiB. */
static TmTrace *
build (const Gc *gcs, guint n, const char *collector, const char *evac_failures)
{
  TmTraceBuilder *b = tm_trace_builder_new ("advice.log", "gc-log");
  TmTraceHeader h = { .version = 1, .vm_name = "HotSpot", .vm_version = "17", .command_line = "",
                      .pointer_size = 8 };
  g_autoptr(GError) error = NULL;
  guint64 t = 0;

  tm_trace_builder_header (b, &h);
  tm_trace_builder_meta (b, "gclog.collector", collector);
  if (recorded_max_heap)
    tm_trace_builder_meta (b, "jvm.MaxHeapSize", recorded_max_heap);
  else
    tm_trace_builder_meta (b, "gclog.max_heap", "419430400");
  if (evac_failures)
    tm_trace_builder_meta (b, "gclog.evacuation_failures", evac_failures);
  g_assert_true (tm_trace_builder_space (b, YOUNG, TM_SPACE_KIND_YOUNG, "Eden", &error));
  g_assert_true (tm_trace_builder_space (b, SURV, TM_SPACE_KIND_SURVIVOR, "Survivor", &error));
  g_assert_true (tm_trace_builder_space (b, OLD, TM_SPACE_KIND_OLD, "Old", &error));
  g_assert_true (tm_trace_builder_space (b, META, TM_SPACE_KIND_NON_HEAP, "Metaspace", &error));
  for (guint i = 0; i < n; i++)
    {
      const Gc *g = &gcs[i];
      TmSpaceUsageRecord u[4];
      guint nu = 0;
      guint64 pause = (g->pause_ms ? g->pause_ms : 5) * MS;

      u[nu++] = (TmSpaceUsageRecord) { YOUNG, g->young_before * MIB, g->young_after * MIB, 100 * MIB };
      if (g->surv_cap)
        u[nu++] = (TmSpaceUsageRecord) { SURV, 0, g->surv_after * MIB, g->surv_cap * MIB };
      u[nu++] = (TmSpaceUsageRecord) { OLD, g->old_before * MIB, g->old_after * MIB, 300 * MIB };
      if (g->meta)
        u[nu++] = (TmSpaceUsageRecord) { META, g->meta * MIB, g->meta * MIB, g->meta * MIB };
      t += (g->gap_ms ? g->gap_ms : 1000) * MS;
      g_assert_true (tm_trace_builder_gc_start (b, i + 1, t, g->kind ? g->kind : TM_GC_KIND_MINOR, collector,
                                                g->cause ? g->cause : "Allocation Failure", &error));
      t += pause;
      g_assert_true (tm_trace_builder_gc_end (b, i + 1, t, pause, nu, u, &error));
      if (oom_after == i + 1)
        g_assert_true (tm_trace_builder_oom (b, t + MS, i + 1, 0, TM_OOM_JAVA_HEAP, "Java heap space", &error));
    }
  tm_trace_builder_end (b, 0, 0, n, t);
  return tm_trace_builder_finish (b);
}

/* A healthy run: a minor GC a second (5 ms), 100 MiB young garbage, 2 MiB
 * promoted now and then, old stable around 60 MiB of 300, a full GC every
 * 20 GCs that frees only the little that was promoted. */
static Gc *
steady (guint n)
{
  Gc *g = g_new0 (Gc, n);
  guint64 old = 60;

  for (guint i = 0; i < n; i++)
    {
      if (i % 20 == 19)
        {
          g[i] = (Gc) { .kind = TM_GC_KIND_MAJOR, .cause = "Ergonomics", .pause_ms = 40,
                        .young_before = 100, .young_after = 0, .old_before = old, .old_after = 60 };
          old = 60;
        }
      else
        {
          guint64 promo = i % 4 == 0 ? 1 : 0;
          g[i] = (Gc) { .young_before = 100, .young_after = 2, .old_before = old, .old_after = old + promo };
          old += promo;
        }
    }
  return g;
}

typedef struct { const char *rule; guint n; guint32 gcs[64]; } Expect;

/* Exactly these rules, with exactly these GCs (n == 0: do not check the GCs). */
static void
check (TmTrace *trace, TmAdviceGoal goal, const Expect *expect, guint n_expect)
{
  TmAdviceParams params;
  g_autoptr(GPtrArray) advice = NULL;

  tm_advice_params_init (&params);
  params.goal = goal;
  advice = tm_advise (trace, 0, 0, &params);
  for (guint i = 0; i < advice->len; i++)
    {
      const TmAdvice *a = advice->pdata[i];
      g_test_message ("%s: %s | %s | %s", a->rule, a->finding, a->action, a->flags);
    }
  g_assert_cmpuint (advice->len, ==, n_expect);
  for (guint e = 0; e < n_expect; e++)
    {
      const TmAdvice *found = NULL;
      for (guint i = 0; i < advice->len; i++)
        if (g_str_equal (((TmAdvice *) advice->pdata[i])->rule, expect[e].rule))
          found = advice->pdata[i];
      g_assert_nonnull (found);
      g_assert_true (found->finding && strlen (found->finding) > 30);
      g_assert_true (found->action && strlen (found->action) > 30);
      if (expect[e].n == 0)
        continue;
      g_assert_cmpuint (found->n_gcs, ==, expect[e].n);
      for (guint k = 0; k < MIN (expect[e].n, TM_ADVICE_MAX_EVIDENCE); k++)
        g_assert_cmpuint (g_array_index (found->gcs, guint32, k), ==, expect[e].gcs[k]);
    }
}

static void
test_steady_silent (void)
{
  g_autofree Gc *g = steady (200);

  for (const char *const *c = (const char *const[]) { "Serial", "Parallel", "G1", NULL }; *c; c++)
    {
      g_autoptr(TmTrace) t = build (g, 200, *c, NULL);
      check (t, TM_ADVICE_GOAL_ANY, NULL, 0);
      check (t, TM_ADVICE_GOAL_LATENCY, NULL, 0);
      check (t, TM_ADVICE_GOAL_THROUGHPUT, NULL, 0);
    }
}

static void
test_explicit_gc (void)
{
  g_autofree Gc *g = steady (60);
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(TmTrace) g1 = NULL;
  const Expect e = { "explicit-gc", 3, { 10, 30, 50 } };
  g_autoptr(GPtrArray) a = NULL;

  for (guint i = 9; i < 60; i += 20)
    {
      g[i].kind = TM_GC_KIND_MAJOR;
      g[i].cause = "System.gc()";
      g[i].pause_ms = 50;
    }
  t = build (g, 60, "Parallel", NULL);
  check (t, TM_ADVICE_GOAL_ANY, &e, 1);
  a = tm_advise (t, 0, 0, NULL);
  g_assert_cmpstr (((TmAdvice *) a->pdata[0])->flags, ==, "-XX:+DisableExplicitGC");
  g_clear_pointer (&a, g_ptr_array_unref);
  g1 = build (g, 60, "G1", NULL);
  a = tm_advise (g1, 0, 0, NULL);
  g_assert_cmpstr (((TmAdvice *) a->pdata[0])->flags, ==, "-XX:+ExplicitGCInvokesConcurrent");
  g_clear_pointer (&a, g_ptr_array_unref);
  /* a window without them: silent */
  a = tm_advise (t, 11, 29, NULL);
  g_assert_cmpuint (a->len, ==, 0);
}

static void
test_metaspace (void)
{
  g_autofree Gc *g = steady (60);
  const Expect e = { "metaspace", 2, { 3, 40 } };

  for (guint i = 0; i < 60; i++)
    g[i].meta = 30;
  g[2].cause = "Metadata GC Threshold";
  {
    /* one at start-up is normal */
    g_autoptr(TmTrace) t = build (g, 60, "G1", NULL);
    check (t, TM_ADVICE_GOAL_ANY, NULL, 0);
  }
  g[39].cause = "Metadata GC Threshold";
  g[39].meta = 90;
  {
    g_autoptr(TmTrace) t = build (g, 60, "G1", NULL);
    g_autoptr(GPtrArray) a = tm_advise (t, 0, 0, NULL);
    check (t, TM_ADVICE_GOAL_ANY, &e, 1);
    /* twice the highest metaspace use at those GCs, in 16 MiB steps */
    g_assert_cmpstr (((TmAdvice *) a->pdata[0])->flags, ==, "-XX:MetaspaceSize=192m");
  }
}

static void
test_humongous (void)
{
  g_autofree Gc *g = steady (60);
  const Expect e = { "humongous", 3, { 5, 15, 25 } };

  g[4].cause = g[14].cause = "G1 Humongous Allocation";
  {
    g_autoptr(TmTrace) t = build (g, 60, "G1", NULL);
    check (t, TM_ADVICE_GOAL_ANY, NULL, 0);   /* 2 of 60: below 3 and 5% */
  }
  g[24].cause = "G1 Humongous Allocation";
  {
    g_autoptr(TmTrace) t = build (g, 60, "G1", NULL);
    check (t, TM_ADVICE_GOAL_ANY, &e, 1);
  }
}

static void
test_evacuation_failure (void)
{
  g_autofree Gc *g = steady (60);
  g_autoptr(TmTrace) t = build (g, 60, "G1", "7,9");
  const Expect e = { "evacuation-failure", 2, { 7, 9 } };
  g_autoptr(GPtrArray) a = NULL;

  check (t, TM_ADVICE_GOAL_ANY, &e, 1);
  a = tm_advise (t, 10, 60, NULL);
  g_assert_cmpuint (a->len, ==, 0);
}

/* Old generation 95% full after every full GC, and full GCs every third GC
 * with 400 ms pauses: a GC-overhead window, live data 285 MiB of 400. */
static void
test_heap_too_small (void)
{
  g_autofree Gc *g = steady (60);
  g_autoptr(TmTrace) t = NULL;
  Expect e = { "heap-too-small", 0, { 0 } };
  g_autoptr(GPtrArray) a = NULL;

  for (guint i = 0; i < 60; i++)
    {
      if (i % 3 == 2)
        g[i] = (Gc) { .kind = TM_GC_KIND_MAJOR, .pause_ms = 400, .gap_ms = 300,
                      .young_before = 100, .young_after = 0, .old_before = 300, .old_after = 285 };
      else
        g[i] = (Gc) { .gap_ms = 300, .young_before = 100, .young_after = 0, .old_before = 285, .old_after = 292 };
    }
  for (guint i = 2; i < 60; i += 3)
    e.gcs[e.n++] = i + 1;
  t = build (g, 60, "Parallel", NULL);
  check (t, TM_ADVICE_GOAL_ANY, &e, 1);
  a = tm_advise (t, 0, 0, NULL);
  /* three times the live data (285 MiB), in 16 MiB steps: 855 -> 864 MiB */
  g_assert_cmpstr (((TmAdvice *) a->pdata[0])->flags, ==, "-Xmx864m");

  /* the same overhead with the heap half empty after full GCs: not the heap size */
  for (guint i = 2; i < 60; i += 3)
    g[i].old_after = 100;
  {
    g_autoptr(TmTrace) t2 = build (g, 60, "Parallel", NULL);
    g_autoptr(GPtrArray) a2 = tm_advise (t2, 0, 0, NULL);
    for (guint i = 0; i < a2->len; i++)
      g_assert_cmpstr (((TmAdvice *) a2->pdata[i])->rule, !=, "heap-too-small");
  }
}

/* Live data after full GCs grows 2 MiB per full GC for 100 s: a leak, and
 * not "heap too small" even though the heap ends up full. */
static void
test_leak (void)
{
  g_autofree Gc *g = steady (100);
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(TmTrace) warm = NULL;
  g_autoptr(GPtrArray) a = NULL;
  guint64 live = 40;

  for (guint i = 0; i < 100; i++)
    {
      if (i % 5 == 4)
        {
          live += 10;
          g[i] = (Gc) { .kind = TM_GC_KIND_MAJOR, .pause_ms = 30, .young_before = 100, .young_after = 0,
                        .old_before = live + 20, .old_after = live };
        }
      else
        g[i] = (Gc) { .young_before = 100, .young_after = 0, .old_before = live + 5 * (i % 5),
                      .old_after = live + 5 * (i % 5) + 5 };
    }
  t = build (g, 100, "G1", NULL);
  a = tm_advise (t, 0, 0, NULL);
  g_assert_cmpuint (a->len, >=, 1);
  g_assert_cmpstr (((TmAdvice *) a->pdata[0])->rule, ==, "leak");
  g_assert_cmpstr (((TmAdvice *) a->pdata[0])->flags, ==, "-XX:+HeapDumpOnOutOfMemoryError");
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (((TmAdvice *) a->pdata[i])->rule, !=, "heap-too-small");
  g_assert_cmpuint (((TmAdvice *) a->pdata[0])->n_gcs, ==, 20);   /* the 20 full GCs */
  /* the leak reaches 240 MiB at 1.98 MiB/s: 160 MiB left, and a
   * heap twice as large holds 400 MiB (202 s) more */
  g_assert_nonnull (strstr (((TmAdvice *) a->pdata[0])->finding, "can hold 400 MiB, so at this rate it is full in about 81 s"));
  g_assert_nonnull (strstr (((TmAdvice *) a->pdata[0])->action, "doubling it to 800 MiB buys only about 202 s"));

  /* The recorder's -Xmx (1 GiB, of which 400 MiB committed) is the
   * heap's limit, not the committed heap: a recorded leak in a 256 MiB
   * heap was "full" at 137 MiB committed. */
  recorded_max_heap = "1073741824";
  {
    g_autoptr(TmTrace) rt = build (g, 100, "G1", NULL);
    g_autoptr(GPtrArray) ra = tm_advise (rt, 0, 0, NULL);

    recorded_max_heap = NULL;
    g_assert_cmpstr (((TmAdvice *) ra->pdata[0])->rule, ==, "leak");
    g_assert_nonnull (strstr (((TmAdvice *) ra->pdata[0])->finding, "can hold 1.00 GiB, so at this rate it is full in about 396 s"));
    g_assert_nonnull (strstr (((TmAdvice *) ra->pdata[0])->action, "doubling it to 2.00 GiB buys only about 517 s"));
  }

  /* growth that levels off in the second half is warm-up, not a leak */
  live = 40;
  for (guint i = 0; i < 100; i++)
    if (i % 5 == 4)
      {
        live += i < 50 ? 10 : 0;
        g[i].old_after = live;
        g[i].old_before = live + 20;
      }
  warm = build (g, 100, "G1", NULL);
  check (warm, TM_ADVICE_GOAL_ANY, NULL, 0);

  /* growth to 240 MiB of the 400 MiB heap, then flat until an
   * OutOfMemoryError: it stopped at the heap's limit, a leak */
  live = 40;
  for (guint i = 0; i < 100; i++)
    if (i % 5 == 4)
      {
        live += i < 50 ? 20 : 0;
        g[i].old_after = live;
        g[i].old_before = live + 20;
      }
  oom_after = 100;
  {
    g_autoptr(TmTrace) full = build (g, 100, "G1", NULL);
    g_autoptr(GPtrArray) fa = tm_advise (full, 0, 0, NULL);

    oom_after = 0;
    g_assert_cmpuint (fa->len, >=, 1);
    g_assert_cmpstr (((TmAdvice *) fa->pdata[0])->rule, ==, "leak");
    for (guint i = 0; i < fa->len; i++)
      g_assert_cmpstr (((TmAdvice *) fa->pdata[i])->rule, !=, "heap-too-small");
  }
}

/* Minor GCs every 40 ms pausing 10 ms (20% of the time), heap mostly empty. */
static void
test_young_too_small (void)
{
  g_autofree Gc *g = steady (100);
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(GPtrArray) a = NULL;

  for (guint i = 0; i < 100; i++)
    if (g[i].kind == 0)
      {
        g[i].gap_ms = 40;
        g[i].pause_ms = 10;
      }
  t = build (g, 100, "Serial", NULL);
  a = tm_advise (t, 0, 0, NULL);
  g_assert_cmpuint (a->len, ==, 1);
  g_assert_cmpstr (((TmAdvice *) a->pdata[0])->rule, ==, "young-too-small");
  g_assert_cmpstr (((TmAdvice *) a->pdata[0])->flags, ==, "-Xmn304m");   /* 3 x 100 MiB, 16 MiB steps */
  /* every minor GC whose previous GC ended less than 9 pauses before: all
   * 95 minor GCs except the first (no previous GC) */
  g_assert_cmpuint (((TmAdvice *) a->pdata[0])->n_gcs, ==, 94);

  /* 9% of the time: below the 10% threshold */
  for (guint i = 0; i < 100; i++)
    if (g[i].kind == 0)
      g[i].gap_ms = 102;
  {
    g_autoptr(TmTrace) t2 = build (g, 100, "Serial", NULL);
    check (t2, TM_ADVICE_GOAL_ANY, NULL, 0);
  }
}

/* Minor GCs promote 25 MiB of every 100 they collect, and a full GC every
 * tenth GC frees 90% of the old generation. */
static void
test_premature_promotion (void)
{
  g_autofree Gc *g = steady (60);
  g_autoptr(TmTrace) t = NULL;
  const Expect e = { "premature-promotion", 6, { 10, 20, 30, 40, 50, 60 } };
  guint64 old = 20;

  for (guint i = 0; i < 60; i++)
    {
      if (i % 10 == 9)
        {
          g[i] = (Gc) { .kind = TM_GC_KIND_MAJOR, .pause_ms = 40, .young_before = 100, .young_after = 0,
                        .old_before = old, .old_after = 20 };
          old = 20;
        }
      else
        {
          g[i] = (Gc) { .young_before = 100, .young_after = 0, .old_before = old, .old_after = old + 25 };
          old += 25;
        }
    }
  t = build (g, 60, "Parallel", NULL);
  check (t, TM_ADVICE_GOAL_ANY, &e, 1);

  /* 10 MiB of 100 promoted: below the 15% threshold */
  old = 20;
  for (guint i = 0; i < 60; i++)
    {
      g[i].old_before = old;
      g[i].old_after = i % 10 == 9 ? 20 : old + 10;
      old = g[i].old_after;
    }
  {
    g_autoptr(TmTrace) t2 = build (g, 60, "Parallel", NULL);
    check (t2, TM_ADVICE_GOAL_ANY, NULL, 0);
  }
}

/* Survivor space at its limit after 12 of 40 young GCs. */
static void
test_survivor_overflow (void)
{
  g_autofree Gc *g = steady (40);
  g_autoptr(TmTrace) t = NULL;
  Expect e = { "survivor-overflow", 0, { 0 } };

  for (guint i = 0; i < 40; i++)
    {
      g[i].surv_cap = 10;
      g[i].surv_after = g[i].kind == 0 && i % 3 == 0 ? 10 : 4;
      if (g[i].kind == 0 && i % 3 == 0)
        e.gcs[e.n++] = i + 1;
    }
  t = build (g, 40, "Serial", NULL);
  check (t, TM_ADVICE_GOAL_ANY, &e, 1);

  /* G1 (a recording: the pool's committed size, which follows its use):
   * the same GCs are no overflow */
  {
    g_autoptr(TmTrace) t1 = build (g, 40, "G1 Young Generation", NULL);
    check (t1, TM_ADVICE_GOAL_ANY, NULL, 0);
  }
  /* no capacity known (every GC "at its limit"): silent */
  for (guint i = 0; i < 40; i++)
    g[i].surv_after = 10;
  {
    g_autoptr(TmTrace) t2 = build (g, 40, "G1", NULL);
    check (t2, TM_ADVICE_GOAL_ANY, NULL, 0);
  }
}

/* A steady run with an age table for each minor GC: ages 1..max_age,
 * bytes[a] = age1 * survival^(a-1) (survival 1 from age 2 on when
 * `lives_on`), threshold `thr`, desired survivor size `desired` MiB. */
static void
add_ages (TmTrace *t, guint64 age1, double s1, double s_rest, guint max_age, guint8 thr, guint64 desired)
{
  t->gc_ages = g_array_new (FALSE, TRUE, sizeof (TmGcAges));
  for (guint32 id = 1; id <= tm_trace_n_gcs (t); id++)
    {
      TmGcAges a = { 0 };
      double b = (double) age1;
      if (tm_trace_gc (t, id)->kind != TM_GC_KIND_MINOR)
        continue;
      a.gc = id;
      a.threshold = thr;
      a.max_threshold = 15;
      a.desired_survivor = desired * MIB;
      for (guint k = 1; k <= MIN (max_age, thr); k++)
        {
          a.bytes[k] = (guint64) b;
          b *= k == 1 ? s1 : s_rest;
        }
      g_array_append_val (t->gc_ages, a);
    }
}

static const TmAdvice *
find_rule (GPtrArray *advice, const char *rule)
{
  for (guint i = 0; i < advice->len; i++)
    if (g_str_equal (((TmAdvice *) advice->pdata[i])->rule, rule))
      return advice->pdata[i];
  return NULL;
}

/* Survivors that live on from age 2: copied 13 more times at threshold 15. */
static void
test_tenuring_threshold (void)
{
  g_autofree Gc *g = steady (60);
  TmAgeCurve ac;

  {
    /* 1 MiB new survivors a GC, 60% live on past age 1 */
    g_autoptr(TmTrace) t = build (g, 60, "Serial", NULL);
    g_autoptr(GPtrArray) advice = NULL;
    const TmAdvice *a;
    add_ages (t, MIB, 0.6, 1.0, 15, 15, 64);
    g_assert_true (tm_age_curve_compute (t, 0, 0, &ac));
    g_assert_cmpuint (ac.n_tables, ==, 57);
    g_assert_cmpuint (ac.n_pairs, ==, 54);   /* not across the 3 full GCs */
    g_assert_cmpfloat_with_epsilon (ac.survival[1], 0.6, 1e-6);
    g_assert_cmpfloat_with_epsilon (ac.survival[7], 1.0, 1e-6);
    g_assert_cmpuint (ac.stable_age, ==, 2);
    advice = tm_advise (t, 0, 0, NULL);
    a = find_rule (advice, "tenuring-threshold");
    g_assert_nonnull (a);
    g_assert_cmpstr (a->flags, ==, "-XX:MaxTenuringThreshold=2");
    g_assert_cmpuint (a->n_gcs, ==, 57);
    g_assert_null (find_rule (advice, "survivor-too-small"));
  }
  {
    /* 85% survive each age: no age where they live on, silent */
    g_autoptr(TmTrace) t = build (g, 60, "Serial", NULL);
    g_autoptr(GPtrArray) advice = NULL;
    add_ages (t, MIB, 0.85, 0.85, 15, 15, 64);
    g_assert_true (tm_age_curve_compute (t, 0, 0, &ac));
    g_assert_cmpuint (ac.stable_age, ==, 0);
    advice = tm_advise (t, 0, 0, NULL);
    g_assert_null (find_rule (advice, "tenuring-threshold"));
  }
  {
    /* they live on, but only 64 KiB of them: copying them costs nothing */
    g_autoptr(TmTrace) t = build (g, 60, "Serial", NULL);
    g_autoptr(GPtrArray) advice = NULL;
    add_ages (t, 40 * 1024, 0.6, 1.0, 4, 15, 64);
    advice = tm_advise (t, 0, 0, NULL);
    g_assert_null (find_rule (advice, "tenuring-threshold"));
  }
}

/* The threshold pinned at 1 because 3 MiB of survivors exceed the desired
 * 1 MiB: survivor space 3 times too small. */
static void
test_survivor_too_small (void)
{
  g_autofree Gc *g = steady (60);

  {
    g_autoptr(TmTrace) t = build (g, 60, "Serial", NULL);
    g_autoptr(GPtrArray) advice = NULL;
    const TmAdvice *a;
    add_ages (t, 3 * MIB, 0.5, 0.5, 15, 1, 1);
    advice = tm_advise (t, 0, 0, NULL);
    a = find_rule (advice, "survivor-too-small");
    g_assert_nonnull (a);
    g_assert_cmpuint (a->n_gcs, ==, 57);
    /* 3x: 10 / (r + 2) * 1.6 >= 3 for r = 3 */
    g_assert_cmpstr (a->flags, ==, "-XX:SurvivorRatio=3 -XX:TargetSurvivorRatio=80");
  }
  {
    /* within the desired size: the threshold stays, silent */
    g_autoptr(TmTrace) t = build (g, 60, "Serial", NULL);
    g_autoptr(GPtrArray) advice = NULL;
    add_ages (t, 3 * MIB, 0.5, 0.5, 15, 15, 8);
    advice = tm_advise (t, 0, 0, NULL);
    g_assert_null (find_rule (advice, "survivor-too-small"));
    g_assert_null (find_rule (advice, "tenuring-threshold"));
  }
}

/* A recording with lifetimes: GCs 10, 20, ... 60 are full, the others
 * young, MaxTenuringThreshold=4 on the command line.  Before each of GCs
 * 1-30: 50 objects that die at once, 10 of 100 KiB promoted after 4 young
 * GCs and freed by the next full GC (or, `late`, by the one after), 5 of
 * 100 KiB that live on. */
static TmTrace *
build_lifetimes (gboolean late)
{
  TmTraceBuilder *b = tm_trace_builder_new ("lifetimes.tmtrace", "tmtrace");
  TmTraceHeader h = { .version = 1, .vm_name = "HotSpot", .vm_version = "17",
                      .command_line = "java -Xmx64m -XX:MaxTenuringThreshold=4 App", .pointer_size = 8 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) deaths = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                        (GDestroyNotify) g_array_unref);
  guint64 id = 0, t = 0;

  tm_trace_builder_header (b, &h);
  g_assert_true (tm_trace_builder_type (b, 1, "byte[]", 0, &error));
  g_assert_true (tm_trace_builder_thread (b, 1, "main", &error));
  g_assert_true (tm_trace_builder_space (b, OLD, TM_SPACE_KIND_OLD, "Old", &error));
  for (guint g = 1; g <= 60; g++)
    {
      TmSpaceUsageRecord u = { OLD, 10 * MIB, 10 * MIB, 64 * MIB };
      GArray *dead = g_hash_table_lookup (deaths, GUINT_TO_POINTER (g));
      if (g <= 30)
        {
          /* through 4 young GCs in the survivor spaces, promoted by the 5th from GC g on
           * (unless a full GC came first), freed by the full GC after it */
          guint young = 0, p = g, d;
          for (p = g; young < 5; p++)
            young += p % 10 ? 1 : 0;
          p--;
          d = (p / 10 + 1 + (late ? 1 : 0)) * 10;
          for (guint k = 0; k < 65; k++)
            {
              guint die = k < 50 ? g : k < 60 ? d : 0;
              g_assert_true (tm_trace_builder_alloc (b, ++id, 1, 0, 1, k < 50 ? 64 : 100 * 1024, 0, 0, &error));
              if (die > 0 && die <= 60)
                {
                  GArray *a = g_hash_table_lookup (deaths, GUINT_TO_POINTER (die));
                  if (a == NULL)
                    g_hash_table_insert (deaths, GUINT_TO_POINTER (die), a = g_array_new (FALSE, FALSE, sizeof (guint64)));
                  g_array_append_val (a, id);
                }
            }
          dead = g_hash_table_lookup (deaths, GUINT_TO_POINTER (g));
        }
      t += 100 * MS;
      g_assert_true (tm_trace_builder_gc_start (b, g, t, g % 10 ? TM_GC_KIND_MINOR : TM_GC_KIND_MAJOR, "G1",
                                                "Allocation Failure", &error));
      t += 5 * MS;
      g_assert_true (tm_trace_builder_gc_end (b, g, t, 5 * MS, 1, &u, &error));
      if (dead != NULL)
        g_assert_true (tm_trace_builder_deaths (b, g, (guint64 *) (gpointer) dead->data, dead->len, &error));
    }
  tm_trace_builder_end (b, id, 0, 60, t);
  return tm_trace_builder_finish (b);
}

static void
test_premature_promotion_lifetimes (void)
{
  {
    g_autoptr(TmTrace) t = build_lifetimes (FALSE);
    g_autoptr(GPtrArray) advice = NULL;
    TmPromotionLifetimes pl;
    const TmAdvice *a;

    g_assert_cmpuint (tm_trace_tenuring_threshold (t), ==, 4);
    /* a recorder's META wins over the command line */
    g_hash_table_insert (t->meta, g_strdup ("jvm.MaxTenuringThreshold"), g_strdup ("6"));
    g_assert_cmpuint (tm_trace_tenuring_threshold (t), ==, 6);
    g_hash_table_remove (t->meta, "jvm.MaxTenuringThreshold");
    g_assert_true (tm_promotion_lifetimes (t, 0, 0, 4, &pl));
    g_assert_cmpuint (pl.n_young, ==, 54);
    g_assert_cmpuint (pl.n_old, ==, 6);
    /* births at GCs 1-5, 11-15 and 21-25 (15 of the 30, 15 promoted objects
     * each); those of 6-10, 16-20 and 26-30 meet the full GC at 10, 20 or 30
     * before their 5th young GC, which moves them to the old generation:
     * left out */
    g_assert_cmpuint (pl.promoted_objects, ==, 225);
    g_assert_cmpuint (pl.soon_objects, ==, 150);
    g_assert_cmpuint (pl.soon_bytes, ==, 150 * 100 * 1024);
    /* young GCs lived through before the full GC that freed them: 9 to 5
     * for births 1-5 (and 11-15, 21-25), 30 objects each: three quarters 8
     * or fewer */
    g_assert_cmpuint (pl.soon_age_p75, ==, 8);
    g_assert_cmpuint (pl.soon_gcs->len, ==, 3);
    g_assert_cmpuint (g_array_index (pl.soon_gcs, guint32, 0), ==, 10);
    g_assert_cmpuint (g_array_index (pl.soon_gcs, guint32, 2), ==, 30);
    tm_promotion_lifetimes_clear (&pl);

    advice = tm_advise (t, 0, 0, NULL);
    a = find_rule (advice, "premature-promotion");
    g_assert_nonnull (a);
    g_assert_cmpstr (a->flags, ==, "-XX:MaxTenuringThreshold=8");
    g_assert_cmpuint (a->n_gcs, ==, 3);
    g_assert_nonnull (strstr (a->finding, "67%"));

    /* a window that ends before the first of them is freed: nothing died yet */
    g_ptr_array_unref (g_steal_pointer (&advice));
    advice = tm_advise (t, 1, 9, NULL);
    g_assert_null (find_rule (advice, "premature-promotion"));
  }
  {
    /* the medium objects outlive one full GC after promotion: silent */
    g_autoptr(TmTrace) t = build_lifetimes (TRUE);
    g_autoptr(GPtrArray) advice = tm_advise (t, 0, 0, NULL);
    g_assert_null (find_rule (advice, "premature-promotion"));
  }
}

/* Real JDK 17 logs of tests/data/advice/Survivors.java (README there):
 * each mode gives the advice its survivors call for, and no other about
 * survivors. */
static void
test_age_logs (void)
{
  static const struct { const char *file; const char *rule; const char *flags; } cases[] = {
    { "jdk17-longlived-SerialGC-age.log.gz", "tenuring-threshold", "-XX:MaxTenuringThreshold=2" },
    { "jdk17-longlived-G1GC-age.log.gz", "tenuring-threshold", "-XX:MaxTenuringThreshold=2" },
    { "jdk17-medium-SerialGC-age.log.gz", "survivor-too-small", "-XX:TargetSurvivorRatio=80" },
    { "jdk17-medium-G1GC-age.log.gz", "survivor-too-small", "-XX:TargetSurvivorRatio=80" },
    { "jdk17-short-SerialGC-age.log.gz", NULL, NULL },
  };
  static const char *const age_rules[] = { "tenuring-threshold", "survivor-too-small", "survivor-overflow",
                                           "premature-promotion" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "advice", cases[i].file, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTrace) t = tm_gclog_import (path, NULL, NULL, NULL, &error);
      g_autoptr(GPtrArray) advice = NULL;

      g_assert_no_error (error);
      advice = tm_advise (t, 0, 0, NULL);
      for (guint r = 0; r < G_N_ELEMENTS (age_rules); r++)
        {
          const TmAdvice *a = find_rule (advice, age_rules[r]);
          g_test_message ("%s %s: %s", cases[i].file, age_rules[r], a ? a->finding : "-");
          if (cases[i].rule && g_str_equal (age_rules[r], cases[i].rule))
            {
              g_assert_nonnull (a);
              g_assert_nonnull (strstr (a->flags, cases[i].flags));
            }
          else
            g_assert_null (a);
        }
    }
}

/* Parallel with full GC pauses of 300 ms: only for the latency goal. */
static void
test_latency_pauses (void)
{
  g_autofree Gc *g = steady (100);
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(TmTrace) g1 = NULL;
  const Expect e = { "latency-pauses", 5, { 20, 40, 60, 80, 100 } };
  g_autoptr(GPtrArray) a = NULL;

  for (guint i = 19; i < 100; i += 20)
    g[i].pause_ms = 300;
  t = build (g, 100, "Parallel", NULL);
  check (t, TM_ADVICE_GOAL_LATENCY, &e, 1);
  check (t, TM_ADVICE_GOAL_THROUGHPUT, NULL, 0);
  check (t, TM_ADVICE_GOAL_ANY, NULL, 0);
  a = tm_advise (t, 0, 0, &(TmAdviceParams) { TM_ADVICE_GOAL_LATENCY, 100 });
  g_assert_cmpstr (((TmAdvice *) a->pdata[0])->flags, ==, "-XX:+UseG1GC -XX:MaxGCPauseMillis=100");
  /* already a concurrent collector: nothing to switch to */
  g1 = build (g, 100, "G1", NULL);
  check (g1, TM_ADVICE_GOAL_LATENCY, NULL, 0);
}

static void
test_stats (void)
{
  g_autofree Gc *g = steady (20);
  g_autoptr(TmTrace) t = build (g, 20, "Serial", NULL);
  TmGcStats st;

  tm_gc_stats_compute (t, 0, 0, &st);
  g_assert_cmpuint (st.n_gcs, ==, 20);
  g_assert_cmpuint (st.n_minor, ==, 19);
  g_assert_cmpuint (st.n_major, ==, 1);
  /* 19 x 5 ms + 40 ms over 20 s + 135 ms */
  g_assert_cmpfloat_with_epsilon (st.pause_total_ns, 135.0 * MS, 1);
  g_assert_cmpfloat_with_epsilon (st.duration_ns, 20135.0 * MS, 1);
  g_assert_cmpfloat_with_epsilon (st.pause_p50_ns, 5.0 * MS, 1);
  g_assert_cmpfloat_with_epsilon (st.pause_max_ns, 40.0 * MS, 1);
  g_assert_cmpuint (st.pause_max_gc, ==, 20);
  g_assert_cmpuint (st.live_max_bytes, ==, 60 * MIB);
  /* promoted: 1 MiB at GCs 1, 5, 9, 13, 17 */
  g_assert_cmpfloat_with_epsilon (st.promoted_bytes, 5.0 * MIB, 1);
}

/* The report behind `advise` and the app's view: the same advice and
 * statistics as the parts give, and the knowledge base's nearest
 * workloads (the fixture's four; three kept) as tm_kb_nearest ranks them;
 * a knowledge base that cannot be read is said, not fatal. */
static void
test_report (void)
{
  g_autofree Gc *g = steady (60);
  g_autoptr(TmTrace) t = NULL;
  g_autofree char *kb_path = g_test_build_filename (G_TEST_DIST, "data", "kb", "fixture.kb", NULL);
  g_autoptr(TmKb) kb = tm_kb_load (kb_path, NULL);
  g_autoptr(TmAdviceReport) r = NULL;
  g_autoptr(TmAdviceReport) missing = NULL;
  g_autoptr(TmAdviceReport) none = NULL;
  g_autoptr(GPtrArray) direct = NULL;
  TmAdviceParams params;
  TmGcFeatures f;
  TmKbNeighbour near[3];
  TmGcStats st;

  for (guint i = 9; i < 60; i += 20)
    {
      g[i].kind = TM_GC_KIND_MAJOR;
      g[i].cause = "System.gc()";
    }
  t = build (g, 60, "Parallel", NULL);
  tm_advice_params_init (&params);
  r = tm_advice_report_new (t, 0, 0, &params, kb_path);
  direct = tm_advise (t, 0, 0, &params);
  g_assert_cmpuint (r->advice->len, ==, direct->len);
  g_assert_cmpstr (((TmAdvice *) r->advice->pdata[0])->rule, ==, "explicit-gc");
  tm_gc_stats_compute (t, 0, 0, &st);
  g_assert_cmpuint (r->stats.n_gcs, ==, st.n_gcs);
  g_assert_cmpfloat (r->stats.pause_total_ns, ==, st.pause_total_ns);

  g_assert_nonnull (r->kb);
  g_assert_null (r->kb_error);
  tm_gc_features_compute (t, &f);
  g_assert_cmpuint (r->n_near, ==, tm_kb_nearest (kb, &f, 3, near));
  g_assert_cmpuint (r->n_near, ==, 3);
  for (guint i = 0; i < r->n_near; i++)
    {
      g_assert_cmpstr (r->near[i].entry->name, ==, near[i].entry->name);
      g_assert_cmpfloat (r->near[i].distance, ==, near[i].distance);
    }
  g_assert_true (r->close == (near[0].distance <= TM_KB_CLOSE_DISTANCE));
  for (guint goal = 0; goal < TM_N_GOALS; goal++)
    {
      TmGcConfig c = { 0 };
      gboolean want = r->close && tm_kb_suggest (kb, &f, 3, (TmGoal) goal, &c);

      g_assert_true (r->has_suggestion[goal] == want);
      if (want)
        g_assert_true (tm_gc_config_equal (&r->suggest[goal], &c));
      tm_gc_config_clear (&c);
    }

  missing = tm_advice_report_new (t, 0, 0, &params, "/nonexistent/kb.ini");
  g_assert_null (missing->kb);
  g_assert_nonnull (missing->kb_error);
  g_assert_cmpuint (missing->n_near, ==, 0);
  g_assert_cmpuint (missing->advice->len, ==, direct->len);

  none = tm_advice_report_new (t, 0, 0, &params, NULL);
  g_assert_null (none->kb);
  g_assert_null (none->kb_error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/advice/stats", test_stats);
  g_test_add_func ("/advice/report", test_report);
  g_test_add_func ("/advice/steady-silent", test_steady_silent);
  g_test_add_func ("/advice/explicit-gc", test_explicit_gc);
  g_test_add_func ("/advice/metaspace", test_metaspace);
  g_test_add_func ("/advice/humongous", test_humongous);
  g_test_add_func ("/advice/evacuation-failure", test_evacuation_failure);
  g_test_add_func ("/advice/heap-too-small", test_heap_too_small);
  g_test_add_func ("/advice/leak", test_leak);
  g_test_add_func ("/advice/young-too-small", test_young_too_small);
  g_test_add_func ("/advice/premature-promotion", test_premature_promotion);
  g_test_add_func ("/advice/survivor-overflow", test_survivor_overflow);
  g_test_add_func ("/advice/tenuring-threshold", test_tenuring_threshold);
  g_test_add_func ("/advice/survivor-too-small", test_survivor_too_small);
  g_test_add_func ("/advice/age-logs", test_age_logs);
  g_test_add_func ("/advice/premature-promotion-lifetimes", test_premature_promotion_lifetimes);
  g_test_add_func ("/advice/latency-pauses", test_latency_pauses);
  return g_test_run ();
}
