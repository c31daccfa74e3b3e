/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-trace-writer.h"
#include "tm-trace-format.h"
#include "tm-varint.h"
#include "tm-error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

struct _TmTraceWriter {
  int          fd;            /* -1 for memory */
  gboolean     close_fd;
  gboolean     compress;
  int          level;
  gsize        frame_size;
  GByteArray  *raw;           /* current frame's raw bytes */
  GByteArray  *scratch;       /* payload under construction */
  GByteArray  *memory;        /* output of memory writers */
  ZSTD_CCtx   *cctx;
  void        *zbuf;
  gsize        zbuf_size;
  guint64      prev_alloc_id;
  guint64      raw_total;
  guint64      file_total;
  GError      *error;         /* first write error, latched */
  gboolean     closed;
};

static TmTraceWriter *
writer_new (int fd, gboolean close_fd, gboolean compress)
{
  TmTraceWriter *w = g_new0 (TmTraceWriter, 1);

  w->fd = fd;
  w->close_fd = close_fd;
  w->compress = compress;
  w->level = 3;
  w->frame_size = TM_TRACE_FRAME_RAW_BYTES;
  w->raw = g_byte_array_sized_new (1 << 16);
  w->scratch = g_byte_array_sized_new (256);
  if (compress)
    {
      w->cctx = ZSTD_createCCtx ();
      /* Checksums let readers notice a damaged frame. */
      ZSTD_CCtx_setParameter (w->cctx, ZSTD_c_checksumFlag, 1);
    }
  g_byte_array_append (w->raw, (const guint8 *) TM_TRACE_MAGIC, TM_TRACE_MAGIC_LEN);
  return w;
}

TmTraceWriter *
tm_trace_writer_new_for_path (const char *path, gboolean compress, GError **error)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return NULL;
    }
  return writer_new (fd, TRUE, compress);
}

TmTraceWriter *
tm_trace_writer_new_for_fd (int fd, gboolean close_fd, gboolean compress)
{
  return writer_new (fd, close_fd, compress);
}

TmTraceWriter *
tm_trace_writer_new_for_memory (gboolean compress)
{
  TmTraceWriter *w = writer_new (-1, FALSE, compress);
  w->memory = g_byte_array_new ();
  return w;
}

void
tm_trace_writer_set_level (TmTraceWriter *w, int zstd_level)
{
  w->level = zstd_level;
}

void
tm_trace_writer_set_frame_size (TmTraceWriter *w, gsize raw_bytes)
{
  w->frame_size = CLAMP (raw_bytes, 64, TM_TRACE_FRAME_RAW_BYTES);
}

static void
emit (TmTraceWriter *w, const guint8 *data, gsize len)
{
  if (w->error != NULL)
    return;
  w->file_total += len;
  if (w->memory != NULL)
    {
      g_byte_array_append (w->memory, data, len);
      return;
    }
  while (len > 0)
    {
      ssize_t n = write (w->fd, data, len);
      if (n < 0)
        {
          int e = errno;
          if (e == EINTR)
            continue;
          g_set_error (&w->error, G_IO_ERROR, g_io_error_from_errno (e), _("write failed: %s"), g_strerror (e));
          return;
        }
      data += n;
      len -= (gsize) n;
    }
}

static void
close_frame (TmTraceWriter *w)
{
  gsize bound, n;

  if (w->raw->len == 0)
    return;
  if (!w->compress)
    {
      emit (w, w->raw->data, w->raw->len);
      g_byte_array_set_size (w->raw, 0);
      return;
    }
  bound = ZSTD_compressBound (w->raw->len);
  if (bound > w->zbuf_size)
    {
      g_free (w->zbuf);
      w->zbuf = g_malloc (bound);
      w->zbuf_size = bound;
    }
  ZSTD_CCtx_setParameter (w->cctx, ZSTD_c_compressionLevel, w->level);
  n = ZSTD_compress2 (w->cctx, w->zbuf, w->zbuf_size, w->raw->data, w->raw->len);
  if (ZSTD_isError (n))
    {
      if (w->error == NULL)
        g_set_error (&w->error, TM_ERROR, TM_ERROR_FAILED, _("zstd: %s"), ZSTD_getErrorName (n));
    }
  else
    emit (w, w->zbuf, n);
  g_byte_array_set_size (w->raw, 0);
}

/* Appends one record (tag, len, payload) to the current frame. */
static void
record (TmTraceWriter *w, guint8 tag, const guint8 *payload, gsize len)
{
  guint8 head[11];
  guint n;

