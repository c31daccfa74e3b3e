/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two-stage streaming reader.  The producer thread reads the file and
 * decompresses it frame by frame into a small ring of chunks; the caller's
 * thread splits chunks into records.  A record that straddles chunks is
 * assembled in a carry buffer that grows only with bytes that really
 * arrived, so a bogus length cannot make us allocate more than the data.
 */
#include "tm-trace-reader.h"
#include "tm-trace-format.h"
#include "tm-varint.h"
#include "tm-payload.h"
#include "tm-error.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#define CHUNK_SIZE  (1u << 20)
#define N_CHUNKS    4
#define INPUT_SIZE  (1u << 17)
/* REFS ids decoded per chunk at most (8 MiB); past it the loader decodes */
#define MAX_CHUNK_IDS (1u << 20)

typedef enum { CHUNK_DATA, CHUNK_EOF, CHUNK_ERROR } ChunkStatus;

/* A record wholly inside a chunk, found by the decompression thread. */
typedef struct {
  guint32       len;          /* payload bytes */
  guint8        head;         /* tag and length bytes */
  guint8        tag;          /* (the consumer of an ALLOC reads only this entry) */
  guint8        decoded;      /* ALLOC fields in `alloc`, REFS and DEATHS ids in `ids` */
  guint32       end;          /* where the record ends in the chunk */
  union {
    TmAllocFields alloc;
    struct {
      guint32   first;        /* the object's (GC's) id at chunk->ids[first], the list after it */
      guint32   n;            /* targets (dead objects) */
    } ids;
  };
} Entry;

typedef struct {
  guint8     *data;
  gsize       len;
  gsize       pos;
  guint64     frame_offset;   /* file offset of the frame (raw files: of the chunk) */
  guint64     raw_start;      /* raw bytes into that frame of data[0] */
  ChunkStatus status;
  char       *message;        /* for CHUNK_ERROR */
  Entry      *entries;        /* the records found in it, one after the other */
  guint64    *ids;            /* decoded REFS: object and target ids */
  gsize       n_ids, ids_cap;
  guint       n_entries, entries_cap, next_entry;
  gsize       entry_pos;      /* where entries[next_entry] starts */
} Chunk;

struct _TmTraceReader {
  char         *name;
  int           fd;            /* -1 for memory */
  GBytes       *bytes;
  guint64       file_size;
  gboolean      compressed;

  guint64       start_offset;  /* where reading starts (seek) */
  guint64       start_skip;
  gboolean      started;

  /* producer */
  GThread      *thread;
  GAsyncQueue  *full;
  GAsyncQueue  *free_chunks;
  gint          stop;
  guint64       consumed;      /* atomic */
  /* the producer's split: where the next record starts */
  guint64       split_skip;    /* bytes of a record in progress still to come */
  guint8        split_head[11];/* a record header cut by a chunk's end */
  guint         split_head_len;
  gboolean      split_lost;    /* a bad header: the consumer alone goes on */

  /* consumer */
  Chunk        *cur;
  GByteArray   *carry;
  guint64       carry_frame_offset;
  guint64       carry_raw_start;
  guint64       raw_offset;    /* logical raw position (from the read's start) */
  gsize         pending;       /* bytes of the last record, consumed on the next call */
  gboolean      finished;
  GError       *final_error;
};

gboolean
tm_trace_sniff (const guint8 *head, gsize len)
{
  if (len >= 4)
    {
      guint32 m = (guint32) head[0] | (guint32) head[1] << 8 | (guint32) head[2] << 16 | (guint32) head[3] << 24;
      if (m == ZSTD_MAGICNUMBER)
        return TRUE;
      /* A skippable frame may lead a zstd file. */
      if ((m & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START)
        return TRUE;
    }
  return len >= TM_TRACE_MAGIC_LEN && memcmp (head, TM_TRACE_MAGIC, TM_TRACE_MAGIC_LEN) == 0;
}

TmSniffResult
tm_trace_sniff_content (const guint8 *head, gsize len)
{
  ZSTD_DCtx *dctx;
  guint8 out[TM_TRACE_MAGIC_LEN];
  ZSTD_inBuffer in = { head, len, 0 };
  ZSTD_outBuffer o = { out, sizeof out, 0 };
  TmSniffResult result;

  if (!tm_trace_sniff (head, len))
    return TM_SNIFF_NO;
  if (len >= TM_TRACE_MAGIC_LEN && memcmp (head, TM_TRACE_MAGIC, TM_TRACE_MAGIC_LEN) == 0)
    return TM_SNIFF_YES;

  dctx = ZSTD_createDCtx ();
  ZSTD_DCtx_setParameter (dctx, ZSTD_d_windowLogMax, 27);
  /* Skippable frames produce no output: keep going while input lasts. */
  while (o.pos < o.size && in.pos < in.size)
    {
      size_t ret = ZSTD_decompressStream (dctx, &o, &in);
      if (ZSTD_isError (ret))
        break;
      if (ret != 0 && in.pos == in.size)
        break;
    }
  if (o.pos == o.size)
    result = memcmp (out, TM_TRACE_MAGIC, TM_TRACE_MAGIC_LEN) == 0 ? TM_SNIFF_YES : TM_SNIFF_NO;
  else
    result = TM_SNIFF_MAYBE;
  ZSTD_freeDCtx (dctx);
  return result;
}

static gssize
source_read (TmTraceReader *r, guint64 offset, guint8 *buf, gsize len, GError **error)
{
  if (r->bytes != NULL)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (r->bytes, &size);
      if (offset >= size)
        return 0;
      len = MIN (len, size - offset);
      memcpy (buf, data + offset, len);
      return (gssize) len;
    }
  for (;;)
    {
      gssize n = pread (r->fd, buf, len, (off_t) offset);
      if (n >= 0)
        return n;
      if (errno == EINTR)
        continue;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s: read failed at byte offset %" G_GUINT64_FORMAT ": %s",
                   r->name, offset, g_strerror (errno));
      return -1;
    }
}

