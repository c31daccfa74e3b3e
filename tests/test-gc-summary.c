/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC summary (docs/gc-summary.md) on logs whose answers are known: the
 * JDK 1.4.2 Serial sample computed by hand from its four records, and the
 * figures GCViewer's own tests assert for the CMS and G1 samples
 * (tests/data/gc-logs/README.md).
 */
#include <math.h>
#include <glib.h>

#include "gclog-test-util.h"
#include "tm-gc-summary.h"

#define KB(x) ((guint64) (x) * 1024)

static void
assert_close (double value, double expected, double rel)
{
  g_assert_cmpfloat (fabs (value - expected), <=, fabs (expected) * rel);
}

/*   0.000: GC       1534K->276K(16256K), 0.0084272 secs   young 1534K->128K
 *  11.653: Full GC  6560K->5492K(16256K), 0.2858561 secs
 *  22.879: GC       16358K->9916K(16576K), 0.8142078 secs  (collected Tenured: major)
 *  31.788: Full GC  17881K->13914K(18640K), 0.8036514 secs */
static void
test_serial_by_hand (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("legacy-serial-SampleSun1_4_2PrintGCDetails.txt");
  g_autoptr(GError) error = NULL;
  TmGcSummary g;

  g_assert_true (tm_gc_summary_compute (t, 1, 4, &g, &error));
  g_assert_cmpuint (g.start_ns, ==, 0);
  g_assert_cmpuint (g.end_ns, ==, G_GUINT64_CONSTANT (32591651400));
  /* GCViewer's test: throughput 94.133029724 % */
  g_assert_cmpfloat (fabs (g.throughput * 100 - 94.133029724), <, 1e-9);
  g_assert_cmpuint (g.pauses.count, ==, 4);
  g_assert_cmpuint (g.pauses.total_ns, ==, 1912142500);
  g_assert_cmpuint (g.pauses.mean_ns, ==, 478035625);
  g_assert_cmpuint (g.pauses.min_ns, ==, 8427200);
  g_assert_cmpuint (g.pauses.max_ns, ==, 814207800);
  g_assert_cmpuint (g.pauses.p50_ns, ==, 285856100);   /* rank ceil(0.5 * 4) = 2 */
  g_assert_cmpuint (g.pauses.p90_ns, ==, 814207800);   /* rank 4 */
  g_assert_cmpuint (g.pauses.p999_ns, ==, 814207800);
  g_assert_cmpuint (g.by_kind[TM_GC_KIND_MINOR].count, ==, 1);
  g_assert_cmpuint (g.by_kind[TM_GC_KIND_MINOR].total_ns, ==, 8427200);
  g_assert_cmpuint (g.by_kind[TM_GC_KIND_MAJOR].count, ==, 3);
  g_assert_cmpuint (g.by_kind[TM_GC_KIND_MAJOR].p50_ns, ==, 803651400);
  g_assert_cmpuint (g.by_kind[TM_GC_KIND_MIXED].count, ==, 0);
  g_assert_cmpuint (g.full_gcs, ==, 3);
  g_assert_cmpuint (g.full_gc_ns, ==, 285856100 + 814207800 + 803651400);
  /* (6560 - 276) + (16358 - 5492) + (17881 - 9916) K over 32.5832242 s */
  g_assert_cmpuint (g.allocated_bytes, ==, KB (6284 + 10866 + 7965));
  assert_close (g.allocation_rate, 789294.5106396193, 1e-12);
  /* the young GC: (1534 - 128) - (1534 - 276) = 148K promoted */
  g_assert_true (g.has_promotion);
  g_assert_cmpuint (g.promoted_bytes, ==, KB (148));
  assert_close (g.promotion_rate, 4651.227854854217, 1e-12);
  g_assert_cmpuint (g.freed_bytes, ==, KB (1258 + 1068 + 6442 + 3967));
  g_assert_cmpuint (g.footprint_bytes, ==, KB (18640));
  g_assert_cmpuint (g.peak_used_bytes, ==, KB (17881));
  g_assert_cmpuint (g.n_after_full, ==, 3);
  g_assert_cmpuint (g.after_full_min, ==, KB (5492));
  g_assert_cmpuint (g.after_full_max, ==, KB (13914));
  g_assert_cmpuint (g.after_full_last, ==, KB (13914));
  /* least squares over (11.9388561 s, 5492K), (23.6932078 s, 9916K), (32.5916514 s, 13914K) */
  assert_close (g.after_full_slope, 415899.45122776506, 1e-9);

  /* GCs 2 and 3 only: no young collection, so no promotion */
  g_assert_true (tm_gc_summary_compute (t, 2, 3, &g, &error));
  g_assert_cmpuint (g.start_ns, ==, G_GUINT64_CONSTANT (11653000000));
  g_assert_cmpuint (g.end_ns, ==, G_GUINT64_CONSTANT (23693207800));
  assert_close (g.throughput, 1.0 - 1100063900.0 / 12040207800.0, 1e-12);
  g_assert_cmpuint (g.pauses.count, ==, 2);
  g_assert_cmpuint (g.allocated_bytes, ==, KB (10866));
  assert_close (g.allocation_rate, 946609.7564530079, 1e-12);
  g_assert_false (g.has_promotion);
  g_assert_true (isnan (g.promotion_rate));
  g_assert_cmpuint (g.n_after_full, ==, 2);

  /* one GC: no span for rates or slopes */
  g_assert_true (tm_gc_summary_compute (t, 1, 1, &g, &error));
  g_assert_true (isnan (g.allocation_rate));
  g_assert_true (isnan (g.after_full_slope));
  g_assert_cmpuint (g.pauses.p50_ns, ==, 8427200);

  g_assert_false (tm_gc_summary_compute (t, 3, 5, &g, &error));
  g_assert_nonnull (error);
}

