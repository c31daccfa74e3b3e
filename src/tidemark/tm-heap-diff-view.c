/* SPDX-License-Identifier: GPL-3.0-or-later
 * Compare Heaps (see the header). */
#include "tm-config.h"
#include "tm-tree-table.h"
#include "tm-heap-diff-view.h"
#include "tm-classify-chain.h"
#include "tm-error.h"
#include "tm-format-util.h"

#include <glib/gi18n.h>

/* ---- the view ---- */

struct _TmHeapDiffView
{
  TmSection            parent_instance;

  GtkWidget           *box;
  GtkLabel            *title_label;
  GtkSpinButton       *from_spin;
  GtkSpinButton       *to_spin;
  GtkDropDown         *level1_dropdown;
  GtkDropDown         *level2_dropdown;
  GtkButton           *path_button;
  GtkSpinner          *spinner;
  GtkProgressBar      *progress;
  GtkLabel            *status_label;
  GtkColumnView       *table;
  TmRootPathPanel     *path_panel;

  TmTreeTable         *rows;

  TmDocument          *doc;
  TmTrace             *trace;
  guint                from_gc, to_gc;
  TmClassifier         chain[2];
  guint                depth;
  TmHeapDiff          *diff;
  guint                busy;
  GCancellable        *cancellable;
  GCancellable        *path_cancellable;
  guint                gcs_timeout;     /* new GCs picked, applied after a pause */
};

G_DEFINE_FINAL_TYPE (TmHeapDiffView, tm_heap_diff_view, TM_TYPE_SECTION)

static void
set_busy (TmHeapDiffView *self, int delta)
{
  self->busy += delta;
  gtk_spinner_set_spinning (self->spinner, self->busy > 0);
}

