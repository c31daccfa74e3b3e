/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC log importer against the corpus in tests/data/gc-logs (README.md
 * there holds the facts and says how they were counted): number of GCs
 * per kind, the sum of pause times, heap occupancy of chosen GCs, the
 * mapping of nested and concurrent collections, and robustness against
 * malformed lines, cut files and cancellation.
 */
#include <math.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "gclog-test-util.h"
#include "tm-trace-loader.h"
#include "tm-error.h"
#include "tm-gc-summary.h"

#define MB(x) ((guint64) (x) * 1024 * 1024)
#define KB(x) ((guint64) (x) * 1024)

typedef struct {
  const char *file;
  guint       gcs;
  guint       minor, major, mixed, concurrent;
  guint64     pause_ns;     /* sum over all GCs */
  const char *collector;
} Expect;

/* Counts: README.md ("raw counts" column) with the mapping of
 * docs/importers.md applied: a young pause that encloses a full GC is one
 * major GC; a ZGC/Shenandoah cycle is one concurrent GC whose pause is the
 * sum of its pause phases. */
static const Expect corpus[] = {
  { "jdk17-g1.log", 196, 114, 0, 2, 80, G_GUINT64_CONSTANT (276602000), "G1" },
  { "jdk17-parallel.log", 128, 125, 3, 0, 0, G_GUINT64_CONSTANT (326514000), "Parallel" },
  { "jdk17-serial.log", 122, 119, 3, 0, 0, G_GUINT64_CONSTANT (405497000), "Serial" },
  { "legacy-serial-SampleSun1_4_2PrintGCDetails.txt", 4, 1, 3, 0, 0, G_GUINT64_CONSTANT (1912142500), "Serial" },
  { "legacy-parallel-SampleSun1_8_0ParallelPrintGCID.txt", 5, 3, 2, 0, 0, G_GUINT64_CONSTANT (1863859100), "Parallel" },
  { "legacy-cms-SampleSun1_8_0CmsPrintGcId.txt", 10, 8, 0, 0, 2, G_GUINT64_CONSTANT (55729700), "CMS" },
  { "legacy-cms-SampleSun1_6_0CMS.txt", 19, 13, 2, 0, 4, G_GUINT64_CONSTANT (248910000), "CMS" },
  { "legacy-g1-SampleSun1_8_0G1PrintGCID.txt", 7, 5, 0, 0, 2, G_GUINT64_CONSTANT (35464500), "G1" },
  { "legacy-g1-SampleSun1_6_0G1_gc_verbose.txt", 2978, 2236, 5, 242, 495, G_GUINT64_CONSTANT (62616796000), "G1" },
  { "legacy-shenandoah-SampleOpenJdk1_8_0-332.txt", 2, 0, 0, 0, 2, G_GUINT64_CONSTANT (197536000), "Shenandoah" },
  { "ujl-serial-gc-all_safepoint_os-cpu.txt", 3, 2, 1, 0, 0, G_GUINT64_CONSTANT (27858000), "Serial" },
  { "ujl-parallel-gc-all_safepoint_os-cpu.txt", 8, 4, 4, 0, 0, G_GUINT64_CONSTANT (63721000), "Parallel" },
  { "ujl-cms-gc-all_safepoint_os-cpu.txt", 10, 5, 2, 0, 3, G_GUINT64_CONSTANT (62454000), "CMS" },
  { "ujl-g1-gc-all_safepoint_os-cpu.txt", 13, 11, 0, 0, 2, G_GUINT64_CONSTANT (44411000), "G1" },
  { "ujl-g1-jdk17-full-concurrent-cycle.txt", 9, 7, 0, 0, 2, G_GUINT64_CONSTANT (58304000), "G1" },
  { "ujl-zgc-gc-other.txt", 1, 0, 0, 0, 1, G_GUINT64_CONSTANT (25000), "ZGC" },
  { "ujl-shenandoah-jdk17.txt", 1, 0, 0, 0, 1, G_GUINT64_CONSTANT (1719000), "Shenandoah" },
  { "local-jdk17-zgc.log", 14, 0, 0, 0, 14, G_GUINT64_CONSTANT (432000), "ZGC" },
  { "local-jdk17-zgc-gc.log", 14, 0, 0, 0, 14, 0, "ZGC" },
  { "local-jdk17-zgc-gc-time.log", 10, 0, 0, 0, 10, 0, "ZGC" },
  { "local-jdk17-shenandoah.log", 10, 0, 0, 0, 10, G_GUINT64_CONSTANT (937000), "Shenandoah" },
  { "local-jdk17-shenandoah-gc.log", 10, 0, 0, 0, 10, G_GUINT64_CONSTANT (755000), "Shenandoah" },
  { "local-jdk17-g1-gc-decorated.log", 10, 10, 0, 0, 0, G_GUINT64_CONSTANT (18560000), "G1" },
  { "local-jdk17-serial-gc-nanos.log", 12, 12, 0, 0, 0, G_GUINT64_CONSTANT (13021000), "Serial" },
  { "local-jdk17-parallel-uptime.log", 15, 15, 0, 0, 0, G_GUINT64_CONSTANT (19053000), "Parallel" },
  { "handmade-zgc-generational.log", 3, 2, 0, 0, 1, G_GUINT64_CONSTANT (232000), "ZGC" },
  { "jdk21-zgc-generational.log", 5, 3, 0, 0, 2, G_GUINT64_CONSTANT (205000), "ZGC" },
  /* decorations that carry no time (none, hostname, pid and tid), and
   * timenanos, the JVM's monotonic clock */
  { "local-jdk17-g1-gc-none.log", 26, 26, 0, 0, 0, G_GUINT64_CONSTANT (41835000), "G1" },
  { "local-jdk17-serial-gc-hostname.log", 39, 39, 0, 0, 0, G_GUINT64_CONSTANT (39629000), "Serial" },
  { "local-jdk17-parallel-gc-pid-tid.log", 68, 68, 0, 0, 0, G_GUINT64_CONSTANT (84583000), "Parallel" },
  { "local-jdk17-g1-gc-timenanos.log", 13, 13, 0, 0, 0, G_GUINT64_CONSTANT (153948000), "G1" },
  /* -Xlog:gc+heap=debug alone: no pause lines, a GC per "Heap before GC"
   * block, full when the block's full-GC counter went up */
  { "local-jdk17-serial-gc-heap-debug.log", 15, 14, 1, 0, 0, 0, "Serial" },
  { "local-jdk17-g1-gc-heap-debug.log", 34, 33, 1, 0, 0, 0, "G1" },
  { "local-jdk17-zgc-gc-heap-debug.log", 5, 0, 0, 0, 5, 0, "ZGC" },
  /* -Xlog:gc*=trace: "GC(0) PSYoungGen::resize_spaces(...)" is no
   * "PSYoungGen:" occupancy line */
  { "local-jdk17-parallel-gc-trace.log", 1, 1, 0, 0, 0, G_GUINT64_CONSTANT (5547000), "Parallel" },
  /* two runs' -Xlog:gc logs appended: 5 + 8 Pause Young */
  { "local-jdk17-serial-gc-two-runs.log", 13, 13, 0, 0, 0, G_GUINT64_CONSTANT (11828000), "Serial" },
  /* -Xlog:gc*=debug: sub-phases at debug level, pauses at info */
  { "local-jdk17-zgc-debug.log", 7, 0, 0, 0, 7, G_GUINT64_CONSTANT (489000), "ZGC" },
  /* README "Added later": one file per shape that was misread */
  { "legacy-cms-SampleSun1_8_0CMS_ScavengeBeforeRemark_HeapAtGc.txt", 2, 1, 0, 0, 1, G_GUINT64_CONSTANT (2074800), "CMS" },
  { "legacy-g1-SampleSun1_6_0G1_young_toSpaceOverflow.txt", 1, 1, 0, 0, 0, G_GUINT64_CONSTANT (46745120), "G1" },
  { "legacy-g1-SampleSun1_7_0_40PrintGCCause.txt", 5, 5, 0, 0, 0, G_GUINT64_CONSTANT (144719000), "G1" },
  { "legacy-cms-SampleSun1_7_0CmsPrintFlsStats2.txt", 3, 1, 2, 0, 0, G_GUINT64_CONSTANT (67545900), "CMS" },
  { "legacy-cms-SampleSun1_6_0CMSAdaptiveSizePolicy.txt", 12, 9, 1, 0, 2, G_GUINT64_CONSTANT (233952900), "CMS" },
  /* 438 "Pause Full (System.gc())" lines; gzip-compressed here */
  { "ujl-shenandoah-SampleShenandoahSeveralSystemGC.txt.gz", 438, 0, 438, 0, 0, G_GUINT64_CONSTANT (3108638000), "Shenandoah" },
  { "legacy-serial-SampleSun1_6_0PrintHeapAtGC.txt.gz", 2, 2, 0, 0, 0, G_GUINT64_CONSTANT (27659900), "CMS" },
  /* -Xlog:gc:stdout with a thread printing dots: 14 of the 59 pause
   * lines start with program output */
  { "local-jdk17-serial-gc-stdout-dots.log", 59, 59, 0, 0, 0, G_GUINT64_CONSTANT (7411000), "Serial" },
  /* GC(4) is aborted at the JVM's exit: not a GC */
  { "local-jdk17-zgc-aborted.log", 4, 0, 0, 0, 4, G_GUINT64_CONSTANT (84000), "ZGC" },
  /* JDK 21 generational ZGC, wall-clock decorations only (GCToolKit) */
  { "gctoolkit-zgc-generational-jdk21.log", 2, 1, 0, 0, 1, G_GUINT64_CONSTANT (141000), "ZGC" },
};

static void
test_corpus (gconstpointer data)
{
  const Expect *e = data;
  g_autoptr(TmTrace) t = gclog_test_load (e->file);
  guint kinds[5] = { 0 };
  guint64 pause = 0, last_end = 0;
  g_autofree char *path = gclog_test_path (e->file);
  g_autofree char *contents = NULL;
  gsize len = 0;

  for (guint i = 1; i <= tm_trace_n_gcs (t); i++)
    {
      const TmGc *gc = tm_trace_gc (t, i);
      g_assert_cmpuint (gc->kind, <=, TM_GC_KIND_CONCURRENT);
      kinds[gc->kind]++;
      pause += gc->pause_ns;
      g_assert_cmpuint (gc->end_ns, >=, last_end);   /* in completion order */
      g_assert_cmpuint (gc->end_ns, >=, gc->start_ns);
      if (g_hash_table_lookup (t->meta, "gclog.time_stamps") == NULL)   /* else all at 0 */
        g_assert_cmpuint (gc->end_ns - gc->start_ns + 1000, >=, gc->pause_ns > 0 && gc->kind != TM_GC_KIND_CONCURRENT ? gc->pause_ns : 0);
      last_end = gc->end_ns;
    }
  g_assert_cmpstr (t->format, ==, "gc-log");
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, e->gcs);
  g_assert_cmpuint (kinds[TM_GC_KIND_UNKNOWN], ==, 0);
  g_assert_cmpuint (kinds[TM_GC_KIND_MINOR], ==, e->minor);
  g_assert_cmpuint (kinds[TM_GC_KIND_MAJOR], ==, e->major);
  g_assert_cmpuint (kinds[TM_GC_KIND_MIXED], ==, e->mixed);
  g_assert_cmpuint (kinds[TM_GC_KIND_CONCURRENT], ==, e->concurrent);
  g_assert_cmpuint (pause, ==, e->pause_ns);
  g_assert_cmpstr (tm_trace_gc (t, 1)->collector, ==, e->collector);
  /* appended runs are reported, and read */
  g_assert_cmpuint (t->warnings->len, ==, strstr (e->file, "two-runs") ? 1 : 0);
  g_assert_true (t->complete == (t->warnings->len == 0));

  /* every file is also recognised from its first 4 KiB (compressed
   * files from their whole first block) */
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (tm_gclog_sniff ((const guint8 *) contents, MIN (len, g_str_has_suffix (path, ".gz") ? 132 << 10 : 4096)));
}

