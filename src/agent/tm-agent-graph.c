/* SPDX-License-Identifier: GPL-3.0-or-later
 * Reference graphs: one FollowReferences walk (stop-the-world), then the
 * edges are written as ROOTS/REFS.  Objects the trace does not know (the
 * agent's own, or allocated after the graph's GC started) are made
 * transparent: an edge into one is replaced by edges to the recorded
 * objects reachable through it, so reachability is preserved. */
#include "tm-agent.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  jlong src;
  jlong dst;
} TmAgentEdge;

typedef struct {
  jlong   dst;
  guint32 kind;
  jlong   thread_tag;
} TmAgentRoot;

struct _TmAgentGraph {
  GArray  *edges;        /* TmAgentEdge */
  GArray  *roots;        /* TmAgentRoot */
  guint64  last_id;      /* objects with ids above are not in the heap state */
  gint64   walk_ns;
  gint64   walk_cpu_ns;  /* the process's CPU time meanwhile */
  gboolean failed;
  char     failure[96];
};

/* Expansion work per graph before transparency gives up (META says so). */
#define TM_AGENT_CLOSURE_BUDGET (200u * 1000 * 1000)

static jint JNICALL
reference_cb (jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo *info,
              jlong class_tag, jlong referrer_class_tag, jlong size,
              jlong *tag_ptr, jlong *referrer_tag_ptr, jint length, void *user_data)
{
  TmAgentGraph *g = user_data;
  TmAgentRoot root = { 0, 0, 0 };

  if (*tag_ptr == 0)
    *tag_ptr = tm_agent_temp_tag ();

  switch (kind)
    {
    case JVMTI_HEAP_REFERENCE_CLASS:
      /* instance -> its class: every object has one; classes are reached
       * through their loaders and the system class roots anyway. */
      return JVMTI_VISIT_OBJECTS;
    case JVMTI_HEAP_REFERENCE_JNI_GLOBAL:
      root.kind = 3;
      break;
    case JVMTI_HEAP_REFERENCE_SYSTEM_CLASS:
      root.kind = 6;
      break;
    case JVMTI_HEAP_REFERENCE_MONITOR:
      root.kind = 5;
      break;
    case JVMTI_HEAP_REFERENCE_STACK_LOCAL:
      root.kind = 2;
      root.thread_tag = info ? info->stack_local.thread_tag : 0;
      break;
    case JVMTI_HEAP_REFERENCE_JNI_LOCAL:
      root.kind = 4;
      root.thread_tag = info ? info->jni_local.thread_tag : 0;
      break;
    case JVMTI_HEAP_REFERENCE_THREAD:
      root.kind = 2;
      root.thread_tag = *tag_ptr;
      break;
    case JVMTI_HEAP_REFERENCE_OTHER:
      root.kind = 7;
      break;
    default:
      if (referrer_tag_ptr != NULL)
        {
          TmAgentEdge e = { *referrer_tag_ptr, *tag_ptr };
          g_array_append_val (g->edges, e);
        }
      return JVMTI_VISIT_OBJECTS;
    }
  root.dst = *tag_ptr;
  g_array_append_val (g->roots, root);
  return JVMTI_VISIT_OBJECTS;
}

TmAgentGraph *
tm_agent_graph_take (jvmtiEnv *jvmti, guint64 last_id)
{
  TmAgentGraph *g = g_new0 (TmAgentGraph, 1);
  jvmtiHeapCallbacks cb;
  gint64 t0 = tm_agent_now_ns (), cpu0 = tm_agent_cpu_ns ();
  jvmtiError err;

  g->edges = g_array_sized_new (FALSE, FALSE, sizeof (TmAgentEdge), 1 << 16);
  g->roots = g_array_sized_new (FALSE, FALSE, sizeof (TmAgentRoot), 1 << 12);
  g->last_id = last_id;
  memset (&cb, 0, sizeof cb);
  cb.heap_reference_callback = reference_cb;
  tm_agent_vm_call_begin ();
  err = (*jvmti)->FollowReferences (jvmti, 0, NULL, NULL, &cb, g);
  tm_agent_vm_call_end ();
  if (err != JVMTI_ERROR_NONE)
    {
      g->failed = TRUE;
      g_snprintf (g->failure, sizeof g->failure, "FollowReferences failed (JVMTI error %d)", (int) err);
    }
  g->walk_ns = tm_agent_now_ns () - t0;
  g->walk_cpu_ns = tm_agent_cpu_ns () - cpu0;
  return g;
}

