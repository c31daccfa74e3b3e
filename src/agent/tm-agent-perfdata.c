/* SPDX-License-Identifier: GPL-3.0-or-later
 * Whole-heap collections, told apart where the GC finish callback runs
 * (at a safepoint, where neither JVMTI nor JNI may be called): HotSpot
 * keeps its collectors' counters in a shared memory file, the one jstat
 * reads (/tmp/hsperfdata_USER/PID).  Collector 0 is the young one;
 * every other one (Serial's and Parallel's full collections, G1's full
 * collections and concurrent-cycle pauses) works on the whole heap.
 * Without the file (-XX:-UsePerfData, -XX:+PerfDisableSharedMem) every
 * GC counts as young. */
#include "tm-agent.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define TM_PERFDATA_MAGIC   0xcafec0c0u
#define TM_PERFDATA_MAX_GCS 8

static const guint8 *perf_map;
static gsize perf_len;
static const volatile gint64 *whole_heap_counters[TM_PERFDATA_MAX_GCS];
static guint n_counters;

static guint32
read_u32 (const guint8 *p, gboolean little)
{
  guint32 v;
  memcpy (&v, p, 4);
  return little ? GUINT32_FROM_LE (v) : GUINT32_FROM_BE (v);
}

/* Finds sun.gc.collector.N.invocations for N >= 1 (longs, in the JVM's
 * byte order, which is this machine's). */
void
tm_agent_perfdata_open (void)
{
  g_autofree char *path = g_strdup_printf ("/tmp/hsperfdata_%s/%d", g_get_user_name (), (int) getpid ());
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  gboolean little;
  guint32 entry, n_entries;

  if (fd < 0)
    return;
  if (fstat (fd, &st) != 0 || st.st_size < 32)
    {
      close (fd);
      return;
    }
  perf_len = (gsize) st.st_size;
  perf_map = mmap (NULL, perf_len, PROT_READ, MAP_SHARED, fd, 0);
  close (fd);
  if (perf_map == MAP_FAILED)
    {
      perf_map = NULL;
      return;
    }
  little = perf_map[4] == 1;
  if (read_u32 (perf_map, FALSE) != TM_PERFDATA_MAGIC || little != (G_BYTE_ORDER == G_LITTLE_ENDIAN))
    return;
  entry = read_u32 (perf_map + 24, little);
  n_entries = read_u32 (perf_map + 28, little);
  for (guint32 i = 0; i < n_entries && entry + 20 <= perf_len; i++)
    {
      guint32 length = read_u32 (perf_map + entry, little);
      guint32 name = read_u32 (perf_map + entry + 4, little);
      guint32 data = read_u32 (perf_map + entry + 16, little);
      const char *text = (const char *) perf_map + entry + name;
      guint collector;

      if (length < 20 || entry + length > perf_len || name >= length)
        break;
      if (perf_map[entry + 12] == 'J' && data + 8 <= length && (entry + data) % 8 == 0
          && memchr (text, '\0', length - name) != NULL
          && sscanf (text, "sun.gc.collector.%u.invocations", &collector) == 1
          && g_str_has_suffix (text, ".invocations") && collector >= 1 && n_counters < TM_PERFDATA_MAX_GCS)
        whole_heap_counters[n_counters++] = (const volatile gint64 *) (const void *) (perf_map + entry + data);
      entry += length;
    }
}

/* Whole-heap collections so far (0 without the counters). */
guint64
tm_agent_perfdata_whole_heap_gcs (void)
{
  guint64 sum = 0;

  for (guint i = 0; i < n_counters; i++)
    sum += (guint64) *whole_heap_counters[i];
  return sum;
}
