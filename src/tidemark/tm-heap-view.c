/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-tree-table.h"
#include "tm-heap-view.h"
#include "tm-root-path-panel.h"
#include "tm-classify-chain.h"
#include "tm-column-sort.h"
#include "tm-error.h"
#include "tm-format-util.h"

#include <glib/gi18n.h>
#include <string.h>

/* ---- rows: one classification-tree node each ---- */

#define TM_TYPE_HEAP_ROW (tm_heap_row_get_type ())
G_DECLARE_FINAL_TYPE (TmHeapRow, tm_heap_row, TM, HEAP_ROW, GObject)

struct _TmHeapRow
{
  GObject      parent_instance;
  TmClassTree *tree;
  guint32      node;
  char        *label;
  guint        revision;     /* bumped when deep/retained sizes arrive */
};

enum { ROW_PROP_0, ROW_PROP_REVISION, ROW_N_PROPS };
static GParamSpec *row_props[ROW_N_PROPS];

G_DEFINE_FINAL_TYPE (TmHeapRow, tm_heap_row, G_TYPE_OBJECT)

static void
tm_heap_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TmHeapRow *row = TM_HEAP_ROW (object);

  if (prop_id == ROW_PROP_REVISION)
    g_value_set_uint (value, row->revision);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
tm_heap_row_finalize (GObject *object)
{
  TmHeapRow *row = TM_HEAP_ROW (object);

  g_free (row->label);
  tm_class_tree_unref (row->tree);
  G_OBJECT_CLASS (tm_heap_row_parent_class)->finalize (object);
}

static void
tm_heap_row_class_init (TmHeapRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = tm_heap_row_get_property;
  object_class->finalize = tm_heap_row_finalize;
  row_props[ROW_PROP_REVISION] = g_param_spec_uint ("revision", NULL, NULL, 0, G_MAXUINT, 0,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, ROW_N_PROPS, row_props);
}

static void
tm_heap_row_init (TmHeapRow *row)
{
}

static TmHeapRow *
row_new (TmClassTree *tree, guint32 node)
{
  TmHeapRow *row = g_object_new (TM_TYPE_HEAP_ROW, NULL);

  row->tree = tm_class_tree_ref (tree);
  row->node = node;
  row->label = tm_class_tree_node_label (tree, node);
  return row;
}

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
  GtkBox              *chain_box;
  GtkDropDown         *add_dropdown;
  GtkButton           *add_button;
  GtkLabel            *status_label;
  GtkColumnView       *table;
  TmRootPathPanel     *path_panel;
  GtkSpinButton       *gc_spin;
  GtkLabel            *gc_label;

  GListStore          *roots;          /* TmHeapRow: the first level */
  GtkTreeListModel    *tree_model;
  GtkSortListModel    *sorted;
  GtkSingleSelection  *selection;
  GtkColumnViewColumn *columns[TM_HEAP_VIEW_N_COLUMNS];
  GtkSorter           *sorters[TM_HEAP_VIEW_N_COLUMNS];
  GPtrArray           *rows;           /* every TmHeapRow made for this tree */

  TmDocument          *doc;
  TmTrace             *trace;          /* the document's */
  guint                gc_id;
  TmHeapAnalysis      *heap;
  TmClassTree         *tree;
  TmClassifier         chain[TM_CLASSIFY_MAX_DEPTH];
  guint                add_choices[TM_CHAIN_N_CHOICES];   /* Add's items: classifiers not in the chain */
  guint                n_add_choices;
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

/* ---- cells ---- */

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

