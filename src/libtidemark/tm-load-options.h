/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a load may use the machine: the memory budget of the model.
 *
 * A hostile or damaged file can describe far more objects than it takes
 * bytes (zstd turns 75 KB into 100 M records), so every load runs under a
 * budget.  When the model would grow past it, loading stops at the last
 * complete GC and the trace opens as partial, with a warning naming the
 * limit and how to raise it.  The default is half of the physical memory
 * (or of the cgroup's memory limit when that is lower): a trace that big
 * would leave no room for its analyses anyway.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TmTimelineModel TmTimelineModel;

/* The charts of what is read so far (tm_timeline_model_new_prefix),
 * called on the loading thread; take a reference to keep it. */
typedef void (*TmPartialTimelineFunc) (TmTimelineModel *partial, gpointer user_data);

typedef struct {
  guint64 memory_limit;   /* bytes the model may take; 0 = tm_memory_limit_default () */
  /* Streaming: while a trace loads, the timeline of its settled GCs (a
   * prefix, each snapshot extending the last) a few times a second, the
   * first as soon as one GC is settled.  NULL: none.  Sources that build
   * GC by GC (.tmtrace, heaptrack) honour it. */
  TmPartialTimelineFunc partial_timeline;
  gpointer              partial_data;
} TmLoadOptions;

/* Half of the physical memory, or of the cgroup's limit if lower. */
guint64  tm_memory_limit_default (void);

/* The limit a load with these options runs under (options may be NULL). */
guint64  tm_load_options_memory_limit (const TmLoadOptions *options);

/* Parses "256M", "2G", "1.5G", "512K", "4096" (bytes), "2GiB", "300MB":
 * K/M/G/T are powers of 1024.  At least 1 MiB.  On failure sets an error
 * naming the text. */
gboolean tm_parse_size (const char *text, guint64 *bytes, GError **error);

G_END_DECLS
