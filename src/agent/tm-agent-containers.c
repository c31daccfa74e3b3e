/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Container operations (`record --containers`, option containers=1): the
 * add, get and remove operations of the java.util collections, written as
 * CONTAINER_OP records (trace-format.md) for exact staleness in the
 * container leak confidence (docs/containers.md).
 *
 * Two small Java classes embedded at build time go into the boot class
 * loader: TidemarkContainers rewrites HashMap, TreeMap, ConcurrentHashMap,
 * LinkedHashMap, ArrayList, LinkedList, ArrayDeque, Vector (and Stack),
 * Hashtable (and its iterators) and PriorityQueue with the JDK's internal
 * ASM (in
 * the ClassFileLoadHook of a RetransformClasses at VMInit), inserting
 * calls to TidemarkOps, whose native `op` is here.  The rewritten
 * methods stay compiled and inlined as usual; the cost per operation is
 * the JNI call, two tag lookups, for adds a short stack walk for the
 * caller, and the queue append.
 *
 * Containers and elements are named by the ids the allocation recording
 * gave them (their tags); operations on objects without one (the agent's
 * own, or untagged ones) are counted in META and not written.  The call
 * site skips the frames of java.util (and of TidemarkOps): it is the
 * first frame outside, the code that used the collection.
 */
#include "tm-agent.h"
#include "tm-agent-embedded.h"

#include <stdio.h>
#include <string.h>

/* frames walked to find the caller outside java.util: first a few (the
 * hook, the collection method and what it delegates to), all of them only
 * when those are all inside */
#define COP_FEW_SKIP 6
#define COP_MAX_SKIP 24
/* verdicts of internal_method cached without a lock: a method id (aligned,
 * its two low bits free) with its verdict in those bits */
#define COP_VERDICTS 4096

static const char *const targets[] = {
  "java/util/HashMap", "java/util/TreeMap", "java/util/concurrent/ConcurrentHashMap",
  "java/util/ArrayList", "java/util/LinkedList", "java/util/ArrayDeque",
  "java/util/Vector", "java/util/Hashtable", "java/util/PriorityQueue",
  "java/util/LinkedHashMap", "java/util/Hashtable$Enumerator", "java/util/ArrayList$SubList",
};

static jclass    transformer;    /* global ref */
static jmethodID transform_mid;
static volatile gint active;
static volatile gint transforming;
static gint64    ops_written, ops_unknown;   /* atomics */
static guint     classes_rewritten;

static pthread_mutex_t method_lock = PTHREAD_MUTEX_INITIALIZER;
static GHashTable *internal_methods;   /* jmethodID -> 1 internal, 2 not */
static guintptr verdicts[COP_VERDICTS];

void
tm_agent_containers_add_capabilities (jvmtiCapabilities *caps)
{
  if (!tm_agent.opts.containers)
    return;
  caps->can_retransform_classes = 1;
}

static gboolean
is_target (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    if (strcmp (name, targets[i]) == 0)
      return TRUE;
  return FALSE;
}

static void JNICALL
on_class_file_load (jvmtiEnv *jvmti, JNIEnv *jni, jclass being_redefined, jobject loader, const char *name,
                    jobject protection_domain, jint len, const unsigned char *data,
                    jint *new_len, unsigned char **new_data)
{
  TmAgentThread *t;
  jbyteArray in, out;
  jstring jname;

  if (!g_atomic_int_get (&transforming) || loader != NULL || name == NULL || !is_target (name))
    return;
  if ((t = tm_agent_thread_get (jvmti, TRUE)) == NULL)
    return;
  t->agent_depth++;
  in = (*jni)->NewByteArray (jni, len);
  jname = (*jni)->NewStringUTF (jni, name);
  if (in != NULL && jname != NULL)
    {
      (*jni)->SetByteArrayRegion (jni, in, 0, len, (const jbyte *) data);
      out = (*jni)->CallStaticObjectMethod (jni, transformer, transform_mid, jname, in);
      if (!(*jni)->ExceptionCheck (jni) && out != NULL)
        {
          jint n = (*jni)->GetArrayLength (jni, out);
          unsigned char *buf = NULL;

          if ((*jvmti)->Allocate (jvmti, n, &buf) == JVMTI_ERROR_NONE)
            {
              (*jni)->GetByteArrayRegion (jni, out, 0, n, (jbyte *) buf);
              *new_len = n;
              *new_data = buf;
              classes_rewritten++;
            }
        }
    }
  (*jni)->ExceptionClear (jni);
  t->agent_depth--;
}

void
tm_agent_containers_set_callbacks (jvmtiEventCallbacks *cb)
{
  if (!tm_agent.opts.containers)
    return;
  cb->ClassFileLoadHook = on_class_file_load;
}

/* Whether a frame's method belongs to java.util (or is the hook): cached
 * per method. */
