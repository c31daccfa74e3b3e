/* SPDX-License-Identifier: GPL-3.0-or-later
 * The JVM flags that decide how the heap is collected, as META jvm.NAME
 * (docs/agent.md): the collector, heap and generation sizes, tenuring.
 * GC analysis and advice read them instead of guessing the collector's
 * defaults.  Read once at VMInit through HotSpotDiagnosticMXBean (the
 * helper class), which reports the effective values, ergonomic ones
 * included. */
#include "tm-agent.h"

#include <string.h>

enum {
  GC_SERIAL = 1 << 0,
  GC_PARALLEL = 1 << 1,
  GC_G1 = 1 << 2,
  GC_ZGC = 1 << 3,
  GC_SHENANDOAH = 1 << 4,
  GC_EPSILON = 1 << 5,
  GC_GENERATIONAL = GC_SERIAL | GC_PARALLEL | GC_G1,
  GC_ANY = 0xff,
};

typedef enum {
  WHEN_ALWAYS,
  WHEN_SET,       /* not the default (for G1, not its ergonomic choice either) */
  WHEN_TRUE,
} FlagWhen;

/* Each flag with the collectors that use it. */
static const struct {
  const char *name;
  guint       gcs;
  FlagWhen    when;
} flags[] = {
  { "MaxHeapSize", GC_ANY, WHEN_ALWAYS },
  { "InitialHeapSize", GC_ANY, WHEN_ALWAYS },
  { "MinHeapSize", GC_ANY, WHEN_ALWAYS },
  { "MaxTenuringThreshold", GC_GENERATIONAL, WHEN_ALWAYS },
  { "InitialTenuringThreshold", GC_GENERATIONAL, WHEN_ALWAYS },
  { "TargetSurvivorRatio", GC_GENERATIONAL, WHEN_ALWAYS },
  { "SurvivorRatio", GC_GENERATIONAL, WHEN_ALWAYS },
  { "NewRatio", GC_GENERATIONAL, WHEN_ALWAYS },
  { "NewSize", GC_GENERATIONAL, WHEN_SET },
  { "MaxNewSize", GC_GENERATIONAL, WHEN_SET },
  { "AlwaysTenure", GC_GENERATIONAL, WHEN_TRUE },
  { "NeverTenure", GC_GENERATIONAL, WHEN_TRUE },
  { "UseAdaptiveSizePolicy", GC_GENERATIONAL, WHEN_ALWAYS },
  { "MaxGCPauseMillis", GC_G1, WHEN_ALWAYS },
  { "MaxGCPauseMillis", GC_PARALLEL, WHEN_SET },
  { "GCTimeRatio", GC_PARALLEL | GC_G1, WHEN_ALWAYS },
  { "ParallelGCThreads", GC_ANY & ~GC_SERIAL, WHEN_ALWAYS },
  { "ConcGCThreads", GC_G1 | GC_ZGC | GC_SHENANDOAH, WHEN_ALWAYS },
  { "MetaspaceSize", GC_ANY, WHEN_ALWAYS },
  { "MaxMetaspaceSize", GC_ANY, WHEN_SET },
  { "UseCompressedOops", GC_ANY, WHEN_ALWAYS },
  { "G1HeapRegionSize", GC_G1, WHEN_ALWAYS },
  { "InitiatingHeapOccupancyPercent", GC_G1, WHEN_ALWAYS },
  { "ExitOnOutOfMemoryError", GC_ANY, WHEN_TRUE },
  { "CrashOnOutOfMemoryError", GC_ANY, WHEN_TRUE },
};

/* The Use...GC flag that is on names the collector. */
static const struct {
  const char *flag;
  const char *collector;
  guint       gc;
} collectors[] = {
  { "UseSerialGC", "Serial", GC_SERIAL },
  { "UseParallelGC", "Parallel", GC_PARALLEL },
  { "UseG1GC", "G1", GC_G1 },
  { "UseZGC", "ZGC", GC_ZGC },
  { "UseShenandoahGC", "Shenandoah", GC_SHENANDOAH },
  { "UseEpsilonGC", "Epsilon", GC_EPSILON },
};