static char *
cell_text (TmHeapView *self, TmHeapRow *row, guint column)
{
  const TmClassNode *n = tm_class_tree_node (row->tree, row->node);
  TmGroupMetrics m;

  switch (column)
    {
    case TM_HEAP_VIEW_COLUMN_NAME:            return g_strdup (row->label);
    case TM_HEAP_VIEW_COLUMN_OBJECTS:         return tm_format_count (n->m.objects);
    case TM_HEAP_VIEW_COLUMN_OBJECTS_PERCENT: return percent_text (n->m.objects, total_objects (self));
    case TM_HEAP_VIEW_COLUMN_BYTES:           return tm_format_bytes ((double) n->m.bytes);
    case TM_HEAP_VIEW_COLUMN_BYTES_PERCENT:   return percent_text (n->m.bytes, total_bytes (self));
    case TM_HEAP_VIEW_COLUMN_DEEP:
    case TM_HEAP_VIEW_COLUMN_RETAINED:
      if (self->heap == NULL || !tm_heap_analysis_has_graph (self->heap))
        return g_strdup ("—");
      if (!tm_class_tree_get_metrics (row->tree, row->node, &m))
        return g_strdup ("…");
      return tm_format_bytes ((double) (column == TM_HEAP_VIEW_COLUMN_DEEP ? m.deep_bytes : m.retained_bytes));
    default:
      return g_strdup ("");
    }
}

static void
update_cell (GtkListItem *item)
{
  TmHeapView *self = g_object_get_data (G_OBJECT (item), "tm-view");
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (item), "tm-column"));
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);
  g_autoptr(TmHeapRow) row = NULL;
  GtkWidget *child = gtk_list_item_get_child (item);
  g_autofree char *text = NULL;
  TmGroupMetrics m;

  if (tree_row == NULL)
    return;
  row = gtk_tree_list_row_get_item (tree_row);
  if (column == TM_HEAP_VIEW_COLUMN_NAME)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), tree_row);
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
      gtk_widget_set_tooltip_text (child, row->label);
    }
  else if ((column == TM_HEAP_VIEW_COLUMN_DEEP || column == TM_HEAP_VIEW_COLUMN_RETAINED)
           && tm_class_tree_get_metrics (row->tree, row->node, &m))
    {
      g_autofree char *count = tm_format_count (column == TM_HEAP_VIEW_COLUMN_DEEP ? m.deep_objects
                                                                                : m.retained_objects);
      /* TRANSLATORS: tooltip of a deep or retained size: number of objects */
      g_autofree char *tip = g_strdup_printf (_("%s objects"), count);
      gtk_widget_set_tooltip_text (child, tip);
    }
  text = cell_text (self, row, column);
  gtk_label_set_text (GTK_LABEL (child), text);
}

static void
row_revision_cb (TmHeapRow *row, GParamSpec *pspec, GtkListItem *item)
{
  update_cell (item);
}

static void
cell_setup (GtkSignalListItemFactory *factory, GtkListItem *item, TmHeapView *self)
{
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "tm-column"));
  GtkWidget *label = gtk_label_new (NULL);

  g_object_set_data (G_OBJECT (item), "tm-view", self);
  g_object_set_data (G_OBJECT (item), "tm-column", GUINT_TO_POINTER (column));
  if (column == TM_HEAP_VIEW_COLUMN_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      /* a class name's end tells it apart (the simple name) */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
      gtk_label_set_width_chars (GTK_LABEL (label), 24);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
      gtk_list_item_set_child (item, label);
    }
}

static void
cell_bind (GtkSignalListItemFactory *factory, GtkListItem *item, TmHeapView *self)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);
  g_autoptr(TmHeapRow) row = gtk_tree_list_row_get_item (tree_row);
  gulong id;

  id = g_signal_connect (row, "notify::revision", G_CALLBACK (row_revision_cb), item);
  g_object_set_data (G_OBJECT (item), "tm-handler", GSIZE_TO_POINTER (id));
  g_object_set_data_full (G_OBJECT (item), "tm-row", g_object_ref (row), g_object_unref);
  update_cell (item);
}

static void
cell_unbind (GtkSignalListItemFactory *factory, GtkListItem *item, TmHeapView *self)
{
  TmHeapRow *row = g_object_get_data (G_OBJECT (item), "tm-row");
  gulong id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (item), "tm-handler"));

  if (row != NULL && id != 0)
    g_signal_handler_disconnect (row, id);
  g_object_set_data (G_OBJECT (item), "tm-handler", NULL);
  g_object_set_data (G_OBJECT (item), "tm-row", NULL);
}

/* ---- sorting ---- */