static const TmSpaceUsage *
usage_of (const TmTrace *t, const TmGc *gc, const char *space)
{
  for (guint i = 0; i < gc->usage_count; i++)
    {
      const TmSpaceUsage *u = &g_array_index (t->space_usage, TmSpaceUsage, gc->usage_first + i);
      if (g_str_equal (tm_trace_space (t, u->space)->name, space))
        return u;
    }
  return NULL;
}

/* Heap numbers the README quotes from GCViewer's tests. */
static TmTrace *import_text (const char *log, gsize len, const char *name);

static void
test_heap_values (void)
{
  {
    /* G1 JDK 9: event 1 Young 0.007033 s 14M->12M(128M); region counts
     * times the 1M region size, old takes the rest of the logged total. */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-g1-gc-all_safepoint_os-cpu.txt");
    const TmGc *gc = tm_trace_gc (t, 1);
    g_assert_cmpuint (gc->pause_ns, ==, 7033000);
    g_assert_cmpuint (gc->used_before, ==, MB (14));
    g_assert_cmpuint (gc->used_after, ==, MB (12));
    g_assert_cmpuint (gc->committed_after, ==, MB (128));
    g_assert_nonnull (usage_of (t, gc, "Eden"));
    g_assert_cmpuint (usage_of (t, gc, "Eden")->used_after, ==, 0);
    /* GC(6) Remark and Cleanup: concurrent-cycle pauses */
    for (guint i = 1; i <= tm_trace_n_gcs (t); i++)
      {
        const TmGc *g = tm_trace_gc (t, i);
        if (g_str_equal (g->cause, "Cleanup"))
          {
            g_assert_cmpuint (g->kind, ==, TM_GC_KIND_CONCURRENT);
            g_assert_cmpuint (g->pause_ns, ==, 367000);
            g_assert_cmpuint (g->used_before, ==, MB (114));
            g_assert_cmpuint (g->used_after, ==, MB (70));
            /* only a total is logged: the generations of the GC before,
             * the old one taking the rest, rather than a space of its own */
            g_assert_null (usage_of (t, g, "Heap"));
            g_assert_nonnull (usage_of (t, g, "Old"));
            g_assert_cmpuint (usage_of (t, g, "Old")->used_before - usage_of (t, g, "Old")->used_after, ==, MB (44));
          }
      }
  }
  {
    /* Parallel JDK 9: GC(6) Full 0.008792 s 95M->31M(123M); the
     * generation lines are in K, the summary rounds to M. */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-parallel-gc-all_safepoint_os-cpu.txt");
    gboolean seen = FALSE;
    for (guint i = 1; i <= tm_trace_n_gcs (t); i++)
      {
        const TmGc *g = tm_trace_gc (t, i);
        if (g->pause_ns == 8792000)
          {
            seen = TRUE;
            g_assert_cmpuint (g->kind, ==, TM_GC_KIND_MAJOR);
            g_assert_cmpuint (g->used_before / MB (1), ==, 95);
            g_assert_cmpuint (g->used_after / MB (1), ==, 31);
            g_assert_nonnull (usage_of (t, g, "ParOldGen"));
            g_assert_nonnull (usage_of (t, g, "Metaspace"));
          }
      }
    g_assert_true (seen);
  }
  {
    /* Serial JDK 9: GC(2) Young encloses GC(3) Full -> one major GC with
     * the young pause (7.118 ms), starting before the full GC. */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-serial-gc-all_safepoint_os-cpu.txt");
    const TmGc *gc = tm_trace_gc (t, 3);
    g_assert_cmpuint (gc->kind, ==, TM_GC_KIND_MAJOR);
    g_assert_cmpuint (gc->pause_ns, ==, 7118000);
    g_assert_cmpuint (gc->end_ns, ==, 290000000);
    g_assert_cmpuint (gc->used_after / MB (1), ==, 10);
    g_assert_cmpstr (gc->cause, ==, "Allocation Failure");
    g_assert_cmpuint (usage_of (t, gc, "Tenured")->used_after, ==, KB (10970));
    /* event 1 Young 0.009814 s 25M->23M(92M) */
    gc = tm_trace_gc (t, 1);
    g_assert_cmpuint (gc->pause_ns, ==, 9814000);
    g_assert_cmpuint (gc->used_before / MB (1), ==, 25);
    g_assert_cmpuint (gc->used_after / MB (1), ==, 23);
  }
  {
    /* CMS JDK 8 event 0: ParNew, 0.0106548 s, heap before 8678 KB */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-cms-SampleSun1_8_0CmsPrintGcId.txt");
    const TmGc *gc = tm_trace_gc (t, 1);
    g_assert_cmpuint (gc->pause_ns, ==, 10654800);
    g_assert_cmpuint (gc->used_before, ==, KB (8678));
    g_assert_cmpuint (gc->used_after, ==, KB (8064));
    g_assert_cmpstr (gc->cause, ==, "Allocation Failure");
    g_assert_cmpuint (usage_of (t, gc, "ParNew")->used_after, ==, KB (1081));
    /* the old generation is the rest of the heap total */
    g_assert_cmpuint (usage_of (t, gc, "CMS")->used_after, ==, KB (8064 - 1081));
    g_assert_cmpuint (gc->start_ns, ==, 169000000);
    g_assert_cmpuint (t->start_unix_ns / 1000000, ==, G_GUINT64_CONSTANT (1659374193170) - 169);
  }
  {
    /* CMS JDK 6: heap used max 209896 KB (the concurrent mode failure) */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-cms-SampleSun1_6_0CMS.txt");
    g_assert_cmpuint (t->peak_used_bytes, ==, KB (209896));
    g_assert_cmpuint (tm_trace_gc (t, 7)->kind, ==, TM_GC_KIND_MAJOR);
    g_assert_cmpuint (tm_trace_gc (t, 7)->used_after, ==, KB (20323));
  }
  {
    /* G1 JDK 8 event 0: 0.0087570 s, heap before 7168 KB */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-g1-SampleSun1_8_0G1PrintGCID.txt");
    const TmGc *gc = tm_trace_gc (t, 1);
    g_assert_cmpuint (gc->pause_ns, ==, 8757000);
    g_assert_cmpuint (gc->used_before, ==, KB (7168));
    g_assert_cmpuint (gc->used_after, ==, 6824448);   /* 6664.5K */
    g_assert_cmpstr (gc->cause, ==, "G1 Evacuation Pause");
  }
  {
    /* ZGC: "3334M(84%)->2230M(56%)", 3 pauses; committed from the heap
     * table's Relocate End column (3954M). */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-zgc-gc-other.txt");
    const TmGc *gc = tm_trace_gc (t, 1);
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.generational"), ==, "false");
    g_assert_cmpuint (gc->used_before, ==, MB (3334));
    g_assert_cmpuint (gc->used_after, ==, MB (2230));
    g_assert_cmpuint (gc->committed_after, ==, MB (3954));
    g_assert_cmpstr (gc->cause, ==, "Allocation Rate");
    g_assert_cmpuint (gc->start_ns, ==, G_GUINT64_CONSTANT (200343000000));
    g_assert_cmpuint (gc->end_ns, ==, G_GUINT64_CONSTANT (201658000000));
  }
  {
    /* Shenandoah JDK 17: before = the highest of its cleanups' "before"
     * (the heap grows during the cycle: 1593M, then 1616M), after = the
     * last cleanup's */
    g_autoptr(TmTrace) t = gclog_test_load ("ujl-shenandoah-jdk17.txt");
    const TmGc *gc = tm_trace_gc (t, 1);
    g_assert_cmpuint (gc->kind, ==, TM_GC_KIND_CONCURRENT);
    g_assert_cmpuint (gc->used_before, ==, MB (1616));
    g_assert_cmpuint (gc->used_after, ==, MB (1254));
    g_assert_cmpuint (g_ascii_strtoull (g_hash_table_lookup (t->meta, "gclog.concurrent_phases"), NULL, 10), ==, 13);
  }
  {
    /* -Xlog:gc Shenandoah: the peak is GC(5)'s second cleanup, 58M */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-shenandoah-gc.log");
    g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (17));
    g_assert_cmpuint (tm_trace_gc (t, 1)->used_after, ==, MB (2));
    g_assert_cmpuint (t->peak_used_bytes, ==, MB (58));
  }
  {
    /* JDK 8 Shenandoah: the second cycle degenerated */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-shenandoah-SampleOpenJdk1_8_0-332.txt");
    const TmGc *gc = tm_trace_gc (t, 2);
    g_assert_cmpuint (gc->used_after, ==, MB (1733));
    g_assert_cmpstr (gc->cause, ==, "Degenerated GC (Update Refs)");
  }
  {
    /* wall-clock decorations only: times relative to the first line */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-zgc-gc-time.log");
    g_assert_cmpuint (tm_trace_gc (t, 1)->end_ns, ==, 161000000);
    g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (14));
  }
  {
    /* -Xlog:gc+heap=debug alone: GC(11) is a young GC that did nothing
     * (the old generation was full: "Heap after" repeats "Heap before"),
     * GC(12) the full GC that followed (full 0 -> 1) */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-serial-gc-heap-debug.log");
    const TmGc *young = tm_trace_gc (t, 12), *full = tm_trace_gc (t, 13);
    g_assert_cmpuint (young->kind, ==, TM_GC_KIND_MINOR);
    g_assert_cmpuint (young->used_before, ==, young->used_after);
    g_assert_cmpuint (full->kind, ==, TM_GC_KIND_MAJOR);
    g_assert_cmpuint (full->used_before, ==, KB (7423 + 13975));
    g_assert_cmpuint (full->used_after, ==, KB (5493));
    g_assert_cmpuint (full->start_ns, ==, 215000000);
    g_assert_cmpuint (full->end_ns, ==, 230000000);
    g_assert_cmpuint (usage_of (t, full, "Tenured")->used_after, ==, KB (5493));
  }
  {
    /* G1: the region size from the block ("region size 1024K") sizes the
     * "Eden regions: 6->0(5)" of the gc+heap info lines */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-g1-gc-heap-debug.log");
    const TmGc *gc = tm_trace_gc (t, 1);
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.region_bytes"), ==, "1048576");
    g_assert_cmpuint (gc->used_before, ==, KB (7092));
    g_assert_cmpuint (gc->used_after, ==, KB (3392));
    g_assert_cmpuint (usage_of (t, gc, "Eden")->used_before, ==, MB (6));
    g_assert_cmpuint (tm_trace_gc (t, 34)->kind, ==, TM_GC_KIND_MAJOR);
  }
  {
    /* ZGC: "ZHeap used 24M, capacity 24M" */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-zgc-gc-heap-debug.log");
    g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (24));
    g_assert_cmpuint (t->peak_used_bytes, ==, MB (24));
  }
  {
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-parallel-gc-trace.log");
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 1), "PSYoungGen")->used_before, ==, KB (16384));
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 1), "ParOldGen")->used_after, ==, KB (1043));
  }
  {
    /* Epsilon run into OutOfMemoryError: no GC; its "Heap: ... used"
     * samples give the peak, 65067K */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-epsilon-oom.log");
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, 0);
    g_assert_cmpuint (t->peak_used_bytes, ==, KB (65067));
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.heap_samples"), ==, "17");
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.collector"), ==, "Epsilon");
    g_assert_true (t->complete);
  }
  {
    /* -Xlog:gc+phases=debug alone (Serial): the phases of the full GCs
     * GC(31), GC(51) and GC(68), no pause or heap line: no GC, said */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-serial-gc-phases-debug.log");
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, 0);
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.gc_ids"), ==, "3");
    g_assert_nonnull (strstr (g_hash_table_lookup (t->meta, "note"), "name GCs"));
  }
  {
    /* -Xlog:safepoint alone: a JVM log, but no GC in it: opens, said */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-g1-safepoint.log");
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, 0);
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.safepoints"), ==, "20");
    g_assert_nonnull (strstr (g_hash_table_lookup (t->meta, "note"), "only safepoint lines"));
    g_assert_true (t->complete);
  }
  {
    /* no time stamps: said so, the GCs in log order at time 0 */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-serial-gc-hostname.log");
    TmGcSummary g;
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.time_stamps"), ==, "none");
    g_assert_nonnull (g_hash_table_lookup (t->meta, "note"));
    g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 14105000);
    g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (8));
    g_assert_cmpuint (tm_trace_gc (t, 39)->end_ns, ==, 0);
    g_assert_true (tm_gc_summary_compute (t, 1, tm_trace_n_gcs (t), &g, NULL));
    g_assert_true (isnan (g.throughput));
  }
  {
    /* timenanos alone is the monotonic clock (time since boot, here
     * 67367 s): times count from the first line, "Using G1" */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-g1-gc-timenanos.log");
    g_assert_cmpuint (tm_trace_gc (t, 1)->end_ns, ==, G_GUINT64_CONSTANT (67367428153996) - G_GUINT64_CONSTANT (67367332957887));
    g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 39153000);
    g_assert_cmpuint (tm_trace_gc (t, 13)->end_ns, ==, G_GUINT64_CONSTANT (67367774012325) - G_GUINT64_CONSTANT (67367332957887));
    g_assert_cmpuint (t->start_unix_ns, ==, 0);
  }
  {
    /* the same saved with a UTF-8 byte order mark before "[...ns] Using G1" */
    g_autofree char *path = gclog_test_path ("local-jdk17-g1-gc-timenanos.log");
    g_autofree char *text = NULL, *bom = NULL;
    gsize n = 0;
    g_assert_true (g_file_get_contents (path, &text, &n, NULL));
    bom = g_strconcat ("\xef\xbb\xbf", text, NULL);
    g_assert_true (tm_gclog_sniff ((const guint8 *) bom, 200));
    {
      g_autoptr(TmTrace) t = import_text (bom, n + 3, "bom.log");
      g_assert_cmpuint (tm_trace_gc (t, 1)->end_ns, ==, G_GUINT64_CONSTANT (67367428153996) - G_GUINT64_CONSTANT (67367332957887));
      g_assert_cmpuint (t->warnings->len, ==, 0);
    }
  }
  {
    /* uptimenanos */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-serial-gc-nanos.log");
    g_assert_cmpuint (tm_trace_gc (t, 1)->end_ns, ==, 120758766);
    g_assert_cmpuint (tm_trace_gc (t, 1)->start_ns, ==, 120758766 - 1601000);
  }
  {
    /* generational ZGC: the minor collection inside the major one */
    g_autoptr(TmTrace) t = gclog_test_load ("handmade-zgc-generational.log");
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.generational"), ==, "true");
    /* GCs in completion order: the minor GC(3) ends before the major GC(2) */
    g_assert_cmpuint (tm_trace_gc (t, 2)->kind, ==, TM_GC_KIND_MINOR);
    g_assert_cmpuint (tm_trace_gc (t, 2)->pause_ns, ==, 52000);
    g_assert_cmpuint (tm_trace_gc (t, 3)->kind, ==, TM_GC_KIND_CONCURRENT);
    g_assert_cmpuint (tm_trace_gc (t, 3)->pause_ns, ==, 120000);
    /* from its first pause's start (0.043 ms before the stamp its end has) */
    g_assert_cmpuint (tm_trace_gc (t, 3)->end_ns - tm_trace_gc (t, 3)->start_ns, ==, 521043000);
    g_assert_cmpuint (tm_trace_gc (t, 3)->start_ns, <, tm_trace_gc (t, 2)->start_ns);
  }
}

