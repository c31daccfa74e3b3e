/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Tidemark JVMTI recording agent: -agentpath:libtidemark-agent.so=OPTIONS
 * (docs/agent.md).  This file holds the JVMTI entry points: loading,
 * VMInit (pre-existing objects, the agent thread), the allocation and
 * free callbacks, and the orderly shutdown at VMDeath.
 */
#include "tm-config.h"
#include "tm-agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

TmAgent tm_agent;

static void
agent_log (const char *format, ...) G_GNUC_PRINTF (1, 2);

static void
agent_log (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  fputs ("tidemark-agent: ", stderr);
  vfprintf (stderr, format, args);
  fputc ('\n', stderr);
  va_end (args);
}

static char *
system_property (jvmtiEnv *jvmti, const char *name)
{
  char *v = NULL;
  char *r;

  if ((*jvmti)->GetSystemProperty (jvmti, name, &v) != JVMTI_ERROR_NONE || v == NULL)
    return g_strdup ("");
  r = g_strdup (v);
  (*jvmti)->Deallocate (jvmti, (unsigned char *) v);
  return r;
}

/* ---- allocation and free callbacks ---- */

/* The per-thread cache of the last classes allocated spares a tag map
 * lookup (and the lock) per allocation. */
static guint32
alloc_type (jvmtiEnv *jvmti, JNIEnv *jni, TmAgentThread *t, jclass klass, guint32 *flags)
{
  guint k;
  guint32 type;

  for (k = 0; k < G_N_ELEMENTS (t->cache); k++)
    if (t->cache[k].klass != NULL && (*jni)->IsSameObject (jni, klass, t->cache[k].klass))
      {
        *flags = t->cache[k].flags;
        return t->cache[k].type;
      }
  k = t->cache_next++ % G_N_ELEMENTS (t->cache);
  pthread_mutex_lock (&tm_agent.queue_lock);
  type = tm_agent_type_locked (jvmti, klass, 0, flags);
  pthread_mutex_unlock (&tm_agent.queue_lock);
  if (t->cache[k].klass != NULL)
    (*jni)->DeleteWeakGlobalRef (jni, t->cache[k].klass);
  t->cache[k].klass = (*jni)->NewWeakGlobalRef (jni, klass);
  t->cache[k].type = type;
  t->cache[k].flags = *flags;
  return type;
}

static void JNICALL
on_sampled_alloc (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object, jclass klass, jlong size)
{
  TmAgent *a = &tm_agent;
  jvmtiFrameInfo frames[TM_AGENT_MAX_DEPTH];
  jint depth = 0;
  TmAgentThread *t;
  TmAgentAlloc *al;
  guint32 type, flags = 0, site, tid;
  guint64 id;
  gboolean init;

  g_atomic_int_inc (&a->in_flight);
  if (g_atomic_int_get (&a->stopping))
    goto out;
  t = tm_agent_thread_get (jvmti, TRUE);
  if (t == NULL)
    goto out;
  if (t->agent_depth > 0)
    {
      t->sampled = TRUE;
      goto out;
    }
  if (G_UNLIKELY (g_atomic_int_get (&a->graph_gate) != 0))
    tm_agent_graph_gate_wait ();
  if (a->opts.stack_depth > 0)
    (*jvmti)->GetStackTrace (jvmti, NULL, 0, (jint) a->opts.stack_depth, frames, &depth);

  /* definitions first: queued before this ALLOC's id is given out */
  type = alloc_type (jvmti, jni, t, klass, &flags);
  site = tm_agent_site (jvmti, t, frames, depth);
  if (G_UNLIKELY (!t->defined))
    {
      pthread_mutex_lock (&a->queue_lock);
      tm_agent_thread_define_locked (jvmti, t, thread);
      pthread_mutex_unlock (&a->queue_lock);
    }
  tid = t->id;

  /* While VMInit gives the objects already in the heap their ids (under
   * queue_lock), allocations wait for it and skip what it tagged. */
  init = G_UNLIKELY (g_atomic_int_get (&a->init_check));
  if (init)
    pthread_mutex_lock (&a->queue_lock);
  pthread_mutex_lock (&t->buf_lock);
  if (init)
    {
      jlong tag = 0;
      if ((*jvmti)->GetTag (jvmti, object, &tag) == JVMTI_ERROR_NONE && tag != 0)
        goto unlock;
    }
  if (G_UNLIKELY (__atomic_load_n (&a->next_id, __ATOMIC_RELAXED)
                  - __atomic_load_n (&a->w_last_id, __ATOMIC_RELAXED) >= TM_AGENT_QUEUE_CAP))
    {
      __atomic_add_fetch (&a->dropped, 1, __ATOMIC_RELAXED);
      goto unlock;
    }
  id = __atomic_add_fetch (&a->next_id, 1, __ATOMIC_ACQ_REL);
  /* a failed SetTag leaves a hole: the writer declares that id dead */
  if ((*jvmti)->SetTag (jvmti, object, (jlong) id) != JVMTI_ERROR_NONE)
    goto unlock;
  al = tm_agent_thread_push_locked (t);
  al->id = id;
  al->type = type;
  al->site = site;
  al->thread = tid;
  al->size = (guint64) size;
  al->length = (flags & (TM_TYPE_FLAG_REF_ARRAY | TM_TYPE_FLAG_PRIM_ARRAY))
               ? (guint64) (*jni)->GetArrayLength (jni, object) : 0;
  if (G_UNLIKELY (t->tx_depth > 0))
    g_array_append_val (t->tx_ids, id);
unlock:
  pthread_mutex_unlock (&t->buf_lock);
  if (init)
    pthread_mutex_unlock (&a->queue_lock);
out:
  g_atomic_int_dec_and_test (&a->in_flight);
}

