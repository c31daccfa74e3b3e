/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opening any supported input: detects the format from the content
 * (.tmtrace zstd or raw, HotSpot GC logs, heaptrack files) and builds the
 * TmTrace model.  Meant to run in a worker thread (GTask); progress is
 * reported from the bytes consumed and `cancellable` is checked often.
 *
 * Returns NULL with an error when the input cannot be used at all (missing,
 * unknown format, damaged header).  A trace damaged or cut short part-way
 * is returned with complete == FALSE and warnings naming the offset.
 */
#pragma once

#include "tm-trace.h"
#include "tm-load-options.h"

G_BEGIN_DECLS

/* fraction in [0,1]; called from the loading thread, often (callers
 * coalesce); may be NULL. */
typedef void (*TmProgressFunc) (double fraction, gpointer user_data);

TmTrace *tm_trace_load        (const char     *path,
                               TmProgressFunc  progress,
                               gpointer        progress_data,
                               GCancellable   *cancellable,
                               GError        **error);

/* The same under explicit options (NULL: the defaults, as above).  When
 * the model reaches options->memory_limit the trace comes back partial
 * (trace->memory_limited, a warning naming the limit). */
TmTrace *tm_trace_load_full   (const char          *path,
                               const TmLoadOptions *options,
                               TmProgressFunc       progress,
                               gpointer             progress_data,
                               GCancellable        *cancellable,
                               GError             **error);

/* Several files as one trace: the rotated parts of a GC log or the heap
 * dumps of one process (docs/importers.md), under `options` (may be NULL).
 * One path is the same as tm_trace_load_full. */
TmTrace *tm_trace_load_files  (const char *const   *paths,
                               guint                n_paths,
                               const TmLoadOptions *options,
                               TmProgressFunc       progress,
                               gpointer             progress_data,
                               GCancellable        *cancellable,
                               GError             **error);

/* Load a .tmtrace from memory (zstd or raw). */
TmTrace *tm_trace_load_bytes  (GBytes         *bytes,
                               const char     *name,
                               GCancellable   *cancellable,
                               GError        **error);
TmTrace *tm_trace_load_bytes_full (GBytes              *bytes,
                                   const char          *name,
                                   const TmLoadOptions *options,
                                   GCancellable        *cancellable,
                                   GError             **error);

/* Importer registry: each importer says whether it recognises the first
 * bytes of a file, and loads it.  Formats: "tmtrace", "gc-log",
 * "heaptrack". */
typedef gboolean (*TmSniffFunc)  (const guint8 *head, gsize len);
typedef TmTrace *(*TmImportFunc) (const char *path, const TmLoadOptions *options,
                                  TmProgressFunc progress, gpointer progress_data,
                                  GCancellable *cancellable, GError **error);

const char *tm_trace_detect_format (const char *path, GError **error);

G_END_DECLS