static const TmGcPhase *
find_phase (const TmTrace *t, const char *name, gint64 gc_id, guint *count)
{
  const TmGcPhase *found = NULL;

  *count = 0;
  for (guint i = 0; i < t->gc_phases->len; i++)
    {
      const TmGcPhase *ph = &g_array_index (t->gc_phases, TmGcPhase, i);
      if (g_str_equal (ph->name, name) && (gc_id < 0 || ph->jvm_gc_id == gc_id))
        {
          (*count)++;
          found = found ? found : ph;
        }
    }
  return found;
}

static guint64
meta_u64 (const TmTrace *t, const char *key)
{
  return g_ascii_strtoull (g_hash_table_lookup (t->meta, key), NULL, 10);
}

/* JDK 21 generational ZGC: each phase keeps its generation ("y:" in a
 * minor collection, "Y:" and "O:" in a major one), each generation of a
 * major collection is a span inside it, and debug-level sub-phases nest
 * in the phases logged at info instead of counting twice. */
static void
test_generational_zgc (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("jdk21-zgc-generational.log");
  const TmGcPhase *ph;
  guint n;

  g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.generational"), ==, "true");
  g_assert_cmpuint (meta_u64 (t, "gclog.max_heap"), ==, MB (1024));
  /* GC(2) Major Collection (Proactive) 400M(39%)->210M(20%), Y 0.020 +
   * 0.015 + 0.014 and O 0.018 + 0.011 ms; GC(3) ends inside it */
  g_assert_cmpuint (tm_trace_gc (t, 3)->kind, ==, TM_GC_KIND_MINOR);
  g_assert_cmpuint (tm_trace_gc (t, 3)->pause_ns, ==, 24000);
  g_assert_cmpuint (tm_trace_gc (t, 4)->kind, ==, TM_GC_KIND_CONCURRENT);
  g_assert_cmpuint (tm_trace_gc (t, 4)->pause_ns, ==, 78000);
  g_assert_cmpuint (tm_trace_gc (t, 4)->used_before, ==, MB (400));
  g_assert_cmpuint (tm_trace_gc (t, 4)->used_after, ==, MB (210));
  g_assert_cmpuint (tm_trace_gc (t, 4)->committed_after, ==, MB (512));
  g_assert_cmpstr (tm_trace_gc (t, 4)->cause, ==, "Proactive");
  g_assert_cmpstr (tm_trace_gc (t, 5)->cause, ==, "Allocation Stall");

  /* minor collections' "y:" and the major ones' "Y:" are the young generation */
  ph = find_phase (t, "Y: Pause Mark Start", -1, &n);
  g_assert_cmpuint (n, ==, 5);
  ph = find_phase (t, "O: Pause Mark End", 2, &n);
  g_assert_nonnull (ph);
  g_assert_cmpuint (ph->kind, ==, TM_GC_PHASE_PAUSE);
  g_assert_cmpuint (ph->end_ns - ph->start_ns, ==, 18000);
  g_assert_null (find_phase (t, "Pause Mark Start", -1, &n));
  ph = find_phase (t, "O: Concurrent Mark", 2, &n);
  g_assert_nonnull (ph);
  g_assert_cmpuint (ph->end_ns, ==, G_GUINT64_CONSTANT (1150000000));

  /* the generations of the two major collections, inside their cycles */
  find_phase (t, "Young Generation", -1, &n);
  g_assert_cmpuint (n, ==, 2);
  ph = find_phase (t, "Old Generation", 2, &n);
  g_assert_nonnull (ph);
  g_assert_cmpuint (ph->kind, ==, TM_GC_PHASE_CYCLE);
  g_assert_cmpuint (ph->depth, ==, 1);
  g_assert_cmpuint (ph->start_ns, ==, G_GUINT64_CONSTANT (1040000000));
  g_assert_cmpuint (ph->end_ns, ==, G_GUINT64_CONSTANT (1180000000));

  /* debug sub-phases nest; the info phases sum to 264.115 ms */
  ph = find_phase (t, "Y: Concurrent Mark Roots", 0, &n);
  g_assert_nonnull (ph);
  g_assert_cmpuint (ph->depth, ==, 1);
  g_assert_cmpuint (meta_u64 (t, "gclog.concurrent_phases"), ==, 27);
  g_assert_cmpuint (meta_u64 (t, "gclog.concurrent_ns"), ==, 264115000);
  find_phase (t, "Allocation Stall", -1, &n);
  g_assert_cmpuint (n, ==, 1);

  {
    /* JDK 17 -Xlog:gc*=debug: 42 info-level concurrent phases, 65.289 ms
     * (the debug ones have start lines and nest in them) */
    g_autoptr(TmTrace) d = gclog_test_load ("local-jdk17-zgc-debug.log");
    g_assert_cmpuint (meta_u64 (d, "gclog.concurrent_phases"), ==, 42);
    g_assert_cmpuint (meta_u64 (d, "gclog.concurrent_ns"), ==, 65289000);
    for (guint i = 0; i < d->gc_phases->len; i++)
      {
        const TmGcPhase *x = &g_array_index (d->gc_phases, TmGcPhase, i);
        if (g_str_has_prefix (x->name, "Concurrent Roots") || g_str_has_prefix (x->name, "Concurrent Mark Try"))
          g_assert_cmpuint (x->depth, >=, 1);
        else if (x->kind == TM_GC_PHASE_CONCURRENT && g_str_equal (x->name, "Concurrent Relocate"))
          g_assert_cmpuint (x->depth, ==, 0);
      }
  }
}

/* Shapes of JDK 11, 21 and 23 logs and of logs written to stdout that
 * were misread (README "Added in session 9"). */