static void
show_status (TmHeapDiffView *self, const char *text)
{
  gtk_label_set_text (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
}

/* ---- cells ---- */

static TmHeapMetric
column_metric (guint column)
{
  switch (column)
    {
    case TM_HEAP_DIFF_COLUMN_OBJECTS_BEFORE:
    case TM_HEAP_DIFF_COLUMN_OBJECTS_AFTER:
    case TM_HEAP_DIFF_COLUMN_OBJECTS_DELTA:   return TM_HEAP_METRIC_OBJECTS;
    case TM_HEAP_DIFF_COLUMN_BYTES_BEFORE:
    case TM_HEAP_DIFF_COLUMN_BYTES_AFTER:
    case TM_HEAP_DIFF_COLUMN_BYTES_DELTA:     return TM_HEAP_METRIC_BYTES;
    default:                                  return TM_HEAP_METRIC_RETAINED_BYTES;
    }
}

/* 0 before, 1 after, 2 delta */
static guint
column_side (guint column)
{
  return (column - TM_HEAP_DIFF_COLUMN_OBJECTS_BEFORE) % 3;
}

static gint64
node_value (TmHeapDiff *diff, guint32 node, guint column)
{
  TmGroupMetrics b, a;
  TmHeapMetric m = column_metric (column);

  tm_heap_diff_get_metrics (diff, node, &b, &a);
  switch (column_side (column))
    {
    case 0:  return (gint64) tm_group_metrics_get (&b, m);
    case 1:  return (gint64) tm_group_metrics_get (&a, m);
    default: return (gint64) tm_group_metrics_get (&a, m) - (gint64) tm_group_metrics_get (&b, m);
    }
}

/* "+1.2 MiB", "−300 B" */
static char *
signed_text (gint64 v, gboolean bytes)
{
  guint64 mag = (guint64) (v < 0 ? -v : v);
  g_autofree char *s = bytes ? tm_format_bytes ((double) mag) : tm_format_count (mag);

  return g_strdup_printf ("%s%s", v > 0 ? "+" : v < 0 ? "−" : "", s);
}

static gpointer
diff_ref (gpointer diff)
{
  return tm_heap_diff_ref (diff);
}

static void
diff_unref (gpointer diff)
{
  tm_heap_diff_unref (diff);
}

static guint32
diff_n_nodes (gpointer diff)
{
  return ((TmHeapDiff *) diff)->nodes->len;
}

static void
diff_shape (gpointer diff, guint32 node, guint32 *parent, guint32 *first_child, guint32 *n_children)
{
  const TmHeapDiffNode *n = tm_heap_diff_node (diff, node);

  *parent = n->parent;
  *first_child = n->first_child;
  *n_children = n->n_children;
}

static char *
diff_label (gpointer diff, guint32 node)
{
  return g_strdup (tm_heap_diff_node (diff, node)->label);
}

static char *
cell_text (gpointer owner, gpointer tree, guint32 node, guint column)
{
  TmHeapDiff *diff = tree;
  gboolean bytes = column_metric (column) != TM_HEAP_METRIC_OBJECTS;
  gint64 v;

  if (column_metric (column) == TM_HEAP_METRIC_RETAINED_BYTES && !diff->has_graph)
    return g_strdup ("—");
  v = node_value (diff, node, column);
  if (column_side (column) == 2)
    return signed_text (v, bytes);
  return bytes ? tm_format_bytes ((double) v) : tm_format_count ((guint64) v);
}

static gint64
cell_value (gpointer owner, gpointer tree, guint32 node, guint column)
{
  return node_value (tree, node, column);
}

/* growth stands out, shrinking is quiet */
static void
cell_decorate (gpointer owner, GtkWidget *label, gpointer tree, guint32 node, guint column)
{
  gint64 v;

  if (column == TM_HEAP_DIFF_COLUMN_NAME || column_side (column) != 2)
    return;
  v = node_value (tree, node, column);
  if (v > 0)
    gtk_widget_add_css_class (label, "error");
  else
    gtk_widget_remove_css_class (label, "error");
  if (v < 0)
    gtk_widget_add_css_class (label, "success");
  else
    gtk_widget_remove_css_class (label, "success");
}

static const TmTreeTableFuncs table_funcs = {
  .ref = diff_ref, .unref = diff_unref, .n_nodes = diff_n_nodes, .shape = diff_shape,
  .label = diff_label, .text = cell_text, .value = cell_value, .decorate = cell_decorate,
};

static void
update_title (TmHeapDiffView *self)
{
  g_autofree char *title = NULL;

  if (self->diff != NULL)
    {
      TmGroupMetrics b, a;
      g_autofree char *ob = NULL, *oa = NULL, *bb = NULL, *ba = NULL, *bd = NULL;

      tm_heap_diff_get_metrics (self->diff, 0, &b, &a);
      ob = tm_format_count (b.objects);
      oa = tm_format_count (a.objects);
      bb = tm_format_bytes ((double) b.bytes);
      ba = tm_format_bytes ((double) a.bytes);
      bd = signed_text ((gint64) a.bytes - (gint64) b.bytes, TRUE);
      /* TRANSLATORS: Compare Heaps title: GCs, objects before -> after, bytes before -> after (change) */
      title = g_strdup_printf (_("GC %u → %u: %s → %s objects, %s → %s (%s)"),
                               self->from_gc, self->to_gc, ob, oa, bb, ba, bd);
    }
  else
    title = g_strdup_printf (_("Heap after GC %u compared with GC %u"), self->to_gc, self->from_gc);
  /* the whole sentence for those who hover */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), _("The heap after the later GC compared with the heap after the earlier one"));
  gtk_label_set_text (self->title_label, title);
}

/* ---- the document's work ---- */

static char *
no_graph_note (TmHeapDiffView *self)
{
  gboolean a = tm_trace_gc (self->trace, self->from_gc)->has_graph;
  gboolean b = tm_trace_gc (self->trace, self->to_gc)->has_graph;

  /* heaptrack records no graphs at all: nothing worth a note */
  if ((a && b) || g_strcmp0 (self->trace->format, "heaptrack") == 0)
    return NULL;
  if (!a && !b)
    return g_strdup_printf (_("GCs %u and %u have no reference graph, so only shallow sizes are compared."),
                            self->from_gc, self->to_gc);
  return g_strdup_printf (_("GC %u has no reference graph, so only shallow sizes are compared."),
                          a ? self->to_gc : self->from_gc);
}

