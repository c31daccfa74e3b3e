/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Root paths: how each object of a heap is reached from the GC roots, as
 * a key that names the same place in another heap state of the same
 * program.  Heap dumps lose object identity between dumps (objects move),
 * so the data-structure growth analysis matches structures across dumps
 * by these keys.
 *
 * A key is the shortest path from a root (breadth-first, static-field
 * roots first, then the others in the dump's order): the root's name (a
 * static field "pkg.Class.field") or its kind and type, then per step the
 * field name and the target's type.  Array element indices are left out
 * ("[]"): they change as tables grow.  Keys need field names, so only
 * graphs that have them (heap dumps) get keys.
 */
#pragma once

#include "tm-heap-graph.h"

G_BEGIN_DECLS

typedef struct _TmRootPaths TmRootPaths;

/* NULL when the graph has no field names.  obj_type: type index per
 * object index (trace->obj_type). */
TmRootPaths *tm_root_paths_new  (const TmHeapGraph *graph, const TmTrace *trace);
/* The same for any graph (keys then name fields "?"). */
TmRootPaths *tm_root_paths_build (const TmHeapGraph *graph, const TmTrace *trace);
/* The key of a reachable node, or NULL if no root reaches it. */
char        *tm_root_paths_key  (const TmRootPaths *paths, guint32 node);
/* The first hop of a reachable node's path: the root entry (index into
 * graph->root_*) and the edge from the root's object, G_MAXUINT64 when
 * the node is the root's object itself.  FALSE if no root reaches it. */
gboolean     tm_root_paths_first_step (const TmRootPaths *paths, guint32 node,
                                       guint32 *root_entry, guint64 *edge);
void         tm_root_paths_free (TmRootPaths *paths);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmRootPaths, tm_root_paths_free)

G_END_DECLS
