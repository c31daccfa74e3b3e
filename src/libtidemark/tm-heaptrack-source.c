/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Streaming decompression of heaptrack files: ZSTD_decompressStream for
 * .zst (heaptrack's default), GLib's zlib converter for .gz (several gzip
 * members are read one after the other, as gunzip does), or the raw text.
 */
#include "tm-config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <gio/gio.h>
#include <zstd.h>

#include "tm-heaptrack-private.h"
#include "tm-error.h"

#define IN_CHUNK (256 * 1024)

struct _TmHeaptrackSource {
  char                  *path;
  FILE                  *f;
  TmHeaptrackCompression kind;
  guint64                size;
  guint64                consumed;     /* compressed bytes handed to the decoder */
  guint8                *in;
  gsize                  in_len;
  gsize                  in_pos;
  gboolean               in_eof;
  gboolean               mid_frame;    /* decoder holds an unfinished frame */
  ZSTD_DStream          *zd;
  GConverter            *gz;
};

TmHeaptrackCompression
tm_heaptrack_compression (const guint8 *head, gsize len)
{
  if (len >= 4 && head[0] == 0x28 && head[1] == 0xB5 && head[2] == 0x2F && head[3] == 0xFD)
    return TM_HEAPTRACK_ZSTD;
  if (len >= 2 && head[0] == 0x1F && head[1] == 0x8B)
    return TM_HEAPTRACK_GZIP;
  return TM_HEAPTRACK_PLAIN;
}

gsize
tm_heaptrack_inflate_head (const guint8 *head, gsize len, guint8 *out, gsize out_len)
{
  switch (tm_heaptrack_compression (head, len))
    {
    case TM_HEAPTRACK_ZSTD:
      {
        ZSTD_DStream *z = ZSTD_createDStream ();
        ZSTD_inBuffer zi = { head, len, 0 };
        ZSTD_outBuffer zo = { out, out_len, 0 };
        gsize n = 0;

        if (z == NULL)
          return 0;
        ZSTD_initDStream (z);
        /* a cut input is expected here: keep whatever came out */
        while (zo.pos < zo.size && zi.pos < zi.size)
          {
            size_t r = ZSTD_decompressStream (z, &zo, &zi);
            if (ZSTD_isError (r) || r == 0)
              break;
          }
        n = zo.pos;
        ZSTD_freeDStream (z);
        return n;
      }
    case TM_HEAPTRACK_GZIP:
      {
        g_autoptr(GZlibDecompressor) dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
        gsize done_in = 0, done_out = 0;

        /* a cut input is expected: keep whatever came out */
        g_converter_convert (G_CONVERTER (dec), head, len, out, out_len, G_CONVERTER_NO_FLAGS,
                             &done_in, &done_out, NULL);
        return done_out;
      }
    case TM_HEAPTRACK_PLAIN:
    default:
      break;
    }
  memcpy (out, head, MIN (len, out_len));
  return MIN (len, out_len);
}

TmHeaptrackSource *
tm_heaptrack_source_open (const char *path, GError **error)
{
  FILE *f = fopen (path, "rb");

  if (f == NULL)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
      return NULL;
    }
  return tm_heaptrack_source_new_for_file (f, path);
}

TmHeaptrackSource *
tm_heaptrack_source_new_for_file (FILE *f, const char *path)
{
  TmHeaptrackSource *s;
  struct stat st;

  s = g_new0 (TmHeaptrackSource, 1);
  s->path = g_strdup (path);
  s->f = f;
  if (fstat (fileno (f), &st) == 0)
    s->size = (guint64) st.st_size;
  s->in = g_malloc (IN_CHUNK);
  s->in_len = fread (s->in, 1, IN_CHUNK, f);
  s->in_eof = s->in_len < IN_CHUNK;
  s->kind = tm_heaptrack_compression (s->in, s->in_len);
  if (s->kind == TM_HEAPTRACK_ZSTD)
    {
      s->zd = ZSTD_createDStream ();
      ZSTD_initDStream (s->zd);
    }
  else if (s->kind == TM_HEAPTRACK_GZIP)
    s->gz = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  return s;
}

/* What the source decodes: plain text, zstd or gzip. */
TmHeaptrackCompression
tm_heaptrack_source_kind (TmHeaptrackSource *s)
{
  return s->kind;
}