static TmTraceReader *
reader_new (const char *name, int fd, GBytes *bytes, guint64 size, GError **error)
{
  TmTraceReader *r = g_new0 (TmTraceReader, 1);
  guint8 head[16];
  gssize n;

  r->name = g_strdup (name);
  r->fd = fd;
  r->bytes = bytes ? g_bytes_ref (bytes) : NULL;
  r->file_size = size;
  n = source_read (r, 0, head, sizeof head, error);
  if (n < 0)
    {
      tm_trace_reader_free (r);
      return NULL;
    }
  if (!tm_trace_sniff (head, (gsize) n))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: not a Tidemark trace (no zstd frame or TMTRACE1 magic at byte offset 0)"), name);
      tm_trace_reader_free (r);
      return NULL;
    }
  r->compressed = memcmp (head, TM_TRACE_MAGIC, MIN ((gsize) n, TM_TRACE_MAGIC_LEN)) != 0;
  r->full = g_async_queue_new ();
  r->free_chunks = g_async_queue_new ();
  r->carry = g_byte_array_new ();
  return r;
}

TmTraceReader *
tm_trace_reader_new (const char *path, GError **error)
{
  int fd;
  GStatBuf st;

  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s: not a regular file"), path);
      close (fd);
      return NULL;
    }
  return reader_new (path, fd, NULL, (guint64) st.st_size, error);
}

TmTraceReader *
tm_trace_reader_new_for_fd (int fd, const char *name, GError **error)
{
  GStatBuf st;
  int own;

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s: not a regular file"), name);
      return NULL;
    }
  if ((own = fcntl (fd, F_DUPFD_CLOEXEC, 0)) < 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", name, g_strerror (e));
      return NULL;
    }
  return reader_new (name, own, NULL, (guint64) st.st_size, error);
}

TmTraceReader *
tm_trace_reader_new_bytes (GBytes *bytes, const char *name, GError **error)
{
  return reader_new (name ? name : "(memory)", -1, bytes, g_bytes_get_size (bytes), error);
}

void
tm_trace_reader_seek (TmTraceReader *r, guint64 frame_offset, guint64 frame_skip)
{
  g_return_if_fail (!r->started);
  r->start_offset = frame_offset;
  r->start_skip = frame_skip;
}

gboolean
tm_trace_reader_is_compressed (TmTraceReader *r)
{
  return r->compressed;
}

guint64
tm_trace_reader_file_size (TmTraceReader *r)
{
  return r->file_size;
}

guint64
tm_trace_reader_consumed (TmTraceReader *r)
{
  return (guint64) g_atomic_pointer_get ((gpointer *) &r->consumed);
}

const char *
tm_trace_reader_name (TmTraceReader *r)
{
  return r->name;
}

/* ---- producer ---------------------------------------------------------- */

static Chunk *
take_free_chunk (TmTraceReader *r)
{
  while (!g_atomic_int_get (&r->stop))
    {
      Chunk *c = g_async_queue_timeout_pop (r->free_chunks, 100 * 1000);
      if (c != NULL)
        {
          c->len = c->pos = 0;
          c->n_entries = c->next_entry = 0;
          c->n_ids = 0;
          c->entry_pos = 0;
          c->status = CHUNK_DATA;
          g_clear_pointer (&c->message, g_free);
          return c;
        }
    }
  return NULL;
}

static void
push_end (TmTraceReader *r, ChunkStatus status, char *message)
{
  Chunk *c = g_new0 (Chunk, 1);
  c->status = status;
  c->message = message;
  g_async_queue_push (r->full, c);
}

static void
set_consumed (TmTraceReader *r, guint64 v)
{
  g_atomic_pointer_set ((gpointer *) &r->consumed, GSIZE_TO_POINTER ((gsize) v));
}

/* The fields of an ALLOC payload if well-formed and narrow (else the
 * consumer decodes it and says what is wrong). */
