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

static inline gboolean
tm_trace_object_index_for_id_hint (const TmTrace *trace, guint64 id, guint64 *hint, guint64 *index)
{
  /* dense ids (every recorder that numbers objects 1, 2, 3...) */
  if (G_LIKELY (trace->obj_ids == NULL && trace->obj_seq == NULL))
    {
      if (id < trace->first_id || id - trace->first_id >= trace->n_objects)
        return FALSE;
      *index = id - trace->first_id;
      return TRUE;
    }
  return tm_trace_object_index_for_id_slow (trace, id, hint, index);
}

/* Folds the rows of the objects born in interval b (after b GC_STARTs)
 * that died in their first GC into short-lived counters, and compacts
 * the rows of the intervals after it (tm-trace-fold.c).  The trace's
 * intervals before b must be folded already. */
void     tm_trace_fold_interval (TmTrace *trace, guint32 b);
/* Rows from dense_row on are numbered from dense_seq on without gaps and
 * will not move; index the blocks of 64 numbers below dense_seq. */
void     tm_trace_index_rows (TmTrace *trace, guint64 dense_row, guint64 dense_seq);
/* Empty counter ranges up to short_lived_first->len == len. */
void     tm_trace_short_lived_pad (TmTrace *trace, guint32 len);

G_END_DECLS