static gboolean
internal_method (jvmtiEnv *jvmti, JNIEnv *jni, jmethodID m)
{
  guint slot = (guint) (((guintptr) m >> 3) % COP_VERDICTS);
  guintptr cached = __atomic_load_n (&verdicts[slot], __ATOMIC_RELAXED);
  gpointer v;
  jclass klass = NULL;
  char *sig = NULL;
  gboolean internal = FALSE;

  if ((cached & ~(guintptr) 3) == (guintptr) m && cached != 0)
    return (cached & 3) == 1;
  pthread_mutex_lock (&method_lock);
  v = g_hash_table_lookup (internal_methods, m);
  pthread_mutex_unlock (&method_lock);
  if (v != NULL)
    {
      if (((guintptr) m & 3) == 0)
        __atomic_store_n (&verdicts[slot], (guintptr) m | GPOINTER_TO_UINT (v), __ATOMIC_RELAXED);
      return GPOINTER_TO_UINT (v) == 1;
    }
  if ((*jvmti)->GetMethodDeclaringClass (jvmti, m, &klass) == JVMTI_ERROR_NONE
      && (*jvmti)->GetClassSignature (jvmti, klass, &sig, NULL) == JVMTI_ERROR_NONE && sig != NULL)
    internal = g_str_has_prefix (sig, "Ljava/util/") || strcmp (sig, "LTidemarkOps;") == 0
               || g_str_has_prefix (sig, "LTidemarkOps$");   /* its removeIf predicate */
  if (sig != NULL)
    (*jvmti)->Deallocate (jvmti, (unsigned char *) sig);
  if (klass != NULL)
    (*jni)->DeleteLocalRef (jni, klass);
  pthread_mutex_lock (&method_lock);
  g_hash_table_insert (internal_methods, m, GUINT_TO_POINTER (internal ? 1 : 2));
  pthread_mutex_unlock (&method_lock);
  if (((guintptr) m & 3) == 0)
    __atomic_store_n (&verdicts[slot], (guintptr) m | (internal ? 1 : 2), __ATOMIC_RELAXED);
  return internal;
}

static gboolean
recorded_tag (jvmtiEnv *jvmti, jobject obj, jlong *tag)
{
  *tag = 0;
  return (*jvmti)->GetTag (jvmti, obj, tag) == JVMTI_ERROR_NONE && *tag > 0 && (*tag & TM_AGENT_TEMP_TAG) == 0;
}

/* TidemarkOps.op(int kind, Object container, Object element) */
static void JNICALL
op_native (JNIEnv *jni, jclass cls, jint kind, jobject container, jobject element)
{
  TmAgent *a = &tm_agent;
  jvmtiEnv *jvmti = a->jvmti;
  jvmtiFrameInfo frames[COP_MAX_SKIP + TM_AGENT_MAX_DEPTH];
  jint n = 0, skip = 0, depth;
  jlong ctag, etag = 0;
  TmAgentThread *t;
  guint gcs;

  g_atomic_int_inc (&a->in_flight);
  if (!g_atomic_int_get (&active) || g_atomic_int_get (&a->stopping))
    goto out;
  gcs = (guint) g_atomic_int_get (&a->gc_started);
  t = tm_agent_thread_get (jvmti, TRUE);
  if (t == NULL || t->agent_depth > 0)
    goto out;
  if (!recorded_tag (jvmti, container, &ctag) || (element != NULL && !recorded_tag (jvmti, element, &etag)))
    {
      __atomic_add_fetch (&ops_unknown, 1, __ATOMIC_RELAXED);
      goto out;
    }
  if (G_UNLIKELY (g_atomic_int_get (&a->graph_gate) != 0))
    tm_agent_graph_gate_wait ();
  /* the caller matters for the elements' stints, which start at an add
   * (the sites by staleness); a get or remove only needs its time, and
   * the stack walk is most of an operation's cost */
  if (a->opts.stack_depth > 0 && (kind == TM_CONTAINER_OP_ADD || kind == TM_CONTAINER_OP_ADD_OR_GET))
    {
      jint want = COP_FEW_SKIP + (jint) a->opts.stack_depth;

      (*jvmti)->GetStackTrace (jvmti, NULL, 0, want, frames, &n);
      while (skip < n && internal_method (jvmti, jni, frames[skip].method))
        skip++;
      if (n == want && skip + (jint) a->opts.stack_depth > n)
        {
          /* deeper inside java.util than usual: walk the longer way */
          (*jvmti)->GetStackTrace (jvmti, NULL, 0, COP_MAX_SKIP + (jint) a->opts.stack_depth, frames, &n);
          while (skip < n && internal_method (jvmti, jni, frames[skip].method))
            skip++;
        }
      if (skip == n)
        skip = MIN (n, 2);   /* all inside java.util: the frames above the hook */
    }
  depth = MIN ((jint) a->opts.stack_depth, n - skip);

  pthread_mutex_lock (&a->queue_lock);
  if (G_UNLIKELY (a->q_events >= TM_AGENT_QUEUE_CAP))
    a->dropped++;
  else
    {
      TmAgentEvent *ev;
      guint32 site, tid;

      tm_agent_queue_sync_gcs_locked (gcs);
      site = tm_agent_site_locked (jvmti, frames + skip, depth);
      if (!t->defined)
        {
          jthread self = NULL;
          (*jvmti)->GetCurrentThread (jvmti, &self);
          tm_agent_thread_define_locked (jvmti, t, self);
        }
      tid = t->id;
      ev = tm_agent_queue_push_locked ();
      ev->kind = TM_EV_COP;
      ev->x = (guint32) kind;
      ev->id = (guint64) ctag;
      ev->size = (guint64) etag;
      ev->site = site;
      ev->thread = tid;
      ev->u.length = (guint64) MAX (tm_agent_now_ns (), 0);
      ops_written++;
    }
  pthread_mutex_unlock (&a->queue_lock);
out:
  g_atomic_int_dec_and_test (&a->in_flight);
}