/* Posted by a JDK thread after a GC while it holds the tag map lock: only
 * death_lock here, which nobody holds across a JVMTI call. */
static void JNICALL
on_object_free (jvmtiEnv *jvmti, jlong tag)
{
  TmAgent *a = &tm_agent;
  TmAgentDeath d;

  if (tag <= 0 || (tag & TM_AGENT_TEMP_TAG) != 0)
    return;
  d.id = (guint64) tag;
  d.gc = (guint32) g_atomic_int_get (&a->gc_finished);
  pthread_mutex_lock (&a->death_lock);
  g_array_append_val (a->deaths, d);
  pthread_mutex_unlock (&a->death_lock);
}

static void JNICALL
on_thread_end (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
  tm_agent_thread_end (jvmti, jni);
}

/* ---- OutOfMemoryError ---- */

static TmOomKind
oom_kind (jint flags, const char *description)
{
  if (flags & JVMTI_RESOURCE_EXHAUSTED_JAVA_HEAP)
    return TM_OOM_JAVA_HEAP;
  if (flags & JVMTI_RESOURCE_EXHAUSTED_THREADS)
    return TM_OOM_THREADS;
  if (description != NULL && (strstr (description, "Metaspace") != NULL || strstr (description, "class space") != NULL))
    return TM_OOM_METASPACE;
  return TM_OOM_OTHER;
}

/* Posted on the thread that is about to throw the error.  Records it and,
 * for the Java heap, takes a graph of the heap as it is now (Tidemark's
 * heap dump on OutOfMemoryError): the last GC's graph, while this thread's
 * stack still holds what it held.  Other kinds only record the event: the
 * thread may hold VM locks a heap walk would wait for. */
static void JNICALL
on_resource_exhausted (jvmtiEnv *jvmti, JNIEnv *jni, jint flags, const void *reserved, const char *description)
{
  TmAgent *a = &tm_agent;
  TmAgentThread *t;
  TmAgentEvent *ev;
  TmOomKind kind = oom_kind (flags, description);
  guint n;

  if (g_atomic_int_get (&a->stopping) || (t = tm_agent_thread_get (jvmti, TRUE)) == NULL || t->agent_depth > 0)
    return;
  n = (guint) g_atomic_int_get (&a->gc_finished);
  pthread_mutex_lock (&a->queue_lock);
  tm_agent_queue_sync_gcs_locked ((guint) g_atomic_int_get (&a->gc_started));
  /* the thread's definition goes first: a reader skips an event of a
   * thread not defined yet */
  if (!t->defined)
    {
      jthread self = NULL;
      (*jvmti)->GetCurrentThread (jvmti, &self);
      tm_agent_thread_define_locked (jvmti, t, self);
    }
  ev = tm_agent_queue_push_locked ();
  ev->kind = TM_EV_OOM;
  ev->id = (guint64) tm_agent_now_ns ();
  ev->x = kind;
  ev->site = n;
  ev->thread = t->id;
  ev->u.str = g_strdup (description ? description : "");
  pthread_mutex_unlock (&a->queue_lock);

  if (kind == TM_OOM_JAVA_HEAP && a->opts.graph_every > 0)
    {
      gboolean force;

      /* The last GC (the one that found no room) gets the graph unless
       * the writer is done with it: it may be, on a loaded machine, when
       * this thread comes here late.  Then a GC of our own gets it, marked
       * in its finish callback, where no writer can be ahead. */
      pthread_mutex_lock (&a->writer_lock);
      force = n == 0 || n <= a->w_gcs_written || g_atomic_int_get (&a->gc_started) != (gint) n;
      if (!force)
        {
          TmAgentGc *g = &a->gcs[n % TM_AGENT_GC_RING];
          g->at_oom = TRUE;
          /* unless its graph was taken already (the heap is the same) */
          if (g->graph == NULL)
            {
              g->want_graph = TRUE;
              g_atomic_int_set (&a->graph_gate, (gint) n);
            }
        }
      pthread_mutex_unlock (&a->writer_lock);
      if (force)
        {
          g_atomic_int_set (&a->oom_graph_pending, 1);
          (*jvmti)->ForceGarbageCollection (jvmti);
        }
      tm_agent_graph_gate_wait ();
    }
}

