/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmTrace: the immutable in-memory model of one recording, built in one
 * pass by TmTraceBuilder (from a .tmtrace file, a GC log or a heaptrack
 * file).  Fields are public for reading; nothing may change them after
 * tm_trace_builder_finish().
 *
 * Objects are kept struct-of-arrays, indexed by their position in
 * allocation order ("object index", 0-based).  Object ids from the file
 * are translated with tm_trace_object_index_for_id().
 */
#pragma once

#include <glib.h>
#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  TM_GC_KIND_UNKNOWN    = 0,
  TM_GC_KIND_MINOR      = 1,
  TM_GC_KIND_MAJOR      = 2,
  TM_GC_KIND_MIXED      = 3,
  TM_GC_KIND_CONCURRENT = 4,
} TmGcKind;

typedef enum {
  TM_SPACE_KIND_OTHER     = 0,
  TM_SPACE_KIND_YOUNG     = 1,
  TM_SPACE_KIND_SURVIVOR  = 2,
  TM_SPACE_KIND_OLD       = 3,
  TM_SPACE_KIND_HUMONGOUS = 4,
  TM_SPACE_KIND_NON_HEAP  = 5,
} TmSpaceKind;

typedef enum {
  TM_ROOT_KIND_OTHER        = 0,
  TM_ROOT_KIND_STATIC       = 1,
  TM_ROOT_KIND_THREAD_STACK = 2,
  TM_ROOT_KIND_JNI_GLOBAL   = 3,
  TM_ROOT_KIND_JNI_LOCAL    = 4,
  TM_ROOT_KIND_MONITOR      = 5,
  TM_ROOT_KIND_SYSTEM_CLASS = 6,
  TM_ROOT_KIND_OTHER7       = 7,
} TmRootKind;

/* OutOfMemoryError kinds (OOM record) */
typedef enum {
  TM_OOM_OTHER     = 0,
  TM_OOM_JAVA_HEAP = 1,
  TM_OOM_METASPACE = 2,   /* metaspace or class space */
  TM_OOM_THREADS   = 3,   /* unable to create a native thread */
} TmOomKind;

/* When a graph was taken (GRAPH_CONTEXT record) */
typedef enum {
  TM_GRAPH_AT_GC       = 0,  /* right after its GC, while the program ran */
  TM_GRAPH_AT_OOM      = 1,  /* as an OutOfMemoryError was thrown: the heap at the error */
  TM_GRAPH_POST_MORTEM = 2,  /* after the program's main thread had ended: not its working state */
} TmGraphContext;

/* HEADER flags */
#define TM_TRACE_FLAG_GRAPHS       (1u << 0)
#define TM_TRACE_FLAG_DEATHS       (1u << 1)
#define TM_TRACE_FLAG_OBJECT_SPACE (1u << 2)

/* TYPE flags */
#define TM_TYPE_FLAG_REF_ARRAY  (1u << 0)
#define TM_TYPE_FLAG_PRIM_ARRAY (1u << 1)

/* Index 0 of every definition table is the "unknown" entry (id 0). */
#define TM_UNKNOWN 0u

/* death_gc value of an object that never died */
#define TM_ALIVE 0u

/* Sizes >= this are stored in the overflow table (see tm_trace_object_size) */
#define TM_SIZE_OVERFLOW G_MAXUINT32

typedef struct {
  guint64  id;            /* id in the file; 0 for the "unknown" entry */
  TmSpaceKind kind;
  char    *name;
} TmSpace;

typedef struct {
  guint64  id;
  char    *name;          /* Java binary name with dots, arrays as "T[]" */
  guint32  flags;         /* TM_TYPE_FLAG_* */
  guint32  super;         /* type index of the superclass; TM_UNKNOWN if none or not recorded */
  guint32  n_interfaces;
  guint32 *interfaces;    /* type indices of the directly implemented interfaces */
} TmType;

typedef struct {
  guint64  id;
  char    *method;        /* package.Class.method(Params) */
  char    *file;          /* may be "" */
  gint32   line;          /* -1 unknown */
} TmFrame;

typedef struct {
  guint64  id;
  guint32  depth;
  guint32 *frames;        /* frame *indices*, innermost first */
} TmSite;

typedef struct {
  guint64  id;
  char    *name;
} TmThread;

/* Occupancy of one space at one GC (space is a space *index*). */
typedef struct {
  guint32  space;
  guint64  used_before;
  guint64  used_after;
  guint64  committed_after;
} TmSpaceUsage;