static guint64
row_value (TmHeapRow *row, guint column)
{
  const TmClassNode *n = tm_class_tree_node (row->tree, row->node);
  TmGroupMetrics m;

  switch (column)
    {
    case TM_HEAP_VIEW_COLUMN_OBJECTS:
    case TM_HEAP_VIEW_COLUMN_OBJECTS_PERCENT: return n->m.objects;
    case TM_HEAP_VIEW_COLUMN_BYTES:
    case TM_HEAP_VIEW_COLUMN_BYTES_PERCENT:   return n->m.bytes;
    case TM_HEAP_VIEW_COLUMN_DEEP:
      return tm_class_tree_get_metrics (row->tree, row->node, &m) ? m.deep_bytes : 0;
    case TM_HEAP_VIEW_COLUMN_RETAINED:
      return tm_class_tree_get_metrics (row->tree, row->node, &m) ? m.retained_bytes : 0;
    default:                                  return 0;
    }
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer column_p)
{
  TmHeapRow *x = (TmHeapRow *) a, *y = (TmHeapRow *) b;
  guint column = GPOINTER_TO_UINT (column_p);
  guint64 vx, vy;

  if (column == TM_HEAP_VIEW_COLUMN_NAME)
    {
      int c = g_utf8_collate (x->label, y->label);
      return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
    }
  vx = row_value (x, column);
  vy = row_value (y, column);
  return vx < vy ? GTK_ORDERING_SMALLER : vx > vy ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
add_column (TmHeapView *self, guint column, const char *title)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_object_set_data (G_OBJECT (factory), "tm-column", GUINT_TO_POINTER (column));
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), self);
  col = gtk_column_view_column_new (title, factory);
  self->sorters[column] = GTK_SORTER (gtk_custom_sorter_new (compare_rows, GUINT_TO_POINTER (column), NULL));
  gtk_column_view_column_set_sorter (col, self->sorters[column]);
  gtk_column_view_column_set_expand (col, column == TM_HEAP_VIEW_COLUMN_NAME);
  if (column != TM_HEAP_VIEW_COLUMN_NAME)
    tm_column_sort_descending_first (col);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (self->table, col);
  self->columns[column] = col;
}

/* ---- the tree model ---- */

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  TmHeapView *self = user_data;
  TmHeapRow *parent = item;
  const TmClassNode *n = tm_class_tree_node (parent->tree, parent->node);
  GListStore *store;

  if (n->n_children == 0)
    return NULL;
  store = g_list_store_new (TM_TYPE_HEAP_ROW);
  for (guint32 c = 0; c < n->n_children; c++)
    {
      g_autoptr(TmHeapRow) row = row_new (parent->tree, n->first_child + c);
      g_ptr_array_add (self->rows, g_object_ref (row));
      g_list_store_append (store, row);
    }
  return G_LIST_MODEL (store);
}

static void
fill_roots (TmHeapView *self)
{
  const TmClassNode *root;

  g_list_store_remove_all (self->roots);
  g_ptr_array_set_size (self->rows, 0);
  if (self->tree == NULL)
    return;
  root = tm_class_tree_node (self->tree, 0);
  for (guint32 c = 0; c < root->n_children; c++)
    {
      g_autoptr(TmHeapRow) row = row_new (self->tree, root->first_child + c);
      g_ptr_array_add (self->rows, g_object_ref (row));
      g_list_store_append (self->roots, row);
    }
}

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
      /* TRANSLATORS: heap view title: GC number, object count, size */
      title = g_strdup_printf (_("Heap after GC %u: %s objects, %s"), self->gc_id, objects, bytes);
    }
  else
    title = g_strdup_printf (_("Heap after GC %u"), self->gc_id);
  gtk_label_set_text (self->title_label, title);
}

/* ---- the document's work ---- */

static void
refresh_metrics (TmHeapView *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      TmHeapRow *row = g_ptr_array_index (self->rows, i);
      row->revision++;
      g_object_notify_by_pspec (G_OBJECT (row), row_props[ROW_PROP_REVISION]);
    }
  gtk_sorter_changed (self->sorters[TM_HEAP_VIEW_COLUMN_DEEP], GTK_SORTER_CHANGE_DIFFERENT);
  gtk_sorter_changed (self->sorters[TM_HEAP_VIEW_COLUMN_RETAINED], GTK_SORTER_CHANGE_DIFFERENT);
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
  fill_roots (self);
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