/* ---- objects in the heap before recording started ---- */

typedef struct {
  jlong   tag;
  jlong   class_tag;
  guint64 size;
  jint    length;
} TmAgentPreexisting;

static jint JNICALL
preexisting_cb (jlong class_tag, jlong size, jlong *tag_ptr, jint length, void *user_data)
{
  GArray *out = user_data;
  TmAgentPreexisting p;

  if (*tag_ptr == 0)
    *tag_ptr = (jlong) __atomic_add_fetch (&tm_agent.next_id, 1, __ATOMIC_RELAXED);
  p.tag = *tag_ptr;
  p.class_tag = class_tag;
  p.size = (guint64) size;
  p.length = length;
  g_array_append_val (out, p);
  return 0;
}

static int
preexisting_cmp (const void *a, const void *b)
{
  const TmAgentPreexisting *x = a, *y = b;
  return (x->tag > y->tag) - (x->tag < y->tag);
}

/* Gives every object already in the heap an id and an ALLOC with site 0,
 * buffered as this thread's (t->buf_lock held throughout, so the writer
 * takes them all at once).  Class mirrors first, so that every object's
 * type is known. */
static void
tag_preexisting_locked (jvmtiEnv *jvmti, JNIEnv *jni, TmAgentThread *t)
{
  TmAgent *a = &tm_agent;
  jclass *classes = NULL;
  jint n_classes = 0;
  jvmtiHeapCallbacks cb;
  g_autoptr(GArray) objs = g_array_new (FALSE, FALSE, sizeof (TmAgentPreexisting));

  if ((*jvmti)->GetLoadedClasses (jvmti, &n_classes, &classes) == JVMTI_ERROR_NONE)
    {
      /* every mirror its object id first: defining a type defines its
       * superclass and interfaces, which must not get temporary tags */
      for (jint i = 0; i < n_classes; i++)
        {
          jlong tag = 0;
          (*jvmti)->GetTag (jvmti, classes[i], &tag);
          if (tag == 0)
            (*jvmti)->SetTag (jvmti, classes[i], (jlong) __atomic_add_fetch (&a->next_id, 1, __ATOMIC_RELAXED));
        }
      for (jint i = 0; i < n_classes; i++)
        {
          guint32 flags;
          tm_agent_type_locked (jvmti, classes[i], 0, &flags);
          (*jni)->DeleteLocalRef (jni, classes[i]);
        }
      (*jvmti)->Deallocate (jvmti, (unsigned char *) classes);
    }

  memset (&cb, 0, sizeof cb);
  cb.heap_iteration_callback = preexisting_cb;
  (*jvmti)->IterateThroughHeap (jvmti, 0, NULL, &cb, objs);
  g_array_sort (objs, preexisting_cmp);
  for (guint i = 0; i < objs->len; i++)
    {
      const TmAgentPreexisting *p = &g_array_index (objs, TmAgentPreexisting, i);
      TmAgentAlloc *al;
      guint32 flags;

      if (p->tag <= 0 || (p->tag & TM_AGENT_TEMP_TAG))
        continue;
      al = tm_agent_thread_push_locked (t);
      al->id = (guint64) p->tag;
      al->type = tm_agent_type_for_tag_locked (p->class_tag, &flags);
      al->site = 0;
      al->thread = 0;
      al->size = p->size;
      al->length = p->length > 0 ? (guint64) p->length : 0;
    }
}

/* ---- the agent thread ---- */

static void stop_recording (jvmtiEnv *jvmti, gint64 max_ms);
static void finish_trace (jvmtiEnv *jvmti, JNIEnv *jni, gboolean final_gc);