static void
diff_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmHeapDiffView) self = user_data;
  g_autoptr(GError) error = NULL;
  TmHeapDiff *diff = tm_document_heap_diff_finish (TM_DOCUMENT (source), result, &error);

  set_busy (self, -1);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
  if (diff == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_status (self, error->message);
      return;
    }
  g_clear_pointer (&self->diff, tm_heap_diff_unref);
  self->diff = diff;
  /* Overall first, so the totals are a row like the others */
  tm_tree_table_set_tree (self->rows, diff, TRUE);
  update_title (self);
  {
    g_autofree char *note = no_graph_note (self);
    show_status (self, note);
  }
  tm_tree_table_set_expanded (self->rows, 0, TRUE);
  tm_tree_table_sort_by (self->rows, diff->has_graph ? TM_HEAP_DIFF_COLUMN_RETAINED_DELTA : TM_HEAP_DIFF_COLUMN_BYTES_DELTA,
                         GTK_SORT_DESCENDING);
  for (guint c = TM_HEAP_DIFF_COLUMN_RETAINED_BEFORE; c <= TM_HEAP_DIFF_COLUMN_RETAINED_DELTA; c++)
    gtk_column_view_column_set_visible (tm_tree_table_get_column (self->rows, c), diff->has_graph);
}

static void
diff_progress_cb (double fraction, gpointer data)
{
  TmHeapDiffView *self = data;   /* alive: nothing arrives after cancel or result */

  gtk_progress_bar_set_fraction (self->progress, fraction);
}

static void
rebuild (TmHeapDiffView *self)
{
  g_autofree char *title = NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_pointer (&self->diff, tm_heap_diff_unref);
  tm_tree_table_set_tree (self->rows, NULL, TRUE);
  update_title (self);
  show_status (self, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->path_panel), FALSE);
  /* TRANSLATORS: tab title of Compare Heaps */
  title = g_strdup_printf (_("Compare GC %u → %u"), self->from_gc, self->to_gc);
  tm_section_set_title (TM_SECTION (self), title);
  gtk_spin_button_set_value (self->from_spin, self->from_gc);
  gtk_spin_button_set_value (self->to_spin, self->to_gc);

  gtk_progress_bar_set_fraction (self->progress, 0.0);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), TRUE);
  set_busy (self, +1);
  tm_document_heap_diff_async (self->doc, self->from_gc, self->to_gc, self->chain, self->depth,
                               TM_DOCUMENT_TREE_DEFAULT, TRUE, diff_progress_cb, self, self->cancellable,
                               diff_done, g_object_ref (self));
}

void
tm_heap_diff_view_set_gcs (TmHeapDiffView *self, guint from_gc, guint to_gc)
{
  guint n;

  g_return_if_fail (TM_IS_HEAP_DIFF_VIEW (self));
  n = tm_trace_n_gcs (self->trace);
  g_return_if_fail (from_gc >= 1 && from_gc <= n && to_gc >= 1 && to_gc <= n);
  g_clear_handle_id (&self->gcs_timeout, g_source_remove);
  self->from_gc = from_gc;
  self->to_gc = to_gc;
  rebuild (self);
}

void
tm_heap_diff_view_get_gcs (TmHeapDiffView *self, guint *from_gc, guint *to_gc)
{
  g_return_if_fail (TM_IS_HEAP_DIFF_VIEW (self));
  *from_gc = self->from_gc;
  *to_gc = self->to_gc;
}

/* dropdown position <-> classifier: the built-in classifiers, then
 * root-path (what tells heap dumps apart best); level 2 starts with "none" */
static TmClassifier
position_classifier (guint position)
{
  return position < TM_N_OBJECT_CLASSIFIERS ? (TmClassifier) position : TM_CLASSIFIER_ROOT_PATH;
}

static guint
classifier_position (TmClassifier c)
{
  return tm_classifier_is_per_object (c) ? (guint) c : TM_N_OBJECT_CLASSIFIERS;
}

