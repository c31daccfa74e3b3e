/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HPROF heap dumps as traces: each dump is one GC of kind "major" (the
 * collector "heap dump") whose heap state is the dump's objects, with its
 * reference graph.  Dumps have no allocation sites or threads per object
 * (site "unknown"), and no deaths: what a dump's graph does not reach is
 * garbage it still listed, and dies at its GC, as in a trace without
 * recorded deaths.  With several dumps, dump k's objects are born after
 * GC k-1 and die at GC k+1, so the heap state at GC k is exactly dump k.
 */
#include "tm-config.h"
#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "tm-hprof.h"
#include "tm-hprof-private.h"
#include "tm-trace-builder.h"
#include "tm-trace-private.h"
#include "tm-error.h"
#include "tm-checked.h"

#define SPACE_HEAP 1
#define PARSE_SHARE 0.85      /* of a dump's progress; marking its graph the rest */
#define MARK_SHARE  0.9       /* of the rest: marking; then the model takes the result */

gboolean
tm_hprof_sniff (const guint8 *head, gsize len)
{
  static const char magic[] = "JAVA PROFILE 1.0";
  guint8 out[32];
  gsize n;

  g_return_val_if_fail (head != NULL || len == 0, FALSE);
  n = tm_heaptrack_inflate_head (head, len, out, sizeof out);
  return n >= sizeof magic - 1 && memcmp (out, magic, sizeof magic - 1) == 0;
}

/* ---- import ------------------------------------------------------------ */

typedef struct {
  TmTraceBuilder *b;
  GHashTable     *type_by_name;   /* char* -> global type id */
  GHashTable     *hierarchy_done; /* global type ids with their superclass set */
  GArray         *local_type;     /* guint32: this dump's type id -> global */
  guint32         next_type;
  guint64         base;           /* object ids of this dump start after it */
  GError         *error;          /* first builder failure */
  guint           dump, n_dumps;
  TmProgressFunc  progress;
  gpointer        progress_data;
  gboolean        over_budget;    /* reading stopped at the memory limit */
} Import;

static void
sink_type (gpointer user, guint32 local, const char *name, guint32 flags)
{
  Import *im = user;
  gpointer found = g_hash_table_lookup (im->type_by_name, name);
  guint32 global;

  if (found != NULL)
    global = GPOINTER_TO_UINT (found);
  else
    {
      global = im->next_type++;
      tm_trace_builder_type (im->b, global, name, flags, NULL);
      g_hash_table_insert (im->type_by_name, g_strdup (name), GUINT_TO_POINTER (global));
    }
  if (local >= im->local_type->len)
    g_array_set_size (im->local_type, local + 1);
  g_array_index (im->local_type, guint32, local) = global;
}

static guint32
global_type (Import *im, guint32 local)
{
  return local < im->local_type->len ? g_array_index (im->local_type, guint32, local) : 0;
}

static void
sink_hierarchy (gpointer user, guint32 local, guint32 super_local)
{
  Import *im = user;
  guint32 type = global_type (im, local), super = global_type (im, super_local);

  /* a type shared by several dumps gets its superclass once */
  if (type != 0 && super != 0 && type != super && g_hash_table_add (im->hierarchy_done, GUINT_TO_POINTER (type)))
    tm_trace_builder_type_hierarchy (im->b, type, super, 0, NULL, NULL);
}

static void
sink_objects (gpointer user, guint32 first, guint n, guint32 *type_ids, guint64 *sizes)
{
  Import *im = user;

  for (guint k = 0; k < n; k++)
    type_ids[k] = global_type (im, type_ids[k]);
  tm_trace_builder_alloc_run (im->b, im->base + first + 1, n, type_ids, sizes, im->error ? NULL : &im->error);
  g_free (type_ids);
  g_free (sizes);
}

static void
sink_thread (gpointer user, guint32 serial)
{
  Import *im = user;
  g_autofree char *name = g_strdup_printf ("thread %u", serial);

  /* the same serial in a later dump is the same thread */
  tm_trace_builder_thread (im->b, serial, name, NULL);
}

