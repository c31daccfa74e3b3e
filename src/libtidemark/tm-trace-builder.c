/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds the TmTrace model in one pass over the events.  The rules of
 * trace format v1 are enforced here, so every source (file loader,
 * importers, tests) gets the same checks.
 */
#include "tm-trace-builder.h"
#include "tm-trace-private.h"
#include "tm-id-map.h"
#include "tm-heap-graph.h"
#include "tm-trace-mark.h"
#include "tm-vec.h"
#include "tm-error.h"
#include "tm-format-util.h"
#include "tm-load-options.h"
#include "tm-checked.h"
#include "tm-timeline-model.h"

#include <string.h>

#define MAX_WARNINGS 200
/* All object sizes together stay below 2^63, so that no sum an analysis
 * makes over a subset of them can wrap. */
#define MAX_TOTAL_BYTES ((guint64) G_MAXINT64)

struct _TmTraceBuilder {
  TmTrace  *trace;
  TmIdMap   spaces, types, frames, sites, threads, tx_kinds;

  guint64   capacity;         /* of the object arrays */
  guint64   last_id;
  gboolean  ids_ascending;
  guint64   death_hint;

  guint32   gcs_started;      /* id of the last GC_START */
  TmFoldKind *fold_kinds;     /* tm_trace_builder_alloc_interval()'s kinds, resolved */
  guint32   n_fold_kinds;
  guint32   next_fold;        /* first birth interval whose short-lived objects are still rows */
  gboolean  keep_rows;        /* no folding: the source finds objects by position */
  GArray   *bytes_before;     /* guint64 per GC: bytes allocated before its GC_START */
  gboolean  gc_open;          /* between GC_START and GC_END */
  guint64   now_ns;

  /* deaths per GC id (index = GC id; slot 0 unused) */
  GArray   *deaths_at;        /* guint64 */
  GArray   *death_bytes_at;   /* guint64 */
  guint64   death_count;

  /* graph being read */
  gboolean  in_graph;
  guint32   graph_gc;
  TmVecU32  g_src;            /* object index per REFS record */
  TmVecU64  g_start;          /* offset into g_dst, per REFS record */
  TmVecU32  g_dst;            /* object indices */
  GArray   *g_roots;          /* guint32 object index */
  guint64   g_dropped;
  guint32  *src_map;          /* object index -> REFS record + 1, while marking */
  guint64   src_map_len;
  /* the last graph, marked on a thread of its own while reading goes on
   * (its buffers above stay untouched until joined) */
  TmTraceMark mark;
  guint32   marking_gc;       /* 0: none */

  /* memory budget: what the model takes so far, by estimate (the object
   * arrays by capacity, strings, definitions, GCs; a graph being read by
   * its buffers' capacity) */
  guint64   limit;
  guint64   charged;
  gboolean  over_limit;
  GArray   *hierarchy;        /* PendingHierarchy, resolved at finish */

  /* streaming: the charts of the settled GCs, now and then */
  TmPartialTimelineFunc partial;
  gpointer  partial_data;
  gint64    partial_at_us;    /* when the last one went out; 0: none yet */

  guint64   n_warnings;
  TmWarning last_dropped;     /* the newest warning past MAX_WARNINGS */
  gboolean  damaged;
  gboolean  stopped;
  guint64   end_allocs, end_deaths, end_gcs, end_time;
  gboolean  has_popcnt;       /* the CPU counts bits in one instruction */
};

typedef struct {
  guint32  type;              /* type index */
  guint64  super_id;
  guint    n;
  guint64 *interface_ids;
} PendingHierarchy;

static void join_marking (TmTraceBuilder *b);

static void
clear_pending_hierarchy (gpointer p)
{
  g_free (((PendingHierarchy *) p)->interface_ids);
}

static gboolean
fail (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  if (error != NULL)
    *error = g_error_new_valist (TM_ERROR, TM_ERROR_FORMAT, format, args);
  va_end (args);
  return FALSE;
}

static gboolean
fail_limit (TmTraceBuilder *b, GError **error)
{
  g_autofree char *limit = tm_format_bytes ((double) b->limit);

  b->over_limit = TRUE;
  if (error != NULL && *error == NULL)
    *error = g_error_new (TM_ERROR, TM_ERROR_MEMORY_LIMIT, "the model would grow past the memory limit of %s", limit);
  return FALSE;
}

/* Accounts `bytes` more of model; FALSE (and over_limit) when that would
 * pass the budget. */
static inline gboolean
charge (TmTraceBuilder *b, guint64 bytes, GError **error)
{
  if (G_UNLIKELY (b->over_limit || b->charged > b->limit || bytes > b->limit - b->charged))
    return fail_limit (b, error);
  b->charged += bytes;
  return TRUE;
}

/* A string of the trace's pool, accounted. */
static const char *
intern (TmTraceBuilder *b, const char *s)
{
  gsize added;
  const char *copy = tm_trace_intern (b->trace, s, &added);

  b->charged += added;     /* checked by the caller's next charge() */
  return copy;
}

TmTraceBuilder *
tm_trace_builder_new (const char *path, const char *format)
{
  TmTraceBuilder *b = g_new0 (TmTraceBuilder, 1);
  guint64 zero = 0;

  b->trace = tm_trace_new (path, format);
  b->trace->format_version = 1;
  b->trace->pointer_size = 8;
  tm_id_map_init (&b->spaces);
  tm_id_map_init (&b->types);
  tm_id_map_init (&b->frames);
  tm_id_map_init (&b->sites);
  tm_id_map_init (&b->threads);
  tm_id_map_init (&b->tx_kinds);
  /* id 0 is "unknown" in every table */
  tm_id_map_insert (&b->spaces, 0, 0);
  tm_id_map_insert (&b->types, 0, 0);
  tm_id_map_insert (&b->frames, 0, 0);
  tm_id_map_insert (&b->sites, 0, 0);
  tm_id_map_insert (&b->threads, 0, 0);
  tm_id_map_insert (&b->tx_kinds, 0, 0);
  b->ids_ascending = TRUE;
  b->deaths_at = g_array_new (FALSE, TRUE, sizeof (guint64));
  b->bytes_before = g_array_new (FALSE, TRUE, sizeof (guint64));
  b->death_bytes_at = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_array_append_val (b->deaths_at, zero);
  g_array_append_val (b->death_bytes_at, zero);
  b->g_roots = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->limit = tm_memory_limit_default ();
  b->trace->memory_limit = b->limit;
  b->hierarchy = g_array_new (FALSE, FALSE, sizeof (PendingHierarchy));
  g_array_set_clear_func (b->hierarchy, clear_pending_hierarchy);
#if defined(__x86_64__) && defined(__GNUC__)
  b->has_popcnt = __builtin_cpu_supports ("popcnt");
#endif
  return b;
}

gboolean
tm_trace_builder_charge (TmTraceBuilder *b, guint64 bytes, GError **error)
{
  return charge (b, bytes, error);
}

void
tm_trace_builder_set_memory_limit (TmTraceBuilder *b, guint64 bytes)
{
  b->limit = bytes != 0 ? bytes : tm_memory_limit_default ();
  b->trace->memory_limit = b->limit;
}

gboolean
tm_trace_builder_over_memory_limit (TmTraceBuilder *b)
{
  return b->over_limit || b->charged > b->limit;
}

gboolean
tm_trace_builder_would_exceed (TmTraceBuilder *b, guint64 extra)
{
  return b->over_limit || b->charged > b->limit || extra > b->limit - b->charged;
}

guint64
tm_trace_builder_room (TmTraceBuilder *b, guint64 *charged)
{
  *charged = b->charged;
  return b->over_limit || b->charged > b->limit ? 0 : b->limit - b->charged;
}

void
tm_trace_builder_close_past_limit (TmTraceBuilder *b)
{
  g_return_if_fail (b->trace->memory_limited);   /* stop_at_memory_limit first */
  b->over_limit = FALSE;
  b->limit = G_MAXUINT64;
}

const char *
tm_trace_builder_intern (TmTraceBuilder *b, const char *s)
{
  return intern (b, s ? s : "");
}

void
tm_trace_builder_stop_at_memory_limit (TmTraceBuilder *b, guint64 offset, const char *where)
{
  g_autofree char *limit = tm_format_bytes ((double) b->limit);

  if (b->trace->memory_limited)
    return;
  b->over_limit = TRUE;
  tm_trace_builder_warning (b, offset,
                            "loading stopped at %s: the model reached the memory limit of %s; what came before is "
                            "shown, up to the last complete GC (raise the limit with --memory-limit SIZE, or in "
                            "Preferences)", where, limit);
  tm_trace_builder_stopped (b, offset);
  b->trace->memory_limited = TRUE;
}

void
tm_trace_builder_free (TmTraceBuilder *b)
{
  if (b == NULL)
    return;
  tm_trace_mark_join (&b->mark);
  g_free (b->mark.bits);
  g_clear_pointer (&b->trace, tm_trace_unref);
  tm_id_map_clear (&b->spaces);
  tm_id_map_clear (&b->types);
  tm_id_map_clear (&b->frames);
  tm_id_map_clear (&b->sites);
  tm_id_map_clear (&b->threads);
  tm_id_map_clear (&b->tx_kinds);
  g_array_unref (b->deaths_at);
  g_array_unref (b->bytes_before);
  g_array_unref (b->death_bytes_at);
  tm_vec_u32_clear (&b->g_src);
  tm_vec_u64_clear (&b->g_start);
  tm_vec_u32_clear (&b->g_dst);
  g_array_unref (b->g_roots);
  g_array_unref (b->hierarchy);
  g_free (b->src_map);
  g_free (b->fold_kinds);
  g_free (b->last_dropped.message);
  g_free (b);
}

