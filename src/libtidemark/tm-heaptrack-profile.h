/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * heaptrack's own figures of a heaptrack data file: the summary
 * heaptrack_print and heaptrack_gui show (run time, calls to allocation
 * functions, temporary allocations, peak heap and when, peak RSS, leaked
 * with suppressed leaks apart), the allocation costs per call stack as a
 * TmCallProfile, and the allocation-size histogram.  One streaming pass
 * over the file; the numbers follow AccumulatedTraceData::read exactly.
 */
#pragma once

#include <gio/gio.h>

#include "tm-calltree.h"
#include "tm-trace-loader.h"

G_BEGIN_DECLS

typedef struct {
  const char *command_line;
  guint64  total_time_ms;      /* last time stamp + 1, as heaptrack counts it */
  guint64  allocations;        /* calls to allocation functions */
  guint64  temporary;          /* allocations freed right away */
  guint64  allocated_bytes;    /* bytes allocated in total */
  guint64  peak_bytes;         /* peak heap memory consumption */
  guint64  peak_time_ms;       /* when it was first reached */
  guint64  peak_rss_bytes;     /* including heaptrack's overhead */
  guint64  leaked_bytes;       /* not freed, without suppressed leaks */
  guint64  suppressed_bytes;   /* leaks matched by a suppression */
  guint64  total_memory_bytes; /* of the machine, 0 unknown */
  gboolean attached;           /* heaptrack attached to a running process */
  gboolean complete;           /* the whole file was read */
} TmHeaptrackSummary;

/* heaptrack_gui's size histogram: 0-8 B, 9-16 B, ... 513 B-1 KiB, more. */
#define TM_SIZE_HISTOGRAM_BUCKETS 9

typedef struct {
  guint64 max_size;            /* G_MAXUINT64 for the last bucket */
  guint64 allocations;
  guint64 bytes;
} TmSizeBucket;

typedef struct _TmHeaptrackProfile TmHeaptrackProfile;

/* Fails only when nothing can be read (not a heaptrack file, unsupported
 * version, cancelled); damage part-way keeps what came before it, with
 * summary->complete FALSE and a warning naming the offset. */
TmHeaptrackProfile       *tm_heaptrack_profile_read     (const char     *path,
                                                         TmProgressFunc  progress,
                                                         gpointer        progress_data,
                                                         GCancellable   *cancellable,
                                                         GError        **error);
/* Only what happened between the time stamps from_ms and to_ms (heaptrack's
 * time filter, as heaptrack_gui applies it to a selected range): the costs
 * of allocations in the range, "leaked" being what the range allocated and
 * did not free by its end, and "peak" the range's own peak. */
TmHeaptrackProfile       *tm_heaptrack_profile_read_range (const char     *path,
                                                           guint64         from_ms,
                                                           guint64         to_ms,
                                                           TmProgressFunc  progress,
                                                           gpointer        progress_data,
                                                           GCancellable   *cancellable,
                                                           GError        **error);
void                      tm_heaptrack_profile_free     (TmHeaptrackProfile *profile);
const TmHeaptrackSummary *tm_heaptrack_profile_summary  (const TmHeaptrackProfile *profile);
TmCallProfile            *tm_heaptrack_profile_calls    (const TmHeaptrackProfile *profile);
const TmSizeBucket       *tm_heaptrack_profile_sizes    (const TmHeaptrackProfile *profile);
/* Human-readable problems ("FILE: line N: what"), NULL-terminated. */
const char *const        *tm_heaptrack_profile_warnings (const TmHeaptrackProfile *profile);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHeaptrackProfile, tm_heaptrack_profile_free)

G_END_DECLS