/* ---- chain editor ---- */

static void rebuild_chain_box (TmHeapView *self);
static void update_add_button (TmHeapView *self);
static void refill_add_dropdown (TmHeapView *self);

static void
chain_button_cb (GtkButton *button, TmHeapView *self)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "tm-index"));
  const char *what = g_object_get_data (G_OBJECT (button), "tm-what");
  TmClassifier c;

  if (i >= self->depth)
    return;
  if (g_str_equal (what, "earlier") && i > 0)
    {
      c = self->chain[i - 1];
      self->chain[i - 1] = self->chain[i];
      self->chain[i] = c;
    }
  else if (g_str_equal (what, "later") && i + 1 < self->depth)
    {
      c = self->chain[i + 1];
      self->chain[i + 1] = self->chain[i];
      self->chain[i] = c;
    }
  else if (g_str_equal (what, "remove") && self->depth > 1)
    {
      memmove (self->chain + i, self->chain + i + 1, (self->depth - i - 1) * sizeof *self->chain);
      self->depth--;
    }
  else
    return;
  rebuild_chain_box (self);
  rebuild (self);
}

static GtkWidget *
chain_button (TmHeapView *self, guint i, const char *icon, const char *what, const char *tooltip, gboolean sensitive)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_sensitive (button, sensitive);
  g_object_set_data (G_OBJECT (button), "tm-index", GUINT_TO_POINTER (i));
  g_object_set_data (G_OBJECT (button), "tm-what", (gpointer) what);
  g_signal_connect (button, "clicked", G_CALLBACK (chain_button_cb), self);
  return button;
}

static void
rebuild_chain_box (TmHeapView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->chain_box))) != NULL)
    gtk_box_remove (self->chain_box, child);

  for (guint i = 0; i < self->depth; i++)
    {
      GtkWidget *group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      GtkWidget *label = gtk_label_new (_(tm_chain_classifier_title (self->chain[i])));

      gtk_widget_add_css_class (group, "linked");
      gtk_widget_set_margin_start (label, 6);
      gtk_widget_set_margin_end (label, 6);
      gtk_box_append (GTK_BOX (group), label);
      gtk_box_append (GTK_BOX (group), chain_button (self, i, "go-previous-symbolic", "earlier",
                                                     _("Group by this earlier"), i > 0));
      gtk_box_append (GTK_BOX (group), chain_button (self, i, "go-next-symbolic", "later",
                                                     _("Group by this later"), i + 1 < self->depth));
      gtk_box_append (GTK_BOX (group), chain_button (self, i, "window-close-symbolic", "remove",
                                                     _("Remove this classifier"), self->depth > 1));
      gtk_box_append (self->chain_box, group);
    }
  refill_add_dropdown (self);
  update_add_button (self);
}

/* The classifier Add's item stands for, or TM_CHAIN_N_CHOICES. */
static guint
selected_add_choice (TmHeapView *self)
{
  guint item = gtk_drop_down_get_selected (self->add_dropdown);

  return item < self->n_add_choices ? self->add_choices[item] : TM_CHAIN_N_CHOICES;
}

/* Add offers the classifiers not yet in the chain, keeping the one
 * picked when it is still there. */
static void
refill_add_dropdown (TmHeapView *self)
{
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);
  guint previous = self->n_add_choices > 0 ? selected_add_choice (self) : tm_chain_classifier_choice (TM_CLASSIFIER_SITE);
  guint select = 0;

  self->n_add_choices = 0;
  for (guint i = 0; i < TM_CHAIN_N_CHOICES; i++)
    {
      TmClassifier c = tm_chain_choice_classifier (i);
      gboolean used = FALSE;

      for (guint d = 0; d < self->depth && !used; d++)
        used = self->chain[d] == c;
      if (used)
        continue;
      if (i == previous)
        select = self->n_add_choices;
      self->add_choices[self->n_add_choices++] = i;
      gtk_string_list_append (titles, _(tm_chain_classifier_title (c)));
    }
  gtk_drop_down_set_model (self->add_dropdown, G_LIST_MODEL (titles));
  gtk_drop_down_set_selected (self->add_dropdown, select);
}

