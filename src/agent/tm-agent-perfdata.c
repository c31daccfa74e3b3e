/* SPDX-License-Identifier: GPL-3.0-or-later
 * HotSpot's own GC counters (the perf data jstat reads), read where the
 * GC callbacks run: at a safepoint, where neither JVMTI nor JNI may be
 * called.  Each collector of the heap has an invocation count
 * (sun.gc.collector.N.invocations) that HotSpot bumps as the collection
 * starts, together with its MXBean's collection count; a pause's counts
 * at the GC start and finish callbacks tell exactly which collections it
 * held, which the MXBeans alone cannot (a young collection that turns
 * into a full one in the same pause is one JVMTI start/finish pair but a
 * collection on each of two MXBeans).
 *
 * The memory is the JVM's own: jdk.internal.perf.Perf.attach (0, "r")
 * maps it as a direct buffer, whether or not it is shared as
 * /tmp/hsperfdata_USER/PID (JNI does not check module exports).  Without
 * it (-XX:-UsePerfData) tm_agent_perfdata_collectors () is 0. */
#include "tm-agent.h"

#include <string.h>

#define TM_PERFDATA_MAGIC 0xcafec0c0u

static const guint8 *perf_mem;
static gsize perf_len;
static jobject perf_buffer;   /* global ref: keeps the mapping */
static const volatile gint64 *counters[TM_AGENT_COLLECTORS];
static char *names[TM_AGENT_COLLECTORS];
static guint numbers[TM_AGENT_COLLECTORS];   /* N of sun.gc.collector.N */
static guint n_counters;
/* sun.gc.cause, sun.gc.lastCause */
static const volatile char *cause_text[2];
static guint32 cause_len[2];

static guint32
read_u32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return v;
}

static gboolean
clear_exception (JNIEnv *jni)
{
  if (!(*jni)->ExceptionCheck (jni))
    return FALSE;
  (*jni)->ExceptionClear (jni);
  return TRUE;
}

static const guint8 *
attach (JNIEnv *jni, gsize *len)
{
  jclass perf_class = (*jni)->FindClass (jni, "jdk/internal/perf/Perf");
  jmethodID get_perf, attach_m;
  jobject perf, buffer;
  jstring mode;
  void *addr;
  jlong cap;

  if (clear_exception (jni) || perf_class == NULL)
    return NULL;
  get_perf = (*jni)->GetStaticMethodID (jni, perf_class, "getPerf", "()Ljdk/internal/perf/Perf;");
  attach_m = (*jni)->GetMethodID (jni, perf_class, "attach", "(ILjava/lang/String;)Ljava/nio/ByteBuffer;");
  if (clear_exception (jni) || get_perf == NULL || attach_m == NULL)
    return NULL;
  perf = (*jni)->CallStaticObjectMethod (jni, perf_class, get_perf);
  if (clear_exception (jni) || perf == NULL)
    return NULL;
  mode = (*jni)->NewStringUTF (jni, "r");
  buffer = mode ? (*jni)->CallObjectMethod (jni, perf, attach_m, (jint) 0, mode) : NULL;
  if (clear_exception (jni) || buffer == NULL)
    return NULL;
  addr = (*jni)->GetDirectBufferAddress (jni, buffer);
  cap = (*jni)->GetDirectBufferCapacity (jni, buffer);
  if (addr == NULL || cap < 32)
    return NULL;
  perf_buffer = (*jni)->NewGlobalRef (jni, buffer);
  *len = (gsize) cap;
  return addr;
}

/* Finds the collectors' counters and names and sun.gc.cause in the
 * entry table (the JVM's byte order, which is this machine's). */