void
tm_heap_diff_view_set_chain (TmHeapDiffView *self, const TmClassifier *chain, guint depth)
{
  g_return_if_fail (TM_IS_HEAP_DIFF_VIEW (self));
  g_return_if_fail (depth >= 1 && depth <= 2);
  g_return_if_fail (tm_classifier_is_per_object (chain[0]) || chain[0] == TM_CLASSIFIER_ROOT_PATH);

  self->chain[0] = chain[0];
  self->depth = depth;
  if (depth == 2)
    self->chain[1] = chain[1];
  g_signal_handlers_block_matched (self->level1_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  g_signal_handlers_block_matched (self->level2_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_drop_down_set_selected (self->level1_dropdown, classifier_position (chain[0]));
  gtk_drop_down_set_selected (self->level2_dropdown, depth == 2 ? classifier_position (chain[1]) + 1 : 0);
  g_signal_handlers_unblock_matched (self->level1_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  g_signal_handlers_unblock_matched (self->level2_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  rebuild (self);
}

static void
levels_changed_cb (GObject *dropdown, GParamSpec *pspec, TmHeapDiffView *self)
{
  TmClassifier chain[2];
  guint second = gtk_drop_down_get_selected (self->level2_dropdown);

  chain[0] = position_classifier (gtk_drop_down_get_selected (self->level1_dropdown));
  chain[1] = second > 0 ? position_classifier (second - 1) : TM_CLASSIFIER_TYPE;
  tm_heap_diff_view_set_chain (self, chain, second > 0 ? 2 : 1);
}

static gboolean
gcs_timeout_cb (gpointer data)
{
  TmHeapDiffView *self = data;

  self->gcs_timeout = 0;
  tm_heap_diff_view_set_gcs (self, (guint) gtk_spin_button_get_value_as_int (self->from_spin),
                             (guint) gtk_spin_button_get_value_as_int (self->to_spin));
  return G_SOURCE_REMOVE;
}

/* Stepping through GCs compares only the pair the user stops at. */
static void
gc_changed_cb (GtkSpinButton *spin, TmHeapDiffView *self)
{
  if ((guint) gtk_spin_button_get_value_as_int (self->from_spin) == self->from_gc
      && (guint) gtk_spin_button_get_value_as_int (self->to_spin) == self->to_gc)
    return;
  g_clear_handle_id (&self->gcs_timeout, g_source_remove);
  self->gcs_timeout = g_timeout_add (300, gcs_timeout_cb, self);
}

/* ---- queries for tests ---- */

gboolean
tm_heap_diff_view_is_busy (TmHeapDiffView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_DIFF_VIEW (self), FALSE);
  return self->busy > 0;
}

TmHeapDiff *
tm_heap_diff_view_get_diff (TmHeapDiffView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_DIFF_VIEW (self), NULL);
  return self->diff;
}

guint
tm_heap_diff_view_get_n_rows (TmHeapDiffView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_DIFF_VIEW (self), 0);
  return tm_tree_table_get_n_rows (self->rows);
}

char *
tm_heap_diff_view_dup_cell (TmHeapDiffView *self, guint row, guint column)
{
  g_return_val_if_fail (TM_IS_HEAP_DIFF_VIEW (self), NULL);
  g_return_val_if_fail (column < TM_HEAP_DIFF_N_COLUMNS, NULL);
  return tm_tree_table_dup_cell (self->rows, row, column);
}

void
tm_heap_diff_view_set_expanded (TmHeapDiffView *self, guint row, gboolean expanded)
{
  g_return_if_fail (TM_IS_HEAP_DIFF_VIEW (self));
  tm_tree_table_set_expanded (self->rows, row, expanded);
}

void
tm_heap_diff_view_select (TmHeapDiffView *self, guint row)
{
  g_return_if_fail (TM_IS_HEAP_DIFF_VIEW (self));
  tm_tree_table_select (self->rows, row);
}

gboolean
tm_heap_diff_view_search (TmHeapDiffView *self, const char *text)
{
  g_return_val_if_fail (TM_IS_HEAP_DIFF_VIEW (self), FALSE);
  return tm_tree_table_search (self->rows, text);
}

/* a new text searches from the top, Enter from the selected group on */
static void
search_changed_cb (GtkSearchEntry *entry, TmHeapDiffView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  if (*text != '\0')
    {
      tm_tree_table_select (self->rows, GTK_INVALID_LIST_POSITION);
      tm_tree_table_search (self->rows, text);
    }
}

static void
search_next_cb (GtkSearchEntry *entry, TmHeapDiffView *self)
{
  tm_tree_table_search (self->rows, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

TmRootPathPanel *
tm_heap_diff_view_get_path_panel (TmHeapDiffView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_DIFF_VIEW (self), NULL);
  return self->path_panel;
}

/* ---- path to GC roots ---- */

typedef struct {
  TmHeapDiffView *self;
  TmClassTree    *tree;
  char           *label;
} PathRequest;

static void
path_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  PathRequest *req = user_data;
  g_autoptr(TmHeapDiffView) self = req->self;
  g_autoptr(TmClassTree) tree = req->tree;
  g_autofree char *label = req->label;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmRootPath) path = tm_document_group_path_to_root_finish (TM_DOCUMENT (source), result, &error);

  g_free (req);
  set_busy (self, -1);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (path != NULL)
    tm_root_path_panel_set_path (self->path_panel, self->trace, label, path);
  else if (g_error_matches (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT))
    tm_root_path_panel_set_message (self->path_panel, _("The group is empty."));
  else
    tm_root_path_panel_set_message (self->path_panel, error->message);
}

