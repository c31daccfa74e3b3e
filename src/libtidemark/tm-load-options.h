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

typedef struct {
  guint64 memory_limit;   /* bytes the model may take; 0 = tm_memory_limit_default () */
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
