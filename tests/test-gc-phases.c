/* SPDX-License-Identifier: GPL-3.0-or-later
 * Concurrent phases, cycles, stalls and degenerated GCs of real GC logs
 * (tests/data/gc-logs, see its README), counted by hand from the logs. */
#include "tm-config.h"
#include "gclog-test-util.h"
#include "tm-gc-phases.h"

#define MS(x) ((guint64) ((x) * 1000000.0 + 0.5))

static const TmGcPhaseTotal *
total_of (const TmGcPhaseSummary *s, TmGcPhaseKind kind, const char *name)
{
  for (guint i = 0; i < s->totals->len; i++)
    {
      const TmGcPhaseTotal *x = &g_array_index (s->totals, TmGcPhaseTotal, i);
      if (x->kind == kind && g_str_equal (x->name, name))
        return x;
    }
  g_error ("no %s phase named %s", tm_gc_phase_kind_to_string (kind), name);
  return NULL;
}

static void
whole (const TmTrace *t, TmGcPhaseSummary *s)
{
  tm_gc_phase_summary_compute (t, 1, tm_trace_n_gcs (t), s);
}

static void
test_zgc (void)
{
  /* one cycle GC(25): 6 concurrent phases, 3 pauses, 7 allocation and
   * 7 relocation stalls */
  g_autoptr(TmTrace) t = gclog_test_load ("ujl-zgc-gc-other.txt");
  TmGcPhaseSummary s;
  const TmGcPhaseTotal *alloc, *reloc;
  const TmGcPhase *first_stall = NULL;

  whole (t, &s);
  g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CYCLE], ==, 1);
  g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CONCURRENT], ==, 6);
  g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_CONCURRENT], ==, MS (1163.494 + 0.001 + 3.045 + 0.072 + 8.186 + 138.752));
  g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_PAUSE], ==, 3);
  g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_PAUSE], ==, MS (0.025));
  g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_STALL], ==, 14);
  alloc = total_of (&s, TM_GC_PHASE_STALL, "Allocation Stall");
  reloc = total_of (&s, TM_GC_PHASE_STALL, "Relocation Stall");
  g_assert_cmpuint (alloc->count, ==, 7);
  g_assert_cmpuint (alloc->total_ns, ==, MS (85.245));
  g_assert_cmpuint (alloc->max_ns, ==, MS (29.092));
  g_assert_cmpuint (reloc->count, ==, 7);
  g_assert_cmpuint (reloc->total_ns, ==, MS (5.246));
  for (guint i = 0; i < t->gc_phases->len && first_stall == NULL; i++)
    if (g_array_index (t->gc_phases, TmGcPhase, i).kind == TM_GC_PHASE_STALL)
      first_stall = &g_array_index (t->gc_phases, TmGcPhase, i);
  /* "[201.482s] Allocation Stall (Group1.Backend.CompositeBackend{Tier1}.1) 0.706ms" */
  g_assert_cmpuint (first_stall->end_ns, ==, MS (201482));
  g_assert_cmpuint (first_stall->start_ns, ==, MS (201482 - 0.706));
  g_assert_cmpstr (first_stall->detail, ==, "Group1.Backend.CompositeBackend{Tier1}.1");
  /* the cycle is the GC's span */
  g_assert_cmpuint (g_array_index (t->gc_phases, TmGcPhase, 0).kind, ==, TM_GC_PHASE_CYCLE);
  g_assert_cmpuint (g_array_index (t->gc_phases, TmGcPhase, 0).start_ns, ==, tm_trace_gc (t, 1)->start_ns);
  g_assert_cmpuint (g_array_index (t->gc_phases, TmGcPhase, 0).end_ns, ==, tm_trace_gc (t, 1)->end_ns);
  tm_gc_phase_summary_clear (&s);
}

