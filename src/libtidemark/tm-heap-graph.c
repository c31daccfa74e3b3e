/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-heap-graph.h"
#include "tm-trace-private.h"
#include "tm-trace-reader.h"
#include "tm-payload.h"
#include "tm-error.h"
#include "tm-hprof.h"

#include <string.h>
#include <glib/gi18n-lib.h>

guint32 *
tm_trace_live_objects (const TmTrace *trace, guint32 gc_id, guint32 *n)
{
  guint64 limit = tm_trace_allocs_before_gc (trace, gc_id);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint64 i = 0; i < limit; i++)
    {
      guint32 death = trace->obj_death[i];
      if (death == TM_ALIVE || death > gc_id)
        {
          guint32 i32 = (guint32) i;
          g_array_append_val (out, i32);
        }
    }
  *n = out->len;
  return (guint32 *) (gpointer) g_array_free (out, FALSE);
}

/* Counting sort of (src, dst) node pairs into CSR form, stable (a
 * source's edges keep their order, labels follow their edges), with the
 * offsets as their own cursors: counts at v + 1, summed, each edge put
 * at its source's offset (which moves on to the next source's), then
 * every offset moved back one place.  No second per-node array. */
#define DEFINE_CSR_SORT(NAME, T)                                                                   \
  static void                                                                                      \
  NAME (T *start, guint32 n_nodes, const guint32 *src, const guint32 *dst, const guint32 *labels,  \
        guint64 n_edges, guint32 *edges, guint32 *edge_label)                                      \
  {                                                                                                \
    for (guint64 e = 0; e < n_edges; e++)                                                          \
      start[src[e] + 1]++;                                                                         \
    for (guint32 v = 0; v < n_nodes; v++)                                                          \
      start[v + 1] += start[v];                                                                    \
    for (guint64 e = 0; e < n_edges; e++)                                                          \
      {                                                                                            \
        T at = start[src[e]]++;                                                                    \
        edges[at] = dst[e];                                                                        \
        if (labels != NULL)                                                                        \
          edge_label[at] = labels[e];                                                              \
      }                                                                                            \
    memmove (start + 1, start, sizeof (T) * n_nodes);                                              \
    start[0] = 0;                                                                                  \
  }

DEFINE_CSR_SORT (csr_sort32, guint32)
DEFINE_CSR_SORT (csr_sort64, guint64)

static void
build_csr_labelled (TmHeapGraph *g, const guint32 *src, const guint32 *dst, const guint32 *labels, guint64 n_edges)
{
  g_autofree guint32 *full = labels != NULL ? g_new (guint32, MAX (n_edges, 1)) : NULL;

  g->edges = g_new (guint32, MAX (n_edges, 1));
  g->n_edges = n_edges;
  if (n_edges <= G_MAXUINT32)
    {
      g->edge_start = g_new0 (guint32, (gsize) g->n_nodes + 1);
      csr_sort32 (g->edge_start, g->n_nodes, src, dst, labels, n_edges, g->edges, full);
    }
  else
    {
      g->edge_start_wide = g_new0 (guint64, (gsize) g->n_nodes + 1);
      csr_sort64 (g->edge_start_wide, g->n_nodes, src, dst, labels, n_edges, g->edges, full);
    }
  if (labels == NULL)
    return;
  g->edge_label = g_new (guint16, MAX (n_edges, 1));
  for (guint32 v = 0; v < g->n_nodes; v++)
    {
      gint64 prev = -1;
      for (guint64 e = tm_heap_graph_edge_begin (g, v), e_end = tm_heap_graph_edge_end (g, v); e < e_end; e++)
        g->edge_label[e] = tm_heap_graph_edge_code (g, e, full[e], &prev);
    }
}

guint16
tm_heap_graph_edge_code (TmHeapGraph *g, guint64 e, guint32 label, gint64 *prev)
{
  TmEdgeEscape esc = { e, label };

  if (label & TM_EDGE_ELEMENT)
    {
      gint64 index = label & ~TM_EDGE_ELEMENT, gap = index - *prev - 1;
      *prev = index;
      /* decoded as the first index after the one before with these low
       * bits; 0x7fff as low bits would read as the escape */
      if (gap >= 0 && gap <= 0x7fff && (index & 0x7fff) != 0x7fff)
        return (guint16) (0x8000u | (index & 0x7fff));
    }
  else if (label < TM_EDGE_ESCAPE_FIELD)
    return (guint16) label;
  if (g->label_escapes == NULL)
    g->label_escapes = g_array_new (FALSE, FALSE, sizeof (TmEdgeEscape));
  g_array_append_val (g->label_escapes, esc);
  return (label & TM_EDGE_ELEMENT) ? TM_EDGE_ESCAPE_ELEMENT : TM_EDGE_ESCAPE_FIELD;
}

