/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JVM's own floor under the recording agent, for bench-agent.sh
 * --floors: a JVMTI agent that asks for every allocation as the Tidemark
 * agent does (SampledObjectAlloc, interval 0) and does only what its
 * options say in the callback, so each JVMTI call's cost per allocation
 * shows on its own.  Options (comma separated, any combination):
 *   tag    SetTag with a fresh id (and ObjectFree enabled, as recording deaths needs)
 *   nofree with tag: without ObjectFree (what posting the frees costs)
 *   stack  GetStackTrace, 2 frames
 *   asgct  AsyncGetCallTrace, 2 frames (jmethodIDs made at class load)
 *   compare  both stack walks, counting allocations where they differ
 * No option: an empty callback.  Other options (output=...) are ignored.
 */
#include <jvmti.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  JNIEnv *env_id;
  jint    num_frames;
  struct { jint lineno; jmethodID method_id; } *frames;
} AsgctTrace;

static void (*asgct) (AsgctTrace *trace, jint depth, void *ucontext);
static int do_tag, do_stack, do_asgct, do_compare, no_free;
static volatile jlong next_tag, n_allocs, n_fallbacks, n_differ;

static void JNICALL
on_alloc (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object, jclass klass, jlong size)
{
  __atomic_add_fetch (&n_allocs, 1, __ATOMIC_RELAXED);
  jvmtiFrameInfo frames[2];
  jint depth = 0;
  struct { jint lineno; jmethodID method_id; } af[2];
  AsgctTrace trace = { jni, 0, (void *) af };

  if (do_stack)
    (*jvmti)->GetStackTrace (jvmti, NULL, 0, 2, frames, &depth);
  if (do_asgct)
    {
      asgct (&trace, 2, NULL);
      if (trace.num_frames <= 0)
        __atomic_add_fetch (&n_fallbacks, 1, __ATOMIC_RELAXED);
    }
  if (do_compare)
    {
      int same = trace.num_frames == depth;
      for (jint i = 0; same && i < depth; i++)
        same = af[i].method_id == frames[i].method
               && (af[i].lineno < 0 ? frames[i].location == -1 : af[i].lineno == frames[i].location);
      if (!same)
        __atomic_add_fetch (&n_differ, 1, __ATOMIC_RELAXED);
    }
  if (do_tag)
    (*jvmti)->SetTag (jvmti, object, __atomic_add_fetch (&next_tag, 1, __ATOMIC_RELAXED));
}

static void JNICALL
on_free (jvmtiEnv *jvmti, jlong tag)
{
}

/* AsyncGetCallTrace reports only methods whose jmethodIDs exist. */
static void
make_method_ids (jvmtiEnv *jvmti, jclass klass)
{
  jint n = 0;
  jmethodID *methods = NULL;

  if ((*jvmti)->GetClassMethods (jvmti, klass, &n, &methods) == JVMTI_ERROR_NONE)
    (*jvmti)->Deallocate (jvmti, (unsigned char *) methods);
}

static void JNICALL
on_class_load (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass klass)
{
}

static void JNICALL
on_class_prepare (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass klass)
{
  make_method_ids (jvmti, klass);
}

static void JNICALL
on_vm_init (jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
  if (do_asgct)
    {
      jint n = 0;
      jclass *classes = NULL;
      if ((*jvmti)->GetLoadedClasses (jvmti, &n, &classes) == JVMTI_ERROR_NONE)
        {
          for (jint i = 0; i < n; i++)
            make_method_ids (jvmti, classes[i]);
          (*jvmti)->Deallocate (jvmti, (unsigned char *) classes);
        }
    }
  (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
}

static void JNICALL
on_vm_death (jvmtiEnv *jvmti, JNIEnv *jni)
{
  fprintf (stderr, "bench-agent-floor: %lld allocations, %lld AsyncGetCallTrace failures, %lld stacks differ\n",
           (long long) n_allocs, (long long) n_fallbacks, (long long) n_differ);
}

JNIEXPORT jint JNICALL
Agent_OnLoad (JavaVM *vm, char *options, void *reserved)
{
  jvmtiEnv *jvmti = NULL;
  jvmtiCapabilities caps;
  jvmtiEventCallbacks cb;

  for (char *opt = options ? strtok (options, ",") : NULL; opt != NULL; opt = strtok (NULL, ","))
    {
      do_tag |= strcmp (opt, "tag") == 0;
      do_stack |= strcmp (opt, "stack") == 0 || strcmp (opt, "compare") == 0;
      do_asgct |= strcmp (opt, "asgct") == 0 || strcmp (opt, "compare") == 0;
      do_compare |= strcmp (opt, "compare") == 0;
      no_free |= strcmp (opt, "nofree") == 0;
    }
  if ((*vm)->GetEnv (vm, (void **) &jvmti, JVMTI_VERSION_11) != JNI_OK)
    return JNI_ERR;
  if (do_asgct)
    {
      void *self = dlopen (NULL, RTLD_NOW);
      asgct = self ? dlsym (self, "AsyncGetCallTrace") : NULL;
      if (asgct == NULL)
        {
          fprintf (stderr, "bench-agent-floor: no AsyncGetCallTrace in this JVM\n");
          return JNI_ERR;
        }
    }
  memset (&caps, 0, sizeof caps);
  caps.can_generate_sampled_object_alloc_events = 1;
  caps.can_tag_objects = 1;
  caps.can_generate_object_free_events = 1;
  if ((*jvmti)->AddCapabilities (jvmti, &caps) != JVMTI_ERROR_NONE)
    return JNI_ERR;
  memset (&cb, 0, sizeof cb);
  cb.VMInit = on_vm_init;
  cb.VMDeath = on_vm_death;
  cb.SampledObjectAlloc = on_alloc;
  cb.ObjectFree = on_free;
  cb.ClassLoad = on_class_load;
  cb.ClassPrepare = on_class_prepare;
  (*jvmti)->SetEventCallbacks (jvmti, &cb, sizeof cb);
  (*jvmti)->SetHeapSamplingInterval (jvmti, 0);
  (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
  (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
  if (do_tag && !no_free)
    (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_OBJECT_FREE, NULL);
  if (do_asgct)
    {
      (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, NULL);
      (*jvmti)->SetEventNotificationMode (jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, NULL);
    }
  return JNI_OK;
}