void
tm_trace_builder_warning (TmTraceBuilder *b, guint64 offset, const char *format, ...)
{
  TmWarning w;
  va_list args;
  g_autofree char *msg = NULL;

  b->damaged = TRUE;
  b->n_warnings++;
  b->trace->n_warnings_total = b->n_warnings;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  /* messages passed on from readers name the file already */
  if (b->trace->path != NULL && g_str_has_prefix (msg, b->trace->path)
      && g_str_has_prefix (msg + strlen (b->trace->path), ": "))
    memmove (msg, msg + strlen (b->trace->path) + 2, strlen (msg + strlen (b->trace->path) + 2) + 1);
  w.offset = offset;
  w.message = g_strdup_printf ("%s: %s", b->trace->path ? b->trace->path : "(memory)", msg);
  if (b->trace->warnings->len >= MAX_WARNINGS)
    {
      /* kept aside: if reading stops now, it says where and why */
      g_free (b->last_dropped.message);
      b->last_dropped = w;
      return;
    }
  g_array_append_val (b->trace->warnings, w);
}

void
tm_trace_builder_set_path (TmTraceBuilder *b, const char *path)
{
  g_free (b->trace->path);
  b->trace->path = g_strdup (path);
}

void
tm_trace_builder_stopped (TmTraceBuilder *b, guint64 offset)
{
  if (!b->stopped)
    {
      if (b->last_dropped.message != NULL)
        {
          g_array_append_val (b->trace->warnings, b->last_dropped);
          b->last_dropped.message = NULL;
        }
      b->stopped = TRUE;
      b->trace->stopped = TRUE;
      b->trace->stop_offset = offset;
    }
}

void
tm_trace_builder_header (TmTraceBuilder *b, const TmTraceHeader *h)
{
  TmTrace *t = b->trace;

  b->charged += strlen (h->vm_name ? h->vm_name : "") + strlen (h->vm_version ? h->vm_version : "")
                + strlen (h->command_line ? h->command_line : "");
  t->format_version = h->version;
  t->start_unix_ns = h->start_unix_ns;
  g_free (t->vm_name);
  t->vm_name = g_strdup (h->vm_name ? h->vm_name : "");
  g_free (t->vm_version);
  t->vm_version = g_strdup (h->vm_version ? h->vm_version : "");
  g_free (t->command_line);
  t->command_line = g_strdup (h->command_line ? h->command_line : "");
  t->pointer_size = h->pointer_size;
  t->alloc_sample_bytes = h->alloc_sample_bytes;
  t->flags = h->flags;
}

/* Defines or redefines an entry of a table. */
static void
define (TmIdMap *map, GArray *table, guint64 id, gconstpointer entry)
{
  guint32 index;

  if (tm_id_map_lookup (map, id, &index) && id != 0)
    {
      /* Redefinition (rare): replace in place so that earlier references
       * follow; removing frees the old entry through the table's clear func. */
      g_array_remove_index (table, index);
      g_array_insert_vals (table, index, entry, 1);
      return;
    }
  index = table->len;
  g_array_append_vals (table, entry, 1);
  tm_id_map_insert (map, id, index);
}

/* Any id >= 1 is valid (the format sets no upper bound): large ones go
 * to the id map's hash, at the cost of its entry. */
static gboolean
check_def_id (guint64 id, const char *what, GError **error)
{
  if (id == 0)
    return fail (error, "%s id 0 is reserved for \"unknown\"", what);
  return TRUE;
}

gboolean
tm_trace_builder_space (TmTraceBuilder *b, guint64 id, guint kind, const char *name, GError **error)
{
  TmSpace s;

  if (!check_def_id (id, "space", error))
    return FALSE;
  if (b->trace->spaces->len >= 255)
    return fail (error, "too many spaces (at most 254)");
  if (!charge (b, sizeof s + strlen (name) + 1, error))
    return FALSE;
  s.id = id;
  s.kind = kind <= TM_SPACE_KIND_NON_HEAP ? (TmSpaceKind) kind : TM_SPACE_KIND_OTHER;
  s.name = g_strdup (name);
  define (&b->spaces, b->trace->spaces, id, &s);
  return TRUE;
}

gboolean
tm_trace_builder_type (TmTraceBuilder *b, guint64 id, const char *name, guint32 flags, GError **error)
{
  TmType ty;

  if (!check_def_id (id, "type", error) || !charge (b, sizeof ty + strlen (name) + 1, error))
    return FALSE;
  ty.id = id;
  ty.name = g_strdup (name);
  ty.flags = flags;
  ty.super = TM_UNKNOWN;
  ty.n_interfaces = 0;
  ty.interfaces = NULL;
  define (&b->types, b->trace->types, id, &ty);
  return TRUE;
}

gboolean
tm_trace_builder_type_hierarchy (TmTraceBuilder *b, guint64 id, guint64 super_id, guint n_interfaces,
                                 const guint64 *interface_ids, GError **error)
{
  PendingHierarchy h;

  if (!tm_id_map_lookup (&b->types, id, &h.type) || id == 0)
    return fail (error, "hierarchy of undefined type %" G_GUINT64_FORMAT, id);
  if (super_id == id)
    return fail (error, "type %" G_GUINT64_FORMAT " is its own superclass", id);
  if (!charge (b, sizeof h + (guint64) n_interfaces * (sizeof (guint64) + sizeof (guint32)), error))
    return FALSE;
  h.super_id = super_id;
  h.n = n_interfaces;
  h.interface_ids = n_interfaces ? g_memdup2 (interface_ids, n_interfaces * sizeof (guint64)) : NULL;
  g_array_append_val (b->hierarchy, h);
  return TRUE;
}

/* Type ids -> indices, now that every TYPE has been read. */
static void
resolve_hierarchy (TmTraceBuilder *b)
{
  guint unresolved = 0;
  guint64 example = 0;

  for (guint i = 0; i < b->hierarchy->len; i++)
    {
      PendingHierarchy *h = &g_array_index (b->hierarchy, PendingHierarchy, i);
      TmType *t = &g_array_index (b->trace->types, TmType, h->type);
      guint32 index;

      t->super = TM_UNKNOWN;
      if (h->super_id != 0)
        {
          if (tm_id_map_lookup (&b->types, h->super_id, &index) && index != h->type)
            t->super = index;
          else
            unresolved++, example = h->super_id;
        }
      g_clear_pointer (&t->interfaces, g_free);
      t->n_interfaces = 0;
      if (h->n > 0)
        t->interfaces = g_new (guint32, h->n);
      for (guint k = 0; k < h->n; k++)
        {
          if (tm_id_map_lookup (&b->types, h->interface_ids[k], &index) && index != h->type && index != 0)
            t->interfaces[t->n_interfaces++] = index;
          else
            unresolved++, example = h->interface_ids[k];
        }
    }
  if (unresolved > 0)
    tm_trace_builder_warning (b, 0, "%u superclass or interface references name undefined types (e.g. type %" G_GUINT64_FORMAT ")",
                              unresolved, example);
}

gboolean
tm_trace_builder_frame (TmTraceBuilder *b, guint64 id, const char *method, const char *file, gint64 line,
                        GError **error)
{
  TmFrame f;

  if (!check_def_id (id, "frame", error)
      || !charge (b, sizeof f + strlen (method) + strlen (file ? file : "") + 2, error))
    return FALSE;
  f.id = id;
  f.method = g_strdup (method);
  f.file = g_strdup (file ? file : "");
  f.line = (line < -1 || line > G_MAXINT32) ? -1 : (gint32) line;
  define (&b->frames, b->trace->frames, id, &f);
  return TRUE;
}

gboolean
tm_trace_builder_site (TmTraceBuilder *b, guint64 id, guint32 depth, const guint64 *frame_ids, GError **error)
{
  TmSite s;

  if (!check_def_id (id, "site", error) || !charge (b, sizeof s + (guint64) MAX (depth, 1) * sizeof (guint32), error))
    return FALSE;
  s.id = id;
  s.depth = depth;
  s.frames = g_new (guint32, MAX (depth, 1));
  for (guint32 i = 0; i < depth; i++)
    {
      if (!tm_id_map_lookup (&b->frames, frame_ids[i], &s.frames[i]))
        {
          g_free (s.frames);
          return fail (error, "site %" G_GUINT64_FORMAT " uses undefined frame %" G_GUINT64_FORMAT,
                       id, frame_ids[i]);
        }
    }
  define (&b->sites, b->trace->sites, id, &s);
  return TRUE;
}

gboolean
tm_trace_builder_thread (TmTraceBuilder *b, guint64 id, const char *name, GError **error)
{
  TmThread th;

  if (!check_def_id (id, "thread", error) || !charge (b, sizeof th + strlen (name) + 1, error))
    return FALSE;
  th.id = id;
  th.name = g_strdup (name);
  define (&b->threads, b->trace->threads, id, &th);
  return TRUE;
}

void
tm_trace_builder_meta (TmTraceBuilder *b, const char *key, const char *value)
{
  /* over the limit, the next growing event stops the load */
  b->charged += strlen (key) + strlen (value) + 2 + 4 * sizeof (gpointer);
  g_hash_table_replace (b->trace->meta, g_strdup (key), g_strdup (value));
  if (g_strcmp0 (key, "dropped_events") == 0)
    b->trace->dropped_events = g_ascii_strtoull (value, NULL, 10);
}

static gsize
bytes_per_object (const TmTrace *t)
{
  return 5 * sizeof (guint32) + ((t->flags & TM_TRACE_FLAG_OBJECT_SPACE) ? 1 : 0)
         + (t->obj_ids ? sizeof (guint64) : 0);
}