static gboolean
decode_alloc_fields (const guint8 *p, const guint8 *end, TmAllocFields *f)
{
  guint64 v[7];

  for (guint i = 0; i < 7; i++)
    if (G_UNLIKELY (!tm_uvarint_read (&p, end, &v[i])))
      return FALSE;
  if (G_UNLIKELY ((v[0] | v[1] | v[2] | v[3] | v[4] | v[5] | v[6]) > G_MAXUINT32))
    return FALSE;
  f->id_zigzag = (guint32) v[0];
  f->type = (guint32) v[1];
  f->site = (guint32) v[2];
  f->thread = (guint32) v[3];
  f->size = (guint32) v[4];
  f->space = (guint32) v[5];
  f->array_length = (guint32) v[6];
  return TRUE;
}

/* One field of an ALLOC record that lies well inside its chunk: reads
 * at most 5 bytes without a bound check (the caller made sure they are
 * there); *wide is set for anything but a varint below 2^32 of at most 5
 * bytes, which the checked decoder then judges. */
static inline guint32
alloc_field (const guint8 **pp, gboolean *wide)
{
  const guint8 *q = *pp;
  guint32 v = q[0];

  if (G_LIKELY (v < 0x80))
    {
      *pp = q + 1;
      return v;
    }
  v = (v & 0x7f) | (guint32) q[1] << 7;
  if (G_LIKELY (q[1] < 0x80))
    {
      *pp = q + 2;
      return v;
    }
  v = (v & 0x3fff) | (guint32) q[2] << 14;
  if (q[2] < 0x80)
    {
      *pp = q + 3;
      return v;
    }
  v = (v & 0x1fffff) | (guint32) q[3] << 21;
  if (q[3] < 0x80)
    {
      *pp = q + 4;
      return v;
    }
  if (q[4] < 0x10)
    {
      *pp = q + 5;
      return (v & 0xfffffff) | (guint32) q[4] << 28;
    }
  *wide = TRUE;
  return 0;
}

/* decode_alloc_fields() for a record followed by at least 35 more bytes
 * of its chunk (seven 5-byte fields cannot read past them): no bound
 * check per byte, no 64-bit detour.  A field that runs past the record
 * or is not a narrow varint sends it to the checked decoder, so both
 * accept exactly the same records. */
static inline gboolean
decode_alloc_fast (const guint8 *p, const guint8 *end, TmAllocFields *f)
{
  const guint8 *q = p;
  gboolean wide = FALSE;

  f->id_zigzag = alloc_field (&q, &wide);
  f->type = alloc_field (&q, &wide);
  f->site = alloc_field (&q, &wide);
  f->thread = alloc_field (&q, &wide);
  f->size = alloc_field (&q, &wide);
  f->space = alloc_field (&q, &wide);
  f->array_length = alloc_field (&q, &wide);
  if (G_UNLIKELY (wide || q > end))
    return decode_alloc_fields (p, end, f);
  return TRUE;
}

static G_GNUC_NO_INLINE guint64 *
grow_ids (Chunk *c, guint64 n)
{
  if (n + 1 > MAX_CHUNK_IDS - MIN (c->n_ids, MAX_CHUNK_IDS))
    return NULL;
  c->ids_cap = MAX (MAX (c->ids_cap * 2, c->n_ids + n + 1), 4096);
  c->ids = g_renew (guint64, c->ids, c->ids_cap);
  return c->ids + c->n_ids;
}

/* Room for n + 1 more ids in c->ids (NULL past MAX_CHUNK_IDS). */
static inline guint64 *
reserve_ids (Chunk *c, guint64 n)
{
  if (G_LIKELY (n < c->ids_cap - c->n_ids && c->n_ids + n < MAX_CHUNK_IDS))
    return c->ids + c->n_ids;
  return grow_ids (c, n);
}

static void
take_ids (Chunk *c, guint64 n, Entry *e)
{
  e->ids.first = (guint32) c->n_ids;
  e->ids.n = (guint32) n;
  c->n_ids += n + 1;
}

/* A varint of an id list in a record followed by at least 10 more bytes
 * of its chunk: those of up to four bytes without a bound check per byte
 * (q < end is the caller's; it checks q <= end once at the end, since
 * such a read may end up to three bytes past the record), longer ones
 * checked. */
static inline gboolean
list_varint (const guint8 **pp, const guint8 *end, guint64 *v)
{
  const guint8 *q = *pp;

  if (G_LIKELY (q[0] < 0x80))
    {
      *v = q[0];
      *pp = q + 1;
      return TRUE;
    }
  if (G_LIKELY (q[1] < 0x80))
    {
      *v = (q[0] & 0x7f) | (guint64) q[1] << 7;
      *pp = q + 2;
      return TRUE;
    }
  if (q[2] < 0x80)
    {
      *v = (q[0] & 0x7f) | (guint64) (q[1] & 0x7f) << 7 | (guint64) q[2] << 14;
      *pp = q + 3;
      return TRUE;
    }
  if (q[3] < 0x80)
    {
      *v = (q[0] & 0x7f) | (guint64) (q[1] & 0x7f) << 7 | (guint64) (q[2] & 0x7f) << 14 | (guint64) q[3] << 21;
      *pp = q + 4;
      return TRUE;
    }
  return tm_uvarint_read (pp, end, v);
}

