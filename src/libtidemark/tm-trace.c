/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-trace-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

static void
clear_space (gpointer p)
{
  g_free (((TmSpace *) p)->name);
}

static void
clear_type (gpointer p)
{
  g_free (((TmType *) p)->name);
  g_free (((TmType *) p)->interfaces);
}

static void
clear_tx_kind (gpointer p)
{
  g_free (((TmTxKind *) p)->name);
}

static void
clear_oom (gpointer p)
{
  g_free ((char *) ((TmOomEvent *) p)->message);
}

static void
clear_frame (gpointer p)
{
  TmFrame *f = p;
  g_free (f->method);
  g_free (f->file);
}

static void
clear_site (gpointer p)
{
  g_free (((TmSite *) p)->frames);
}

static void
clear_thread (gpointer p)
{
  g_free (((TmThread *) p)->name);
}

static void
clear_warning (gpointer p)
{
  g_free (((TmWarning *) p)->message);
}

static GArray *
table_new (gsize elt, GDestroyNotify clear, gpointer unknown_entry)
{
  GArray *a = g_array_new (FALSE, TRUE, elt);
  g_array_set_clear_func (a, clear);
  g_array_append_vals (a, unknown_entry, 1);
  return a;
}

TmTrace *
tm_trace_new (const char *path, const char *format)
{
  TmTrace *t = g_new0 (TmTrace, 1);
  TmSpace space = { 0, TM_SPACE_KIND_OTHER, g_strdup ("(unknown space)") };
  TmType type = { 0, g_strdup ("(unknown type)"), 0, TM_UNKNOWN, 0, NULL };
  TmFrame frame = { 0, g_strdup ("(unknown method)"), g_strdup (""), -1 };
  TmSite site = { 0, 0, NULL };
  TmThread thread = { 0, g_strdup ("(unknown thread)") };
  TmTxKind tx_kind = { 0, g_strdup ("(unknown transaction)") };

  t->ref_count = 1;
  t->path = g_strdup (path);
  t->format = g_strdup (format);
  t->vm_name = g_strdup ("");
  t->vm_version = g_strdup ("");
  t->command_line = g_strdup ("");
  t->meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->spaces = table_new (sizeof (TmSpace), clear_space, &space);
  t->types = table_new (sizeof (TmType), clear_type, &type);
  t->frames = table_new (sizeof (TmFrame), clear_frame, &frame);
  t->sites = table_new (sizeof (TmSite), clear_site, &site);
  t->threads = table_new (sizeof (TmThread), clear_thread, &thread);
  t->tx_kinds = table_new (sizeof (TmTxKind), clear_tx_kind, &tx_kind);
  t->transactions = g_array_new (FALSE, TRUE, sizeof (TmTransaction));
  t->tx_objects = g_array_new (FALSE, FALSE, sizeof (guint32));
  t->container_ops = g_array_new (FALSE, FALSE, sizeof (TmContainerOp));
  t->oom_events = g_array_new (FALSE, TRUE, sizeof (TmOomEvent));
  g_array_set_clear_func (t->oom_events, clear_oom);
  t->gcs = g_array_new (FALSE, TRUE, sizeof (TmGc));
  t->gc_phases = g_array_new (FALSE, TRUE, sizeof (TmGcPhase));
  t->space_usage = g_array_new (FALSE, TRUE, sizeof (TmSpaceUsage));
  t->warnings = g_array_new (FALSE, TRUE, sizeof (TmWarning));
  g_array_set_clear_func (t->warnings, clear_warning);
  t->short_lived = g_array_new (FALSE, FALSE, sizeof (TmShortLived));
  t->short_lived_first = g_array_new (FALSE, TRUE, sizeof (guint64));
  t->first_id = 0;
  t->strings = g_string_chunk_new (4096);
  t->string_set = g_hash_table_new (g_str_hash, g_str_equal);
  return t;
}

TmTrace *
tm_trace_ref (TmTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_atomic_int_inc (&trace->ref_count);
  return trace;
}