typedef struct {
  guint32     id;               /* 1-based GC number (index in gcs + 1) */
  TmGcKind    kind;
  gboolean    complete;         /* GC_END seen */
  guint64     start_ns;
  guint64     end_ns;
  guint64     pause_ns;
  const char *collector;        /* in the trace's string pool, never NULL */
  const char *cause;            /* in the trace's string pool, never NULL */
  guint64     used_before;      /* sum over heap spaces (kind != NON_HEAP) */
  guint64     used_after;
  guint64     committed_after;
  guint64     live_objects;     /* objects alive right after this GC */
  guint64     live_bytes;       /* their shallow bytes */
  guint64     allocs_before;    /* object rows allocated before GC_START (= first object index born after) */
  guint64     allocations_before; /* all allocations before GC_START, short-lived ones included */
  guint64     temporary_before; /* heaptrack's temporary allocations before GC_START (0 elsewhere) */
  guint32     usage_first;      /* index into TmTrace.space_usage */
  guint32     usage_count;
  gboolean    has_graph;        /* GRAPH_BEGIN..GRAPH_END complete */
  guint64     reachable_bytes;  /* valid when has_graph */
  guint64     reachable_objects;
  guint64     graph_frame_offset;  /* file offset of the zstd frame (or raw position) where the graph starts */
  guint64     graph_raw_skip;      /* raw bytes to skip from there to GRAPH_BEGIN */
  guint64     graph_file_offset;   /* for messages: compressed offset */
  TmGraphContext graph_context;    /* when the graph was taken (valid when has_graph) */
  gboolean    graph_failed;     /* a walk was attempted and failed: reachable memory unknown */
  const char *graph_failure;    /* reason (string pool) when graph_failed, else NULL */
} TmGc;

typedef struct {
  guint64     time_ns;
  guint32     gc_before;        /* GCs completed before it */
  guint32     thread;           /* thread index, TM_UNKNOWN if unknown */
  TmOomKind   kind;
  const char *message;          /* never NULL */
} TmOomEvent;

/* A transaction kind: an operator-named method (TX_KIND). */
typedef struct {
  guint64  id;
  char    *name;          /* package.Class.method */
} TmTxKind;

/* One run of a transaction method on one thread (TRANSACTION), with the
 * objects that thread allocated while it ran. */
typedef struct {
  guint64  id;
  guint32  kind;          /* index into tx_kinds (0 = unknown) */
  guint32  thread;        /* thread index */
  guint64  begin_ns;
  guint64  end_ns;
  guint32  gcs_before_end;  /* GCs started before it ended */
  guint32  n_objects;
  guint64  first;         /* its objects: tx_objects[first .. first + n_objects) */
} TmTransaction;

/* Kinds of CONTAINER_OP (trace-format.md). */
typedef enum {
  TM_CONTAINER_OP_ADD = 1,
  TM_CONTAINER_OP_GET = 2,
  TM_CONTAINER_OP_REMOVE = 3,
  TM_CONTAINER_OP_ADD_OR_GET = 4,   /* a get if the element is in the container, else an add */
  TM_CONTAINER_OP_CLEAR = 5,        /* every element removed; element 0 */
} TmContainerOpKind;

/* One operation on a collection (CONTAINER_OP), in stream order (which
 * is time order).  Objects by trace id, not index: an element may be an
 * object without a row (it died young). */
typedef struct {
  guint64  time_ns;
  guint64  container;     /* object id */
  guint64  element;       /* object id, 0 for CLEAR */
  guint32  site;          /* site index of the caller */
  guint32  thread;        /* thread index */
  guint32  kind;          /* TmContainerOpKind */
} TmContainerOp;

typedef struct {
  guint64  offset;        /* byte offset in the file (compressed offset for zstd) */
  char    *message;       /* human readable, names the file */
} TmWarning;

/* Objects that died in the first GC after their birth (or, after the
 * last GC, before the end) are part of no heap state: the model keeps no
 * row for them, only these counters, one per birth interval and (type,
 * site, thread, size class, age-at-death bucket). */
typedef struct {
  guint32  type;          /* type index */
  guint32  site;          /* site index */
  guint32  thread;        /* thread index */
  guint32  count;         /* objects */
  guint64  bytes;         /* their shallow bytes */
  double   age_seconds;   /* sum of their estimated ages at death (tm_lifetime_birth_ns) */
  guint8   size_class;    /* TmSizeBucket index (tm_trace_size_class) */
  guint8   age_bucket;    /* TM_LIFETIME_TIME_BUCKETS index of the age at death */
} TmShortLived;

/* A GC log's concurrent work and stalls, beside its GCs (the pauses):
 * what ran while the program ran, and when threads waited for memory. */
