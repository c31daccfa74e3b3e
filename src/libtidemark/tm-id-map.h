/* SPDX-License-Identifier: GPL-3.0-or-later
 * TmIdMap: source ids (uvarint >= 1) -> table indices.  Small ids (the
 * common case: recorders number definitions 1, 2, 3...) use a flat array,
 * so the per-ALLOC lookups stay cheap; large ones fall back to a hash. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint32    *dense;      /* id -> index + 1, 0 = undefined */
  guint64     dense_len;
  GHashTable *sparse;     /* guint64* -> index + 1 */
} TmIdMap;

#define TM_ID_MAP_DENSE_LIMIT (1u << 22)

void     tm_id_map_init    (TmIdMap *map);
void     tm_id_map_clear   (TmIdMap *map);
/* Returns TRUE if the id was new. */
gboolean tm_id_map_insert  (TmIdMap *map, guint64 id, guint32 index);

static inline gboolean
tm_id_map_lookup (const TmIdMap *map, guint64 id, guint32 *index)
{
  guint32 v = 0;

  if (G_LIKELY (id < map->dense_len))
    v = map->dense[id];
  else if (map->sparse != NULL)
    v = GPOINTER_TO_UINT (g_hash_table_lookup (map->sparse, &id));
  if (v == 0)
    return FALSE;
  *index = v - 1;
  return TRUE;
}

G_END_DECLS
