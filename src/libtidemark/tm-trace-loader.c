/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opens any supported input and builds the model.  For .tmtrace files the
 * records are decoded here and fed to TmTraceBuilder; other formats are
 * handed to their importer.
 *
 * Damage policy: a malformed payload (a field cut short, a count larger
 * than its record) stops reading there, because nothing after it can be
 * trusted; a well-formed record that breaks a rule of the format (an
 * undefined id, a GC out of order) is skipped with a warning.  Either way
 * the trace is marked incomplete and keeps everything read before.
 */
#include "tm-trace-loader.h"
#include "tm-trace-builder.h"
#include "tm-trace-reader.h"
#include "tm-trace-format.h"
#include "tm-payload.h"
#include "tm-vec.h"
#include "tm-error.h"
#include "tm-gclog.h"
#include "tm-heaptrack.h"
#include "tm-hprof.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

/* Importers of other formats register here. */
typedef struct {
  const char   *name;
  TmSniffFunc   sniff;
  TmImportFunc  import;
} TmImporter;

static const TmImporter importers[] = {
  { "hprof", tm_hprof_sniff, tm_hprof_import_full },
  { "heaptrack", tm_heaptrack_sniff, tm_heaptrack_import_full },
  { "gc-log", tm_gclog_sniff, tm_gclog_import_full },
  { NULL, NULL, NULL }
};

#define MAX_SKIPPED_RECORDS 1000
/* Progress per byte: this much raw stream without a record that this
 * reader uses (padding, records of unknown tags) ends the read.  Zero
 * bytes where a record starts end it at once (tag 0 is never written). */
#define MAX_RAW_WITHOUT_PROGRESS (G_GUINT64_CONSTANT (64) << 20)
#define PROGRESS_EVERY      (1u << 16)
/* A whole zstd block plus frame headers: enough to look inside zstd files. */
#define SNIFF_BYTES         (132u << 10)

typedef enum { DECODE_OK, DECODE_SKIP, DECODE_STOP } DecodeResult;

typedef struct {
  TmTraceBuilder *b;
  TmVecU64        ids;
  GArray         *usage;    /* TmSpaceUsageRecord */
  GArray         *roots;    /* TmRootRecord */
  guint64         prev_alloc_id;
  gboolean        have_header;
  gboolean        have_end;
  gboolean        stopped;
  gboolean        unknown_tag;   /* the last record was skipped as an extension */
} Decoder;

static DecodeResult
payload_error (TmPayload *c, guint8 tag, GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("record 0x%02x: %s is malformed or cut short"), tag,
               c->what ? c->what : "a field");
  return DECODE_STOP;
}

static DecodeResult
builder_result (gboolean ok)
{
  return ok ? DECODE_OK : DECODE_SKIP;
}

/* idlist: count, first id, then differences >= 1 */
static gboolean
read_idlist (TmPayload *c, TmVecU64 *ids)
{
  guint64 n = tm_payload_count (c, 1, "id list count");
  guint64 prev = 0;
  guint64 *out;

  ids->len = 0;
  tm_vec_u64_reserve (ids, (gsize) n);
  ids->len = (gsize) n;
  out = ids->data;
  for (guint64 i = 0; i < n && c->ok; i++)
    {
      guint64 v = tm_payload_u (c, "id list entry");
      if (i > 0)
        {
          if (v == 0 || v > G_MAXUINT64 - prev)
            {
              c->ok = FALSE;
              c->what = "id list difference";
              return FALSE;
            }
          v += prev;
        }
      out[i] = v;
      prev = v;
    }
  return c->ok;
}

