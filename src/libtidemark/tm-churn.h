/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Short-lived objects of a window: the objects allocated in it that died
 * in the first GC after their birth (none of them was ever part of a heap
 * state), as a classification tree by type, site, call-site or thread,
 * with their age at death.  Reads the model's short-lived counters (and
 * the rows of such objects the model kept).
 */
#pragma once

#include "tm-trace.h"
#include "tm-classify.h"
#include "tm-vm-metrics.h"

G_BEGIN_DECLS

typedef struct _TmChurnNode TmChurnNode;
typedef struct _TmChurn TmChurn;

struct _TmChurnNode {
  char      *key;                  /* label; "Overall" at the root */
  guint32    key_index;            /* classifier key (G_MAXUINT32 at the root) */
  guint64    objects, bytes;
  guint64    by_age[TM_LIFETIME_TIME_BUCKETS];   /* objects per age at death */
  double     age_seconds;          /* sum of the ages at death */
  GPtrArray *children;             /* TmChurnNode, most bytes first */
};

struct _TmChurn {
  guint32       from_gc, to_gc;
  guint         depth;
  TmClassifier  chain[TM_CLASSIFY_MAX_DEPTH];
  guint64       allocated_objects, allocated_bytes;   /* everything born in the window */
  TmChurnNode  *root;
};

/* Objects born in the intervals of GCs from_gc..to_gc (before GC_START
 * to_gc, after GC_START from_gc - 1) that died in their first GC. */
/* What the counters of short-lived objects keep: type (and so package),
 * site, call site and thread. */
gboolean  tm_churn_classifier_ok (TmClassifier c);

TmChurn *tm_churn_compute (const TmTrace *trace, guint32 from_gc, guint32 to_gc,
                           const TmClassifier *chain, guint depth,
                           GCancellable *cancellable, GError **error);
void     tm_churn_free    (TmChurn *churn);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmChurn, tm_churn_free)

G_END_DECLS