static void
test_jdk_shapes (void)
{
  const TmGcPhase *ph;
  guint n;

  {
    /* GCToolKit's JDK 21 major and minor collection, time decorations
     * only: the major one's first pause ends on the log's first line */
    g_autoptr(TmTrace) t = gclog_test_load ("gctoolkit-zgc-generational-jdk21.log");
    const TmGc *major = tm_trace_gc (t, 1), *minor = tm_trace_gc (t, 2);
    g_assert_cmpuint (major->kind, ==, TM_GC_KIND_CONCURRENT);
    g_assert_cmpuint (major->pause_ns, ==, 77000);
    g_assert_cmpuint (major->used_before, ==, MB (296));
    g_assert_cmpuint (major->used_after, ==, MB (80));
    g_assert_cmpuint (major->committed_after, ==, MB (36864));
    g_assert_cmpuint (major->end_ns - major->start_ns, ==, 104000000);
    g_assert_cmpuint (minor->kind, ==, TM_GC_KIND_MINOR);
    g_assert_cmpuint (minor->pause_ns, ==, 64000);
    g_assert_cmpuint (minor->used_before, ==, MB (14720));
    g_assert_cmpuint (minor->used_after, ==, MB (2054));
    ph = find_phase (t, "Y: Pause Mark Start", 1, &n);
    g_assert_nonnull (ph);
    g_assert_cmpuint (ph->end_ns - ph->start_ns, ==, 23000);
    {
      guint64 total = 0;
      for (guint i = 0; i < t->gc_phases->len; i++)
        {
          const TmGcPhase *x = &g_array_index (t->gc_phases, TmGcPhase, i);
          if (x->kind == TM_GC_PHASE_PAUSE)
            total += x->end_ns - x->start_ns;
        }
      g_assert_cmpuint (total, ==, 141000);   /* the pause lines' sum */
    }
  }
  {
    /* JDK 17 ZGC: "GC(4) Garbage Collection (Warmup) Aborted" after its
     * first pause; the pause stays among the phases */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-zgc-aborted.log");
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.aborted"), ==, "GC(4) Garbage Collection at 0.515 s");
    g_assert_nonnull (strstr (g_hash_table_lookup (t->meta, "note"), "was aborted"));
    g_assert_cmpuint (meta_u64 (t, "gclog.concurrent_cycles"), ==, 4);
    ph = find_phase (t, "Pause Mark Start", 4, &n);
    g_assert_nonnull (ph);
    g_assert_cmpuint (ph->end_ns - ph->start_ns, ==, 5000);
    g_assert_cmpuint (tm_trace_gc (t, 4)->end_ns, ==, 417000000);
  }
  {
    /* JDK 23 -Xlog:gc to stdout (quoted in a tutorial, "Observed output
     * (run with java -Xlog:gc -XX:+UseZGC -Xmx64m GcComparison)"): the
     * JVM exits during GC(2) and GC(3) */
    static const char log[] =
      "[0.044s][info][gc] Using The Z Garbage Collector\n"
      "[0.121s][info][gc] GC(0) Major Collection (Warmup)\n"
      "[0.342s][info][gc] GC(1) Minor Collection (High Usage)\n"
      "[0.347s][info][gc] Allocation Stall (main) 199.256ms\n"
      "[0.347s][info][gc] GC(1) Minor Collection (High Usage) 64M(100%)->20M(31%) 0.005s\n"
      "[0.347s][info][gc] GC(0) Major Collection (Warmup) 8M(12%)->20M(31%) 0.226s\n"
      "[0.347s][info][gc] GC(2) Major Collection (Warmup)\n"
      "Retained 10 arrays\n"
      "[0.559s][info][gc] GC(3) Minor Collection (Allocation Rate)\n"
      "[0.559s][info][gc] GC(3) Minor Collection (Allocation Rate) Aborted\n"
      "[0.559s][info][gc] GC(2) Major Collection (Warmup) Aborted\n";
    g_autoptr(TmTrace) t = import_text (log, sizeof log - 1, "zgc23-aborted.log");
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, 2);
    g_assert_cmpuint (t->warnings->len, ==, 0);
    g_assert_cmpuint (tm_trace_gc (t, 1)->end_ns, ==, 347000000);
    g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (8));   /* GC(0), started first */
    g_assert_cmpuint (tm_trace_gc (t, 2)->used_before, ==, MB (64));
    g_assert_nonnull (strstr (g_hash_table_lookup (t->meta, "note"), "2 collections were aborted"));
    /* a log that ends during a cycle that has not paused: not counted */
    {
      const char *cut = strstr (log, "Retained");
      g_autoptr(TmTrace) c = import_text (log, (gsize) (cut - log), "zgc23-cut.log");
      g_assert_cmpuint (tm_trace_n_gcs (c), ==, 2);
      g_assert_cmpstr (g_hash_table_lookup (c->meta, "gclog.unfinished"), ==, "GC(2) Major Collection at 0.347 s");
    }
  }
  {
    /* JDK 8 -XX:+PrintGCDetails without -XX:+PrintGCTimeStamps (the
     * default) on the console, program output around it (quoted in a
     * Java reference tutorial): no time stamps at all */
    static const char log[] =
      "java.lang.Object@4554617c\n"
      "null\n"
      "null\n"
      "[GC (System.gc()) [PSYoungGen: 1383K->496K(1536K)] 1503K->800K(5632K), 0.0008890 secs] [Times: user=0.00 sys=0.00, real=0.00 secs] \n"
      "[Full GC (System.gc()) [PSYoungGen: 496K->0K(1536K)] [ParOldGen: 304K->640K(4096K)] 800K->640K(5632K), [Metaspace: 3440K->3440K(1056768K)], 0.0065375 secs] [Times: user=0.00 sys=0.00, real=0.01 secs] \n"
      "================\n"
      "null\n";
    g_autoptr(TmTrace) t = import_text (log, sizeof log - 1, "jdk8-console.log");
    g_assert_true (tm_gclog_sniff ((const guint8 *) log, sizeof log - 1));
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, 2);
    g_assert_cmpuint (t->warnings->len, ==, 0);
    g_assert_cmpuint (tm_trace_gc (t, 1)->kind, ==, TM_GC_KIND_MINOR);
    g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 889000);
    g_assert_cmpuint (tm_trace_gc (t, 2)->kind, ==, TM_GC_KIND_MAJOR);
    g_assert_cmpuint (tm_trace_gc (t, 2)->used_before, ==, KB (800));
    g_assert_cmpuint (tm_trace_gc (t, 2)->used_after, ==, KB (640));
    g_assert_cmpuint (tm_trace_gc (t, 2)->pause_ns, ==, 6537500);
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.time_stamps"), ==, "none");
  }
  {
    /* program output without a line end before log lines */
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-serial-gc-stdout-dots.log");
    g_assert_cmpuint (meta_u64 (t, "gclog.program_output_lines"), ==, 14);
    g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 1777000);
    g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (8));
  }
  {
    /* looking for a log line after program output costs linear time:
     * 64 lines of 200,000 brackets read at once */
    GString *text = g_string_new ("[0.001s][info][gc] Using Serial\n");
    for (guint i = 0; i < 64; i++)
      {
        g_string_append_c (text, 'x');
        for (guint j = 0; j < 200000; j++)
          g_string_append_c (text, '[');
        g_string_append_c (text, '\n');
      }
    {
      g_autoptr(TmTrace) t = import_text (text->str, text->len, "brackets.log");
      g_assert_cmpuint (tm_trace_n_gcs (t), ==, 0);
    }
    g_string_free (text, TRUE);
  }
  {
    /* JDK 9-16 -Xlog:gc+heap=debug print the heap's first space on the
     * "Heap before GC" line (JDK 11, -Xmx20M -Xlog:gc+heap=debug, as
     * quoted in XlogExample.java by pengpeng, 2020); the region counts
     * of the info lines exceed the used bytes */
    static const char log[] =
      "[0.027s][info][gc,heap] Heap region size: 1M\n"
      "[0.027s][debug][gc,heap] Minimum heap 8388608  Initial heap 20971520  Maximum heap 20971520\n"
      "[1.956s][debug][gc,heap] GC(0) Heap before GC invocations=0 (full 0): garbage-first heap   total 20480K, used 9216K [0x00000000fec00000, 0x0000000100000000)\n"
      "[1.956s][debug][gc,heap] GC(0)   region size 1024K, 9 young (9216K), 0 survivors (0K)\n"
      "[1.956s][debug][gc,heap] GC(0)  Metaspace       used 6772K, capacity 6888K, committed 7168K, reserved 1056768K\n"
      "[1.956s][debug][gc,heap] GC(0)   class space    used 608K, capacity 652K, committed 768K, reserved 1048576K\n"
      "[1.963s][info ][gc,heap] GC(0) Eden regions: 9->0(8)\n"
      "[1.963s][info ][gc,heap] GC(0) Survivor regions: 0->2(2)\n"
      "[1.963s][info ][gc,heap] GC(0) Old regions: 0->0\n"
      "[1.963s][info ][gc,heap] GC(0) Humongous regions: 0->0\n"
      "[1.963s][debug][gc,heap] GC(0) Heap after GC invocations=1 (full 0): garbage-first heap   total 20480K, used 1744K [0x00000000fec00000, 0x0000000100000000)\n"
      "[1.963s][debug][gc,heap] GC(0)   region size 1024K, 2 young (2048K), 2 survivors (2048K)\n"
      "[1.963s][debug][gc,heap] GC(0)  Metaspace       used 6772K, capacity 6888K, committed 7168K, reserved 1056768K\n"
      "[1.963s][debug][gc,heap] GC(0)   class space    used 608K, capacity 652K, committed 768K, reserved 1048576K\n"
      "[2.066s][debug][gc,heap] GC(1) Heap before GC invocations=1 (full 0): garbage-first heap   total 20480K, used 9936K [0x00000000fec00000, 0x0000000100000000)\n"
      "[2.066s][debug][gc,heap] GC(1)   region size 1024K, 10 young (10240K), 2 survivors (2048K)\n"
      "[2.066s][debug][gc,heap] GC(1)  Metaspace       used 6774K, capacity 6888K, committed 7168K, reserved 1056768K\n"
      "[2.066s][debug][gc,heap] GC(1)   class space    used 608K, capacity 652K, committed 768K, reserved 1048576K\n"
      "[2.072s][info ][gc,heap] GC(1) Eden regions: 8->0(9)\n"
      "[2.072s][info ][gc,heap] GC(1) Survivor regions: 2->1(2)\n"
      "[2.072s][info ][gc,heap] GC(1) Old regions: 0->1\n"
      "[2.072s][info ][gc,heap] GC(1) Humongous regions: 0->0\n"
      "[2.072s][debug][gc,heap] GC(1) Heap after GC invocations=2 (full 0): garbage-first heap   total 20480K, used 2029K [0x00000000fec00000, 0x0000000100000000)\n"
      "[2.072s][debug][gc,heap] GC(1)   region size 1024K, 1 young (1024K), 1 survivors (1024K)\n"
      "[2.072s][debug][gc,heap] GC(1)  Metaspace       used 6774K, capacity 6888K, committed 7168K, reserved 1056768K\n"
      "[2.072s][debug][gc,heap] GC(1)   class space    used 608K, capacity 652K, committed 768K, reserved 1048576K\n";
    g_autoptr(TmTrace) t = import_text (log, sizeof log - 1, "jdk11-heap-debug.log");
    const TmGc *a = tm_trace_gc (t, 1), *b = tm_trace_gc (t, 2);
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, 2);
    g_assert_cmpuint (a->kind, ==, TM_GC_KIND_MINOR);
    g_assert_cmpuint (a->used_before, ==, KB (9216));
    g_assert_cmpuint (a->used_after, ==, KB (1744));
    g_assert_cmpuint (a->committed_after, ==, KB (20480));
    g_assert_cmpuint (usage_of (t, a, "Survivor")->used_after, ==, KB (1744));
    g_assert_cmpuint (b->used_before, ==, KB (9936));
    g_assert_cmpuint (b->used_after, ==, KB (2029));
  }
}

/* Age tables: -Xlog:gc+age=trace (JDK 17, real) and the JDK 8
 * -XX:+PrintTenuringDistribution lines inside ParNew and G1 records. */
