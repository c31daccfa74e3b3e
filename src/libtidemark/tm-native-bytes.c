/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-native-bytes.h"
#include "tm-checked.h"

#include <string.h>

gboolean
tm_trace_sees_frees (const TmTrace *trace)
{
  return g_strcmp0 (trace->format, "heaptrack") == 0;
}

void
tm_native_bytes_per_interval (const TmTrace *trace,
                              guint64       *freed,
                              guint64       *allocated)
{
  guint len = trace->gcs->len;
  guint64 rows = tm_trace_allocs_before_gc (trace, len + 1);
  guint32 birth = 0;

  memset (freed, 0, sizeof (guint64) * len);
  memset (allocated, 0, sizeof (guint64) * len);
  for (guint64 i = 0; i < rows; i++)
    {
      guint32 death = trace->obj_death[i];
      guint64 size = tm_trace_object_size (trace, i);

      /* rows are in allocation order: born after `birth` GC_STARTs */
      while (birth < len && tm_trace_gc (trace, birth + 1)->allocs_before <= i)
        birth++;
      if (birth < len)
        allocated[birth] = tm_add_sat (allocated[birth], size);
      if (death != TM_ALIVE && death <= len)
        freed[death - 1] = tm_add_sat (freed[death - 1], size);
    }
  /* blocks freed in the interval they were allocated in */
  for (guint b = 0; b < len; b++)
    {
      gsize n;
      const TmShortLived *sl = tm_trace_short_lived (trace, b, &n);

      for (gsize k = 0; k < n; k++)
        {
          freed[b] = tm_add_sat (freed[b], sl[k].bytes);
          allocated[b] = tm_add_sat (allocated[b], sl[k].bytes);
        }
    }
}
