/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Internal state of the Tidemark JVMTI agent (docs/agent.md), shared by
 * its files.  Threads and locks:
 *
 *  - allocating threads (SampledObjectAlloc) append their ALLOC records
 *    to a buffer of their own under its buf_lock, which they hold from
 *    taking an object id (an atomic counter) through SetTag to the append;
 *    the writer takes each buffer under that lock, so every id below the
 *    counter it read first is in a buffer it took, and merges the records
 *    into id order (object ids are dense and ascending in stream order);
 *  - definitions (types, frames, sites, threads) and the other events go
 *    through one queue under queue_lock, each stamped with the id counter
 *    and the GC count at its append: the writer puts it after that ALLOC;
 *  - GC start/finish callbacks (VM thread, at a safepoint) only write
 *    timestamps and bump atomic counters: no locks, no I/O;
 *  - ObjectFree callbacks (a JDK thread, holding the JVMTI tag map lock)
 *    take only death_lock, never held around a JVMTI call;
 *  - the agent thread (or the VMDeath thread at the end) holds writer_lock
 *    and is the only user of the TmTraceWriter;
 *  - while a due graph waits to be walked (graph_gate), allocating threads
 *    wait on gate_cond before taking any lock.
 *
 * queue_lock and buf_lock may be held across SetTag/JNI calls that block
 * for a safepoint; that is safe because no safepoint-time callback takes
 * them and the writer holds them only to take what is queued.
 */
#pragma once

#include <jvmti.h>
#include <glib.h>
#include <pthread.h>

#include "tm-trace-writer.h"

G_BEGIN_DECLS

/* Tags with this bit name objects the agent saw but did not record (its
 * own objects, class mirrors, objects met first in a heap walk). */
#define TM_AGENT_TEMP_TAG   ((jlong) 1 << 62)
#define TM_AGENT_MAX_DEPTH  64
#define TM_AGENT_GC_RING    4096
/* collectors with perf counters (tm-agent-perfdata.c): G1 has 3 */
#define TM_AGENT_COLLECTORS 4
/* events held in memory before allocations are dropped (~40 bytes each) */
#define TM_AGENT_QUEUE_CAP  (16u * 1024 * 1024)

typedef struct {
  char    *output;
  char    *status;
  guint64  sample_bytes;      /* 0 = every allocation */
  guint    stack_depth;
  guint    graph_every;       /* 0 = no graphs at all */
  gboolean graph_every_set;
  int      zstd_level;
  gboolean graph_every_final; /* a forced GC and a graph at VMDeath (not
                               * possible with concurrent collectors) */
  gboolean exclusive;         /* never overwrite: another JVM of the same
                               * command has the file, use NAME.PID.tmtrace */
  char   **transactions;      /* pkg.Class.method names, kind id = index + 1 */
  gboolean containers;        /* record operations on java.util collections */
} TmAgentOptions;

gboolean tm_agent_options_parse (const char *text, TmAgentOptions *opts, char **error);
void     tm_agent_options_clear (TmAgentOptions *opts);

/* Names (tm-agent-names.c) */
char    *tm_agent_type_name_from_signature (const char *signature, guint32 *flags);
char    *tm_agent_method_name (const char *class_signature, const char *name, const char *method_signature);

typedef enum {
  TM_EV_ALLOC = 1,
  TM_EV_TYPE,
  TM_EV_FRAME,
  TM_EV_SITE,
  TM_EV_THREAD,
  TM_EV_GC,
  TM_EV_OOM,        /* id time_ns, x TmOomKind, site GCs finished, thread, u.str message */
  TM_EV_TX,         /* a finished transaction run (tm-agent-tx.c) */
  TM_EV_COP,        /* a container operation: x kind, id container, size element, u.length time_ns */
} TmAgentEventKind;

/* A TYPE's name and hierarchy (type ids; super 0 = none). */
typedef struct {
  char    *name;
  guint32  super;
  guint32  n_interfaces;
  guint64  interfaces[];
} TmAgentTypeDef;