static void
test_age_tables (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "advice", "jdk17-longlived-SerialGC-age.log.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = tm_gclog_import (path, NULL, NULL, NULL, &error);
  const TmGcAges *a;

  g_assert_no_error (error);
  /* 84 "Pause Young" lines, each with its table */
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 84);
  g_assert_nonnull (t->gc_ages);
  g_assert_cmpuint (t->gc_ages->len, ==, 84);
  a = &g_array_index (t->gc_ages, TmGcAges, 1);
  g_assert_cmpuint (a->gc, ==, 2);
  g_assert_cmpuint (a->threshold, ==, 15);
  g_assert_cmpuint (a->max_threshold, ==, 15);
  g_assert_cmpuint (a->desired_survivor, ==, 8388608);
  g_assert_cmpuint (a->bytes[1], ==, 365864);
  g_assert_cmpuint (a->bytes[2], ==, 746360);
  g_assert_cmpuint (a->bytes[3], ==, 0);
  g_assert_cmpuint (t->warnings->len, ==, 0);

  {
    static const char parnew[] =
      "2014-07-24T09:47:44.452+0200: 0.452: [GC (Allocation Failure) 2014-07-24T09:47:44.452+0200: 0.452: [ParNew\n"
      "Desired survivor size 1114112 bytes, new threshold 1 (max 6)\n"
      "- age   1:    2209784 bytes,    2209784 total\n"
      ": 19136K->2176K(19136K), 0.0123000 secs] 19136K->5000K(63360K), 0.0124000 secs] "
      "[Times: user=0.02 sys=0.00, real=0.01 secs] \n"
      "2014-07-24T09:47:44.652+0200: 0.652: [GC (Allocation Failure) 2014-07-24T09:47:44.652+0200: 0.652: [ParNew\n"
      "Desired survivor size 1114112 bytes, new threshold 6 (max 6)\n"
      "- age   1:     100000 bytes,     100000 total\n"
      "- age   2:      50000 bytes,     150000 total\n"
      ": 19136K->150K(19136K), 0.0023000 secs] 21960K->3000K(63360K), 0.0024000 secs] "
      "[Times: user=0.00 sys=0.00, real=0.00 secs] \n";
    g_autoptr(TmTrace) l = tm_gclog_import_bytes ((const guint8 *) parnew, sizeof parnew - 1, "parnew.log", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (tm_trace_n_gcs (l), ==, 2);
    g_assert_cmpuint (l->warnings->len, ==, 0);
    g_assert_cmpuint (tm_trace_gc (l, 1)->pause_ns, ==, 12400000);
    g_assert_cmpuint (l->gc_ages->len, ==, 2);
    a = &g_array_index (l->gc_ages, TmGcAges, 0);
    g_assert_cmpuint (a->gc, ==, 1);
    g_assert_cmpuint (a->threshold, ==, 1);
    g_assert_cmpuint (a->max_threshold, ==, 6);
    g_assert_cmpuint (a->desired_survivor, ==, 1114112);
    g_assert_cmpuint (a->bytes[1], ==, 2209784);
    a = &g_array_index (l->gc_ages, TmGcAges, 1);
    g_assert_cmpuint (a->gc, ==, 2);
    g_assert_cmpuint (a->bytes[2], ==, 50000);
  }
  {
    static const char g1[] =
      "0.234: [GC pause (G1 Evacuation Pause) (young)\n"
      "Desired survivor size 1048576 bytes, new threshold 15 (max 15)\n"
      "- age   1:     305560 bytes,     305560 total\n"
      ", 0.0041467 secs]\n"
      "   [Parallel Time: 3.5 ms, GC Workers: 4]\n"
      "   [Eden: 12.0M(12.0M)->0.0B(11.0M) Survivors: 0.0B->2048.0K Heap: 12.0M(256.0M)->1020.5K(256.0M)]\n"
      " [Times: user=0.01 sys=0.00, real=0.00 secs] \n";
    g_autoptr(TmTrace) l = tm_gclog_import_bytes ((const guint8 *) g1, sizeof g1 - 1, "g1.log", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (tm_trace_n_gcs (l), ==, 1);
    g_assert_cmpuint (l->warnings->len, ==, 0);
    g_assert_cmpuint (tm_trace_gc (l, 1)->used_before, ==, MB (12));
    g_assert_cmpuint (l->gc_ages->len, ==, 1);
    g_assert_cmpuint (g_array_index (l->gc_ages, TmGcAges, 0).bytes[1], ==, 305560);
    g_assert_cmpuint (g_array_index (l->gc_ages, TmGcAges, 0).threshold, ==, 15);
  }
  {
    /* a table printed after its pause line belongs to that GC, not to a new one */
    static const char late[] =
      "[0.204s][info ][gc          ] GC(0) Pause Young (Allocation Failure) 14M->2M(46M) 10.657ms\n"
      "[0.204s][debug][gc,age      ] GC(0) Desired survivor size 819200 bytes, new threshold 1 (max threshold 15)\n"
      "[0.204s][trace][gc,age      ] GC(0) - age   1:    1571464 bytes,    1571464 total\n";
    g_autoptr(TmTrace) l = tm_gclog_import_bytes ((const guint8 *) late, sizeof late - 1, "late.log", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (tm_trace_n_gcs (l), ==, 1);
    g_assert_cmpuint (l->gc_ages->len, ==, 1);
    g_assert_cmpuint (g_array_index (l->gc_ages, TmGcAges, 0).gc, ==, 1);
    g_assert_cmpuint (g_array_index (l->gc_ages, TmGcAges, 0).bytes[1], ==, 1571464);
  }
  {
    /* no age lines: no tables */
    g_autoptr(TmTrace) l = gclog_test_load ("jdk17-serial.log");
    g_assert_null (l->gc_ages);
  }
}

/* A log given as text, read as a file of that name would be. */
static TmTrace *
import_text (const char *log, gsize len, const char *name)
{
  g_autoptr(GError) error = NULL;
  TmTrace *t = tm_gclog_import_bytes ((const guint8 *) log, len, name, &error);

  g_assert_no_error (error);
  return t;
}

/* JDK 11-16 ZGC with gc+phases=debug: "Pause Roots ..." sub-phases of
 * Pause Mark Start are inside it, not pauses of their own; the cycle
 * line has no duration. */
static void
test_zgc11_debug (void)
{
  static const char log[] =
    "[0.018s][info][gc     ] Using The Z Garbage Collector\n"
    "[0.250s][info][gc,start ] GC(0) Garbage Collection (Warmup)\n"
    "[0.250s][debug][gc,phases] GC(0) Pause Roots Setup 0.004ms\n"
    "[0.250s][debug][gc,phases] GC(0) Pause Roots ClassLoaderDataGraph 0.052ms\n"
    "[0.250s][debug][gc,phases] GC(0) Pause Roots 0.210ms\n"
    "[0.250s][info ][gc,phases] GC(0) Pause Mark Start 0.512ms\n"
    "[0.260s][debug][gc,phases] GC(0) Concurrent Mark Try Flush 0.020ms\n"
    "[0.260s][info ][gc,phases] GC(0) Concurrent Mark 9.800ms\n"
    "[0.260s][info ][gc,phases] GC(0) Pause Mark End 0.203ms\n"
    "[0.264s][info ][gc,phases] GC(0) Pause Relocate Start 0.300ms\n"
    "[0.268s][info ][gc,phases] GC(0) Concurrent Relocate 3.900ms\n"
    "[0.268s][info ][gc,heap  ] GC(0)                Mark Start          Mark End        Relocate Start      Relocate End"
    "           High               Low\n"
    "[0.268s][info ][gc,heap  ] GC(0)  Capacity:      128M (12%)         128M (12%)         128M (12%)         128M (12%)"
    "         128M (12%)         128M (12%)\n"
    "[0.268s][info ][gc       ] GC(0) Garbage Collection (Warmup) 104M(10%)->30M(3%)\n";
  g_autoptr(TmTrace) t = import_text (log, sizeof log - 1, "zgc11.log");
  guint n;

  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  g_assert_cmpuint (t->warnings->len, ==, 0);
  g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 512000 + 203000 + 300000);
  g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (104));
  g_assert_cmpuint (tm_trace_gc (t, 1)->used_after, ==, MB (30));
  g_assert_cmpuint (tm_trace_gc (t, 1)->committed_after, ==, MB (128));
  g_assert_null (find_phase (t, "Pause Roots", -1, &n));
  g_assert_cmpuint (find_phase (t, "Concurrent Mark Try Flush", 0, &n)->depth, ==, 1);
  g_assert_cmpuint (meta_u64 (t, "gclog.concurrent_ns"), ==, 13700000);
}

/* A message of the gc tags that spans lines (JDK 17 G1 at trace level)
 * continues on indented, undecorated lines: not program output. */
static void
test_continuation (void)
{
  static const char log[] =
    "[0.111s][info ][gc,start             ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)\n"
    "[0.111s][trace][gc,task              ] GC(0) WorkerPolicy::calc_default_active_workers() : active_workers(): 1"
    "  new_active_workers: 2  prev_active_workers: 1\n"
    " active_workers_by_JT: 2  active_workers_by_heap_size: 2\n"
    "[0.111s][info ][gc,task              ] GC(0) Using 2 workers of 2 for evacuation\n"
    "[0.118s][info ][gc                   ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 7M->3M(48M) 6.843ms\n"
    "program output\n"
    "[main] INFO Service started\n"
    "GC(1) Pause Young (Normal) (G1 Evacuation Pause) 9M->3M(48M)\n";
  g_autoptr(TmTrace) t = import_text (log, sizeof log - 1, "cont.log");

  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 6843000);
  /* program output (also "[main] ...") is noted, not a problem; the
   * undecorated GC text is reported */
  g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.program_output_lines"), ==, "2");
  g_assert_cmpuint (t->warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_array_index (t->warnings, TmWarning, 0).message, "line 8: 1 lines are not unified"));
}

/* JDK 6 G1: the concurrent thread prints into the detail lines the
 * pause thread is writing, splitting the heap line over two lines and
 * putting its time stamp before a worker line. */
static void
test_interleaved_g1_details (void)
{
  static const char log[] =
    "10.000: [GC pause (young) (initial-mark), 0.03000000 secs]\n"
    "   [Parallel Time:  21.3 ms]\n"
    "      10.004: [GC Worker Start Time (ms):[GC concurrent-mark-start]\n"
    "  10000.1  10000.2]\n"
    "      [Update RS (ms):  2.9  2.8\n"
    "       Avg:   2.9, Min:   2.8, Max:   2.9]\n"
    "   [Other:  8.0 ms]\n"
    "   [[GC concurrent-mark-start]\n"
    " 700M->400M(1024M)]\n"
    " [Times: user=0.80 sys=0.00, real=0.03 secs] \n"
    "10.500: [GC concurrent-mark-end, 0.2500000 secs]\n"
    "11.000: [GC pause (young), 0.01000000 secs]\n"
    "   [Parallel Time:   8.0 ms]\n"
    "   [[GC concurrent-cleanup-end, 0.0001000 secs]\n"
    " 600M->300M(1024M)]\n"
    " [Times: user=0.02 sys=0.00, real=0.01 secs] \n";
  g_autoptr(TmTrace) t = import_text (log, sizeof log - 1, "g1.log");

  g_assert_true (t->complete);
  g_assert_cmpuint (t->warnings->len, ==, 0);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 2);
  g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 30000000);
  g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (700));
  g_assert_cmpuint (tm_trace_gc (t, 1)->used_after, ==, MB (400));
  g_assert_cmpuint (tm_trace_gc (t, 1)->committed_after, ==, MB (1024));
  g_assert_cmpuint (tm_trace_gc (t, 2)->used_before, ==, MB (600));
  g_assert_cmpuint (tm_trace_gc (t, 2)->used_after, ==, MB (300));
  /* the concurrent phases printed into the details still count */
  g_assert_cmpuint (meta_u64 (t, "gclog.concurrent_ns"), ==, 250100000);
}

