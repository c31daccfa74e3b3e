/* SPDX-License-Identifier: GPL-3.0-or-later
 * Definitions the allocation records refer to: threads, types, frames and
 * sites, interned under queue_lock and queued before their first use
 * (before the id of the ALLOC that uses them is given out). */
#include "tm-agent.h"

#include <string.h>

typedef struct {
  guint32 id;
  guint32 flags;
} TmAgentType;

typedef struct {
  char                 *name;
  char                 *file;
  jint                  n_lines;
  jvmtiLineNumberEntry *lines;
} TmAgentMethod;

typedef struct {
  jmethodID method;
  jlocation location;
} TmAgentFrameKey;

/* A site is keyed by its raw frames, so a hit costs one lookup. */
typedef struct {
  guint32         depth;
  guint32         hash;
  TmAgentFrameKey f[];
} TmAgentSiteKey;

static guint
frame_key_hash (gconstpointer p)
{
  const TmAgentFrameKey *k = p;
  guint64 h = (guint64) (gsize) k->method * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ (guint64) k->location;
  return (guint) (h ^ (h >> 29));
}

static gboolean
frame_key_equal (gconstpointer a, gconstpointer b)
{
  const TmAgentFrameKey *x = a, *y = b;
  return x->method == y->method && x->location == y->location;
}

static guint32
frames_hash (const jvmtiFrameInfo *frames, guint32 depth)
{
  guint64 h = G_GUINT64_CONSTANT (1469598103934665603) ^ depth;
  for (guint32 i = 0; i < depth; i++)
    {
      h = (h ^ (guint64) (gsize) frames[i].method) * G_GUINT64_CONSTANT (1099511628211);
      h = (h ^ (guint64) frames[i].location) * G_GUINT64_CONSTANT (1099511628211);
    }
  return (guint32) (h ^ (h >> 32));
}

static guint
site_key_hash (gconstpointer p)
{
  return ((const TmAgentSiteKey *) p)->hash;
}

static gboolean
site_key_equal (gconstpointer a, gconstpointer b)
{
  const TmAgentSiteKey *x = a, *y = b;
  return x->depth == y->depth && memcmp (x->f, y->f, x->depth * sizeof x->f[0]) == 0;
}

static void
method_free (gpointer p)
{
  TmAgentMethod *m = p;
  g_free (m->name);
  g_free (m->file);
  g_free (m->lines);
  g_free (m);
}

void
tm_agent_defs_init (void)
{
  TmAgent *a = &tm_agent;

  a->types = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  a->methods = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, method_free);
  a->frames = g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free, NULL);
  a->sites = g_hash_table_new_full (site_key_hash, site_key_equal, g_free, NULL);
  a->thread_tags = g_hash_table_new (g_direct_hash, g_direct_equal);
}

static void
jvmti_free (jvmtiEnv *jvmti, void *p)
{
  if (p != NULL)
    (*jvmti)->Deallocate (jvmti, (unsigned char *) p);
}

/* Tag of an object, tagging it (temporarily) if it has none. */
static jlong
object_tag (jvmtiEnv *jvmti, jobject object)
{
  jlong tag = 0;

  if ((*jvmti)->GetTag (jvmti, object, &tag) != JVMTI_ERROR_NONE)
    return 0;
  if (tag == 0)
    {
      tag = tm_agent_temp_tag ();
      (*jvmti)->SetTag (jvmti, object, tag);
    }
  return tag;
}

/* What a thread's local storage points to after its ThreadEnd.  A later
 * callback on it gets a fresh state that no ThreadEnd will release: the
 * DestroyJavaVM thread's VMDeath, once per run; any other is counted
 * (META thread_states_after_end) so that a test can tell. */
static char thread_ended_mark;