  head[0] = tag;
  n = 1 + tm_uvarint_write (head + 1, len);
  g_byte_array_append (w->raw, head, n);
  g_byte_array_append (w->raw, payload, len);
  w->raw_total += n + len;
  if (w->raw->len >= w->frame_size)
    close_frame (w);
}

/* Scratch payload builders */
static inline void
put_u (TmTraceWriter *w, guint64 v)
{
  guint8 buf[10];
  g_byte_array_append (w->scratch, buf, tm_uvarint_write (buf, v));
}

static inline void
put_s (TmTraceWriter *w, gint64 v)
{
  put_u (w, tm_zigzag (v));
}

static void
put_str (TmTraceWriter *w, const char *s)
{
  gsize len = s ? strlen (s) : 0;
  if (len > TM_TRACE_MAX_STRING)
    len = TM_TRACE_MAX_STRING;
  put_u (w, len);
  g_byte_array_append (w->scratch, (const guint8 *) (s ? s : ""), len);
}

static void
begin (TmTraceWriter *w)
{
  g_byte_array_set_size (w->scratch, 0);
}

static void
finish (TmTraceWriter *w, guint8 tag)
{
  record (w, tag, w->scratch->data, w->scratch->len);
}

void
tm_trace_writer_header (TmTraceWriter *w, const TmTraceHeader *h)
{
  begin (w);
  put_u (w, h->version ? h->version : 1);
  put_u (w, h->start_unix_ns);
  put_str (w, h->vm_name);
  put_str (w, h->vm_version);
  put_str (w, h->command_line);
  put_u (w, h->pointer_size ? h->pointer_size : 8);
  put_u (w, h->alloc_sample_bytes);
  put_u (w, h->flags);
  finish (w, TM_TAG_HEADER);
}

void
tm_trace_writer_space (TmTraceWriter *w, guint64 id, guint kind, const char *name)
{
  begin (w);
  put_u (w, id);
  put_u (w, kind);
  put_str (w, name);
  finish (w, TM_TAG_SPACE);
}

void
tm_trace_writer_type (TmTraceWriter *w, guint64 id, const char *name, guint32 flags)
{
  tm_trace_writer_type_full (w, id, name, flags, 0, 0, NULL);
}

void
tm_trace_writer_type_full (TmTraceWriter *w, guint64 id, const char *name, guint32 flags,
                           guint64 super_id, guint n_interfaces, const guint64 *interface_ids)
{
  begin (w);
  put_u (w, id);
  put_str (w, name);
  put_u (w, flags);
  if (super_id != 0 || n_interfaces > 0)
    {
      put_u (w, super_id);
      put_u (w, n_interfaces);
      for (guint i = 0; i < n_interfaces; i++)
        put_u (w, interface_ids[i]);
    }
  finish (w, TM_TAG_TYPE);
}

void
tm_trace_writer_frame (TmTraceWriter *w, guint64 id, const char *method, const char *file, gint64 line)
{
  begin (w);
  put_u (w, id);
  put_str (w, method);
  put_str (w, file);
  put_s (w, line);
  finish (w, TM_TAG_FRAME);
}

void
tm_trace_writer_site (TmTraceWriter *w, guint64 id, guint32 depth, const guint64 *frame_ids)
{
  begin (w);
  put_u (w, id);
  put_u (w, depth);
  for (guint32 i = 0; i < depth; i++)
    put_u (w, frame_ids[i]);
  finish (w, TM_TAG_SITE);
}

void
tm_trace_writer_thread (TmTraceWriter *w, guint64 id, const char *name)
{
  begin (w);
  put_u (w, id);
  put_str (w, name);
  finish (w, TM_TAG_THREAD);
}

void
tm_trace_writer_meta (TmTraceWriter *w, const char *key, const char *value)
{
  begin (w);
  put_str (w, key);
  put_str (w, value);
  finish (w, TM_TAG_META);
}

void
tm_trace_writer_alloc (TmTraceWriter *w, guint64 object_id, guint64 type_id, guint64 site_id,
                       guint64 thread_id, guint64 size, guint64 space_id, guint64 array_length)
{
  /* Hot path: encode on the stack. */
  guint8 buf[80];
  guint n = 0;

  n += tm_uvarint_write (buf + n, tm_zigzag ((gint64) (object_id - w->prev_alloc_id)));
  n += tm_uvarint_write (buf + n, type_id);
  n += tm_uvarint_write (buf + n, site_id);
  n += tm_uvarint_write (buf + n, thread_id);
  n += tm_uvarint_write (buf + n, size);
  n += tm_uvarint_write (buf + n, space_id);
  n += tm_uvarint_write (buf + n, array_length);
  w->prev_alloc_id = object_id;
  record (w, TM_TAG_ALLOC, buf, n);
}