/* JDK 7 G1 with date stamps: the stamp of a concurrent record lands
 * before a detail line ("31600.161:    [Eden: ...]"), and in locales with
 * a decimal comma the stamps read "6616,901: ". */
static void
test_stamped_g1_details (void)
{
  static const char log[] =
    "2012-02-24T12:30:36.744-0800: 100.000: [GC pause (young)2012-02-24T12:30:36.800-0800:  (initial-mark), 0.09000000 secs]\n"
    "100.056:    [Parallel Time: 80.0 ms]\n"
    "[GC concurrent-mark-start]\n"
    "      [Ref Enq:   0.0 ms]\n"
    "2012-02-24T12:30:36.844-0800: 100.100:    [Eden: 995M(995M)->0B(939M) Survivors: 29M->85M Heap: 2000M(4096M)->1100M(4096M)]\n"
    "[GC concurrent-root-region-scan-start]\n"
    " [Times: user=0.36 sys=0.01, real=0.10 secs] \n"
    "2012-02-24T12:30:38.000-0800: 101,250: [GC pause (young)\n"
    ", 0,0100000 secs]\n"
    "   [Eden: 900M(900M)->0B(900M) Survivors: 85M->85M Heap: 2000M(4096M)->1200M(4096M)]\n"
    " [Times: user=0,02 sys=0,00, real=0,01 secs]\n"
    "101,300: [GC concurrent-root-region-scan-start]\n"
    "2012-02-24T12:30:38.100-0800: 101,350: [GC concurrent-root-region-scan-end, 0,0500000 secs]\n"
    "2012-02-24T12:30:38.100-0800: 101,350: [GC concurrent-mark-start]\n";
  g_autoptr(TmTrace) t = import_text (log, sizeof log - 1, "g1.log");

  g_assert_cmpuint (t->warnings->len, ==, 0);
  g_assert_true (t->complete);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 2);
  g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 90000000);
  g_assert_cmpuint (tm_trace_gc (t, 1)->used_before, ==, MB (2000));
  g_assert_cmpuint (tm_trace_gc (t, 1)->used_after, ==, MB (1100));
  g_assert_cmpuint (tm_trace_gc (t, 2)->pause_ns, ==, 10000000);
  g_assert_cmpuint (tm_trace_gc (t, 2)->used_after, ==, MB (1200));
  g_assert_cmpuint (meta_u64 (t, "gclog.concurrent_ns"), ==, 50000000);
}

/* The values README.md's "Added later" table gives for each shape. */
static void
test_added_later (void)
{
  {
    /* CMSScavengeBeforeRemark + PrintHeapAtGC: the scavenge inside the
     * remark is a young GC of its own; nothing after the record is lost */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-cms-SampleSun1_8_0CMS_ScavengeBeforeRemark_HeapAtGc.txt");
    g_assert_cmpuint (tm_trace_gc (t, 1)->pause_ns, ==, 77800);
    g_assert_cmpuint (tm_trace_gc (t, 1)->kind, ==, TM_GC_KIND_MINOR);
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 1), "ParNew")->used_after, ==, KB (10451));
    g_assert_cmpuint (tm_trace_gc (t, 2)->pause_ns, ==, 1997000);
    g_assert_cmpuint (tm_trace_gc (t, 2)->kind, ==, TM_GC_KIND_CONCURRENT);
    g_assert_cmpuint (tm_trace_gc (t, 2)->used_after, ==, KB (111291));
  }
  {
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-g1-SampleSun1_6_0G1_young_toSpaceOverflow.txt");
    const TmGc *gc = tm_trace_gc (t, 1);
    g_assert_cmpuint (gc->used_before, ==, MB (228));
    g_assert_cmpuint (gc->used_after, ==, MB (102));
    g_assert_cmpuint (gc->committed_after, ==, MB (256));
  }
  {
    /* survivors rounded up to a 32M region exceed the heap total */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-g1-SampleSun1_7_0_40PrintGCCause.txt");
    const TmGc *gc = tm_trace_gc (t, 1);
    g_assert_cmpuint (gc->used_before, ==, MB (32));
    g_assert_cmpuint (gc->used_after, ==, 7307673);   /* 7136.4K */
    g_assert_cmpuint (usage_of (t, gc, "Survivor")->used_after, ==, 7307673);
    g_assert_cmpuint (usage_of (t, gc, "Old")->used_after, ==, 0);
    /* GC 2: 39.0M -> 13.9M with 32M of eden and 32M of survivors before */
    gc = tm_trace_gc (t, 2);
    g_assert_cmpuint (gc->used_before, ==, MB (39));
    g_assert_cmpuint (gc->used_after, ==, 14575206);
    g_assert_cmpuint (usage_of (t, gc, "Eden")->used_before, ==, MB (32));
    g_assert_cmpuint (usage_of (t, gc, "Survivor")->used_before, ==, MB (7));
  }
  {
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-cms-SampleSun1_7_0CmsPrintFlsStats2.txt");
    g_assert_cmpuint (tm_trace_gc (t, 1)->kind, ==, TM_GC_KIND_MINOR);
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 1), "ParNew")->used_after, ==, KB (509));
    g_assert_cmpuint (tm_trace_gc (t, 1)->used_after, ==, KB (4001));
    g_assert_cmpuint (tm_trace_gc (t, 2)->kind, ==, TM_GC_KIND_MAJOR);
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 2), "CMS")->used_before, ==, KB (83511));
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 2), "CMS")->used_after, ==, KB (54817));
    g_assert_cmpuint (tm_trace_gc (t, 2)->used_after, ==, KB (54817));
    g_assert_cmpuint (tm_trace_gc (t, 2)->pause_ns, ==, 35636400);
    g_assert_cmpuint (tm_trace_gc (t, 3)->kind, ==, TM_GC_KIND_MAJOR);
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 3), "CMS")->used_before, ==, KB (58661));
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 3), "CMS")->used_after, ==, KB (14131));
    g_assert_cmpuint (tm_trace_gc (t, 3)->committed_after, ==, KB (138624));
  }
  {
    /* ASCMS: initial mark (GC 2) and remark (GC 8) are CMS pauses */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-cms-SampleSun1_6_0CMSAdaptiveSizePolicy.txt");
    g_assert_cmpuint (tm_trace_gc (t, 2)->kind, ==, TM_GC_KIND_CONCURRENT);
    g_assert_cmpuint (tm_trace_gc (t, 2)->pause_ns, ==, 332600);
    g_assert_cmpuint (tm_trace_gc (t, 2)->used_after, ==, KB (74053));
    g_assert_cmpuint (tm_trace_gc (t, 8)->kind, ==, TM_GC_KIND_CONCURRENT);
    g_assert_cmpuint (tm_trace_gc (t, 8)->pause_ns, ==, 1126100);
    g_assert_cmpuint (tm_trace_gc (t, 12)->kind, ==, TM_GC_KIND_MAJOR);
    g_assert_cmpuint (tm_trace_gc (t, 12)->used_after, ==, KB (31292));
    g_assert_cmpuint (usage_of (t, tm_trace_gc (t, 1), "ParNew")->used_after, ==, KB (6524));
    g_assert_cmpuint (g_ascii_strtoull (g_hash_table_lookup (t->meta, "gclog.concurrent_phases"), NULL, 10), ==, 7);
  }
  {
    /* the gzip file opens like the plain text */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-serial-SampleSun1_6_0PrintHeapAtGC.txt.gz");
    g_assert_cmpuint (tm_trace_gc (t, 2)->used_before, ==, KB (33448));
    g_assert_cmpuint (tm_trace_gc (t, 2)->used_after, ==, KB (33071));
  }
  {
    /* a shutdown tail only: no GC, not an error, and a note that says so */
    g_autoptr(TmTrace) t = gclog_test_load ("legacy-shenandoah-SampleOpenJdk1_8_0ShenandoahDetailsShutdown.txt");
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, 0);
    g_assert_true (t->complete);
    g_assert_cmpuint (t->warnings->len, ==, 0);
    g_assert_nonnull (strstr (g_hash_table_lookup (t->meta, "note"), "no GC events"));
  }
}

