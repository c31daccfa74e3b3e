/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Leak confidence per container (Xu & Rountev, "Precise Memory Leak
 * Detection for Java Software Using Container Profiling", ICSE 2008),
 * from the reference graphs of a window (docs/containers.md).
 *
 * Leak region [ts, te]: the end times of the window's first and last GC.
 * Containers: the data structures of the data-structure view (top-level
 * structures, tm-ds-detect.h), matched across GCs by head object; their
 * elements are their leaves.  At each GC of the window with a graph:
 *
 *   MC  memory contribution: the area under the container's memory-time
 *       curve, x = time / (te - ts), y = bytes reachable from the container
 *       (deep size) / bytes reachable from the roots, from t0 = max(ts, the
 *       first graph that shows it) to t1 = min(te, the last one that does)
 *       (trapezoids between graphs); in [0, 1].
 *   SC  staleness contribution: the mean staleness of its elements / (te -
 *       ts), where an element's staleness is from its add (the first graph
 *       where the container reaches it) to its removal (the first graph
 *       where it no longer does; te if never).  Graphs show no retrievals,
 *       so this is the element's age there: an UPPER BOUND of the paper's
 *       staleness (which restarts at each retrieval), and LC with it.
 *   LC  leak confidence = SC^(1 - MC): 0 when SC is 0, 1 when SC is 1, SC
 *       when MC is 0, rising to 1 as MC does (for SC > 0).
 *
 * With container operations in the trace (CONTAINER_OP, recorded by
 * `record --containers`), SC, #ADD, #REMOVE and the sites are exact, from
 * the operations (tm-containers-ops.h): staleness restarts at every
 * retrieval, and the sites are the callers that added the elements.  A
 * container without any recorded operation keeps the graph estimate (and
 * its `exact` is FALSE).
 *
 * A container is leak-free (not ranked) when it has no elements at te, or
 * every element added within the region was also removed within it (#ADD
 * = #REMOVE), or it is not alive at te.  Within each container, the
 * elements' allocation sites (the graphs' stand-in for the call sites that
 * added them) are ranked by mean staleness.
 */
#pragma once

#include "tm-heap-cache.h"

G_BEGIN_DECLS

typedef struct {
  guint32  site;              /* site index: the caller that added the elements (exact),
                               * else the elements' allocation site */
  guint64  elements;
  double   mean_staleness;    /* fraction of te - ts */
} TmContainerSite;

typedef struct {
  guint32  head_object;       /* object index of the container's head */
  guint32  type;
  guint32  first_gc, last_gc; /* graph GCs of the window that show it */
  guint64  elements_at_end;
  guint64  adds;              /* elements first seen after its first graph */
  guint64  removes;           /* of those, gone again by te */
  guint64  bytes_at_start;    /* deep size at its first graph of the window */
  guint64  bytes_at_end;      /* deep size at te */
  guint64  stints;            /* element stints SC averages over */
  double   mc, sc, lc;
  gboolean relevant;          /* explains part of the region's growth (tm_container_relevant) */
  gboolean exact;             /* SC, adds, removes and sites from recorded operations */
  guint64  ops;               /* its recorded operations up to te */
  GArray  *sites;             /* TmContainerSite, descending by mean staleness */
} TmContainer;

typedef struct {
  guint32    from_gc, to_gc;
  guint      n_graphs;        /* graph GCs used */
  gboolean   sc_upper_bound;  /* TRUE: some ranked container's staleness is from graphs */
  gboolean   ops_recorded;    /* the trace has container operations */
  guint64    ts_ns, te_ns;
  guint64    reachable_start; /* reachable bytes at the region's first and last graph */
  guint64    reachable_end;
  guint64    largest_growth;  /* the most a container grew over the region */
  GPtrArray *containers;      /* TmContainer*, not leak-free: the relevant ones first, each part
                               * descending by LC */
  guint32    leak_free;       /* containers alive at te excluded as leak-free */
} TmContainerReport;

/* On the heap states (and data-structure detections) of `heaps`, with its
 * descriptions.  TM_ERROR_NO_GRAPH when fewer than two GCs of the window
 * have a graph; TM_ERROR_INVALID_ARGUMENT for a bad window. */
TmContainerReport *tm_containers_compute (TmHeapCache   *heaps,
                                          guint32        from_gc,
                                          guint32        to_gc,
                                          GCancellable  *cancellable,
                                          GError       **error);
void               tm_container_report_free (TmContainerReport *report);

/* The ranked containers grouped by the site that allocated them (their
 * head), each group taken as one container: MC the sum of its
 * containers' (their areas add, clamped to 1), SC the mean staleness of
 * all their element stints, LC = SC^(1 - MC).  Descending by LC. */
typedef struct {
  guint32  site;              /* allocation site of the containers' heads */
  guint32  type;              /* their type, TM_UNKNOWN when several */
  guint32  top;               /* index in report->containers of its highest-LC container */
  guint    n_containers;
  guint    n_exact;           /* of them with SC from recorded operations */
  gint64   growth_bytes;      /* sum of bytes_at_end - bytes_at_start */
  guint64  bytes_at_end;
  guint64  elements_at_end;
  guint64  stints;
  double   mc, sc, lc;
  gboolean relevant;          /* its containers together explain part of the growth */
} TmContainerAllocSite;

GArray            *tm_container_report_by_alloc_site (const TmTrace           *trace,
                                                      const TmContainerReport *report);

/* The container a window's explanation names (tm-containers-text.c):
 * the first ranked one with LC >= 0.5 that holds at least 1% of the
 * reachable memory at te; NULL if none. */
const TmContainer *tm_container_report_headline_container (const TmTrace           *trace,
                                                           const TmContainerReport *report);
/* That container in one translated sentence: type, allocation site, LC,
 * MC, SC and whether SC is exact, size, elements, the site that added
 * its stalest elements.  NULL if none. */
char              *tm_container_report_headline (const TmTrace           *trace,
                                                 const TmContainerReport *report);

/* LC from SC and MC (exposed for tests). */
double             tm_leak_confidence (double sc, double mc);
gboolean           tm_container_relevant (const TmContainerReport *report,
                                          guint64                  bytes_at_start,
                                          guint64                  bytes_at_end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmContainerReport, tm_container_report_free)

G_END_DECLS
