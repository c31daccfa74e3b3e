/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Data structure detection on a heap graph (shared/ds-dsl.md, after
 * Weninger et al., ICPE 2019) and what is derived from it: the
 * data-structure closure and deep data-structure closure, the
 * data-structure view, and the classifiers `leaves`, `deep-leaves` and
 * `containing-ds`.
 *
 * TmDsTypes is a TmDsl resolved against one type table (a trace's).  For
 * every pair (referencing type, referenced type) it answers which rule
 * applies, in constant time per type plus a binary search.
 *
 * Members of a structure (docs/data-structures.md):
 *   HEAD      the head object, always first
 *   INTERNAL  rule 2, and the descent continued from it
 *   LEAF      rule 3; or rule 2 for an object whose type has no pointed-to
 *             types (the descent stops there as well)
 *   NESTED    rule 1: the head of a nested structure
 * The data-structure closure is all members; the deep data-structure
 * closure adds the deep closures of the nested structures.  Leaves are
 * LEAF and NESTED members; deep leaves are the LEAF members of the
 * structure and of everything nested in it.
 */
#pragma once

#include "tm-dsl.h"
#include "tm-dominators.h"
#include "tm-heap-analysis.h"

G_BEGIN_DECLS

typedef enum {
  TM_DS_POINTEE_NONE     = 0,
  TM_DS_POINTEE_LEAF     = 1,
  TM_DS_POINTEE_INTERNAL = 2,
} TmDsPointeeKind;

typedef enum {
  TM_DS_MEMBER_HEAD     = 0,
  TM_DS_MEMBER_INTERNAL = 1,
  TM_DS_MEMBER_LEAF     = 2,
  TM_DS_MEMBER_NESTED   = 3,
} TmDsMemberKind;

typedef struct _TmDsTypes TmDsTypes;

/* type_flags (TM_TYPE_FLAG_*) may be NULL: arrays of references are then
 * recognised by name ("T[]" with T not a primitive). */
TmDsTypes      *tm_ds_types_new           (const TmDsl        *dsl,
                                           const char * const *type_names,
                                           const guint32      *type_flags,
                                           guint32             n_types);
/* The same with the class hierarchy: type_supers[i] is the type index of
 * i's superclass (G_MAXUINT32: none or unknown).  A type without a
 * description of its own takes its nearest described superclass's, and a
 * pointee naming a type also matches its subclasses (java.lang.Object
 * excepted: docs/data-structures.md). */
TmDsTypes      *tm_ds_types_new_with_supers (const TmDsl        *dsl,
                                             const char * const *type_names,
                                             const guint32      *type_flags,
                                             const guint32      *type_supers,
                                             guint32             n_types);
/* From a trace's types, with the hierarchy its TYPE records carry. */
TmDsTypes      *tm_ds_types_new_for_trace (const TmDsl        *dsl,
                                           const TmTrace      *trace);
void            tm_ds_types_free          (TmDsTypes          *types);
guint32         tm_ds_types_n_types       (const TmDsTypes    *types);
gboolean        tm_ds_types_is_head       (const TmDsTypes    *types,
                                           guint32             type);
/* Which pointee entry of `from` matches `to` (internal wins over leaf). */
TmDsPointeeKind tm_ds_types_pointee       (const TmDsTypes    *types,
                                           guint32             from,
                                           guint32             to);
/* TRUE if the descent continues from objects of this type. */
gboolean        tm_ds_types_has_pointees  (const TmDsTypes    *types,
                                           guint32             type);

/* What detection needs of a heap: the graph and, indexed by *object*
 * index (graph->node_object[n]), each object's type and size. */
typedef struct {
  const TmHeapGraph *graph;
  const guint32     *obj_type;
  TmObjectSizes      sizes;
} TmDsHeap;

typedef struct {
  guint64 objects;
  guint64 bytes;
} TmDsSize;

#define TM_DS_NONE G_MAXUINT32

typedef struct {
  /*< public, read-only >*/
  const TmHeapGraph *graph;        /* borrowed: must outlive the result */
  guint32   n_structures;
  guint32  *head;                  /* structure -> head node, ascending */
  guint64  *member_start;          /* n_structures + 1 */
  guint32  *members;               /* nodes; each structure's head first */
  guint8   *member_kind;           /* TmDsMemberKind */
  guint8   *top_level;             /* 1: shown in the data-structure view */
  guint32   n_top_level;
  TmDsSize *ds_size;               /* data-structure closure per structure */
  guint32  *node_type;             /* graph node -> type index */
  guint64  *node_size;             /* graph node -> bytes */
  guint8   *type_flags;            /* type -> TmDsTypes flags (private use) */
  /*< private >*/
  guint64  *containing_start;      /* node -> structures containing it (lazy) */
  guint32  *containing;
  guint32  *stamp;                 /* node -> epoch of the last closure (lazy) */
  guint32  *struct_stamp;          /* structure -> epoch */
  guint32   epoch;
  GMutex    lock;                  /* guards the lazy parts; closures serialize */
} TmDsResult;

/* Finds every structure: each object whose type is a head starts one;
 * the four rules of ds-dsl.md decide what belongs to it; each object is
 * visited at most once per structure. */
TmDsResult *tm_ds_detect              (const TmDsTypes  *types,
                                       const TmDsHeap   *heap,
                                       GCancellable     *cancellable,
                                       GError          **error);
void        tm_ds_result_free         (TmDsResult       *result);

/* The structure whose head is `node`, or TM_DS_NONE. */
guint32     tm_ds_result_find_head    (const TmDsResult *result,
                                       guint32           node);

/* Deep data-structure closure of structure s: its members and those of
 * every structure nested in it, transitively, each node once.  Appends
 * nodes to `nodes` (may be NULL) and returns the size.  The closure
 * functions share scratch space in the result and serialize on its lock. */
TmDsSize    tm_ds_result_deep_ds      (TmDsResult       *result,
                                       guint32           s,
                                       GArray           *nodes);
/* Transitive closure of the head over all references (the deep size),
 * except java.lang.Class objects, which are neither counted nor crossed:
 * through its class's statics every object would reach half the heap. */
TmDsSize    tm_ds_result_deep         (TmDsResult       *result,
                                       guint32           s,
                                       GArray           *nodes);

/* The data-structure view: the heads of the structures not contained in
 * another (guint32 nodes = heap analysis items, ascending); what `heap
 * --data-structures` classifies. */
void        tm_ds_result_view_heads   (const TmDsResult *result,
                                       GArray           *nodes);

/* Classifier `leaves`: the LEAF and NESTED members of s (guint32 nodes). */
void        tm_ds_result_leaves       (const TmDsResult *result,
                                       guint32           s,
                                       GArray           *nodes);
/* Classifier `deep-leaves`: the LEAF members of s and of every structure
 * nested in it, transitively, each node once. */
void        tm_ds_result_deep_leaves  (TmDsResult       *result,
                                       guint32           s,
                                       GArray           *nodes);
/* Classifier `containing-ds`: the structures that have `node` as a member
 * other than their head (guint32 structure indices, ascending).  The
 * first call builds an index (thread-safe). */
void        tm_ds_result_containing   (TmDsResult       *result,
                                       guint32           node,
                                       GArray           *structures);

/* Detection on a heap state of the heap analysis (items = graph nodes);
 * TM_ERROR_NO_GRAPH when that GC has no reference graph.  The result
 * borrows the analysis' graph: keep a reference to `heap` meanwhile. */
TmDsResult *tm_ds_detect_heap_analysis (TmHeapAnalysis *heap,
                                        const TmDsl    *dsl,
                                        GCancellable   *cancellable,
                                        GError        **error);

/* "java.util.HashMap @1234" (type and object id of the head), owned by
 * the caller: the key label of `containing-ds`. */
char       *tm_ds_result_structure_label (const TmDsResult *result,
                                          const TmTrace    *trace,
                                          guint32           s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmDsTypes, tm_ds_types_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmDsResult, tm_ds_result_free)

G_END_DECLS
