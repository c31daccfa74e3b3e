/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Classifiers and classification trees of a heap state (TmHeapAnalysis).
 *
 * A classifier maps an object to a key in a small dense domain (a type
 * index, a frame index, a thread index, a GC count...).  A chain of
 * classifiers groups the heap's items into a tree: level 1 by the first
 * classifier, each group's children by the next one, and so on.  The root
 * is "Overall".  Per node: objects and bytes always; deep and retained
 * sizes on demand (tm_class_tree_compute_metrics), since they cost a
 * closure over the graph each.
 *
 * Levels other than the built-in classifiers (the data-structure ones,
 * `leaves`, `deep-leaves`, `containing-ds` of cli.md, which need detection
 * results and may put one object into several groups or none) come as a
 * TmClassLevel with their own callbacks: tm_class_tree_new_for_levels().
 */
#pragma once

#include "tm-heap-analysis.h"

G_BEGIN_DECLS

/* Every classifier a user can pick, in one numbering (also the order of
 * the app's menus).  The first ones give a key per object from the trace
 * alone (tm-classify.c); the last ones need the heap state's reference
 * graph and come as levels of their own (tm-classify-chain.h). */
typedef enum {
  TM_CLASSIFIER_TYPE,
  TM_CLASSIFIER_PACKAGE,     /* its type's package ("java.util" for java.util.HashMap$Node[]) */
  TM_CLASSIFIER_SITE,        /* allocating method and line (innermost frame) */
  TM_CLASSIFIER_CALL_SITE,   /* its caller: frame 1 of the site */
  TM_CLASSIFIER_THREAD,
  TM_CLASSIFIER_SPACE,
  TM_CLASSIFIER_AGE,         /* GCs survived: gc_id - birth GC */
  TM_CLASSIFIER_TRANSACTION, /* the kind of transaction that allocated it (record --transaction) */
  TM_CLASSIFIER_LEAVES,        /* data-structure leaves (tm-ds-classify.h) */
  TM_CLASSIFIER_DEEP_LEAVES,
  TM_CLASSIFIER_CONTAINING_DS,
  TM_CLASSIFIER_ROOT_PATH,     /* the start of the objects' paths from the GC roots */
  TM_N_CLASSIFIERS,
  /* TmClassLevel.classifier of a level that is none of the above */
  TM_CLASSIFIER_NONE = TM_N_CLASSIFIERS
} TmClassifier;

/* The per-object classifiers are those before TM_CLASSIFIER_LEAVES. */
#define TM_N_OBJECT_CLASSIFIERS TM_CLASSIFIER_LEAVES

static inline gboolean
tm_classifier_is_per_object (TmClassifier c)
{
  return (guint) c < (guint) TM_N_OBJECT_CLASSIFIERS;
}

#define TM_CLASSIFY_MAX_DEPTH 8

/* Names (and titles) of every classifier are in one registry:
 * tm-classify-chain.h.  These accept the per-object ones only. */
const char *tm_classifier_to_string   (TmClassifier c);
gboolean    tm_classifier_from_string (const char *name, TmClassifier *out);
/* tm_classify_chain_parse, refusing the classifiers that need a graph. */
gboolean    tm_classifier_chain_parse (const char    *list,
                                       TmClassifier  *chain,
                                       guint         *depth,
                                       GError       **error);

/* Keys are < tm_classifier_domain ().  Per-object classifiers only. */
guint32     tm_classifier_domain      (TmClassifier c, const TmTrace *trace, guint32 gc_id);
guint32     tm_classifier_key         (TmClassifier c, const TmTrace *trace, guint32 gc_id, guint32 object_index);
/* Display label of a key, owned by the caller. */
char       *tm_classifier_key_label   (TmClassifier c, const TmTrace *trace, guint32 key);

/* Fills keys[i] = key of objects[i] (the fast path of classification). */
void        tm_classifier_keys        (TmClassifier c, const TmTrace *trace, guint32 gc_id,
                                       const guint32 *objects, guint32 n, guint32 *keys);
/* The same for short-lived counters (per-object classifiers only: type,
 * site, call-site, thread, transaction; the others give 0). */
void        tm_classifier_keys_short_lived (TmClassifier c, const TmTrace *trace,
                                            const TmShortLived *entries, guint32 n, guint32 *keys);

#define TM_CLASS_NODE_NONE G_MAXUINT32

typedef struct {
  guint32  key;            /* classifier key at this level; 0 for the root */
  guint32  parent;         /* node index, TM_CLASS_NODE_NONE for the root */
  guint32  level;          /* 0 = Overall; level L was grouped by chain[L-1] */
  guint32  first_child;    /* children are contiguous node indices */
  guint32  n_children;
  guint32  first;          /* members: tree->members[first .. first + count) */
  guint32  count;
  gboolean has_metrics;    /* deep/retained filled in */
  TmGroupMetrics m;        /* objects/bytes always valid */
} TmClassNode;