static void
grow_objects (TmTraceBuilder *b)
{
  TmTrace *t = b->trace;
  guint64 cap = b->capacity ? b->capacity + b->capacity / 2 : 4096;

  t->obj_type = g_renew (guint32, t->obj_type, cap);
  /* kept rows (no fold reads them) start without site and thread
   * columns while every object has site and thread 0, as in heap dumps,
   * and without deaths while none is known (TM_ALIVE is 0): they come
   * as zeroed fresh memory when first needed, which stays the kernel's
   * zero page where nothing writes and takes no memory */
  if (t->obj_site != NULL || !b->keep_rows)
    {
      t->obj_site = g_renew (guint32, t->obj_site, cap);
      t->obj_thread = g_renew (guint32, t->obj_thread, cap);
    }
  t->obj_size = g_renew (guint32, t->obj_size, cap);
  if (t->obj_death != NULL || !b->keep_rows)
    t->obj_death = g_renew (guint32, t->obj_death, cap);
  if (t->flags & TM_TRACE_FLAG_OBJECT_SPACE)
    t->obj_space = g_renew (guint8, t->obj_space, cap);
  if (t->obj_ids)
    t->obj_ids = g_renew (guint64, t->obj_ids, cap);
  b->capacity = cap;
}

/* The first site or thread that is not 0 (or a bulk run) brings the
 * columns, zeros so far. */
static void
materialize_site_thread (TmTraceBuilder *b)
{
  TmTrace *t = b->trace;

  if (t->obj_site != NULL)
    return;
  t->obj_site = g_new0 (guint32, MAX (b->capacity, 1));
  t->obj_thread = g_new0 (guint32, MAX (b->capacity, 1));
}

/* The first death (or a bulk run) brings the column, TM_ALIVE so far. */
static void
materialize_death (TmTraceBuilder *b)
{
  TmTrace *t = b->trace;

  G_STATIC_ASSERT (TM_ALIVE == 0);
  if (t->obj_death == NULL)
    t->obj_death = g_new0 (guint32, MAX (b->capacity, 1));
}

static inline void
set_site_thread (TmTraceBuilder *b, guint64 i, guint32 site, guint32 thread)
{
  TmTrace *t = b->trace;

  if (G_UNLIKELY (t->obj_site == NULL))
    {
      if (site == 0 && thread == 0)
        return;
      materialize_site_thread (b);
    }
  t->obj_site[i] = site;
  t->obj_thread[i] = thread;
}

/* Ids stop being dense: keep them explicitly from now on. */
static gboolean
materialize_ids (TmTraceBuilder *b, GError **error)
{
  TmTrace *t = b->trace;

  if (!charge (b, MAX (b->capacity, 1) * sizeof (guint64), error))
    return FALSE;
  t->obj_ids = g_new (guint64, MAX (b->capacity, 1));
  for (guint64 i = 0; i < t->n_objects; i++)
    t->obj_ids[i] = t->first_id + tm_trace_object_seq (t, i);
  return TRUE;
}

/* Ids stop being ascending: index them by hash (slow path, rare). */
static void
build_id_index (TmTraceBuilder *b)
{
  TmTrace *t = b->trace;

  t->id_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, NULL);
  for (guint64 i = 0; i < t->n_objects; i++)
    g_hash_table_insert (t->id_index, &t->obj_ids[i], GSIZE_TO_POINTER (i + 1));
}

static void
rebuild_id_index (TmTraceBuilder *b)
{
  /* obj_ids may have moved on realloc: the keys point into it. */
  g_hash_table_unref (b->trace->id_index);
  build_id_index (b);
}

gboolean
tm_trace_builder_alloc (TmTraceBuilder *b, guint64 object_id, guint64 type_id, guint64 site_id,
                        guint64 thread_id, guint64 size, guint64 space_id, guint64 array_length,
                        GError **error)
{
  TmTrace *t = b->trace;
  guint32 type, site, thread, space = 0;
  guint64 i = t->n_objects;
  guint64 seq = t->total_allocs;   /* short-lived objects have no row but a number */

  if (G_UNLIKELY (!tm_id_map_lookup (&b->types, type_id, &type)))
    return fail (error, "ALLOC of object %" G_GUINT64_FORMAT " uses undefined type %" G_GUINT64_FORMAT,
                 object_id, type_id);
  if (G_UNLIKELY (!tm_id_map_lookup (&b->sites, site_id, &site)))
    return fail (error, "ALLOC of object %" G_GUINT64_FORMAT " uses undefined site %" G_GUINT64_FORMAT,
                 object_id, site_id);
  if (G_UNLIKELY (!tm_id_map_lookup (&b->threads, thread_id, &thread)))
    return fail (error, "ALLOC of object %" G_GUINT64_FORMAT " uses undefined thread %" G_GUINT64_FORMAT,
                 object_id, thread_id);
  if (space_id != 0 && G_UNLIKELY (!tm_id_map_lookup (&b->spaces, space_id, &space)))
    return fail (error, "ALLOC of object %" G_GUINT64_FORMAT " uses undefined space %" G_GUINT64_FORMAT,
                 object_id, space_id);
  if (G_UNLIKELY (seq >= G_MAXUINT32 - 1))
    return fail (error, "more than 2^32 objects: the rest of the trace is not modelled");
  if (G_UNLIKELY (size > MAX_TOTAL_BYTES - t->total_alloc_bytes))
    return fail (error, "ALLOC of object %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes takes the allocated bytes past 2^63",
                 object_id, size);

  /* Object ids: dense (id = first + seq), ascending, or arbitrary. */
  if (G_UNLIKELY (seq == 0))
    {
      t->first_id = object_id;
    }
  else if (t->obj_ids == NULL)
    {
      if (G_UNLIKELY (object_id != t->first_id + seq))
        {
          if (object_id >= t->first_id && object_id < t->first_id + seq)
            return fail (error, "object id %" G_GUINT64_FORMAT " allocated twice", object_id);
          if (!materialize_ids (b, error))
            return FALSE;
        }
    }
  if (t->obj_ids != NULL && b->ids_ascending && object_id <= b->last_id)
    {
      guint64 dup;
      if (tm_trace_object_index_for_id (t, object_id, &dup))
        return fail (error, "object id %" G_GUINT64_FORMAT " allocated twice", object_id);
      /* the index: ~48 bytes per object */
      if (!charge (b, t->n_objects * 48, error))
        return FALSE;
      b->ids_ascending = FALSE;
      build_id_index (b);
    }
  else if (t->id_index != NULL && g_hash_table_contains (t->id_index, &object_id))
    {
      return fail (error, "object id %" G_GUINT64_FORMAT " allocated twice", object_id);
    }

  if (G_UNLIKELY (i >= b->capacity))
    {
      guint64 *old_ids = t->obj_ids;
      guint64 more = b->capacity ? b->capacity / 2 : 4096;
      if (!charge (b, more * bytes_per_object (t), error))
        return FALSE;
      grow_objects (b);
      if (t->id_index != NULL && t->obj_ids != old_ids)
        rebuild_id_index (b);
    }

  t->obj_type[i] = type;
  set_site_thread (b, i, site, thread);
  if (t->obj_death != NULL)
    t->obj_death[i] = TM_ALIVE;
  if (G_UNLIKELY (t->id_index != NULL) && !charge (b, 48, error))
    return FALSE;
  if (G_LIKELY (size < TM_SIZE_OVERFLOW))
    t->obj_size[i] = (guint32) size;
  else if (!charge (b, 64, error))
    return FALSE;
  else
    {
      guint64 *key = g_new (guint64, 2);
      t->obj_size[i] = TM_SIZE_OVERFLOW;
      if (t->size_overflow == NULL)
        t->size_overflow = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      key[0] = i;
      key[1] = size;
      g_hash_table_insert (t->size_overflow, key, &key[1]);
    }
  if (t->obj_space != NULL)
    t->obj_space[i] = (guint8) space;
  if (t->obj_ids != NULL)
    {
      t->obj_ids[i] = object_id;
      if (t->id_index != NULL)
        g_hash_table_insert (t->id_index, &t->obj_ids[i], GSIZE_TO_POINTER (i + 1));
    }
  b->last_id = MAX (b->last_id, object_id);
  t->n_objects = i + 1;
  t->total_allocs++;
  t->total_alloc_bytes += size;   /* checked above */
  (void) array_length;
  return TRUE;
}

gboolean
tm_trace_builder_alloc_run (TmTraceBuilder *b, guint64 first_object_id, gsize n, const guint32 *type_ids,
                            const guint64 *sizes, GError **error)
{
  TmTrace *t = b->trace;
  gboolean ok = TRUE;
  gsize k = 0;

  while (k < n)
    {
      /* a stretch of the common case, checked once for the stretch: ids
       * going on densely, room in the columns; per object only its type
       * (looked up when it changes) and its size */
      if (t->total_allocs > 0 && t->obj_ids == NULL && first_object_id + k == t->first_id + t->total_allocs
          && t->total_allocs < G_MAXUINT32 - 2 && t->n_objects < b->capacity)
        {
          guint64 i0 = t->n_objects, bytes = t->total_alloc_bytes;
          gsize room = (gsize) MIN ((guint64) (n - k), MIN (b->capacity - i0, G_MAXUINT32 - 2 - t->total_allocs));
          guint32 *col_type = t->obj_type, *col_size = t->obj_size, cached_id = 0, type = 0;
          gboolean have_type = FALSE;
          gsize m;

          for (m = 0; m < room; m++)
            {
              guint64 size = sizes[k + m];
              if (G_UNLIKELY (!have_type || type_ids[k + m] != cached_id))
                {
                  cached_id = type_ids[k + m];
                  if (!(have_type = tm_id_map_lookup (&b->types, cached_id, &type)))
                    break;
                }
              if (G_UNLIKELY (size >= TM_SIZE_OVERFLOW || size > MAX_TOTAL_BYTES - bytes))
                break;
              col_type[i0 + m] = type;
              col_size[i0 + m] = (guint32) size;
              bytes += size;
            }
          /* columns that exist get what tm_trace_builder_alloc() writes:
           * site, thread, space 0 and no death */
          G_STATIC_ASSERT (TM_ALIVE == 0);
          if (t->obj_site != NULL)
            {
              memset (t->obj_site + i0, 0, m * sizeof (guint32));
              memset (t->obj_thread + i0, 0, m * sizeof (guint32));
            }
          if (t->obj_death != NULL)
            memset (t->obj_death + i0, 0, m * sizeof (guint32));
          if (t->obj_space != NULL)
            memset (t->obj_space + i0, 0, m);
          if (m > 0)
            b->last_id = MAX (b->last_id, first_object_id + k + m - 1);
          t->n_objects = i0 + m;
          t->total_allocs += m;
          t->total_alloc_bytes = bytes;
          k += m;
          if (k == n)
            break;
        }
      /* anything else (the first object, ids that stop being dense,
       * growing, big sizes, bad types) as one ALLOC */
      {
        g_autoptr(GError) one = NULL;
        if (!tm_trace_builder_alloc (b, first_object_id + k, type_ids[k], 0, 0, sizes[k], 0, 0, ok ? &one : NULL) && ok)
          {
            ok = FALSE;
            g_propagate_error (error, g_steal_pointer (&one));
          }
        k++;
      }
    }
  return ok;
}

