/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * heaptrack importer: data files of heaptrack 1.x (file format versions
 * 1 to 3, as written by heaptrack_interpret), zstd or gzip compressed or
 * plain.  Every allocation becomes an object with its call stack as the
 * site, every free its death, and heaptrack's time stamps become points
 * of the timeline (see docs/importers.md).
 */
#pragma once

#include "tm-trace-loader.h"

G_BEGIN_DECLS

gboolean tm_heaptrack_sniff  (const guint8 *head, gsize len);
TmTrace *tm_heaptrack_import (const char     *path,
                              TmProgressFunc  progress,
                              gpointer        progress_data,
                              GCancellable   *cancellable,
                              GError        **error);
/* The same under a memory budget (options may be NULL: the defaults). */
TmTrace *tm_heaptrack_import_full (const char          *path,
                                   const TmLoadOptions *options,
                                   TmProgressFunc       progress,
                                   gpointer             progress_data,
                                   GCancellable        *cancellable,
                                   GError             **error);

G_END_DECLS