typedef enum {
  TM_GC_PHASE_CYCLE       = 0,  /* a whole concurrent cycle (G1 marking cycle, a ZGC or Shenandoah GC) */
  TM_GC_PHASE_CONCURRENT  = 1,  /* one concurrent phase of a cycle: the program runs alongside */
  TM_GC_PHASE_PAUSE       = 2,  /* a stop-the-world pause inside a ZGC or Shenandoah cycle */
  TM_GC_PHASE_DEGENERATED = 3,  /* Shenandoah gave up and finished the cycle stop-the-world */
  TM_GC_PHASE_FULL        = 4,  /* a full stop-the-world GC of a concurrent collector */
  TM_GC_PHASE_STALL       = 5,  /* ZGC: a thread waited for memory (allocation or relocation stall) */
  TM_GC_PHASE_N_KINDS
} TmGcPhaseKind;

typedef struct {
  guint64       start_ns;
  guint64       end_ns;
  TmGcPhaseKind kind;
  guint32       depth;      /* 0: top level; 1: inside another phase of its cycle (G1 "Mark From Roots") */
  gint64        jvm_gc_id;  /* GC(n) as logged; -1 when the log gives none */
  const char   *name;       /* string pool: "Concurrent Mark", "Allocation Stall" */
  const char   *detail;     /* string pool, never NULL: the stalled thread, or "" */
} TmGcPhase;

/* The survivors of one young GC by age (GCs survived), as a GC log with
 * -Xlog:gc+age=trace (JDK 9+) or -XX:+PrintTenuringDistribution prints
 * them, with the tenuring threshold printed beside them. */
#define TM_GC_MAX_AGE 15
typedef struct {
  guint32  gc;                        /* TmGc id */
  guint8   threshold;                 /* "new threshold" / "Age table with threshold" */
  guint8   max_threshold;             /* MaxTenuringThreshold */
  guint64  desired_survivor;          /* bytes: what the survivor space may hold; 0 if not logged */
  guint64  bytes[TM_GC_MAX_AGE + 1];  /* by age; [0] unused */
} TmGcAges;

typedef struct _TmTrace TmTrace;

/* 64 allocation numbers: the rows of the numbers below them, and a bit
 * per number that has a row (12 bytes: 0.19 bytes per allocation). */
typedef struct {
  guint32 rows_before;
  guint32 bits[2];
} TmSeqBlock;

struct _TmTrace {
  /*< private >*/
  gint       ref_count;

  /*< public, read-only >*/
  char      *path;              /* file it was read from (may be NULL) */
  char      *format;            /* "tmtrace", "gc-log", "heaptrack", ... */

  /* HEADER */
  guint32    format_version;
  guint64    start_unix_ns;
  char      *vm_name;
  char      *vm_version;
  char      *command_line;
  guint32    pointer_size;
  guint64    alloc_sample_bytes;
  guint32    flags;             /* TM_TRACE_FLAG_* */
  GHashTable *meta;             /* char* -> char* */

  /* Definition tables; entry 0 is "unknown". */
  GArray    *spaces;            /* TmSpace */
  GArray    *types;             /* TmType */
  GArray    *frames;            /* TmFrame */
  GArray    *sites;             /* TmSite */
  GArray    *threads;           /* TmThread */
  GArray    *oom_events;        /* TmOomEvent, in time order */
  GArray    *tx_kinds;          /* TmTxKind; entry 0 is "unknown" */
  GArray    *transactions;      /* TmTransaction, in stream order */
  GArray    *tx_objects;        /* guint32 object indices, sliced per transaction */
  guint32   *obj_tx;            /* object -> transaction kind index, NULL without transactions */
  GArray    *container_ops;     /* TmContainerOp, in stream order */

  /* Timeline */
  GArray    *gcs;               /* TmGc, gcs[i].id == i + 1 */
  GArray    *space_usage;       /* TmSpaceUsage, slices per GC */
  guint64    duration_ns;       /* last time seen (END, GC_END or TICK) */
  GArray    *gc_phases;         /* TmGcPhase in start order; only GC logs have them */
  GArray    *gc_ages;           /* TmGcAges by GC id, NULL unless a GC log printed age tables */