static char *
write_temp (const char *contents, gssize len)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("tm-gclog-XXXXXX.log", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_malformed (void)
{
  static const char ujl[] =
    "[0.010s][info][gc] Using Serial\n"
    "[0.100s][info][gc] GC(0) Pause Young (Allocation Failure) 17M->1M(61M) 1.601ms\n"
    "[0.1xs][info][gc] GC(1) Pause Young (Allocation Failure) 18M->2M(61M) 1.000ms\n"
    "[0.200s][info][gc] GC(x) Pause Young\n"
    "[0.300s][info][gc] GC(2) Pause Young (Allocation Failure) 18M->2M(61M)\n"
    "\x01\x02 binary garbage \xff\xfe\n"
    "[0.400s][info][gc] GC(3) Pause Full (Ergonomics) 60M->20M(61M) 10.000ms\n"
    "Hello from the program (its output mixed into -Xlog:gc:stdout)\n";
  static const char legacy[] =
    "0.100: [GC (Allocation Failure) [PSYoungGen: 1536K->496K(2048K)] 1536K->512K(7680K), 0.0012345 secs]\n"
    "0.200: [GC (Allocation Failure) [PSYoungGen: 1536K->496K(2048K)] 1536K->512K(7680K)]\n"
    "0.250: [Garbage record, 0.1 secs]\n"
    "0.260: Total time for which application threads were stopped: 0.0001 seconds\n"
    "0.300: [Full GC (Ergonomics) [PSYoungGen: 496K->0K(2048K)] [ParOldGen: 4264K->4527K(5632K)] 4760K->4527K(7680K), 0.0234000 secs]\n"
    "0.400: [GC (Allocation Failure) 0.400: [DefNew\n"
    "Desired survivor size 1114112 bytes, new threshold 1 (max 15)\n"
    "- age   1:    2228168 bytes,    2228168 total\n"
    ": 17472K->2176K(19648K), 0.0234000 secs] 17472K->3000K(63360K), 0.0235000 secs] [Times: user=0.02 sys=0.00, real=0.02 secs]\n";
  g_autofree char *p1 = write_temp (ujl, sizeof ujl - 1);
  g_autofree char *p2 = write_temp (legacy, sizeof legacy - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t1 = tm_gclog_import (p1, NULL, NULL, NULL, &error);
  g_autoptr(TmTrace) t2 = NULL;
  gboolean line3 = FALSE, line4 = FALSE, line5 = FALSE, line6 = FALSE;

  g_assert_no_error (error);
  /* GC(1) has a broken time stamp: it keeps the previous line's time */
  g_assert_cmpuint (tm_trace_n_gcs (t1), ==, 3);
  g_assert_false (t1->complete);
  g_assert_false (t1->stopped);   /* read to the end: damaged lines skipped */
  for (guint i = 0; i < t1->warnings->len; i++)
    {
      const char *m = g_array_index (t1->warnings, TmWarning, i).message;
      g_assert_true (g_str_has_prefix (m, p1));
      line3 |= strstr (m, "line 3:") != NULL;
      line4 |= strstr (m, "line 4:") != NULL;
      line5 |= strstr (m, "line 5:") != NULL;
      /* undecorated lines: one warning for all of them */
      if (strstr (m, "line 6:") != NULL)
        {
          /* the binary line; the program's output is no problem */
          g_assert_nonnull (strstr (m, " 1 lines are not unified logging"));
          line6 = TRUE;
        }
    }
  g_assert_true (line3 && line4 && line5 && line6);
  g_assert_cmpstr (g_hash_table_lookup (t1->meta, "gclog.program_output_lines"), ==, "1");
  g_assert_cmpuint (tm_trace_gc (t1, 3)->kind, ==, TM_GC_KIND_MAJOR);

  t2 = tm_gclog_import (p2, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* a young record with -XX:+PrintTenuringDistribution lines inside */
  g_assert_cmpuint (tm_trace_n_gcs (t2), ==, 3);
  g_assert_cmpuint (tm_trace_gc (t2, 3)->pause_ns, ==, 23500000);
  g_assert_cmpuint (tm_trace_gc (t2, 3)->used_after, ==, KB (3000));
  g_assert_cmpuint (t2->warnings->len, ==, 2);
  g_assert_nonnull (strstr (g_array_index (t2->warnings, TmWarning, 0).message, "line 2:"));
  g_assert_nonnull (strstr (g_array_index (t2->warnings, TmWarning, 1).message, "line 3:"));
  g_assert_cmpuint (tm_trace_gc (t2, 2)->pause_ns, ==, 23400000);
  g_unlink (p1);
  g_unlink (p2);
}

/* Every prefix of a log imports without crashing, with no more GCs than
 * the whole file. */
static void
test_cut (void)
{
  static const char *const files[] = { "legacy-cms-SampleSun1_6_0CMS.txt", "ujl-g1-gc-all_safepoint_os-cpu.txt",
                                       "legacy-g1-SampleSun1_8_0G1PrintGCID.txt", "ujl-zgc-gc-other.txt" };
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = gclog_test_path (files[f]);
      g_autofree char *contents = NULL;
      gsize len;
      g_autoptr(TmTrace) whole = gclog_test_load (files[f]);

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      for (gsize cut = 1; cut < len; cut += 97)
        {
          g_autofree char *tmp = write_temp (contents, (gssize) cut);
          g_autoptr(GError) error = NULL;
          g_autoptr(TmTrace) t = tm_gclog_import (tmp, NULL, NULL, NULL, &error);
          if (t == NULL)
            g_assert_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE);
          else
            g_assert_cmpuint (tm_trace_n_gcs (t), <=, tm_trace_n_gcs (whole));
          g_unlink (tmp);
        }
    }
}

/* A JDK 8 log of a run too short for any GC: an empty timeline. */
/* A log that ends during a GC (the JVM killed, or the rest in the next
 * rotated part): the GC is not counted, but said.  Two JVM runs' logs
 * appended: the second run's times follow the first's end. */
static void
test_unfinished_and_appended (void)
{
  g_autofree char *path = gclog_test_path ("jdk17-serial.log");
  g_autofree char *contents = NULL;
  gsize len = 0;
  const char *cut;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  /* up to GC(5)'s heap lines: its start line, not its pause line */
  cut = strstr (contents, "[0.370s][info][gc,metaspace] GC(5)");
  g_assert_nonnull (cut);
  {
    g_autoptr(TmTrace) t = import_text (contents, (gsize) (cut - contents), "cut-mid-gc.log");
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, 5);
    g_assert_cmpuint (t->warnings->len, ==, 0);
    g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.unfinished"), ==, "GC(5) Pause Young at 0.366 s");
    g_assert_nonnull (strstr (g_hash_table_lookup (t->meta, "note"), "ends during GC(5)"));
  }
  {
    g_autoptr(TmTrace) t = gclog_test_load ("local-jdk17-serial-gc-two-runs.log");
    const char *m = g_array_index (t->warnings, TmWarning, 0).message;
    g_assert_nonnull (strstr (m, "line 7: the uptime goes back from 0.274 s to 0.004 s"));
    /* the first run ends at 0.274 s; the second's GC(0) at 0.330 s */
    g_assert_cmpuint (tm_trace_gc (t, 5)->end_ns, ==, 274000000);
    g_assert_cmpuint (tm_trace_gc (t, 6)->end_ns, ==, 274000000 + 330000000);
    g_assert_cmpuint (tm_trace_gc (t, 6)->pause_ns, ==, 2271000);
    g_assert_cmpuint (tm_trace_gc (t, 13)->end_ns, ==, 274000000 + 397000000);
  }
  {
    /* a JDK 8 log appended to itself: the second banner starts a run */
    g_autofree char *one = gclog_test_path ("legacy-parallel-SampleSun1_8_0ParallelPrintGCID.txt");
    g_autofree char *text = NULL;
    gsize n = 0;
    g_assert_true (g_file_get_contents (one, &text, &n, NULL));
    {
      g_autofree char *twice = g_strconcat (text, text, NULL);
      g_autoptr(TmTrace) t = import_text (twice, 2 * n, "twice.log");
      const TmGc *last1 = tm_trace_gc (t, 5), *first2 = tm_trace_gc (t, 6);
      g_assert_cmpuint (tm_trace_n_gcs (t), ==, 10);
      g_assert_cmpuint (t->warnings->len, ==, 1);
      g_assert_nonnull (strstr (g_array_index (t->warnings, TmWarning, 0).message, "line 21: the uptime goes back"));
      /* the second run's GC #0 (3.117 s) after the end of the first
       * run's last GC (97.301 s + 0.4555626 s) */
      g_assert_cmpuint (last1->end_ns, ==, G_GUINT64_CONSTANT (97301000000) + 455562600);
      g_assert_cmpuint (first2->start_ns, ==, last1->end_ns + G_GUINT64_CONSTANT (3117000000));
    }
  }
}

/* A log saved as UTF-16 with a byte order mark (PowerShell's "java ...
 * > gc.log"): read as its UTF-8 text, through the file loader too. */
static void
test_utf16 (void)
{
  g_autofree char *path = gclog_test_path ("local-jdk17-serial-gc-two-runs.log");
  g_autofree char *text = NULL, *u16 = NULL, *with_bom = NULL, *tmp = NULL;
  gsize n = 0, n16 = 0;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) whole = gclog_test_load ("local-jdk17-serial-gc-two-runs.log");

  g_assert_true (g_file_get_contents (path, &text, &n, NULL));
  u16 = g_convert (text, (gssize) n, "UTF-16LE", "UTF-8", NULL, &n16, &error);
  g_assert_no_error (error);
  with_bom = g_malloc (n16 + 2);
  with_bom[0] = (char) 0xff;
  with_bom[1] = (char) 0xfe;
  memcpy (with_bom + 2, u16, n16);
  /* an odd length within the buffer: a cut last character */
  g_assert_true (tm_gclog_sniff ((const guint8 *) with_bom, MIN (4095, n16 + 1)));
  tmp = write_temp (with_bom, (gssize) n16 + 2);
  {
    g_autoptr(TmTrace) t = tm_trace_load (tmp, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (t->format, ==, "gc-log");
    g_assert_cmpuint (tm_trace_n_gcs (t), ==, tm_trace_n_gcs (whole));
    g_assert_cmpuint (tm_trace_gc (t, 13)->end_ns, ==, tm_trace_gc (whole, 13)->end_ns);
    g_assert_cmpuint (tm_trace_gc (t, 13)->pause_ns, ==, tm_trace_gc (whole, 13)->pause_ns);
    g_assert_nonnull (g_hash_table_lookup (t->meta, "gclog.encoding"));
    /* the appended run is reported as in the UTF-8 file, same line */
    g_assert_cmpuint (t->warnings->len, ==, 1);
    g_assert_nonnull (strstr (g_array_index (t->warnings, TmWarning, 0).message, "line 7:"));
  }
  g_unlink (tmp);
}

static void
test_no_gc (void)
{
  static const char log[] =
    "OpenJDK 64-Bit Server VM (25.342-b07) for linux-amd64 JRE (1.8.0_342-b07), built on Jul 16 2022\n"
    "Memory: 4k page, physical 2097152k(2094644k free), swap 3145728k(3145728k free)\n"
    "CommandLine flags: -XX:MaxHeapSize=536870912 -XX:+PrintGC -XX:+PrintGCDetails -XX:+UseParallelGC\n"
    "Heap\n"
    " PSYoungGen      total 9216K, used 1234K [0x00000000f5580000, 0x00000000f5f80000, 0x0000000100000000)\n";
  g_autofree char *path = write_temp (log, sizeof log - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  g_assert_true (tm_gclog_sniff ((const guint8 *) log, sizeof log - 1));
  t = tm_gclog_import (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 0);
  g_assert_cmpstr (t->vm_version, ==, "25.342-b07");
  g_assert_true (t->complete);
  g_unlink (path);
  {
    /* Oracle's banner has "(TM)" before the version (GCViewer's
     * SampleSun1_8_0RollingLogfile.txt, a rotated part with no GC) */
    static const char oracle[] =
      "2016-04-14 22:37:22 GC log file created logs/garbageCollection.log.1\n"
      "Java HotSpot(TM) 64-Bit Server VM (25.45-b02) for windows-amd64 JRE (1.8.0_45-b15), built on Apr 30 2015 "
      "12:40:44 by \"java_re\" with MS VC++ 10.0 (VS2010)\n"
      "CommandLine flags: -XX:MaxHeapSize=838860800 -XX:+PrintGC -XX:+PrintGCDetails -XX:+UseConcMarkSweepGC\n";
    g_autoptr(TmTrace) t2 = import_text (oracle, sizeof oracle - 1, "oracle.log");
    g_assert_cmpuint (tm_trace_n_gcs (t2), ==, 0);
    g_assert_cmpstr (t2->vm_version, ==, "25.45-b02");
  }
}

/* A log whose tail is NUL bytes or garbage (a crash while it was being
 * written): recognised from the text before the damage, read up to it,
 * and the message says where reading stopped. */
static void
test_damaged_tail (void)
{
  static const char *const files[] = { "legacy-cms-SampleSun1_8_0CmsPrintGcId.txt", "ujl-g1-gc-all_safepoint_os-cpu.txt" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    for (guint garbage = 0; garbage < 2; garbage++)
      {
        g_autofree char *path = gclog_test_path (files[f]);
        g_autofree char *contents = NULL;
        g_autoptr(TmTrace) whole = gclog_test_load (files[f]);
        g_autoptr(GByteArray) damaged = g_byte_array_new ();
        g_autoptr(GError) error = NULL;
        g_autoptr(TmTrace) t = NULL;
        g_autofree char *tmp = NULL;
        g_autofree char *where = NULL;
        GRand *rand = g_rand_new_with_seed (7 + f);
        gsize len, cut;
        const char *nl;
        guint64 line_start;
        gboolean named = FALSE;

        g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
        /* cut in the middle of a line two thirds in, then 64 KiB of damage */
        cut = len * 2 / 3;
        g_byte_array_append (damaged, (const guint8 *) contents, cut);
        for (guint i = 0; i < 65536; i++)
          {
            guint8 b = garbage ? (guint8) g_rand_int_range (rand, 0, 256) : 0;
            g_byte_array_append (damaged, &b, 1);
          }
        g_rand_free (rand);
        nl = g_strrstr_len (contents, cut, "\n");
        line_start = nl ? (guint64) (nl - contents) + 1 : 0;

        /* the sniffer decides on the readable text (all of it is in its 132 KiB) */
        g_assert_true (tm_gclog_sniff (damaged->data, damaged->len));
        tmp = write_temp ((const char *) damaged->data, damaged->len);
        t = tm_gclog_import (tmp, NULL, NULL, NULL, &error);
        g_assert_no_error (error);
        g_assert_false (t->complete);
        g_assert_true (t->stopped);
        g_assert_cmpuint (t->stop_offset, ==, line_start);
        g_assert_cmpuint (tm_trace_n_gcs (t), >, 0);
        g_assert_cmpuint (tm_trace_n_gcs (t), <, tm_trace_n_gcs (whole));
        where = g_strdup_printf ("from byte offset %" G_GUINT64_FORMAT ", is not text", line_start);
        for (guint i = 0; i < t->warnings->len; i++)
          named |= strstr (g_array_index (t->warnings, TmWarning, i).message, where) != NULL;
        g_assert_true (named);
        /* the GCs before the damage are those of the whole file */
        for (guint i = 1; i <= tm_trace_n_gcs (t); i++)
          g_assert_cmpuint (tm_trace_gc (t, i)->pause_ns, ==, tm_trace_gc (whole, i)->pause_ns);
        g_unlink (tmp);
      }
}

/* The importer reads from memory and through gzip alike. */
static void
test_bytes (void)
{
  static const char *const files[] = { "legacy-serial-SampleSun1_6_0PrintHeapAtGC.txt.gz", "ujl-zgc-gc-other.txt" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = gclog_test_path (files[f]);
      g_autofree char *contents = NULL;
      gsize len;
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTrace) whole = gclog_test_load (files[f]);
      g_autoptr(TmTrace) t = NULL;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      t = tm_gclog_import_bytes ((const guint8 *) contents, len, "mem", &error);
      g_assert_no_error (error);
      g_assert_true (t->complete);
      g_assert_cmpuint (tm_trace_n_gcs (t), ==, tm_trace_n_gcs (whole));
      g_assert_cmpuint (tm_trace_gc (t, 1)->used_after, ==, tm_trace_gc (whole, 1)->used_after);
    }
  {
    /* a gzip file cut short keeps what decoded and says so */
    g_autofree char *path = gclog_test_path ("legacy-serial-SampleSun1_6_0PrintHeapAtGC.txt.gz");
    g_autofree char *contents = NULL;
    gsize len;
    g_autoptr(GError) error = NULL;
    g_autoptr(TmTrace) t = NULL;

    g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
    t = tm_gclog_import_bytes ((const guint8 *) contents, len - 20, "cut.gz", &error);
    if (t != NULL)
      {
        g_assert_false (t->complete);
        g_assert_true (t->stopped);
      }
    else
      g_assert_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE);
  }
  {
    g_autoptr(GError) error = NULL;
    g_assert_null (tm_gclog_import_bytes ((const guint8 *) "", 0, "empty", &error));
    g_assert_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE);
  }
}