/* The hot path: most records of a trace are ALLOCs. */
static inline DecodeResult
decode_alloc (Decoder *d, const TmRecord *rec, GError **error)
{
  const guint8 *p = rec->payload, *end = p + rec->len;
  const TmAllocFields *f = rec->alloc;
  guint64 v[7];

  if (G_LIKELY (f != NULL))
    {
      /* decoded on the decompression thread */
      d->prev_alloc_id += (guint64) ((gint64) (f->id_zigzag >> 1) ^ -(gint64) (f->id_zigzag & 1));
      return G_LIKELY (tm_trace_builder_alloc (d->b, d->prev_alloc_id, f->type, f->site, f->thread, f->size,
                                               f->space, f->array_length, error))
             ? DECODE_OK : DECODE_SKIP;
    }
  for (guint i = 0; i < 7; i++)
    if (G_UNLIKELY (!tm_uvarint_read (&p, end, &v[i])))
      {
        g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("record 0x10: ALLOC field %u is malformed or cut short"), i + 1);
        return DECODE_STOP;
      }
  d->prev_alloc_id += (guint64) ((gint64) (v[0] >> 1) ^ -(gint64) (v[0] & 1));
  return G_LIKELY (tm_trace_builder_alloc (d->b, d->prev_alloc_id, v[1], v[2], v[3], v[4], v[5], v[6], error))
         ? DECODE_OK : DECODE_SKIP;
}

/* The other hot record: a graph has one REFS per object with references. */
static inline DecodeResult
decode_refs (Decoder *d, const TmRecord *rec, GError **error)
{
  TmPayload c;
  guint64 src, n, prev;
  guint64 *out;

  if (G_LIKELY (rec->ids != NULL))
    /* decoded on the decompression thread */
    return builder_result (tm_trace_builder_refs (d->b, rec->ids[0], (guint) rec->n_ids, rec->ids + 1, error));
  tm_payload_init (&c, rec->payload, rec->len);
  src = tm_payload_u (&c, "REFS object");
  n = tm_payload_count (&c, 1, "REFS count");
  prev = src;
  d->ids.len = 0;
  tm_vec_u64_reserve (&d->ids, (gsize) n);
  out = d->ids.data;
  for (guint64 i = 0; i < n && c.ok; i++)
    {
      gint64 delta = tm_payload_s (&c, "REFS target");
      prev += (guint64) delta;
      out[i] = prev;
    }
  if (!c.ok)
    return payload_error (&c, rec->tag, error);
  d->ids.len = (gsize) n;
  return builder_result (tm_trace_builder_refs (d->b, src, (guint) n, d->ids.data, error));
}

