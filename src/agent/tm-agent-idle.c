/* SPDX-License-Identifier: GPL-3.0-or-later
 * Forced collections when a program goes long without one.  Graphs are
 * taken at GCs, and a program with a large heap and little garbage may
 * collect a handful of times in a minute: too few heap states to tell a
 * leak from a warm-up, whatever the walk budget allows.  So when no GC has
 * finished for an eighth of the run so far (at least a second), the agent
 * thread forces one (cause "JvmtiEnv ForceGarbageCollection", a whole-heap
 * collection, so it gets a graph) as long as the walks stay within their
 * budget.  A program that collects on its own more often than that never
 * sees one.  Not with ZGC or Shenandoah (their cycles are concurrent and
 * their pauses get no graphs), nor in sampled mode or with an explicit
 * graph-every, which asks for graphs at the program's own GCs only. */
#include "tm-agent.h"

#define TM_AGENT_IDLE_MIN_GAP (G_GINT64_CONSTANT (1000) * 1000 * 1000)

static gint64
idle_gap (gint64 now)
{
  return MAX (TM_AGENT_IDLE_MIN_GAP, now / 8);
}

static gboolean
idle_gc_due (gint64 now)
{
  TmAgent *a = &tm_agent;
  gint finished = g_atomic_int_get (&a->gc_finished);
  gint64 last_end;

  if (a->opts.sample_bytes != 0 || a->opts.graph_every == 0 || a->opts.graph_every_set
      || !a->opts.graph_every_final)
    return FALSE;
  if (g_atomic_int_get (&a->stopping) || g_atomic_int_get (&a->exiting) || g_atomic_int_get (&a->graph_gate) != 0
      || g_atomic_int_get (&a->gc_started) != finished)
    return FALSE;
  last_end = finished > 0 ? a->gcs[finished % TM_AGENT_GC_RING].end_ns : 0;
  if (now - MAX (last_end, a->idle_last_forced) < idle_gap (now))
    return FALSE;
  return tm_agent_graph_affordable (now);
}

/* From the agent thread, holding no lock: the collection's finish
 * callback marks its graph due, and the thread's next pump walks it. */
void
tm_agent_idle_gc_maybe (jvmtiEnv *jvmti)
{
  TmAgent *a = &tm_agent;
  gint64 now = tm_agent_now_ns ();

  if (!idle_gc_due (now))
    return;
  a->idle_last_forced = now;
  tm_agent_vm_call_begin ();
  if ((*jvmti)->ForceGarbageCollection (jvmti) == JVMTI_ERROR_NONE)
    g_atomic_int_inc (&a->idle_gcs);
  tm_agent_vm_call_end ();
}