/* A REFS record's object and absolute target ids into c->ids, decoded
 * exactly as the loader's decode_refs() does; FALSE (the loader decodes
 * it, and reports what is wrong) for anything it would not accept.
 * `slack`: the record is followed by at least 10 more bytes in memory. */
static gboolean
decode_refs_ids (Chunk *c, const guint8 *p, gsize len, gboolean slack, Entry *e)
{
  TmPayload pl;
  guint64 src, n, prev;
  guint64 *out;

  if (slack)
    {
      const guint8 *q = p, *end = p + len;

      /* the object's id and the count, then at least a byte per target */
      if (G_UNLIKELY (q >= end || !list_varint (&q, end, &src) || q >= end || !list_varint (&q, end, &n)
                      || q > end || n > (guint64) (end - q) || (out = reserve_ids (c, n)) == NULL))
        return FALSE;
      out[0] = src;
      prev = src;
      for (guint64 i = 0; i < n; i++)
        {
          guint64 u;

          if (G_UNLIKELY (q >= end || !list_varint (&q, end, &u)))
            return FALSE;
          prev += (guint64) ((gint64) (u >> 1) ^ -(gint64) (u & 1));
          out[1 + i] = prev;
        }
      if (G_UNLIKELY (q > end))
        return FALSE;
      take_ids (c, n, e);
      return TRUE;
    }
  tm_payload_init (&pl, p, len);
  src = tm_payload_u (&pl, NULL);
  n = tm_payload_count (&pl, 1, NULL);
  if (!pl.ok || (out = reserve_ids (c, n)) == NULL)
    return FALSE;
  out[0] = src;
  prev = src;
  for (guint64 i = 0; i < n && pl.ok; i++)
    {
      prev += (guint64) tm_payload_s (&pl, NULL);
      out[1 + i] = prev;
    }
  if (!pl.ok)
    return FALSE;
  take_ids (c, n, e);
  return TRUE;
}

/* A DEATHS record's GC and dead ids (an id list: count, the first id,
 * differences >= 1), as the loader's read_idlist() accepts them. */
static gboolean
decode_deaths_ids (Chunk *c, const guint8 *p, gsize len, gboolean slack, Entry *e)
{
  TmPayload pl;
  guint64 gc, n, prev = 0;
  guint64 *out;

  tm_payload_init (&pl, p, len);
  gc = tm_payload_u (&pl, NULL);
  n = tm_payload_count (&pl, 1, NULL);
  if (!pl.ok || (out = reserve_ids (c, n)) == NULL)
    return FALSE;
  out[0] = gc;
  if (slack && n > 0)
    {
      const guint8 *q = pl.p, *end = pl.end;

      if (!tm_uvarint_read (&q, end, &prev))
        return FALSE;
      out[1] = prev;
      for (guint64 i = 1; i < n; i++)
        {
          guint64 v;

          if (G_UNLIKELY (q >= end || !list_varint (&q, end, &v) || v == 0 || v > G_MAXUINT64 - prev))
            return FALSE;
          prev += v;
          out[1 + i] = prev;
        }
      if (G_UNLIKELY (q > end))
        return FALSE;
      take_ids (c, n, e);
      return TRUE;
    }
  for (guint64 i = 0; i < n && pl.ok; i++)
    {
      guint64 v = tm_payload_u (&pl, NULL);
      if (i > 0)
        {
          if (v == 0 || v > G_MAXUINT64 - prev)
            return FALSE;
          v += prev;
        }
      out[1 + i] = v;
      prev = v;
    }
  if (!pl.ok)
    return FALSE;
  take_ids (c, n, e);
  return TRUE;
}

/* Parses a record header: FALSE if cut short (*bad unset) or bad. */
static gboolean
split_header (const guint8 *p, gsize avail, guint64 *len, gsize *head, gboolean *bad)
{
  const guint8 *q = p + 1;

  *bad = FALSE;
  if (avail < 2 || !tm_uvarint_read (&q, p + avail, len))
    {
      *bad = avail >= 11;
      return FALSE;
    }
  if (*len > TM_TRACE_MAX_RECORD)
    {
      *bad = TRUE;
      return FALSE;
    }
  *head = (gsize) (q - p);
  return TRUE;
}

/* On the decompression thread: finds the records wholly inside chunk c,
 * carrying over a record cut by the chunk's end.  Only a hint: the
 * consumer takes an entry only where its own position says a record
 * starts, and splits by itself where there is none. */