static DecodeResult
decode (Decoder *d, const TmRecord *rec, GError **error)
{
  TmTraceBuilder *b = d->b;
  TmPayload c;

  tm_payload_init (&c, rec->payload, rec->len);

  if (G_LIKELY (rec->tag == TM_TAG_ALLOC))
    {
      gint64 delta = tm_payload_s (&c, "ALLOC id");
      guint64 type = tm_payload_u (&c, "ALLOC type");
      guint64 site = tm_payload_u (&c, "ALLOC site");
      guint64 thread = tm_payload_u (&c, "ALLOC thread");
      guint64 size = tm_payload_u (&c, "ALLOC size");
      guint64 space = tm_payload_u (&c, "ALLOC space");
      guint64 alen = tm_payload_u (&c, "ALLOC array length");
      guint64 id;

      if (!c.ok)
        return payload_error (&c, rec->tag, error);
      id = d->prev_alloc_id + (guint64) delta;
      d->prev_alloc_id = id;
      return builder_result (tm_trace_builder_alloc (b, id, type, site, thread, size, space, alen, error));
    }

  switch (rec->tag)
    {
    case TM_TAG_HEADER:
      {
        TmTraceHeader h = { 0 };
        g_autofree char *vm = NULL, *ver = NULL, *cmd = NULL;

        h.version = (guint32) tm_payload_u_max (&c, "HEADER version", G_MAXUINT32);
        h.start_unix_ns = tm_payload_u (&c, "HEADER start time");
        vm = tm_payload_str (&c, "HEADER vm name");
        ver = tm_payload_str (&c, "HEADER vm version");
        cmd = tm_payload_str (&c, "HEADER command line");
        h.pointer_size = (guint32) tm_payload_u_max (&c, "HEADER pointer size", 64);
        h.alloc_sample_bytes = tm_payload_u (&c, "HEADER sample bytes");
        h.flags = (guint32) tm_payload_u (&c, "HEADER flags");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        if (d->have_header)
          {
            g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("a second HEADER record"));
            return DECODE_SKIP;
          }
        if (h.version != 1)
          {
            g_set_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED,
                         _("trace format version %u is not supported (this reader knows version 1)"), h.version);
            return DECODE_STOP;
          }
        h.vm_name = vm;
        h.vm_version = ver;
        h.command_line = cmd;
        tm_trace_builder_header (b, &h);
        d->have_header = TRUE;
        return DECODE_OK;
      }

    case TM_TAG_SPACE:
      {
        guint64 id = tm_payload_u (&c, "SPACE id");
        guint64 kind = tm_payload_u (&c, "SPACE kind");
        g_autofree char *name = tm_payload_str (&c, "SPACE name");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_space (b, id, (guint) MIN (kind, 255), name, error));
      }

    case TM_TAG_TYPE:
      {
        guint64 id = tm_payload_u (&c, "TYPE id");
        g_autofree char *name = tm_payload_str (&c, "TYPE name");
        guint64 flags = tm_payload_u (&c, "TYPE flags");
        guint64 super = 0, n_ifaces = 0;

        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        if (!tm_trace_builder_type (b, id, name, (guint32) flags, error))
          return DECODE_SKIP;
        /* Trailing fields: superclass, then interfaces.  Bytes that do not
         * parse as such are some other extension and are ignored, as any
         * trailing bytes are. */
        d->ids.len = 0;
        if (c.p < c.end)
          super = tm_payload_u (&c, "TYPE superclass");
        if (c.ok && c.p < c.end)
          n_ifaces = tm_payload_count (&c, 1, "TYPE interface count");
        for (guint64 i = 0; i < n_ifaces && c.ok; i++)
          tm_vec_u64_push (&d->ids, tm_payload_u (&c, "TYPE interface"));
        if (!c.ok)
          return DECODE_OK;
        if (super == 0 && n_ifaces == 0)
          return DECODE_OK;
        return builder_result (tm_trace_builder_type_hierarchy (b, id, super, (guint) n_ifaces, d->ids.data, error));
      }

    case TM_TAG_FRAME:
      {
        guint64 id = tm_payload_u (&c, "FRAME id");
        g_autofree char *method = tm_payload_str (&c, "FRAME method");
        g_autofree char *file = tm_payload_str (&c, "FRAME file");
        gint64 line = tm_payload_s (&c, "FRAME line");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_frame (b, id, method, file, line, error));
      }

    case TM_TAG_SITE:
      {
        guint64 id = tm_payload_u (&c, "SITE id");
        guint64 depth = tm_payload_count (&c, 1, "SITE depth");
        d->ids.len = 0;
        for (guint64 i = 0; i < depth && c.ok; i++)
          tm_vec_u64_push (&d->ids, tm_payload_u (&c, "SITE frame"));
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_site (b, id, (guint32) depth, d->ids.data, error));
      }

    case TM_TAG_THREAD:
      {
        guint64 id = tm_payload_u (&c, "THREAD id");
        g_autofree char *name = tm_payload_str (&c, "THREAD name");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_thread (b, id, name, error));
      }

    case TM_TAG_META:
      {
        g_autofree char *key = tm_payload_str (&c, "META key");
        g_autofree char *value = tm_payload_str (&c, "META value");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        tm_trace_builder_meta (b, key, value);
        return DECODE_OK;
      }

    case TM_TAG_DEATHS:
    case TM_TAG_MOVES:
      if (rec->ids != NULL)
        /* DEATHS decoded on the decompression thread */
        return builder_result (tm_trace_builder_deaths (b, rec->ids[0], rec->ids + 1, rec->n_ids, error));
      {
        guint64 first = tm_payload_u (&c, rec->tag == TM_TAG_DEATHS ? "DEATHS gc id" : "MOVES space");
        const guint64 *ids;
        gboolean all_ok = TRUE;

        if (!read_idlist (&c, &d->ids))
          return payload_error (&c, rec->tag, error);
        ids = d->ids.data;
        if (rec->tag == TM_TAG_DEATHS)
          return builder_result (tm_trace_builder_deaths (b, first, ids, d->ids.len, error));
        for (gsize i = 0; i < d->ids.len; i++)
          {
            g_autoptr(GError) one = NULL;
            if (!tm_trace_builder_move (b, first, ids[i], &one) && all_ok)
              {
                all_ok = FALSE;
                g_propagate_error (error, g_steal_pointer (&one));
              }
          }
        return builder_result (all_ok);
      }

    case TM_TAG_CONTAINER_OP:
      {
        guint64 kind = tm_payload_u (&c, "CONTAINER_OP kind");
        guint64 t = tm_payload_u (&c, "CONTAINER_OP time");
        guint64 container = tm_payload_u (&c, "CONTAINER_OP container");
        guint64 element = tm_payload_u (&c, "CONTAINER_OP element");
        guint64 site = tm_payload_u (&c, "CONTAINER_OP site");
        guint64 thread = tm_payload_u (&c, "CONTAINER_OP thread");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_container_op (b, kind, t, container, element, site, thread, error));
      }

    case TM_TAG_TX_KIND:
      {
        guint64 id = tm_payload_u (&c, "TX_KIND id");
        g_autofree char *name = tm_payload_str (&c, "TX_KIND name");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_tx_kind (b, id, name, error));
      }

    case TM_TAG_TRANSACTION:
      {
        guint64 id = tm_payload_u (&c, "TRANSACTION id");
        guint64 kind = tm_payload_u (&c, "TRANSACTION kind");
        guint64 thread = tm_payload_u (&c, "TRANSACTION thread");
        guint64 begin_ns = tm_payload_u (&c, "TRANSACTION begin");
        guint64 end_ns = tm_payload_u (&c, "TRANSACTION end");

        if (!read_idlist (&c, &d->ids))
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_transaction (b, id, kind, thread, begin_ns, end_ns,
                                                             d->ids.data, d->ids.len, error));
      }

    case TM_TAG_TICK:
      {
        guint64 t = tm_payload_u (&c, "TICK time");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        tm_trace_builder_tick (b, t);
        return DECODE_OK;
      }

    case TM_TAG_GC_START:
      {
        guint64 id = tm_payload_u (&c, "GC_START gc id");
        guint64 t = tm_payload_u (&c, "GC_START time");
        guint64 kind = tm_payload_u (&c, "GC_START kind");
        g_autofree char *collector = tm_payload_str (&c, "GC_START collector");
        g_autofree char *cause = tm_payload_str (&c, "GC_START cause");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_gc_start (b, id, t, (guint) MIN (kind, 255), collector, cause, error));
      }

    case TM_TAG_GC_END:
      {
        guint64 id = tm_payload_u (&c, "GC_END gc id");
        guint64 t = tm_payload_u (&c, "GC_END time");
        guint64 pause = tm_payload_u (&c, "GC_END pause");
        guint64 n = tm_payload_count (&c, 4, "GC_END space count");
        g_array_set_size (d->usage, 0);
        for (guint64 i = 0; i < n && c.ok; i++)
          {
            TmSpaceUsageRecord u;
            u.space_id = tm_payload_u (&c, "GC_END space");
            u.used_before = tm_payload_u (&c, "GC_END used before");
            u.used_after = tm_payload_u (&c, "GC_END used after");
            u.committed_after = tm_payload_u (&c, "GC_END committed");
            g_array_append_val (d->usage, u);
          }
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_gc_end (b, id, t, pause, d->usage->len,
                                                        (const TmSpaceUsageRecord *) (gpointer) d->usage->data, error));
      }

    case TM_TAG_GRAPH_BEGIN:
      {
        guint64 id = tm_payload_u (&c, "GRAPH_BEGIN gc id");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_graph_begin (b, id, rec->frame_offset, rec->frame_skip, error));
      }

    case TM_TAG_ROOTS:
      {
        guint64 n = tm_payload_count (&c, 3, "ROOTS count");
        g_array_set_size (d->roots, 0);
        for (guint64 i = 0; i < n && c.ok; i++)
          {
            TmRootRecord root;
            root.object_id = tm_payload_u (&c, "ROOTS object");
            root.kind = (guint32) tm_payload_u_max (&c, "ROOTS kind", 255);
            root.thread_id = tm_payload_u (&c, "ROOTS thread");
            g_array_append_val (d->roots, root);
          }
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_roots (b, d->roots->len, (const TmRootRecord *) (gpointer) d->roots->data, error));
      }

    case TM_TAG_REFS:
      return decode_refs (d, rec, error);   /* the record loop calls it directly; decode() stays complete */

    case TM_TAG_GRAPH_END:
      {
        guint64 id = tm_payload_u (&c, "GRAPH_END gc id");
        guint64 listed = tm_payload_u (&c, "GRAPH_END objects listed");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_graph_end (b, id, listed, error));
      }

    case TM_TAG_OOM:
      {
        guint64 t = tm_payload_u (&c, "OOM time");
        guint64 gcs = tm_payload_u (&c, "OOM gc count");
        guint64 thread = tm_payload_u (&c, "OOM thread");
        guint64 kind = tm_payload_u (&c, "OOM kind");
        g_autofree char *message = tm_payload_str (&c, "OOM message");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_oom (b, t, gcs, thread, (guint) MIN (kind, 255), message, error));
      }

    case TM_TAG_GRAPH_FAILED:
      {
        guint64 id = tm_payload_u (&c, "GRAPH_FAILED gc id");
        g_autofree char *reason = tm_payload_str (&c, "GRAPH_FAILED reason");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_graph_failed (b, id, reason, error));
      }

    case TM_TAG_GRAPH_CONTEXT:
      {
        guint64 id = tm_payload_u (&c, "GRAPH_CONTEXT gc id");
        guint64 context = tm_payload_u (&c, "GRAPH_CONTEXT context");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        return builder_result (tm_trace_builder_graph_context (b, id, (guint) MIN (context, 255), error));
      }

    case TM_TAG_END:
      {
        guint64 allocs = tm_payload_u (&c, "END allocs");
        guint64 deaths = tm_payload_u (&c, "END deaths");
        guint64 gcs = tm_payload_u (&c, "END gcs");
        guint64 t = tm_payload_u (&c, "END time");
        if (!c.ok)
          return payload_error (&c, rec->tag, error);
        tm_trace_builder_end (b, allocs, deaths, gcs, t);
        d->have_end = TRUE;
        return DECODE_OK;
      }

    default:
      /* Unknown tags are extensions: skip them silently. */
      d->unknown_tag = TRUE;
      return DECODE_OK;
    }
}