static int
cmp_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static void
put_idlist (TmTraceWriter *w, const guint64 *ids, gsize n)
{
  g_autofree guint64 *sorted = NULL;
  gsize m = 0;

  for (gsize i = 1; i < n; i++)
    if (ids[i] <= ids[i - 1])
      {
        sorted = g_memdup2 (ids, n * sizeof (guint64));
        qsort (sorted, n, sizeof (guint64), cmp_u64);
        ids = sorted;
        break;
      }
  /* duplicates are not representable (difference >= 1): drop them */
  for (gsize i = 0; i < n; i++)
    if (i == 0 || ids[i] != ids[i - 1])
      m++;
  put_u (w, m);
  for (gsize i = 0; i < n; i++)
    {
      if (i == 0)
        put_u (w, ids[0]);
      else if (ids[i] != ids[i - 1])
        put_u (w, ids[i] - ids[i - 1]);
    }
}

void
tm_trace_writer_deaths (TmTraceWriter *w, guint64 gc_id, const guint64 *ids, gsize n)
{
  begin (w);
  put_u (w, gc_id);
  put_idlist (w, ids, n);
  finish (w, TM_TAG_DEATHS);
}

void
tm_trace_writer_moves (TmTraceWriter *w, guint64 space_id, const guint64 *ids, gsize n)
{
  begin (w);
  put_u (w, space_id);
  put_idlist (w, ids, n);
  finish (w, TM_TAG_MOVES);
}

void
tm_trace_writer_tick (TmTraceWriter *w, guint64 time_ns)
{
  begin (w);
  put_u (w, time_ns);
  finish (w, TM_TAG_TICK);
}

void
tm_trace_writer_gc_start (TmTraceWriter *w, guint64 gc_id, guint64 time_ns, guint kind,
                          const char *collector, const char *cause)
{
  begin (w);
  put_u (w, gc_id);
  put_u (w, time_ns);
  put_u (w, kind);
  put_str (w, collector);
  put_str (w, cause);
  finish (w, TM_TAG_GC_START);
}

void
tm_trace_writer_gc_end (TmTraceWriter *w, guint64 gc_id, guint64 time_ns, guint64 pause_ns,
                        guint n, const TmSpaceUsageRecord *usage)
{
  begin (w);
  put_u (w, gc_id);
  put_u (w, time_ns);
  put_u (w, pause_ns);
  put_u (w, n);
  for (guint i = 0; i < n; i++)
    {
      put_u (w, usage[i].space_id);
      put_u (w, usage[i].used_before);
      put_u (w, usage[i].used_after);
      put_u (w, usage[i].committed_after);
    }
  finish (w, TM_TAG_GC_END);
  /* A frame ends after every GC_END, so a cut file keeps whole GCs. */
  close_frame (w);
}

void
tm_trace_writer_graph_begin (TmTraceWriter *w, guint64 gc_id)
{
  begin (w);
  put_u (w, gc_id);
  finish (w, TM_TAG_GRAPH_BEGIN);
}

void
tm_trace_writer_roots (TmTraceWriter *w, guint n, const TmRootRecord *roots)
{
  begin (w);
  put_u (w, n);
  for (guint i = 0; i < n; i++)
    {
      put_u (w, roots[i].object_id);
      put_u (w, roots[i].kind);
      put_u (w, roots[i].thread_id);
    }
  finish (w, TM_TAG_ROOTS);
}

void
tm_trace_writer_refs (TmTraceWriter *w, guint64 object_id, guint n, const guint64 *targets)
{
  guint64 prev = object_id;

  begin (w);
  put_u (w, object_id);
  put_u (w, n);
  for (guint i = 0; i < n; i++)
    {
      put_s (w, (gint64) (targets[i] - prev));
      prev = targets[i];
    }
  finish (w, TM_TAG_REFS);
}

void
tm_trace_writer_graph_end (TmTraceWriter *w, guint64 gc_id, guint64 objects_listed)
{
  begin (w);
  put_u (w, gc_id);
  put_u (w, objects_listed);
  finish (w, TM_TAG_GRAPH_END);
  close_frame (w);
}