static void JNICALL
agent_thread_main (jvmtiEnv *jvmti, JNIEnv *jni, void *arg)
{
  TmAgent *a = &tm_agent;
  TmAgentThread *t = tm_agent_thread_get (jvmti, TRUE);
  gint64 last_pump = 0, last_flush = tm_agent_now_ns (), started = last_flush;
  guint seen = 0;

  if (t != NULL)
    t->agent_depth++;
  /* here rather than at VMInit: off the program's start-up path */
  pthread_mutex_lock (&a->writer_lock);
  tm_agent_flags_write (jni);
  pthread_mutex_unlock (&a->writer_lock);
  g_atomic_int_set (&a->agent_running, 1);
  while (!g_atomic_int_get (&a->agent_stop) && !g_atomic_int_get (&a->exit_finish))
    {
      guint finished = (guint) g_atomic_int_get (&a->gc_finished);
      gint64 now = tm_agent_now_ns ();

      if (finished != seen || g_atomic_int_get (&a->graph_gate) != 0
          || now - last_pump >= 100 * 1000 * 1000)
        {
          seen = finished;
          last_pump = now;
          pthread_mutex_lock (&a->writer_lock);
          tm_agent_pump (jni, FALSE);
          if (now - last_flush >= G_GINT64_CONSTANT (1000000000))
            {
              /* a frame per second: a killed JVM leaves a readable file */
              if (a->w_safe_tick > a->w_last_tick)
                {
                  tm_trace_writer_tick (a->writer, (guint64) a->w_safe_tick);
                  a->w_last_tick = a->w_safe_tick;
                }
              tm_trace_writer_flush (a->writer, NULL);
              last_flush = now;
            }
          /* allocation callbacks that raced the VMInit heap walk are over */
          if (now - started >= G_GINT64_CONSTANT (1000000000))
            g_atomic_int_set (&a->init_check, 0);
          tm_agent_write_status ();
          pthread_mutex_unlock (&a->writer_lock);
        }
      tm_agent_idle_gc_maybe (jvmti);
      g_usleep (g_atomic_int_get (&a->graph_gate) != 0 ? 1000 : 10000);
    }
  if (g_atomic_int_get (&a->exit_finish))
    {
      /* not long: a thread stuck in a full heap may never leave its callback */
      stop_recording (jvmti, 1000);
      finish_trace (jvmti, g_atomic_int_get (&a->exit_no_java) ? NULL : jni, FALSE);
    }
  g_atomic_int_set (&a->agent_done, 1);
}

static gboolean
start_agent_thread (jvmtiEnv *jvmti, JNIEnv *jni)
{
  jclass cls = (*jni)->FindClass (jni, "java/lang/Thread");
  jmethodID ctor = cls ? (*jni)->GetMethodID (jni, cls, "<init>", "(Ljava/lang/String;)V") : NULL;
  jstring name = (*jni)->NewStringUTF (jni, "Tidemark Agent");
  jthread thread = ctor ? (*jni)->NewObject (jni, cls, ctor, name) : NULL;

  if (thread == NULL)
    {
      (*jni)->ExceptionClear (jni);
      return FALSE;
    }
  return (*jvmti)->RunAgentThread (jvmti, thread, agent_thread_main, NULL, JVMTI_THREAD_MAX_PRIORITY) == JVMTI_ERROR_NONE;
}

/* ---- VM life cycle ---- */

static void
set_event (jvmtiEnv *jvmti, jvmtiEventMode mode, jvmtiEvent event)
{
  (*jvmti)->SetEventNotificationMode (jvmti, mode, event, NULL);
}