/* Reader messages start with "FILE: "; the builder adds that itself. */
static const char *
without_name (const char *message, const char *path)
{
  gsize n = strlen (path);
  if (strncmp (message, path, n) == 0 && message[n] == ':' && message[n + 1] == ' ')
    return message + n + 2;
  return message;
}

/* Where a record is, for messages: the file offset (uncompressed files),
 * or the zstd frame's file offset and the raw stream offset. */
static char *
record_position (TmTraceReader *r, const TmRecord *rec)
{
  if (!tm_trace_reader_is_compressed (r))
    return g_strdup_printf ("byte offset %" G_GUINT64_FORMAT, rec->raw_offset);
  return g_strdup_printf ("raw stream offset %" G_GUINT64_FORMAT " (zstd frame at byte offset %" G_GUINT64_FORMAT ")",
                          rec->raw_offset, rec->frame_offset);
}

/* The file offset reading stopped at: the record's own for uncompressed
 * files, its frame's for zstd (where a reader can start again). */
static guint64
record_file_offset (TmTraceReader *r, const TmRecord *rec)
{
  return tm_trace_reader_is_compressed (r) ? rec->frame_offset : rec->raw_offset;
}

static void
stop_at (TmTraceBuilder *b, TmTraceReader *r, const TmRecord *rec, const char *why)
{
  g_autofree char *where = record_position (r, rec);

  tm_trace_builder_warning (b, record_file_offset (r, rec), "reading stopped at %s: %s", where, why);
  tm_trace_builder_stopped (b, record_file_offset (r, rec));
}

