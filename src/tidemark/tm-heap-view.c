/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-tree-table.h"
#include "tm-chain-editor.h"
#include "tm-heap-view.h"
#include "tm-root-path-panel.h"
#include "tm-classify-chain.h"
#include "tm-error.h"
#include "tm-format-util.h"

#include <glib/gi18n.h>
#include <string.h>

/* ---- the view ---- */

struct _TmHeapView
{
  TmSection            parent_instance;

  GtkWidget           *box;
  GtkLabel            *title_label;
  GtkSpinner          *spinner;
  GtkProgressBar      *progress;
  GtkSearchEntry      *search_entry;
  GtkButton           *path_button;
  TmChainEditor       *chain_editor;
  GtkLabel            *status_label;
  GtkColumnView       *table;
  TmRootPathPanel     *path_panel;
  GtkSpinButton       *gc_spin;
  GtkLabel            *gc_label;

  TmTreeTable         *rows;

  TmDocument          *doc;
  TmTrace             *trace;          /* the document's */
  guint                gc_id;
  TmHeapAnalysis      *heap;
  TmClassTree         *tree;
  TmClassifier         chain[TM_CLASSIFY_MAX_DEPTH];
  guint                depth;
  gboolean             metrics_ready;
  guint                busy;
  GCancellable        *cancellable;    /* tree and metrics */
  GCancellable        *path_cancellable;
  gint64               last_refresh;   /* of the deep and retained columns, µs */
  gboolean             path_ready;     /* the panel shows a finished search */
  guint                gc_timeout;     /* a new GC picked, applied after a pause */
};

G_DEFINE_FINAL_TYPE (TmHeapView, tm_heap_view, TM_TYPE_SECTION)

static void refresh_metrics (TmHeapView *self);

static void
set_busy (TmHeapView *self, int delta)
{
  self->busy += delta;
  gtk_spinner_set_spinning (self->spinner, self->busy > 0);
}