typedef struct {
  guint8   kind;
  guint32  x;       /* ALLOC type id; TYPE flags; FRAME line+1; SITE depth; GC number */
  guint64  id;
  guint32  site;    /* ALLOC */
  guint32  thread;  /* ALLOC */
  guint64  size;    /* ALLOC */
  guint64  seq;     /* queued events: the last object id given out when queued */
  guint32  gcn;     /* queued events: GCs started when queued */
  union {
    guint64  length;  /* ALLOC array length */
    char    *str;     /* THREAD name; FRAME "method\0file" */
    TmAgentTypeDef *type;  /* TYPE */
    guint64 *frames;  /* SITE frame ids */
  } u;
} TmAgentEvent;

#define TM_AGENT_CHUNK_EVENTS 4096
typedef struct _TmAgentChunk TmAgentChunk;
struct _TmAgentChunk {
  TmAgentChunk *next;
  guint         n;
  guint         pos;      /* consumer position */
  TmAgentEvent  ev[TM_AGENT_CHUNK_EVENTS];
};

/* An ALLOC as an allocating thread buffers it. */
typedef struct {
  guint64 id;
  guint64 size;
  guint64 length;   /* array length */
  guint32 type;
  guint32 site;
  guint32 thread;
} TmAgentAlloc;

#define TM_AGENT_BLOCK_ALLOCS 1024
typedef struct _TmAgentAllocBlock TmAgentAllocBlock;
struct _TmAgentAllocBlock {
  TmAgentAllocBlock *next;
  guint              n;
  TmAgentAlloc       a[TM_AGENT_BLOCK_ALLOCS];
};

/* Sites this thread used last, by the hash of their frames (depth up to 4). */
#define TM_AGENT_SITE_CACHE       64
#define TM_AGENT_SITE_CACHE_DEPTH 4
typedef struct {
  guint32   hash;
  guint32   depth;
  guint32   id;
  jmethodID method[TM_AGENT_SITE_CACHE_DEPTH];
  jlocation location[TM_AGENT_SITE_CACHE_DEPTH];
} TmAgentSiteCacheEntry;

typedef struct _TmAgentThread TmAgentThread;
struct _TmAgentThread {
  /* buf_lock: this thread's ALLOCs not yet taken by the writer */
  pthread_mutex_t    buf_lock;
  TmAgentAllocBlock *buf_head, *buf_tail;
  TmAgentThread     *registered_next;   /* all threads, newest first */
  /* set by ThreadEnd once the thread is done with this: the writer frees
   * it after taking its buffer */
  volatile gint      ended;
  TmAgentSiteCacheEntry sites[TM_AGENT_SITE_CACHE];
  guint32 id;
  gint    agent_depth;    /* > 0: allocations of this thread are the agent's own */
  gboolean defined;
  gboolean sampled;       /* an allocation of the agent's own was reported */
  /* the last classes this thread allocated: spares a tag map lookup */
  struct {
    jweak   klass;
    guint32 type;
    guint32 flags;
  } cache[4];
  guint   cache_next;
  /* the transaction this thread runs (tm-agent-tx.c) */
  guint   tx_depth;       /* > 0: inside one; nested runs count once */
  guint64 tx_id;
  guint32 tx_kind;
  gint64  tx_begin_ns;
  GArray *tx_ids;         /* guint64 ids of the objects it allocated */
};

typedef struct {
  guint64 bean_id;
  guint64 start_ms;       /* GcInfo start, ms since the JVM started */
  char   *collector;
  char   *action;
  char   *cause;
  guint   n;
  char  **pools;
  guint64 *before, *after, *committed;
} TmAgentGcNote;

typedef struct {
  /* written by the GC callbacks */
  volatile gint64 start_ns;
  volatile gint64 end_ns;
  /* the last object id given out when the GC started (G_MAXUINT64 for a
   * moment while the start callback runs) */
  volatile guint64 last_id;
  /* each collector's invocations at the start and the finish callback
   * (tm-agent-perfdata.c), and the cause HotSpot gave the pause */
  guint64  inv_start[TM_AGENT_COLLECTORS];
  guint64  inv_end[TM_AGENT_COLLECTORS];
  char     cause[64];
  /* writer side */
  gboolean matched;        /* collector/bean decided */
  gint64   matched_at;
  /* the pause's last collection (its kind, cause and usage after), or
   * NULL for a pause without one */
  char    *bean;           /* GC MXBean name */
  guint64  bean_id;        /* GcInfo id */
  /* the first one, when the pause held several (its usage before) */
  char    *first_bean;
  guint64  first_bean_id;
  gboolean want_graph;
  gboolean final;
  gboolean at_oom;         /* the graph is the heap as an OutOfMemoryError was thrown */
  struct _TmAgentGraph *graph;
} TmAgentGc;