static void
test_shenandoah (void)
{
  TmGcPhaseSummary s;
  {
    /* JDK 17: 13 concurrent phase lines, 4 pauses summing 1.719 ms */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-shenandoah-jdk17.txt");
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CYCLE], ==, 1);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CONCURRENT], ==, 13);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_PAUSE], ==, 4);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_PAUSE], ==, MS (1.719));
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_DEGENERATED] + s.n_per_kind[TM_GC_PHASE_FULL], ==, 0);
    g_assert_cmpuint (total_of (&s, TM_GC_PHASE_CONCURRENT, "Concurrent marking roots")->total_ns, ==, MS (13.066));
    g_assert_cmpuint (total_of (&s, TM_GC_PHASE_CONCURRENT, "Concurrent cleanup")->count, ==, 2);
    tm_gc_phase_summary_clear (&s);
  }
  {
    /* JDK 8 backport: two cycles, the second degenerated at Update Refs
     * (184.489 ms); 7 other pauses summing 13.047 ms; 12 concurrent phases */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-shenandoah-SampleOpenJdk1_8_0-332.txt");
    const TmGcPhase *deg = NULL;
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CYCLE], ==, 2);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CONCURRENT], ==, 12);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_PAUSE], ==, 7);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_PAUSE], ==, MS (197.536 - 184.489));
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_DEGENERATED], ==, 1);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_DEGENERATED], ==, MS (184.489));
    for (guint i = 0; i < t->gc_phases->len; i++)
      if (g_array_index (t->gc_phases, TmGcPhase, i).kind == TM_GC_PHASE_DEGENERATED)
        deg = &g_array_index (t->gc_phases, TmGcPhase, i);
    g_assert_cmpstr (deg->detail, ==, "Update Refs");
    g_assert_cmpuint (deg->end_ns, ==, MS (295220));
    tm_gc_phase_summary_clear (&s);
  }
  {
    /* 438 "Pause Full (System.gc())": full GCs, no concurrent cycles */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-shenandoah-SampleShenandoahSeveralSystemGC.txt.gz");
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_FULL], ==, 438);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_FULL], ==, G_GUINT64_CONSTANT (3108638000));
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CYCLE], ==, 0);
    tm_gc_phase_summary_clear (&s);
  }
}

static void
test_g1 (void)
{
  TmGcPhaseSummary s;
  {
    /* JDK 17: one marking cycle of 77.704 ms; Mark From Roots and
     * Preclean run inside Concurrent Mark */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-g1-jdk17-full-concurrent-cycle.txt");
    const TmGcPhaseTotal *roots;
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CYCLE], ==, 1);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_CYCLE], ==, MS (77.704));
    /* count and time of the top level only (the nested two are inside
     * them): 0.443 + 0.468 + 40.340 + 15.514 + 7.873 */
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CONCURRENT], ==, 5);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_CONCURRENT], ==, MS (64.638));
    roots = total_of (&s, TM_GC_PHASE_CONCURRENT, "Concurrent Mark From Roots");
    g_assert_cmpuint (roots->depth, ==, 1);
    g_assert_cmpuint (roots->total_ns, ==, MS (35.374));
    g_assert_cmpuint (total_of (&s, TM_GC_PHASE_CONCURRENT, "Concurrent Mark")->depth, ==, 0);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_PAUSE], ==, 0);   /* G1's pauses are the GCs */
    tm_gc_phase_summary_clear (&s);
  }
  {
    /* 40 "Concurrent Mark Cycle" end lines */
    g_autoptr(TmTrace) t = gclog_test_load ("jdk17-g1.log");
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CYCLE], ==, 40);
    g_assert_cmpuint (total_of (&s, TM_GC_PHASE_CONCURRENT, "Concurrent Rebuild Remembered Sets")->count, ==, 40);
    tm_gc_phase_summary_clear (&s);
    /* a range: GCs 1..10 hold the cycles that start before GC 10 ends */
    tm_gc_phase_summary_compute (t, 1, 10, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CYCLE], <, 40);
    for (guint i = s.first_phase; i < s.last_phase; i++)
      g_assert_cmpuint (g_array_index (t->gc_phases, TmGcPhase, i).start_ns, <=, tm_trace_gc (t, 10)->end_ns);
    tm_gc_phase_summary_clear (&s);
  }
  {
    /* JDK 8: root region scan 0.2186 ms and mark 9.9227 ms */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-g1-SampleSun1_8_0G1PrintGCID.txt");
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CONCURRENT], ==, 2);
    g_assert_cmpuint (total_of (&s, TM_GC_PHASE_CONCURRENT, "concurrent-mark")->total_ns, ==, 9922700);
    g_assert_cmpuint (total_of (&s, TM_GC_PHASE_CONCURRENT, "concurrent-root-region-scan")->total_ns, ==, 218600);
    tm_gc_phase_summary_clear (&s);
  }
}