static gboolean
sink_over_budget (gpointer user, guint64 parser_bytes, guint64 *used, guint64 *room)
{
  Import *im = user;
  guint64 charged, left = tm_trace_builder_room (im->b, &charged);

  im->over_budget = tm_trace_builder_would_exceed (im->b, parser_bytes);
  *room = im->over_budget ? 0 : left - parser_bytes;
  *used = charged + parser_bytes;
  return im->over_budget;
}

static const HprofSink import_sink = { sink_type, sink_objects, sink_thread, sink_hierarchy, sink_over_budget };

static void
dump_progress (double fraction, gpointer user)
{
  Import *im = user;

  if (im->progress)
    im->progress ((im->dump + PARSE_SHARE * fraction) / im->n_dumps, im->progress_data);
}

/* marking: `fraction` of the dump's objects reached so far */
static void
mark_progress (double fraction, gpointer user)
{
  Import *im = user;

  im->progress ((im->dump + PARSE_SHARE + (1 - PARSE_SHARE) * MARK_SHARE * MIN (fraction, 1.0)) / im->n_dumps,
                im->progress_data);
}

typedef struct {
  const char *path;
  guint64     header_ms;
  guint       order;
} DumpFile;

static int
by_time (const void *a, const void *b)
{
  const DumpFile *x = a, *y = b;

  if (x->header_ms != y->header_ms)
    return x->header_ms < y->header_ms ? -1 : 1;
  return (int) x->order - (int) y->order;
}

/* The header's time stamp, without reading the dump. */
static gboolean
peek_time (const char *path, guint64 *ms, GError **error)
{
  TmHeaptrackSource *s = tm_heaptrack_source_open (path, error);
  guint8 head[64];
  gsize n = 0, z = 0;

  if (s == NULL)
    return FALSE;
  while (n < sizeof head)
    {
      gssize got = tm_heaptrack_source_read (s, head + n, sizeof head - n, NULL);
      if (got <= 0)
        break;
      n += (gsize) got;
    }
  tm_heaptrack_source_close (s);
  while (z < n && head[z] != 0)
    z++;
  if (n < 16 || memcmp (head, "JAVA PROFILE 1.0", 16) != 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: not an HPROF heap dump"), path);
      return FALSE;
    }
  if (z + 13 > n)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT,
                   "%s: damaged header: the HPROF header is cut short or malformed (byte offset %" G_GSIZE_FORMAT ")",
                   path, MIN (z, n));
      return FALSE;
    }
  *ms = ((guint64) head[z + 5] << 56) | ((guint64) head[z + 6] << 48) | ((guint64) head[z + 7] << 40)
        | ((guint64) head[z + 8] << 32) | ((guint64) head[z + 9] << 24) | ((guint64) head[z + 10] << 16)
        | ((guint64) head[z + 11] << 8) | head[z + 12];
  return TRUE;
}

static void
set_meta_u64 (TmTraceBuilder *b, const char *key, guint64 v)
{
  char num[32];

  g_snprintf (num, sizeof num, "%" G_GUINT64_FORMAT, v);
  tm_trace_builder_meta (b, key, num);
}