void
tm_trace_unref (TmTrace *t)
{
  g_return_if_fail (t != NULL);
  if (!g_atomic_int_dec_and_test (&t->ref_count))
    return;

  g_free (t->path);
  g_free (t->format);
  g_free (t->vm_name);
  g_free (t->vm_version);
  g_free (t->command_line);
  g_hash_table_unref (t->meta);
  g_array_unref (t->spaces);
  g_array_unref (t->types);
  g_array_unref (t->frames);
  g_array_unref (t->sites);
  g_array_unref (t->threads);
  g_array_unref (t->oom_events);
  g_array_unref (t->tx_kinds);
  g_array_unref (t->transactions);
  g_array_unref (t->tx_objects);
  g_array_unref (t->container_ops);
  g_free (t->obj_tx);
  g_array_unref (t->gcs);
  g_array_unref (t->gc_phases);
  g_clear_pointer (&t->gc_ages, g_array_unref);
  g_array_unref (t->space_usage);
  g_array_unref (t->warnings);
  g_free (t->obj_type);
  g_free (t->obj_site);
  g_free (t->obj_thread);
  g_free (t->obj_size);
  g_free (t->obj_death);
  g_free (t->obj_space);
  g_clear_pointer (&t->space_moves, g_array_unref);
  g_free (t->obj_ids);
  g_free (t->seq_blocks);
  g_free (t->row_blocks);
  g_array_unref (t->short_lived);
  g_array_unref (t->short_lived_first);
  g_clear_pointer (&t->size_overflow, g_hash_table_unref);
  g_clear_pointer (&t->id_index, g_hash_table_unref);
  g_clear_pointer (&t->source_bytes, g_bytes_unref);
  g_hash_table_unref (t->string_set);
  g_string_chunk_free (t->strings);
  g_free (t);
}

const char *
tm_trace_intern (TmTrace *t, const char *s, gsize *added)
{
  char *copy = g_hash_table_lookup (t->string_set, s);

  *added = 0;
  if (copy != NULL)
    return copy;
  copy = g_string_chunk_insert (t->strings, s);
  g_hash_table_add (t->string_set, copy);
  /* the copy, its hash table slot */
  *added = strlen (s) + 1 + 2 * sizeof (gpointer) + sizeof (guint);
  return copy;
}

guint64
tm_trace_object_size (const TmTrace *trace, guint64 index)
{
  guint32 s = trace->obj_size[index];

  if (G_UNLIKELY (s == TM_SIZE_OVERFLOW) && trace->size_overflow != NULL)
    {
      guint64 *big = g_hash_table_lookup (trace->size_overflow, &index);
      if (big != NULL)
        return *big;
    }
  return s;
}

guint64
tm_trace_object_id (const TmTrace *trace, guint64 index)
{
  return trace->obj_ids ? trace->obj_ids[index] : trace->first_id + tm_trace_object_seq (trace, index);
}

/* Galloping search from the hint, then binary search, in ascending keys. */
#define GALLOP_SEARCH(keys, n, key, hint, index)                        \
  G_STMT_START {                                                        \
    guint64 lo, hi, step;                                               \
    if ((n) == 0)                                                       \
      return FALSE;                                                     \
    lo = MIN (*(hint), (n) - 1);                                        \
    if ((keys)[lo] == (key))                                            \
      {                                                                 \
        *(index) = lo;                                                  \
        return TRUE;                                                    \
      }                                                                 \
    if ((keys)[lo] < (key))                                             \
      {                                                                 \
        step = 1;                                                       \
        hi = lo + 1;                                                    \
        while (hi < (n) && (keys)[hi] < (key))                          \
          {                                                             \
            lo = hi;                                                    \
            step *= 2;                                                  \
            hi = lo + step;                                             \
          }                                                             \
        if (hi > (n))                                                   \
          hi = (n);                                                     \
      }                                                                 \
    else                                                                \
      {                                                                 \
        hi = lo;                                                        \
        step = 1;                                                       \
        while (lo > 0 && (keys)[lo] > (key))                            \
          {                                                             \
            hi = lo;                                                    \
            lo = lo > step ? lo - step : 0;                             \
            step *= 2;                                                  \
          }                                                             \
        hi = hi + 1;                                                    \
      }                                                                 \
    while (lo < hi)                                                     \
      {                                                                 \
        guint64 mid = lo + (hi - lo) / 2;                               \
        if ((keys)[mid] < (key))                                        \
          lo = mid + 1;                                                 \
        else                                                            \
          hi = mid;                                                     \
      }                                                                 \
    if (lo < (n) && (keys)[lo] == (key))                                \
      {                                                                 \
        *(index) = lo;                                                  \
        *(hint) = lo;                                                   \
        return TRUE;                                                    \
      }                                                                 \
    return FALSE;                                                       \
  } G_STMT_END

gboolean
tm_trace_object_index_for_id_slow (const TmTrace *trace, guint64 id, guint64 *hint, guint64 *index)
{
  const guint64 *ids = trace->obj_ids;
  guint64 n = trace->n_objects;

  if (ids == NULL)   /* answered without a search */
    return tm_trace_object_index_for_id_hint (trace, id, hint, index);

  if (trace->id_index != NULL)
    {
      gpointer v = g_hash_table_lookup (trace->id_index, &id);
      if (v == NULL)
        return FALSE;
      *index = GPOINTER_TO_SIZE (v) - 1;
      return TRUE;
    }

  GALLOP_SEARCH (ids, n, id, hint, index);
}