static void
split_chunk (TmTraceReader *r, Chunk *c)
{
  gsize pos = 0;

  if (r->split_lost)
    return;
  if (r->split_head_len > 0)
    {
      guint8 tmp[22];
      gsize take = MIN (sizeof r->split_head, c->len), head;
      guint64 len;
      gboolean bad;

      memcpy (tmp, r->split_head, r->split_head_len);
      memcpy (tmp + r->split_head_len, c->data, take);
      if (!split_header (tmp, r->split_head_len + take, &len, &head, &bad))
        {
          if (bad || r->split_head_len + take >= sizeof r->split_head)
            r->split_lost = TRUE;
          else
            {
              memcpy (r->split_head + r->split_head_len, c->data, take);
              r->split_head_len += (guint) take;
            }
          return;
        }
      r->split_skip = head + len - r->split_head_len;
      r->split_head_len = 0;
    }
  if (r->split_skip >= c->len)
    {
      r->split_skip -= c->len;
      return;
    }
  pos = (gsize) r->split_skip;
  r->split_skip = 0;
  c->entry_pos = pos;

  while (pos < c->len)
    {
      const guint8 *p = c->data + pos;
      gsize avail = c->len - pos, head;
      guint64 len;
      gboolean bad;
      Entry *e;

      /* the usual header: a tag and a one-byte length */
      if (G_LIKELY (avail >= 2 && p[1] < 0x80))
        {
          len = p[1];
          head = 2;
        }
      else if (!split_header (p, MIN (avail, 11), &len, &head, &bad))
        {
          if (bad)
            r->split_lost = TRUE;
          else
            {
              memcpy (r->split_head, p, avail);
              r->split_head_len = (guint) avail;
            }
          return;
        }
      if (len > avail - head)
        {
          r->split_skip = head + len - avail;
          return;
        }
      if (G_UNLIKELY (c->n_entries == c->entries_cap))
        {
          c->entries_cap = MAX (c->entries_cap * 2, 4096);
          c->entries = g_renew (Entry, c->entries, c->entries_cap);
        }
      e = &c->entries[c->n_entries++];
      e->end = (guint32) (pos + head + len);
      e->len = (guint32) len;
      e->head = (guint8) head;
      e->tag = p[0];
      if (p[0] == TM_TAG_ALLOC)
        e->decoded = G_LIKELY (avail - head - len >= 35)
                     ? decode_alloc_fast (p + head, p + head + len, &e->alloc)
                     : decode_alloc_fields (p + head, p + head + len, &e->alloc);
      else if (p[0] == TM_TAG_REFS)
        e->decoded = decode_refs_ids (c, p + head, (gsize) len, avail - head - len >= 10, e);
      else
        e->decoded = p[0] == TM_TAG_DEATHS && decode_deaths_ids (c, p + head, (gsize) len, avail - head - len >= 10, e);
      pos += head + (gsize) len;
    }
}

static void
produce_raw (TmTraceReader *r)
{
  guint64 offset = r->start_offset;

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      Chunk *c = take_free_chunk (r);
      gssize n;

      if (c == NULL)
        return;
      n = source_read (r, offset, c->data, CHUNK_SIZE, &error);
      if (n < 0)
        {
          g_async_queue_push (r->free_chunks, c);
          push_end (r, CHUNK_ERROR, g_strdup (error->message));
          return;
        }
      if (n == 0)
        {
          g_async_queue_push (r->free_chunks, c);
          push_end (r, CHUNK_EOF, NULL);
          return;
        }
      c->len = (gsize) n;
      c->frame_offset = offset;
      c->raw_start = 0;
      offset += (guint64) n;
      set_consumed (r, offset);
      split_chunk (r, c);
      g_async_queue_push (r->full, c);
    }
}

static void
produce_zstd (TmTraceReader *r)
{
  ZSTD_DCtx *dctx = ZSTD_createDCtx ();
  g_autofree guint8 *inbuf = g_malloc (INPUT_SIZE);
  ZSTD_inBuffer in = { inbuf, 0, 0 };
  guint64 in_offset = r->start_offset;   /* file offset of inbuf[0] */
  guint64 frame_start = r->start_offset;
  guint64 raw_in_frame = 0;
  gboolean mid_frame = FALSE;
  gboolean eof = FALSE;

  /* Our frames are at most 8 MiB; refuse absurd window sizes from damaged
   * or hostile headers instead of allocating them. */
  ZSTD_DCtx_setParameter (dctx, ZSTD_d_windowLogMax, 27);

  while (!eof)
    {
      Chunk *c = take_free_chunk (r);

      if (c == NULL)
        break;
      c->frame_offset = frame_start;
      c->raw_start = raw_in_frame;

      while (c->len < CHUNK_SIZE)
        {
          ZSTD_outBuffer out = { c->data, CHUNK_SIZE, c->len };
          size_t ret;

          if (in.pos == in.size)
            {
              g_autoptr(GError) error = NULL;
              gssize n;

              in_offset += in.size;
              n = source_read (r, in_offset, inbuf, INPUT_SIZE, &error);
              if (n < 0)
                {
                  g_async_queue_push (r->full, c);
                  push_end (r, CHUNK_ERROR, g_strdup (error->message));
                  ZSTD_freeDCtx (dctx);
                  return;
                }
              in.size = (gsize) n;
              in.pos = 0;
              if (n == 0)
                {
                  eof = TRUE;
                  break;
                }
            }

          ret = ZSTD_decompressStream (dctx, &out, &in);
          set_consumed (r, in_offset + in.pos);
          raw_in_frame += out.pos - c->len;
          c->len = out.pos;
          if (ZSTD_isError (ret))
            {
              char *msg = g_strdup_printf ("%s: damaged zstd frame at byte offset %" G_GUINT64_FORMAT ": %s",
                                           r->name, frame_start, ZSTD_getErrorName (ret));
              g_async_queue_push (r->full, c);
              push_end (r, CHUNK_ERROR, msg);
              ZSTD_freeDCtx (dctx);
              return;
            }
          mid_frame = TRUE;
          if (ret == 0)
            {
              /* Frame complete: end the chunk so it belongs to one frame. */
              mid_frame = FALSE;
              frame_start = in_offset + in.pos;
              raw_in_frame = 0;
              break;
            }
        }

      if (c->len > 0)
        {
          split_chunk (r, c);
          g_async_queue_push (r->full, c);
        }
      else
        g_async_queue_push (r->free_chunks, c);
    }

  if (eof)
    {
      if (mid_frame)
        push_end (r, CHUNK_ERROR,
                  g_strdup_printf ("%s: cut short inside the zstd frame at byte offset %" G_GUINT64_FORMAT
                                   " (file ends at %" G_GUINT64_FORMAT ")",
                                   r->name, frame_start, in_offset + in.size));
      else
        push_end (r, CHUNK_EOF, NULL);
    }
  ZSTD_freeDCtx (dctx);
}