  /* Objects, struct-of-arrays, length n_objects */
  guint64    n_objects;
  guint32   *obj_type;          /* type index */
  guint32   *obj_site;          /* site index */
  guint32   *obj_thread;        /* thread index */
  guint32   *obj_size;          /* bytes; TM_SIZE_OVERFLOW -> see size_overflow */
  guint32   *obj_death;         /* GC id the object died in (or before), TM_ALIVE if never */
  guint8    *obj_space;         /* space index at allocation, or NULL when spaces are not recorded */
  GArray    *space_moves;       /* TmSpaceMove by allocation number, then GC; NULL without MOVES */
  guint64   *obj_ids;           /* NULL when ids are dense: id = first_id + seq */
  guint64    first_id;
  GHashTable *size_overflow;    /* object index -> guint64* size */
  GHashTable *id_index;         /* id -> index+1, only when ids are not ascending */

  /* Short-lived objects (no rows): TmShortLived grouped by birth
   * interval b (objects allocated after b GC_STARTs): entries
   * [short_lived_first[b], short_lived_first[b + 1]); the array has
   * n_gcs + 2 entries. */
  GArray    *short_lived;       /* TmShortLived */
  GArray    *short_lived_first; /* guint64 */
  /*< private >*/
  /* Rows and allocation numbers (0-based, short-lived ones counted):
   * from dense_row on, row dense_row + k is number dense_seq + k; below,
   * seq_blocks[seq / 64] says which of its 64 numbers have a row and how
   * many rows come before them (number -> row: one popcount), and
   * row_blocks[row / 64] is the block of row row / 64 * 64 (row ->
   * number: a short walk).  Without folding both are 0: row = number. */
  guint64    dense_seq, dense_row;
  TmSeqBlock *seq_blocks;
  guint64    n_seq_blocks;
  guint32   *row_blocks;
  guint64    n_row_blocks;

  /* Totals */
  guint64    total_allocs;
  guint64    total_alloc_bytes;
  guint64    total_deaths;
  guint64    peak_used_bytes;   /* max used_before over GCs */
  guint      n_graphs;

  /* State of the read */
  gboolean   complete;          /* END seen, totals consistent, no damage */
  gboolean   has_end;
  guint64    stop_offset;       /* where reading stopped, if stopped */
  gboolean   stopped;           /* reading stopped early; else it reached the end
                                 * (an incomplete trace that is not stopped had
                                 * damaged parts that were skipped) */
  GArray    *warnings;          /* TmWarning */
  guint64    dropped_events;    /* from META "dropped_events" if present */
  GBytes    *source_bytes;      /* for traces loaded from memory: graphs are re-read from here */
  guint64    n_warnings_total;  /* problems found; only the first ones are kept in warnings */
  guint64    memory_limit;      /* budget the model was built under, bytes */
  gboolean   memory_limited;    /* reading stopped because the model reached it */

  /*< private >*/
  GStringChunk *strings;        /* string pool: GC causes, collector names; freed with the trace */
  GHashTable   *string_set;     /* its members, for deduplication */
};

TmTrace    *tm_trace_ref                 (TmTrace *trace);
void        tm_trace_unref               (TmTrace *trace);

static inline guint
tm_trace_n_gcs (const TmTrace *trace)
{
  return trace->gcs->len;
}

/* gc_id is 1-based, as in the file */
static inline const TmGc *
tm_trace_gc (const TmTrace *trace, guint gc_id)
{
  g_return_val_if_fail (gc_id >= 1 && gc_id <= trace->gcs->len, NULL);
  return &g_array_index (trace->gcs, TmGc, gc_id - 1);
}

static inline const TmType *
tm_trace_type (const TmTrace *trace, guint32 type_index)
{
  return &g_array_index (trace->types, TmType, type_index);
}

static inline const TmSite *
tm_trace_site (const TmTrace *trace, guint32 site_index)
{
  return &g_array_index (trace->sites, TmSite, site_index);
}

static inline const TmFrame *
tm_trace_frame (const TmTrace *trace, guint32 frame_index)
{
  return &g_array_index (trace->frames, TmFrame, frame_index);
}

static inline const TmThread *
tm_trace_thread (const TmTrace *trace, guint32 thread_index)
{
  return &g_array_index (trace->threads, TmThread, thread_index);
}

static inline const TmSpace *
tm_trace_space (const TmTrace *trace, guint32 space_index)
{
  return &g_array_index (trace->spaces, TmSpace, space_index);
}

static inline guint
tm_trace_n_oom_events (const TmTrace *trace)
{
  return trace->oom_events->len;
}

static inline const TmOomEvent *
tm_trace_oom_event (const TmTrace *trace, guint i)
{
  g_return_val_if_fail (i < trace->oom_events->len, NULL);
  return &g_array_index (trace->oom_events, TmOomEvent, i);
}

/* TRUE if type_index is ancestor_index or inherits from it (superclasses
 * and interfaces, as far as the trace records them). */
