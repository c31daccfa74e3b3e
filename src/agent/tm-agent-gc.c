/* SPDX-License-Identifier: GPL-3.0-or-later
 * GC records.  The JVMTI GarbageCollectionStart/Finish callbacks give the
 * exact pause times and order the GC against allocations; right after, the
 * agent thread asks the GC MXBeans (through a small Java helper class
 * embedded at build time) which collector ran, and the helper's GC
 * notification listener brings the cause and per-pool usage. */
#include "tm-agent.h"

#include <string.h>

extern const unsigned char tm_agent_helper_class[];
extern const unsigned int tm_agent_helper_class_len;

/* How long a GC waits for its notification before it is written with
 * the current pool usage and an unknown cause.  The JDK thread that
 * delivers notifications may wait long for a core on a loaded machine
 * (a GC whose cause is lost is lost to every analysis by cause), so
 * seconds while the program runs; at VMDeath less, so that the last GCs
 * are written within the time the shutdown gives them. */
static gint64
note_wait_ns (void)
{
  return (g_atomic_int_get (&tm_agent.stopping) ? G_GINT64_CONSTANT (1500) : G_GINT64_CONSTANT (5000)) * 1000 * 1000;
}

void JNICALL
tm_agent_on_gc_start (jvmtiEnv *jvmti)
{
  TmAgent *a = &tm_agent;
  gint n = g_atomic_int_get (&a->gc_started) + 1;
  TmAgentGc *g = &a->gcs[n % TM_AGENT_GC_RING];

  g->start_ns = tm_agent_now_ns ();
  g->end_ns = 0;
  tm_agent_perfdata_read (g->inv_start);
  /* Counted before the id is read: a writer that does not count this GC
   * yet read its watermark before the id, so the marker goes after it. */
  __atomic_store_n (&g->last_id, G_MAXUINT64, __ATOMIC_RELEASE);
  g_atomic_int_set (&a->gc_started, n);
  __atomic_store_n (&g->last_id, __atomic_load_n (&a->next_id, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
}

/* Default spacing (no graph-every given): a graph at the first GC at
 * least TM_AGENT_GRAPH_SPACING after the last one, and at every
 * whole-heap collection (tm-agent-perfdata.c), as long as all walks so
 * far plus the next (estimated by the last) stay within
 * TM_AGENT_GRAPH_BUDGET of the run time.  Wall time, because the program
 * waits for the walk in wall time: a budget in CPU time would let walks
 * (one thread) take a multiple of the share from a program that keeps
 * several cores busy.  On a loaded machine a walk stretches, but so does
 * the run of a program with a fixed amount of work.  The budget is
 * cumulative, so a cheap stretch earns graphs for a costly one and early
 * GCs get graphs. */
#define TM_AGENT_GRAPH_SPACING (G_GINT64_CONSTANT (500) * 1000 * 1000)
#define TM_AGENT_GRAPH_BUDGET  0.25

gint64
tm_agent_cpu_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* All walks so far plus the next (estimated by the last) within the budget */
gboolean
tm_agent_graph_affordable (gint64 now)
{
  TmAgent *a = &tm_agent;

  return (double) (a->w_walk_total_ns + a->w_last_graph_cost) <= TM_AGENT_GRAPH_BUDGET * (double) now;
}

static gboolean
graph_due (guint n, gint64 now)
{
  TmAgent *a = &tm_agent;
  gboolean whole_heap;
  guint64 whole;

  if (a->opts.graph_every == 0)
    return FALSE;
  if (a->opts.graph_every_set)
    return n % a->opts.graph_every == 0;
  whole = tm_agent_perfdata_whole_heap_gcs ();
  whole_heap = whole != a->w_whole_heap_seen;
  a->w_whole_heap_seen = whole;
  /* a whole-heap collection gets one whatever the spacing */
  if (!whole_heap && a->w_graphs_taken > 0 && now - a->w_last_graph_end < TM_AGENT_GRAPH_SPACING)
    return FALSE;
  if (!tm_agent_graph_affordable (now))
    {
      a->w_graphs_skipped++;
      return FALSE;
    }
  return TRUE;
}

void JNICALL
tm_agent_on_gc_finish (jvmtiEnv *jvmti)
{
  TmAgent *a = &tm_agent;
  gint n = g_atomic_int_get (&a->gc_started);
  gint64 now = tm_agent_now_ns ();
  gboolean due = graph_due ((guint) n, now);
  TmAgentGc *g = &a->gcs[n % TM_AGENT_GC_RING];

  g->end_ns = now;
  tm_agent_perfdata_read (g->inv_end);
  tm_agent_perfdata_cause (g->cause, sizeof g->cause);
  /* a thread that ran out of heap waits for this GC's graph */
  if (g_atomic_int_compare_and_exchange (&a->oom_graph_pending, 1, 0))
    {
      g->at_oom = TRUE;
      due = TRUE;
    }
  if (due)
    {
      g->want_graph = TRUE;
      g_atomic_int_set (&a->graph_gate, n);
    }
  g_atomic_int_set (&a->gc_finished, n);
}

static void
note_free (gpointer p)
{
  TmAgentGcNote *n = p;
  g_free (n->collector);
  g_free (n->action);
  g_free (n->cause);
  g_strfreev (n->pools);
  g_free (n->before);
  g_free (n->after);
  g_free (n->committed);
  g_free (n);
}

static char *
note_key (const char *bean, guint64 id)
{
  return g_strdup_printf ("%s\n%" G_GUINT64_FORMAT, bean, id);
}

static char *
jstring_dup (JNIEnv *jni, jstring s)
{
  const char *utf;
  char *r;

  if (s == NULL)
    return g_strdup ("");
  utf = (*jni)->GetStringUTFChars (jni, s, NULL);
  r = g_strdup (utf ? utf : "");
  if (utf)
    (*jni)->ReleaseStringUTFChars (jni, s, utf);
  return r;
}

static guint64 *
jlongs_dup (JNIEnv *jni, jlongArray arr, guint n)
{
  guint64 *v = g_new0 (guint64, MAX (n, 1));
  if (arr != NULL && (guint) (*jni)->GetArrayLength (jni, arr) >= n)
    (*jni)->GetLongArrayRegion (jni, arr, 0, (jsize) n, (jlong *) v);
  return v;
}

static void JNICALL
native_mark (JNIEnv *jni, jclass klass, jboolean on)
{
  TmAgentThread *t = tm_agent_thread_get (tm_agent.jvmti, TRUE);
  if (t != NULL)
    t->agent_depth += on ? 1 : -1;
}

/* From a shutdown hook: a walk in progress ends before the hook returns
 * (walks hold writer_lock) and no other starts until VMDeath. */
static void JNICALL
native_exiting (JNIEnv *jni, jclass klass)
{
  TmAgent *a = &tm_agent;

  g_atomic_int_set (&a->exiting, 1);
  pthread_mutex_lock (&a->writer_lock);
  pthread_mutex_unlock (&a->writer_lock);
}

static void JNICALL
native_gc_note (JNIEnv *jni, jclass klass, jstring bean, jlong id, jlong start_ms, jstring action, jstring cause,
                jobjectArray pools, jlongArray before, jlongArray after, jlongArray committed)
{
  TmAgent *a = &tm_agent;
  TmAgentGcNote *n = g_new0 (TmAgentGcNote, 1);
  guint count = pools ? (guint) (*jni)->GetArrayLength (jni, pools) : 0;

  n->collector = jstring_dup (jni, bean);
  n->bean_id = (guint64) id;
  n->start_ms = (guint64) start_ms;
  n->action = jstring_dup (jni, action);
  n->cause = jstring_dup (jni, cause);
  n->n = count;
  n->pools = g_new0 (char *, count + 1);
  for (guint i = 0; i < count; i++)
    {
      jstring s = (*jni)->GetObjectArrayElement (jni, pools, (jsize) i);
      n->pools[i] = jstring_dup (jni, s);
      (*jni)->DeleteLocalRef (jni, s);
    }
  n->before = jlongs_dup (jni, before, count);
  n->after = jlongs_dup (jni, after, count);
  n->committed = jlongs_dup (jni, committed, count);

  pthread_mutex_lock (&a->note_lock);
  g_hash_table_replace (a->notes, note_key (n->collector, n->bean_id), n);
  pthread_mutex_unlock (&a->note_lock);
}

static gboolean
check_exception (JNIEnv *jni, const char *what, char **error)
{
  if (!(*jni)->ExceptionCheck (jni))
    return TRUE;
  (*jni)->ExceptionClear (jni);
  if (error != NULL)
    *error = g_strdup_printf ("%s failed (Java exception)", what);
  return FALSE;
}

static guint
space_kind (const char *pool, gboolean heap)
{
  if (!heap)
    return TM_SPACE_KIND_NON_HEAP;
  if (strstr (pool, "Eden") != NULL)
    return TM_SPACE_KIND_YOUNG;
  if (strstr (pool, "Survivor") != NULL)
    return TM_SPACE_KIND_SURVIVOR;
  if (strstr (pool, "Old") != NULL || strstr (pool, "Tenured") != NULL)
    return TM_SPACE_KIND_OLD;
  if (strstr (pool, "Humongous") != NULL)
    return TM_SPACE_KIND_HUMONGOUS;
  return TM_SPACE_KIND_OTHER;
}

/* Space id of a pool; defines it when new (a notification may name a pool
 * the helper did not list).  Unknown pools count as heap. */
static guint
space_id (const char *pool)
{
  TmAgent *a = &tm_agent;
  gpointer v = g_hash_table_lookup (a->w_spaces, pool);

  if (v != NULL)
    return GPOINTER_TO_UINT (v);
  a->w_n_spaces++;
  tm_trace_writer_space (a->writer, a->w_n_spaces, space_kind (pool, TRUE), pool);
  g_hash_table_insert (a->w_spaces, g_strdup (pool), GUINT_TO_POINTER (a->w_n_spaces));
  return a->w_n_spaces;
}

void
tm_agent_gc_write_spaces (void)
{
  TmAgent *a = &tm_agent;

  for (guint i = 0; i < a->w_n_pools; i++)
    {
      const char *p = a->w_pool_names[i];
      gboolean heap = p[0] == 'H';
      a->w_n_spaces++;
      tm_trace_writer_space (a->writer, a->w_n_spaces, space_kind (p + 2, heap), p + 2);
      g_hash_table_insert (a->w_spaces, g_strdup (p + 2), GUINT_TO_POINTER (a->w_n_spaces));
    }
}

static char **
call_strings (JNIEnv *jni, jmethodID m, guint *n_out)
{
  TmAgent *a = &tm_agent;
  jobjectArray arr;
  char **v;
  guint n = 0;

  tm_agent_vm_call_begin ();
  arr = (*jni)->CallStaticObjectMethod (jni, a->helper, m);
  if (!check_exception (jni, "TidemarkAgentHelper", NULL))
    arr = NULL;
  n = arr != NULL ? (guint) (*jni)->GetArrayLength (jni, arr) : 0;
  v = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    {
      jstring s = (*jni)->GetObjectArrayElement (jni, arr, (jsize) i);
      v[i] = jstring_dup (jni, s);
      (*jni)->DeleteLocalRef (jni, s);
    }
  if (arr != NULL)
    (*jni)->DeleteLocalRef (jni, arr);
  tm_agent_vm_call_end ();
  *n_out = n;
  return v;
}

static guint64 *
call_longs (JNIEnv *jni, jmethodID m, guint n)
{
  TmAgent *a = &tm_agent;
  jlongArray arr;
  guint64 *v;

  if (a->helper == NULL || m == NULL || jni == NULL)
    return g_new0 (guint64, MAX (n, 1));
  tm_agent_vm_call_begin ();
  arr = (*jni)->CallStaticObjectMethod (jni, a->helper, m);
  if (!check_exception (jni, "TidemarkAgentHelper", NULL))
    arr = NULL;
  v = jlongs_dup (jni, arr, n);
  if (arr != NULL)
    (*jni)->DeleteLocalRef (jni, arr);
  tm_agent_vm_call_end ();
  return v;
}

gboolean
tm_agent_gc_install (jvmtiEnv *jvmti, JNIEnv *jni, char **error)
{
  TmAgent *a = &tm_agent;
  static const JNINativeMethod natives[] = {
    { (char *) "mark", (char *) "(Z)V", (void *) native_mark },
    { (char *) "exiting", (char *) "()V", (void *) native_exiting },
    { (char *) "gcNote", (char *) "(Ljava/lang/String;JJLjava/lang/String;Ljava/lang/String;[Ljava/lang/String;[J[J[J)V",
      (void *) native_gc_note },
  };
  jclass cl_class;
  jmethodID get_system;
  jobject loader;
  jclass helper;
  jmethodID install, pools;

  a->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, note_free);
  a->w_spaces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  cl_class = (*jni)->FindClass (jni, "java/lang/ClassLoader");
  if (!check_exception (jni, "FindClass(ClassLoader)", error) || cl_class == NULL)
    return FALSE;
  get_system = (*jni)->GetStaticMethodID (jni, cl_class, "getSystemClassLoader", "()Ljava/lang/ClassLoader;");
  loader = get_system ? (*jni)->CallStaticObjectMethod (jni, cl_class, get_system) : NULL;
  if (!check_exception (jni, "getSystemClassLoader", error))
    return FALSE;
  helper = (*jni)->DefineClass (jni, "TidemarkAgentHelper", loader,
                                (const jbyte *) tm_agent_helper_class, (jsize) tm_agent_helper_class_len);
  if (!check_exception (jni, "defining TidemarkAgentHelper", error) || helper == NULL)
    return FALSE;
  if ((*jni)->RegisterNatives (jni, helper, natives, G_N_ELEMENTS (natives)) != 0)
    {
      check_exception (jni, "RegisterNatives", NULL);
      *error = g_strdup ("cannot register the helper's native methods");
      return FALSE;
    }
  a->helper = (*jni)->NewGlobalRef (jni, helper);
  install = (*jni)->GetStaticMethodID (jni, helper, "install", "()[Ljava/lang/String;");
  a->helper_counts = (*jni)->GetStaticMethodID (jni, helper, "counts", "()[J");
  pools = (*jni)->GetStaticMethodID (jni, helper, "pools", "()[Ljava/lang/String;");
  a->helper_usage = (*jni)->GetStaticMethodID (jni, helper, "usage", "()[J");
  if (!check_exception (jni, "looking up the helper's methods", error)
      || install == NULL || a->helper_counts == NULL || pools == NULL || a->helper_usage == NULL)
    {
      if (*error == NULL)
        *error = g_strdup ("the helper class lacks a method");
      return FALSE;
    }

  a->w_beans = call_strings (jni, install, &a->w_n_beans);
  a->w_pool_names = call_strings (jni, pools, &a->w_n_pools);
  if (a->w_n_beans > 0)
    {
      const char *b = a->w_beans[0];
      if (g_str_has_prefix (b, "PS "))
        a->w_gc_family = g_strdup ("Parallel");
      else if (strcmp (b, "Copy") == 0 || strcmp (b, "MarkSweepCompact") == 0)
        a->w_gc_family = g_strdup ("Serial");
      else
        a->w_gc_family = g_strndup (b, strcspn (b, " "));
    }
  else
    a->w_gc_family = g_strdup ("GC");
  return TRUE;
}

/* The bean of a perf collector, by the name HotSpot gives the collector:
 * young and full collection pauses (Serial, Parallel, G1) belong to the
 * young and the old generation's bean, concurrent-cycle pauses (G1's
 * Remark and Cleanup, ZGC's pauses) to a bean of pauses or to none (G1
 * on JDK 17).  -2: not known (Shenandoah), or ambiguous. */
static gint
perf_bean (const char *name)
{
  TmAgent *a = &tm_agent;
  gboolean young = g_str_has_suffix (name, " young collection pauses");
  gboolean full = g_str_has_suffix (name, " full collection pauses");
  gboolean conc = g_str_has_suffix (name, " concurrent cycle pauses");
  gint found = -1;
  guint hits = 0;

  if (!young && !full && !conc)
    return -2;
  for (guint b = 0; b < a->w_n_beans; b++)
    {
      const char *bean = a->w_beans[b];
      gboolean old = strstr (bean, "Old") != NULL || strstr (bean, "MarkSweep") != NULL;
      gboolean pauses = strstr (bean, "Pauses") != NULL || strstr (bean, "Concurrent") != NULL;
      gboolean cycles = strstr (bean, "Cycles") != NULL;

      if ((full && old) || (conc && pauses) || (young && !old && !pauses && !cycles))
        {
          found = (gint) b;
          hits++;
        }
    }
  return hits > 1 || (hits == 0 && !conc) ? -2 : found;
}

/* Outside a GC a collector's perf count equals its bean's collection
 * count (HotSpot counts both for the same collections); a GC in
 * progress or in between the reads is waited out. */
static gboolean
perf_counts_agree (JNIEnv *jni, const gint *beans, guint n)
{
  TmAgent *a = &tm_agent;

  for (guint attempt = 0; attempt < 20; attempt++)
    {
      guint64 p1[TM_AGENT_COLLECTORS], p2[TM_AGENT_COLLECTORS];
      g_autofree guint64 *counts = NULL;
      gboolean agree = TRUE;

      tm_agent_perfdata_read (p1);
      counts = call_longs (jni, a->helper_counts, a->w_n_beans);
      tm_agent_perfdata_read (p2);
      for (guint i = 0; i < n; i++)
        agree &= p1[i] == p2[i] && (beans[i] < 0 || counts[beans[i]] == p1[i]);
      if (agree)
        return TRUE;
      g_usleep (2000);
    }
  return FALSE;
}

/* Decides how pauses are matched with collections: by the perf counters
 * when every collector is known and its counts agree with its bean's. */
static void
map_perf_collectors (JNIEnv *jni)
{
  TmAgent *a = &tm_agent;
  guint n = tm_agent_perfdata_collectors ();
  g_autofree gint *beans = g_new0 (gint, MAX (n, 1));
  guint64 used = 0;   /* bit per bean */

  if (n == 0)
    {
      a->w_gc_matching = "collection counts (no perf data, -XX:-UsePerfData)";
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      beans[i] = perf_bean (tm_agent_perfdata_collector_name (i));
      if (beans[i] == -2 || (beans[i] >= 0 && (used & (G_GUINT64_CONSTANT (1) << beans[i]))))
        {
          a->w_gc_matching = "collection counts (collectors without known counters)";
          return;
        }
      if (beans[i] >= 0)
        used |= G_GUINT64_CONSTANT (1) << beans[i];
    }
  if (!perf_counts_agree (jni, beans, n))
    {
      a->w_gc_matching = "collection counts (perf counters disagree with the MXBeans)";
      return;
    }
  a->w_perf_beans = g_steal_pointer (&beans);
  a->w_gc_matching = "perf counters";
}

/* The collections so far (the VMInit forced GC) are not in the trace. */
void
tm_agent_gc_reset_counts (JNIEnv *jni)
{
  TmAgent *a = &tm_agent;

  if (a->helper == NULL)
    return;
  g_free (a->w_bean_counts);
  a->w_bean_counts = call_longs (jni, a->helper_counts, a->w_n_beans);
  g_free (a->w_bean_written);
  a->w_bean_written = g_memdup2 (a->w_bean_counts, sizeof (guint64) * MAX (a->w_n_beans, 1));
  map_perf_collectors (jni);
}

/* ZGC and Shenandoah have a bean for their pauses (one per JVMTI pair)
 * and one for whole cycles: only the pauses match pairs. */
static gboolean
bean_ignored (guint b)
{
  TmAgent *a = &tm_agent;

  if (strstr (a->w_beans[b], "Cycles") == NULL)
    return FALSE;
  for (guint k = 0; k < a->w_n_beans; k++)
    if (strstr (a->w_beans[k], "Pauses") != NULL)
      return TRUE;
  return FALSE;
}

static int
collection_cmp (const void *x, const void *y)
{
  const guint64 *a = x, *b = y;   /* start ms, bean index, id */
  for (int i = 0; i < 3; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* Collections of several collectors since the last match (a young GC and
 * a full GC in a row): order them by their start times, which only the
 * notifications carry.  FALSE: wait for the notifications (at most
 * note_wait_ns ()). */
static gboolean
order_collections (GArray *colls)
{
  TmAgent *a = &tm_agent;
  static gint64 waiting_since;
  g_autofree guint64 *keys = NULL;
  gboolean several = FALSE;

  for (guint k = 1; k < colls->len; k++)
    several |= g_array_index (colls, guint64, 2 * k) != g_array_index (colls, guint64, 0);
  if (!several)
    return TRUE;

  keys = g_new (guint64, 3 * colls->len);
  pthread_mutex_lock (&a->note_lock);
  for (guint k = 0; k < colls->len; k++)
    {
      guint64 bean = g_array_index (colls, guint64, 2 * k);
      guint64 id = g_array_index (colls, guint64, 2 * k + 1);
      g_autofree char *key = note_key (a->w_beans[bean], id);
      TmAgentGcNote *n = g_hash_table_lookup (a->notes, key);
      keys[3 * k] = n ? n->start_ms : G_MAXUINT64;
      keys[3 * k + 1] = bean;
      keys[3 * k + 2] = id;
      if (n == NULL)
        {
          pthread_mutex_unlock (&a->note_lock);
          if (waiting_since == 0)
            waiting_since = tm_agent_now_ns ();
          if (tm_agent_now_ns () - waiting_since < note_wait_ns ())
            return FALSE;
          pthread_mutex_lock (&a->note_lock);
        }
    }
  pthread_mutex_unlock (&a->note_lock);
  waiting_since = 0;
  qsort (keys, colls->len, 3 * sizeof (guint64), collection_cmp);
  for (guint k = 0; k < colls->len; k++)
    {
      g_array_index (colls, guint64, 2 * k) = keys[3 * k + 1];
      g_array_index (colls, guint64, 2 * k + 1) = keys[3 * k + 2];
    }
  return TRUE;
}

/* Pairs by the perf counters read in the GC callbacks: the collections
 * a pause held are exactly those its counts went up by, young before
 * full (the order HotSpot runs them in). */
static void
match_by_counters (guint first, guint upto)
{
  TmAgent *a = &tm_agent;
  guint n_collectors = tm_agent_perfdata_collectors ();

  for (guint n = first; n <= upto; n++)
    {
      TmAgentGc *g = &a->gcs[n % TM_AGENT_GC_RING];
      gint first_bean = -1, last_bean = -1;
      guint64 first_id = 0, last_id = 0, total = 0;

      for (guint i = 0; i < n_collectors; i++)
        {
          gint b = a->w_perf_beans[i];
          if (b < 0 || g->inv_end[i] <= g->inv_start[i])
            continue;
          if (first_bean < 0)
            {
              first_bean = b;
              first_id = g->inv_start[i] + 1;
            }
          last_bean = b;
          last_id = g->inv_end[i];
          total += g->inv_end[i] - g->inv_start[i];
        }
      if (last_bean >= 0)
        {
          g->bean = g_strdup (a->w_beans[last_bean]);
          g->bean_id = last_id;
        }
      if (total > 1)
        {
          g->first_bean = g_strdup (a->w_beans[first_bean]);
          g->first_bean_id = first_id;
        }
    }
}

/* Pairs by the MXBeans' collection counts alone (no perf counters): one
 * collection per pause, so a young collection that turns into a full one
 * in the same pause shifts the later pauses' collections. */
static gboolean
match_by_bean_counts (JNIEnv *jni, guint first, guint upto)
{
  TmAgent *a = &tm_agent;
  g_autoptr(GArray) colls = NULL;   /* pairs: bean index, id */
  guint pairs = upto - first + 1;
  guint64 *counts;
  guint assign_from;

  counts = call_longs (jni, a->helper_counts, a->w_n_beans);
  colls = g_array_new (FALSE, FALSE, sizeof (guint64) * 2);
  for (guint b = 0; b < a->w_n_beans; b++)
    if (bean_ignored (b))
      a->w_bean_counts[b] = counts[b];
    else
    for (guint64 c = a->w_bean_counts[b] + 1; c <= counts[b]; c++)
      {
        guint64 e[2] = { b, c };
        g_array_append_val (colls, e);
      }
  g_free (counts);

  if (!order_collections (colls))
    return FALSE;   /* notifications to order them by are on their way */
  /* Usually one pair and one collection.  Pairs without a collection are
   * pauses of a concurrent cycle (G1 Remark/Cleanup, ZGC pauses). */
  assign_from = colls->len >= pairs ? 0 : pairs - colls->len;
  for (guint k = 0; k < pairs; k++)
    {
      TmAgentGc *g = &a->gcs[(first + k) % TM_AGENT_GC_RING];
      if (k >= assign_from && k - assign_from < colls->len)
        {
          guint64 *e = &g_array_index (colls, guint64, 2 * (k - assign_from));
          g->bean = g_strdup (a->w_beans[e[0]]);
          g->bean_id = e[1];
          a->w_bean_counts[e[0]] = e[1];
        }
    }
  return TRUE;
}

/* Decides, for every GC finished up to `upto`, which collections it held. */
void
tm_agent_gc_match (JNIEnv *jni, guint upto)
{
  TmAgent *a = &tm_agent;
  guint first = a->w_gcs_matched + 1;

  if (upto < first)
    return;
  for (guint n = first; n <= upto; n++)
    {
      TmAgentGc *g = &a->gcs[n % TM_AGENT_GC_RING];
      g_clear_pointer (&g->bean, g_free);
      g_clear_pointer (&g->first_bean, g_free);
      g->bean_id = g->first_bean_id = 0;
    }
  if (a->w_perf_beans != NULL)
    match_by_counters (first, upto);
  else if (!match_by_bean_counts (jni, first, upto))
    return;
  for (guint n = first; n <= upto; n++)
    {
      a->gcs[n % TM_AGENT_GC_RING].matched = TRUE;
      a->gcs[n % TM_AGENT_GC_RING].matched_at = tm_agent_now_ns ();
    }
  a->w_gcs_matched = upto;
}

static TmAgentGcNote *
note_take (const char *bean, guint64 id)
{
  TmAgent *a = &tm_agent;
  g_autofree char *key = NULL;
  TmAgentGcNote *n = NULL;
  gpointer k = NULL;

  if (bean == NULL)
    return NULL;
  key = note_key (bean, id);
  pthread_mutex_lock (&a->note_lock);
  if (g_hash_table_steal_extended (a->notes, key, &k, (gpointer *) &n))
    g_free (k);
  pthread_mutex_unlock (&a->note_lock);
  return n;
}

static gboolean
note_present (const char *bean, guint64 id)
{
  TmAgent *a = &tm_agent;
  g_autofree char *key = NULL;
  gboolean r;

  if (bean == NULL)
    return TRUE;
  key = note_key (bean, id);
  pthread_mutex_lock (&a->note_lock);
  r = g_hash_table_contains (a->notes, key);
  pthread_mutex_unlock (&a->note_lock);
  return r;
}

/* Notes no pause will take: of a collection written already (in the
 * middle of a pause, or late), or of a bean pauses are not matched to
 * (ZGC's cycles). */
static gboolean
note_stale (gpointer key, gpointer value, gpointer user_data)
{
  TmAgent *a = &tm_agent;
  const TmAgentGcNote *n = value;

  for (guint b = 0; b < a->w_n_beans; b++)
    if (strcmp (a->w_beans[b], n->collector) == 0)
      {
        gboolean matched = FALSE;
        if (a->w_perf_beans == NULL)
          matched = !bean_ignored (b);
        for (guint i = 0; a->w_perf_beans != NULL && i < tm_agent_perfdata_collectors (); i++)
          matched |= a->w_perf_beans[i] == (gint) b;
        return !matched || n->bean_id <= a->w_bean_written[b];
      }
  return TRUE;
}

static void
note_written (const char *bean, guint64 id)
{
  TmAgent *a = &tm_agent;

  for (guint b = 0; bean != NULL && b < a->w_n_beans; b++)
    if (strcmp (a->w_beans[b], bean) == 0)
      a->w_bean_written[b] = MAX (a->w_bean_written[b], id);
}

gboolean
tm_agent_gc_ready (guint n, gboolean final)
{
  TmAgent *a = &tm_agent;
  const TmAgentGc *g = &a->gcs[n % TM_AGENT_GC_RING];

  if (n > a->w_gcs_matched || !g->matched)
    return FALSE;
  if (g->want_graph && g->graph == NULL)
    return FALSE;
  /* without calls into the JVM only a notification tells the usage */
  if (g_atomic_int_get (&a->exit_no_java))
    return g->bean != NULL && note_present (g->bean, g->bean_id) && note_present (g->first_bean, g->first_bean_id);
  if (g->bean == NULL)
    return TRUE;
  return (note_present (g->bean, g->bean_id) && note_present (g->first_bean, g->first_bean_id))
         || tm_agent_now_ns () - g->matched_at > note_wait_ns ();
}

static guint
kind_for (const char *bean, const TmAgentGcNote *note)
{
  if (tm_agent.helper == NULL)
    return TM_GC_KIND_UNKNOWN;   /* no MXBeans to tell */
  if (bean == NULL || strstr (bean, "Pauses") != NULL)
    return TM_GC_KIND_CONCURRENT;
  if (note != NULL && strstr (note->action, "minor") != NULL)
    return TM_GC_KIND_MINOR;
  if (note != NULL && strstr (note->action, "major") != NULL)
    return TM_GC_KIND_MAJOR;
  if (strstr (bean, "Cycles") != NULL)
    return TM_GC_KIND_CONCURRENT;
  if (strstr (bean, "Old") != NULL || strstr (bean, "MarkSweep") != NULL)
    return TM_GC_KIND_MAJOR;
  return TM_GC_KIND_MINOR;
}

void
tm_agent_gc_write (JNIEnv *jni, guint n)
{
  TmAgent *a = &tm_agent;
  TmAgentGc *g = &a->gcs[n % TM_AGENT_GC_RING];
  TmAgentGcNote *note = note_take (g->bean, g->bean_id);
  TmAgentGcNote *first = note_take (g->first_bean, g->first_bean_id);
  g_autofree char *collector = NULL;
  g_autoptr(GArray) usage = g_array_new (FALSE, FALSE, sizeof (TmSpaceUsageRecord));
  gint64 start = g->start_ns, end = g->end_ns;
  guint64 used_sum = 0;
  const char *cause;

  if (end < start)
    end = start;
  collector = g->bean ? g_strdup (g->bean) : g_strdup_printf ("%s pause", a->w_gc_family);
  /* ZGC's pause notifications carry no usage */
  for (guint i = 0; note != NULL && i < note->n; i++)
    used_sum += note->before[i] + note->after[i];
  if (note != NULL && used_sum > 0)
    {
      for (guint i = 0; i < note->n; i++)
        {
          TmSpaceUsageRecord r = { space_id (note->pools[i]), note->before[i], note->after[i], note->committed[i] };
          /* a pause of several collections: before the first one */
          for (guint k = 0; first != NULL && k < first->n; k++)
            if (strcmp (first->pools[k], note->pools[i]) == 0)
              r.used_before = first->before[k];
          g_array_append_val (usage, r);
        }
    }
  else
    {
      /* No notification: the pools' usage now, before = after. */
      guint64 *u = call_longs (jni, a->helper_usage, a->w_n_pools * 2);
      for (guint i = 0; i < a->w_n_pools; i++)
        {
          TmSpaceUsageRecord r = { space_id (a->w_pool_names[i] + 2), u[2 * i], u[2 * i], u[2 * i + 1] };
          g_array_append_val (usage, r);
        }
      g_free (u);
    }

  if (note != NULL)
    cause = note->cause;
  else if (g->bean != NULL && g->cause[0] != '\0' && strcmp (g->cause, "No GC") != 0)
    cause = g->cause;   /* what HotSpot's counters said */
  else
    cause = (g->bean != NULL || a->helper == NULL) ? "unknown" : "concurrent cycle pause";
  tm_trace_writer_gc_start (a->writer, n, (guint64) start, kind_for (g->bean, note), collector, cause);
  tm_trace_writer_gc_end (a->writer, n, (guint64) end, (guint64) (end - start), usage->len,
                          (const TmSpaceUsageRecord *) (void *) usage->data);
  if (g->graph != NULL)
    {
      /* the final graph comes after the program's main thread ended */
      if (g->final || g->at_oom)
        tm_trace_writer_graph_context (a->writer, n, g->final ? TM_GRAPH_POST_MORTEM : TM_GRAPH_AT_OOM);
      tm_agent_graph_write (g->graph, n, g->final);
      tm_agent_graph_free (g->graph);
      g->graph = NULL;
    }
  if (note != NULL)
    note_free (note);
  if (first != NULL)
    note_free (first);
  note_written (g->first_bean, g->first_bean_id);
  note_written (g->bean, g->bean_id);
  if (a->notes != NULL)
    {
      pthread_mutex_lock (&a->note_lock);
      g_hash_table_foreach_remove (a->notes, note_stale, NULL);
      pthread_mutex_unlock (&a->note_lock);
    }
  g_clear_pointer (&g->bean, g_free);
  g_clear_pointer (&g->first_bean, g_free);
  g->matched = FALSE;
  g->want_graph = FALSE;
  g->final = FALSE;
  g->at_oom = FALSE;
}