/* One dump's heap state: its GC, then its graph.  FALSE if cancelled. */
static gboolean
add_dump (Import *im, const char *path, const char *prefix, HprofResult *r, guint64 time_ns,
          GCancellable *cancellable)
{
  TmTraceBuilder *b = im->b;
  guint32 gc = im->dump + 1;
  TmSpaceUsageRecord usage = { SPACE_HEAP, r->total_bytes, r->total_bytes, r->total_bytes };
  g_autofree char *key = g_strdup_printf ("hprof.dump.%u", gc);
  g_autofree char *cause = g_path_get_basename (path);
  g_autofree guint32 *roots = g_new (guint32, MAX (r->roots->len, 1));
  g_autoptr(GError) local = NULL;

  for (guint i = 0; i < r->notes->len; i++)
    tm_trace_builder_warning (b, (guint64) (guintptr) g_ptr_array_index (r->note_offsets, i), "%s%s", prefix,
                              (const char *) g_ptr_array_index (r->notes, i));
  if (im->error != NULL && !g_error_matches (im->error, TM_ERROR, TM_ERROR_MEMORY_LIMIT))
    tm_trace_builder_warning (b, 0, "%s%s", prefix, im->error->message);
  g_clear_error (&im->error);

  tm_trace_builder_meta (b, key, path);
  tm_trace_builder_gc_start (b, gc, time_ns, TM_GC_KIND_MAJOR, "heap dump", cause, NULL);
  tm_trace_builder_gc_end (b, gc, time_ns, 0, 1, &usage, NULL);
  /* a dump cut at the memory limit has no graph: re-reading it would read
   * past the cut, the whole dump */
  if (im->over_budget)
    return TRUE;

  if (im->progress)
    im->progress ((im->dump + PARSE_SHARE) / im->n_dumps, im->progress_data);
  for (guint i = 0; i < r->roots->len; i++)
    roots[i] = g_array_index (r->roots, HprofRoot, i).object;
  if (!tm_trace_builder_graph_csr (b, gc, im->base + 1, r->n_objects, r->off.data, r->dst.data, roots, r->roots->len,
                                   cancellable, im->progress ? mark_progress : NULL, im, &local))
    return !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  if (im->progress)
    im->progress ((im->dump + 1.0) / im->n_dumps, im->progress_data);
  return TRUE;
}