gboolean    tm_trace_type_is_a           (const TmTrace *trace, guint32 type_index, guint32 ancestor_index);
/* An HPROF file (or several): its heap states are dumps, not GCs, with no
 * pauses, and numbered in time order. */
gboolean    tm_trace_is_heap_dumps       (const TmTrace *trace);
/* The most the heap may hold, in bytes: -Xmx as the recorder (META
 * jvm.MaxHeapSize) or a GC log (gclog.max_heap) gives it, else the
 * largest committed heap after a GC; 0 when nothing says. */
double      tm_trace_heap_limit          (const TmTrace *trace);

guint64     tm_trace_object_size         (const TmTrace *trace, guint64 index);
guint64     tm_trace_object_id           (const TmTrace *trace, guint64 index);
/* Returns FALSE when no object has this id. */
gboolean    tm_trace_object_index_for_id (const TmTrace *trace, guint64 id, guint64 *index);
/* Number of GCs that had started before the object was allocated:
 * 0 = allocated before GC 1. */
guint32     tm_trace_object_birth_gc     (const TmTrace *trace, guint64 index);
/* TRUE if the object is part of the heap state after GC gc_id. */
gboolean    tm_trace_object_alive_after  (const TmTrace *trace, guint64 index, guint32 gc_id);
/* When GC gc_id ended (its start if it records no end); 0 for gc_id 0,
 * the trace start. */
guint64     tm_trace_gc_end_ns           (const TmTrace *trace, guint32 gc_id);
/* Object rows allocated before GC_START of gc_id (so candidates for heap state). */
guint64     tm_trace_allocs_before_gc    (const TmTrace *trace, guint32 gc_id);
/* All allocations before GC_START of gc_id, short-lived ones included
 * (total_allocs after the last GC). */
guint64     tm_trace_allocations_before_gc (const TmTrace *trace, guint32 gc_id);
guint64     tm_trace_folded_seq          (const TmTrace *trace, guint64 index);
/* One MOVES of one object: from GC gc on, it is in space (index). */
typedef struct
{
  guint32 seq;     /* allocation number */
  guint32 gc;      /* the GC that moved it (the last started one) */
  guint32 space;
} TmSpaceMove;
/* Space index of object row `index` in the heap after GC gc_id (its
 * allocation space, then its MOVES up to that GC); 0 if not recorded. */
guint32     tm_trace_object_space_at     (const TmTrace *trace, guint64 index, guint32 gc_id);
/* Allocation number of an object row (0-based, in allocation order). */
static inline guint64
tm_trace_object_seq (const TmTrace *trace, guint64 index)
{
  if (G_LIKELY (index >= trace->dense_row))
    return trace->dense_seq + (index - trace->dense_row);
  return tm_trace_folded_seq (trace, index);
}
/* The short-lived counters of the objects born in interval b (after b
 * GC_STARTs, before the next): *n entries. */
const TmShortLived *tm_trace_short_lived (const TmTrace *trace, guint32 b, gsize *n);
/* Size class of an allocation: index of the first bucket of
 * tm_trace_size_histogram whose max_size >= size. */
/* the buckets of tm_trace_size_histogram: up to 8, 16, ... 1024, more
 * (bucket b holds sizes up to 8 << b: one per power of two); inline: the
 * loader folds millions of short-lived objects */
static inline guint8
tm_trace_size_class (guint64 size)
{
  if (size <= 8)
    return 0;
  return (guint8) MIN (g_bit_storage (size - 1) - 3, 8);
}

const char *tm_gc_kind_to_string         (TmGcKind kind);
const char *tm_space_kind_to_string      (TmSpaceKind kind);
const char *tm_root_kind_to_string       (guint kind);
const char *tm_oom_kind_to_string        (TmOomKind kind);
const char *tm_graph_context_to_string   (TmGraphContext context);
/* "cycle", "concurrent", "pause", "degenerated", "full", "stall" */
const char *tm_gc_phase_kind_to_string   (TmGcPhaseKind kind);
/* Stop-the-world kinds: pause, degenerated, full. */
gboolean    tm_gc_phase_kind_is_pause    (TmGcPhaseKind kind);

/* Name of a site for display: "pkg.Class.method(Params):line" of its
 * innermost frame, or "(unknown site)". Returned string is owned by caller. */
char       *tm_trace_site_label          (const TmTrace *trace, guint32 site_index);

/* Memory used by the object arrays, in bytes (for the benchmark). */
gsize       tm_trace_object_memory       (const TmTrace *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmTrace, tm_trace_unref)

G_END_DECLS
