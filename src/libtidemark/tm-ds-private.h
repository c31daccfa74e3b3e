/* SPDX-License-Identifier: GPL-3.0-or-later
 * Internals shared by the data structure sources (resolution, detection,
 * growth): the resolved rule tables, inlined in the hot loops. */
#pragma once

#include "tm-ds-detect.h"

G_BEGIN_DECLS

enum {
  TM_DS_FLAG_HEAD     = 1 << 0,
  TM_DS_FLAG_POINTEES = 1 << 1,
  TM_DS_FLAG_BARRIER  = 1 << 2,   /* deep closures neither count nor cross it */
};

struct _TmDsTypes {
  guint32  n_types;
  guint8  *flags;
  guint8  *all_kind;      /* TmDsPointeeKind for every referenced type */
  guint32 *rule_start;    /* n_types + 2: index n_types is "unknown type" */
  guint32 *rule_target;   /* sorted within each type */
  guint8  *rule_kind;
};

static inline guint8
tm_ds_types_kind_fast (const TmDsTypes *t, guint32 from, guint32 to)
{
  guint32 lo = t->rule_start[from], hi = t->rule_start[from + 1];

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;
      if (t->rule_target[mid] < to)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < t->rule_start[from + 1] && t->rule_target[lo] == to)
    return t->rule_kind[lo];
  return t->all_kind[from];
}

G_END_DECLS