static void
show_status (TmHeapView *self, const char *text)
{
  gtk_label_set_text (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
}

/* ---- the table's cells ---- */

static guint64
total_objects (TmHeapView *self)
{
  return self->tree ? tm_class_tree_node (self->tree, 0)->m.objects : 0;
}

static guint64
total_bytes (TmHeapView *self)
{
  return self->tree ? tm_class_tree_node (self->tree, 0)->m.bytes : 0;
}

static char *
percent_text (guint64 part, guint64 whole)
{
  return g_strdup_printf ("%.1f %%", whole > 0 ? 100.0 * (double) part / (double) whole : 0.0);
}

static gpointer
tree_ref (gpointer tree)
{
  return tm_class_tree_ref (tree);
}

static void
tree_unref (gpointer tree)
{
  tm_class_tree_unref (tree);
}

static guint32
tree_n_nodes (gpointer tree)
{
  return ((TmClassTree *) tree)->nodes->len;
}

static void
tree_shape (gpointer tree, guint32 node, guint32 *parent, guint32 *first_child, guint32 *n_children)
{
  const TmClassNode *n = tm_class_tree_node (tree, node);

  *parent = n->parent;
  *first_child = n->first_child;
  *n_children = n->n_children;
}

static char *
tree_label (gpointer tree, guint32 node)
{
  return tm_class_tree_node_label (tree, node);
}

static char *
cell_text (gpointer owner, gpointer tree, guint32 node, guint column)
{
  TmHeapView *self = owner;
  const TmClassNode *n = tm_class_tree_node (tree, node);
  TmGroupMetrics m;

  switch (column)
    {
    case TM_HEAP_VIEW_COLUMN_OBJECTS:         return tm_format_count (n->m.objects);
    case TM_HEAP_VIEW_COLUMN_OBJECTS_PERCENT: return percent_text (n->m.objects, total_objects (self));
    case TM_HEAP_VIEW_COLUMN_BYTES:           return tm_format_bytes ((double) n->m.bytes);
    case TM_HEAP_VIEW_COLUMN_BYTES_PERCENT:   return percent_text (n->m.bytes, total_bytes (self));
    case TM_HEAP_VIEW_COLUMN_DEEP:
    case TM_HEAP_VIEW_COLUMN_RETAINED:
      if (self->heap == NULL || !tm_heap_analysis_has_graph (self->heap))
        return g_strdup ("—");
      if (!tm_class_tree_get_metrics (tree, node, &m))
        return g_strdup ("…");
      return tm_format_bytes ((double) (column == TM_HEAP_VIEW_COLUMN_DEEP ? m.deep_bytes : m.retained_bytes));
    default:
      return g_strdup ("");
    }
}

static gint64
cell_value (gpointer owner, gpointer tree, guint32 node, guint column)
{
  const TmClassNode *n = tm_class_tree_node (tree, node);
  TmGroupMetrics m;

  switch (column)
    {
    case TM_HEAP_VIEW_COLUMN_OBJECTS:
    case TM_HEAP_VIEW_COLUMN_OBJECTS_PERCENT: return (gint64) n->m.objects;
    case TM_HEAP_VIEW_COLUMN_BYTES:
    case TM_HEAP_VIEW_COLUMN_BYTES_PERCENT:   return (gint64) n->m.bytes;
    case TM_HEAP_VIEW_COLUMN_DEEP:
      return tm_class_tree_get_metrics (tree, node, &m) ? (gint64) m.deep_bytes : 0;
    case TM_HEAP_VIEW_COLUMN_RETAINED:
      return tm_class_tree_get_metrics (tree, node, &m) ? (gint64) m.retained_bytes : 0;
    default:                                  return 0;
    }
}

/* A deep or retained size tells its object count on hover. */
static void
cell_decorate (gpointer owner, GtkWidget *label, gpointer tree, guint32 node, guint column)
{
  TmGroupMetrics m;

  if ((column == TM_HEAP_VIEW_COLUMN_DEEP || column == TM_HEAP_VIEW_COLUMN_RETAINED)
      && tm_class_tree_get_metrics (tree, node, &m))
    {
      g_autofree char *count = tm_format_count (column == TM_HEAP_VIEW_COLUMN_DEEP ? m.deep_objects
                                                                                : m.retained_objects);
      /* TRANSLATORS: tooltip of a deep or retained size: number of objects */
      g_autofree char *tip = g_strdup_printf (_("%s objects"), count);
      gtk_widget_set_tooltip_text (label, tip);
    }
}

static const TmTreeTableFuncs table_funcs = {
  .ref = tree_ref, .unref = tree_unref, .n_nodes = tree_n_nodes, .shape = tree_shape,
  .label = tree_label, .text = cell_text, .value = cell_value, .decorate = cell_decorate,
};

/* heaptrack records blocks at time points: no graphs, no roots */
static gboolean
is_heaptrack (TmTrace *trace)
{
  return g_strcmp0 (trace->format, "heaptrack") == 0;
}

/* The tab's title. */
static char *
section_title (TmTrace *trace, guint gc_id)
{
  if (is_heaptrack (trace))
    return g_strdup_printf (_("Allocated at time point %u"), gc_id);
  if (tm_trace_is_heap_dumps (trace))
    return g_strdup_printf (_("Heap dump %u"), gc_id);
  return g_strdup_printf (_("Heap after GC %u"), gc_id);
}

static void
update_title (TmHeapView *self)
{
  g_autofree char *title = NULL;

  if (is_heaptrack (self->trace))
    {
      /* blocks allocated and not yet freed at a time point */
      g_autofree char *objects = self->tree ? tm_format_count (total_objects (self)) : NULL;
      g_autofree char *bytes = self->tree ? tm_format_bytes ((double) total_bytes (self)) : NULL;
      title = self->tree ? g_strdup_printf (_("Allocated at time point %u: %s blocks, %s"), self->gc_id, objects, bytes)
                         : g_strdup_printf (_("Allocated at time point %u"), self->gc_id);
    }
  else if (self->tree != NULL)
    {
      g_autofree char *objects = tm_format_count (total_objects (self));
      g_autofree char *bytes = tm_format_bytes ((double) total_bytes (self));
      if (tm_trace_is_heap_dumps (self->trace))
        /* TRANSLATORS: heap view title of an HPROF file: dump number, object count, size */
        title = g_strdup_printf (_("Heap dump %u: %s objects, %s"), self->gc_id, objects, bytes);
      else
        /* TRANSLATORS: heap view title: GC number, object count, size */
        title = g_strdup_printf (_("Heap after GC %u: %s objects, %s"), self->gc_id, objects, bytes);
    }
  else
    title = section_title (self->trace, self->gc_id);
  gtk_label_set_text (self->title_label, title);
}

/* ---- the document's work ---- */

static void
refresh_metrics (TmHeapView *self)
{
  tm_tree_table_refresh (self->rows, (G_GUINT64_CONSTANT (1) << TM_HEAP_VIEW_COLUMN_DEEP)
                                     | (G_GUINT64_CONSTANT (1) << TM_HEAP_VIEW_COLUMN_RETAINED));
}

static void
metrics_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmHeapView) self = user_data;
  g_autoptr(GError) error = NULL;

  set_busy (self, -1);
  if (!tm_document_tree_metrics_finish (TM_DOCUMENT (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_status (self, error->message);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
  self->metrics_ready = TRUE;
  refresh_metrics (self);
}

/* While the sizes come in (groups level by level, so the first level's
 * first): the bar, and the columns at most every 300 ms. */
static void
metrics_progress_cb (double fraction, gpointer data)
{
  TmHeapView *self = data;   /* alive: nothing arrives after cancel or result */
  gint64 now = g_get_monotonic_time ();

  gtk_progress_bar_set_fraction (self->progress, fraction);
  if (now - self->last_refresh > 300000)
    {
      self->last_refresh = now;
      refresh_metrics (self);
    }
}

static void
start_metrics (TmHeapView *self)
{
  gtk_progress_bar_set_fraction (self->progress, 0.0);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), TRUE);
  self->last_refresh = g_get_monotonic_time ();
  set_busy (self, +1);
  tm_document_tree_metrics_async (self->doc, self->tree, metrics_progress_cb, self, self->cancellable,
                                  metrics_done, g_object_ref (self));
}

