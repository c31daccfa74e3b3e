/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Marking a reference graph from its roots while the loader reads on.
 * The job only reads the graph's own buffers and writes a bitmap of the
 * objects it reaches; what needs the model (their bytes, deaths) is done
 * by the builder after tm_trace_mark_join(), before rows can move.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  /* in, borrowed until joined: REFS record r has source src[r] and the
   * targets dst[start[r] .. start[r + 1]) (the last up to n_dst) */
  guint64         n_objects;
  const guint32  *src;
  const guint64  *start;
  guint32         n_rec;
  const guint32  *dst;
  guint64         n_dst;
  const guint32  *roots;
  guint           n_roots;
  guint32        *src_map;        /* >= n_objects entries, all 0; left so */
  /* out */
  guint64        *bits;           /* the reached objects; g_free */
  guint64         reach_objects;
  /*< private >*/
  GThread        *thread;
} TmTraceMark;

/* Marks now. */
void tm_trace_mark_run   (TmTraceMark *job);
/* Marks on a thread of its own (now, if none can be made). */
void tm_trace_mark_start (TmTraceMark *job);
/* Waits for a started job; nothing for one that ran. */
void tm_trace_mark_join  (TmTraceMark *job);

/* Marks a graph in compressed-sparse-row form: node i references
 * dst[off[i] .. off[i + 1]); targets >= n are counted in *dropped.  Returns
 * the bitmap of reached nodes (g_free) and their count, or NULL when
 * `cancellable` fires.  `progress` (may be NULL) gets the share of the n
 * nodes reached so far, now and then. */
guint64 *tm_trace_mark_csr (guint32 n, const guint32 *off, const guint32 *dst, const guint32 *roots, guint n_roots,
                            GCancellable *cancellable, void (*progress) (double fraction, gpointer data),
                            gpointer progress_data, guint64 *reached, guint64 *dropped);

G_END_DECLS