static guint32
escaped_label (const TmHeapGraph *g, guint64 e)
{
  const TmEdgeEscape *x = g->label_escapes != NULL ? (const TmEdgeEscape *) (gpointer) g->label_escapes->data : NULL;
  guint lo = 0, hi = g->label_escapes != NULL ? g->label_escapes->len : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (x[mid].edge < e)
        lo = mid + 1;
      else
        hi = mid;
    }
  return x != NULL && lo < g->label_escapes->len && x[lo].edge == e ? x[lo].label : 0;
}

guint32
tm_heap_graph_edge_field (const TmHeapGraph *g, guint64 e)
{
  guint16 c;

  g_return_val_if_fail (g != NULL, 0);
  if (g->edge_label == NULL || e >= g->n_edges)
    return 0;
  c = g->edge_label[e];
  if (c & 0x8000u)
    return TM_EDGE_ELEMENT;
  return c == TM_EDGE_ESCAPE_FIELD ? escaped_label (g, e) : c;
}

/* Edge e's full label; *prev: the source's array element before it. */
static guint32
edge_full_label (const TmHeapGraph *g, guint64 e, gint64 *prev)
{
  guint16 c = g->edge_label[e];
  guint32 full;

  if (c == TM_EDGE_ESCAPE_FIELD || c == TM_EDGE_ESCAPE_ELEMENT)
    full = escaped_label (g, e);
  else if (c & 0x8000u)
    {
      gint64 next = *prev + 1;
      full = TM_EDGE_ELEMENT | (guint32) (next + ((((gint64) (c & 0x7fffu)) - next) & 0x7fff));
    }
  else
    full = c;
  if (full & TM_EDGE_ELEMENT)
    *prev = full & ~TM_EDGE_ELEMENT;
  return full;
}

void
tm_heap_graph_widen (TmHeapGraph *g)
{
  g_return_if_fail (g != NULL);

  if (g->edge_start == NULL)
    return;
  g->edge_start_wide = g_new (guint64, (gsize) g->n_nodes + 1);
  for (gsize v = 0; v <= g->n_nodes; v++)
    g->edge_start_wide[v] = g->edge_start[v];
  g_clear_pointer (&g->edge_start, g_free);
}

static void
build_csr (TmHeapGraph *g, const guint32 *src, const guint32 *dst, guint64 n_edges)
{
  build_csr_labelled (g, src, dst, NULL, n_edges);
}

TmHeapGraph *
tm_heap_graph_new_from_nodes (guint32        gc_id,
                              guint32       *node_object,
                              guint32        n_nodes,
                              const guint32 *edge_src,
                              const guint32 *edge_dst,
                              const guint32 *edge_labels,
                              guint64        n_edges)
{
  TmHeapGraph *g = g_new0 (TmHeapGraph, 1);

  g->gc_id = gc_id;
  g->n_nodes = n_nodes;
  g->node_object = node_object != NULL ? node_object : g_new (guint32, 1);
  build_csr_labelled (g, edge_src, edge_dst, edge_labels, n_edges);
  return g;
}

char *
tm_heap_graph_edge_label (const TmHeapGraph *g, guint32 src_node, guint32 dst_node)
{
  gint64 prev = -1;

  g_return_val_if_fail (g != NULL, NULL);

  if (g->edge_label == NULL || src_node >= g->n_nodes)
    return NULL;
  for (guint64 e = tm_heap_graph_edge_begin (g, src_node), e_end = tm_heap_graph_edge_end (g, src_node); e < e_end; e++)
    {
      guint32 l = edge_full_label (g, e, &prev);
      if (g->edges[e] != dst_node)
        continue;
      if (l & TM_EDGE_ELEMENT)
        return g_strdup_printf ("[%u]", l & ~TM_EDGE_ELEMENT);
      if (l != 0 && g->labels != NULL && l < g->labels->len)
        return g_strdup (g_ptr_array_index (g->labels, l));
      return NULL;
    }
  return NULL;
}

