/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmAllocationsView: the VM-level metrics of a window (Lengauer et al.,
 * SPLASH 2013; docs/vm-metrics.md), from the session's document: objects
 * and bytes allocated and freed per group with rates, lifetimes (age at
 * death, dying at the first GC, long-lived but dead), the short-lived
 * objects (dead by their first GC: churn), survival and
 * promotion per GC, floating garbage at graph GCs, and the transactions
 * that leave objects behind.  Sortable tables; computed on a worker.
 */
#pragma once

#include "tm-section.h"
#include "tm-text-table.h"

G_BEGIN_DECLS

#define TM_TYPE_ALLOCATIONS_VIEW (tm_allocations_view_get_type ())
G_DECLARE_FINAL_TYPE (TmAllocationsView, tm_allocations_view, TM, ALLOCATIONS_VIEW, TmSection)

typedef enum {
  TM_ALLOCATIONS_PAGE_ALLOCS,
  TM_ALLOCATIONS_PAGE_LIFETIMES,
  TM_ALLOCATIONS_PAGE_SHORT_LIVED,
  TM_ALLOCATIONS_PAGE_SURVIVAL,
  TM_ALLOCATIONS_PAGE_FLOATING,
  TM_ALLOCATIONS_PAGE_TRANSACTIONS,
  TM_ALLOCATIONS_N_PAGES
} TmAllocationsPage;

GtkWidget         *tm_allocations_view_new        (TmSession         *session);
void               tm_allocations_view_set_window (TmAllocationsView *self,
                                                   guint              from_gc,
                                                   guint              to_gc);
/* The result shown, NULL while computing or after an error. */
const TmVmMetrics *tm_allocations_view_get_result (TmAllocationsView *self);
TmTextTable       *tm_allocations_view_get_table  (TmAllocationsView *self,
                                                   TmAllocationsPage  page);
void               tm_allocations_view_show_page  (TmAllocationsView *self,
                                                   TmAllocationsPage  page);

G_END_DECLS