static TmTrace *
load_from_reader (TmTraceReader  *r,
                  const char     *path,
                  const TmLoadOptions *options,
                  TmProgressFunc  progress,
                  gpointer        progress_data,
                  GCancellable   *cancellable,
                  GError        **error)
{
  TmTraceBuilder *b = tm_trace_builder_new (path, "tmtrace");
  Decoder d = { 0 };
  guint64 n_records = 0, skipped = 0, progress_raw = 0;
  guint64 size = MAX (tm_trace_reader_file_size (r), 1);
  guint8 last_tag = 0;   /* of the last record read (after the header) */
  TmTrace *trace;

  tm_trace_builder_set_memory_limit (b, tm_load_options_memory_limit (options));
  if (options != NULL)
    tm_trace_builder_set_partial_timeline (b, options->partial_timeline, options->partial_data);
  d.b = b;
  d.usage = g_array_new (FALSE, FALSE, sizeof (TmSpaceUsageRecord));
  d.roots = g_array_new (FALSE, FALSE, sizeof (TmRootRecord));

  for (;;)
    {
      g_autoptr(GError) local = NULL;
      TmRecord rec;
      TmReadStatus st;
      DecodeResult res;

      /* After an ALLOC, the run of plain ALLOCs that follows in one go, up
       * to the record before the next progress check (that one, and any
       * the builder does not take in a run, go the one-record way below). */
      if (last_tag == TM_TAG_ALLOC)
        {
          const TmAllocFields *fields;
          gsize stride, n = tm_trace_reader_peek_allocs (r, &fields, &stride);

          n = MIN (n, PROGRESS_EVERY - 1 - n_records % PROGRESS_EVERY);
          if (n > 0 && (n = tm_trace_builder_alloc_fields (b, &d.prev_alloc_id, fields, stride, n)) > 0)
            {
              progress_raw = tm_trace_reader_skip_decoded (r, n);
              d.unknown_tag = FALSE;
              n_records += n;
              continue;
            }
        }
      /* the same for a graph's REFS records */
      else if (last_tag == TM_TAG_REFS)
        {
          const guint64 *ids;
          const guint32 *n_targets;
          gsize stride, n = tm_trace_reader_peek_refs (r, &ids, &n_targets, &stride);

          n = MIN (n, PROGRESS_EVERY - 1 - n_records % PROGRESS_EVERY);
          if (n > 0 && (n = tm_trace_builder_refs_run (b, ids, n_targets, stride, n)) > 0)
            {
              progress_raw = tm_trace_reader_skip_decoded (r, n);
              d.unknown_tag = FALSE;
              n_records += n;
              continue;
            }
        }

      st = tm_trace_reader_next (r, &rec, &local);
      last_tag = st == TM_READ_RECORD && d.have_header ? rec.tag : 0;

      if (st == TM_READ_EOF)
        break;
      if (st == TM_READ_ERROR)
        {
          if (!d.have_header)
            {
              /* nothing usable came before: the whole file is unusable */
              g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("%s: damaged header: %s"), path,
                           without_name (local->message, path));
              trace = NULL;
              goto out_free;
            }
          tm_trace_builder_warning (b, tm_trace_reader_consumed (r), "%s", without_name (local->message, path));
          tm_trace_builder_stopped (b, tm_trace_reader_consumed (r));
          d.stopped = TRUE;
          break;
        }

      if (!d.have_header && rec.tag != TM_TAG_HEADER)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_FORMAT,
                       "%s: damaged header: the first record (tag 0x%02x at raw offset %" G_GUINT64_FORMAT ") is not HEADER",
                       path, rec.tag, rec.raw_offset);
          trace = NULL;
          goto out_free;
        }

      if (G_LIKELY (rec.tag == TM_TAG_ALLOC))
        res = decode_alloc (&d, &rec, &local);
      else if (rec.tag == TM_TAG_REFS)
        res = decode_refs (&d, &rec, &local);
      else if (G_UNLIKELY (rec.tag == 0 && d.have_header))
        {
          stop_at (b, r, &rec, "zero bytes where a record starts: the file is damaged (zero-filled) from here");
          d.stopped = TRUE;
          break;
        }
      else
        res = decode (&d, &rec, &local);
      if (G_LIKELY (res == DECODE_OK && !d.unknown_tag))
        progress_raw = rec.raw_offset;
      else if (G_UNLIKELY (rec.raw_offset - progress_raw > MAX_RAW_WITHOUT_PROGRESS))
        {
          g_autofree char *why = g_strdup_printf ("%" G_GUINT64_FORMAT " MiB of the raw stream since offset %" G_GUINT64_FORMAT
                                                  " hold no record this reader uses (padding or damage)",
                                                  MAX_RAW_WITHOUT_PROGRESS >> 20, progress_raw);
          stop_at (b, r, &rec, why);
          d.stopped = TRUE;
          break;
        }
      d.unknown_tag = FALSE;
      if (G_UNLIKELY (res != DECODE_OK))
        {
          if (d.have_header && tm_trace_builder_over_memory_limit (b))
            {
              g_autofree char *where = record_position (r, &rec);
              tm_trace_builder_stop_at_memory_limit (b, record_file_offset (r, &rec), where);
              d.stopped = TRUE;
              break;
            }
          if (!d.have_header)
            {
              g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("%s: damaged header at byte offset 0: %s"),
                           path, local ? local->message : "malformed");
              trace = NULL;
              goto out_free;
            }
          if (res == DECODE_STOP)
            {
              stop_at (b, r, &rec, local ? local->message : "malformed record");
              d.stopped = TRUE;
              break;
            }
          {
            g_autofree char *where = record_position (r, &rec);
            tm_trace_builder_warning (b, record_file_offset (r, &rec), "record at %s skipped: %s",
                                      where, local ? local->message : "invalid");
          }
          if (++skipped >= MAX_SKIPPED_RECORDS)
            {
              stop_at (b, r, &rec, "too many invalid records");
              d.stopped = TRUE;
              break;
            }
        }

      if (G_UNLIKELY (++n_records % PROGRESS_EVERY == 0))
        {
          if (tm_trace_builder_over_memory_limit (b))
            {
              /* strings and metadata are accounted after the fact */
              g_autofree char *where = record_position (r, &rec);
              tm_trace_builder_stop_at_memory_limit (b, record_file_offset (r, &rec), where);
              d.stopped = TRUE;
              break;
            }
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              trace = NULL;
              goto out_free;
            }
          if (progress != NULL)
            progress ((double) tm_trace_reader_consumed (r) / (double) size, progress_data);
        }
    }

  if (!d.have_end && !d.stopped && tm_trace_builder_over_memory_limit (b))
    {
      /* the last records pushed it over */
      guint64 end = tm_trace_reader_consumed (r);
      g_autofree char *where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT, end);
      tm_trace_builder_stop_at_memory_limit (b, end, where);
    }
  else if (!d.have_end && !d.stopped)
    {
      guint64 end = tm_trace_reader_consumed (r);
      tm_trace_builder_warning (b, end, "no END record: the trace was cut short at byte offset %" G_GUINT64_FORMAT
                                " (everything before it is kept)", end);
      tm_trace_builder_stopped (b, end);
    }
  if (progress != NULL)
    progress (1.0, progress_data);
  trace = tm_trace_builder_finish (b);
  b = NULL;