/* Rotated logs: the parts, given in any order and one of them gzip,
 * read as one timeline equal to the whole log; parts that overlap are
 * reported; a part that is not a GC log is refused. */
static void
test_series (void)
{
  static const char *const files[] = { "jdk17-g1.log", "legacy-cms-SampleSun1_6_0CMS.txt" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = gclog_test_path (files[f]);
      g_autofree char *contents = NULL;
      g_autoptr(TmTrace) whole = gclog_test_load (files[f]);
      g_autoptr(TmTrace) t = NULL;
      g_autoptr(TmTrace) twice = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *p0 = NULL, *p1 = NULL, *p2 = NULL;
      g_autofree guint8 *gz = NULL;
      gsize len, cut1, cut2, gz_len = 0, read = 0;
      const char *paths[3];
      gboolean overlap = FALSE;
      g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      /* cut at line ends a third and two thirds in (inside a GC's lines) */
      cut1 = (gsize) (strchr (contents + len / 3, '\n') - contents) + 1;
      cut2 = (gsize) (strchr (contents + 2 * len / 3, '\n') - contents) + 1;
      p0 = write_temp (contents, (gssize) cut1);
      p2 = write_temp (contents + cut2, (gssize) (len - cut2));
      gz = g_malloc (len + 1024);
      g_assert_cmpint (g_converter_convert (G_CONVERTER (z), contents + cut1, cut2 - cut1, gz, len + 1024,
                                            G_CONVERTER_INPUT_AT_END, &read, &gz_len, NULL), ==, G_CONVERTER_FINISHED);
      p1 = write_temp ((const char *) gz, (gssize) gz_len);

      paths[0] = p2;   /* out of order on purpose */
      paths[1] = p0;
      paths[2] = p1;
      t = tm_trace_load_files (paths, 3, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (t->complete);
      g_assert_cmpstr (t->path, ==, p0);
      g_assert_cmpuint (tm_trace_n_gcs (t), ==, tm_trace_n_gcs (whole));
      for (guint i = 1; i <= tm_trace_n_gcs (t); i++)
        {
          g_assert_cmpuint (tm_trace_gc (t, i)->start_ns, ==, tm_trace_gc (whole, i)->start_ns);
          g_assert_cmpuint (tm_trace_gc (t, i)->pause_ns, ==, tm_trace_gc (whole, i)->pause_ns);
          g_assert_cmpuint (tm_trace_gc (t, i)->used_after, ==, tm_trace_gc (whole, i)->used_after);
          g_assert_cmpuint (tm_trace_gc (t, i)->kind, ==, tm_trace_gc (whole, i)->kind);
        }
      {
        g_autofree char *order = g_strdup_printf ("%s\n%s\n%s", p0, p1, p2);
        g_assert_cmpstr (g_hash_table_lookup (t->meta, "gclog.files"), ==, order);
      }

      /* the same part twice: overlap, said with both names */
      paths[0] = p0;
      paths[1] = p0;
      twice = tm_trace_load_files (paths, 2, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_false (twice->complete);
      for (guint i = 0; i < twice->warnings->len; i++)
        {
          const char *m = g_array_index (twice->warnings, TmWarning, i).message;
          overlap |= strstr (m, "overlap") != NULL;
          /* merged in time order: not taken for an appended run */
          g_assert_null (strstr (m, "uptime goes back"));
        }
      g_assert_true (overlap);
      {
        /* ... so the GCs end when they end in the part alone */
        g_autoptr(TmTrace) once = tm_trace_load_files (paths, 1, NULL, NULL, NULL, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (tm_trace_gc (twice, tm_trace_n_gcs (twice))->end_ns, ==,
                          tm_trace_gc (once, tm_trace_n_gcs (once))->end_ns);
      }
      if (f == 1)
        {
          /* a freshly rotated part holds only the JVM's header, with no
           * time stamp to place it by: it goes last, and the others are
           * still put in time order */
          static const char header[] = "Java HotSpot(TM) 64-Bit Server VM (25.45-b02) for linux-amd64 JRE (1.8.0_45-b15)\n"
                                       "Memory: 4k page, physical 16664956k(9157704k free)\n"
                                       "CommandLine flags: -XX:+PrintGC -XX:+PrintGCDetails -XX:+UseConcMarkSweepGC\n";
          g_autofree char *hdr = write_temp (header, -1);
          const char *four[4] = { hdr, p2, p0, p1 };
          g_autofree char *order = g_strdup_printf ("%s\n%s\n%s\n%s", p0, p1, p2, hdr);
          g_autoptr(TmTrace) rotated = tm_trace_load_files (four, 4, NULL, NULL, NULL, NULL, &error);

          g_assert_no_error (error);
          g_assert_true (rotated->complete);
          g_assert_cmpuint (rotated->warnings->len, ==, 0);
          g_assert_cmpuint (tm_trace_n_gcs (rotated), ==, tm_trace_n_gcs (whole));
          g_assert_cmpstr (g_hash_table_lookup (rotated->meta, "gclog.files"), ==, order);
          g_unlink (hdr);
        }
      g_unlink (p0);
      g_unlink (p1);
      g_unlink (p2);
    }
  {
    /* only GC logs go together */
    g_autofree char *log = gclog_test_path ("jdk17-serial.log");
    g_autofree char *other = g_test_build_filename (G_TEST_DIST, "data", "heaptrack", "leaker.gz", NULL);
    const char *paths[2] = { log, other };
    g_autoptr(GError) error = NULL;
    g_assert_null (tm_trace_load_files (paths, 2, NULL, NULL, NULL, NULL, &error));
    g_assert_error (error, TM_ERROR, TM_ERROR_FORMAT);
    g_assert_nonnull (strstr (error->message, "leaker.gz"));
  }
}

static void
test_sniff (void)
{
  static const char heaptrack[] = "v 10400 3\nX ./leak\n";
  static const char text[] = "hello\n[not a log]\n";
  static const char json[] = "{\"gcs\": []}\n";

  g_assert_false (tm_gclog_sniff ((const guint8 *) heaptrack, sizeof heaptrack - 1));
  g_assert_false (tm_gclog_sniff ((const guint8 *) text, sizeof text - 1));
  g_assert_false (tm_gclog_sniff ((const guint8 *) json, sizeof json - 1));
  g_assert_false (tm_gclog_sniff ((const guint8 *) "TMTRACE1\x01\x02", 10));
  g_assert_false (tm_gclog_sniff ((const guint8 *) "", 0));
}

static void
on_progress (double fraction, gpointer data)
{
  GCancellable *c = data;
  g_assert_cmpfloat (fraction, >=, 0.0);
  g_assert_cmpfloat (fraction, <=, 1.0);
  g_cancellable_cancel (c);
}

static void
test_cancel (void)
{
  g_autofree char *path = gclog_test_path ("legacy-g1-SampleSun1_6_0G1_gc_verbose.txt");
  g_autoptr(GCancellable) c = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  TmTrace *t;

  /* the first progress report cancels; the next check must stop */
  t = tm_gclog_import (path, on_progress, c, c, &error);
  g_assert_null (t);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *name = g_strdup_printf ("/gclog/corpus/%s", corpus[i].file);
      g_test_add_data_func (name, &corpus[i], test_corpus);
    }
  g_test_add_func ("/gclog/heap-values", test_heap_values);
  g_test_add_func ("/gclog/added-later", test_added_later);
  g_test_add_func ("/gclog/generational-zgc", test_generational_zgc);
  g_test_add_func ("/gclog/age-tables", test_age_tables);
  g_test_add_func ("/gclog/jdk-shapes", test_jdk_shapes);
  g_test_add_func ("/gclog/continuation", test_continuation);
  g_test_add_func ("/gclog/interleaved-g1-details", test_interleaved_g1_details);
  g_test_add_func ("/gclog/stamped-g1-details", test_stamped_g1_details);
  g_test_add_func ("/gclog/zgc11-debug", test_zgc11_debug);
  g_test_add_func ("/gclog/malformed", test_malformed);
  g_test_add_func ("/gclog/cut", test_cut);
  g_test_add_func ("/gclog/sniff", test_sniff);
  g_test_add_func ("/gclog/no-gc", test_no_gc);
  g_test_add_func ("/gclog/utf16", test_utf16);
  g_test_add_func ("/gclog/unfinished-and-appended", test_unfinished_and_appended);
  g_test_add_func ("/gclog/damaged-tail", test_damaged_tail);
  g_test_add_func ("/gclog/bytes", test_bytes);
  g_test_add_func ("/gclog/series", test_series);
  g_test_add_func ("/gclog/cancel", test_cancel);
  return g_test_run ();
}
