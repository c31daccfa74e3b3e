/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The root-path classifier (`root-path`): groups the objects of a heap
 * state by where their shortest path from the GC roots starts, as Eclipse
 * MAT's "merge shortest paths to GC roots" does: the root (a static field
 * by its name, "pkg.Holder.cache"; other roots by kind and the type of
 * the root's object, "(thread stack) java.lang.Thread"), then the first
 * reference from the root's object by its field name, as Java writes the
 * access ("pkg.Holder.cache.table", "pkg.Holder.all[]" for any array
 * element), when the graph has field names (heap dumps; else the root
 * alone).  The
 * root's object itself is the group of the root alone.  Paths are those
 * of tm-root-paths.h (static-field roots first), so a group names the
 * same place in every heap state of a program: trend and heap-diff match
 * its groups by label.
 */
#pragma once

#include "tm-classify.h"

G_BEGIN_DECLS

/* The label of objects no root reaches. */
#define TM_ROOT_CLASSIFY_UNREACHED "(not reached from a GC root)"

/* Fills `level` for `heap`; TM_ERROR_NO_GRAPH without a reference graph. */
gboolean tm_root_classify_level (TmHeapAnalysis *heap,
                                 TmClassLevel   *level,
                                 GCancellable   *cancellable,
                                 GError        **error);

G_END_DECLS
