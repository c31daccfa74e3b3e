/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Bytes allocated and freed between time points of a recording that sees
 * every free (heaptrack): exact, from the rows' deaths and the
 * short-lived counters, where the points' occupancy only shows the drop
 * from each interval's peak.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

/* Whether the trace's deaths are frees seen where they happen. */
gboolean tm_trace_sees_frees (const TmTrace *trace);

/* For each GC index i (trace->gcs->len entries): the bytes freed and
 * allocated in the interval that GC i + 1 closes.  O(object rows +
 * short-lived counters). */
void     tm_native_bytes_per_interval (const TmTrace *trace,
                                       guint64       *freed,
                                       guint64       *allocated);

G_END_DECLS