out_free:
  if (b != NULL)
    tm_trace_builder_free (b);
  tm_vec_u64_clear (&d.ids);
  g_array_unref (d.usage);
  g_array_unref (d.roots);
  return trace;
}

static gssize
read_head (const char *path, guint8 *head, gsize len, GError **error)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  gssize n;

  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return -1;
    }
  n = read (fd, head, len);
  if (n < 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", path, g_strerror (e));
    }
  close (fd);
  return n;
}

const char *
tm_trace_detect_format (const char *path, GError **error)
{
  g_autofree guint8 *head = NULL;
  TmSniffResult sniff;
  gssize n;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("%s: is a directory"), path);
      return NULL;
    }
  head = g_malloc (SNIFF_BYTES);
  n = read_head (path, head, SNIFF_BYTES, error);
  if (n < 0)
    return NULL;
  if (n == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: empty file"), path);
      return NULL;
    }
  sniff = tm_trace_sniff_content (head, (gsize) n);
  if (sniff == TM_SNIFF_YES)
    return "tmtrace";
  for (guint i = 0; importers[i].name != NULL; i++)
    if (importers[i].sniff (head, (gsize) n))
      return importers[i].name;
  /* a zstd file too short to look into: most likely a trace cut early */
  if (sniff == TM_SNIFF_MAYBE)
    return "tmtrace";
  g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE,
               _("%s: not a trace of any known format (Tidemark trace, HotSpot GC log, heaptrack file or HPROF heap dump)"), path);
  return NULL;
}

