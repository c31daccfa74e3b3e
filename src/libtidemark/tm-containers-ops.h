/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exact staleness of one container's elements from its recorded
 * operations (CONTAINER_OP, trace-format.md), for tm-containers.c.
 *
 * The operations are replayed in stream order up to te.  An element's
 * stint starts at its ADD; each GET restarts its staleness clock; its
 * REMOVE (or a CLEAR, or te) ends the stint with staleness t2 - t1, t1
 * clamped to ts.  ADD_OR_GET is a GET when the element is in the
 * container, else an ADD.  A GET or REMOVE of an element the replay has
 * not seen added (it was there before the recording, or added by a
 * method that is not recorded) counts it as present from that moment,
 * without an ADD.  Stints that end before ts are not counted.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef struct {
  guint64     ops;             /* operations of the container up to te */
  guint64     adds;            /* ADDs within [ts, te] */
  guint64     removes;         /* removals within [ts, te] of elements added within it */
  guint64     present_at_end;  /* elements in the container at te */
  double      stale_sum;       /* ns, over the stints counted */
  guint64     stale_n;
  GHashTable *sites;           /* site index + 1 -> TmContainerOpsSite* (the ADD's caller) */
} TmContainerOpsStats;

typedef struct {
  double   sum;                /* ns */
  guint64  n;
} TmContainerOpsSite;

/* Whether the recording had container operations on (META
 * "container_ops", or any CONTAINER_OP). */
gboolean    tm_container_ops_recorded (const TmTrace *trace);

/* Index of the operations (guint64* id -> GArray of guint op indices,
 * in stream order) for the containers in `wanted` (guint64* container id
 * -> guint64* id to file them under: a nested structure's operations go
 * to the structure holding it). */
GHashTable *tm_container_ops_index  (const TmTrace *trace, GHashTable *wanted);

void        tm_container_ops_replay (const TmTrace       *trace,
                                     const GArray        *op_indices,
                                     guint64              ts_ns,
                                     guint64              te_ns,
                                     TmContainerOpsStats *out);
void        tm_container_ops_stats_clear (TmContainerOpsStats *stats);

G_END_DECLS
