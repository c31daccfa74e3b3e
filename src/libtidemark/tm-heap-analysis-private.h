/* SPDX-License-Identifier: GPL-3.0-or-later
 * Internals of TmHeapAnalysis shared by its source files. */
#pragma once

#include "tm-heap-analysis.h"

G_BEGIN_DECLS

struct _TmHeapAnalysis {
  gint             ref_count;
  TmTrace         *trace;
  guint32          gc_id;
  guint32          n_items;
  const guint32   *objects;        /* graph->node_object, or objects_owned */
  guint32         *objects_owned;
  TmHeapGraph     *graph;          /* NULL without a graph */
  TmDominatorTree *dom;
  TmObjectSizes    sizes;
  guint64         *closed;         /* per tree position: no reference leaves its subtree */

  /* Scratch of the group closures, guarded by lock. */
  GMutex           lock;
  guint32         *stamp;          /* per node; see tm-heap-analysis-closure.c */
  guint32          epoch;
  guint64         *root_bits;      /* per node: is a GC root */
  guint64         *rev_start;      /* reverse CSR, built on first need */
  guint32         *rev_edges;
};

/* tm_heap_analysis_new, reading the graph through `graph_fd` (an open
 * handle of the trace file, not taken; -1: the trace's path). */
TmHeapAnalysis *tm_heap_analysis_new_from_fd (TmTrace        *trace,
                                              guint32         gc_id,
                                              int             graph_fd,
                                              TmProgressFunc  progress,
                                              gpointer        progress_data,
                                              GCancellable   *cancellable,
                                              GError        **error);

/* Builds the reverse graph and the root bitmap if not done yet (lock held). */
void tm_heap_analysis_ensure_reverse (TmHeapAnalysis *self);

G_END_DECLS