/* tm_heap_analysis_no_graph_message(), translated */
static char *
no_graph_text (TmTrace *trace, guint gc_id)
{
  guint before = 0, after = 0, n = tm_trace_n_gcs (trace);

  for (guint id = MIN (gc_id, n + 1); id-- > 1;)
    if (tm_trace_gc (trace, id)->has_graph)
      {
        before = id;
        break;
      }
  for (guint id = gc_id + 1; id <= n; id++)
    if (tm_trace_gc (trace, id)->has_graph)
      {
        after = id;
        break;
      }
  if (before && after)
    return g_strdup_printf (_("GC %u has no reference graph, so only shallow sizes are shown; "
                              "the nearest GCs with one are %u and %u."), gc_id, before, after);
  if (before || after)
    return g_strdup_printf (_("GC %u has no reference graph, so only shallow sizes are shown; "
                              "the nearest GC with one is %u."), gc_id, before ? before : after);
  return g_strdup_printf (_("GC %u has no reference graph, so only shallow sizes are shown; "
                            "this recording has none."), gc_id);
}

static void
build_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmHeapView) self = user_data;
  g_autoptr(GError) error = NULL;
  TmClassTree *tree = tm_document_class_tree_finish (TM_DOCUMENT (source), result, &error);

  set_busy (self, -1);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
  if (tree == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_status (self, error->message);
      return;
    }
  if (self->heap == NULL)
    self->heap = tm_heap_analysis_ref (tree->heap);
  g_clear_pointer (&self->tree, tm_class_tree_unref);
  self->tree = tree;

  self->metrics_ready = FALSE;
  tm_tree_table_set_tree (self->rows, self->tree, FALSE);
  update_title (self);
  if (tm_heap_analysis_has_graph (self->heap))
    {
      show_status (self, NULL);
      start_metrics (self);
    }
  else if (is_heaptrack (self->trace))
    show_status (self, NULL);   /* no graphs is what heaptrack records */
  else
    {
      g_autofree char *msg = no_graph_text (self->trace, self->gc_id);
      show_status (self, msg);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->path_button), FALSE);
}


static void
build_progress_cb (double fraction, gpointer data)
{
  TmHeapView *self = data;   /* alive: nothing arrives after cancel or result */

  gtk_progress_bar_set_fraction (self->progress, fraction);
}

/* A new chain: the document's tree (its heap state is shared), then the
 * deep and retained sizes; the previous work is cancelled. */
static void
rebuild (TmHeapView *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->metrics_ready = FALSE;

  if (self->heap == NULL)
    {
      gtk_progress_bar_set_fraction (self->progress, 0.0);
      gtk_widget_set_visible (GTK_WIDGET (self->progress), TRUE);
    }
  set_busy (self, +1);
  tm_document_class_tree_async (self->doc, self->gc_id, self->chain, self->depth, TM_DOCUMENT_TREE_DEFAULT,
                                build_progress_cb, self, self->cancellable, build_done, g_object_ref (self));
}

/* ---- the classifier chain ---- */

static void
chain_changed_cb (TmChainEditor *editor, TmHeapView *self)
{
  self->depth = tm_chain_editor_get_chain (editor, self->chain);
  rebuild (self);
}