/* Called by allocating threads while a graph is due. */
void
tm_agent_graph_gate_wait (void)
{
  TmAgent *a = &tm_agent;
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  pthread_mutex_lock (&a->gate_lock);
  while (g_atomic_int_get (&a->graph_gate) != 0 && !g_atomic_int_get (&a->stopping)
         && g_get_monotonic_time () < deadline)
    {
      struct timespec ts;
      clock_gettime (CLOCK_REALTIME, &ts);
      ts.tv_nsec += 10 * 1000 * 1000;
      if (ts.tv_nsec >= 1000000000)
        {
          ts.tv_sec++;
          ts.tv_nsec -= 1000000000;
        }
      pthread_cond_timedwait (&a->gate_cond, &a->gate_lock, &ts);
    }
  pthread_mutex_unlock (&a->gate_lock);
}

/* Writer side: walks the heap for the GC at the gate, then opens it.
 * The GC's last object id was set when it started. */
/* Lets the allocating threads waiting at the gate go. */
static void
gate_open (void)
{
  TmAgent *a = &tm_agent;

  pthread_mutex_lock (&a->gate_lock);
  g_atomic_int_set (&a->graph_gate, 0);
  pthread_cond_broadcast (&a->gate_cond);
  pthread_mutex_unlock (&a->gate_lock);
}

void
tm_agent_graph_gate_serve (void)
{
  TmAgent *a = &tm_agent;
  gint n = g_atomic_int_get (&a->graph_gate), m;
  TmAgentGc *g;

  if (n == 0 || g_atomic_int_get (&a->gc_finished) < n)
    return;
  /* the program is exiting: no walk until VMDeath takes the final one
   * (none at all when the process exits without VMDeath) */
  if (g_atomic_int_get (&a->exiting) && (!g_atomic_int_get (&a->stopping) || g_atomic_int_get (&a->exit_finish)))
    {
      for (guint k = a->w_gcs_written + 1; k <= (guint) g_atomic_int_get (&a->gc_finished); k++)
        if (a->gcs[k % TM_AGENT_GC_RING].graph == NULL && a->gcs[k % TM_AGENT_GC_RING].want_graph)
          {
            a->gcs[k % TM_AGENT_GC_RING].want_graph = FALSE;
            a->w_graphs_skipped++;
          }
      gate_open ();
      return;
    }
  /* Another GC may have run since the due one (a G1 Cleanup pause right
   * after its Remark): the heap walked is the one the latest GC left, so
   * the graph is that GC's.  Never walk during a pause (it would wait). */
  for (int i = 0; i < 1000 && g_atomic_int_get (&a->gc_started) != g_atomic_int_get (&a->gc_finished); i++)
    g_usleep (1000);
  m = g_atomic_int_get (&a->gc_finished);
  if (m > n && (guint) m > a->w_gcs_written)
    {
      TmAgentGc *due = &a->gcs[n % TM_AGENT_GC_RING], *latest = &a->gcs[m % TM_AGENT_GC_RING];
      latest->at_oom = due->at_oom;
      latest->final = due->final;
      due->want_graph = due->at_oom = due->final = FALSE;
      n = m;
    }
  g = &a->gcs[n % TM_AGENT_GC_RING];
  tm_agent_graph_free (g->graph);
  g->graph = tm_agent_graph_take (a->jvmti, g->last_id);
  /* read by the GC finish callback to space the next graphs */
  a->w_last_graph_cost = g->graph->walk_ns;
  a->w_walk_total_ns += g->graph->walk_ns;
  a->w_walk_cpu_total_ns += g->graph->walk_cpu_ns;
  a->w_walk_max_ns = MAX (a->w_walk_max_ns, g->graph->walk_ns);
  a->w_last_graph_end = tm_agent_now_ns ();
  a->w_graphs_taken++;
  g->want_graph = TRUE;
  /* an earlier due GC whose gate was overtaken (a GC finished after it
   * and set the gate again) goes without; the heap walked stands for it
   * if it was the heap at an OutOfMemoryError or the final one */
  for (guint k = a->w_gcs_written + 1; k < (guint) n; k++)
    {
      TmAgentGc *e = &a->gcs[k % TM_AGENT_GC_RING];
      if (e->graph != NULL)
        continue;
      g->at_oom |= e->at_oom;
      g->final |= e->final;
      e->want_graph = e->at_oom = e->final = FALSE;
    }
  gate_open ();
}