/* An ALLOC's type, site, thread and space in the model, for ids the dense
 * tables of the maps do not hold (out of the run loop: its registers). */
static G_GNUC_NO_INLINE gboolean
lookup_fields (TmTraceBuilder *b, const TmAllocFields *f, guint32 *type, guint32 *site, guint32 *thread,
               guint32 *space)
{
  *space = 0;
  return tm_id_map_lookup (&b->types, f->type, type) && tm_id_map_lookup (&b->sites, f->site, site)
         && tm_id_map_lookup (&b->threads, f->thread, thread)
         && (f->space == 0 || tm_id_map_lookup (&b->spaces, f->space, space));
}

gsize
tm_trace_builder_alloc_fields (TmTraceBuilder *b, guint64 *prev_id, const TmAllocFields *first,
                               gsize stride, gsize n)
{
  TmTrace *t = b->trace;
  const guint8 *p = (const guint8 *) first;
  guint64 i = t->n_objects, seq = t->total_allocs, bytes = t->total_alloc_bytes, room;
  /* columns and maps in locals: the stores below cannot alias them */
  guint32 *col_type = t->obj_type, *col_site, *col_thread;
  guint32 *col_size = t->obj_size, *col_death;
  guint8 *col_space = t->obj_space;
  const guint32 *d_type = b->types.dense, *d_site = b->sites.dense, *d_thread = b->threads.dense;
  const guint32 n_type = (guint32) MIN (b->types.dense_len, G_MAXUINT32);
  const guint32 n_site = (guint32) MIN (b->sites.dense_len, G_MAXUINT32);
  const guint32 n_thread = (guint32) MIN (b->threads.dense_len, G_MAXUINT32);
  gsize k;

  /* what tm_trace_builder_alloc() checks, for the case it would accept
   * without a word: anything else stops the run.  Ids stay dense only if
   * each is the one before plus 1 (zigzag 2), the number limit and the
   * total of 2^63 bytes are kept by the run's length (sizes < 2^32). */
  if (seq == 0 || t->obj_ids != NULL || t->id_index != NULL || *prev_id != t->first_id + seq - 1
      || seq >= G_MAXUINT32 - 2)
    return 0;
  room = (MAX_TOTAL_BYTES - bytes) >> 32;
  n = MIN (MIN (n, b->capacity - i), MIN (G_MAXUINT32 - 2 - seq, room));
  materialize_site_thread (b);
  materialize_death (b);
  col_site = t->obj_site;
  col_thread = t->obj_thread;
  col_death = t->obj_death;
  for (k = 0; k < n; k++, p += stride)
    {
      const TmAllocFields *f = (const TmAllocFields *) p;
      guint32 type, site, thread, space = 0, size = f->size;

      if (G_UNLIKELY (f->id_zigzag != 2 || size >= TM_SIZE_OVERFLOW))
        break;
      if (G_LIKELY (f->type < n_type && f->site < n_site && f->thread < n_thread && f->space == 0
                    && (type = d_type[f->type]) != 0 && (site = d_site[f->site]) != 0
                    && (thread = d_thread[f->thread]) != 0))
        {
          type--;
          site--;
          thread--;
        }
      else if (!lookup_fields (b, f, &type, &site, &thread, &space))
        break;
      col_type[i] = type;
      col_site[i] = site;
      col_thread[i] = thread;
      col_death[i] = TM_ALIVE;
      col_size[i] = size;
      if (col_space != NULL)
        col_space[i] = (guint8) space;
      bytes += size;
      i++;
    }
  if (k > 0)
    {
      seq += k;
      b->last_id = MAX (b->last_id, t->first_id + seq - 1);
      t->n_objects = i;
      t->total_allocs = seq;
      t->total_alloc_bytes = bytes;
      *prev_id = t->first_id + seq - 1;
    }
  return k;
}

/* `count` more deaths of `bytes` in GC gc */
static void
add_deaths (TmTraceBuilder *b, guint32 gc, guint64 count, guint64 bytes)
{
  if (G_UNLIKELY (b->deaths_at->len <= gc))
    {
      g_array_set_size (b->deaths_at, gc + 64);
      g_array_set_size (b->death_bytes_at, gc + 64);
    }
  g_array_index (b->deaths_at, guint64, gc) += count;
  g_array_index (b->death_bytes_at, guint64, gc) = tm_add_sat (g_array_index (b->death_bytes_at, guint64, gc), bytes);
  b->death_count += count;
}

static inline void
add_death (TmTraceBuilder *b, guint64 index, guint32 gc)
{
  TmTrace *t = b->trace;
  guint32 s32 = t->obj_size[index];
  guint64 size = G_LIKELY (s32 != TM_SIZE_OVERFLOW) ? s32 : tm_trace_object_size (t, index);

  materialize_death (b);
  t->obj_death[index] = gc;
  add_deaths (b, gc, 1, size);
}

gboolean
tm_trace_builder_death (TmTraceBuilder *b, guint64 gc_id, guint64 object_id, GError **error)
{
  TmTrace *t = b->trace;
  guint64 index;
  guint32 gc, birth;

  if (!tm_trace_object_index_for_id_hint (t, object_id, &b->death_hint, &index))
    return fail (error, "death of unknown object %" G_GUINT64_FORMAT, object_id);
  if (t->obj_death != NULL && t->obj_death[index] != TM_ALIVE)
    return fail (error, "object %" G_GUINT64_FORMAT " died twice", object_id);

  if (gc_id == 0)
    gc = b->gc_open ? b->gcs_started : b->gcs_started + 1;  /* dead for every later heap state */
  else if (gc_id > b->gcs_started)
    return fail (error, "death in GC %" G_GUINT64_FORMAT ", which has not started", gc_id);
  else
    gc = (guint32) gc_id;

  /* Allocated after that GC started (e.g. during it): it can only be gone
   * from the next heap state on. */
  if (index >= tm_trace_allocs_before_gc (t, gc))
    {
      birth = tm_trace_object_birth_gc (t, index);
      gc = birth + 1;
    }
  add_death (b, index, gc);
  return TRUE;
}

gboolean
tm_trace_builder_deaths (TmTraceBuilder *b, guint64 gc_id, const guint64 *object_ids, gsize n, GError **error)
{
  TmTrace *t = b->trace;
  gboolean ok = TRUE;
  guint32 gc;
  guint64 limit;

  if (gc_id > b->gcs_started)
    return fail (error, "death in GC %" G_GUINT64_FORMAT ", which has not started", gc_id);
  gc = gc_id == 0 ? (b->gc_open ? b->gcs_started : b->gcs_started + 1) : (guint32) gc_id;
  limit = tm_trace_allocs_before_gc (t, gc);
  if (n > 0)
    materialize_death (b);

  /* the usual deaths (born before the GC) are counted here and added to
   * the GC's totals once */
  guint64 count = 0, bytes = 0;

  /* rows of the dense tail (the usual deaths: objects of the intervals
   * not folded yet) are one subtraction away */
  guint64 tail_id = t->first_id + t->dense_seq, tail_rows = t->n_objects - t->dense_row;
  guint32 *death = t->obj_death;
  const guint32 *sizes = t->obj_size;

  for (gsize i = 0; i < n; i++)
    {
      guint64 index, off = object_ids[i] - tail_id;
      guint32 s32;

      if (G_LIKELY (t->obj_ids == NULL && off < tail_rows && (index = t->dense_row + off) < limit
                    && death[index] == TM_ALIVE && (s32 = sizes[index]) != TM_SIZE_OVERFLOW))
        {
          death[index] = gc;
          bytes = tm_add_sat (bytes, s32);
          count++;
          continue;
        }
      if (G_UNLIKELY (!tm_trace_object_index_for_id_hint (t, object_ids[i], &b->death_hint, &index)
                      || t->obj_death[index] != TM_ALIVE))
        {
          /* the slow path says exactly what is wrong */
          g_autoptr(GError) one = NULL;
          if (!tm_trace_builder_death (b, gc_id, object_ids[i], &one) && ok)
            {
              ok = FALSE;
              g_propagate_error (error, g_steal_pointer (&one));
            }
          continue;
        }
      if (G_UNLIKELY (index >= limit))
        {
          add_death (b, index, tm_trace_object_birth_gc (t, index) + 1);
          continue;
        }
      t->obj_death[index] = gc;
      s32 = t->obj_size[index];
      bytes = tm_add_sat (bytes, G_LIKELY (s32 != TM_SIZE_OVERFLOW) ? s32 : tm_trace_object_size (t, index));
      count++;
    }
  add_deaths (b, gc, count, bytes);
  return ok;
}

gboolean
tm_trace_builder_move (TmTraceBuilder *b, guint64 space_id, guint64 object_id, GError **error)
{
  TmTrace *t = b->trace;
  guint32 space;
  guint64 index;

  if (!tm_id_map_lookup (&b->spaces, space_id, &space))
    return fail (error, "MOVES into undefined space %" G_GUINT64_FORMAT, space_id);
  if (!tm_trace_object_index_for_id_hint (t, object_id, &b->death_hint, &index))
    return fail (error, "MOVES of unknown object %" G_GUINT64_FORMAT, object_id);
  if (t->obj_space != NULL)
    {
      /* a history, not an overwrite: heap states of earlier GCs keep the
       * spaces their objects were in then */
      TmSpaceMove m = { (guint32) tm_trace_object_seq (t, index), b->gcs_started, space };
      if (!charge (b, sizeof m, error))
        return FALSE;
      if (t->space_moves == NULL)
        t->space_moves = g_array_new (FALSE, FALSE, sizeof (TmSpaceMove));
      g_array_append_val (t->space_moves, m);
    }
  return TRUE;
}