/* The data-structure classifiers need this GC's reference graph: Add
 * is disabled for them where there is none, and says why. */
static void
update_add_button (TmHeapView *self)
{
  guint choice = selected_add_choice (self);
  gboolean ds = choice < TM_CHAIN_N_CHOICES && tm_chain_classifier_is_ds (tm_chain_choice_classifier (choice));
  gboolean graph = self->trace != NULL && tm_trace_gc (self->trace, self->gc_id)->has_graph;
  g_autofree char *tooltip = NULL;

  if (ds && !graph)
    tooltip = g_strdup_printf (_("Data structures are detected on the reference graph, and GC %u has none"),
                               self->gc_id);
  else
    tooltip = g_strdup (_("Add the classifier at the end of the chain"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->add_button), tooltip);
  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button),
                            choice < TM_CHAIN_N_CHOICES && self->depth < TM_CLASSIFY_MAX_DEPTH && (!ds || graph));
}

static void
add_selected_cb (GObject *dropdown, GParamSpec *pspec, TmHeapView *self)
{
  update_add_button (self);
}

static void
add_clicked_cb (GtkButton *button, TmHeapView *self)
{
  guint choice = selected_add_choice (self);
  TmClassifier c;

  if (choice >= TM_CHAIN_N_CHOICES || self->depth >= TM_CLASSIFY_MAX_DEPTH)
    return;
  c = tm_chain_choice_classifier (choice);
  if (tm_chain_classifier_is_ds (c) && !tm_trace_gc (self->trace, self->gc_id)->has_graph)
    return;
  self->chain[self->depth++] = c;
  rebuild_chain_box (self);
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
  rebuild_chain_box (self);
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

static GtkTreeListRow *
tree_row_at (TmHeapView *self, guint position)
{
  return g_list_model_get_item (G_LIST_MODEL (self->selection), position);
}

guint
tm_heap_view_get_n_rows (TmHeapView *self)
{
  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->selection));
}

char *
tm_heap_view_dup_cell (TmHeapView *self,
                       guint       row,
                       guint       column)
{
  g_autoptr(GtkTreeListRow) tree_row = NULL;
  g_autoptr(TmHeapRow) item = NULL;

  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), NULL);
  g_return_val_if_fail (column < TM_HEAP_VIEW_N_COLUMNS, NULL);

  tree_row = tree_row_at (self, row);
  if (tree_row == NULL)
    return NULL;
  item = gtk_tree_list_row_get_item (tree_row);
  return cell_text (self, item, column);
}

void
tm_heap_view_set_expanded (TmHeapView *self,
                           guint       row,
                           gboolean    expanded)
{
  g_autoptr(GtkTreeListRow) tree_row = NULL;

  g_return_if_fail (TM_IS_HEAP_VIEW (self));
  tree_row = tree_row_at (self, row);
  if (tree_row != NULL)
    gtk_tree_list_row_set_expanded (tree_row, expanded);
}

void
tm_heap_view_sort_by (TmHeapView *self,
                      guint       column,
                      gboolean    descending)
{
  g_return_if_fail (TM_IS_HEAP_VIEW (self));
  g_return_if_fail (column < TM_HEAP_VIEW_N_COLUMNS);
  tm_column_sort_by (self->table, self->columns[column],
                     descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
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
  return gtk_single_selection_get_selected (self->selection);
}

static void
scroll_to (TmHeapView *self, guint position)
{
  /* GTK 4.8 has no gtk_column_view_scroll_to(); its inner list view
   * has the list.scroll-to-item action. */
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->table)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      {
        gtk_widget_activate_action (c, "list.scroll-to-item", "u", position);
        break;
      }
}

void
tm_heap_view_select (TmHeapView *self,
                     guint       row)
{
  g_return_if_fail (TM_IS_HEAP_VIEW (self));
  gtk_single_selection_set_selected (self->selection, row);
  if (row != GTK_INVALID_LIST_POSITION)
    scroll_to (self, row);
}

/* ---- search ---- */

/* Next node after `after` in depth-first tree order (children in stored
 * order), wrapping to the first level; TM_CLASS_NODE_NONE when empty. */