/* GCViewer's TestDataReaderSun1_6_0 asserts for SampleSun1_6_0CMS.txt:
 * promotion total 220979 KB, footprint after full GC max 31297 KB (2
 * values), heap allocated 249088 KB, heap used max 209896 KB. */
static void
test_cms_gcviewer (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("legacy-cms-SampleSun1_6_0CMS.txt");
  g_autoptr(GError) error = NULL;
  TmGcSummary g;

  g_assert_true (tm_gc_summary_compute (t, 1, tm_trace_n_gcs (t), &g, &error));
  g_assert_true (g.has_promotion);
  g_assert_cmpuint (g.promoted_bytes, ==, KB (220979));
  g_assert_cmpuint (g.n_after_full, ==, 2);
  g_assert_cmpuint (g.after_full_max, ==, KB (31297));
  g_assert_cmpuint (g.footprint_bytes, ==, KB (249088));
  g_assert_cmpuint (g.peak_used_bytes, ==, KB (209896));
  g_assert_cmpuint (g.pauses.total_ns, ==, 248910000);
}

/* TestDataReaderSun1_6_0G1: pause sum 62.616796 s, throughput
 * 47.7730602904 %, longest pause 0.1581177 s, running time
 * 119.8936724 s, footprint after full GC 5 values, max 33 MB. */
static void
test_g1_gcviewer (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("legacy-g1-SampleSun1_6_0G1_gc_verbose.txt");
  g_autoptr(GError) error = NULL;
  TmGcSummary g;

  g_assert_true (tm_gc_summary_compute (t, 1, tm_trace_n_gcs (t), &g, &error));
  g_assert_cmpuint (g.pauses.total_ns, ==, G_GUINT64_CONSTANT (62616796000));
  g_assert_cmpfloat (fabs (g.throughput * 100 - 47.7730602904), <, 1e-9);
  g_assert_cmpuint (g.pauses.max_ns, ==, 158117700);
  g_assert_cmpuint (g.end_ns - g.start_ns, ==, G_GUINT64_CONSTANT (119893672400));
  g_assert_cmpuint (g.n_after_full, ==, 5);
  g_assert_cmpuint (g.after_full_max, ==, 33 * 1024 * 1024);
  g_assert_cmpuint (g.full_gcs, ==, 5);
  g_assert_cmpuint (g.by_kind[TM_GC_KIND_MIXED].count, ==, 242);
  /* percentiles lie between the extremes and in order */
  g_assert_cmpuint (g.pauses.min_ns, <=, g.pauses.p50_ns);
  g_assert_cmpuint (g.pauses.p50_ns, <=, g.pauses.p90_ns);
  g_assert_cmpuint (g.pauses.p90_ns, <=, g.pauses.p99_ns);
  g_assert_cmpuint (g.pauses.p99_ns, <=, g.pauses.p999_ns);
  g_assert_cmpuint (g.pauses.p999_ns, <=, g.pauses.max_ns);
}

/* ZGC with -Xlog:gc only logs no pauses: unknown, left out */
static void
test_unknown_pauses (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-zgc-gc.log");
  g_autoptr(GError) error = NULL;
  TmGcSummary g;

  g_assert_true (tm_gc_summary_compute (t, 1, tm_trace_n_gcs (t), &g, &error));
  g_assert_cmpuint (g.pauses.count, ==, 0);
  g_assert_cmpfloat (g.throughput, ==, 1.0);
  g_assert_false (g.has_promotion);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gc-summary/serial-by-hand", test_serial_by_hand);
  g_test_add_func ("/gc-summary/cms-gcviewer", test_cms_gcviewer);
  g_test_add_func ("/gc-summary/g1-gcviewer", test_g1_gcviewer);
  g_test_add_func ("/gc-summary/unknown-pauses", test_unknown_pauses);
  return g_test_run ();
}