TmTrace *
tm_hprof_import_many (const char * const *paths,
                      guint               n_paths,
                      const TmLoadOptions *options,
                      TmProgressFunc      progress,
                      gpointer            progress_data,
                      GCancellable       *cancellable,
                      GError            **error)
{
  g_autofree DumpFile *files = NULL;
  TmTraceBuilder *b;
  Import im = { 0 };
  TmTrace *trace;
  guint64 last_ns = 0, dangling = 0, dangling_roots = 0, unknown_layout = 0;

  g_return_val_if_fail (paths != NULL && n_paths > 0, NULL);

  files = g_new0 (DumpFile, n_paths);
  for (guint i = 0; i < n_paths; i++)
    {
      files[i].path = paths[i];
      files[i].order = i;
      if (!peek_time (paths[i], &files[i].header_ms, error))
        return NULL;
    }
  qsort (files, n_paths, sizeof *files, by_time);

  b = tm_trace_builder_new (files[0].path, "hprof");
  /* graphs are read again by each object's position in its dump */
  tm_trace_builder_keep_all_rows (b);
  tm_trace_builder_set_memory_limit (b, tm_load_options_memory_limit (options));
  im.b = b;
  im.type_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  im.local_type = g_array_new (FALSE, TRUE, sizeof (guint32));
  im.hierarchy_done = g_hash_table_new (NULL, NULL);
  im.next_type = 1;
  im.n_dumps = n_paths;
  im.progress = progress;
  im.progress_data = progress_data;
  tm_trace_builder_space (b, SPACE_HEAP, TM_SPACE_KIND_OTHER, "heap", NULL);

  for (guint k = 0; k < n_paths; k++)
    {
      HprofResult r;
      g_autoptr(GError) local = NULL;
      g_autofree char *prefix = k > 0 || n_paths > 1 ? g_strdup_printf ("%s: ", files[k].path) : g_strdup ("");
      guint64 time_ns;

      im.dump = k;
      g_array_set_size (im.local_type, 0);
      HprofPipe *pipe = hprof_pipe_new (&import_sink, &im);
      gboolean parsed = tm_hprof_parse (files[k].path, hprof_pipe_sink (), pipe, FALSE, dump_progress, &im,
                                        cancellable, &r, &local);

      /* the model is complete once its thread is done */
      hprof_pipe_free (pipe);
      if (!parsed)
        {
          if (k == 0 || g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              tm_trace_builder_free (b);
              b = NULL;
              break;
            }
          /* a later dump that cannot be read: the timeline ends before it */
          tm_trace_builder_warning (b, 0, "%s", local->message);
          tm_trace_builder_stopped (b, 0);
          break;
        }
      if (k == 0)
        {
          TmTraceHeader h = { 0 };
          h.version = 1;
          if (!g_uint64_checked_mul (&h.start_unix_ns, files[0].header_ms, G_GUINT64_CONSTANT (1000000)))
            {
              /* a damaged header: the dump's own time is still usable */
              tm_trace_builder_warning (b, 0, "%sthe header's time stamp (%" G_GUINT64_FORMAT " ms) is later than "
                                        "2^64 ns: the start time is left unknown", prefix, files[0].header_ms);
              h.start_unix_ns = 0;
            }
          h.vm_name = "Java (HPROF heap dump)";
          h.vm_version = r.version;
          h.command_line = "";
          h.pointer_size = r.id_size;
          h.flags = TM_TRACE_FLAG_GRAPHS;
          tm_trace_builder_header (b, &h);
          tm_trace_builder_meta (b, "hprof.version", r.version);
          set_meta_u64 (b, "hprof.id_size", r.id_size);
          tm_trace_builder_meta (b, "hprof.size_model", r.id_size == 8
                                 ? "64-bit VM with compressed oops: 12-byte object header, 16-byte array header, 4-byte references, 8-byte alignment"
                                 : "32-bit VM: 8-byte object header, 12-byte array header, 4-byte references, 8-byte alignment");
        }
      time_ns = tm_add_sat (tm_mul_sat (files[k].header_ms - files[0].header_ms, G_GUINT64_CONSTANT (1000000)),
                            (guint64) r.dump_time_us * 1000);
      time_ns = MAX (time_ns, last_ns);
      last_ns = time_ns;
      if (r.stopped && im.over_budget)
        {
          g_autofree char *where = g_strdup_printf ("%sbyte offset %" G_GUINT64_FORMAT, prefix, r.stop_offset);
          tm_trace_builder_stop_at_memory_limit (b, r.stop_offset, where);
          /* the dump's heap state holds the objects read before the cut */
          tm_trace_builder_close_past_limit (b);
        }
      if (!add_dump (&im, files[k].path, prefix, &r, time_ns, cancellable))
        {
          g_cancellable_set_error_if_cancelled (cancellable, error);
          tm_hprof_result_clear (&r);
          tm_trace_builder_free (b);
          b = NULL;
          break;
        }
      dangling += r.dangling_refs;
      dangling_roots += r.dangling_roots;
      unknown_layout += r.unknown_layout;
      if (!r.have_dump)
        tm_trace_builder_warning (b, 0, "%sthe file holds no heap dump", prefix);
      if (r.stopped && !im.over_budget)
        {
          tm_trace_builder_warning (b, r.stop_offset, "%sreading stopped at byte offset %" G_GUINT64_FORMAT ": %s%s",
                                    prefix, r.stop_offset, r.stop_reason,
                                    " (the objects before it are kept)");
          tm_trace_builder_stopped (b, r.stop_offset);
        }
      im.base += r.n_objects;
      tm_hprof_result_clear (&r);
      if (r.stopped && k + 1 < n_paths)
        break;
    }

  g_hash_table_unref (im.type_by_name);
  g_array_unref (im.local_type);
  g_hash_table_unref (im.hierarchy_done);
  g_clear_error (&im.error);
  if (b == NULL)
    return NULL;
  set_meta_u64 (b, "hprof.dangling_references", dangling);
  set_meta_u64 (b, "hprof.dangling_roots", dangling_roots);
  set_meta_u64 (b, "hprof.instances_without_layout", unknown_layout);
  set_meta_u64 (b, "hprof.dumps", n_paths);
  tm_trace_builder_end (b, im.base, 0, n_paths, last_ns);
  if (progress)
    progress (1.0, progress_data);
  trace = tm_trace_builder_finish (b);
#ifdef __GLIBC__
  /* what the parser and the model's thread freed, back to the system
   * rather than kept in their arenas beside the model */
  malloc_trim (0);
#endif
  return trace;
}

