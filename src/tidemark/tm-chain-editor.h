/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmChainEditor: the heap view's "Group by" row.  One chip per
 * classifier of the chain (move earlier, later, remove) and an Add
 * drop-down offering the classifiers not yet in it.  The data-structure
 * classifiers need the GC's reference graph: Add is disabled for them
 * where there is none, and its tooltip says why.  Emits "changed" when
 * the user changes the chain.
 */
#pragma once

#include <gtk/gtk.h>

#include "tidemark.h"

G_BEGIN_DECLS

#define TM_TYPE_CHAIN_EDITOR (tm_chain_editor_get_type ())
G_DECLARE_FINAL_TYPE (TmChainEditor, tm_chain_editor, TM, CHAIN_EDITOR, GtkWidget)

/* Sets the chain shown (1 to TM_CLASSIFY_MAX_DEPTH levels); no "changed". */
void  tm_chain_editor_set_chain (TmChainEditor      *self,
                                 const TmClassifier *chain,
                                 guint               depth);
/* Copies the chain into `chain` (may be NULL) and returns its depth. */
guint tm_chain_editor_get_chain (TmChainEditor      *self,
                                 TmClassifier       *chain);
/* Whether GC `gc_id` has a reference graph (for the data-structure
 * classifiers). */
void  tm_chain_editor_set_graph (TmChainEditor      *self,
                                 gboolean            has_graph,
                                 guint               gc_id);

G_END_DECLS
