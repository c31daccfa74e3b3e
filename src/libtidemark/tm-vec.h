/* SPDX-License-Identifier: GPL-3.0-or-later
 * Growable arrays for the loader's hot paths, where GArray's per-call
 * overflow checks (a division per append) showed up in profiles. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct { guint32 *data; gsize len, cap; } TmVecU32;
typedef struct { guint64 *data; gsize len, cap; } TmVecU64;

#define TM_VEC_DEFINE(Vec, T, name)                                              \
  static inline void                                                             \
  name##_reserve (Vec *v, gsize extra)                                           \
  {                                                                              \
    if (G_UNLIKELY (v->len + extra > v->cap))                                    \
      {                                                                          \
        gsize cap = MAX (v->cap * 2, 64);                                        \
        while (cap < v->len + extra)                                             \
          cap *= 2;                                                              \
        v->data = g_renew (T, v->data, cap);                                     \
        v->cap = cap;                                                            \
      }                                                                          \
  }                                                                              \
  static inline void                                                             \
  name##_push (Vec *v, T x)                                                      \
  {                                                                              \
    name##_reserve (v, 1);                                                       \
    v->data[v->len++] = x;                                                       \
  }                                                                              \
  static inline void                                                             \
  name##_clear (Vec *v)                                                          \
  {                                                                              \
    g_clear_pointer (&v->data, g_free);                                          \
    v->len = v->cap = 0;                                                         \
  }

TM_VEC_DEFINE (TmVecU32, guint32, tm_vec_u32)
TM_VEC_DEFINE (TmVecU64, guint64, tm_vec_u64)

G_END_DECLS