/* The document's descriptions changed: trees with data-structure levels
 * are out of date. */
static void
descriptions_changed_cb (TmDocument *doc, TmHeapView *self)
{
  if (tm_classify_chain_needs_ds (self->chain, self->depth))
    rebuild (self);
}

void
tm_heap_view_set_chain (TmHeapView         *self,
                        const TmClassifier *chain,
                        guint               depth)
{
  g_return_if_fail (TM_IS_HEAP_VIEW (self));
  g_return_if_fail (chain != NULL && depth >= 1 && depth <= TM_CLASSIFY_MAX_DEPTH);

  memcpy (self->chain, chain, depth * sizeof *chain);
  self->depth = depth;
  tm_chain_editor_set_chain (self->chain_editor, chain, depth);
  rebuild (self);
}

guint
tm_heap_view_get_chain (TmHeapView   *self,
                        TmClassifier *chain)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), 0);
  if (chain != NULL)
    memcpy (chain, self->chain, self->depth * sizeof *chain);
  return self->depth;
}

/* ---- table access ---- */

guint
tm_heap_view_get_n_rows (TmHeapView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), 0);
  return tm_tree_table_get_n_rows (self->rows);
}

char *
tm_heap_view_dup_cell (TmHeapView *self,
                       guint       row,
                       guint       column)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), NULL);
  g_return_val_if_fail (column < TM_HEAP_VIEW_N_COLUMNS, NULL);
  return tm_tree_table_dup_cell (self->rows, row, column);
}

void
tm_heap_view_set_expanded (TmHeapView *self,
                           guint       row,
                           gboolean    expanded)
{
  g_return_if_fail (TM_IS_HEAP_VIEW (self));
  tm_tree_table_set_expanded (self->rows, row, expanded);
}

void
tm_heap_view_sort_by (TmHeapView *self,
                      guint       column,
                      gboolean    descending)
{
  g_return_if_fail (TM_IS_HEAP_VIEW (self));
  g_return_if_fail (column < TM_HEAP_VIEW_N_COLUMNS);
  tm_tree_table_sort_by (self->rows, column, descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

gboolean
tm_heap_view_is_busy (TmHeapView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), FALSE);
  return self->busy > 0;
}

TmClassTree *
tm_heap_view_get_tree (TmHeapView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), NULL);
  return self->tree;
}

gboolean
tm_heap_view_get_metrics_ready (TmHeapView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), FALSE);
  return self->metrics_ready;
}

guint
tm_heap_view_get_selected (TmHeapView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), GTK_INVALID_LIST_POSITION);
  return gtk_single_selection_get_selected (tm_tree_table_get_selection (self->rows));
}

void
tm_heap_view_select (TmHeapView *self,
                     guint       row)
{
  g_return_if_fail (TM_IS_HEAP_VIEW (self));
  tm_tree_table_select (self->rows, row);
}

/* ---- search ---- */

gboolean
tm_heap_view_search (TmHeapView *self,
                     const char *text)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), FALSE);
  return tm_tree_table_search (self->rows, text);
}

static void
search_changed_cb (GtkSearchEntry *entry, TmHeapView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  /* a new text searches from the top */
  if (*text != '\0')
    {
      tm_tree_table_select (self->rows, GTK_INVALID_LIST_POSITION);
      tm_heap_view_search (self, text);
    }
}

static void
search_next_cb (GtkSearchEntry *entry, TmHeapView *self)
{
  tm_heap_view_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* ---- path to GC roots ---- */

typedef struct {
  TmHeapView  *self;
  TmClassTree *tree;
  guint32      node;
} PathRequest;

static void
path_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  PathRequest *req = user_data;
  g_autoptr(TmHeapView) self = req->self;
  g_autoptr(TmClassTree) tree = req->tree;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmRootPath) path = tm_document_group_path_to_root_finish (TM_DOCUMENT (source), result, &error);
  guint32 node = req->node;

  g_free (req);
  set_busy (self, -1);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->path_ready = TRUE;
  if (path != NULL)
    {
      g_autofree char *label = tm_class_tree_node_label (tree, node);
      tm_root_path_panel_set_path (self->path_panel, self->trace, label, path);
    }
  else if (g_error_matches (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT))
    tm_root_path_panel_set_message (self->path_panel, _("The group is empty."));
  else
    tm_root_path_panel_set_message (self->path_panel, error->message);
}

