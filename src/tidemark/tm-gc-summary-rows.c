/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC summary rows of the Selection page (worded by tm-gc-summary-text.c). */
#include "tm-config.h"

#include "tm-gc-summary-rows.h"
#include "tm-gc-summary-text.h"

typedef struct {
  GtkGrid          *grid;
  int              *row;
  TmSummaryRowFunc  add;
} Rows;

static void
add_row (gpointer data, const char *name, const char *value)
{
  Rows *r = data;

  r->add (r->grid, (*r->row)++, name, value);
}

gboolean
tm_gc_summary_rows (GtkGrid *grid, int *row, TmSummaryRowFunc add,
                    const TmTrace *trace, guint first_gc, guint last_gc)
{
  Rows r = { grid, row, add };

  return tm_gc_summary_describe (trace, first_gc, last_gc, add_row, &r);
}
