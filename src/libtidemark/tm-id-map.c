/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-id-map.h"

void
tm_id_map_init (TmIdMap *map)
{
  map->dense = NULL;
  map->dense_len = 0;
  map->sparse = NULL;
}

void
tm_id_map_clear (TmIdMap *map)
{
  g_clear_pointer (&map->dense, g_free);
  map->dense_len = 0;
  g_clear_pointer (&map->sparse, g_hash_table_unref);
}

gboolean
tm_id_map_insert (TmIdMap *map, guint64 id, guint32 index)
{
  guint32 existing;

  if (tm_id_map_lookup (map, id, &existing))
    {
      /* Redefinition: the later definition wins. */
      if (id < map->dense_len)
        map->dense[id] = index + 1;
      else
        g_hash_table_insert (map->sparse, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (index + 1));
      return FALSE;
    }

  if (id < TM_ID_MAP_DENSE_LIMIT)
    {
      if (id >= map->dense_len)
        {
          guint64 len = MAX (64, map->dense_len);
          while (len <= id)
            len *= 2;
          map->dense = g_renew (guint32, map->dense, len);
          memset (map->dense + map->dense_len, 0, (len - map->dense_len) * sizeof (guint32));
          map->dense_len = len;
        }
      map->dense[id] = index + 1;
      return TRUE;
    }

  if (map->sparse == NULL)
    map->sparse = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_hash_table_insert (map->sparse, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (index + 1));
  return TRUE;
}
