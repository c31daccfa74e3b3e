/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A tree shown in a GtkColumnView: the heap's classification tree, the
 * Compare Heaps diff, any tree stored as a node array whose children are
 * contiguous.  TmTreeTable owns the model stack (rows made as their
 * parents expand, sorted by the view's column sorter with children kept
 * under their parent, a single selection that may be empty), the cell
 * factories, per-column sorting and search; the view says how its tree
 * is shaped and what each cell shows.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TM_TREE_TABLE_NONE G_MAXUINT32

typedef struct {
  /* the tree: a reference and its release */
  gpointer (*ref)      (gpointer tree);
  void     (*unref)    (gpointer tree);
  /* node count and shape; the root is node 0, its parent TM_TREE_TABLE_NONE */
  guint32  (*n_nodes)  (gpointer tree);
  void     (*shape)    (gpointer tree, guint32 node, guint32 *parent,
                        guint32 *first_child, guint32 *n_children);
  /* the name column's text (also what search matches), newly allocated */
  char    *(*label)    (gpointer tree, guint32 node);
  /* a numeric cell's text and its sort value, for the view `owner` */
  char    *(*text)     (gpointer owner, gpointer tree, guint32 node, guint column);
  gint64   (*value)    (gpointer owner, gpointer tree, guint32 node, guint column);
  /* optional: a cell's tooltip and style classes after its text is set */
  void     (*decorate) (gpointer owner, GtkWidget *label, gpointer tree, guint32 node, guint column);
} TmTreeTableFuncs;

#define TM_TYPE_TREE_TABLE (tm_tree_table_get_type ())
G_DECLARE_FINAL_TYPE (TmTreeTable, tm_tree_table, TM, TREE_TABLE, GObject)

/* Sets itself as view's model.  `funcs` must outlive the table; `owner`
 * (the view, not referenced) is passed to the cell functions. */
TmTreeTable         *tm_tree_table_new            (GtkColumnView          *view,
                                                   const TmTreeTableFuncs *funcs,
                                                   gpointer                owner);

/* Column 0 is the name column (with the expander); the others are
 * numbers, right-aligned, whose first click sorts largest first. */
GtkColumnViewColumn *tm_tree_table_add_column     (TmTreeTable *self,
                                                   guint        column,
                                                   const char  *title);
GtkColumnViewColumn *tm_tree_table_get_column     (TmTreeTable *self,
                                                   guint        column);

/* Shows `tree` (a reference is taken; NULL empties the table): the
 * root's children as the first level, or the root itself when
 * `show_root`. */
void                 tm_tree_table_set_tree       (TmTreeTable *self,
                                                   gpointer     tree,
                                                   gboolean     show_root);

/* Values changed (sizes arrived): cells are read again and the columns
 * in `column_mask` (bit c for column c) sort again. */
void                 tm_tree_table_refresh        (TmTreeTable *self,
                                                   guint64      column_mask);

GtkSingleSelection  *tm_tree_table_get_selection  (TmTreeTable *self);
guint                tm_tree_table_get_n_rows     (TmTreeTable *self);

/* The tree and node shown at a row, or FALSE past the end. */
gboolean             tm_tree_table_get_node       (TmTreeTable *self,
                                                   guint        position,
                                                   gpointer    *tree,
                                                   guint32     *node);
gboolean             tm_tree_table_get_selected   (TmTreeTable *self,
                                                   gpointer    *tree,
                                                   guint32     *node);
char                *tm_tree_table_dup_cell       (TmTreeTable *self,
                                                   guint        position,
                                                   guint        column);
void                 tm_tree_table_set_expanded   (TmTreeTable *self,
                                                   guint        position,
                                                   gboolean     expanded);
void                 tm_tree_table_sort_by        (TmTreeTable *self,
                                                   guint        column,
                                                   GtkSortType  order);

/* Selects a row (GTK_INVALID_LIST_POSITION: none) and scrolls to it. */
void                 tm_tree_table_select         (TmTreeTable *self,
                                                   guint        position);

/* Selects the next node after the selected one, in depth-first order
 * over the whole tree (collapsed parts too, wrapping around), whose
 * label contains `text` ignoring case, expanding its parents.  FALSE
 * when none does. */
gboolean             tm_tree_table_search         (TmTreeTable *self,
                                                   const char  *text);

G_END_DECLS
