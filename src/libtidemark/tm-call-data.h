/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything the call-stack views show about one opened input (the
 * document computes it on a worker: tm_document_call_data_async()): the
 * call profile, the summary figures and the allocation-size histogram.  For heaptrack files they are heaptrack's own
 * (tm-heaptrack-profile.h, read again from the file); for traces they come
 * from the model (tm-calltree-trace.h): allocations, allocated bytes and
 * temporary objects from the objects, the peak from the timeline, no RSS.
 */
#pragma once

#include <gio/gio.h>

#include "tm-calltree.h"
#include "tm-heaptrack-profile.h"
#include "tm-trace.h"

G_BEGIN_DECLS

typedef struct {
  gint               ref_count;
  TmCallProfile     *calls;
  TmHeaptrackSummary summary;       /* command_line points into the trace or the profile */
  TmSizeBucket       sizes[TM_SIZE_HISTOGRAM_BUCKETS];
  gboolean           native;        /* heaptrack: bytes and calls of malloc & co */
  TmHeaptrackProfile *heaptrack;    /* NULL for traces */
  TmTrace            *trace;
  guint               from_gc, to_gc;   /* the window, 0: from the start / to the end */
} TmCallData;

/* A window of GCs or time points (0, 0: everything): for heaptrack files
 * heaptrack's time filter from the start of from_gc to the end of to_gc;
 * for traces tm_call_profile_from_trace_window(). */
TmCallData *tm_call_data_load        (TmTrace       *trace,
                                      guint          from_gc,
                                      guint          to_gc,
                                      GCancellable  *cancellable,
                                      GError       **error);
TmCallData *tm_call_data_ref         (TmCallData *data);
void        tm_call_data_unref       (TmCallData *data);

/* Sorts `sizes` (buckets as heaptrack's: 0-8 B, ..., more than 1 KiB) from
 * the trace's objects. */
void        tm_trace_size_histogram  (const TmTrace *trace, TmSizeBucket *sizes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmCallData, tm_call_data_unref)

G_END_DECLS
