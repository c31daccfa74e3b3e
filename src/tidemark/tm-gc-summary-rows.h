/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GC summary (docs/gc-summary.md) as rows of the Selection page:
 * throughput, pause percentiles overall and per kind, full GCs, rates,
 * footprint and the occupancy after full GCs. */
#pragma once

#include <gtk/gtk.h>
#include "tm-trace.h"

G_BEGIN_DECLS

typedef void (*TmSummaryRowFunc) (GtkGrid *grid, int row, const char *name, const char *value);

/* Adds the rows for GCs first..last from *row on; returns FALSE (and adds
 * nothing) if the range is empty. */
gboolean tm_gc_summary_rows (GtkGrid *grid, int *row, TmSummaryRowFunc add,
                             const TmTrace *trace, guint first_gc, guint last_gc);

G_END_DECLS