void
tm_heap_view_show_path (TmHeapView *self)
{
  gpointer tree;
  guint32 node;
  PathRequest *req;

  g_return_if_fail (TM_IS_HEAP_VIEW (self));

  if (self->heap == NULL || !tm_heap_analysis_has_graph (self->heap)
      || !tm_tree_table_get_selected (self->rows, &tree, &node))
    return;

  g_cancellable_cancel (self->path_cancellable);
  g_clear_object (&self->path_cancellable);
  self->path_cancellable = g_cancellable_new ();
  self->path_ready = FALSE;
  tm_root_path_panel_set_message (self->path_panel, _("Searching a path to the GC roots…"));

  req = g_new0 (PathRequest, 1);
  req->self = g_object_ref (self);
  req->tree = tm_class_tree_ref (tree);
  req->node = node;
  set_busy (self, +1);
  tm_document_group_path_to_root_async (self->doc, tree, node, self->path_cancellable, path_done, req);
}

const char *
tm_heap_view_get_path_text (TmHeapView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), NULL);
  return self->path_ready ? tm_root_path_panel_get_text (self->path_panel) : NULL;
}

static void
path_clicked_cb (GtkButton *button, TmHeapView *self)
{
  tm_heap_view_show_path (self);
}

static void
selection_changed_cb (GtkSingleSelection *selection, GParamSpec *pspec, TmHeapView *self)
{
  gboolean can = self->heap != NULL && tm_heap_analysis_has_graph (self->heap)
                 && gtk_single_selection_get_selected (selection) != GTK_INVALID_LIST_POSITION;

  gtk_widget_set_sensitive (GTK_WIDGET (self->path_button), can);
}

/* ---- the GC shown ---- */

void
tm_heap_view_set_gc (TmHeapView *self, guint gc_id)
{
  g_autofree char *title = NULL;

  g_return_if_fail (TM_IS_HEAP_VIEW (self));
  g_return_if_fail (gc_id >= 1 && gc_id <= tm_trace_n_gcs (self->trace));

  g_clear_handle_id (&self->gc_timeout, g_source_remove);
  if (gc_id == self->gc_id)
    return;
  self->gc_id = gc_id;
  if ((guint) gtk_spin_button_get_value_as_int (self->gc_spin) != gc_id)
    gtk_spin_button_set_value (self->gc_spin, gc_id);
  /* another heap: its tree, sizes and paths start over */
  g_cancellable_cancel (self->path_cancellable);
  gtk_widget_set_visible (GTK_WIDGET (self->path_panel), FALSE);
  self->path_ready = FALSE;
  g_clear_pointer (&self->tree, tm_class_tree_unref);
  g_clear_pointer (&self->heap, tm_heap_analysis_unref);
  tm_tree_table_set_tree (self->rows, NULL, FALSE);
  title = section_title (self->trace, gc_id);
  tm_section_set_title (TM_SECTION (self), title);
  update_title (self);
  tm_chain_editor_set_graph (self->chain_editor, tm_trace_gc (self->trace, gc_id)->has_graph, gc_id);
  rebuild (self);
}

guint
tm_heap_view_get_gc (TmHeapView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), 0);
  return self->gc_id;
}

static gboolean
gc_timeout_cb (gpointer data)
{
  TmHeapView *self = data;

  self->gc_timeout = 0;
  tm_heap_view_set_gc (self, (guint) gtk_spin_button_get_value_as_int (self->gc_spin));
  return G_SOURCE_REMOVE;
}

/* Stepping through GCs builds only the heap the user stops at. */
static void
gc_changed_cb (GtkSpinButton *spin, TmHeapView *self)
{
  g_clear_handle_id (&self->gc_timeout, g_source_remove);
  self->gc_timeout = g_timeout_add (300, gc_timeout_cb, self);
}

/* ---- life cycle ---- */

