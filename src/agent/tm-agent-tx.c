/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Transactions (`record --transaction pkg.Class.method`): runs of the
 * named methods and the objects their thread allocates meanwhile.
 *
 * Entry is a JVMTI breakpoint at the first bytecode of each named method,
 * set when its class is prepared; exit is NotifyFramePop on that frame
 * (also posted when an exception unwinds it).  FRAME_POP is enabled only
 * for a thread while it runs a transaction, because enabling it puts the
 * thread into interpreter-only mode; outside transactions the program runs
 * compiled as usual.  Nested runs (recursion, or one named method calling
 * another) are one run, of the outermost method's kind.
 */
#include "tm-agent.h"

#include <string.h>

typedef struct {
  gint64  end_ns;
  gsize   n;
  guint64 ids[];
} TmAgentTxEnd;

static GHashTable *tx_methods;     /* jmethodID -> kind id, under tx_lock */
static pthread_mutex_t tx_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile gint tx_next_id;

static gboolean
enabled (void)
{
  return tm_agent.opts.transactions != NULL && tm_agent.opts.transactions[0] != NULL;
}

void
tm_agent_tx_add_capabilities (jvmtiCapabilities *caps)
{
  if (!enabled ())
    return;
  caps->can_generate_breakpoint_events = 1;
  caps->can_generate_frame_pop_events = 1;
}

/* "Lpkg/Outer$Inner;" -> "pkg.Outer$Inner" */
static char *
class_name (jvmtiEnv *jvmti, jclass klass)
{
  char *sig = NULL;
  char *name = NULL;

  if ((*jvmti)->GetClassSignature (jvmti, klass, &sig, NULL) != JVMTI_ERROR_NONE || sig == NULL)
    return NULL;
  if (sig[0] == 'L')
    {
      gsize len = strlen (sig);
      name = g_strndup (sig + 1, len >= 2 ? len - 2 : 0);
      g_strdelimit (name, "/", '.');
    }
  (*jvmti)->Deallocate (jvmti, (unsigned char *) sig);
  return name;
}

/* Sets a breakpoint on every method of `klass` a transaction names. */
static void
arm_class (jvmtiEnv *jvmti, jclass klass)
{
  g_autofree char *cname = class_name (jvmti, klass);
  char **names = tm_agent.opts.transactions;
  jmethodID *methods = NULL;
  jint n_methods = 0;
  gboolean wanted = FALSE;

  if (cname == NULL)
    return;
  for (guint k = 0; names[k] != NULL && !wanted; k++)
    {
      const char *dot = strrchr (names[k], '.');
      wanted = dot != NULL && strlen (cname) == (gsize) (dot - names[k])
               && strncmp (cname, names[k], dot - names[k]) == 0;
    }
  if (!wanted || (*jvmti)->GetClassMethods (jvmti, klass, &n_methods, &methods) != JVMTI_ERROR_NONE)
    return;
  for (jint i = 0; i < n_methods; i++)
    {
      char *mname = NULL;

      if ((*jvmti)->GetMethodName (jvmti, methods[i], &mname, NULL, NULL) != JVMTI_ERROR_NONE || mname == NULL)
        continue;
      for (guint k = 0; names[k] != NULL; k++)
        {
          g_autofree char *full = g_strdup_printf ("%s.%s", cname, mname);
          jlocation start = 0, end = 0;

          if (strcmp (full, names[k]) != 0)
            continue;
          /* native and abstract methods have no bytecode to stop at */
          if ((*jvmti)->GetMethodLocation (jvmti, methods[i], &start, &end) != JVMTI_ERROR_NONE)
            break;
          if ((*jvmti)->SetBreakpoint (jvmti, methods[i], start) == JVMTI_ERROR_NONE)
            {
              pthread_mutex_lock (&tx_lock);
              g_hash_table_insert (tx_methods, methods[i], GUINT_TO_POINTER (k + 1));
              pthread_mutex_unlock (&tx_lock);
            }
          break;
        }
      (*jvmti)->Deallocate (jvmti, (unsigned char *) mname);
    }
  (*jvmti)->Deallocate (jvmti, (unsigned char *) methods);
}

static void JNICALL
on_class_prepare (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass klass)
{
  arm_class (jvmti, klass);
}