const char *
tm_heap_graph_root_label (const TmHeapGraph *g, guint32 node)
{
  g_return_val_if_fail (g != NULL, NULL);

  if (g->root_label == NULL || g->labels == NULL)
    return NULL;
  /* a static field names the root better than the class it belongs to */
  for (guint pass = 0; pass < 2; pass++)
    for (guint32 r = 0; r < g->n_roots; r++)
      if (g->root_node[r] == node && g->root_label[r] != 0 && g->root_label[r] < g->labels->len
          && (pass == 1 || g->root_kind[r] == TM_ROOT_KIND_STATIC))
        return g_ptr_array_index (g->labels, g->root_label[r]);
  return NULL;
}

gboolean
tm_heap_graph_node_for_object (const TmHeapGraph *g, guint32 object_index, guint32 *node)
{
  guint32 lo = 0, hi = g->n_nodes;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;
      if (g->node_object[mid] < object_index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < g->n_nodes && g->node_object[lo] == object_index)
    {
      *node = lo;
      return TRUE;
    }
  return FALSE;
}

TmHeapGraph *
tm_heap_graph_new (guint32        gc_id,
                   const guint32 *objects,
                   guint32        n_objects,
                   const guint32 *edge_src,
                   const guint32 *edge_dst,
                   guint64        n_edges,
                   const guint32 *root_objects,
                   const guint8  *root_kinds,
                   guint32        n_roots)
{
  TmHeapGraph *g = g_new0 (TmHeapGraph, 1);
  g_autofree guint32 *src = g_new (guint32, MAX (n_edges, 1));
  g_autofree guint32 *dst = g_new (guint32, MAX (n_edges, 1));
  guint64 m = 0;

  g->gc_id = gc_id;
  g->n_nodes = n_objects;
  g->node_object = g_memdup2 (objects, sizeof (guint32) * MAX (n_objects, 1));
  for (guint64 e = 0; e < n_edges; e++)
    {
      guint32 a, b;
      if (tm_heap_graph_node_for_object (g, edge_src[e], &a) && tm_heap_graph_node_for_object (g, edge_dst[e], &b))
        {
          src[m] = a;
          dst[m] = b;
          m++;
        }
      else
        g->dropped_edges++;
    }
  build_csr (g, src, dst, m);

  g->root_node = g_new (guint32, MAX (n_roots, 1));
  g->root_kind = g_new (guint8, MAX (n_roots, 1));
  g->root_thread = g_new0 (guint32, MAX (n_roots, 1));
  for (guint32 r = 0; r < n_roots; r++)
    {
      guint32 v;
      if (tm_heap_graph_node_for_object (g, root_objects[r], &v))
        {
          g->root_node[g->n_roots] = v;
          g->root_kind[g->n_roots] = root_kinds ? root_kinds[r] : TM_ROOT_KIND_OTHER;
          g->n_roots++;
        }
      else
        g->dropped_edges++;
    }
  return g;
}

guint64 *
tm_heap_graph_mark (const TmHeapGraph *g, guint64 *n_marked)
{
  guint64 *bits = g_new0 (guint64, (gsize) g->n_nodes / 64 + 1);
  g_autofree guint32 *stack = g_new (guint32, (gsize) g->n_nodes + 1);
  gsize sp = 0;
  guint64 count = 0;

  for (guint32 r = 0; r < g->n_roots; r++)
    {
      guint32 v = g->root_node[r];
      if (!tm_bitmap_get (bits, v))
        {
          tm_bitmap_set (bits, v);
          stack[sp++] = v;
        }
    }
  while (sp > 0)
    {
      guint32 v = stack[--sp];
      count++;
      for (guint64 e = tm_heap_graph_edge_begin (g, v), end = tm_heap_graph_edge_end (g, v); e < end; e++)
        {
          guint32 w = g->edges[e];
          if (!tm_bitmap_get (bits, w))
            {
              tm_bitmap_set (bits, w);
              stack[sp++] = w;
            }
        }
    }
  if (n_marked)
    *n_marked = count;
  return bits;
}

void
tm_heap_graph_free (TmHeapGraph *g)
{
  if (g == NULL)
    return;
  g_free (g->node_object);
  g_free (g->edge_start);
  g_free (g->edge_start_wide);
  g_free (g->edges);
  g_free (g->root_node);
  g_free (g->root_kind);
  g_free (g->root_thread);
  g_free (g->edge_label);
  if (g->label_escapes != NULL)
    g_array_unref (g->label_escapes);
  g_free (g->root_label);
  if (g->labels != NULL)
    g_ptr_array_unref (g->labels);
  g_free (g);
}