GtkWidget *
tm_heap_view_new (TmSession *session,
                  guint      gc_id)
{
  g_autofree char *title = NULL;
  TmHeapView *self;
  TmDocument *doc;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);
  doc = tm_session_get_document (session);
  g_return_val_if_fail (TM_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (gc_id >= 1 && gc_id <= tm_trace_n_gcs (tm_document_get_trace (doc)), NULL);

  title = section_title (tm_document_get_trace (doc), gc_id);
  self = g_object_new (TM_TYPE_HEAP_VIEW, "session", session, "title", title, NULL);
  self->doc = g_object_ref (doc);
  self->trace = tm_trace_ref (tm_document_get_trace (doc));
  g_signal_connect_object (doc, "descriptions-changed", G_CALLBACK (descriptions_changed_cb), self, 0);
  self->gc_id = gc_id;
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->gc_spin), tm_trace_n_gcs (self->trace));
  gtk_spin_button_set_value (self->gc_spin, gc_id);
  g_signal_connect (self->gc_spin, "value-changed", G_CALLBACK (gc_changed_cb), self);
  /* heaptrack files have no reference graphs nor GC roots: no deep or
   * retained sizes, no path to roots */
  if (is_heaptrack (self->trace))
    {
      gtk_column_view_column_set_visible (tm_tree_table_get_column (self->rows, TM_HEAP_VIEW_COLUMN_DEEP), FALSE);
      gtk_column_view_column_set_visible (tm_tree_table_get_column (self->rows, TM_HEAP_VIEW_COLUMN_RETAINED), FALSE);
      /* heaptrack's word: blocks, not objects */
      gtk_column_view_column_set_title (tm_tree_table_get_column (self->rows, TM_HEAP_VIEW_COLUMN_OBJECTS), _("Blocks"));
      gtk_widget_set_visible (GTK_WIDGET (self->path_button), FALSE);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->gc_spin), _("The blocks allocated at this time point"));
      gtk_label_set_text_with_mnemonic (self->gc_label, _("_Time point"));
    }
  else if (tm_trace_is_heap_dumps (self->trace))
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->gc_spin), _("The heap dump to show, in time order"));
      gtk_label_set_text_with_mnemonic (self->gc_label, _("_Dump"));
    }
  update_title (self);
  tm_chain_editor_set_graph (self->chain_editor, tm_trace_gc (self->trace, gc_id)->has_graph, gc_id);
  rebuild (self);
  return GTK_WIDGET (self);
}

static void
tm_heap_view_dispose (GObject *object)
{
  TmHeapView *self = TM_HEAP_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->path_cancellable);
  g_clear_object (&self->path_cancellable);
  g_clear_handle_id (&self->gc_timeout, g_source_remove);
  g_clear_object (&self->rows);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_HEAP_VIEW);
  G_OBJECT_CLASS (tm_heap_view_parent_class)->dispose (object);
}

static void
tm_heap_view_finalize (GObject *object)
{
  TmHeapView *self = TM_HEAP_VIEW (object);

  g_clear_pointer (&self->tree, tm_class_tree_unref);
  g_clear_pointer (&self->heap, tm_heap_analysis_unref);
  g_clear_pointer (&self->trace, tm_trace_unref);
  g_clear_object (&self->doc);
  G_OBJECT_CLASS (tm_heap_view_parent_class)->finalize (object);
}

static void
tm_heap_view_class_init (TmHeapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_heap_view_dispose;
  object_class->finalize = tm_heap_view_finalize;

  g_type_ensure (TM_TYPE_ROOT_PATH_PANEL);
  g_type_ensure (TM_TYPE_CHAIN_EDITOR);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-heap-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, box);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, progress);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, path_button);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, chain_editor);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, table);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, path_panel);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, gc_spin);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, gc_label);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, path_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, chain_changed_cb);
  gtk_widget_class_set_css_name (widget_class, "tm-heap-view");
}

static void
tm_heap_view_init (TmHeapView *self)
{
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->chain[0] = TM_CLASSIFIER_TYPE;
  self->depth = 1;

  self->rows = tm_tree_table_new (self->table, &table_funcs, self);
  tm_tree_table_add_column (self->rows, TM_HEAP_VIEW_COLUMN_NAME, _("Group"));
  tm_tree_table_add_column (self->rows, TM_HEAP_VIEW_COLUMN_OBJECTS, _("Objects"));
  tm_tree_table_add_column (self->rows, TM_HEAP_VIEW_COLUMN_OBJECTS_PERCENT, _("%"));
  tm_tree_table_add_column (self->rows, TM_HEAP_VIEW_COLUMN_BYTES, _("Bytes"));
  tm_tree_table_add_column (self->rows, TM_HEAP_VIEW_COLUMN_BYTES_PERCENT, _("%"));
  tm_tree_table_add_column (self->rows, TM_HEAP_VIEW_COLUMN_DEEP, _("Deep"));
  tm_tree_table_add_column (self->rows, TM_HEAP_VIEW_COLUMN_RETAINED, _("Retained"));
  selection = tm_tree_table_get_selection (self->rows);
  g_signal_connect (selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  tm_tree_table_sort_by (self->rows, TM_HEAP_VIEW_COLUMN_BYTES, GTK_SORT_DESCENDING);
}