typedef struct _TmAgentGraph TmAgentGraph;

typedef struct {
  jvmtiEnv *jvmti;
  JavaVM   *vm;
  TmAgentOptions opts;
  gint64    start_mono_ns;
  gint64    start_cpu_ns;       /* process CPU time at load */

  volatile gint stopping;
  /* a shutdown hook ran: no heap walks until VMDeath (JDK 17 deadlocks
   * when a walk's EscapeBarrier meets the object-free events the exiting
   * thread posts before VMDeath) */
  volatile gint exiting;
  volatile gint in_flight;
  volatile gint init_check;     /* check for a tag before tagging (init race) */
  volatile gint agent_stop;
  volatile gint agent_done;
  volatile gint agent_running;  /* the agent thread started */
  volatile gint exit_finish;    /* process exit without VMDeath: the agent thread ends the trace */
  /* -XX:+ExitOnOutOfMemoryError: the JVM calls exit() from a Java thread
   * inside the VM, so no safepoint completes after it: the trace's end is
   * written without a call into the JVM (no JNI, no JVMTI) */
  volatile gint exit_on_oom;
  volatile gint exit_no_java;
  /* the agent thread is inside a JVM call that may wait for a safepoint
   * (tm_agent_vm_call_begin/end), and the exiting thread took over the
   * trace's end while it was */
  volatile gint agent_in_vm;
  volatile gint exit_took_over;
  volatile gint finishing;      /* the trace's end is being written (once) */
  gint64    temp_tags;

  volatile guint64 next_id;     /* last object id given out (atomic) */
  volatile guint64 dropped;     /* atomic */
  TmAgentThread * volatile threads;  /* threads seen and not yet released, newest first */
  volatile gint n_threads_registered;
  volatile gint threads_registered_peak;
  volatile gint thread_states_after_end;   /* created after the thread's ThreadEnd */

  /* queue_lock */
  pthread_mutex_t queue_lock;
  TmAgentChunk *q_head, *q_tail;
  guint64   q_events;
  guint     q_gcn_floor;        /* GCs a caller saw started before its append */
  gboolean  q_first;            /* VMInit tags the heap: queue ahead of every ALLOC */
  GHashTable *types;            /* class tag -> TmAgentType* */
  GHashTable *methods;          /* jmethodID -> TmAgentMethod* */
  GHashTable *frames;           /* TmAgentFrameKey* -> id */
  GHashTable *sites;            /* TmAgentSiteKey* -> id */
  GHashTable *thread_tags;      /* thread object tag -> thread id */
  guint32   n_types, n_frames, n_sites, n_threads;

  /* GC callbacks */
  volatile gint gc_started;
  volatile gint gc_finished;
  /* GC whose graph is due: allocating threads wait until it is taken, so
   * the heap walked is the heap that GC left */
  volatile gint graph_gate;
  /* an OutOfMemoryError waits for the next GC's graph */
  volatile gint oom_graph_pending;
  pthread_mutex_t gate_lock;
  pthread_cond_t  gate_cond;
  TmAgentGc gcs[TM_AGENT_GC_RING];

  /* death_lock */
  pthread_mutex_t death_lock;
  GArray   *deaths;             /* TmAgentDeath */

  /* note_lock: GC notifications from the listener */
  pthread_mutex_t note_lock;
  GHashTable *notes;            /* "bean\nid" -> TmAgentGcNote* */

  /* writer_lock */
  pthread_mutex_t writer_lock;
  TmTraceWriter *writer;
  TmAgentChunk *w_head, *w_tail;  /* merged into stream order, not yet written */
  TmAgentChunk *p_head, *p_tail;  /* taken from the queue, not yet merged */
  GArray   *w_carry;              /* TmAgentAlloc taken but above the merge's watermark */
  guint64   w_merged_id;          /* ALLOCs up to this id are merged */
  guint     w_gcs_merged;         /* GC markers up to this one are merged */
  volatile guint64 w_last_id;
  gint64    w_safe_tick;          /* a TICK at this time keeps times monotonic */
  gint64    w_last_tick;
  guint     w_gcs_written;
  guint     w_gcs_matched;
  guint64   w_deaths;
  guint64   w_late_deaths;
  guint64   w_allocs;
  guint     w_graphs;
  guint     w_graphs_skipped;
  guint64   w_whole_heap_seen;    /* GC callbacks: whole-heap collections counted */
  /* graph spacing: written by the walker, read by the GC callbacks */
  volatile gint64 w_last_graph_end;
  volatile gint64 w_last_graph_cost;
  volatile gint64 w_walk_total_ns;
  gint64    w_walk_cpu_total_ns;      /* the process's CPU time during walks */
  gint64    w_walk_max_ns;
  volatile guint  w_graphs_taken;
  /* the agent thread's own collections (tm-agent-idle.c) */
  gint64    idle_last_forced;
  volatile gint idle_gcs;
  guint8   *w_dead;               /* bitmap over object ids */
  gsize     w_dead_len;
  GHashTable *w_spaces;           /* pool name -> space id */
  guint     w_n_spaces;
  guint     w_n_beans;
  char    **w_beans;
  guint64  *w_bean_counts;
  guint64  *w_bean_written;        /* the last collection written, per bean */
  /* the bean (index into w_beans, -1 none) of each perf collector; NULL
   * when pairs are matched by the beans' counts alone */
  gint     *w_perf_beans;
  const char *w_gc_matching;       /* how, for META gc_matching */
  char     *w_gc_family;           /* e.g. "G1" */
  jclass    helper;                /* global ref */
  jmethodID helper_counts;
  jmethodID helper_usage;
  char    **w_pool_names;          /* from the helper, in its order */
  guint     w_n_pools;
} TmAgent;