/* The selected group's node in the heap it is alive in: the later one,
 * or the earlier one for a group that is gone. */
static gboolean
selected_group (TmHeapDiffView *self, TmClassTree **tree, guint32 *node, char **label)
{
  gpointer diff_p;
  guint32 diff_node;
  TmHeapDiff *diff;
  const TmHeapDiffNode *n;

  if (self->diff == NULL || !self->diff->has_graph
      || !tm_tree_table_get_selected (self->rows, &diff_p, &diff_node))
    return FALSE;
  diff = diff_p;
  n = tm_heap_diff_node (diff, diff_node);
  if (n->level == 0)
    return FALSE;
  *tree = n->after_node != TM_CLASS_NODE_NONE ? diff->after : diff->before;
  *node = n->after_node != TM_CLASS_NODE_NONE ? n->after_node : n->before_node;
  if (label)
    *label = g_strdup (n->label);
  return TRUE;
}

void
tm_heap_diff_view_show_path (TmHeapDiffView *self)
{
  TmClassTree *tree;
  guint32 node;
  char *label;
  PathRequest *req;

  g_return_if_fail (TM_IS_HEAP_DIFF_VIEW (self));
  if (!selected_group (self, &tree, &node, &label))
    return;
  g_cancellable_cancel (self->path_cancellable);
  g_clear_object (&self->path_cancellable);
  self->path_cancellable = g_cancellable_new ();
  tm_root_path_panel_set_message (self->path_panel, _("Searching a path to the GC roots…"));
  req = g_new0 (PathRequest, 1);
  req->self = g_object_ref (self);
  req->tree = tm_class_tree_ref (tree);
  req->label = label;
  set_busy (self, +1);
  tm_document_group_path_to_root_async (self->doc, tree, node, self->path_cancellable, path_done, req);
}

static void
path_clicked_cb (GtkButton *button, TmHeapDiffView *self)
{
  tm_heap_diff_view_show_path (self);
}

static void
selection_changed_cb (GtkSingleSelection *selection, GParamSpec *pspec, TmHeapDiffView *self)
{
  TmClassTree *tree;
  guint32 node;

  gtk_widget_set_sensitive (GTK_WIDGET (self->path_button), selected_group (self, &tree, &node, NULL));
}

/* ---- life cycle ---- */

GtkWidget *
tm_heap_diff_view_new (TmSession *session, guint from_gc, guint to_gc)
{
  TmHeapDiffView *self;
  TmDocument *doc;
  guint n;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);
  doc = tm_session_get_document (session);
  g_return_val_if_fail (TM_IS_DOCUMENT (doc), NULL);
  n = tm_trace_n_gcs (tm_document_get_trace (doc));
  g_return_val_if_fail (from_gc >= 1 && from_gc <= n && to_gc >= 1 && to_gc <= n, NULL);

  self = g_object_new (TM_TYPE_HEAP_DIFF_VIEW, "session", session, NULL);
  self->doc = g_object_ref (doc);
  self->trace = tm_trace_ref (tm_document_get_trace (doc));
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->from_spin), n);
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->to_spin), n);
  self->from_gc = from_gc;
  self->to_gc = to_gc;
  /* heaptrack files have no GC roots to find a path to */
  gtk_widget_set_visible (GTK_WIDGET (self->path_button), self->trace->n_graphs > 0);
  rebuild (self);
  g_signal_connect (self->from_spin, "value-changed", G_CALLBACK (gc_changed_cb), self);
  g_signal_connect (self->to_spin, "value-changed", G_CALLBACK (gc_changed_cb), self);
  return GTK_WIDGET (self);
}