void
tm_agent_graph_free (TmAgentGraph *g)
{
  if (g == NULL)
    return;
  g_array_unref (g->edges);
  g_array_unref (g->roots);
  g_free (g);
}

static inline gboolean
is_recorded (const TmAgentGraph *g, jlong tag)
{
  return tag > 0 && (tag & TM_AGENT_TEMP_TAG) == 0 && (guint64) tag <= g->last_id;
}

static int
edge_cmp (const void *a, const void *b)
{
  const TmAgentEdge *x = a, *y = b;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  return (x->dst > y->dst) - (x->dst < y->dst);
}

static int
u64_cmp (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return (x > y) - (x < y);
}

typedef struct {
  TmAgentGraph *g;
  GHashTable   *foreign;     /* foreign src tag -> first edge index + 1 */
  GHashTable   *seen;        /* foreign tag -> generation */
  guint         generation;
  GArray       *stack;       /* jlong */
  GHashTable   *memo;        /* foreign tag -> GArray of guint64: its expansion */
  guint64       budget;
  gboolean      truncated;
  guint8       *visited;     /* bitmap over recorded ids, or NULL */
} TmAgentExpand;

static inline void
mark_visited (TmAgentExpand *x, jlong tag)
{
  if (x->visited != NULL)
    x->visited[(guint64) tag >> 3] |= (guint8) (1u << (tag & 7));
}

static guint sort_unique (GArray *ids);

/* Appends to out the recorded objects reachable from foreign object f
 * through foreign objects only.  Each foreign object's expansion is
 * computed once and reused (many roots and objects point into the same
 * foreign region: without the memo that costs roots x region). */
static void
expand (TmAgentExpand *x, jlong f, GArray *out)
{
  TmAgentEdge *edges = (TmAgentEdge *) (void *) x->g->edges->data;
  guint n_edges = x->g->edges->len;
  GArray *result = g_hash_table_lookup (x->memo, GSIZE_TO_POINTER ((gsize) f));

  if (result == NULL)
    {
      result = g_array_new (FALSE, FALSE, sizeof (guint64));
      x->generation++;
      g_array_set_size (x->stack, 0);
      g_array_append_val (x->stack, f);
      g_hash_table_insert (x->seen, GSIZE_TO_POINTER ((gsize) f), GUINT_TO_POINTER (x->generation));
      while (x->stack->len > 0 && !x->truncated)
        {
          jlong cur = g_array_index (x->stack, jlong, x->stack->len - 1);
          GArray *known;
          gsize start;

          g_array_set_size (x->stack, x->stack->len - 1);
          known = cur != f ? g_hash_table_lookup (x->memo, GSIZE_TO_POINTER ((gsize) cur)) : NULL;
          if (known != NULL)
            {
              g_array_append_vals (result, known->data, known->len);
              continue;
            }
          start = GPOINTER_TO_SIZE (g_hash_table_lookup (x->foreign, GSIZE_TO_POINTER ((gsize) cur)));
          for (guint i = (guint) start - 1; start != 0 && i < n_edges && edges[i].src == cur; i++)
            {
              jlong d = edges[i].dst;
              if (x->budget == 0)
                {
                  x->truncated = TRUE;
                  break;
                }
              x->budget--;
              if (is_recorded (x->g, d))
                {
                  guint64 id = (guint64) d;
                  g_array_append_val (result, id);
                }
              else if (GPOINTER_TO_UINT (g_hash_table_lookup (x->seen, GSIZE_TO_POINTER ((gsize) d))) != x->generation)
                {
                  g_hash_table_insert (x->seen, GSIZE_TO_POINTER ((gsize) d), GUINT_TO_POINTER (x->generation));
                  g_array_append_val (x->stack, d);
                }
            }
        }
      sort_unique (result);
      g_hash_table_insert (x->memo, GSIZE_TO_POINTER ((gsize) f), result);
    }
  g_array_append_vals (out, result->data, result->len);
}