static gpointer
producer_main (gpointer data)
{
  TmTraceReader *r = data;

  if (r->compressed)
    produce_zstd (r);
  else
    produce_raw (r);
  return NULL;
}

/* ---- consumer ---------------------------------------------------------- */

static void
start (TmTraceReader *r)
{
  r->started = TRUE;
  /* the producer's split starts after the magic, or where a seek says */
  r->split_skip = r->start_offset == 0 && r->start_skip == 0 ? TM_TRACE_MAGIC_LEN : r->start_skip;
  for (guint i = 0; i < N_CHUNKS; i++)
    {
      Chunk *c = g_new0 (Chunk, 1);
      c->data = g_malloc (CHUNK_SIZE);
      g_async_queue_push (r->free_chunks, c);
    }
  r->thread = g_thread_new ("tm-trace-reader", producer_main, r);
}

static void
release_chunk (TmTraceReader *r, Chunk *c)
{
  if (c->data != NULL)
    g_async_queue_push (r->free_chunks, c);
  else
    {
      g_free (c->message);
      g_free (c);
    }
}

/* Makes r->cur a chunk with unread bytes.  FALSE at the end of input
 * (r->final_error set if it ended badly). */
static gboolean
next_chunk (TmTraceReader *r)
{
  if (r->cur != NULL && r->cur->pos < r->cur->len)
    return TRUE;
  if (r->finished)
    return FALSE;
  for (;;)
    {
      Chunk *c;

      if (r->cur != NULL)
        {
          release_chunk (r, r->cur);
          r->cur = NULL;
        }
      c = g_async_queue_pop (r->full);
      if (c->status == CHUNK_EOF || c->status == CHUNK_ERROR)
        {
          r->finished = TRUE;
          if (c->status == CHUNK_ERROR)
            r->final_error = g_error_new_literal (TM_ERROR, TM_ERROR_FORMAT, c->message);
          release_chunk (r, c);
          return FALSE;
        }
      r->cur = c;
      if (c->pos < c->len)
        return TRUE;
    }
}

/* Makes the next `need` logical bytes contiguous.  Returns a pointer to
 * them and the number available (less than `need` only at the end). */
static const guint8 *
ensure (TmTraceReader *r, gsize need, gsize *avail)
{
  if (r->carry->len == 0)
    {
      if (!next_chunk (r))
        {
          *avail = 0;
          return NULL;
        }
      if (r->cur->len - r->cur->pos >= need)
        {
          *avail = r->cur->len - r->cur->pos;
          return r->cur->data + r->cur->pos;
        }
      r->carry_frame_offset = r->cur->frame_offset;
      r->carry_raw_start = r->cur->raw_start + r->cur->pos;
    }
  while (r->carry->len < need && next_chunk (r))
    {
      gsize take = MIN (need - r->carry->len, r->cur->len - r->cur->pos);
      g_byte_array_append (r->carry, r->cur->data + r->cur->pos, take);
      r->cur->pos += take;
    }
  *avail = r->carry->len;
  return r->carry->data;
}

static void
consume (TmTraceReader *r, gsize n)
{
  r->raw_offset += n;
  if (r->carry->len > 0)
    {
      g_assert (n <= r->carry->len);
      g_byte_array_remove_range (r->carry, 0, n);
      /* The carry may hold the start of the records that follow: their
       * position is counted from the same frame (a seek skips across
       * frames), not from where the consumed record started. */
      r->carry_raw_start += n;
      return;
    }
  r->cur->pos += n;
}