TmAgentThread *
tm_agent_thread_get (jvmtiEnv *jvmti, gboolean create)
{
  TmAgentThread *t = NULL;

  if ((*jvmti)->GetThreadLocalStorage (jvmti, NULL, (void **) &t) != JVMTI_ERROR_NONE)
    return NULL;
  if ((void *) t == (void *) &thread_ended_mark)
    {
      if (!create)
        return NULL;
      g_atomic_int_inc (&tm_agent.thread_states_after_end);
      t = NULL;
    }
  if (t == NULL && create)
    {
      TmAgentThread *head;
      t = g_new0 (TmAgentThread, 1);
      pthread_mutex_init (&t->buf_lock, NULL);
      (*jvmti)->SetThreadLocalStorage (jvmti, NULL, t);
      /* removed by the writer once the thread ended and its buffer is taken */
      head = __atomic_load_n (&tm_agent.threads, __ATOMIC_RELAXED);
      do
        t->registered_next = head;
      while (!__atomic_compare_exchange_n (&tm_agent.threads, &head, t, TRUE, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
      {
        gint n = g_atomic_int_add (&tm_agent.n_threads_registered, 1) + 1;
        gint peak = g_atomic_int_get (&tm_agent.threads_registered_peak);
        while (n > peak && !g_atomic_int_compare_and_exchange (&tm_agent.threads_registered_peak, peak, n))
          peak = g_atomic_int_get (&tm_agent.threads_registered_peak);
      }
    }
  return t;
}

/* The thread will not be seen again (a later event on it, if the JVM
 * posts one, starts afresh): its class cache goes now, the rest when the
 * writer has taken its last records. */
void
tm_agent_thread_end (jvmtiEnv *jvmti, JNIEnv *jni)
{
  TmAgentThread *t = tm_agent_thread_get (jvmti, FALSE);

  if (t == NULL)
    return;
  (*jvmti)->SetThreadLocalStorage (jvmti, NULL, &thread_ended_mark);
  for (guint k = 0; k < G_N_ELEMENTS (t->cache); k++)
    if (t->cache[k].klass != NULL)
      {
        (*jni)->DeleteWeakGlobalRef (jni, t->cache[k].klass);
        t->cache[k].klass = NULL;
      }
  g_atomic_int_set (&t->ended, 1);
}

guint32
tm_agent_thread_define_locked (jvmtiEnv *jvmti, TmAgentThread *t, jthread thread)
{
  TmAgent *a = &tm_agent;
  jvmtiThreadInfo info;
  TmAgentEvent *ev;
  jlong tag = 0;

  if (t->defined)
    return t->id;
  memset (&info, 0, sizeof info);
  t->id = ++a->n_threads;
  t->defined = TRUE;
  ev = tm_agent_queue_push_locked ();
  ev->kind = TM_EV_THREAD;
  ev->id = t->id;
  if (thread != NULL && (*jvmti)->GetThreadInfo (jvmti, thread, &info) == JVMTI_ERROR_NONE && info.name != NULL)
    ev->u.str = g_strdup (info.name);
  else
    ev->u.str = g_strdup_printf ("thread-%u", t->id);
  jvmti_free (jvmti, info.name);

  /* Remember the thread object's tag: heap walks name stack roots by it. */
  if (thread != NULL && (tag = object_tag (jvmti, thread)) != 0)
    g_hash_table_insert (a->thread_tags, GSIZE_TO_POINTER ((gsize) tag), GUINT_TO_POINTER (t->id));
  return t->id;
}

static JNIEnv *
current_jni (void)
{
  JNIEnv *jni = NULL;

  if ((*tm_agent.vm)->GetEnv (tm_agent.vm, (void **) &jni, JNI_VERSION_1_8) != JNI_OK)
    return NULL;
  return jni;
}

/* Defines the type of klass after its superclass and interfaces (each
 * defined once per class, so this costs nothing per allocation). */
static guint32
type_define_locked (jvmtiEnv *jvmti, jclass klass, jlong klass_tag, guint32 *flags)
{
  TmAgent *a = &tm_agent;
  TmAgentType *type = g_new0 (TmAgentType, 1);
  TmAgentTypeDef *def;
  TmAgentEvent *ev;
  JNIEnv *jni = current_jni ();
  jclass super = NULL;
  jclass *ifaces = NULL;
  jint n_ifaces = 0;
  char *sig = NULL;
  guint32 super_id = 0, unused;

  /* Entered before recursing: a hierarchy never loops, but a damaged
   * answer must not make us recurse forever. */
  g_hash_table_insert (a->types, GSIZE_TO_POINTER ((gsize) klass_tag), type);
  (*jvmti)->GetClassSignature (jvmti, klass, &sig, NULL);
  if (sig != NULL && sig[0] != '[')
    {
      if (jni != NULL && (super = (*jni)->GetSuperclass (jni, klass)) != NULL)
        {
          super_id = tm_agent_type_locked (jvmti, super, 0, &unused);
          (*jni)->DeleteLocalRef (jni, super);
        }
      if ((*jvmti)->GetImplementedInterfaces (jvmti, klass, &n_ifaces, &ifaces) != JVMTI_ERROR_NONE)
        n_ifaces = 0;
    }
  def = g_malloc (sizeof *def + sizeof (guint64) * (gsize) MAX (n_ifaces, 0));
  def->super = super_id;
  def->n_interfaces = 0;
  for (jint i = 0; i < n_ifaces; i++)
    {
      guint32 id = tm_agent_type_locked (jvmti, ifaces[i], 0, &unused);
      if (id != 0)
        def->interfaces[def->n_interfaces++] = id;
      if (jni != NULL)
        (*jni)->DeleteLocalRef (jni, ifaces[i]);
    }
  jvmti_free (jvmti, ifaces);

  type->id = ++a->n_types;
  def->name = tm_agent_type_name_from_signature (sig ? sig : "?", &type->flags);
  jvmti_free (jvmti, sig);
  ev = tm_agent_queue_push_locked ();
  ev->kind = TM_EV_TYPE;
  ev->id = type->id;
  ev->u.type = def;
  ev->x = type->flags;
  *flags = type->flags;
  return type->id;
}

guint32
tm_agent_type_for_tag_locked (jlong klass_tag, guint32 *flags)
{
  TmAgentType *type = g_hash_table_lookup (tm_agent.types, GSIZE_TO_POINTER ((gsize) klass_tag));

  *flags = 0;
  if (type == NULL)
    return 0;
  *flags = type->flags;
  return type->id;
}

/* klass_tag: the class mirror's tag if known (0: look it up, tag it). */
guint32
tm_agent_type_locked (jvmtiEnv *jvmti, jclass klass, jlong klass_tag, guint32 *flags)
{
  guint32 id;

  if (klass_tag == 0 && (klass_tag = object_tag (jvmti, klass)) == 0)
    return 0;
  id = tm_agent_type_for_tag_locked (klass_tag, flags);
  if (id != 0 || g_hash_table_contains (tm_agent.types, GSIZE_TO_POINTER ((gsize) klass_tag)))
    return id;
  return type_define_locked (jvmti, klass, klass_tag, flags);
}

static TmAgentMethod *
method_get_locked (jvmtiEnv *jvmti, jmethodID method)
{
  TmAgent *a = &tm_agent;
  TmAgentMethod *m = g_hash_table_lookup (a->methods, method);
  char *name = NULL, *msig = NULL, *csig = NULL, *file = NULL;
  jclass klass = NULL;

  if (m != NULL)
    return m;
  m = g_new0 (TmAgentMethod, 1);
  (*jvmti)->GetMethodName (jvmti, method, &name, &msig, NULL);
  if ((*jvmti)->GetMethodDeclaringClass (jvmti, method, &klass) == JVMTI_ERROR_NONE)
    {
      (*jvmti)->GetClassSignature (jvmti, klass, &csig, NULL);
      if ((*jvmti)->GetSourceFileName (jvmti, klass, &file) != JVMTI_ERROR_NONE)
        file = NULL;
    }
  m->name = tm_agent_method_name (csig, name, msig);
  m->file = g_strdup (file ? file : "");
  {
    jvmtiLineNumberEntry *lines = NULL;
    jint n = 0;
    if ((*jvmti)->GetLineNumberTable (jvmti, method, &n, &lines) == JVMTI_ERROR_NONE && n > 0)
      {
        m->lines = g_memdup2 (lines, sizeof *lines * (gsize) n);
        m->n_lines = n;
      }
    jvmti_free (jvmti, lines);
  }
  jvmti_free (jvmti, name);
  jvmti_free (jvmti, msig);
  jvmti_free (jvmti, csig);
  jvmti_free (jvmti, file);
  g_hash_table_insert (a->methods, method, m);
  return m;
}

static gint32
method_line (const TmAgentMethod *m, jlocation location)
{
  gint32 line = -1;
  jlocation best = -1;

  if (location < 0)
    return -1;
  for (jint i = 0; i < m->n_lines; i++)
    if (m->lines[i].start_location <= location && m->lines[i].start_location > best)
      {
        best = m->lines[i].start_location;
        line = m->lines[i].line_number;
      }
  return line;
}

static guint64
frame_locked (jvmtiEnv *jvmti, const TmAgentFrameKey *key)
{
  TmAgent *a = &tm_agent;
  gpointer v = g_hash_table_lookup (a->frames, key);
  TmAgentMethod *m;
  TmAgentEvent *ev;
  guint32 id;
  gsize ln, lf;

  if (v != NULL)
    return GPOINTER_TO_UINT (v);
  m = method_get_locked (jvmti, key->method);
  id = ++a->n_frames;
  ev = tm_agent_queue_push_locked ();
  ev->kind = TM_EV_FRAME;
  ev->id = id;
  ev->x = (guint32) (method_line (m, key->location) + 1);
  ln = strlen (m->name);
  lf = strlen (m->file);
  ev->u.str = g_malloc (ln + lf + 2);
  memcpy (ev->u.str, m->name, ln + 1);
  memcpy (ev->u.str + ln + 1, m->file, lf + 1);
  g_hash_table_insert (a->frames, g_memdup2 (key, sizeof *key), GUINT_TO_POINTER (id));
  return id;
}

guint32
tm_agent_site_locked (jvmtiEnv *jvmti, const jvmtiFrameInfo *frames, jint depth)
{
  TmAgent *a = &tm_agent;
  union {
    TmAgentSiteKey k;
    guint8 raw[sizeof (TmAgentSiteKey) + TM_AGENT_MAX_DEPTH * sizeof (TmAgentFrameKey)];
  } buf;
  TmAgentSiteKey *key = &buf.k;
  TmAgentEvent *ev;
  gpointer v;
  guint32 id;
  gsize size;

  if (depth <= 0)
    return 0;
  key->depth = (guint32) MIN (depth, TM_AGENT_MAX_DEPTH);
  for (guint32 i = 0; i < key->depth; i++)
    {
      key->f[i].method = frames[i].method;
      key->f[i].location = frames[i].location;
    }
  key->hash = frames_hash (frames, key->depth);
  v = g_hash_table_lookup (a->sites, key);
  if (v != NULL)
    return GPOINTER_TO_UINT (v);

  {
    guint64 *ids = g_new (guint64, key->depth);
    for (guint32 i = 0; i < key->depth; i++)
      ids[i] = frame_locked (jvmti, &key->f[i]);
    id = ++a->n_sites;
    ev = tm_agent_queue_push_locked ();
    ev->kind = TM_EV_SITE;
    ev->id = id;
    ev->x = key->depth;
    ev->u.frames = ids;
  }
  size = sizeof (TmAgentSiteKey) + key->depth * sizeof (TmAgentFrameKey);
  g_hash_table_insert (a->sites, g_memdup2 (key, size), GUINT_TO_POINTER (id));
  return id;
}

guint32
tm_agent_site (jvmtiEnv *jvmti, TmAgentThread *t, const jvmtiFrameInfo *frames, jint depth)
{
  TmAgentSiteCacheEntry *e;
  guint32 hash, id;

  if (depth <= 0)
    return 0;
  if (depth > TM_AGENT_SITE_CACHE_DEPTH)
    {
      pthread_mutex_lock (&tm_agent.queue_lock);
      id = tm_agent_site_locked (jvmti, frames, depth);
      pthread_mutex_unlock (&tm_agent.queue_lock);
      return id;
    }
  hash = frames_hash (frames, (guint32) depth);
  e = &t->sites[hash % TM_AGENT_SITE_CACHE];
  if (e->id != 0 && e->hash == hash && e->depth == (guint32) depth)
    {
      gboolean same = TRUE;
      for (jint i = 0; i < depth && same; i++)
        same = e->method[i] == frames[i].method && e->location[i] == frames[i].location;
      if (same)
        return e->id;
    }
  pthread_mutex_lock (&tm_agent.queue_lock);
  id = tm_agent_site_locked (jvmti, frames, depth);
  pthread_mutex_unlock (&tm_agent.queue_lock);
  e->hash = hash;
  e->depth = (guint32) depth;
  e->id = id;
  for (jint i = 0; i < depth; i++)
    {
      e->method[i] = frames[i].method;
      e->location[i] = frames[i].location;
    }
  return id;
}