static void JNICALL
on_vm_init (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
  TmAgent *a = &tm_agent;
  TmAgentThread *t = tm_agent_thread_get (jvmti, TRUE);
  g_autofree char *vm_name = system_property (jvmti, "java.vm.name");
  g_autofree char *vm_version = system_property (jvmti, "java.vm.version");
  g_autofree char *command = system_property (jvmti, "sun.java.command");
  g_autofree char *error = NULL;
  g_autofree char *collectors = NULL;
  TmTraceHeader header;

  t->agent_depth++;
  pthread_mutex_lock (&a->writer_lock);
  memset (&header, 0, sizeof header);
  header.version = 1;
  header.start_unix_ns = (guint64) g_get_real_time () * 1000;
  header.vm_name = vm_name;
  header.vm_version = vm_version;
  header.command_line = command;
  header.pointer_size = sizeof (void *);
  header.alloc_sample_bytes = a->opts.sample_bytes;
  header.flags = TM_TRACE_FLAG_DEATHS | (a->opts.sample_bytes == 0 ? TM_TRACE_FLAG_GRAPHS : 0);
  tm_trace_writer_header (a->writer, &header);
  tm_trace_writer_meta (a->writer, "recorder", "tidemark-agent " PACKAGE_VERSION);
  tm_agent_tx_write_kinds (a->writer);

  if (!tm_agent_gc_install (jvmti, jni, &error))
    {
      agent_log ("cannot read the GC MXBeans (%s); GC records will lack pools and causes", error);
      a->w_gc_family = g_strdup ("GC");
    }
  tm_agent_gc_write_spaces ();
  collectors = a->w_beans ? g_strjoinv (", ", a->w_beans) : g_strdup ("");
  tm_trace_writer_meta (a->writer, "collectors", collectors);
  {
    g_autofree char *depth = g_strdup_printf ("%u", a->opts.stack_depth);
    g_autofree char *every = a->opts.graph_every_set || a->opts.graph_every == 0
                             ? g_strdup_printf ("%u", a->opts.graph_every) : g_strdup ("auto");
    tm_trace_writer_meta (a->writer, "stack_depth", depth);
    tm_trace_writer_meta (a->writer, "graph_every", every);
  }
  pthread_mutex_unlock (&a->writer_lock);

  /* Interval 0 reports every allocation, but only after a thread's next
   * sample: this thread (created before Agent_OnLoad set the interval)
   * still counts down from a draw of the default 512 KiB interval, so it
   * burns that with throwaway arrays until a sample comes.  The forced GC
   * then retires the TLABs handed out before sampling was on (else their
   * rest goes unreported; sampled mode, which has no exact counts to
   * keep, spares itself both).  The queue lock keeps allocating threads
   * waiting while the heap walk gives the objects already there ids. */
  pthread_mutex_lock (&a->queue_lock);
  g_atomic_int_set (&a->init_check, a->opts.sample_bytes == 0);
  (*jvmti)->SetHeapSamplingInterval (jvmti, (jint) a->opts.sample_bytes);
  set_event (jvmti, JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC);
  if (a->opts.sample_bytes == 0)
    {
      for (guint i = 0; i < 4096 && !t->sampled; i++)
        {
          jbyteArray burn = (*jni)->NewByteArray (jni, 256 * 1024);
          if (burn == NULL)
            {
              (*jni)->ExceptionClear (jni);
              break;
            }
          (*jni)->DeleteLocalRef (jni, burn);
        }
      (*jvmti)->ForceGarbageCollection (jvmti);
      /* the types of the objects there are defined before any of them */
      a->q_first = TRUE;
      pthread_mutex_lock (&t->buf_lock);
      tag_preexisting_locked (jvmti, jni, t);
      pthread_mutex_unlock (&t->buf_lock);
      a->q_first = FALSE;
    }
  pthread_mutex_unlock (&a->queue_lock);

  tm_agent_perfdata_open (jni);
  a->w_whole_heap_seen = tm_agent_perfdata_whole_heap_gcs ();
  set_event (jvmti, JVMTI_ENABLE, JVMTI_EVENT_OBJECT_FREE);
  set_event (jvmti, JVMTI_ENABLE, JVMTI_EVENT_RESOURCE_EXHAUSTED);
  set_event (jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_END);
  set_event (jvmti, JVMTI_ENABLE, JVMTI_EVENT_GARBAGE_COLLECTION_START);
  set_event (jvmti, JVMTI_ENABLE, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH);
  tm_agent_gc_reset_counts (jni);
  tm_agent_tx_start (jvmti, jni);
  tm_agent_containers_start (jvmti, jni);
  a->opts.graph_every_final = a->w_gc_family != NULL && strcmp (a->w_gc_family, "ZGC") != 0
                              && strcmp (a->w_gc_family, "Shenandoah") != 0;

  if (!start_agent_thread (jvmti, jni))
    agent_log ("cannot start the agent thread; the trace is written at exit only");
  t->agent_depth--;
}

static void
wait_for (volatile gint *value, gint want, gint64 max_ms)
{
  for (gint64 i = 0; i < max_ms && g_atomic_int_get (value) != want; i++)
    g_usleep (1000);
}

static void
pump_until_written (JNIEnv *jni, guint n, gint64 max_ms)
{
  TmAgent *a = &tm_agent;

  for (gint64 waited = 0;; waited += 20)
    {
      tm_agent_pump (jni, TRUE);
      if (a->w_gcs_written >= n && a->w_head == NULL)
        break;
      if (waited >= max_ms)
        break;
      g_usleep (20000);
    }
}

/* Other threads keep running while the trace ends: stop recording and
 * let the callbacks in flight finish. */
static void
stop_recording (jvmtiEnv *jvmti, gint64 max_ms)
{
  TmAgent *a = &tm_agent;

  g_atomic_int_set (&a->stopping, 1);
  /* At exit without VMDeath the events stay on (the callbacks see
   * `stopping`): disabling OBJECT_FREE flushes the pending frees, which
   * waits for a safepoint that a heap thrashing at OutOfMemoryError may
   * never finish. */
  if (!g_atomic_int_get (&a->exit_finish))
    {
      set_event (jvmti, JVMTI_DISABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC);
      set_event (jvmti, JVMTI_DISABLE, JVMTI_EVENT_OBJECT_FREE);
    }
  wait_for (&a->in_flight, 0, max_ms);
}