static void
log_line (const char *message)
{
  fprintf (stderr, "tidemark-agent: container operations are not recorded: %s\n", message);
}

static jclass
define (JNIEnv *jni, const TmAgentEmbeddedClass *c)
{
  jclass k = (*jni)->DefineClass (jni, c->name, NULL, (const jbyte *) c->data, (jsize) c->len);

  if (k == NULL)
    (*jni)->ExceptionClear (jni);
  return k;
}

void
tm_agent_containers_start (jvmtiEnv *jvmti, JNIEnv *jni)
{
  const TmAgentEmbeddedClass *cls = tm_agent_container_classes;
  JNINativeMethod native = { (char *) "op", (char *) "(ILjava/lang/Object;Ljava/lang/Object;)V", (void *) op_native };
  jclass ops, loaded[G_N_ELEMENTS (targets)];
  jobject unnamed, base = NULL;
  jint n_loaded = 0;
  jvmtiError err;

  if (!tm_agent.opts.containers)
    return;
  if (cls[0].name == NULL)
    {
      log_line ("this agent was built with a JDK without the internal ASM it needs (JDK 17 to 23)");
      return;
    }
  internal_methods = g_hash_table_new (NULL, NULL);
  ops = define (jni, &cls[0]);
  if (ops == NULL || (*jni)->RegisterNatives (jni, ops, &native, 1) != 0)
    {
      (*jni)->ExceptionClear (jni);
      log_line ("cannot define the hook class");
      return;
    }
  /* java.base must read the boot loader's unnamed module (the hooks) and
   * export its ASM to it (the transformer) */
  unnamed = (*jni)->GetModule (jni, ops);
  if (unnamed == NULL || (*jvmti)->GetNamedModule (jvmti, NULL, "java/lang", &base) != JVMTI_ERROR_NONE
      || base == NULL || (*jvmti)->AddModuleReads (jvmti, base, unnamed) != JVMTI_ERROR_NONE)
    {
      log_line ("java.base cannot be made to read the hook class");
      return;
    }
  if ((*jvmti)->AddModuleExports (jvmti, base, "jdk.internal.org.objectweb.asm", unnamed) != JVMTI_ERROR_NONE)
    {
      log_line ("this JVM has no internal ASM to rewrite the collections with");
      return;
    }
  for (guint i = 1; cls[i].name != NULL; i++)
    {
      jclass k = define (jni, &cls[i]);
      if (k != NULL && strcmp (cls[i].name, "TidemarkContainers") == 0)
        transformer = (*jni)->NewGlobalRef (jni, k);
    }
  transform_mid = transformer ? (*jni)->GetStaticMethodID (jni, transformer, "transform", "(Ljava/lang/String;[B)[B") : NULL;
  if (transform_mid == NULL)
    {
      (*jni)->ExceptionClear (jni);
      log_line ("cannot define the transformer class");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      jclass k = (*jni)->FindClass (jni, targets[i]);
      if (k != NULL)
        loaded[n_loaded++] = k;
      (*jni)->ExceptionClear (jni);
    }
  g_atomic_int_set (&active, 1);
  g_atomic_int_set (&transforming, 1);
  (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
  err = (*jvmti)->RetransformClasses (jvmti, n_loaded, loaded);
  (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
  g_atomic_int_set (&transforming, 0);
  if (err != JVMTI_ERROR_NONE)
    {
      char buf[96];
      g_atomic_int_set (&active, 0);
      g_snprintf (buf, sizeof buf, "the JVM refused to retransform the collection classes (JVMTI error %d)", (int) err);
      log_line (buf);
    }
}

void
tm_agent_containers_write_meta (TmTraceWriter *w)
{
  char buf[32];

  if (!g_atomic_int_get (&active))
    return;
  tm_trace_writer_meta (w, "container_ops", "1");
  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, (gint64) ops_written);
  tm_trace_writer_meta (w, "container_ops_recorded", buf);
  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, (gint64) __atomic_load_n (&ops_unknown, __ATOMIC_RELAXED));
  tm_trace_writer_meta (w, "container_ops_untagged", buf);
  g_snprintf (buf, sizeof buf, "%u", classes_rewritten);
  tm_trace_writer_meta (w, "container_classes_rewritten", buf);
}