void
tm_agent_perfdata_open (JNIEnv *jni)
{
  const guint8 *m = attach (jni, &perf_len);
  guint32 entry, n_entries;
  const volatile gint64 *found[TM_AGENT_COLLECTORS] = { NULL };
  char *found_names[TM_AGENT_COLLECTORS] = { NULL };

  if (m == NULL || read_u32 (m) != GUINT32_TO_BE (TM_PERFDATA_MAGIC)
      || (m[4] == 1) != (G_BYTE_ORDER == G_LITTLE_ENDIAN))
    return;
  perf_mem = m;
  entry = read_u32 (m + 24);
  n_entries = read_u32 (m + 28);
  for (guint32 i = 0; i < n_entries && entry + 20 <= perf_len; i++)
    {
      guint32 length = read_u32 (m + entry);
      guint32 name = read_u32 (m + entry + 4);
      guint32 vlen = read_u32 (m + entry + 8);
      guint32 data = read_u32 (m + entry + 16);
      const char *text = (const char *) m + entry + name;
      char type = (char) m[entry + 12];
      guint n;
      int end = 0;

      if (length < 20 || entry + length > perf_len || name >= length || data > length
          || memchr (text, '\0', length - name) == NULL)
        break;
      if (type == 'J' && data + 8 <= length && (entry + data) % 8 == 0
          && sscanf (text, "sun.gc.collector.%u.invocations%n", &n, &end) == 1 && text[end] == '\0'
          && n < TM_AGENT_COLLECTORS)
        found[n] = (const volatile gint64 *) (const void *) (m + entry + data);
      else if (type == 'B' && data + vlen <= length
               && sscanf (text, "sun.gc.collector.%u.name%n", &n, &end) == 1 && text[end] == '\0'
               && n < TM_AGENT_COLLECTORS && memchr (m + entry + data, '\0', vlen) != NULL)
        found_names[n] = g_strdup ((const char *) m + entry + data);
      else if (type == 'B' && data + vlen <= length && vlen > 0
               && (strcmp (text, "sun.gc.cause") == 0 || strcmp (text, "sun.gc.lastCause") == 0))
        {
          guint k = strcmp (text, "sun.gc.cause") == 0 ? 0 : 1;
          cause_text[k] = (const volatile char *) m + entry + data;
          cause_len[k] = vlen;
        }
      entry += length;
    }
  /* collectors are numbered from 0 (ZGC has only number 2) */
  for (guint k = 0; k < TM_AGENT_COLLECTORS; k++)
    {
      if (found[k] != NULL)
        {
          counters[n_counters] = found[k];
          numbers[n_counters] = k;
          names[n_counters++] = found_names[k] ? found_names[k] : g_strdup ("");
        }
      else
        g_free (found_names[k]);
    }
}

guint
tm_agent_perfdata_collectors (void)
{
  return n_counters;
}

/* "Serial young collection pauses", "G1 concurrent cycle pauses", ... */
const char *
tm_agent_perfdata_collector_name (guint i)
{
  return names[i];
}

/* Each collector's invocations so far into inv[0 .. collectors). */
void
tm_agent_perfdata_read (guint64 *inv)
{
  for (guint i = 0; i < n_counters; i++)
    inv[i] = (guint64) *counters[i];
}

/* Whole-heap collections so far: every collector but number 0, the
 * young one (Serial's and Parallel's full collections, G1's full
 * collections and concurrent-cycle pauses; 0 without the counters). */
guint64
tm_agent_perfdata_whole_heap_gcs (void)
{
  guint64 sum = 0;

  for (guint i = 0; i < n_counters; i++)
    if (numbers[i] > 0)
      sum += (guint64) *counters[i];
  return sum;
}

static void
copy_text (guint k, char *out, gsize size)
{
  gsize i = 0;

  for (; cause_text[k] != NULL && i + 1 < size && i < cause_len[k] && cause_text[k][i] != '\0'; i++)
    out[i] = cause_text[k][i];
  out[i] = '\0';
}

/* At a GC finish callback: the cause of the collection that just ran
 * ("" without the counters).  HotSpot sets it for the collection and
 * sets it back to "No GC" after, which makes it the last cause; under
 * Serial and Parallel that happens before the finish callback, under G1
 * after.  out holds size (> 0) bytes. */
void
tm_agent_perfdata_cause (char *out, gsize size)
{
  copy_text (0, out, size);
  if (strcmp (out, "No GC") == 0)
    copy_text (1, out, size);
}
