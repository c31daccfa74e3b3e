/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Call profiles of recorded traces (JVM recordings and anything else with
 * allocation sites): per site's call stack, as deep as it was recorded,
 *   allocations  objects allocated (estimates when sampled),
 *   allocated    their bytes,
 *   temporary    objects that died in the first GC after their birth,
 *   peak         bytes still live after the GC that kept the most,
 *   leaked       bytes of objects that never died.
 * heaptrack files have exact figures of their own (tm-heaptrack-profile.h).
 */
#pragma once

#include "tm-calltree.h"
#include "tm-trace.h"

G_BEGIN_DECLS

TmCallProfile *tm_call_profile_from_trace        (const TmTrace *trace);
/* A window of GCs (1-based, 0: from the start / to the end): the costs of
 * the objects allocated from GC from_gc to GC to_gc, "leaked" those still
 * alive after to_gc (which call stacks grew), "peak" every object live
 * after to_gc (the live bytes at that GC). */
TmCallProfile *tm_call_profile_from_trace_window (const TmTrace *trace,
                                                  guint32        from_gc,
                                                  guint32        to_gc);

G_END_DECLS
