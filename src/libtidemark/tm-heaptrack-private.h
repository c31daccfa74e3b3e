/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A streaming byte source over a heaptrack file: zstd, gzip or plain,
 * detected from the magic bytes.
 */
#pragma once

#include <stdio.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _TmHeaptrackSource TmHeaptrackSource;

typedef enum {
  TM_HEAPTRACK_PLAIN,
  TM_HEAPTRACK_ZSTD,
  TM_HEAPTRACK_GZIP,
} TmHeaptrackCompression;

TmHeaptrackCompression tm_heaptrack_compression (const guint8 *head, gsize len);

/* Decompresses the start of a file held in memory (for sniffing); returns
 * the number of bytes written to out. */
gsize    tm_heaptrack_inflate_head   (const guint8 *head, gsize len, guint8 *out, gsize out_len);

TmHeaptrackSource *tm_heaptrack_source_open (const char *path, GError **error);
/* Takes over f (an open file or an fmemopen() stream); path names it in messages. */
TmHeaptrackSource *tm_heaptrack_source_new_for_file (FILE *f, const char *path);
TmHeaptrackCompression tm_heaptrack_source_kind (TmHeaptrackSource *s);
/* Returns bytes read, 0 at the end, -1 on error (damaged compressed data;
 * *error names the file and the compressed offset). */
gssize   tm_heaptrack_source_read    (TmHeaptrackSource *s, guint8 *out, gsize len, GError **error);
/* Compressed bytes consumed so far, and the file size. */
guint64  tm_heaptrack_source_offset  (TmHeaptrackSource *s);
guint64  tm_heaptrack_source_size    (TmHeaptrackSource *s);
/* TRUE if the compressed stream ended in the middle of a frame. */
gboolean tm_heaptrack_source_cut_short (TmHeaptrackSource *s);
gboolean tm_heaptrack_source_compressed (TmHeaptrackSource *s);
void     tm_heaptrack_source_close   (TmHeaptrackSource *s);

/* ---- the reader thread ---- */

#define TM_HEAPTRACK_NO_OBJECT  G_MAXUINT32
#define TM_HEAPTRACK_CHUNK_TEXT (1024 * 1024)

/* Ops, one per line (two for a free):
 *   INFO << 2 | 0          "+ INFO": the next object, of that info
 *   INFO << 2 | 1, OBJECT  "- INFO": OBJECT (0-based) dies, or
 *                          TM_HEAPTRACK_NO_OBJECT if none of that info lives
 *   OFFSET << 2 | 3        any other line, at text + OFFSET (also "+"/"-"
 *                          lines that are malformed or name an undefined info) */
#define TM_HEAPTRACK_OP_OTHER   3u

typedef struct {
  char     *text;           /* complete lines */
  gsize     text_len;
  gsize     text_cap;       /* grows with the input, up to TM_HEAPTRACK_CHUNK_TEXT */
  guint64  *ops;
  gsize     n_ops;
  gsize     cap_ops;
  guint64   offset;         /* uncompressed offset of text[0] */
  guint64   compressed;     /* compressed bytes consumed after this chunk */
  gboolean  last;           /* the last chunk (end of input, damage or stop) */
  gboolean  cut;            /* the input ended inside a line (dropped) */
  gboolean  too_long;       /* a line longer than TM_HEAPTRACK_CHUNK_TEXT */
  GError   *error;          /* damaged compressed data after this chunk */
} TmHeaptrackChunk;

typedef struct _TmHeaptrackReader TmHeaptrackReader;

TmHeaptrackReader *tm_heaptrack_reader_start   (TmHeaptrackSource *src);
/* Blocks until the next chunk; the last one has `last` set. */
TmHeaptrackChunk  *tm_heaptrack_reader_next    (TmHeaptrackReader *r);
void               tm_heaptrack_reader_release (TmHeaptrackReader *r, TmHeaptrackChunk *c);
/* Asks the thread to stop; it still delivers a (last) chunk. */
void               tm_heaptrack_reader_stop    (TmHeaptrackReader *r);
/* Joins the thread (after the last chunk was taken) and frees. */
void               tm_heaptrack_reader_free    (TmHeaptrackReader *r);

/* 0-15 for hex digits, 0xff otherwise */
static inline guint8
tm_heaptrack_hex_digit (guint8 c)
{
  if ((guint8) (c - '0') < 10)
    return (guint8) (c - '0');
  c |= 32;
  if ((guint8) (c - 'a') < 6)
    return (guint8) (c - 'a' + 10);
  return 0xff;
}

/* A hex number after optional spaces; FALSE if none (or more than 64 bits). */
static inline gboolean
tm_heaptrack_read_hex (const char **s, const char *end, guint64 *v)
{
  const char *q = *s;
  guint64 r = 0;
  int n = 0;

  while (q < end && *q == ' ')
    q++;
  for (; q < end; q++, n++)
    {
      guint8 d = tm_heaptrack_hex_digit ((guint8) *q);
      if (d == 0xff)
        break;
      if (n == 16)
        return FALSE;
      r = r << 4 | d;
    }
  if (n == 0)
    return FALSE;
  *v = r;
  *s = q;
  return TRUE;
}

/* ---- definition records (tm-heaptrack-records.c) ---- */

typedef struct {
  guint32  func, file, line;   /* string ids; line as logged */
  gboolean has_file;
} TmHeaptrackFrame;

/* "s" after its letter: the string (sized in format 3); *problem is set
 * to what was wrong, if anything. */
char    *tm_heaptrack_parse_string  (guint32 file_version, const char *s, const char *end, const char **problem);
/* "i" after its letter: address, module and the frames (appended to
 * `frames`, TmHeaptrackFrame: the first, then those inlined into it);
 * returns how many frames. */
guint32  tm_heaptrack_parse_ip      (const char *s, const char *end, guint64 *addr, guint32 *module,
                                     GArray *frames, gboolean *malformed);
/* "t" after its letter: IP and PARENT (0 and 0 when wrong); returns what
 * was wrong or NULL. */
const char *tm_heaptrack_parse_trace (const char *s, const char *end, guint n_ips, guint n_traces,
                                      guint32 *ip, guint32 *parent);
/* "a" after its letter: SIZE and TRACE (0 when wrong); returns what was
 * wrong or NULL. */
const char *tm_heaptrack_parse_info  (const char *s, const char *end, guint n_traces, guint64 *size, guint32 *trace);
/* "v" after its letter: heaptrack's version and the file format. */
gboolean tm_heaptrack_parse_version (const char *s, const char *end, guint64 *heaptrack, guint64 *format);

/* heaptrack --raw writes what heaptrack_interpret reads (the executable
 * "x", module maps "m", pointers in "+"/"-"): if `line` is such a record,
 * sets *error (the file, the line and its byte offset) and returns TRUE. */
gboolean tm_heaptrack_raw_record    (const char *line, const char *end, const char *path, guint64 line_no,
                                     guint64 offset, GError **error);

G_END_DECLS