/* One level of a classification tree.  A level gives either `keys`
 * (exactly one key per item) or `pairs` (any number of keys per item,
 * including none); `items` NULL means every item of the heap, in order.
 * Keys must be < domain (larger ones go to key 0). */
typedef struct _TmClassLevel TmClassLevel;

struct _TmClassLevel {
  const char     *name;
  TmClassifier    classifier;   /* TM_CLASSIFIER_NONE for a level of its own */
  gpointer        data;
  GDestroyNotify  data_free;    /* called when the tree is freed */
  guint32       (*domain) (const TmClassLevel *level, TmHeapAnalysis *heap);
  void          (*keys)   (const TmClassLevel *level, TmHeapAnalysis *heap,
                           const guint32 *items, guint32 n, guint32 *keys);
  void          (*pairs)  (const TmClassLevel *level, TmHeapAnalysis *heap,
                           const guint32 *items, guint32 n, GArray *keys, GArray *out_items);
  char         *(*label)  (const TmClassLevel *level, TmHeapAnalysis *heap, guint32 key);
};

/* A per-object classifier as a level. */
void         tm_class_level_init_builtin    (TmClassLevel *level, TmClassifier c);

typedef struct _TmClassTree TmClassTree;

struct _TmClassTree {
  /*< private >*/
  gint            ref_count;
  GMutex          lock;
  /*< public, read-only >*/
  TmHeapAnalysis *heap;
  TmClassifier    chain[TM_CLASSIFY_MAX_DEPTH];   /* the levels' classifiers */
  TmClassLevel    levels[TM_CLASSIFY_MAX_DEPTH];
  guint           depth;
  GArray         *nodes;    /* TmClassNode; 0 is the root */
  guint32        *members;  /* heap items, grouped (an item may repeat
                             * after a `pairs` level) */
  gsize           n_members;
};

/* Builds the whole tree (shallow metrics).  Children of each node are in
 * descending order of bytes. */
TmClassTree *tm_class_tree_new              (TmHeapAnalysis     *heap,
                                             const TmClassifier *chain,
                                             guint               depth,
                                             GCancellable       *cancellable,
                                             GError            **error);
/* The same with any levels; takes ownership of every level's data, also
 * on error. */
TmClassTree *tm_class_tree_new_for_levels   (TmHeapAnalysis     *heap,
                                             const TmClassLevel *levels,
                                             guint               depth,
                                             GCancellable       *cancellable,
                                             GError            **error);
TmClassTree *tm_class_tree_ref              (TmClassTree *tree);
void         tm_class_tree_unref            (TmClassTree *tree);

static inline const TmClassNode *
tm_class_tree_node (const TmClassTree *tree, guint32 index)
{
  return &g_array_index (tree->nodes, TmClassNode, index);
}

/* Label of a node ("Overall" for the root), owned by the caller. */
char        *tm_class_tree_node_label       (TmClassTree *tree, guint32 index);

/* Deep and retained sizes of one node's group (cached).  Needs the graph
 * (TM_ERROR_NO_GRAPH).  Thread-safe. */
gboolean     tm_class_tree_compute_metrics  (TmClassTree   *tree,
                                             guint32        index,
                                             GCancellable  *cancellable,
                                             GError       **error);

/* Copies a node's metrics; FALSE (shallow ones only) while its deep and
 * retained sizes are not computed yet.  Safe while another thread
 * computes them. */
gboolean     tm_class_tree_get_metrics      (TmClassTree    *tree,
                                             guint32         index,
                                             TmGroupMetrics *out);

/* Every node, level by level, with progress; for a worker thread. */
gboolean     tm_class_tree_compute_all      (TmClassTree    *tree,
                                             TmProgressFunc  progress,
                                             gpointer        progress_data,
                                             GCancellable   *cancellable,
                                             GError        **error);

/* The child of `parent` whose label is `label`, or TM_CLASS_NODE_NONE. */
guint32      tm_class_tree_find_child       (TmClassTree *tree, guint32 parent, const char *label);

/* Group label paths, "A/B" (a group and one of its children): split at
 * the slashes, where "\/" is a slash inside a label (thread names may
 * hold one) and "\\" a backslash.  Returns the labels (char*). */
GPtrArray   *tm_class_path_split            (const char  *path);
/* The node a label path names below the root, or TM_CLASS_NODE_NONE. */
guint32      tm_class_tree_find_path        (TmClassTree *tree, const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmClassTree, tm_class_tree_unref)

G_END_DECLS