void
tm_trace_builder_tick (TmTraceBuilder *b, guint64 time_ns)
{
  b->now_ns = time_ns;
  b->trace->duration_ns = MAX (b->trace->duration_ns, time_ns);
}

void
tm_trace_builder_keep_all_rows (TmTraceBuilder *b)
{
  b->keep_rows = TRUE;
}

/* Folds the short-lived objects of the birth intervals up to `last`
 * (tm-trace-fold.c).  Not while ids are hashed (rows would move under the
 * index) nor with transactions (a TRANSACTION names its objects when its
 * run ends, possibly GCs after they died). */
static void
fold_short_lived (TmTraceBuilder *b, guint32 last)
{
  TmTrace *t = b->trace;

  if (b->keep_rows || t->id_index != NULL || t->tx_kinds->len > 1)
    return;
  for (; b->next_fold <= last; b->next_fold++)
    {
      guint before = t->short_lived->len;
      guint64 blocks_before = t->n_seq_blocks, row_blocks_before = t->n_row_blocks;
      tm_trace_fold_interval (t, b->next_fold);
      b->charged += (t->short_lived->len - before) * sizeof (TmShortLived) + sizeof (guint64)
                    + (t->n_seq_blocks - blocks_before) * sizeof (TmSeqBlock)
                    + (t->n_row_blocks - row_blocks_before) * sizeof (guint32);
    }
}

G_STATIC_ASSERT (TM_TRACE_BUILDER_DIED == TM_FOLD_DIED);

/* Kind k of the caller's table in the model's terms; FALSE if it has no
 * plain row (an undefined id, 4 GiB or more). */
static gboolean
resolve_kind (TmTraceBuilder *b, const TmAllocKind *kind, TmFoldKind *fk)
{
  if (kind->size >= TM_SIZE_OVERFLOW || !tm_id_map_lookup (&b->types, kind->type_id, &fk->type)
      || !tm_id_map_lookup (&b->sites, kind->site_id, &fk->site)
      || !tm_id_map_lookup (&b->threads, kind->thread_id, &fk->thread))
    return FALSE;
  fk->size = (guint32) kind->size;
  fk->size_class = tm_trace_size_class (kind->size);
  fk->resolved = TRUE;
  return TRUE;
}

gint64
tm_trace_builder_alloc_interval (TmTraceBuilder *b, guint64 first_object_id, const guint32 *items, gsize n,
                                 const TmAllocKind *kinds, gsize kind_stride, guint32 n_kinds, guint64 end_ns,
                                 GError **error)
{
  TmTrace *t = b->trace;
  guint32 interval = b->gcs_started;
  guint64 bytes = 0, rows = 0, dead, dead_bytes = 0;
  guint64 blocks_before, counters_before, row_blocks_before;

  if (n == 0)
    return 0;
  if (b->keep_rows || t->id_index != NULL || t->tx_kinds->len > 1 || t->obj_ids != NULL || b->gc_open
      || b->in_graph || (t->total_allocs > 0 && first_object_id != t->first_id + t->total_allocs)
      || t->total_allocs + n >= G_MAXUINT32 - 2)
    return -1;
  /* the interval before: its first GC has started, so all its deaths
   * there are known */
  join_marking (b);
  if (interval >= 1)
    fold_short_lived (b, interval - 1);
  if (b->next_fold != interval || t->n_objects != t->dense_row || t->total_allocs != t->dense_seq)
    return -1;

  if (n_kinds > b->n_fold_kinds)
    {
      if (!charge (b, (guint64) (n_kinds - b->n_fold_kinds) * sizeof (TmFoldKind), error))
        return -1;
      b->fold_kinds = g_renew (TmFoldKind, b->fold_kinds, n_kinds);
      memset (b->fold_kinds + b->n_fold_kinds, 0, (n_kinds - b->n_fold_kinds) * sizeof (TmFoldKind));
      b->n_fold_kinds = n_kinds;
    }
  for (gsize k = 0; k < n; k++)
    {
      guint32 i = items[k] & ~TM_FOLD_DIED;
      TmFoldKind *fk;

      if (G_UNLIKELY (i >= n_kinds))
        return -1;
      fk = &b->fold_kinds[i];
      if (G_UNLIKELY (!fk->resolved)
          && !resolve_kind (b, (const TmAllocKind *) (gconstpointer) ((const guint8 *) kinds + i * kind_stride), fk))
        return -1;
      bytes += fk->size;   /* n < 2^32 sizes below 2^32: no wrap */
      rows += !(items[k] & TM_FOLD_DIED);
    }
  if (bytes > MAX_TOTAL_BYTES - t->total_alloc_bytes)
    return -1;
  while (t->n_objects + rows > b->capacity)
    {
      guint64 more = b->capacity ? b->capacity / 2 : 4096;
      if (!charge (b, more * bytes_per_object (t), error))
        return -1;
      grow_objects (b);
    }

  if (t->total_allocs == 0)
    t->first_id = first_object_id;
  blocks_before = t->n_seq_blocks;
  counters_before = t->short_lived->len;
  row_blocks_before = t->n_row_blocks;
  dead = tm_trace_fold_allocs (t, interval, end_ns, items, n, b->fold_kinds, &dead_bytes);
  t->total_allocs += n;
  t->total_alloc_bytes += bytes;
  b->last_id = MAX (b->last_id, first_object_id + n - 1);
  /* died "now": in the GC that closes the interval */
  add_deaths (b, interval + 1, dead, dead_bytes);
  b->next_fold = interval + 1;
  b->charged += (t->short_lived->len - counters_before) * sizeof (TmShortLived) + sizeof (guint64)
                + (t->n_seq_blocks - blocks_before) * sizeof (TmSeqBlock)
                + (t->n_row_blocks - row_blocks_before) * sizeof (guint32);
  return (gint64) dead;
}

/* Live objects after each of the first n GCs: born before its start
 * minus deaths so far. */
static void
compute_live (TmTraceBuilder *b, guint n)
{
  TmTrace *t = b->trace;
  guint64 dead = 0, dead_bytes = 0;

  for (guint i = 0; i < n; i++)
    {
      TmGc *gc = &g_array_index (t->gcs, TmGc, i);
      guint32 id = gc->id;
      guint64 born_bytes = g_array_index (b->bytes_before, guint64, i);

      if (id < b->deaths_at->len)
        {
          dead += g_array_index (b->deaths_at, guint64, id);
          dead_bytes = tm_add_sat (dead_bytes, g_array_index (b->death_bytes_at, guint64, id));
        }
      gc->live_objects = gc->allocations_before >= dead ? gc->allocations_before - dead : 0;
      gc->live_bytes = born_bytes >= dead_bytes ? born_bytes - dead_bytes : 0;
    }
}

void
tm_trace_builder_set_partial_timeline (TmTraceBuilder *b, TmPartialTimelineFunc func, gpointer data)
{
  b->partial = func;
  b->partial_data = data;
}

/* The first snapshot goes out at once, the next ones this far apart: the
 * charts grow a few times a second, and each snapshot costs O(GCs). */
#define PARTIAL_EVERY_US (G_USEC_PER_SEC / 5)

/* GCs 1..settled have everything they will have (deaths, graphs marked). */
static void
maybe_publish (TmTraceBuilder *b, guint settled)
{
  gint64 now;
  TmTimelineModel *m;

  if (b->partial == NULL || settled == 0)
    return;
  now = g_get_monotonic_time ();
  if (b->partial_at_us != 0 && now - b->partial_at_us < PARTIAL_EVERY_US)
    return;
  b->partial_at_us = now;
  compute_live (b, settled);
  m = tm_timeline_model_new_prefix (b->trace, settled);
  b->partial (m, b->partial_data);
  tm_timeline_model_unref (m);
}

gboolean
tm_trace_builder_gc_start (TmTraceBuilder *b, guint64 gc_id, guint64 time_ns, guint kind,
                           const char *collector, const char *cause, GError **error)
{
  TmTrace *t = b->trace;
  TmGc gc = { 0 };

  if (b->in_graph)
    return fail (error, "GC_START %" G_GUINT64_FORMAT " inside the graph of GC %u", gc_id, b->graph_gc);
  if (gc_id != (guint64) b->gcs_started + 1)
    return fail (error, "GC_START %" G_GUINT64_FORMAT " out of order (expected %u)", gc_id, b->gcs_started + 1);
  if (b->gc_open)
    return fail (error, "GC_START %" G_GUINT64_FORMAT " before GC_END %u", gc_id, b->gcs_started);
  if (gc_id >= G_MAXUINT32 - 1)
    return fail (error, "too many GCs");

  gc.collector = intern (b, collector ? collector : "");
  gc.cause = intern (b, cause ? cause : "");
  /* the GC and its slots in the per-GC death counters */
  if (!charge (b, sizeof gc + 2 * sizeof (guint64), error))
    return FALSE;

  gc.id = (guint32) gc_id;
  gc.kind = kind <= TM_GC_KIND_CONCURRENT ? (TmGcKind) kind : TM_GC_KIND_UNKNOWN;
  gc.start_ns = time_ns;
  gc.end_ns = time_ns;
  /* every death of GC gc_id - 1 is known now (DEATHS come before the
   * next GC_START): the interval before it is settled */
  join_marking (b);   /* rows move, the GC array grows */
  if (gc_id >= 2)
    fold_short_lived (b, (guint32) gc_id - 2);
  gc.allocs_before = t->n_objects;
  gc.allocations_before = t->total_allocs;
  g_array_append_val (b->bytes_before, t->total_alloc_bytes);
  gc.usage_first = t->space_usage->len;
  maybe_publish (b, t->gcs->len);
  g_array_append_val (t->gcs, gc);

  b->gcs_started = (guint32) gc_id;
  b->gc_open = TRUE;
  b->now_ns = time_ns;
  t->duration_ns = MAX (t->duration_ns, time_ns);
  return TRUE;
}

