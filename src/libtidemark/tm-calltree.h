/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Call trees of allocation costs, in heaptrack's terms: a TmCallProfile
 * holds call stacks (innermost frame first) with their costs; from it come
 * the bottom-up tree (allocating functions at the roots), the top-down tree
 * (entry points at the roots) and the caller/callee table per function.
 *
 * A symbol is a function in a module (heaptrack's Symbol): frames of the
 * same function at different lines merge into one node, which keeps the
 * file:line of the first frame merged into it.  Inclusive costs count a
 * function once per stack even when it recurses; self costs belong to the
 * innermost frame (heaptrack_gui's rules, gui/parser.cpp).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TM_COST_ALLOCATIONS = 0,   /* calls to allocation functions */
  TM_COST_TEMPORARY,         /* allocations freed right away */
  TM_COST_PEAK,              /* bytes live at the time of the peak */
  TM_COST_LEAKED,            /* bytes never freed */
  TM_COST_ALLOCATED,         /* bytes allocated in total */
  TM_N_COSTS
} TmCostKind;

typedef struct {
  gint64 v[TM_N_COSTS];
} TmCost;

/* "allocations", "temporary", "peak", "leaked", "allocated" */
const char *tm_cost_kind_to_string   (TmCostKind kind);
gboolean    tm_cost_kind_from_string (const char *name, TmCostKind *kind);
/* TRUE for costs in bytes (peak, leaked, allocated). */
gboolean    tm_cost_kind_is_bytes    (TmCostKind kind);
/* A human label: "Allocations", "Peak", ... */
const char *tm_cost_kind_label       (TmCostKind kind);
void        tm_cost_add              (TmCost *to, const TmCost *c);

typedef struct {
  const char *function;   /* never NULL; an unresolved frame is its address "0x..." */
  const char *module;     /* path of the binary, "" unknown */
  const char *file;       /* of the first frame seen, "" unknown */
  gint32      line;       /* -1 unknown */
  gboolean    resolved;   /* FALSE: function is an address */
} TmCallSymbol;

/* One frame of a stack passed to tm_call_profile_add_stack(). */
typedef struct {
  guint32     symbol;     /* from tm_call_profile_symbol() */
  const char *file;       /* NULL or "" unknown */
  gint32      line;
} TmCallFrame;

typedef struct _TmCallProfile TmCallProfile;

TmCallProfile *tm_call_profile_new     (void);
TmCallProfile *tm_call_profile_ref     (TmCallProfile *profile);
void           tm_call_profile_unref   (TmCallProfile *profile);

/* Interns a symbol; returns its index (0-based). */
guint32        tm_call_profile_symbol  (TmCallProfile *profile,
                                        const char    *function,
                                        const char    *module,
                                        gboolean       resolved);
/* Adds the cost of a call stack, innermost frame first (depth may be 0:
 * cost with no known stack).  Stacks with the same frames add up. */
void           tm_call_profile_add_stack (TmCallProfile     *profile,
                                          const TmCallFrame *frames,
                                          guint              depth,
                                          const TmCost      *cost);

guint               tm_call_profile_n_symbols (const TmCallProfile *profile);
const TmCallSymbol *tm_call_profile_get_symbol (const TmCallProfile *profile, guint32 symbol);
/* Sum over all stacks. */
const TmCost       *tm_call_profile_total     (const TmCallProfile *profile);
/* "function", or "function (module)" for an unresolved frame. */
char               *tm_call_symbol_label      (const TmCallSymbol *symbol);
/* "file:line", "file", or the module's base name; "" if nothing known. */
char               *tm_call_symbol_location   (const TmCallSymbol *symbol);

/* ---- trees ---- */

typedef enum {
  TM_CALL_TREE_BOTTOM_UP,   /* roots: the functions that allocate */
  TM_CALL_TREE_TOP_DOWN,    /* roots: the outermost frames */
} TmCallTreeKind;

#define TM_CALL_NO_NODE G_MAXUINT32

/* Node 0 is the root: all costs, no symbol.  Children of a node are
 * contiguous, sorted by symbol index (sort them for display yourself). */
typedef struct {
  guint32     symbol;        /* TM_CALL_NO_NODE for the root */
  guint32     parent;        /* TM_CALL_NO_NODE for the root */
  guint32     first_child;   /* index of the first child */
  guint32     n_children;
  const char *file;          /* where this frame was, of the first stack merged here */
  gint32      line;
  TmCost      cost;          /* inclusive: every stack through this node */
  TmCost      self;          /* stacks that end here */
} TmCallNode;

typedef struct _TmCallTree TmCallTree;

/* The hash of the trees' indices: a pair of 32-bit indices packed in a
 * guint64 (GHashTable's g_int64_hash folds them with XOR, and all pairs
 * of the same XOR collide). */
guint             tm_call_pair_hash       (gconstpointer key);
TmCallTree       *tm_call_tree_new        (TmCallProfile *profile, TmCallTreeKind kind);
void              tm_call_tree_free       (TmCallTree *tree);
TmCallTreeKind    tm_call_tree_kind       (const TmCallTree *tree);
TmCallProfile    *tm_call_tree_profile    (const TmCallTree *tree);
guint             tm_call_tree_n_nodes    (const TmCallTree *tree);
const TmCallNode *tm_call_tree_node       (const TmCallTree *tree, guint32 node);
/* The node's frames from the root down to it (innermost last for a
 * top-down tree); returns the number written, at most max. */
guint             tm_call_tree_path       (const TmCallTree *tree, guint32 node, guint32 *out, guint max);

/* The node's children, largest `kind` first (ties by index), into `out`
 * (room for n_children); returns n_children. */
guint             tm_call_tree_sorted_children (const TmCallTree *tree, guint32 node, TmCostKind kind,
                                                guint32 *out);

/* ---- caller/callee ---- */

typedef struct {
  guint32 symbol;
  TmCost  cost;
} TmCallEdge;

typedef struct {
  guint32     symbol;
  TmCost      inclusive;    /* once per stack */
  TmCost      self;         /* stacks whose innermost frame this is */
  TmCallEdge *callers;      /* functions that called it, with the cost through them */
  guint       n_callers;
  TmCallEdge *callees;      /* functions it called */
  guint       n_callees;
} TmCallFunction;

typedef struct _TmCallerCallee TmCallerCallee;

TmCallerCallee       *tm_caller_callee_new        (TmCallProfile *profile);
void                  tm_caller_callee_free       (TmCallerCallee *cc);
guint                 tm_caller_callee_n_functions (const TmCallerCallee *cc);
/* Functions in symbol order; a function that appears in no stack has zero costs. */
const TmCallFunction *tm_caller_callee_function   (const TmCallerCallee *cc, guint32 symbol);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmCallProfile, tm_call_profile_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmCallTree, tm_call_tree_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmCallerCallee, tm_caller_callee_free)

G_END_DECLS