static void JNICALL
on_breakpoint (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jlocation location)
{
  TmAgentThread *t = tm_agent_thread_get (jvmti, TRUE);
  guint kind;

  if (t == NULL || t->agent_depth > 0)
    return;
  pthread_mutex_lock (&tx_lock);
  kind = GPOINTER_TO_UINT (g_hash_table_lookup (tx_methods, method));
  pthread_mutex_unlock (&tx_lock);
  if (kind == 0)
    return;
  if (t->tx_depth == 0)
    {
      t->tx_id = (guint64) g_atomic_int_add (&tx_next_id, 1) + 1;
      t->tx_kind = kind;
      t->tx_begin_ns = tm_agent_now_ns ();
      if (t->tx_ids == NULL)
        t->tx_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
      g_array_set_size (t->tx_ids, 0);
      (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_FRAME_POP, thread);
    }
  if ((*jvmti)->NotifyFramePop (jvmti, thread, 0) == JVMTI_ERROR_NONE)
    t->tx_depth++;
  else if (t->tx_depth == 0)
    (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_DISABLE, JVMTI_EVENT_FRAME_POP, thread);
}

static void JNICALL
on_frame_pop (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, jboolean by_exception)
{
  TmAgent *a = &tm_agent;
  TmAgentThread *t = tm_agent_thread_get (jvmti, FALSE);
  TmAgentTxEnd *end;
  TmAgentEvent *ev;

  if (t == NULL || t->tx_depth == 0 || --t->tx_depth > 0)
    return;
  (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_DISABLE, JVMTI_EVENT_FRAME_POP, thread);
  end = g_malloc (sizeof *end + t->tx_ids->len * sizeof (guint64));
  end->end_ns = tm_agent_now_ns ();
  end->n = t->tx_ids->len;
  memcpy (end->ids, t->tx_ids->data, end->n * sizeof (guint64));
  g_array_set_size (t->tx_ids, 0);

  /* queued after the run's ALLOCs, so the writer names known objects */
  pthread_mutex_lock (&a->queue_lock);
  ev = tm_agent_queue_push_locked ();
  ev->kind = TM_EV_TX;
  ev->id = t->tx_id;
  ev->x = t->tx_kind;
  ev->thread = t->defined ? t->id : tm_agent_thread_define_locked (jvmti, t, thread);
  ev->size = (guint64) t->tx_begin_ns;
  ev->u.str = (char *) end;
  pthread_mutex_unlock (&a->queue_lock);
}

void
tm_agent_tx_set_callbacks (jvmtiEventCallbacks *cb)
{
  if (!enabled ())
    return;
  cb->ClassPrepare = on_class_prepare;
  cb->Breakpoint = on_breakpoint;
  cb->FramePop = on_frame_pop;
}

void
tm_agent_tx_start (jvmtiEnv *jvmti, JNIEnv *jni)
{
  jclass *classes = NULL;
  jint n = 0;

  if (!enabled ())
    return;
  tx_methods = g_hash_table_new (NULL, NULL);
  (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, NULL);
  (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_BREAKPOINT, NULL);
  if ((*jvmti)->GetLoadedClasses (jvmti, &n, &classes) == JVMTI_ERROR_NONE)
    {
      for (jint i = 0; i < n; i++)
        {
          jint status = 0;
          if ((*jvmti)->GetClassStatus (jvmti, classes[i], &status) == JVMTI_ERROR_NONE
              && (status & JVMTI_CLASS_STATUS_PREPARED))
            arm_class (jvmti, classes[i]);
          (*jni)->DeleteLocalRef (jni, classes[i]);
        }
      (*jvmti)->Deallocate (jvmti, (unsigned char *) classes);
    }
}

void
tm_agent_tx_write_kinds (TmTraceWriter *w)
{
  char **names = tm_agent.opts.transactions;

  for (guint k = 0; names != NULL && names[k] != NULL; k++)
    tm_trace_writer_tx_kind (w, k + 1, names[k]);
}

void
tm_agent_tx_write (TmTraceWriter *w, const TmAgentEvent *ev)
{
  const TmAgentTxEnd *end = (const TmAgentTxEnd *) (gconstpointer) ev->u.str;
  gint64 begin = (gint64) ev->size;

  tm_trace_writer_transaction (w, ev->id, ev->x, ev->thread, begin > 0 ? (guint64) begin : 0,
                               end->end_ns > 0 ? (guint64) end->end_ns : 0, end->ids, end->n);
}