static void
refill (TmHeaptrackSource *s)
{
  if (s->in_pos < s->in_len || s->in_eof)
    return;
  s->in_len = fread (s->in, 1, IN_CHUNK, s->f);
  s->in_pos = 0;
  if (s->in_len < IN_CHUNK)
    s->in_eof = TRUE;
}

gssize
tm_heaptrack_source_read (TmHeaptrackSource *s, guint8 *out, gsize len, GError **error)
{
  switch (s->kind)
    {
    case TM_HEAPTRACK_PLAIN:
      {
        gsize n;
        if (s->in_pos >= s->in_len)
          refill (s);
        n = MIN (len, s->in_len - s->in_pos);
        memcpy (out, s->in + s->in_pos, n);
        s->in_pos += n;
        s->consumed += n;
        return (gssize) n;
      }
    case TM_HEAPTRACK_ZSTD:
      for (;;)
        {
          ZSTD_inBuffer zi;
          ZSTD_outBuffer zo = { out, len, 0 };
          size_t r;

          refill (s);
          if (s->in_pos >= s->in_len)
            return 0;
          zi.src = s->in;
          zi.size = s->in_len;
          zi.pos = s->in_pos;
          r = ZSTD_decompressStream (s->zd, &zo, &zi);
          s->consumed += zi.pos - s->in_pos;
          s->in_pos = zi.pos;
          if (ZSTD_isError (r))
            {
              g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "%s: damaged zstd data near byte offset %" G_GUINT64_FORMAT ": %s",
                           s->path, s->consumed, ZSTD_getErrorName (r));
              return -1;
            }
          s->mid_frame = r != 0;
          if (zo.pos > 0)
            return (gssize) zo.pos;
        }
    case TM_HEAPTRACK_GZIP:
    default:
      for (;;)
        {
          g_autoptr(GError) local = NULL;
          gsize done_in = 0, done_out = 0;
          GConverterResult r;

          refill (s);
          if (s->in_pos >= s->in_len)
            return 0;
          r = g_converter_convert (s->gz, s->in + s->in_pos, s->in_len - s->in_pos, out, len,
                                   s->in_eof ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                                   &done_in, &done_out, &local);
          s->in_pos += done_in;
          s->consumed += done_in;
          if (r == G_CONVERTER_ERROR)
            {
              if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
                {
                  s->mid_frame = TRUE;
                  if (s->in_eof)
                    return 0;   /* cut short: the caller says so */
                  if (s->in_pos == 0 && s->in_len == IN_CHUNK)
                    {
                      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "%s: gzip data does not decode near byte offset %" G_GUINT64_FORMAT,
                                   s->path, s->consumed);
                      return -1;
                    }
                  /* keep the unread tail and read on */
                  memmove (s->in, s->in + s->in_pos, s->in_len - s->in_pos);
                  s->in_len -= s->in_pos;
                  s->in_pos = 0;
                  s->in_len += fread (s->in + s->in_len, 1, IN_CHUNK - s->in_len, s->f);
                  if (s->in_len < IN_CHUNK)
                    s->in_eof = TRUE;
                  continue;
                }
              g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "%s: damaged gzip data near byte offset %" G_GUINT64_FORMAT ": %s",
                           s->path, s->consumed, local->message);
              return -1;
            }
          if (r == G_CONVERTER_FINISHED)
            {
              s->mid_frame = FALSE;
              g_converter_reset (s->gz);   /* another member may follow */
            }
          else
            s->mid_frame = TRUE;
          if (done_out > 0)
            return (gssize) done_out;
        }
    }
}

guint64
tm_heaptrack_source_offset (TmHeaptrackSource *s)
{
  return s->consumed;
}

guint64
tm_heaptrack_source_size (TmHeaptrackSource *s)
{
  return s->size;
}

gboolean
tm_heaptrack_source_cut_short (TmHeaptrackSource *s)
{
  return s->kind != TM_HEAPTRACK_PLAIN && s->mid_frame;
}

gboolean
tm_heaptrack_source_compressed (TmHeaptrackSource *s)
{
  return s->kind != TM_HEAPTRACK_PLAIN;
}

void
tm_heaptrack_source_close (TmHeaptrackSource *s)
{
  if (s == NULL)
    return;
  if (s->zd)
    ZSTD_freeDStream (s->zd);
  g_clear_object (&s->gz);
  if (s->f)
    fclose (s->f);
  g_free (s->in);
  g_free (s->path);
  g_free (s);
}