typedef struct {
  guint64 id;
  guint32 gc;   /* gc_finished when the free was posted */
} TmAgentDeath;

extern TmAgent tm_agent;

static inline gint64
tm_agent_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec - tm_agent.start_mono_ns;
}

/* Queue (tm-agent-queue.c); *_locked need queue_lock. */
TmAgentEvent *tm_agent_queue_push_locked (void);
void          tm_agent_queue_sync_gcs_locked (guint gc_started);
void          tm_agent_event_clear (TmAgentEvent *ev);
/* An allocating thread's next ALLOC slot; needs t->buf_lock. */
TmAgentAlloc *tm_agent_thread_push_locked (TmAgentThread *t);
/* Writer: takes the thread buffers and the queue and appends what is
 * complete to w_head..w_tail in stream order, GC markers included. */
void          tm_agent_queue_merge (void);

/* Definitions (tm-agent-defs.c); need queue_lock. */
TmAgentThread *tm_agent_thread_get (jvmtiEnv *jvmti, gboolean create);
/* At ThreadEnd: hands the thread's state to the writer to free. */
void           tm_agent_thread_end (jvmtiEnv *jvmti, JNIEnv *jni);
guint32  tm_agent_thread_define_locked (jvmtiEnv *jvmti, TmAgentThread *t, jthread thread);
guint32  tm_agent_type_locked  (jvmtiEnv *jvmti, jclass klass, jlong klass_tag, guint32 *flags);
guint32  tm_agent_type_for_tag_locked (jlong klass_tag, guint32 *flags);
guint32  tm_agent_site_locked  (jvmtiEnv *jvmti, const jvmtiFrameInfo *frames, jint depth);
/* The site through the thread's cache; takes queue_lock on a miss. */
guint32  tm_agent_site (jvmtiEnv *jvmti, TmAgentThread *t, const jvmtiFrameInfo *frames, jint depth);
void     tm_agent_defs_init (void);

