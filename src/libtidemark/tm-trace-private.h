/* SPDX-License-Identifier: GPL-3.0-or-later
 * Internals shared by the model, its builder and the graph reader. */
#pragma once

#include "tm-trace.h"

G_BEGIN_DECLS

TmTrace *tm_trace_new (const char *path, const char *format);

/* The trace's own copy of `s` (one per distinct string), valid while the
 * trace lives.  *added is set to the bytes a new copy took (0 if `s` was
 * in the pool already). */
const char *tm_trace_intern (TmTrace *trace, const char *s, gsize *added);

/* Fast id -> index for ascending ids, starting the search at *hint
 * (deaths and REFS come in ascending id order). */
gboolean tm_trace_object_index_for_id_slow (const TmTrace *trace, guint64 id,
                                            guint64 *hint, guint64 *index);

/* (__builtin_popcountll is a library call without -mpopcnt) */
static inline guint
tm_popcount64 (guint64 x)
{
  x = x - ((x >> 1) & G_GUINT64_CONSTANT (0x5555555555555555));
  x = (x & G_GUINT64_CONSTANT (0x3333333333333333)) + ((x >> 2) & G_GUINT64_CONSTANT (0x3333333333333333));
  x = (x + (x >> 4)) & G_GUINT64_CONSTANT (0x0f0f0f0f0f0f0f0f);
  return (guint) ((x * G_GUINT64_CONSTANT (0x0101010101010101)) >> 56);
}

/* The row of allocation number seq, if it has one: O(1),
 * one 12-byte block read below dense_seq. */
static inline gboolean
tm_trace_row_for_seq (const TmTrace *trace, guint64 seq, guint64 *index)
{
  const TmSeqBlock *blk;
  guint64 bits, r;
  guint bit;

  if (seq >= trace->dense_seq)
    {
      r = trace->dense_row + (seq - trace->dense_seq);
      if (r >= trace->n_objects)
        return FALSE;
      *index = r;
      return TRUE;
    }
  blk = &trace->seq_blocks[seq / 64];
  bits = (guint64) blk->bits[1] << 32 | blk->bits[0];
  bit = (guint) (seq % 64);
  if (!((bits >> bit) & 1))
    return FALSE;
  *index = blk->rows_before + tm_popcount64 (bits & ((G_GUINT64_CONSTANT (1) << bit) - 1));
  return TRUE;
}

static inline gboolean
tm_trace_object_index_for_id_hint (const TmTrace *trace, guint64 id, guint64 *hint, guint64 *index)
{
  /* dense ids (every recorder that numbers objects 1, 2, 3...) */
  if (G_LIKELY (trace->obj_ids == NULL))
    {
      if (id < trace->first_id || id - trace->first_id >= trace->total_allocs)
        return FALSE;
      return tm_trace_row_for_seq (trace, id - trace->first_id, index);
    }
  return tm_trace_object_index_for_id_slow (trace, id, hint, index);
}

/* Folds the rows of the objects born in interval b (after b GC_STARTs)
 * that died in their first GC into short-lived counters, and compacts
 * the rows of the intervals after it (tm-trace-fold.c).  The trace's
 * intervals before b must be folded already. */
void     tm_trace_fold_interval (TmTrace *trace, guint32 b);
/* What an allocation of one kind (tm_trace_builder_alloc_interval) is
 * in the model, resolved once, and its counter in the interval being
 * folded (valid while `stamp` is that interval's). */
typedef struct {
  guint32 type, site, thread, size;   /* indices; bytes below TM_SIZE_OVERFLOW */
  guint32 stamp;                      /* interval + 1 of `entry`; 0 none */
  guint32 entry;                      /* index into that interval's counters */
  guint8  size_class;
  guint8  bucket;                     /* age bucket of `entry` */
  guint8  resolved;
} TmFoldKind;

#define TM_FOLD_DIED (1u << 31)

/* Interval b's allocations without rows so far (items[k]: a kind, with
 * TM_FOLD_DIED if it died in GC b + 1, which starts at t1_ns; the rows of
 * the intervals before are folded and no row of interval b exists): the
 * dead ones go into its counters, the others become rows.  Returns how
 * many died and *dead_bytes their bytes; the caller counts the rest (the
 * totals; rows' capacity must be there). */
guint64  tm_trace_fold_allocs   (TmTrace *trace, guint32 b, guint64 t1_ns, const guint32 *items, gsize n,
                                 TmFoldKind *kinds, guint64 *dead_bytes);
/* Empty counter ranges up to short_lived_first->len == len. */
void     tm_trace_short_lived_pad (TmTrace *trace, guint32 len);

G_END_DECLS
