/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTraceReader: streams the records of a trace file without ever holding
 * the decompressed file in memory.  Decompression runs on its own thread
 * (one core) and hands 1 MiB chunks to the caller, who decodes records
 * (the other core).  The decompression thread also splits each chunk into
 * records and decodes the ALLOC records, the most frequent ones, into
 * fixed-width fields, and the id lists of REFS and DEATHS.  Every record knows where it can be found again: the
 * file offset of its zstd frame and the raw bytes into that frame.
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _TmTraceReader TmTraceReader;

/* An ALLOC record's fields, decoded on the decompression thread (the id
 * difference still zigzag-encoded, as in the record). */
typedef struct {
  guint32       id_zigzag;
  guint32       type, site, thread, size, space, array_length;
} TmAllocFields;

typedef struct {
  guint8        tag;
  const guint8 *payload;      /* valid until the next call */
  gsize         len;
  guint64       raw_offset;   /* offset of the tag byte in the raw stream (from the read's start) */
  guint64       frame_offset; /* file offset of the frame holding the tag byte (raw files: a chunk start) */
  guint64       frame_skip;   /* raw bytes from that position to the tag byte */
  /* ALLOC records whose fields are well-formed and each fit 32 bits: the
   * fields, decoded already; else NULL.  Valid until the next call. */
  const TmAllocFields *alloc;
  /* REFS and DEATHS records the decompression thread decoded, else NULL:
   * ids[0] is the object (REFS) or the GC (DEATHS), ids[1..n_ids] the
   * targets' or the dead objects' ids.  Valid until the next call. */
  const guint64 *ids;
  gsize          n_ids;
} TmRecord;

typedef enum {
  TM_READ_RECORD,    /* *record is filled */
  TM_READ_EOF,       /* clean end of input */
  TM_READ_ERROR,     /* damaged or cut short: error says where */
} TmReadStatus;

/* Returns NULL with TM_ERROR_NOT_A_TRACE if the file is neither zstd nor a
 * raw trace stream. */
TmTraceReader *tm_trace_reader_new       (const char *path, GError **error);
/* Reads through a duplicate of the open handle `fd` (pread: the handle's
 * offset is neither used nor moved); `name` is for messages. */
TmTraceReader *tm_trace_reader_new_for_fd (int fd, const char *name, GError **error);
TmTraceReader *tm_trace_reader_new_bytes (GBytes *bytes, const char *name, GError **error);

/* Before the first tm_trace_reader_next(): start at a stored position
 * instead of the beginning (no magic expected there). */
void           tm_trace_reader_seek      (TmTraceReader *r, guint64 frame_offset, guint64 frame_skip);

TmReadStatus   tm_trace_reader_next      (TmTraceReader *r, TmRecord *record, GError **error);

/* Batched hand-over of the most frequent records: where the next record
 * starts, the run of ALLOC records after it that the decompression thread
 * decoded (all in one chunk): their count, the first one's fields in
 * *first and the next ones `*stride` bytes apart.  0 if the next record
 * is anything else (read it with tm_trace_reader_next()).  Nothing is
 * consumed: tm_trace_reader_skip_decoded() consumes the first n of them
 * (the fields stay valid until then) and returns the raw stream offset of
 * the last one. */
gsize          tm_trace_reader_peek_allocs (TmTraceReader *r, const TmAllocFields **first, gsize *stride);
guint64        tm_trace_reader_skip_decoded (TmTraceReader *r, gsize n);
/* The same for REFS records: the run of them after the next record's
 * start that the decompression thread decoded.  *ids holds, record after
 * record, the object's id and its targets' ids; record k has
 * *(const guint32 *) ((const guint8 *) *n_targets + k * *stride) targets.
 * Consume them with tm_trace_reader_skip_decoded(). */
gsize          tm_trace_reader_peek_refs   (TmTraceReader *r, const guint64 **ids, const guint32 **n_targets,
                                            gsize *stride);
/* Raw stream bytes read so far (where the next record starts). */
guint64        tm_trace_reader_raw_offset (TmTraceReader *r);

gboolean       tm_trace_reader_is_compressed (TmTraceReader *r);
guint64        tm_trace_reader_file_size (TmTraceReader *r);
/* Compressed bytes consumed so far (safe from any thread). */
guint64        tm_trace_reader_consumed  (TmTraceReader *r);
const char    *tm_trace_reader_name      (TmTraceReader *r);
void           tm_trace_reader_free      (TmTraceReader *r);

/* TRUE if the first bytes look like a .tmtrace (zstd or raw): cheap, and
 * true of any zstd file. */
gboolean       tm_trace_sniff            (const guint8 *head, gsize len);

typedef enum {
  TM_SNIFF_NO,      /* not a trace */
  TM_SNIFF_MAYBE,   /* zstd, but the head is too short to decode the magic */
  TM_SNIFF_YES,     /* raw magic, or zstd whose content starts with it */
} TmSniffResult;

/* Looks inside zstd: other formats (heaptrack) are zstd files too.  A
 * zstd block decodes only once complete, so pass up to 132 KiB. */
TmSniffResult  tm_trace_sniff_content    (const guint8 *head, gsize len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmTraceReader, tm_trace_reader_free)

G_END_DECLS
