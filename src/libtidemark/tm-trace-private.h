/* SPDX-License-Identifier: GPL-3.0-or-later
 * Internals shared by the model, its builder and the graph reader. */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

TmTrace *tm_trace_new (const char *path, const char *format);

/* Fast id -> index for ascending ids, starting the search at *hint
 * (deaths and REFS come in ascending id order). */
gboolean tm_trace_object_index_for_id_hint (const TmTrace *trace, guint64 id,
                                            guint64 *hint, guint64 *index);

G_END_DECLS
