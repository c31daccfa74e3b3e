/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Synthetic traces with a known truth, for tests, benchmarks and the
 * bundled sample.  Each scenario simulates a small Java program with
 * realistic types, sites and threads, a GC every ~100 ms of simulated time,
 * deaths recorded, and a reference graph every `graph_every` GCs and at the
 * last GC.  Deterministic for a given seed and scale.
 *
 * The planted truth (in GC ids, for scale 1 = 200 GCs; the phase bounds
 * are fractions of the GC count, so they scale):
 *   (all)        request garbage of 0.7 MiB per GC at scale 1 (mostly
 *                256 B - 8 KiB buffers), so the heap shows a GC sawtooth.
 *   steady       live set flat (+-3% noise), GC overhead ~2%, even churn:
 *                no suspicious window.
 *   leak         GCs 1..20%: warm-up (an initialization spike that is
 *                released); 20%..100%: a cache
 *                java.util.concurrent.ConcurrentHashMap (static root
 *                com.example.travel.JourneyCache.CACHE) grows by entries
 *                whose key class com.example.travel.JourneyKey lacks
 *                equals/hashCode: ConcurrentHashMap$Node -> JourneyKey,
 *                com.example.travel.Journey -> java.lang.String, byte[],
 *                allocated at com.example.travel.JourneyCache.lookup(...)
 *                on thread "http-worker-N".  Reachable memory rises
 *                monotonically from 20% to the end.
 *   churn        steady live set; GCs 40%..60%: ~10x the garbage volume
 *                of short-lived java.lang.StringBuilder/char[]/String at
 *                com.example.report.ReportRenderer.render(...): freed bytes
 *                per second spike there.
 *   gc-overhead  GCs 50%..70%: old generation near full, a major GC after
 *                every 30 ms of running, each pausing ~12 ms (~29% overhead);
 *                elsewhere ~2%.
 *   mixed        leak from 10% to the end, churn at 30%..40%, GC overhead
 *                at 60%..70%.
 *   plateau      a bounded LRU cache (java.util.LinkedHashMap of
 *                com.example.catalog.Price, put at
 *                com.example.catalog.PriceCache.put) fills from the start
 *                to 30% and then evicts one entry per put: reachable memory
 *                grows to 30% and stays flat (+-1%) to the end.  Warm-up,
 *                no leak.
 *   teardown     the leak scenario, but the last 2 GCs come after the main
 *                thread returned: the cache is released and both carry a
 *                graph, so reachable memory falls by over 90% at exit.  The
 *                leak ends at the last graph before them (GC n - 10).
 *   oom          the leak scenario under a heap that runs out: from 85% on
 *                full GCs every 30 ms pausing ~15 ms (~33% overhead); an
 *                OutOfMemoryError ("Java heap space") after GC n - 2; the
 *                last 2 GCs come after the main thread died (the cache is
 *                released) and their graphs are marked post-mortem.  The
 *                leak ends at the last graph before the error (GC n - 10).
 *   churn-burst  GCs 10%..90%: 10x the short-lived allocation, and so a GC
 *                10x as often (10 ms): the burst holds 80% of the GCs but
 *                only ~29% of the time.  Live set flat.
 *   backlog      a java.util.concurrent.LinkedBlockingQueue of
 *                com.example.jobs.Job: 100 jobs per GC (x scale) submitted
 *                by "batch-loader" and 100 taken, oldest first; from 20% on
 *                108 are submitted per 100 taken.  The queue grows to the end
 *                while every job is at most ~14 GCs old: a backlog, not a
 *                leak.
 */
#pragma once

#include "tm-trace-writer.h"

G_BEGIN_DECLS

typedef struct {
  const char *scenario;
  guint64     seed;          /* default 1 */
  double      scale;         /* 1.0 = 200 GCs, ~2e5 allocations; alloc count grows linearly with scale */
  guint       graph_every;   /* 0 = default (10); G_MAXUINT: graphs only at the end */
  guint       n_gcs;         /* 0 = 200 (independent of scale when set) */
} TmSynthOptions;

void                tm_synth_options_init (TmSynthOptions *options);
const char * const *tm_synth_scenarios    (void);
gboolean            tm_synth_write        (const TmSynthOptions *options,
                                           TmTraceWriter        *writer,
                                           GError              **error);
/* Convenience: writes a compressed .tmtrace file. */
gboolean            tm_synth_write_file   (const TmSynthOptions *options,
                                           const char           *path,
                                           GError              **error);

G_END_DECLS
