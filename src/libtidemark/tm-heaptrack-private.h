/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A streaming byte source over a heaptrack file: zstd, gzip or plain,
 * detected from the magic bytes.
 */
#pragma once

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
/* Returns bytes read, 0 at the end, -1 on error (damaged compressed data;
 * *error names the file and the compressed offset). */
gssize   tm_heaptrack_source_read    (TmHeaptrackSource *s, guint8 *out, gsize len, GError **error);
/* Compressed bytes consumed so far, and the file size. */
guint64  tm_heaptrack_source_offset  (TmHeaptrackSource *s);
guint64  tm_heaptrack_source_size    (TmHeaptrackSource *s);
/* TRUE if the compressed stream ended in the middle of a frame. */
gboolean tm_heaptrack_source_cut_short (TmHeaptrackSource *s);
void     tm_heaptrack_source_close   (TmHeaptrackSource *s);

G_END_DECLS