/* GCs (tm-agent-gc.c) */
gboolean tm_agent_gc_install (jvmtiEnv *jvmti, JNIEnv *jni, char **error);
void JNICALL tm_agent_on_gc_start  (jvmtiEnv *jvmti);
void JNICALL tm_agent_on_gc_finish (jvmtiEnv *jvmti);
void     tm_agent_gc_match (JNIEnv *jni, guint upto);
void     tm_agent_gc_reset_counts (JNIEnv *jni);
gboolean tm_agent_gc_ready (guint n, gboolean final);
void     tm_agent_gc_write (JNIEnv *jni, guint n);
void     tm_agent_gc_write_spaces (void);
gint64   tm_agent_cpu_ns (void);    /* the process's CPU time */

/* META jvm.NAME: the flags GC analysis needs (tm-agent-flags.c), once
 * per run; needs writer_lock and the helper class. */
void     tm_agent_flags_write (JNIEnv *jni);

/* Around the agent thread's JVM calls that may wait for a safepoint (heap
 * walks, forced GCs, Java methods): at an exit from inside the VM they
 * never return, and the exiting thread ends the trace instead; a call
 * that does return then waits here until the process is gone. */
void     tm_agent_vm_call_begin (void);
void     tm_agent_vm_call_end   (void);

/* The JVM's own GC counters (tm-agent-perfdata.c); the reads are safe
 * at a safepoint. */
void     tm_agent_perfdata_open (JNIEnv *jni);
guint    tm_agent_perfdata_collectors (void);
const char *tm_agent_perfdata_collector_name (guint i);
void     tm_agent_perfdata_read (guint64 *inv);
guint64  tm_agent_perfdata_whole_heap_gcs (void);
void     tm_agent_perfdata_cause (char *out, gsize size);
gboolean tm_agent_graph_affordable (gint64 now);
void     tm_agent_idle_gc_maybe (jvmtiEnv *jvmti);

/* Graphs (tm-agent-graph.c) */
TmAgentGraph *tm_agent_graph_take  (jvmtiEnv *jvmti, guint64 last_id);
void          tm_agent_graph_gate_wait  (void);
void          tm_agent_graph_gate_serve (void);
/* Writes the graph of GC gc_id, or GRAPH_FAILED (then FALSE); with
 * final_deaths, also the deaths of every recorded object it did not reach. */
gboolean      tm_agent_graph_write (TmAgentGraph *g, guint gc_id, gboolean final_deaths);
void          tm_agent_graph_free  (TmAgentGraph *g);

/* Writer side (tm-agent-writer.c); need writer_lock. */
void     tm_agent_pump (JNIEnv *jni, gboolean final);
void     tm_agent_write_deaths_upto (guint gc_id, gboolean all);
void     tm_agent_write_status (void);
gboolean tm_agent_is_dead (guint64 id);
void     tm_agent_mark_dead (guint64 id);

static inline jlong
tm_agent_temp_tag (void)
{
  return TM_AGENT_TEMP_TAG | (jlong) __atomic_add_fetch (&tm_agent.temp_tags, 1, __ATOMIC_RELAXED);
}

/* Transactions (tm-agent-tx.c): no-ops unless the transaction option is set. */
void     tm_agent_tx_add_capabilities (jvmtiCapabilities *caps);
void     tm_agent_tx_set_callbacks    (jvmtiEventCallbacks *cb);
void     tm_agent_tx_start            (jvmtiEnv *jvmti, JNIEnv *jni);
void     tm_agent_tx_write_kinds      (TmTraceWriter *w);
void     tm_agent_tx_write            (TmTraceWriter *w, const TmAgentEvent *ev);

/* Container operations (tm-agent-containers.c): no-ops unless the
 * containers option is set. */
void     tm_agent_containers_add_capabilities (jvmtiCapabilities *caps);
void     tm_agent_containers_set_callbacks    (jvmtiEventCallbacks *cb);
void     tm_agent_containers_start            (jvmtiEnv *jvmti, JNIEnv *jni);
void     tm_agent_containers_write_meta       (TmTraceWriter *w);

G_END_DECLS