gboolean
tm_trace_builder_gc_end (TmTraceBuilder *b, guint64 gc_id, guint64 time_ns, guint64 pause_ns,
                         guint n_usage, const TmSpaceUsageRecord *usage, GError **error)
{
  TmTrace *t = b->trace;
  TmGc *gc;

  if (!b->gc_open || gc_id != b->gcs_started)
    return fail (error, "GC_END %" G_GUINT64_FORMAT " without its GC_START", gc_id);

  gc = &g_array_index (t->gcs, TmGc, gc_id - 1);
  if (time_ns < gc->start_ns)
    return fail (error, "GC_END %" G_GUINT64_FORMAT " ends before it starts", gc_id);

  if (!charge (b, (guint64) n_usage * sizeof (TmSpaceUsage), error))
    return FALSE;
  gc->end_ns = time_ns;
  gc->pause_ns = pause_ns;
  gc->usage_first = t->space_usage->len;
  for (guint i = 0; i < n_usage; i++)
    {
      TmSpaceUsage u;
      guint32 space;

      if (!tm_id_map_lookup (&b->spaces, usage[i].space_id, &space))
        {
          tm_trace_builder_warning (b, 0, "GC %" G_GUINT64_FORMAT " reports undefined space %" G_GUINT64_FORMAT,
                                    gc_id, usage[i].space_id);
          continue;
        }
      u.space = space;
      u.used_before = usage[i].used_before;
      u.used_after = usage[i].used_after;
      u.committed_after = usage[i].committed_after;
      g_array_append_val (t->space_usage, u);
      if (tm_trace_space (t, space)->kind != TM_SPACE_KIND_NON_HEAP)
        {
          gc->used_before = tm_add_sat (gc->used_before, u.used_before);
          gc->used_after = tm_add_sat (gc->used_after, u.used_after);
          gc->committed_after = tm_add_sat (gc->committed_after, u.committed_after);
        }
    }
  gc->usage_count = t->space_usage->len - gc->usage_first;
  gc->complete = TRUE;
  b->gc_open = FALSE;
  b->now_ns = time_ns;
  t->duration_ns = MAX (t->duration_ns, time_ns);
  t->peak_used_bytes = MAX (t->peak_used_bytes, MAX (gc->used_before, gc->used_after));
  return TRUE;
}

/* GC gc_id, which a graph record names: it must have ended. */
static TmGc *
completed_gc (TmTraceBuilder *b, guint64 gc_id, const char *record, GError **error)
{
  TmGc *gc;

  if (gc_id == 0 || gc_id > b->gcs_started)
    {
      fail (error, "%s for GC %" G_GUINT64_FORMAT ", which has not happened", record, gc_id);
      return NULL;
    }
  gc = &g_array_index (b->trace->gcs, TmGc, gc_id - 1);
  if (!gc->complete)
    {
      fail (error, "%s %" G_GUINT64_FORMAT " before its GC_END", record, gc_id);
      return NULL;
    }
  return gc;
}

gboolean
tm_trace_builder_graph_begin (TmTraceBuilder *b, guint64 gc_id, guint64 frame_offset, guint64 raw_skip,
                              GError **error)
{
  TmGc *gc;

  if (b->in_graph)
    return fail (error, "GRAPH_BEGIN %" G_GUINT64_FORMAT " inside the graph of GC %u", gc_id, b->graph_gc);
  if ((gc = completed_gc (b, gc_id, "GRAPH_BEGIN", error)) == NULL)
    return FALSE;
  join_marking (b);   /* the graph buffers are reused */
  if (gc->has_graph)
    return fail (error, "second graph for GC %" G_GUINT64_FORMAT, gc_id);
  if (gc->graph_failed)
    return fail (error, "graph for GC %" G_GUINT64_FORMAT " after its GRAPH_FAILED", gc_id);

  b->in_graph = TRUE;
  b->graph_gc = (guint32) gc_id;
  gc->graph_frame_offset = frame_offset;
  gc->graph_raw_skip = raw_skip;
  gc->graph_file_offset = frame_offset;
  b->g_src.len = b->g_start.len = b->g_dst.len = 0;
  g_array_set_size (b->g_roots, 0);
  b->g_dropped = 0;
  return TRUE;
}

/* A graph's buffers live until its GRAPH_END, and marking it needs a map
 * and a bitmap over all objects: they must fit beside the model. */
static gboolean
graph_fits_quiet (TmTraceBuilder *b, guint64 more_records, guint64 more_edges)
{
  guint64 n = b->trace->n_objects;
  guint64 need = (b->g_src.len + more_records) * (sizeof (guint32) + sizeof (guint64))
                 + (b->g_dst.len + more_edges) * sizeof (guint32)
                 + (guint64) b->g_roots->len * sizeof (guint32) + n * sizeof (guint32) + n / 8;

  return !b->over_limit && need <= b->limit - MIN (b->charged, b->limit);
}

static gboolean
graph_fits (TmTraceBuilder *b, guint64 more_records, guint64 more_edges, GError **error)
{
  if (G_UNLIKELY (!graph_fits_quiet (b, more_records, more_edges)))
    return fail_limit (b, error);
  return TRUE;
}