static char *
string_at (JNIEnv *jni, jobjectArray arr, guint i)
{
  jstring s = (*jni)->GetObjectArrayElement (jni, arr, (jsize) i);
  const char *utf;
  char *r = NULL;

  if (s == NULL)
    return NULL;
  utf = (*jni)->GetStringUTFChars (jni, s, NULL);
  if (utf != NULL)
    {
      r = g_strdup (utf);
      (*jni)->ReleaseStringUTFChars (jni, s, utf);
    }
  (*jni)->DeleteLocalRef (jni, s);
  return r;
}

/* Needs writer_lock; the caller's allocations are the agent's own.  Once
 * per run. */
void
tm_agent_flags_write (JNIEnv *jni)
{
  TmAgent *a = &tm_agent;
  static gboolean written;
  guint nc = G_N_ELEMENTS (collectors), n = nc + G_N_ELEMENTS (flags);
  jmethodID m;
  jclass string_class;
  jobjectArray names, values;
  const char *collector = NULL;
  guint gc = 0;
  g_autoptr(GString) user = g_string_new (NULL);

  if (a->helper == NULL || jni == NULL || written)
    return;
  written = TRUE;
  m = (*jni)->GetStaticMethodID (jni, a->helper, "vmFlags", "([Ljava/lang/String;)[Ljava/lang/String;");
  string_class = (*jni)->FindClass (jni, "java/lang/String");
  names = m && string_class ? (*jni)->NewObjectArray (jni, (jsize) n, string_class, NULL) : NULL;
  for (guint i = 0; names != NULL && i < n; i++)
    {
      jstring s = (*jni)->NewStringUTF (jni, i < nc ? collectors[i].flag : flags[i - nc].name);
      (*jni)->SetObjectArrayElement (jni, names, (jsize) i, s);
      (*jni)->DeleteLocalRef (jni, s);
    }
  values = names ? (*jni)->CallStaticObjectMethod (jni, a->helper, m, names) : NULL;
  /* the agent thread lives long: its local references are freed here */
  if (names != NULL)
    (*jni)->DeleteLocalRef (jni, names);
  if (string_class != NULL)
    (*jni)->DeleteLocalRef (jni, string_class);
  if ((*jni)->ExceptionCheck (jni) || values == NULL || (guint) (*jni)->GetArrayLength (jni, values) != 2 * n)
    {
      (*jni)->ExceptionClear (jni);
      if (values != NULL)
        (*jni)->DeleteLocalRef (jni, values);
      return;
    }

  for (guint i = 0; i < nc && collector == NULL; i++)
    {
      g_autofree char *v = string_at (jni, values, 2 * i);
      if (g_strcmp0 (v, "true") == 0)
        {
          collector = collectors[i].collector;
          gc = collectors[i].gc;
        }
    }
  if (collector != NULL)
    tm_trace_writer_meta (a->writer, "jvm.collector", collector);

  for (guint i = nc; i < n; i++)
    {
      const char *name = flags[i - nc].name;
      FlagWhen when = flags[i - nc].when;
      g_autofree char *value = NULL;
      g_autofree char *origin = NULL;
      g_autofree char *key = NULL;
      gboolean is_default, is_ergonomic;

      if ((flags[i - nc].gcs & gc) == 0)
        continue;
      value = string_at (jni, values, 2 * i);
      origin = string_at (jni, values, 2 * i + 1);
      is_default = g_strcmp0 (origin, "DEFAULT") == 0;
      is_ergonomic = g_strcmp0 (origin, "ERGONOMIC") == 0;
      if (value == NULL || (when == WHEN_TRUE && g_strcmp0 (value, "true") != 0)
          || (when == WHEN_SET && (is_default || (is_ergonomic && gc == GC_G1))))
        continue;
      if (strcmp (name, "ExitOnOutOfMemoryError") == 0)
        g_atomic_int_set (&a->exit_on_oom, 1);
      key = g_strconcat ("jvm.", name, NULL);
      tm_trace_writer_meta (a->writer, key, value);
      /* set by the user (command line, JAVA_TOOL_OPTIONS, a flags file),
       * not the JVM's choice */
      if (!is_default && !is_ergonomic)
        g_string_append_printf (user, "%s%s", user->len ? " " : "", name);
    }
  tm_trace_writer_meta (a->writer, "jvm.user_flags", user->str);
  (*jni)->DeleteLocalRef (jni, values);
}