TmTrace *
tm_hprof_import (const char     *path,
                 TmProgressFunc  progress,
                 gpointer        progress_data,
                 GCancellable   *cancellable,
                 GError        **error)
{
  return tm_hprof_import_full (path, NULL, progress, progress_data, cancellable, error);
}

TmTrace *
tm_hprof_import_full (const char          *path,
                      const TmLoadOptions *options,
                      TmProgressFunc       progress,
                      gpointer             progress_data,
                      GCancellable        *cancellable,
                      GError             **error)
{
  const char *paths[] = { path };

  return tm_hprof_import_many (paths, 1, options, progress, progress_data, cancellable, error);
}

/* ---- the graph, read again -------------------------------------------- */

/* Node numbers of a dump's objects by rank: a bit per object and a count
 * per 64 (0.19 bytes per object, where a table took 4). */
typedef struct {
  guint64 *bits;
  guint32 *rank;      /* nodes before each word */
  guint32  first;     /* node of the dump's first live object */
} NodeRank;

static inline gboolean
node_rank (const NodeRank *nr, guint32 o, guint32 *node)
{
  guint64 word = nr->bits[o >> 6], below = word & ((G_GUINT64_CONSTANT (1) << (o & 63)) - 1);

  if (!((word >> (o & 63)) & 1))
    return FALSE;
  *node = nr->first + nr->rank[o >> 6] + (guint32) tm_popcount64 (below);
  return TRUE;
}

/* tm_trace_live_objects' test, for objects before the GC's allocations */
static inline gboolean
alive_after (const TmTrace *trace, guint64 i, guint32 gc_id)
{
  return trace->obj_death[i] == TM_ALIVE || trace->obj_death[i] > gc_id;
}