gboolean
tm_trace_builder_roots (TmTraceBuilder *b, guint n, const TmRootRecord *roots, GError **error)
{
  guint64 hint = 0;

  if (!b->in_graph)
    return fail (error, "ROOTS outside a graph");
  if (!graph_fits (b, 0, n, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      guint64 index;
      guint32 idx32;
      if (!tm_trace_object_index_for_id_hint (b->trace, roots[i].object_id, &hint, &index))
        {
          b->g_dropped++;
          continue;
        }
      idx32 = (guint32) index;
      g_array_append_val (b->g_roots, idx32);
    }
  return TRUE;
}

gboolean
tm_trace_builder_refs (TmTraceBuilder *b, guint64 object_id, guint n, const guint64 *targets, GError **error)
{
  guint64 index, hint;
  guint32 src;
  guint64 start;

  if (!b->in_graph)
    return fail (error, "REFS outside a graph");
  if (G_UNLIKELY (b->g_dst.len + n > b->g_dst.cap) && !graph_fits (b, 1, n, error))
    return FALSE;
  hint = b->death_hint;
  if (!tm_trace_object_index_for_id_hint (b->trace, object_id, &hint, &index))
    {
      b->g_dropped += n;
      return fail (error, "REFS of unknown object %" G_GUINT64_FORMAT, object_id);
    }
  src = (guint32) index;
  start = b->g_dst.len;
  tm_vec_u32_push (&b->g_src, src);
  tm_vec_u64_push (&b->g_start, start);
  tm_vec_u32_reserve (&b->g_dst, n);
  for (guint i = 0; i < n; i++)
    {
      guint64 t;
      if (G_UNLIKELY (!tm_trace_object_index_for_id_hint (b->trace, targets[i], &hint, &t)))
        {
          b->g_dropped++;
          continue;
        }
      b->g_dst.data[b->g_dst.len++] = (guint32) t;
    }
  return TRUE;
}

static inline __attribute__ ((always_inline)) gsize
refs_run (TmTraceBuilder *b, const guint64 *ids, const guint32 *n_targets, gsize stride, gsize n)
{
  const TmTrace *t = b->trace;
  const guint8 *np = (const guint8 *) n_targets;
  gsize k;

  if (!b->in_graph)
    return 0;
  for (k = 0; k < n; k++, np += stride)
    {
      guint32 m = *(const guint32 *) (gconstpointer) np;
      guint32 *dst;
      guint64 index, len, hint = b->death_hint;

      if (G_UNLIKELY (b->g_dst.len + m > b->g_dst.cap) && !graph_fits_quiet (b, 1, m))
        break;
      if (G_UNLIKELY (!tm_trace_object_index_for_id_hint (t, ids[0], &hint, &index)))
        break;
      tm_vec_u32_push (&b->g_src, (guint32) index);
      tm_vec_u64_push (&b->g_start, b->g_dst.len);
      tm_vec_u32_reserve (&b->g_dst, m);
      dst = b->g_dst.data;
      len = b->g_dst.len;
      for (guint32 i = 1; i <= m; i++)
        {
          guint64 row;
          if (G_UNLIKELY (!tm_trace_object_index_for_id_hint (t, ids[i], &hint, &row)))
            {
              b->g_dropped++;
              continue;
            }
          dst[len++] = (guint32) row;
        }
      b->g_dst.len = len;
      ids += 1 + (gsize) m;
    }
  return k;
}

/* The target lookups count bits in the rank blocks: with the CPU's
 * popcount instruction where it has one (the compiler turns the
 * portable count into it), which the x86-64 baseline does not promise. */
#if defined(__x86_64__) && defined(__GNUC__)
static __attribute__ ((target ("popcnt"))) gsize
refs_run_popcnt (TmTraceBuilder *b, const guint64 *ids, const guint32 *n_targets, gsize stride, gsize n)
{
  return refs_run (b, ids, n_targets, stride, n);
}
#endif

gsize
tm_trace_builder_refs_run (TmTraceBuilder *b, const guint64 *ids, const guint32 *n_targets, gsize stride,
                           gsize n)
{
#if defined(__x86_64__) && defined(__GNUC__)
  if (b->has_popcnt)
    return refs_run_popcnt (b, ids, n_targets, stride, n);
#endif
  return refs_run (b, ids, n_targets, stride, n);
}

/* The marked graph's results: reachable memory, and deaths when the trace
 * does not record them.  Rows have not moved since the graph was read. */
static void
graph_marked (TmTraceBuilder *b, guint32 gc_id)
{
  TmTrace *t = b->trace;
  TmGc *gc = &g_array_index (t->gcs, TmGc, gc_id - 1);
  g_autofree guint64 *bits = g_steal_pointer (&b->mark.bits);
  guint64 reach_bytes = 0, n = b->mark.n_objects;

  for (guint64 w = 0; w < (n + 63) / 64; w++)
    {
      guint64 word = bits[w];
      if (word == G_MAXUINT64)
        {
          /* 64 reached side by side (a heap dump's usual case): one sum,
           * the same as 64 saturating steps unless a size overflows */
          const guint32 *s = t->obj_size + w * 64;
          guint64 sum = 0;
          guint32 any = 0;
          for (guint k = 0; k < 64; k++)
            {
              sum += s[k];
              any |= s[k] == TM_SIZE_OVERFLOW;
            }
          if (!any)
            {
              reach_bytes = tm_add_sat (reach_bytes, sum);
              continue;
            }
        }
      for (; word != 0; word &= word - 1)
        {
          guint64 o = w * 64 + (guint64) __builtin_ctzll (word);
          guint32 s32 = t->obj_size[o];
          reach_bytes = tm_add_sat (reach_bytes, G_LIKELY (s32 != TM_SIZE_OVERFLOW) ? s32 : tm_trace_object_size (t, o));
        }
    }
  gc->reachable_bytes = reach_bytes;
  gc->reachable_objects = b->mark.reach_objects;

  /* Without recorded deaths, what the graph does not reach died in it. */
  if (!(t->flags & TM_TRACE_FLAG_DEATHS))
    {
      for (guint64 i = 0; i < gc->allocs_before; i++)
        {
          if (i % 64 == 0 && i + 64 <= gc->allocs_before && bits[i / 64] == G_MAXUINT64)
            {
              i += 63;     /* all reached */
              continue;
            }
          if (!tm_bitmap_get (bits, i) && (t->obj_death == NULL || t->obj_death[i] == TM_ALIVE))
            add_death (b, i, gc->id);
        }
    }
}

/* Before rows move, the graph buffers are reused or the model is read. */
static void
join_marking (TmTraceBuilder *b)
{
  guint32 gc_id = b->marking_gc;

  if (gc_id == 0)
    return;
  tm_trace_mark_join (&b->mark);
  b->marking_gc = 0;
  graph_marked (b, gc_id);
}

/* Marks the graph read from its roots: on a thread of its own when the
 * trace records deaths (nothing else waits for it), else now (the deaths
 * it finds must be in place before the next ones are read). */
static void
finish_graph (TmTraceBuilder *b, TmGc *gc)
{
  TmTrace *t = b->trace;

  if (b->src_map_len < t->n_objects)
    {
      g_free (b->src_map);
      b->src_map = g_new0 (guint32, t->n_objects);
      b->src_map_len = t->n_objects;
    }
  b->mark = (TmTraceMark) {
    .n_objects = t->n_objects,
    .src = b->g_src.data, .start = b->g_start.data, .n_rec = (guint32) b->g_src.len,
    .dst = b->g_dst.data, .n_dst = b->g_dst.len,
    .roots = (const guint32 *) (gpointer) b->g_roots->data, .n_roots = b->g_roots->len,
    .src_map = b->src_map,
  };
  gc->has_graph = TRUE;
  t->n_graphs++;
  b->marking_gc = gc->id;
  if (t->flags & TM_TRACE_FLAG_DEATHS)
    tm_trace_mark_start (&b->mark);
  else
    {
      tm_trace_mark_run (&b->mark);
      join_marking (b);
    }
}

gboolean
tm_trace_builder_graph_end (TmTraceBuilder *b, guint64 gc_id, guint64 objects_listed, GError **error)
{
  TmGc *gc;

  if (!b->in_graph || gc_id != b->graph_gc)
    return fail (error, "GRAPH_END %" G_GUINT64_FORMAT " without its GRAPH_BEGIN", gc_id);
  b->in_graph = FALSE;
  gc = &g_array_index (b->trace->gcs, TmGc, gc_id - 1);
  if (objects_listed != b->g_src.len)
    tm_trace_builder_warning (b, 0, "graph of GC %" G_GUINT64_FORMAT " lists %" G_GSIZE_FORMAT " objects, GRAPH_END says %" G_GUINT64_FORMAT,
                              gc_id, b->g_src.len, objects_listed);
  if (b->g_dropped > 0)
    tm_trace_builder_warning (b, 0, "graph of GC %" G_GUINT64_FORMAT " names %" G_GUINT64_FORMAT " unknown objects",
                              gc_id, b->g_dropped);
  finish_graph (b, gc);
  return TRUE;
}

gboolean
tm_trace_builder_graph_csr (TmTraceBuilder *b, guint64 gc_id, guint64 first_object_id, guint32 n,
                            const guint32 *off, const guint32 *dst, const guint32 *roots, guint n_roots,
                            GCancellable *cancellable, void (*progress) (double fraction, gpointer data),
                            gpointer progress_data, GError **error)
{
  TmTrace *t = b->trace;
  TmGc *gc;
  g_autofree guint64 *local = NULL;
  guint64 reached = 0, dropped = 0, first = 0;
  gboolean dense;

  if (b->in_graph)
    return fail (error, "graph of GC %" G_GUINT64_FORMAT " inside the graph of GC %u", gc_id, b->graph_gc);
  if ((gc = completed_gc (b, gc_id, "GRAPH", error)) == NULL)
    return FALSE;
  join_marking (b);
  if (gc->has_graph)
    return fail (error, "second graph for GC %" G_GUINT64_FORMAT, gc_id);
  if (gc->graph_failed)
    return fail (error, "graph for GC %" G_GUINT64_FORMAT " after its GRAPH_FAILED", gc_id);

  local = tm_trace_mark_csr (n, off, dst, roots, n_roots, cancellable, progress, progress_data, &reached, &dropped);
  if (local == NULL)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return FALSE;
    }
  /* nodes -> rows: one step when the ids are dense, else one by one */
  dense = n == 0 || (tm_trace_object_index_for_id (t, first_object_id, &first)
                     && first + n <= t->n_objects && t->obj_ids == NULL);
  b->mark = (TmTraceMark) { .n_objects = t->n_objects, .bits = g_new0 (guint64, t->n_objects / 64 + 1) };
  if (dense && first % 64 == 0)
    memcpy (b->mark.bits + first / 64, local, ((gsize) n + 63) / 64 * sizeof (guint64));
  else
    for (guint64 w = 0; w < ((guint64) n + 63) / 64; w++)
      for (guint64 word = local[w]; word != 0; word &= word - 1)
        {
          guint64 v = w * 64 + (guint64) __builtin_ctzll (word), row = first + v;
          if (dense || tm_trace_object_index_for_id (t, first_object_id + v, &row))
            tm_bitmap_set (b->mark.bits, row);
          else
            {
              reached--;
              dropped++;
            }
        }
  b->mark.reach_objects = reached;
  if (dropped > 0)
    tm_trace_builder_warning (b, 0, "graph of GC %" G_GUINT64_FORMAT " names %" G_GUINT64_FORMAT " unknown objects",
                              gc_id, dropped);
  gc->graph_frame_offset = gc->graph_raw_skip = gc->graph_file_offset = 0;
  gc->has_graph = TRUE;
  t->n_graphs++;
  graph_marked (b, gc->id);
  return TRUE;
}

gboolean
tm_trace_builder_graph_failed (TmTraceBuilder *b, guint64 gc_id, const char *reason, GError **error)
{
  TmGc *gc = completed_gc (b, gc_id, "GRAPH_FAILED", error);

  if (gc == NULL)
    return FALSE;
  if (gc->has_graph)
    return fail (error, "GRAPH_FAILED for GC %" G_GUINT64_FORMAT ", which has a complete graph", gc_id);
  if (b->in_graph)
    {
      if (b->graph_gc != gc_id)
        return fail (error, "GRAPH_FAILED %" G_GUINT64_FORMAT " inside the graph of GC %u", gc_id, b->graph_gc);
      /* The partial graph is dropped. */
      b->in_graph = FALSE;
      gc->graph_frame_offset = gc->graph_raw_skip = gc->graph_file_offset = 0;
    }
  gc->graph_failed = TRUE;
  gc->graph_failure = intern (b, reason != NULL && *reason ? reason : "unknown reason");
  return TRUE;
}

gboolean
tm_trace_builder_graph_context (TmTraceBuilder *b, guint64 gc_id, guint context, GError **error)
{
  TmGc *gc = completed_gc (b, gc_id, "GRAPH_CONTEXT", error);

  if (gc == NULL)
    return FALSE;
  /* Unknown contexts from newer writers: the graph is still not the
   * program's ordinary state, the closest known meaning is post-mortem. */
  gc->graph_context = context <= TM_GRAPH_POST_MORTEM ? (TmGraphContext) context : TM_GRAPH_POST_MORTEM;
  return TRUE;
}

gboolean
tm_trace_builder_oom (TmTraceBuilder *b, guint64 time_ns, guint64 gc_before, guint64 thread_id,
                      guint kind, const char *message, GError **error)
{
  TmTrace *t = b->trace;
  TmOomEvent ev;
  guint32 thread;

  if (!tm_id_map_lookup (&b->threads, thread_id, &thread))
    return fail (error, "OutOfMemoryError on undefined thread %" G_GUINT64_FORMAT, thread_id);
  if (!charge (b, sizeof ev + strlen (message ? message : "") + 1, error))
    return FALSE;
  ev.time_ns = time_ns;
  ev.gc_before = (guint32) MIN (gc_before, (guint64) G_MAXUINT32 - 1);
  ev.thread = thread;
  ev.kind = kind <= TM_OOM_THREADS ? (TmOomKind) kind : TM_OOM_OTHER;
  ev.message = g_strdup (message ? message : "");
  g_array_append_val (t->oom_events, ev);
  t->duration_ns = MAX (t->duration_ns, time_ns);
  return TRUE;
}