static guint
sort_unique (GArray *ids)
{
  guint64 *v = (guint64 *) (void *) ids->data;
  guint n = 0;

  if (ids->len == 0)
    return 0;
  qsort (v, ids->len, sizeof *v, u64_cmp);
  for (guint i = 0; i < ids->len; i++)
    if (n == 0 || v[n - 1] != v[i])
      v[n++] = v[i];
  g_array_set_size (ids, n);
  return n;
}

typedef struct {
  guint64 id;
  guint32 kind;
  guint64 thread;
} TmAgentRootOut;

static int
root_cmp (const void *a, const void *b)
{
  const TmAgentRootOut *x = a, *y = b;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return (x->thread > y->thread) - (x->thread < y->thread);
}

gboolean
tm_agent_graph_write (TmAgentGraph *g, guint gc_id, gboolean final_deaths)
{
  TmAgent *a = &tm_agent;
  TmAgentEdge *edges;
  TmAgentExpand x;
  g_autoptr(GArray) targets = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (TmAgentRootOut));
  guint64 listed = 0;
  gboolean grouped = TRUE, complete = TRUE;
  guint32 *thread_ids;

  if (g->failed)
    {
      /* never an empty graph: readers learn that reachability is unknown */
      tm_trace_writer_graph_failed (a->writer, gc_id, g->failure);
      return FALSE;
    }
  memset (&x, 0, sizeof x);
  x.g = g;
  x.budget = TM_AGENT_CLOSURE_BUDGET;
  x.stack = g_array_new (FALSE, FALSE, sizeof (jlong));
  x.seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  x.memo = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_array_unref);
  if (final_deaths)
    x.visited = g_malloc0 (g->last_id / 8 + 1);

  /* FollowReferences visits each object once and reports its references
   * together: runs of one source are all the grouping needed (REFS may
   * come in any order).  Sort only if a source shows up in two runs. */
  edges = (TmAgentEdge *) (void *) g->edges->data;
  x.foreign = g_hash_table_new (g_direct_hash, g_direct_equal);
  {
    g_autofree guint8 *seen_src = g_malloc0 (g->last_id / 8 + 1);
    for (guint i = 0; i < g->edges->len && grouped; i++)
      {
        jlong src = edges[i].src;
        if (i > 0 && src == edges[i - 1].src)
          continue;
        if (is_recorded (g, src))
          {
            guint8 bit = (guint8) (1u << (src & 7));
            grouped = (seen_src[src >> 3] & bit) == 0;
            seen_src[src >> 3] |= bit;
          }
        else
          grouped = g_hash_table_insert (x.foreign, GSIZE_TO_POINTER ((gsize) src), GSIZE_TO_POINTER ((gsize) i + 1));
      }
  }
  if (!grouped)
    {
      qsort (edges, g->edges->len, sizeof *edges, edge_cmp);
      g_hash_table_remove_all (x.foreign);
      for (guint i = 0; i < g->edges->len; i++)
        if ((i == 0 || edges[i].src != edges[i - 1].src) && !is_recorded (g, edges[i].src))
          g_hash_table_insert (x.foreign, GSIZE_TO_POINTER ((gsize) edges[i].src), GSIZE_TO_POINTER ((gsize) i + 1));
    }

  tm_trace_writer_graph_begin (a->writer, gc_id);

  /* Roots, with thread ids from the thread objects' tags: looked up under
   * queue_lock, which allocating threads need, so nothing else there. */
  thread_ids = g_new0 (guint32, MAX (g->roots->len, 1));
  pthread_mutex_lock (&a->queue_lock);
  for (guint i = 0; i < g->roots->len; i++)
    {
      jlong tag = g_array_index (g->roots, TmAgentRoot, i).thread_tag;
      if (tag != 0)
        thread_ids[i] = GPOINTER_TO_UINT (g_hash_table_lookup (a->thread_tags, GSIZE_TO_POINTER ((gsize) tag)));
    }
  pthread_mutex_unlock (&a->queue_lock);
  for (guint i = 0; i < g->roots->len; i++)
    {
      const TmAgentRoot *r = &g_array_index (g->roots, TmAgentRoot, i);
      TmAgentRootOut o;
      o.kind = r->kind;
      o.thread = thread_ids[i];
      if (is_recorded (g, r->dst))
        {
          o.id = (guint64) r->dst;
          g_array_append_val (roots, o);
        }
      else
        {
          g_array_set_size (targets, 0);
          expand (&x, r->dst, targets);
          for (guint k = 0; k < targets->len; k++)
            {
              o.id = g_array_index (targets, guint64, k);
              g_array_append_val (roots, o);
            }
        }
    }
  g_free (thread_ids);
  if (roots->len > 0)
    {
      TmAgentRootOut *v = (TmAgentRootOut *) (void *) roots->data;
      guint n = 0;
      qsort (v, roots->len, sizeof *v, root_cmp);
      for (guint i = 0; i < roots->len; i++)
        if (n == 0 || v[n - 1].id != v[i].id || v[n - 1].kind != v[i].kind)
          v[n++] = v[i];
      for (guint i = 0; i < n; i += 4096)
        {
          guint m = MIN (4096u, n - i);
          g_autofree TmRootRecord *recs = g_new (TmRootRecord, m);
          for (guint k = 0; k < m; k++)
            {
              recs[k].object_id = v[i + k].id;
              recs[k].kind = v[i + k].kind;
              recs[k].thread_id = v[i + k].thread;
              mark_visited (&x, (jlong) v[i + k].id);
            }
          tm_trace_writer_roots (a->writer, m, recs);
        }
    }
  else
    tm_trace_writer_roots (a->writer, 0, NULL);

  for (guint i = 0; i < g->edges->len;)
    {
      jlong src = edges[i].src;
      guint j = i;

      while (j < g->edges->len && edges[j].src == src)
        j++;
      if (is_recorded (g, src))
        {
          g_array_set_size (targets, 0);
          for (guint k = i; k < j; k++)
            {
              jlong d = edges[k].dst;
              if (is_recorded (g, d))
                {
                  guint64 id = (guint64) d;
                  g_array_append_val (targets, id);
                }
              else
                expand (&x, d, targets);
            }
          if (sort_unique (targets) > 0)
            {
              const guint64 *t = (const guint64 *) (void *) targets->data;
              tm_trace_writer_refs (a->writer, (guint64) src, targets->len, t);
              listed++;
              for (guint k = 0; k < targets->len; k++)
                mark_visited (&x, (jlong) t[k]);
            }
        }
      i = j;
    }
  if (x.truncated || roots->len == 0)
    {
      /* a graph missing what lies behind foreign objects (or everything)
       * would understate reachable memory: abandon it */
      tm_trace_writer_graph_failed (a->writer, gc_id, x.truncated ? "objects not recorded by the agent hide too much of the heap"
                                                                  : "no recorded object among the roots");
      complete = FALSE;
    }
  else
    {
      tm_trace_writer_graph_end (a->writer, gc_id, listed);
      a->w_graphs++;
    }

  if (final_deaths && complete)
    {
      g_autoptr(GArray) dead = g_array_new (FALSE, FALSE, sizeof (guint64));
      for (guint64 id = 1; id <= g->last_id; id++)
        {
          gboolean reached = (x.visited[id >> 3] & (1u << (id & 7))) != 0;
          if (!reached && !tm_agent_is_dead (id))
            g_array_append_val (dead, id);
        }
      for (guint i = 0; i < dead->len; i++)
        tm_agent_mark_dead (g_array_index (dead, guint64, i));
      if (dead->len > 0)
        tm_trace_writer_deaths (a->writer, gc_id, (const guint64 *) (void *) dead->data, dead->len);
      a->w_deaths += dead->len;
    }

  g_free (x.visited);
  g_hash_table_unref (x.foreign);
  g_hash_table_unref (x.seen);
  g_hash_table_unref (x.memo);
  g_array_unref (x.stack);
  return complete;
}