TmHeapGraph *
tm_hprof_graph_read (TmTrace *trace, guint32 gc_id, GCancellable *cancellable, GError **error)
{
  g_autofree char *key = g_strdup_printf ("hprof.dump.%u", gc_id);
  const char *path = g_hash_table_lookup (trace->meta, key);
  const TmGc *gc = tm_trace_gc (trace, gc_id);
  guint64 base = gc_id > 1 ? tm_trace_gc (trace, gc_id - 1)->allocs_before : 0;
  guint64 count = gc->allocs_before - base;
  g_autoptr(GHashTable) thread_index = g_hash_table_new (NULL, NULL);
  NodeRank nr = { 0 };
  guint32 n_live = 0, words, *dst, *lab32, *off, n_here = 0;
  guint64 dropped = 0, m = 0;
  HprofResult r;
  TmHeapGraph *g;

  if (path == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, _("GC %u names no heap dump file"), gc_id);
      return NULL;
    }
  if (!tm_hprof_parse (path, NULL, NULL, TRUE, NULL, NULL, cancellable, &r, error))
    return NULL;
  if (r.n_objects != count)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT,
                   "%s: the dump now lists %u objects, it had %" G_GUINT64_FORMAT " when it was opened (was it changed?)",
                   path, r.n_objects, count);
      tm_hprof_result_clear (&r);
      return NULL;
    }

  /* nodes: the objects of the heap state (as tm_trace_live_objects
   * lists them), by rank within the dump's; the list itself comes last,
   * once the edge labels have shrunk */
  words = (guint32) (count / 64 + 1);
  nr.bits = g_new0 (guint64, words);
  nr.rank = g_new (guint32, words);
  for (guint64 i = 0; i < gc->allocs_before; i++)
    if (alive_after (trace, i, gc_id))
      {
        if (i < base)
          nr.first++;
        else
          tm_bitmap_set (nr.bits, i - base);
        n_live++;
      }
  for (guint32 w = 0, before = 0; w < words; w++)
    {
      nr.rank[w] = before;
      before += (guint32) tm_popcount64 (nr.bits[w]);
    }

  /* edges between nodes, compacted in place in the dump's order; each
   * node's end goes into off[] (node k of this dump at off[k + 1], never
   * past the object it comes from), which then becomes the graph's
   * edge_start in place (the parser keeps under 2^32 edges); labels to
   * their 16-bit codes, also in place (code m below label e's bytes) */
  g = g_new0 (TmHeapGraph, 1);
  g->gc_id = gc_id;
  g->n_nodes = n_live;
  off = r.off.data;
  dst = r.dst.data;
  lab32 = r.label.data;
  for (guint32 o = 0, e0 = 0; o < count; o++)
    {
      guint32 a, d, e1 = off[o + 1];
      gint64 prev = -1;
      if (!node_rank (&nr, o, &a))
        {
          dropped += e1 - e0;
          e0 = e1;
          continue;
        }
      for (guint32 e = e0; e < e1; e++)
        {
          if (!node_rank (&nr, dst[e], &d))
            {
              dropped++;
              continue;
            }
          guint16 code = tm_heap_graph_edge_code (g, m, lab32[e], &prev);
          dst[m] = d;
          memcpy ((guint8 *) lab32 + 2 * (gsize) m++, &code, sizeof code);
        }
      e0 = e1;
      n_here = a - nr.first + 1;
      off[n_here] = (guint32) m;
    }
  off[0] = 0;
  /* top down: node v's start is entry v - first of this dump's */
  g->edge_start = g_renew (guint32, g_steal_pointer (&r.off.data), (gsize) n_live + 1);
  off = g->edge_start;
  for (gint64 v = n_live; v >= 0; v--)
    off[v] = v <= nr.first ? 0 : v <= (gint64) nr.first + n_here ? off[v - nr.first] : (guint32) m;
  memset (&r.off, 0, sizeof r.off);
  g->n_edges = m;
  g->edges = g_renew (guint32, g_steal_pointer (&r.dst.data), MAX (m, 1));
  g->edge_label = g_renew (guint16, (guint16 *) (gpointer) g_steal_pointer (&r.label.data), MAX (m, 1));
  memset (&r.dst, 0, sizeof r.dst);
  memset (&r.label, 0, sizeof r.label);

  for (guint i = 1; i < trace->threads->len; i++)
    g_hash_table_insert (thread_index, GUINT_TO_POINTER ((guint) g_array_index (trace->threads, TmThread, i).id),
                         GUINT_TO_POINTER (i));
  g->root_node = g_new (guint32, MAX (r.roots->len, 1));
  g->root_kind = g_new (guint8, MAX (r.roots->len, 1));
  g->root_thread = g_new0 (guint32, MAX (r.roots->len, 1));
  g->root_label = g_new0 (guint32, MAX (r.roots->len, 1));
  for (guint i = 0; i < r.roots->len; i++)
    {
      const HprofRoot *hr = &g_array_index (r.roots, HprofRoot, i);
      guint32 v;
      if (!node_rank (&nr, hr->object, &v))
        {
          dropped++;
          continue;
        }
      g->root_node[g->n_roots] = v;
      g->root_kind[g->n_roots] = hr->kind;
      g->root_thread[g->n_roots] = GPOINTER_TO_UINT (g_hash_table_lookup (thread_index, GUINT_TO_POINTER (hr->thread)));
      g->root_label[g->n_roots] = hr->label;
      g->n_roots++;
    }
  g->labels = g_steal_pointer (&r.labels);
  g->dropped_edges = dropped;
  g_free (nr.bits);
  g_free (nr.rank);
  tm_hprof_result_clear (&r);

  /* last, at its size: the objects of the heap state, as
   * tm_trace_live_objects lists them */
  g->node_object = g_new (guint32, MAX (n_live, 1));
  for (guint64 i = 0, k = 0; i < gc->allocs_before; i++)
    if (alive_after (trace, i, gc_id))
      g->node_object[k++] = (guint32) i;
  return g;
}