gboolean
tm_trace_builder_gc_phase (TmTraceBuilder *b, const TmGcPhase *phase, GError **error)
{
  TmGcPhase ph = *phase;

  if (!charge (b, sizeof ph, error))
    return FALSE;
  ph.kind = ph.kind < TM_GC_PHASE_N_KINDS ? ph.kind : TM_GC_PHASE_CONCURRENT;
  ph.end_ns = MAX (ph.end_ns, ph.start_ns);
  ph.name = intern (b, ph.name ? ph.name : "");
  ph.detail = intern (b, ph.detail ? ph.detail : "");
  g_array_append_val (b->trace->gc_phases, ph);
  b->trace->duration_ns = MAX (b->trace->duration_ns, ph.end_ns);
  return TRUE;
}

static int
oom_cmp (gconstpointer x, gconstpointer y)
{
  const TmOomEvent *a = x, *b = y;
  return (a->time_ns > b->time_ns) - (a->time_ns < b->time_ns);
}

void
tm_trace_builder_end (TmTraceBuilder *b, guint64 allocs, guint64 deaths, guint64 gcs, guint64 time_ns)
{
  b->trace->has_end = TRUE;
  b->end_allocs = allocs;
  b->end_deaths = deaths;
  b->end_gcs = gcs;
  b->end_time = time_ns;
  b->trace->duration_ns = MAX (b->trace->duration_ns, time_ns);
}

static void
shrink_objects (TmTraceBuilder *b)
{
  TmTrace *t = b->trace;
  guint64 n = MAX (t->n_objects, 1);
  guint64 *old_ids = t->obj_ids;

  t->obj_type = g_renew (guint32, t->obj_type, n);
  if (t->obj_site == NULL)
    {
      /* all zero, untouched until something writes them */
      t->obj_site = g_new0 (guint32, n);
      t->obj_thread = g_new0 (guint32, n);
    }
  else
    {
      t->obj_site = g_renew (guint32, t->obj_site, n);
      t->obj_thread = g_renew (guint32, t->obj_thread, n);
    }
  t->obj_size = g_renew (guint32, t->obj_size, n);
  t->obj_death = t->obj_death != NULL ? g_renew (guint32, t->obj_death, n) : g_new0 (guint32, n);
  if (t->obj_space)
    t->obj_space = g_renew (guint8, t->obj_space, n);
  if (t->obj_ids)
    t->obj_ids = g_renew (guint64, t->obj_ids, n);
  b->capacity = n;
  if (t->id_index != NULL && t->obj_ids != old_ids)
    rebuild_id_index (b);
}

static gint
space_move_cmp (gconstpointer a, gconstpointer b)
{
  const TmSpaceMove *x = a, *y = b;
  return x->seq != y->seq ? (x->seq < y->seq ? -1 : 1) : (x->gc > y->gc) - (x->gc < y->gc);
}

TmTrace *
tm_trace_builder_finish (TmTraceBuilder *b)
{
  TmTrace *t = b->trace;
  TmTrace *result;

  join_marking (b);
  if (b->in_graph)
    {
      /* An unfinished graph is dropped: reachable memory unknown there. */
      TmGc *gc = &g_array_index (t->gcs, TmGc, b->graph_gc - 1);
      gc->graph_frame_offset = gc->graph_raw_skip = 0;
      b->in_graph = FALSE;
    }

  /* Keep everything up to the last complete GC. */
  while (t->gcs->len > 0 && !g_array_index (t->gcs, TmGc, t->gcs->len - 1).complete)
    g_array_set_size (t->gcs, t->gcs->len - 1);
  /* the intervals whose first GC is the last, and after it */
  if (t->n_objects > 0)
    fold_short_lived (b, t->gcs->len);
  tm_trace_short_lived_pad (t, t->gcs->len + 2);

  resolve_hierarchy (b);
  /* MOVES by object, each object's in stream order (a stable sort) */
  if (t->space_moves != NULL)
    g_array_sort (t->space_moves, space_move_cmp);
  /* Recorders may write an OOM late (after later GCs): keep time order,
   * and never claim more GCs before it than the model has. */
  g_array_sort (t->oom_events, oom_cmp);
  for (guint i = 0; i < t->oom_events->len; i++)
    {
      TmOomEvent *ev = &g_array_index (t->oom_events, TmOomEvent, i);
      ev->gc_before = MIN (ev->gc_before, t->gcs->len);
    }

  if (t->n_objects == 0)
    {
      /* Keep the arrays non-NULL so that readers need no special case. */
      grow_objects (b);
    }
  shrink_objects (b);
  /* the transaction classifier's keys: the kind that allocated each object */
  if (t->transactions->len > 0 && t->n_objects > 0)
    {
      t->obj_tx = g_new0 (guint32, t->n_objects);
      for (guint i = 0; i < t->transactions->len; i++)
        {
          const TmTransaction *tx = &g_array_index (t->transactions, TmTransaction, i);
          for (guint64 j = tx->first; j < tx->first + tx->n_objects; j++)
            t->obj_tx[g_array_index (t->tx_objects, guint32, j)] = tx->kind;
        }
    }
  if (b->capacity > 0 && t->obj_ids == NULL && t->total_allocs == 0)
    t->first_id = 1;

  compute_live (b, t->gcs->len);
  t->total_deaths = b->death_count;

  if (t->has_end)
    {
      if (b->end_allocs != t->total_allocs)
        tm_trace_builder_warning (b, t->stop_offset,
                                  "END counts %" G_GUINT64_FORMAT " allocations, the trace has %" G_GUINT64_FORMAT,
                                  b->end_allocs, t->total_allocs);
      if (b->end_gcs != t->gcs->len)
        tm_trace_builder_warning (b, t->stop_offset,
                                  "END counts %" G_GUINT64_FORMAT " GCs, the trace has %u",
                                  b->end_gcs, t->gcs->len);
      if (b->end_deaths != t->total_deaths && (t->flags & TM_TRACE_FLAG_DEATHS))
        tm_trace_builder_warning (b, t->stop_offset,
                                  "END counts %" G_GUINT64_FORMAT " deaths, the trace has %" G_GUINT64_FORMAT,
                                  b->end_deaths, t->total_deaths);
    }

  t->complete = t->has_end && !b->stopped && !b->damaged;
  t->stopped = b->stopped;

  result = b->trace;
  b->trace = NULL;
  tm_trace_builder_free (b);
  return result;
}

gboolean
tm_trace_builder_container_op (TmTraceBuilder *b, guint64 kind, guint64 time_ns, guint64 container_id,
                               guint64 element_id, guint64 site_id, guint64 thread_id, GError **error)
{
  TmContainerOp op = { 0 };

  if (kind < TM_CONTAINER_OP_ADD || kind > TM_CONTAINER_OP_CLEAR)
    return TRUE;   /* a later kind: skipped like an unknown record */
  if (container_id == 0 || (element_id == 0) != (kind == TM_CONTAINER_OP_CLEAR))
    return fail (error, "container operation %" G_GUINT64_FORMAT " on container %" G_GUINT64_FORMAT
                 " with element %" G_GUINT64_FORMAT, kind, container_id, element_id);
  if (!tm_id_map_lookup (&b->sites, site_id, &op.site))
    return fail (error, "container operation at undefined site %" G_GUINT64_FORMAT, site_id);
  if (!tm_id_map_lookup (&b->threads, thread_id, &op.thread))
    return fail (error, "container operation on undefined thread %" G_GUINT64_FORMAT, thread_id);
  if (!charge (b, sizeof op, error))
    return FALSE;
  op.kind = (guint32) kind;
  op.time_ns = time_ns;
  op.container = container_id;
  op.element = element_id;
  g_array_append_val (b->trace->container_ops, op);
  return TRUE;
}

gboolean
tm_trace_builder_tx_kind (TmTraceBuilder *b, guint64 id, const char *name, GError **error)
{
  TmTxKind k;

  if (!check_def_id (id, "transaction kind", error) || !charge (b, sizeof k + strlen (name) + 1, error))
    return FALSE;
  k.id = id;
  k.name = g_strdup (name);
  define (&b->tx_kinds, b->trace->tx_kinds, id, &k);
  return TRUE;
}

gboolean
tm_trace_builder_transaction (TmTraceBuilder *b, guint64 id, guint64 kind_id, guint64 thread_id,
                              guint64 begin_ns, guint64 end_ns, const guint64 *object_ids, gsize n,
                              GError **error)
{
  TmTrace *t = b->trace;
  TmTransaction tx = { 0 };
  gboolean ok = TRUE;

  if (!tm_id_map_lookup (&b->tx_kinds, kind_id, &tx.kind))
    return fail (error, "transaction of undefined kind %" G_GUINT64_FORMAT, kind_id);
  if (!tm_id_map_lookup (&b->threads, thread_id, &tx.thread))
    return fail (error, "transaction on undefined thread %" G_GUINT64_FORMAT, thread_id);
  if (!charge (b, sizeof tx + (guint64) n * sizeof (guint32), error))
    return FALSE;
  tx.id = id;
  tx.begin_ns = begin_ns;
  tx.end_ns = MAX (begin_ns, end_ns);
  tx.gcs_before_end = b->gcs_started;
  tx.first = t->tx_objects->len;
  for (gsize i = 0; i < n; i++)
    {
      guint64 index;

      if (!tm_trace_object_index_for_id_hint (t, object_ids[i], &b->death_hint, &index))
        {
          if (ok)
            ok = fail (error, "transaction %" G_GUINT64_FORMAT " names unknown object %" G_GUINT64_FORMAT,
                       id, object_ids[i]);
          continue;
        }
      g_array_append_val (t->tx_objects, (guint32) { (guint32) index });
      tx.n_objects++;
    }
  g_array_append_val (t->transactions, tx);
  t->duration_ns = MAX (t->duration_ns, tx.end_ns);
  return ok;
}