static void
tm_heap_diff_view_dispose (GObject *object)
{
  TmHeapDiffView *self = TM_HEAP_DIFF_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->path_cancellable);
  g_clear_object (&self->path_cancellable);
  g_clear_handle_id (&self->gcs_timeout, g_source_remove);
  g_clear_object (&self->rows);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_HEAP_DIFF_VIEW);
  G_OBJECT_CLASS (tm_heap_diff_view_parent_class)->dispose (object);
}

static void
tm_heap_diff_view_finalize (GObject *object)
{
  TmHeapDiffView *self = TM_HEAP_DIFF_VIEW (object);

  g_clear_pointer (&self->diff, tm_heap_diff_unref);
  g_clear_pointer (&self->trace, tm_trace_unref);
  g_clear_object (&self->doc);
  G_OBJECT_CLASS (tm_heap_diff_view_parent_class)->finalize (object);
}

static void
tm_heap_diff_view_class_init (TmHeapDiffViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_heap_diff_view_dispose;
  object_class->finalize = tm_heap_diff_view_finalize;

  g_type_ensure (TM_TYPE_ROOT_PATH_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-heap-diff-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, box);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, from_spin);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, to_spin);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, level1_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, level2_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, path_button);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, progress);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, table);
  gtk_widget_class_bind_template_child (widget_class, TmHeapDiffView, path_panel);
  gtk_widget_class_bind_template_callback (widget_class, path_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_set_css_name (widget_class, "tm-heap-diff-view");
}

static void
tm_heap_diff_view_init (TmHeapDiffView *self)
{
  g_autoptr(GtkStringList) level1 = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) level2 = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->chain[0] = TM_CLASSIFIER_TYPE;
  self->depth = 1;

  /* TRANSLATORS: no second classifier */
  gtk_string_list_append (level2, _("nothing"));
  for (guint i = 0; i <= TM_N_OBJECT_CLASSIFIERS; i++)
    {
      gtk_string_list_append (level1, _(tm_chain_classifier_title (position_classifier (i))));
      gtk_string_list_append (level2, _(tm_chain_classifier_title (position_classifier (i))));
    }
  gtk_drop_down_set_model (self->level1_dropdown, G_LIST_MODEL (level1));
  gtk_drop_down_set_model (self->level2_dropdown, G_LIST_MODEL (level2));
  gtk_drop_down_set_selected (self->level1_dropdown, TM_CLASSIFIER_TYPE);
  gtk_drop_down_set_selected (self->level2_dropdown, 0);
  g_signal_connect (self->level1_dropdown, "notify::selected", G_CALLBACK (levels_changed_cb), self);
  g_signal_connect (self->level2_dropdown, "notify::selected", G_CALLBACK (levels_changed_cb), self);

  /* retained growth is what a leak is about: first, when there is a graph */
  self->rows = tm_tree_table_new (self->table, &table_funcs, self);
  /* names get room; the table scrolls sideways when narrow */
  gtk_column_view_column_set_fixed_width (tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_NAME, _("Group")), 260);
  /* TRANSLATORS: column titles of Compare Heaps: a metric before, after, change */
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_RETAINED_BEFORE, _("Retained before"));
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_RETAINED_AFTER, _("after"));
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_RETAINED_DELTA, _("change"));
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_BYTES_BEFORE, _("Bytes before"));
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_BYTES_AFTER, _("after"));
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_BYTES_DELTA, _("change"));
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_OBJECTS_BEFORE, _("Objects before"));
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_OBJECTS_AFTER, _("after"));
  tm_tree_table_add_column (self->rows, TM_HEAP_DIFF_COLUMN_OBJECTS_DELTA, _("change"));

  g_signal_connect (tm_tree_table_get_selection (self->rows), "notify::selected", G_CALLBACK (selection_changed_cb), self);
}