static void
position (TmTraceReader *r, TmRecord *rec)
{
  rec->raw_offset = r->raw_offset;
  if (r->carry->len > 0)
    {
      rec->frame_offset = r->carry_frame_offset;
      rec->frame_skip = r->carry_raw_start;
    }
  else
    {
      rec->frame_offset = r->cur->frame_offset;
      rec->frame_skip = r->cur->raw_start + r->cur->pos;
    }
}

static TmReadStatus
fail_at (TmTraceReader *r, GError **error, const char *what)
{
  if (r->final_error != NULL)
    {
      /* the producer's message says more (damaged frame, cut short...) */
      if (r->raw_offset > 0)
        g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "%s (%s at raw stream offset %" G_GUINT64_FORMAT ")",
                     r->final_error->message, what, r->raw_offset);
      else
        g_propagate_error (error, g_error_copy (r->final_error));
      return TM_READ_ERROR;
    }
  g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
               "%s: %s at raw stream offset %" G_GUINT64_FORMAT " (file byte offset %" G_GUINT64_FORMAT ")",
               r->name, what, r->raw_offset, tm_trace_reader_consumed (r));
  return TM_READ_ERROR;
}

/* TRUE if entries[next_entry] starts where the consumer is (skipping the
 * entries of records the consumer read without them). */
static inline gboolean
at_entry (Chunk *c)
{
  while (c->entry_pos < c->pos && c->next_entry < c->n_entries)
    {
      c->entry_pos += c->entries[c->next_entry].head + (gsize) c->entries[c->next_entry].len;
      c->next_entry++;
    }
  return c->entry_pos == c->pos && c->next_entry < c->n_entries;
}

/* The run of decoded records of `tag` that starts where the consumer is:
 * their count (0: none), the first one's entry in *first. */
static gsize
peek_run (TmTraceReader *r, guint8 tag, const Entry **first)
{
  Chunk *c = r->cur;
  guint k;

  if (r->pending > 0)
    {
      consume (r, r->pending);
      r->pending = 0;
    }
  if (c == NULL || r->carry->len > 0 || !at_entry (c))
    return 0;
  for (k = c->next_entry; k < c->n_entries && c->entries[k].tag == tag && c->entries[k].decoded; k++)
    ;
  *first = &c->entries[c->next_entry];
  return k - c->next_entry;
}

gsize
tm_trace_reader_peek_allocs (TmTraceReader *r, const TmAllocFields **first, gsize *stride)
{
  const Entry *e;
  gsize n = peek_run (r, TM_TAG_ALLOC, &e);

  if (n > 0)
    {
      *first = &e->alloc;
      *stride = sizeof (Entry);
    }
  return n;
}

gsize
tm_trace_reader_peek_refs (TmTraceReader *r, const guint64 **ids, const guint32 **n_targets, gsize *stride)
{
  const Entry *e;
  gsize n = peek_run (r, TM_TAG_REFS, &e);

  /* decoded REFS records that follow each other have their ids one
   * after the other */
  if (n > 0)
    {
      *ids = r->cur->ids + e->ids.first;
      *n_targets = &e->ids.n;
      *stride = sizeof (Entry);
    }
  return n;
}

guint64
tm_trace_reader_skip_decoded (TmTraceReader *r, gsize n)
{
  Chunk *c = r->cur;
  const Entry *e;
  gsize bytes, last;

  g_return_val_if_fail (c != NULL && n > 0 && c->next_entry + n <= c->n_entries, r->raw_offset);
  e = &c->entries[c->next_entry + n - 1];
  last = e->head + (gsize) e->len;
  bytes = e->end - c->pos;
  c->next_entry += (guint) n;
  c->pos += bytes;
  c->entry_pos = c->pos;
  r->raw_offset += bytes;
  return r->raw_offset - last;
}

guint64
tm_trace_reader_raw_offset (TmTraceReader *r)
{
  return r->raw_offset + r->pending;
}

