/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmDsGrowthView: data structure growth over a selected window (ICPE
 * 2019): a bar chart of the top 10 structures by heap growth portion (the
 * metric chosen in the header, retained by default) and a tree table of
 * every compared structure with, per metric, the size before, after, the
 * growth and its HGP; expanding "Leaves by type" / "Leaves by allocation
 * site" classifies the structure's leaves at both ends and shows the
 * difference.  Clicking a bar selects its row.  Leak confidence (Xu &
 * Rountev, tm-containers.h): LC, MC and SC columns, the selected
 * container's sites by staleness under the table, and a second page with
 * the containers by allocation site.
 *
 * The analysis runs on a worker; a new window cancels the previous one.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-section.h"
#include "tm-text-table.h"

G_BEGIN_DECLS

#define TM_TYPE_DS_GROWTH_VIEW (tm_ds_growth_view_get_type ())
G_DECLARE_FINAL_TYPE (TmDsGrowthView, tm_ds_growth_view, TM, DS_GROWTH_VIEW, TmSection)

GtkWidget        *tm_ds_growth_view_new            (TmSession          *session);

/* Analyzes the window from_gc..to_gc of the session's document (both
 * GCs need a graph) with the document's descriptions. */
void              tm_ds_growth_view_set_window     (TmDsGrowthView     *self,
                                                    guint               from_gc,
                                                    guint               to_gc);

/* The current result, NULL while computing or after an error. */
const TmDsGrowth *tm_ds_growth_view_get_result     (TmDsGrowthView     *self);

/* Selects the row of entry `entry` (TmDsGrowth.entries), as a click on its
 * bar does; -1 clears.  The selected entry, -1 when none. */
void              tm_ds_growth_view_select_entry   (TmDsGrowthView     *self,
                                                    int                 entry);
int               tm_ds_growth_view_get_selected_entry (TmDsGrowthView *self);

/* The selected container's sites by staleness, NULL while hidden (no
 * structure selected, or one the leak confidence does not rank). */
TmTextTable      *tm_ds_growth_view_get_sites_table (TmDsGrowthView *self);
/* The ranked containers by allocation site (the second page), NULL until
 * the leak confidence is known. */
TmTextTable      *tm_ds_growth_view_get_containers_table (TmDsGrowthView *self);

/* The table as shown: rows of the expanded tree, columns structure,
 * before, after, growth, HGP, pattern, LC, MC, SC.  NULL past the end. */
guint             tm_ds_growth_view_get_n_rows     (TmDsGrowthView     *self);
char             *tm_ds_growth_view_dup_cell       (TmDsGrowthView     *self,
                                                    guint               row,
                                                    guint               column);
void              tm_ds_growth_view_set_expanded   (TmDsGrowthView     *self,
                                                    guint               row,
                                                    gboolean            expanded);

G_END_DECLS