void
tm_trace_writer_graph_failed (TmTraceWriter *w, guint64 gc_id, const char *reason)
{
  begin (w);
  put_u (w, gc_id);
  put_str (w, reason);
  finish (w, TM_TAG_GRAPH_FAILED);
  close_frame (w);
}

void
tm_trace_writer_graph_context (TmTraceWriter *w, guint64 gc_id, guint context)
{
  begin (w);
  put_u (w, gc_id);
  put_u (w, context);
  finish (w, TM_TAG_GRAPH_CONTEXT);
}

void
tm_trace_writer_oom (TmTraceWriter *w, guint64 time_ns, guint64 gc_before, guint64 thread_id,
                     guint kind, const char *message)
{
  begin (w);
  put_u (w, time_ns);
  put_u (w, gc_before);
  put_u (w, thread_id);
  put_u (w, kind);
  put_str (w, message);
  finish (w, TM_TAG_OOM);
  /* The program may die right after: get the event to disk. */
  close_frame (w);
}

void
tm_trace_writer_container_op (TmTraceWriter *w, guint kind, guint64 time_ns, guint64 container_id,
                              guint64 element_id, guint64 site_id, guint64 thread_id)
{
  begin (w);
  put_u (w, kind);
  put_u (w, time_ns);
  put_u (w, container_id);
  put_u (w, element_id);
  put_u (w, site_id);
  put_u (w, thread_id);
  finish (w, TM_TAG_CONTAINER_OP);
}

void
tm_trace_writer_tx_kind (TmTraceWriter *w, guint64 id, const char *name)
{
  begin (w);
  put_u (w, id);
  put_str (w, name);
  finish (w, TM_TAG_TX_KIND);
}

void
tm_trace_writer_transaction (TmTraceWriter *w, guint64 id, guint64 kind_id, guint64 thread_id,
                             guint64 begin_ns, guint64 end_ns, const guint64 *object_ids, gsize n)
{
  begin (w);
  put_u (w, id);
  put_u (w, kind_id);
  put_u (w, thread_id);
  put_u (w, begin_ns);
  put_u (w, end_ns);
  put_idlist (w, object_ids, n);
  finish (w, TM_TAG_TRANSACTION);
}

void
tm_trace_writer_end (TmTraceWriter *w, guint64 allocs, guint64 deaths, guint64 gcs, guint64 time_ns)
{
  begin (w);
  put_u (w, allocs);
  put_u (w, deaths);
  put_u (w, gcs);
  put_u (w, time_ns);
  finish (w, TM_TAG_END);
}

void
tm_trace_writer_raw_record (TmTraceWriter *w, guint8 tag, const guint8 *payload, gsize len)
{
  record (w, tag, payload, len);
}

gboolean
tm_trace_writer_flush (TmTraceWriter *w, GError **error)
{
  close_frame (w);
  if (w->error != NULL)
    {
      if (error)
        *error = g_error_copy (w->error);
      return FALSE;
    }
  return TRUE;
}

gboolean
tm_trace_writer_close (TmTraceWriter *w, GError **error)
{
  gboolean ok;

  if (w->closed)
    return w->error == NULL;
  ok = tm_trace_writer_flush (w, error);
  w->closed = TRUE;
  if (w->fd >= 0 && w->close_fd)
    {
      if (close (w->fd) != 0 && ok)
        {
          int e = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), _("close failed: %s"), g_strerror (e));
          ok = FALSE;
        }
      w->fd = -1;
    }
  return ok;
}

GBytes *
tm_trace_writer_steal_bytes (TmTraceWriter *w)
{
  GByteArray *m;

  g_return_val_if_fail (w->memory != NULL, NULL);
  close_frame (w);
  m = w->memory;
  w->memory = g_byte_array_new ();
  return g_byte_array_free_to_bytes (m);
}

guint64
tm_trace_writer_raw_bytes (TmTraceWriter *w)
{
  return w->raw_total + TM_TRACE_MAGIC_LEN;
}

guint64
tm_trace_writer_file_bytes (TmTraceWriter *w)
{
  return w->file_total;
}

void
tm_trace_writer_free (TmTraceWriter *w)
{
  if (w == NULL)
    return;
  if (!w->closed)
    tm_trace_writer_close (w, NULL);
  g_byte_array_unref (w->raw);
  g_byte_array_unref (w->scratch);
  if (w->memory)
    g_byte_array_unref (w->memory);
  if (w->cctx)
    ZSTD_freeCCtx (w->cctx);
  g_free (w->zbuf);
  g_clear_error (&w->error);
  g_free (w);
}