static guint32
next_in_order (TmClassTree *tree, guint32 node)
{
  const TmClassNode *n = tm_class_tree_node (tree, node);

  if (n->n_children > 0)
    return n->first_child;
  while (node != 0)
    {
      const TmClassNode *cur = tm_class_tree_node (tree, node);
      const TmClassNode *parent = tm_class_tree_node (tree, cur->parent);
      if (node + 1 < parent->first_child + parent->n_children)
        return node + 1;
      node = cur->parent;
    }
  n = tm_class_tree_node (tree, 0);
  return n->n_children > 0 ? n->first_child : TM_CLASS_NODE_NONE;
}

static guint
find_tree_row (TmHeapView *self, GtkTreeListRow *target)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  for (guint pos = 0; pos < n; pos++)
    {
      g_autoptr(GtkTreeListRow) r = tree_row_at (self, pos);
      if (r == target)
        return pos;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* Expands the parents of `node` and returns its GtkTreeListRow. */
static GtkTreeListRow *
reveal (TmHeapView *self, guint32 node)
{
  guint32 path[TM_CLASSIFY_MAX_DEPTH + 1];
  guint depth = 0;
  GtkTreeListRow *row = NULL;

  for (guint32 x = node; x != 0; x = tm_class_tree_node (self->tree, x)->parent)
    path[depth++] = x;

  for (guint lvl = depth; lvl-- > 0;)
    {
      GListModel *siblings;
      guint n;
      GtkTreeListRow *next = NULL;

      if (row == NULL)
        siblings = G_LIST_MODEL (self->roots);
      else
        {
          gtk_tree_list_row_set_expanded (row, TRUE);
          siblings = gtk_tree_list_row_get_children (row);
        }
      n = siblings ? g_list_model_get_n_items (siblings) : 0;
      for (guint i = 0; i < n && next == NULL; i++)
        {
          g_autoptr(TmHeapRow) item = g_list_model_get_item (siblings, i);
          if (item->node == path[lvl])
            next = row == NULL ? gtk_tree_list_model_get_child_row (self->tree_model, i)
                               : gtk_tree_list_row_get_child_row (row, i);
        }
      g_clear_object (&row);
      row = next;
      if (row == NULL)
        return NULL;
    }
  return row;
}

gboolean
tm_heap_view_search (TmHeapView *self,
                     const char *text)
{
  g_autofree char *needle = NULL;
  guint32 start, node;
  guint selected;

  g_return_val_if_fail (TM_IS_HEAP_VIEW (self), FALSE);

  if (self->tree == NULL || text == NULL || *text == '\0')
    return FALSE;
  needle = g_utf8_casefold (text, -1);

  selected = gtk_single_selection_get_selected (self->selection);
  start = TM_CLASS_NODE_NONE;
  if (selected != GTK_INVALID_LIST_POSITION)
    {
      g_autoptr(GtkTreeListRow) r = tree_row_at (self, selected);
      g_autoptr(TmHeapRow) item = r ? gtk_tree_list_row_get_item (r) : NULL;
      if (item != NULL && item->tree == self->tree)
        start = item->node;
    }
  node = start == TM_CLASS_NODE_NONE ? next_in_order (self->tree, 0) : next_in_order (self->tree, start);

  for (guint32 steps = 0; node != TM_CLASS_NODE_NONE && steps < self->tree->nodes->len; steps++)
    {
      g_autofree char *label = tm_class_tree_node_label (self->tree, node);
      g_autofree char *folded = g_utf8_casefold (label, -1);

      if (strstr (folded, needle) != NULL)
        {
          g_autoptr(GtkTreeListRow) row = reveal (self, node);
          guint pos = row ? find_tree_row (self, row) : GTK_INVALID_LIST_POSITION;
          if (pos == GTK_INVALID_LIST_POSITION)
            return FALSE;
          tm_heap_view_select (self, pos);
          return TRUE;
        }
      node = next_in_order (self->tree, node);
    }
  return FALSE;
}

static void
search_changed_cb (GtkSearchEntry *entry, TmHeapView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  /* a new text searches from the top */
  if (*text != '\0')
    {
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
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
  g_autoptr(GtkTreeListRow) tree_row = NULL;
  g_autoptr(TmHeapRow) row = NULL;
  PathRequest *req;
  guint selected;

  g_return_if_fail (TM_IS_HEAP_VIEW (self));

  selected = gtk_single_selection_get_selected (self->selection);
  if (selected == GTK_INVALID_LIST_POSITION || self->heap == NULL || !tm_heap_analysis_has_graph (self->heap))
    return;
  tree_row = tree_row_at (self, selected);
  row = gtk_tree_list_row_get_item (tree_row);

  g_cancellable_cancel (self->path_cancellable);
  g_clear_object (&self->path_cancellable);
  self->path_cancellable = g_cancellable_new ();
  self->path_ready = FALSE;
  tm_root_path_panel_set_message (self->path_panel, _("Searching a path to the GC roots…"));

  req = g_new0 (PathRequest, 1);
  req->self = g_object_ref (self);
  req->tree = tm_class_tree_ref (row->tree);
  req->node = row->node;
  set_busy (self, +1);
  tm_document_group_path_to_root_async (self->doc, row->tree, row->node, self->path_cancellable, path_done, req);
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
  fill_roots (self);
  title = section_title (self->trace, gc_id);
  tm_section_set_title (TM_SECTION (self), title);
  update_title (self);
  update_add_button (self);
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
      gtk_column_view_column_set_visible (self->columns[TM_HEAP_VIEW_COLUMN_DEEP], FALSE);
      gtk_column_view_column_set_visible (self->columns[TM_HEAP_VIEW_COLUMN_RETAINED], FALSE);
      /* heaptrack's word: blocks, not objects */
      gtk_column_view_column_set_title (self->columns[TM_HEAP_VIEW_COLUMN_OBJECTS], _("Blocks"));
      gtk_widget_set_visible (GTK_WIDGET (self->path_button), FALSE);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->gc_spin), _("The blocks allocated at this time point"));
      gtk_label_set_text_with_mnemonic (self->gc_label, _("_Time point"));
    }
  update_title (self);
  update_add_button (self);
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
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_HEAP_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->roots);
  for (guint i = 0; i < TM_HEAP_VIEW_N_COLUMNS; i++)
    {
      g_clear_object (&self->columns[i]);
      g_clear_object (&self->sorters[i]);
    }
  g_clear_pointer (&self->rows, g_ptr_array_unref);
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
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-heap-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, box);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, progress);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, path_button);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, chain_box);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, add_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, add_button);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, table);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, path_panel);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, gc_spin);
  gtk_widget_class_bind_template_child (widget_class, TmHeapView, gc_label);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, path_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked_cb);
  gtk_widget_class_set_css_name (widget_class, "tm-heap-view");
}