/* ---- reading a graph back from the file -------------------------------- */

typedef struct {
  const TmTrace *trace;
  guint32       *node_of;     /* object index -> node + 1 (0: not in the heap) */
  GArray        *src, *dst;   /* guint32 nodes */
  GArray        *roots;       /* guint32 nodes */
  GArray        *root_kinds;  /* guint8 */
  GArray        *root_threads;/* guint32 thread index */
  guint64        dropped;
  guint64        hint;
} GraphRead;

static gboolean
object_node (GraphRead *gr, guint64 id, guint32 *node)
{
  guint64 index;

  if (!tm_trace_object_index_for_id_hint (gr->trace, id, &gr->hint, &index))
    return FALSE;
  if (gr->node_of[index] == 0)
    return FALSE;
  *node = gr->node_of[index] - 1;
  return TRUE;
}

static guint32
thread_index_for_id (const TmTrace *trace, guint64 id)
{
  for (guint i = 1; i < trace->threads->len; i++)
    if (g_array_index (trace->threads, TmThread, i).id == id)
      return i;
  return 0;
}

static gboolean
read_graph_records (GraphRead *gr, TmTraceReader *r, guint32 gc_id, GCancellable *cancellable, GError **error)
{
  TmRecord rec;
  gboolean begun = FALSE;
  guint64 n = 0;

  for (;;)
    {
      TmPayload c;
      TmReadStatus st = tm_trace_reader_next (r, &rec, error);

      if (st == TM_READ_ERROR)
        return FALSE;
      if (st == TM_READ_EOF)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED, _("%s: graph of GC %u ends early"), tm_trace_reader_name (r), gc_id);
          return FALSE;
        }
      if ((++n & 0xffff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      tm_payload_init (&c, rec.payload, rec.len);
      if (!begun)
        {
          guint64 id = tm_payload_u (&c, "GRAPH_BEGIN gc id");
          if (rec.tag != TM_TAG_GRAPH_BEGIN || !c.ok || id != gc_id)
            {
              g_set_error (error, TM_ERROR, TM_ERROR_FORMAT,
                           "%s: no GRAPH_BEGIN %u at its stored position (zstd frame at byte offset %" G_GUINT64_FORMAT ")",
                           tm_trace_reader_name (r), gc_id, rec.frame_offset);
              return FALSE;
            }
          begun = TRUE;
          continue;
        }

      switch (rec.tag)
        {
        case TM_TAG_ROOTS:
          {
            guint64 count = tm_payload_count (&c, 3, "ROOTS count");
            for (guint64 i = 0; i < count && c.ok; i++)
              {
                guint64 id = tm_payload_u (&c, "ROOTS object");
                guint8 kind = (guint8) tm_payload_u_max (&c, "ROOTS kind", 255);
                guint64 thread = tm_payload_u (&c, "ROOTS thread");
                guint32 v, th;
                if (!c.ok)
                  break;
                if (!object_node (gr, id, &v))
                  {
                    gr->dropped++;
                    continue;
                  }
                th = thread ? thread_index_for_id (gr->trace, thread) : 0;
                g_array_append_val (gr->roots, v);
                g_array_append_val (gr->root_kinds, kind);
                g_array_append_val (gr->root_threads, th);
              }
            break;
          }
        case TM_TAG_REFS:
          {
            guint64 src_id = tm_payload_u (&c, "REFS object");
            guint64 count = tm_payload_count (&c, 1, "REFS count");
            guint64 prev = src_id;
            guint32 s;
            gboolean have_src = c.ok && object_node (gr, src_id, &s);
            for (guint64 i = 0; i < count && c.ok; i++)
              {
                guint32 d;
                prev += (guint64) tm_payload_s (&c, "REFS target");
                if (!c.ok)
                  break;
                if (have_src && object_node (gr, prev, &d))
                  {
                    g_array_append_val (gr->src, s);
                    g_array_append_val (gr->dst, d);
                  }
                else
                  gr->dropped++;
              }
            break;
          }
        case TM_TAG_GRAPH_END:
          return TRUE;
        case TM_TAG_GC_START:
        case TM_TAG_GRAPH_BEGIN:
        case TM_TAG_END:
          g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("%s: graph of GC %u has no GRAPH_END"),
                       tm_trace_reader_name (r), gc_id);
          return FALSE;
        default:
          break;
        }
      if (!c.ok)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "%s: %s malformed in the graph of GC %u (raw offset %" G_GUINT64_FORMAT ")",
                       tm_trace_reader_name (r), c.what, gc_id, rec.raw_offset);
          return FALSE;
        }
    }
}