gboolean
tm_trace_object_index_for_id (const TmTrace *trace, guint64 id, guint64 *index)
{
  guint64 hint = trace->n_objects / 2;
  g_return_val_if_fail (trace != NULL, FALSE);
  return tm_trace_object_index_for_id_hint (trace, id, &hint, index);
}

guint64
tm_trace_allocs_before_gc (const TmTrace *trace, guint32 gc_id)
{
  if (gc_id == 0)
    return 0;
  if (gc_id > trace->gcs->len)
    return trace->n_objects;
  return g_array_index (trace->gcs, TmGc, gc_id - 1).allocs_before;
}

guint64
tm_trace_gc_end_ns (const TmTrace *trace, guint32 gc_id)
{
  const TmGc *gc;

  if (gc_id == 0)
    return 0;
  gc = &g_array_index (trace->gcs, TmGc, gc_id - 1);
  return gc->end_ns > gc->start_ns ? gc->end_ns : gc->start_ns;
}

guint64
tm_trace_allocations_before_gc (const TmTrace *trace, guint32 gc_id)
{
  if (gc_id == 0)
    return 0;
  if (gc_id > trace->gcs->len)
    return trace->total_allocs;
  return g_array_index (trace->gcs, TmGc, gc_id - 1).allocations_before;
}

const TmShortLived *
tm_trace_short_lived (const TmTrace *trace, guint32 b, gsize *n)
{
  const GArray *first = trace->short_lived_first;
  guint64 lo, hi;

  if ((guint64) b + 1 >= first->len)
    {
      *n = 0;
      return NULL;
    }
  lo = g_array_index (first, guint64, b);
  hi = g_array_index (first, guint64, b + 1);
  *n = hi - lo;
  return hi > lo ? &g_array_index (trace->short_lived, TmShortLived, lo) : NULL;
}