static void
tm_heap_view_init (TmHeapView *self)
{

  gtk_widget_init_template (GTK_WIDGET (self));

  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->chain[0] = TM_CLASSIFIER_TYPE;
  self->depth = 1;

  refill_add_dropdown (self);
  g_signal_connect (self->add_dropdown, "notify::selected", G_CALLBACK (add_selected_cb), self);

  add_column (self, TM_HEAP_VIEW_COLUMN_NAME, _("Group"));
  add_column (self, TM_HEAP_VIEW_COLUMN_OBJECTS, _("Objects"));
  add_column (self, TM_HEAP_VIEW_COLUMN_OBJECTS_PERCENT, _("%"));
  add_column (self, TM_HEAP_VIEW_COLUMN_BYTES, _("Bytes"));
  add_column (self, TM_HEAP_VIEW_COLUMN_BYTES_PERCENT, _("%"));
  add_column (self, TM_HEAP_VIEW_COLUMN_DEEP, _("Deep"));
  add_column (self, TM_HEAP_VIEW_COLUMN_RETAINED, _("Retained"));

  self->roots = g_list_store_new (TM_TYPE_HEAP_ROW);
  self->tree_model = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->roots)), FALSE, FALSE,
                                              create_children, self, NULL);
  self->selection = tm_tree_table_attach (self->table, g_object_ref (self->tree_model), &self->sorted);
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  tm_column_sort_init (self->table);
  tm_column_sort_by (self->table, self->columns[TM_HEAP_VIEW_COLUMN_BYTES], GTK_SORT_DESCENDING);

  rebuild_chain_box (self);
}