static char *
nearest_graphs (const TmTrace *trace, guint32 gc_id)
{
  guint32 before = 0, after = 0;

  for (guint i = 0; i < trace->gcs->len; i++)
    {
      const TmGc *gc = &g_array_index (trace->gcs, TmGc, i);
      if (!gc->has_graph)
        continue;
      if (gc->id < gc_id)
        before = gc->id;
      else if (after == 0)
        after = gc->id;
    }
  if (before == 0 && after == 0)
    return g_strdup ("the trace has no reference graphs");
  if (before && after)
    return g_strdup_printf ("nearest GCs with a graph: %u and %u", before, after);
  return g_strdup_printf ("nearest GC with a graph: %u", before ? before : after);
}

TmHeapGraph *
tm_heap_graph_read (TmTrace *trace, guint32 gc_id, GCancellable *cancellable, GError **error)
{
  return tm_heap_graph_read_from_fd (trace, -1, gc_id, cancellable, error);
}

TmHeapGraph *
tm_heap_graph_read_from_fd (TmTrace *trace, int fd, guint32 gc_id, GCancellable *cancellable, GError **error)
{
  const TmGc *gc;
  g_autoptr(TmTraceReader) r = NULL;
  GraphRead gr = { 0 };
  g_autofree guint32 *live = NULL;
  guint32 n_live;
  TmHeapGraph *g = NULL;

  g_return_val_if_fail (trace != NULL, NULL);

  if (gc_id == 0 || gc_id > trace->gcs->len)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("GC %u does not exist (the trace has %u GCs)"),
                   gc_id, trace->gcs->len);
      return NULL;
    }
  gc = tm_trace_gc (trace, gc_id);
  if (!gc->has_graph)
    {
      g_autofree char *near = nearest_graphs (trace, gc_id);
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH,
                   _("GC %u has no reference graph, so only shallow sizes are known there (%s)"), gc_id, near);
      return NULL;
    }

  /* heap dumps are parsed again: they are their graph */
  if (tm_trace_is_heap_dumps (trace))
    return tm_hprof_graph_read (trace, gc_id, cancellable, error);

  if (trace->source_bytes != NULL)
    r = tm_trace_reader_new_bytes (trace->source_bytes, trace->path, error);
  else if (fd >= 0)
    r = tm_trace_reader_new_for_fd (fd, trace->path, error);
  else
    r = tm_trace_reader_new (trace->path, error);
  if (r == NULL)
    return NULL;
  tm_trace_reader_seek (r, gc->graph_frame_offset, gc->graph_raw_skip);

  live = tm_trace_live_objects (trace, gc_id, &n_live);
  gr.trace = trace;
  gr.node_of = g_new0 (guint32, MAX (trace->n_objects, 1));
  for (guint32 v = 0; v < n_live; v++)
    gr.node_of[live[v]] = v + 1;
  gr.src = g_array_new (FALSE, FALSE, sizeof (guint32));
  gr.dst = g_array_new (FALSE, FALSE, sizeof (guint32));
  gr.roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  gr.root_kinds = g_array_new (FALSE, FALSE, sizeof (guint8));
  gr.root_threads = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (read_graph_records (&gr, r, gc_id, cancellable, error))
    {
      g = g_new0 (TmHeapGraph, 1);
      g->gc_id = gc_id;
      g->n_nodes = n_live;
      g->node_object = g_steal_pointer (&live);
      build_csr (g, (const guint32 *) (gpointer) gr.src->data, (const guint32 *) (gpointer) gr.dst->data, gr.src->len);
      g->n_roots = gr.roots->len;
      g->root_node = (guint32 *) (gpointer) g_array_free (gr.roots, FALSE);
      g->root_kind = (guint8 *) g_array_free (gr.root_kinds, FALSE);
      g->root_thread = (guint32 *) (gpointer) g_array_free (gr.root_threads, FALSE);
      gr.roots = gr.root_kinds = gr.root_threads = NULL;
      g->dropped_edges = gr.dropped;
    }

  g_free (gr.node_of);
  g_array_unref (gr.src);
  g_array_unref (gr.dst);
  if (gr.roots)
    {
      g_array_unref (gr.roots);
      g_array_unref (gr.root_kinds);
      g_array_unref (gr.root_threads);
    }
  return g;
}