/* Writes what is pending, the final graph (final_gc), the run's META and
 * END, and closes the file.  Once per run: at VMDeath, or on the agent
 * thread when the process exits without VMDeath. */
static void
write_trace_end (jvmtiEnv *jvmti, JNIEnv *jni, gboolean final_gc)
{
  TmAgent *a = &tm_agent;
  g_autoptr(GError) error = NULL;
  guint n;

  if (a->writer == NULL)
    return;   /* the exiting thread ended it (on_process_exit) */
  tm_agent_flags_write (jni);   /* if the agent thread never ran */
  /* without JNI, GCs whose notification is not in stay unwritten */
  pump_until_written (jni, (guint) g_atomic_int_get (&a->gc_finished), jni != NULL ? 2000 : 100);

  /* The final graph, after one more GC; frees of that GC (and any never
   * delivered) are derived from it.  Not with concurrent collectors (ZGC,
   * Shenandoah): their threads are stopped before VMDeath, and a forced
   * GC would wait for them forever. */
  if (final_gc && a->opts.sample_bytes == 0 && a->opts.graph_every_final
      && g_atomic_int_get (&a->gc_started) == g_atomic_int_get (&a->gc_finished))
    {
      (*jvmti)->ForceGarbageCollection (jvmti);
      n = (guint) g_atomic_int_get (&a->gc_finished);
      if (n > a->w_gcs_written)
        {
          a->gcs[n % TM_AGENT_GC_RING].want_graph = TRUE;
          a->gcs[n % TM_AGENT_GC_RING].final = TRUE;
          g_atomic_int_set (&a->graph_gate, (gint) n);
        }
      pump_until_written (jni, n, 3000);
    }
  if (jni != NULL)
    {
      set_event (jvmti, JVMTI_DISABLE, JVMTI_EVENT_GARBAGE_COLLECTION_START);
      set_event (jvmti, JVMTI_DISABLE, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH);
    }
  tm_agent_write_deaths_upto (a->w_gcs_written, TRUE);

  {
    g_autofree char *dropped = g_strdup_printf ("%" G_GUINT64_FORMAT, a->dropped);
    g_autofree char *late = g_strdup_printf ("%" G_GUINT64_FORMAT, a->w_late_deaths);
    g_autofree char *skipped = g_strdup_printf ("%u", a->w_graphs_skipped);
    tm_trace_writer_meta (a->writer, "dropped_events", dropped);
    tm_trace_writer_meta (a->writer, "late_deaths", late);
    tm_trace_writer_meta (a->writer, "graphs_skipped", skipped);
    {
      g_autofree char *idle = g_strdup_printf ("%d", g_atomic_int_get (&a->idle_gcs));
      tm_trace_writer_meta (a->writer, "idle_gcs", idle);
    }
    /* the most threads whose state the agent held at once: ended ones are released */
    {
      g_autofree char *peak = g_strdup_printf ("%d", g_atomic_int_get (&a->threads_registered_peak));
      g_autofree char *after_end = g_strdup_printf ("%d", g_atomic_int_get (&a->thread_states_after_end));
      tm_trace_writer_meta (a->writer, "thread_states_peak", peak);
      tm_trace_writer_meta (a->writer, "thread_states_after_end", after_end);
    }
    tm_agent_containers_write_meta (a->writer);
    /* how GC pauses were matched with the MXBeans' collections */
    if (a->w_gc_matching != NULL)
      tm_trace_writer_meta (a->writer, "gc_matching", a->w_gc_matching);
    /* what the graphs cost the program (it waits while the heap is walked) */
    {
      g_autofree char *walk_max = g_strdup_printf ("%" G_GINT64_FORMAT, a->w_walk_max_ns / 1000000);
      g_autofree char *walk_total = g_strdup_printf ("%" G_GINT64_FORMAT, a->w_walk_total_ns / 1000000);
      g_autofree char *walk_cpu = g_strdup_printf ("%" G_GINT64_FORMAT, a->w_walk_cpu_total_ns / 1000000);
      g_autofree char *cpu = g_strdup_printf ("%" G_GINT64_FORMAT, (tm_agent_cpu_ns () - a->start_cpu_ns) / 1000000);
      tm_trace_writer_meta (a->writer, "graph_walk_max_ms", walk_max);
      tm_trace_writer_meta (a->writer, "graph_walk_total_ms", walk_total);
      tm_trace_writer_meta (a->writer, "graph_walk_cpu_ms", walk_cpu);
      tm_trace_writer_meta (a->writer, "process_cpu_ms", cpu);
    }
  }
  tm_trace_writer_end (a->writer, a->w_allocs, a->w_deaths, a->w_gcs_written, (guint64) tm_agent_now_ns ());
  if (!tm_trace_writer_close (a->writer, &error))
    agent_log ("%s: %s", a->opts.output, error->message);
  else if (a->opts.status == NULL)
    agent_log ("trace written to %s (%" G_GUINT64_FORMAT " allocations, %u GCs)",
               a->opts.output, a->w_allocs, a->w_gcs_written);
  tm_agent_write_status ();
  tm_trace_writer_free (a->writer);
  a->writer = NULL;
}