static void
test_cms (void)
{
  TmGcPhaseSummary s;
  {
    /* 22 concurrent lines: 11 phases, wall times 326 ms in all; three
     * abortable precleans are printed into ParNew records */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-cms-SampleSun1_6_0CMS.txt");
    const TmGcPhase *last_preclean = NULL;
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CONCURRENT], ==, 11);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_CONCURRENT], ==, MS (326));
    g_assert_cmpuint (total_of (&s, TM_GC_PHASE_CONCURRENT, "CMS-concurrent-abortable-preclean")->total_ns, ==, MS (304));
    g_assert_cmpuint (total_of (&s, TM_GC_PHASE_CONCURRENT, "CMS-concurrent-mark")->count, ==, 3);
    /* "1.565: [GC 1.565: [ParNew1.578: [CMS-concurrent-abortable-preclean: 0.002/0.190 secs]" */
    for (guint i = 0; i < t->gc_phases->len; i++)
      if (g_str_equal (g_array_index (t->gc_phases, TmGcPhase, i).name, "CMS-concurrent-abortable-preclean"))
        last_preclean = &g_array_index (t->gc_phases, TmGcPhase, i);
    g_assert_cmpuint (last_preclean->end_ns, ==, MS (1578));
    g_assert_cmpuint (last_preclean->start_ns, ==, MS (1388));
    tm_gc_phase_summary_clear (&s);
  }
  {
    /* JDK 8 with GC ids: mark 13 ms, preclean 1, sweep 0, reset 18 */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-cms-SampleSun1_8_0CmsPrintGcId.txt");
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CONCURRENT], ==, 4);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_CONCURRENT], ==, MS (13 + 1 + 0 + 18));
    g_assert_cmpint (g_array_index (t->gc_phases, TmGcPhase, 0).jvm_gc_id, ==, 2);
    tm_gc_phase_summary_clear (&s);
  }
  {
    /* JDK 9 unified logging: 7 phases, 2.667+0.270+0.017+0.817+1.612+0.154+87.440 ms */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-cms-gc-all_safepoint_os-cpu.txt");
    whole (t, &s);
    g_assert_cmpuint (s.n_per_kind[TM_GC_PHASE_CONCURRENT], ==, 7);
    g_assert_cmpuint (s.ns_per_kind[TM_GC_PHASE_CONCURRENT], ==, MS (92.977));
    tm_gc_phase_summary_clear (&s);
  }
}

static void
test_none (void)
{
  /* pause collectors log no concurrent work */
  g_autoptr(TmTrace) t = gclog_test_load ("jdk17-parallel.log");
  g_assert_cmpuint (t->gc_phases->len, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gc-phases/zgc", test_zgc);
  g_test_add_func ("/gc-phases/shenandoah", test_shenandoah);
  g_test_add_func ("/gc-phases/g1", test_g1);
  g_test_add_func ("/gc-phases/cms", test_cms);
  g_test_add_func ("/gc-phases/none", test_none);
  return g_test_run ();
}