guint32
tm_trace_object_birth_gc (const TmTrace *trace, guint64 index)
{
  /* Number of GCs with allocs_before <= index. */
  guint lo = 0, hi = trace->gcs->len;
  const TmGc *gcs = (const TmGc *) (gpointer) trace->gcs->data;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (gcs[mid].allocs_before <= index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
tm_trace_object_alive_after (const TmTrace *trace, guint64 index, guint32 gc_id)
{
  guint32 death = trace->obj_death[index];

  if (index >= tm_trace_allocs_before_gc (trace, gc_id))
    return FALSE;
  return death == TM_ALIVE || death > gc_id;
}

const char *
tm_gc_kind_to_string (TmGcKind kind)
{
  switch (kind)
    {
    case TM_GC_KIND_MINOR: return "minor";
    case TM_GC_KIND_MAJOR: return "major";
    case TM_GC_KIND_MIXED: return "mixed";
    case TM_GC_KIND_CONCURRENT: return "concurrent";
    case TM_GC_KIND_UNKNOWN:
    default: return "unknown";
    }
}

const char *
tm_gc_phase_kind_to_string (TmGcPhaseKind kind)
{
  switch (kind)
    {
    case TM_GC_PHASE_CYCLE: return "cycle";
    case TM_GC_PHASE_CONCURRENT: return "concurrent";
    case TM_GC_PHASE_PAUSE: return "pause";
    case TM_GC_PHASE_DEGENERATED: return "degenerated";
    case TM_GC_PHASE_FULL: return "full";
    case TM_GC_PHASE_STALL: return "stall";
    case TM_GC_PHASE_N_KINDS:
    default: return "unknown";
    }
}

gboolean
tm_gc_phase_kind_is_pause (TmGcPhaseKind kind)
{
  return kind == TM_GC_PHASE_PAUSE || kind == TM_GC_PHASE_DEGENERATED || kind == TM_GC_PHASE_FULL;
}

const char *
tm_space_kind_to_string (TmSpaceKind kind)
{
  switch (kind)
    {
    case TM_SPACE_KIND_YOUNG: return "young";
    case TM_SPACE_KIND_SURVIVOR: return "survivor";
    case TM_SPACE_KIND_OLD: return "old";
    case TM_SPACE_KIND_HUMONGOUS: return "humongous";
    case TM_SPACE_KIND_NON_HEAP: return "non-heap";
    case TM_SPACE_KIND_OTHER:
    default: return "other";
    }
}

const char *
tm_root_kind_to_string (guint kind)
{
  switch (kind)
    {
    /* marked for the app, which shows them translated */
    case TM_ROOT_KIND_STATIC: return N_("static field");
    case TM_ROOT_KIND_THREAD_STACK: return N_("thread stack");
    case TM_ROOT_KIND_JNI_GLOBAL: return N_("JNI global");
    case TM_ROOT_KIND_JNI_LOCAL: return N_("JNI local");
    case TM_ROOT_KIND_MONITOR: return N_("monitor");
    case TM_ROOT_KIND_SYSTEM_CLASS: return N_("system class");
    default: return N_("other");
    }
}

const char *
tm_oom_kind_to_string (TmOomKind kind)
{
  switch (kind)
    {
    case TM_OOM_JAVA_HEAP: return "Java heap space";
    case TM_OOM_METASPACE: return "metaspace";
    case TM_OOM_THREADS: return "native threads";
    default: return "other";
    }
}

const char *
tm_graph_context_to_string (TmGraphContext context)
{
  switch (context)
    {
    case TM_GRAPH_AT_OOM: return "at OutOfMemoryError";
    case TM_GRAPH_POST_MORTEM: return "post-mortem";
    default: return "after GC";
    }
}

gboolean
tm_trace_is_heap_dumps (const TmTrace *trace)
{
  return trace != NULL && g_strcmp0 (trace->format, "hprof") == 0;
}

double
tm_trace_heap_limit (const TmTrace *trace)
{
  const char *keys[] = { "jvm.MaxHeapSize", "gclog.max_heap" };
  double limit = 0;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *v = g_hash_table_lookup (trace->meta, keys[i]);
      if (v != NULL)
        limit = MAX (limit, g_ascii_strtod (v, NULL));
    }
  if (limit > 0)
    return limit;
  for (guint i = 0; i < trace->gcs->len; i++)
    limit = MAX (limit, (double) g_array_index (trace->gcs, TmGc, i).committed_after);
  return limit;
}

gboolean
tm_trace_type_is_a (const TmTrace *trace, guint32 type_index, guint32 ancestor_index)
{
  /* Hierarchies are shallow; the step bound guards against cycles in
   * damaged or hostile input. */
  guint32 stack[64];
  guint sp = 0, steps = 0;

  if (type_index == ancestor_index)
    return TRUE;
  if (ancestor_index == TM_UNKNOWN || type_index >= trace->types->len)
    return FALSE;
  stack[sp++] = type_index;
  while (sp > 0 && steps++ < 4096)
    {
      const TmType *t = tm_trace_type (trace, stack[--sp]);
      if (t->super == ancestor_index)
        return TRUE;
      for (guint32 i = 0; i < t->n_interfaces; i++)
        if (t->interfaces[i] == ancestor_index)
          return TRUE;
      if (t->super != TM_UNKNOWN && sp < G_N_ELEMENTS (stack))
        stack[sp++] = t->super;
      for (guint32 i = 0; i < t->n_interfaces && sp < G_N_ELEMENTS (stack); i++)
        stack[sp++] = t->interfaces[i];
    }
  return FALSE;
}

char *
tm_trace_site_label (const TmTrace *trace, guint32 site_index)
{
  const TmSite *site;
  const TmFrame *frame;

  if (site_index == 0 || site_index >= trace->sites->len)
    return g_strdup ("(unknown site)");
  site = tm_trace_site (trace, site_index);
  if (site->depth == 0)
    return g_strdup ("(unknown site)");
  frame = tm_trace_frame (trace, site->frames[0]);
  if (frame->line >= 0)
    return g_strdup_printf ("%s:%d", frame->method, frame->line);
  return g_strdup (frame->method);
}

gsize
tm_trace_object_memory (const TmTrace *trace)
{
  gsize per = sizeof (guint32) * 5, extra = 0;

  if (trace->obj_space)
    per += 1;
  if (trace->space_moves)
    extra += trace->space_moves->len * sizeof (TmSpaceMove);
  if (trace->obj_ids)
    per += sizeof (guint64);
  return per * trace->n_objects
         + trace->short_lived->len * sizeof (TmShortLived) + trace->n_seq_blocks * sizeof (TmSeqBlock)
         + trace->n_row_blocks * sizeof (guint32)
         + trace->short_lived_first->len * sizeof (guint64)
         + (trace->id_index ? g_hash_table_size (trace->id_index) * 48 : 0)
         + (trace->size_overflow ? g_hash_table_size (trace->size_overflow) * 48 : 0) + extra;
}

guint32
tm_trace_object_space_at (const TmTrace *trace, guint64 index, guint32 gc_id)
{
  const TmSpaceMove *m;
  guint32 space, seq, lo = 0, hi;

  if (trace->obj_space == NULL)
    return 0;
  space = trace->obj_space[index];
  if (trace->space_moves == NULL || trace->space_moves->len == 0)
    return space;
  m = (const TmSpaceMove *) (gconstpointer) trace->space_moves->data;
  seq = (guint32) tm_trace_object_seq (trace, index);
  hi = trace->space_moves->len;
  while (lo < hi)   /* the first move of seq */
    {
      guint32 mid = lo + (hi - lo) / 2;
      if (m[mid].seq < seq)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < trace->space_moves->len && m[lo].seq == seq && m[lo].gc <= gc_id; lo++)
    space = m[lo].space;
  return space;
}