static void
finish_trace (jvmtiEnv *jvmti, JNIEnv *jni, gboolean final_gc)
{
  TmAgent *a = &tm_agent;

  pthread_mutex_lock (&a->writer_lock);
  write_trace_end (jvmti, jni, final_gc);
  pthread_mutex_unlock (&a->writer_lock);
}

void
tm_agent_vm_call_begin (void)
{
  g_atomic_int_inc (&tm_agent.agent_in_vm);
}

void
tm_agent_vm_call_end (void)
{
  g_atomic_int_add (&tm_agent.agent_in_vm, -1);
  while (g_atomic_int_get (&tm_agent.exit_took_over))
    g_usleep (10000);
}

/* At an exit from inside the VM: once the agent thread is stuck in a JVM
 * call, ends the trace on this thread, with no call into the JVM.  The
 * stuck thread may hold writer_lock, but only around a JVM call, between
 * two records.  Both sides' atomics are full barriers: either this thread
 * sees the call still in progress, or the returning thread sees the take
 * over and waits. */
static gboolean
end_trace_for_stuck_agent (void)
{
  TmAgent *a = &tm_agent;
  gboolean locked;

  if (g_atomic_int_get (&a->agent_in_vm) == 0)
    return FALSE;
  g_atomic_int_set (&a->exit_took_over, 1);
  if (g_atomic_int_get (&a->agent_in_vm) == 0)
    {
      g_atomic_int_set (&a->exit_took_over, 0);
      return FALSE;
    }
  locked = pthread_mutex_trylock (&a->writer_lock) == 0;
  write_trace_end (NULL, NULL, FALSE);
  if (locked)
    pthread_mutex_unlock (&a->writer_lock);
  return TRUE;
}

static void JNICALL
on_vm_death (jvmtiEnv *jvmti, JNIEnv *jni)
{
  TmAgent *a = &tm_agent;
  TmAgentThread *t = tm_agent_thread_get (jvmti, TRUE);

  /* the process's exit got there first (see on_process_exit) */
  if (!g_atomic_int_compare_and_exchange (&a->finishing, 0, 1))
    return;
  stop_recording (jvmti, 5000);
  g_atomic_int_set (&a->agent_stop, 1);
  wait_for (&a->agent_done, 1, 30000);
  if (t != NULL)
    t->agent_depth++;
  finish_trace (jvmti, jni, TRUE);
}

/* The launcher can exit without VMDeath: when an OutOfMemoryError leaves
 * the heap full, DestroyJavaVM cannot attach its thread (that needs a
 * Thread object) and returns, and the launcher calls exit().  The trace
 * would lose its last second and its end; the agent thread, a Java thread
 * still running during exit(), writes them instead. */
static void
on_process_exit (void)
{
  TmAgent *a = &tm_agent;

  if (!g_atomic_int_get (&a->agent_running) || g_atomic_int_get (&a->agent_done))
    return;
  if (!g_atomic_int_compare_and_exchange (&a->finishing, 0, 1))
    return;
  g_atomic_int_set (&a->exiting, 1);    /* no heap walks: the heap may be full */
  g_atomic_int_set (&a->exit_no_java, g_atomic_int_get (&a->exit_on_oom));
  g_atomic_int_set (&a->exit_finish, 1);
  if (!g_atomic_int_get (&a->exit_no_java))
    {
      wait_for (&a->agent_done, 1, 15000);
      return;
    }
  /* The agent thread ends the trace at once, unless a JVM call it was in
   * when the exit came never returns. */
  for (gint ms = 0; ms < 2000 && !g_atomic_int_get (&a->agent_done); ms++)
    {
      if (ms >= 100 && end_trace_for_stuck_agent ())
        return;
      g_usleep (1000);
    }
}

/* ---- loading ---- */

/* Launchers like jshell or mvn start more JVMs with the same
 * JAVA_TOOL_OPTIONS: the first takes the file, the others write
 * NAME.PID.tmtrace next to it (and leave the status to the first). */