TmReadStatus
tm_trace_reader_next (TmTraceReader *r, TmRecord *rec, GError **error)
{
  const guint8 *p, *q;
  gsize avail;
  guint64 len;

  if (r->pending > 0)
    {
      consume (r, r->pending);
      r->pending = 0;
    }

  rec->alloc = NULL;
  rec->ids = NULL;
  /* Fastest path: the decompression thread split the chunk and a record
   * starts here.  Consuming it now is safe: the chunk is only released by
   * a later call. */
  if (G_LIKELY (r->cur != NULL && r->carry->len == 0))
    {
      Chunk *c = r->cur;

      if (G_LIKELY (at_entry (c)))
        {
          const Entry *e = &c->entries[c->next_entry++];
          const guint8 *h = c->data + c->pos;

          rec->tag = e->tag;
          rec->payload = h + e->head;
          rec->len = e->len;
          rec->raw_offset = r->raw_offset;
          rec->frame_offset = c->frame_offset;
          rec->frame_skip = c->raw_start + c->pos;
          if (e->decoded && e->tag == TM_TAG_ALLOC)
            rec->alloc = &e->alloc;
          else if (e->decoded)
            {
              rec->ids = c->ids + e->ids.first;
              rec->n_ids = e->ids.n;
            }
          c->pos += e->head + (gsize) e->len;
          c->entry_pos = c->pos;
          r->raw_offset += e->head + (guint64) e->len;
          return TM_READ_RECORD;
        }
    }

  /* Fast path: the whole record lies in the current chunk. */
  if (G_LIKELY (r->cur != NULL && r->carry->len == 0 && r->cur->len - r->cur->pos >= 11))
    {
      Chunk *c = r->cur;
      const guint8 *h = c->data + c->pos;
      const guint8 *hq = h + 1;
      guint64 flen;

      if (G_LIKELY (tm_uvarint_read (&hq, h + 11, &flen)) && flen <= TM_TRACE_MAX_RECORD)
        {
          gsize head = (gsize) (hq - h);
          if (G_LIKELY (flen <= c->len - c->pos - head))
            {
              rec->tag = h[0];
              rec->payload = hq;
              rec->len = (gsize) flen;
              rec->raw_offset = r->raw_offset;
              rec->frame_offset = c->frame_offset;
              rec->frame_skip = c->raw_start + c->pos;
              c->pos += head + (gsize) flen;
              r->raw_offset += head + flen;
              return TM_READ_RECORD;
            }
        }
    }

  if (!r->started)
    {
      start (r);
      if (r->start_offset == 0 && r->start_skip == 0)
        {
          p = ensure (r, TM_TRACE_MAGIC_LEN, &avail);
          if (avail < TM_TRACE_MAGIC_LEN || memcmp (p, TM_TRACE_MAGIC, TM_TRACE_MAGIC_LEN) != 0)
            {
              if (r->final_error != NULL)
                return fail_at (r, error, "no trace stream");
              g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE,
                           _("%s: the decompressed stream does not start with TMTRACE1 (byte offset 0)"), r->name);
              return TM_READ_ERROR;
            }
          consume (r, TM_TRACE_MAGIC_LEN);
        }
      else
        {
          guint64 skip = r->start_skip;
          while (skip > 0 && next_chunk (r))
            {
              gsize d = (gsize) MIN (skip, (guint64) (r->cur->len - r->cur->pos));
              r->cur->pos += d;
              skip -= d;
            }
          r->raw_offset = 0;
        }
    }

  /* header: tag + uvarint length (at most 11 bytes) */
  p = ensure (r, 11, &avail);
  if (avail == 0)
    {
      if (r->final_error != NULL)
        return fail_at (r, error, "input ends");
      return TM_READ_EOF;
    }
  position (r, rec);
  rec->tag = p[0];
  q = p + 1;
  if (!tm_uvarint_read (&q, p + avail, &len))
    {
      if (avail < 11)
        return fail_at (r, error, "record header cut short");
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT,
                   "%s: bad record length at raw stream offset %" G_GUINT64_FORMAT, r->name, r->raw_offset);
      return TM_READ_ERROR;
    }
  if (len > TM_TRACE_MAX_RECORD)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT,
                   "%s: record of %" G_GUINT64_FORMAT " bytes at raw stream offset %" G_GUINT64_FORMAT " is longer than any trace record",
                   r->name, len, r->raw_offset);
      return TM_READ_ERROR;
    }

  {
    gsize head = (gsize) (q - p);
    gsize total = head + (gsize) len;

    if (avail < total)
      {
        p = ensure (r, total, &avail);
        if (avail < total)
          return fail_at (r, error, "record cut short");
      }
    /* The payload stays valid until the next call, which consumes it. */
    rec->payload = p + head;
    rec->len = (gsize) len;
    r->pending = total;
  }
  return TM_READ_RECORD;
}

void
tm_trace_reader_free (TmTraceReader *r)
{
  if (r == NULL)
    return;
  if (r->thread != NULL)
    {
      Chunk *c;
      g_atomic_int_set (&r->stop, 1);
      g_thread_join (r->thread);
      while ((c = g_async_queue_try_pop (r->full)) != NULL)
        release_chunk (r, c);
    }
  if (r->cur != NULL)
    release_chunk (r, r->cur);
  if (r->free_chunks != NULL)
    {
      Chunk *c;
      while ((c = g_async_queue_try_pop (r->free_chunks)) != NULL)
        {
          g_free (c->data);
          g_free (c->entries);
          g_free (c->ids);
          g_free (c->message);
          g_free (c);
        }
      g_async_queue_unref (r->free_chunks);
    }
  if (r->full != NULL)
    g_async_queue_unref (r->full);
  if (r->carry != NULL)
    g_byte_array_unref (r->carry);
  if (r->fd >= 0)
    close (r->fd);
  g_clear_pointer (&r->bytes, g_bytes_unref);
  g_clear_error (&r->final_error);
  g_free (r->name);
  g_free (r);
}
