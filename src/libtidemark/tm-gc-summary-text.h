/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GC summary (docs/gc-summary.md) as named, translated rows:
 * throughput, pause percentiles overall and per kind, full GCs, rates,
 * footprint and the occupancy after full GCs. */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef void (*TmGcSummaryRowFunc) (gpointer data, const char *name, const char *value);

/* Calls `add` once per row for GCs first..last; returns FALSE (and adds
 * nothing) if the range is empty. */
gboolean tm_gc_summary_describe (const TmTrace *trace, guint first_gc, guint last_gc,
                                 TmGcSummaryRowFunc add, gpointer data);

G_END_DECLS