static int
open_exclusive (TmAgentOptions *opts)
{
  int fd = open (opts->output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  g_autofree char *base = NULL;
  char *other;

  if (fd >= 0 || errno != EEXIST)
    return fd;
  base = g_str_has_suffix (opts->output, ".tmtrace")
         ? g_strndup (opts->output, strlen (opts->output) - strlen (".tmtrace")) : g_strdup (opts->output);
  other = g_strdup_printf ("%s.%d.tmtrace", base, (int) getpid ());
  fd = open (other, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  g_free (opts->output);
  opts->output = other;
  g_clear_pointer (&opts->status, g_free);
  return fd;
}

JNIEXPORT jint JNICALL
Agent_OnLoad (JavaVM *vm, char *options, void *reserved)
{
  TmAgent *a = &tm_agent;
  jvmtiEnv *jvmti = NULL;
  jvmtiCapabilities caps;
  jvmtiEventCallbacks cb;
  g_autofree char *error = NULL;
  g_autoptr(GError) gerror = NULL;
  struct timespec ts;

  memset (a, 0, sizeof *a);
  clock_gettime (CLOCK_MONOTONIC, &ts);
  a->start_mono_ns = (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
  a->start_cpu_ns = tm_agent_cpu_ns ();
  a->vm = vm;

  if (!tm_agent_options_parse (options, &a->opts, &error))
    {
      agent_log ("%s", error);
      return JNI_ERR;
    }
  if ((*vm)->GetEnv (vm, (void **) &jvmti, JVMTI_VERSION_11) != JNI_OK || jvmti == NULL)
    {
      agent_log ("this JVM has no JVMTI 11 (Java 11 or newer is needed)");
      return JNI_ERR;
    }
  a->jvmti = jvmti;

  memset (&caps, 0, sizeof caps);
  caps.can_tag_objects = 1;
  caps.can_generate_sampled_object_alloc_events = 1;
  caps.can_generate_object_free_events = 1;
  caps.can_generate_garbage_collection_events = 1;
  caps.can_get_source_file_name = 1;
  caps.can_get_line_numbers = 1;
  caps.can_generate_resource_exhaustion_heap_events = 1;
  caps.can_generate_resource_exhaustion_threads_events = 1;
  tm_agent_tx_add_capabilities (&caps);
  tm_agent_containers_add_capabilities (&caps);
  if ((*jvmti)->AddCapabilities (jvmti, &caps) != JVMTI_ERROR_NONE)
    {
      agent_log ("the JVM refused the capabilities the agent needs (tagging, sampled allocations, GC events)");
      return JNI_ERR;
    }

  if (a->opts.exclusive)
    {
      int fd = open_exclusive (&a->opts);
      if (fd < 0)
        {
          agent_log ("cannot write %s: %s", a->opts.output, g_strerror (errno));
          return JNI_ERR;
        }
      a->writer = tm_trace_writer_new_for_fd (fd, TRUE, TRUE);
    }
  else
    a->writer = tm_trace_writer_new_for_path (a->opts.output, TRUE, &gerror);
  if (a->writer == NULL)
    {
      agent_log ("cannot write %s: %s", a->opts.output, gerror ? gerror->message : "");
      return JNI_ERR;
    }
  tm_trace_writer_set_level (a->writer, a->opts.zstd_level);
  /* Threads created from now on draw their first sample point from this
   * interval (it only matters once the event is enabled at VMInit). */
  (*jvmti)->SetHeapSamplingInterval (jvmti, (jint) a->opts.sample_bytes);

  pthread_mutex_init (&a->queue_lock, NULL);
  pthread_mutex_init (&a->death_lock, NULL);
  pthread_mutex_init (&a->note_lock, NULL);
  pthread_mutex_init (&a->writer_lock, NULL);
  pthread_mutex_init (&a->gate_lock, NULL);
  pthread_cond_init (&a->gate_cond, NULL);
  a->deaths = g_array_new (FALSE, FALSE, sizeof (TmAgentDeath));
  tm_agent_defs_init ();

  memset (&cb, 0, sizeof cb);
  cb.VMInit = on_vm_init;
  cb.VMDeath = on_vm_death;
  cb.SampledObjectAlloc = on_sampled_alloc;
  cb.ObjectFree = on_object_free;
  cb.GarbageCollectionStart = tm_agent_on_gc_start;
  cb.GarbageCollectionFinish = tm_agent_on_gc_finish;
  cb.ResourceExhausted = on_resource_exhausted;
  cb.ThreadEnd = on_thread_end;
  tm_agent_tx_set_callbacks (&cb);
  tm_agent_containers_set_callbacks (&cb);
  (*jvmti)->SetEventCallbacks (jvmti, &cb, sizeof cb);
  set_event (jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT);
  set_event (jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH);
  atexit (on_process_exit);
  return JNI_OK;
}