TmTrace *
tm_trace_load (const char     *path,
               TmProgressFunc  progress,
               gpointer        progress_data,
               GCancellable   *cancellable,
               GError        **error)
{
  return tm_trace_load_full (path, NULL, progress, progress_data, cancellable, error);
}

TmTrace *
tm_trace_load_full (const char          *path,
                    const TmLoadOptions *options,
                    TmProgressFunc       progress,
                    gpointer             progress_data,
                    GCancellable        *cancellable,
                    GError             **error)
{
  const char *format;
  g_autoptr(TmTraceReader) r = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  format = tm_trace_detect_format (path, error);
  if (format == NULL)
    return NULL;

  if (strcmp (format, "tmtrace") != 0)
    {
      for (guint i = 0; importers[i].name != NULL; i++)
        if (strcmp (importers[i].name, format) == 0)
          return importers[i].import (path, options, progress, progress_data, cancellable, error);
      g_assert_not_reached ();
    }

  r = tm_trace_reader_new (path, error);
  if (r == NULL)
    return NULL;
  return load_from_reader (r, path, options, progress, progress_data, cancellable, error);
}

TmTrace *
tm_trace_load_files (const char *const   *paths,
                     guint                n_paths,
                     const TmLoadOptions *options,
                     TmProgressFunc       progress,
                     gpointer             progress_data,
                     GCancellable        *cancellable,
                     GError             **error)
{
  g_return_val_if_fail (paths != NULL && n_paths > 0, NULL);

  const char *first;

  if (n_paths == 1)
    return tm_trace_load_full (paths[0], options, progress, progress_data, cancellable, error);
  /* the rotated parts of one GC log, or heap dumps of one process */
  if ((first = tm_trace_detect_format (paths[0], error)) == NULL)
    return NULL;
  for (guint i = 0; i < n_paths; i++)
    {
      const char *format = tm_trace_detect_format (paths[i], error);
      if (format == NULL)
        return NULL;
      if ((strcmp (format, "gc-log") != 0 && strcmp (format, "hprof") != 0) || strcmp (format, first) != 0)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_FORMAT,
                       _("%s: only GC logs (as the rotated parts of one log) or HPROF heap dumps (of one process) "
                       "can be opened together, and this is a %s file"), paths[i], format);
          return NULL;
        }
    }
  if (strcmp (first, "hprof") == 0)
    return tm_hprof_import_many (paths, n_paths, options, progress, progress_data, cancellable, error);
  return tm_gclog_import_series (paths, n_paths, options, progress, progress_data, cancellable, error);
}

TmTrace *
tm_trace_load_bytes (GBytes *bytes, const char *name, GCancellable *cancellable, GError **error)
{
  return tm_trace_load_bytes_full (bytes, name, NULL, cancellable, error);
}

TmTrace *
tm_trace_load_bytes_full (GBytes *bytes, const char *name, const TmLoadOptions *options,
                          GCancellable *cancellable, GError **error)
{
  g_autoptr(TmTraceReader) r = NULL;
  TmTrace *trace;

  g_return_val_if_fail (bytes != NULL, NULL);
  r = tm_trace_reader_new_bytes (bytes, name, error);
  if (r == NULL)
    return NULL;
  trace = load_from_reader (r, name ? name : "(memory)", options, NULL, NULL, cancellable, error);
  if (trace != NULL)
    trace->source_bytes = g_bytes_ref (bytes);
  return trace;
}
