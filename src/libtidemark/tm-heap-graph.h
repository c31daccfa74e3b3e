/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmHeapGraph: the reference graph of the heap right after one GC, in
 * compressed-sparse-row form with compact node numbers.
 *
 * Nodes are the objects of the heap state after the GC (alive after it
 * according to the model), numbered 0..n_nodes-1 in allocation order, so
 * node_object[] is ascending.  Edges to objects outside that set (a
 * recorder's inconsistency) are dropped and counted.
 *
 * The model holds at most 2^32-1 objects, so object indices fit 32 bits
 * here.
 */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

typedef struct {
  guint32  gc_id;
  guint32  n_nodes;
  guint32 *node_object;   /* node -> object index, ascending */
  /* node v's targets are edges[begin .. end) (tm_heap_graph_edge_begin,
   * _end): n_nodes + 1 offsets of 32 bits in edge_start, or, in a graph
   * of 2^32 edges or more, of 64 bits in edge_start_wide (edge_start is
   * then NULL): half the bytes per node for every heap that fits */
  guint32 *edge_start;
  guint64 *edge_start_wide;
  guint32 *edges;         /* target nodes */
  guint64  n_edges;
  guint32  n_roots;
  guint32 *root_node;     /* may repeat a node with different kinds */
  guint8  *root_kind;     /* TmRootKind */
  guint32 *root_thread;   /* thread index, 0 if none */
  guint64  dropped_edges; /* edges / roots naming objects not in the heap */
  /* Names, when the source has them (heap dumps): per root an index into
   * labels (0 = none), per edge a 16-bit code (tm_heap_graph_edge_field
   * reads it): a field's index into labels, or with the top bit an array
   * element by the low 15 bits of its index (a source's elements come in
   * ascending order: the rest follows from the one before).  What does
   * not fit (label 0x7fff on, a gap of 2^15 or more) has the code
   * TM_EDGE_ESCAPE_FIELD / _ELEMENT and its label in label_escapes.
   * All NULL for recorded traces. */
  guint16   *edge_label;
  GArray    *label_escapes; /* TmEdgeEscape, by edge */
  guint32   *root_label;
  GPtrArray *labels;       /* char*, [0] = NULL */
} TmHeapGraph;

/* A full edge label: 0 none, a field's index into labels, or
 * TM_EDGE_ELEMENT | the array element's index. */
#define TM_EDGE_ELEMENT        0x80000000u
#define TM_EDGE_ESCAPE_FIELD   0x7fffu
#define TM_EDGE_ESCAPE_ELEMENT 0xffffu

typedef struct {
  guint64 edge;
  guint32 label;
} TmEdgeEscape;

/* Reads the graph of GC gc_id from the trace file (seeking to its stored
 * position).  TM_ERROR_NO_GRAPH if that GC has none. */
TmHeapGraph *tm_heap_graph_read        (TmTrace       *trace,
                                        guint32        gc_id,
                                        GCancellable  *cancellable,
                                        GError       **error);

/* The same through `fd`, an open handle of the trace file (not taken;
 * reads use pread, so threads may share it); -1: open trace->path. */
TmHeapGraph *tm_heap_graph_read_from_fd (TmTrace       *trace,
                                         int            fd,
                                         guint32        gc_id,
                                         GCancellable  *cancellable,
                                         GError       **error);

/* Builds a graph from plain arrays (tests, importers).  edges_src/dst are
 * object indices; nodes are `objects` (must be ascending). */
TmHeapGraph *tm_heap_graph_new         (guint32        gc_id,
                                        const guint32 *objects,
                                        guint32        n_objects,
                                        const guint32 *edge_src,
                                        const guint32 *edge_dst,
                                        guint64        n_edges,
                                        const guint32 *root_objects,
                                        const guint8  *root_kinds,
                                        guint32        n_roots);

/* For importers: nodes are given (ascending object indices, taken over),
 * edges are in node numbers, labels (full, TM_EDGE_ELEMENT for array
 * elements) may be NULL.  Roots are left empty. */
TmHeapGraph *tm_heap_graph_new_from_nodes (guint32        gc_id,
                                           guint32       *node_object,
                                           guint32        n_nodes,
                                           const guint32 *edge_src,
                                           const guint32 *edge_dst,
                                           const guint32 *edge_labels,
                                           guint64        n_edges);

/* Edge e's label, with an array element's index left out (just
 * TM_EDGE_ELEMENT): all that classifying by it needs.  0 without names. */
guint32      tm_heap_graph_edge_field  (const TmHeapGraph *g, guint64 e);

/* Importers writing edge codes in the order of the edges: *prev is the
 * source's last array element index, -1 at each source's first edge.
 * Escapes are added to g->label_escapes (created on demand). */
guint16      tm_heap_graph_edge_code   (TmHeapGraph *g, guint64 e, guint32 label, gint64 *prev);

/* The name of the reference src_node -> dst_node: the field ("next"), an
 * array element ("[3]"), or NULL when the graph has no names.  Free with
 * g_free. */
char        *tm_heap_graph_edge_label  (const TmHeapGraph *g, guint32 src_node, guint32 dst_node);
/* The name of a root at `node` ("com.example.Holder.cache" for a static
 * field, "class com.example.Holder" for a class), or NULL. */
const char  *tm_heap_graph_root_label  (const TmHeapGraph *g, guint32 node);

gboolean     tm_heap_graph_node_for_object (const TmHeapGraph *g, guint32 object_index, guint32 *node);

/* Marks everything reachable from the roots; returns a bitmap of n_nodes
 * bits (guint64 words) the caller frees with g_free. */
guint64     *tm_heap_graph_mark        (const TmHeapGraph *g, guint64 *n_marked);

void         tm_heap_graph_free        (TmHeapGraph *g);

/* Turns edge_start into edge_start_wide: what graphs of 2^32 edges or
 * more are built as; tests use it to check the analyses on that form. */
void         tm_heap_graph_widen       (TmHeapGraph *g);

/* The objects of the heap state after gc_id (no graph needed), ascending
 * object indices; *n gets the count. Free with g_free. */
guint32     *tm_trace_live_objects     (const TmTrace *trace, guint32 gc_id, guint32 *n);

static inline guint64
tm_heap_graph_edge_begin (const TmHeapGraph *g, guint32 v)
{
  return G_LIKELY (g->edge_start != NULL) ? g->edge_start[v] : g->edge_start_wide[v];
}

static inline guint64
tm_heap_graph_edge_end (const TmHeapGraph *g, guint32 v)
{
  return tm_heap_graph_edge_begin (g, v + 1);
}

static inline gboolean
tm_bitmap_get (const guint64 *bits, guint64 i)
{
  return (bits[i >> 6] >> (i & 63)) & 1;
}

static inline void
tm_bitmap_set (guint64 *bits, guint64 i)
{
  bits[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHeapGraph, tm_heap_graph_free)

G_END_DECLS
