/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Transactional leak detection (Lengauer et al., SPLASH 2013): for the
 * transactions recorded with `record --transaction Class.method`, what
 * each run allocated and freed per class, and which runs left objects
 * behind.
 *
 * A run's objects are checked at the first whole-heap collection (full
 * GC, or a concurrent cycle of ZGC/Shenandoah) that starts after the run
 * ended: a young collection may leave dead old objects in place, a
 * whole-heap one does not.  Objects still alive after it are the run's
 * survivors.  A survivor's (type, allocation site) is recurring when it
 * leaves objects in at least two runs of the kind: what one run keeps
 * once is lazy initialisation (class loading, caches filled on first
 * use), what many runs keep is a leak.  Runs with recurring survivors
 * are the leak suspects, ranked by recurring bytes, with the survivors'
 * types and sites.  With fewer than TM_TX_MIN_RUNS checked runs of a
 * kind nothing can be told apart, and every survivor counts.  Runs with
 * no whole-heap collection after them are counted as unchecked.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

#define TM_TX_MIN_RUNS 3

typedef struct {
  guint32  type;            /* type index */
  guint32  site;            /* site index (allocation call stack) */
  guint64  objects, bytes;
  guint32  runs;            /* runs that left objects of this type and site */
} TmTxSurvivorSite;

typedef struct {
  guint32  type;
  guint64  allocated_objects, allocated_bytes;
  guint64  freed_objects, freed_bytes;          /* dead by the check GC */
  guint64  surviving_objects, surviving_bytes;
} TmTxClassStats;

typedef struct {
  guint32  index;           /* into trace->transactions */
  guint32  check_gc;        /* 0: no whole-heap GC after it (unchecked) */
  guint64  allocated_objects, allocated_bytes;
  guint64  surviving_objects, surviving_bytes;
  guint64  recurring_objects, recurring_bytes;   /* at recurring sites: the suspect part */
  GArray  *sites;           /* TmTxSurvivorSite of its survivors (runs = 1), descending by bytes */
} TmTxRun;

typedef struct {
  guint32    kind;          /* index into trace->tx_kinds */
  guint64    runs, checked_runs, suspect_runs;
  guint64    one_time_runs;   /* runs whose survivors are all one-time (initialisation) */
  guint64    allocated_objects, allocated_bytes;
  guint64    surviving_objects, surviving_bytes;
  GArray    *classes;       /* TmTxClassStats, descending by allocated bytes */
  GArray    *sites;         /* TmTxSurvivorSite over all its runs, descending by bytes */
} TmTxKindReport;

/* TRUE when survivors at this site of a kind count as leaks. */
gboolean    tm_tx_site_is_recurring (const TmTxKindReport *kind, const TmTxSurvivorSite *site);

typedef struct {
  TmTrace   *trace;
  GPtrArray *kinds;         /* TmTxKindReport*, in kind order */
  GPtrArray *runs;          /* TmTxRun*, stream order */
  GPtrArray *suspects;      /* borrowed TmTxRun* with recurring survivors, descending by recurring bytes */
  guint64    unchecked_runs;
} TmTxReport;

gboolean    tm_transactions_present (const TmTrace *trace);
/* TM_ERROR_INVALID_ARGUMENT when the trace has no transactions (the
 * message says how to record them). */
TmTxReport *tm_transactions_analyse (TmTrace *trace, GCancellable *cancellable, GError **error);
void        tm_tx_report_free       (TmTxReport *report);
/* The whole-heap GC that checks a run that ended before GC `next_gc`
 * started (TmTransaction.gcs_before_end + 1), or 0. */
guint32     tm_transactions_check_gc (const TmTrace *trace, guint32 next_gc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmTxReport, tm_tx_report_free)

G_END_DECLS
