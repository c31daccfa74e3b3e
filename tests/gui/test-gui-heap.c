/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The heap view under Xvfb, as a person uses it: open the synthetic leak,
 * select up to its last GC, Analyze > Heap at End of Selection; the view
 * groups by type, fills in deep and retained sizes on its worker; sorted
 * by retained size the static cache map comes first; adding "call site"
 * to the chain gives the journeys one child, JourneyCache.lookup;
 * reordering and removing classifiers rebuild the tree; search finds and
 * reveals a nested group; "path to GC roots" of the journeys ends at the
 * cache's static field.  At a GC without a graph the view shows shallow
 * sizes and names the nearest GCs with one.  The chain editor offers the
 * data-structure classifiers: at a graph GC "Containing data structure"
 * groups by the structures (with the user's .ds files of Preferences);
 * without a graph Add is disabled for them and its tooltip says why.
 * Add never offers a classifier the chain already has.  The first click
 * on a size column's title sorts it largest first.
 * Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-app-window.h"
#include "tm-heap-view.h"
#include "tm-session.h"
#include "tm-synth.h"
#include "tm-settings.h"
#include "tm-classify-chain.h"

#include "gui-test-util.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

static TmGuiTestFixture fx;

static gboolean
view_idle (gpointer data)
{
  return !tm_heap_view_is_busy (data) && tm_heap_view_get_tree (data) != NULL;
}

static gboolean
path_done (gpointer data)
{
  return tm_heap_view_get_path_text (data) != NULL;
}

static GtkWidget *
find_label (GtkWidget *root, const char *part)
{
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), part) != NULL)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label (c, part);
      if (found)
        return found;
    }
  return NULL;
}

static int
find_row (TmHeapView *view, const char *name)
{
  for (guint r = 0; r < tm_heap_view_get_n_rows (view); r++)
    {
      g_autofree char *cell = tm_heap_view_dup_cell (view, r, TM_HEAP_VIEW_COLUMN_NAME);
      if (strcmp (cell, name) == 0)
        return (int) r;
    }
  return -1;
}

static guint64
retained_of (TmHeapView *view, guint row)
{
  /* the table's order must follow the tree's numbers */
  TmClassTree *tree = tm_heap_view_get_tree (view);
  g_autofree char *name = tm_heap_view_dup_cell (view, row, TM_HEAP_VIEW_COLUMN_NAME);
  guint32 node = tm_class_tree_find_child (tree, 0, name);

  g_assert_cmpuint (node, !=, TM_CLASS_NODE_NONE);
  return tm_class_tree_node (tree, node)->m.retained_bytes;
}

static void
test_window (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmHeapView *view;
  TmClassifier chain[TM_CLASSIFY_MAX_DEPTH];
  guint n_gcs, n_top;
  int row;

  tm_gui_test_open_and_wait (win, fx.leak_path);
  g_assert_cmpstr (tm_app_window_get_page (win), ==, "trace");

  n_gcs = 200;
  tm_session_select_gcs (tm_app_window_get_session (win), 100, n_gcs);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.heap-at-selection", NULL));
  view = TM_HEAP_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_HEAP_VIEW));
  g_assert_nonnull (view);
  tm_gui_test_spin_until (view_idle, view, 60000);
  g_assert_true (tm_heap_view_get_metrics_ready (view));
  g_assert_cmpuint (tm_heap_view_get_chain (view, chain), ==, 1);
  g_assert_cmpint (chain[0], ==, TM_CLASSIFIER_TYPE);

  /* one row per type, largest shallow size first, sizes filled in */
  n_top = tm_heap_view_get_n_rows (view);
  g_assert_cmpuint (n_top, ==, tm_class_tree_node (tm_heap_view_get_tree (view), 0)->n_children);
  {
    g_autofree char *deep = tm_heap_view_dup_cell (view, 0, TM_HEAP_VIEW_COLUMN_DEEP);
    g_autofree char *name = tm_heap_view_dup_cell (view, 0, TM_HEAP_VIEW_COLUMN_NAME);
    g_assert_cmpstr (deep, !=, "…");
    g_assert_cmpstr (deep, !=, "—");
    g_assert_cmpstr (name, ==, "byte[]");
  }

  /* sorted by retained size: the cache map first, then descending */
  tm_heap_view_sort_by (view, TM_HEAP_VIEW_COLUMN_RETAINED, TRUE);
  {
    g_autofree char *name = tm_heap_view_dup_cell (view, 0, TM_HEAP_VIEW_COLUMN_NAME);
    g_assert_cmpstr (name, ==, "java.util.concurrent.ConcurrentHashMap");
  }
  for (guint r = 1; r < n_top; r++)
    g_assert_cmpuint (retained_of (view, r - 1), >=, retained_of (view, r));

  /* chain editor: type > call site; the journeys come from one caller */
  chain[1] = TM_CLASSIFIER_CALL_SITE;
  tm_heap_view_set_chain (view, chain, 2);
  tm_gui_test_spin_until (view_idle, view, 60000);
  row = find_row (view, "com.example.travel.Journey");
  g_assert_cmpint (row, >=, 0);
  tm_heap_view_set_expanded (view, row, TRUE);
  g_assert_cmpuint (tm_heap_view_get_n_rows (view), ==, n_top + 1);
  {
    g_autofree char *child = tm_heap_view_dup_cell (view, row + 1, TM_HEAP_VIEW_COLUMN_NAME);
    g_autofree char *objects = tm_heap_view_dup_cell (view, row + 1, TM_HEAP_VIEW_COLUMN_OBJECTS);
    g_autofree char *parent_objects = tm_heap_view_dup_cell (view, row, TM_HEAP_VIEW_COLUMN_OBJECTS);
    g_assert_true (g_str_has_prefix (child, "com.example.travel.JourneyCache.lookup("));
    g_assert_cmpstr (objects, ==, parent_objects);
  }

  /* search reveals a nested group and selects it */
  tm_heap_view_set_expanded (view, row, FALSE);
  g_assert_true (tm_heap_view_search (view, "sessionmanager.create"));
  {
    guint sel = tm_heap_view_get_selected (view);
    g_autofree char *name = NULL;
    g_assert_cmpuint (sel, !=, GTK_INVALID_LIST_POSITION);
    name = tm_heap_view_dup_cell (view, sel, TM_HEAP_VIEW_COLUMN_NAME);
    g_assert_true (strstr (name, "SessionManager.create") != NULL);
  }
  g_assert_false (tm_heap_view_search (view, "no such group anywhere"));

  /* path to GC roots of the journeys: from the cache's static field */
  row = find_row (view, "com.example.travel.Journey");
  tm_heap_view_select (view, row);
  tm_heap_view_show_path (view);
  tm_gui_test_spin_until (path_done, view, 30000);
  {
    const char *text = tm_heap_view_get_path_text (view);
    g_assert_nonnull (text);
    g_assert_nonnull (strstr (text, "GC root (static field): java.util.concurrent.ConcurrentHashMap @"));
    g_assert_nonnull (strstr (text, "→ java.util.concurrent.ConcurrentHashMap$Node[] @"));
  }

  /* reorder (call site first), then remove the type level */
  chain[0] = TM_CLASSIFIER_CALL_SITE;
  chain[1] = TM_CLASSIFIER_TYPE;
  tm_heap_view_set_chain (view, chain, 2);
  tm_gui_test_spin_until (view_idle, view, 60000);
  g_assert_cmpint (find_row (view, "com.example.travel.Journey"), ==, -1);
  g_assert_cmpint (tm_class_tree_node (tm_heap_view_get_tree (view), 1)->level, ==, 1);
  tm_heap_view_set_chain (view, chain, 1);
  tm_gui_test_spin_until (view_idle, view, 60000);
  g_assert_cmpuint (tm_class_tree_node (tm_heap_view_get_tree (view), 1)->n_children, ==, 0);

  gtk_window_destroy (GTK_WINDOW (win));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* A GC without a graph: shallow sizes, dashes, and a note. */
static void
test_no_graph (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDocument) doc = tm_document_load (fx.leak_path, NULL, NULL, NULL, &error);
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *window = gtk_window_new ();
  TmHeapView *view;

  g_assert_no_error (error);
  g_assert_false (tm_trace_gc (tm_document_get_trace (doc), 15)->has_graph);
  tm_session_set_document (session, doc);
  view = TM_HEAP_VIEW (tm_heap_view_new (session, 15));
  g_assert_cmpstr (tm_section_get_title (TM_SECTION (view)), ==, "Heap after GC 15");
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  tm_gui_test_spin_until (view_idle, view, 60000);
  g_assert_false (tm_heap_view_get_metrics_ready (view));
  g_assert_cmpuint (tm_heap_view_get_n_rows (view), >, 0);
  {
    g_autofree char *retained = tm_heap_view_dup_cell (view, 0, TM_HEAP_VIEW_COLUMN_RETAINED);
    g_autofree char *bytes = tm_heap_view_dup_cell (view, 0, TM_HEAP_VIEW_COLUMN_BYTES);
    GtkWidget *note = find_label (GTK_WIDGET (view), "the nearest GCs with one are 10 and 20");
    g_assert_cmpstr (retained, ==, "—");
    g_assert_cmpstr (bytes, !=, "—");
    g_assert_nonnull (note);
    g_assert_true (gtk_widget_get_visible (note));
  }
  gtk_window_destroy (GTK_WINDOW (window));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static GtkWidget *
find_button (GtkWidget *root, const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
has_row_prefix (TmHeapView *view, const char *prefix)
{
  for (guint r = 0; r < tm_heap_view_get_n_rows (view); r++)
    {
      g_autofree char *cell = tm_heap_view_dup_cell (view, r, TM_HEAP_VIEW_COLUMN_NAME);
      if (g_str_has_prefix (cell, prefix))
        return TRUE;
    }
  return FALSE;
}

static void
test_data_structures (void)
{
  GSettings *settings = tm_settings_get ();
  g_autofree char *ds = g_build_filename (fx.tmpdir, "journey.ds", NULL);
  const char *files[] = { ds, NULL };
  const char *none[] = { NULL };
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmHeapView *view;
  GtkDropDown *add;
  GtkWidget *add_button;
  TmClassifier chain[TM_CLASSIFY_MAX_DEPTH];
  int containing;

  /* the user's description makes each Journey a structure of its own */
  g_assert_true (g_file_set_contents (ds, "DS com.example.travel.Journey { java.lang.String; byte[]; }\n", -1, NULL));
  g_settings_set_strv (settings, "ds-files", files);

  tm_gui_test_open_and_wait (win, fx.leak_path);
  tm_session_select_gcs (tm_app_window_get_session (win), 100, 200);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.heap-at-selection", NULL));
  view = TM_HEAP_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_HEAP_VIEW));
  tm_gui_test_spin_until (view_idle, view, 60000);

  /* the three classifiers are offered; Add works at this graph GC */
  add = GTK_DROP_DOWN (tm_gui_test_find_widget (GTK_WIDGET (view), GTK_TYPE_DROP_DOWN));
  add_button = find_button (GTK_WIDGET (view), "_Add");
  g_assert_nonnull (add_button);
  g_assert_cmpint (tm_gui_test_dropdown_index (add, "Data structure leaves"), >=, 0);
  g_assert_cmpint (tm_gui_test_dropdown_index (add, "Data structure deep leaves"), >=, 0);
  containing = tm_gui_test_dropdown_index (add, "Containing data structure");
  g_assert_cmpint (containing, >=, 0);
  gtk_drop_down_set_selected (add, containing);
  g_assert_true (gtk_widget_get_sensitive (add_button));
  g_signal_emit_by_name (add_button, "clicked");
  g_assert_cmpuint (tm_heap_view_get_chain (view, chain), ==, 2);
  g_assert_cmpint (chain[1], ==, TM_CLASSIFIER_CONTAINING_DS);
  /* Add no longer offers what the chain has (the type was there from the start) */
  g_assert_cmpint (tm_gui_test_dropdown_index (add, "Containing data structure"), ==, -1);
  g_assert_cmpint (tm_gui_test_dropdown_index (add, "Type"), ==, -1);
  g_assert_cmpint (tm_gui_test_dropdown_index (add, "Data structure leaves"), >=, 0);
  tm_gui_test_spin_until (view_idle, view, 60000);
  g_assert_cmpuint (tm_heap_view_get_tree (view)->depth, ==, 2);

  /* structures first: the cache map, the objects in none, the journeys */
  chain[0] = TM_CLASSIFIER_CONTAINING_DS;
  tm_heap_view_set_chain (view, chain, 1);
  tm_gui_test_spin_until (view_idle, view, 60000);
  g_assert_cmpint (find_row (view, "(no data structure)"), >=, 0);
  g_assert_true (has_row_prefix (view, "java.util.concurrent.ConcurrentHashMap @"));
  g_assert_true (has_row_prefix (view, "com.example.travel.Journey @"));
  g_assert_true (tm_heap_view_get_metrics_ready (view));

  g_settings_set_strv (settings, "ds-files", none);
  gtk_window_destroy (GTK_WINDOW (win));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);

  /* without a graph: disabled, and the tooltip says why */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TmDocument) doc = tm_document_load (fx.leak_path, NULL, NULL, NULL, &error);
    g_autoptr(TmSession) session = tm_session_new ();
    GtkWidget *window = gtk_window_new ();
    TmHeapView *shallow;

    g_assert_no_error (error);
    tm_session_set_document (session, doc);
    shallow = TM_HEAP_VIEW (tm_heap_view_new (session, 15));
    gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (shallow));
    gtk_window_present (GTK_WINDOW (window));
    tm_gui_test_spin_until (view_idle, shallow, 60000);
    add = GTK_DROP_DOWN (tm_gui_test_find_widget (GTK_WIDGET (shallow), GTK_TYPE_DROP_DOWN));
    add_button = find_button (GTK_WIDGET (shallow), "_Add");
    gtk_drop_down_set_selected (add, tm_gui_test_dropdown_index (add, "Containing data structure"));
    g_assert_false (gtk_widget_get_sensitive (add_button));
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (add_button), "GC 15 has none"));
    g_signal_emit_by_name (add_button, "clicked");
    g_assert_cmpuint (tm_heap_view_get_chain (shallow, NULL), ==, 1);
    gtk_drop_down_set_selected (add, tm_gui_test_dropdown_index (add, "Call site"));
    g_assert_true (gtk_widget_get_sensitive (add_button));
    gtk_window_destroy (GTK_WINDOW (window));
    for (int i = 0; i < 50; i++)
      g_main_context_iteration (NULL, FALSE);
  }
}

/* The number in a cell ("16,515", "1.28 MiB" as bytes) for comparing. */
static double
cell_number (TmHeapView *view, guint row, guint column)
{
  g_autofree char *text = tm_heap_view_dup_cell (view, row, column);
  GString *digits = g_string_new (NULL);
  double v;

  for (const char *p = text; *p && *p != ' '; p++)
    if (*p != ',')
      g_string_append_c (digits, *p);
  v = g_ascii_strtod (digits->str, NULL);
  if (strstr (text, "KiB")) v *= 1024;
  if (strstr (text, "MiB")) v *= 1024 * 1024;
  g_string_free (digits, TRUE);
  return v;
}

/* A first click on a title, as the pointer would press it: the view's
 * capture-phase click gesture gets it first. */
static void
click_title (GtkColumnView *table, guint visible_index)
{
  GtkWidget *title = NULL;
  guint seen = 0;
  graphene_point_t p;
  GListModel *controllers = gtk_widget_observe_controllers (GTK_WIDGET (table));
  gboolean pressed = FALSE;

  /* the titles are the header's children, in column order */
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (table)); w && !title; w = gtk_widget_get_next_sibling (w))
    for (GtkWidget *t = gtk_widget_get_first_child (w); t && !title; t = gtk_widget_get_next_sibling (t))
      if (strcmp (G_OBJECT_TYPE_NAME (t), "GtkColumnViewTitle") == 0 && seen++ == visible_index)
        title = t;
  g_assert_nonnull (title);
  g_assert_true (gtk_widget_compute_point (title, GTK_WIDGET (table),
                                           &GRAPHENE_POINT_INIT (gtk_widget_get_width (title) / 2.0,
                                                                 gtk_widget_get_height (title) / 2.0), &p));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !pressed; i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_CLICK (c) && gtk_event_controller_get_propagation_phase (c) == GTK_PHASE_CAPTURE)
        {
          g_signal_emit_by_name (c, "pressed", 1, (double) p.x, (double) p.y);
          pressed = TRUE;
        }
    }
  g_object_unref (controllers);
  g_assert_true (pressed);
}

static void
assert_descending (TmHeapView *view, guint column)
{
  guint n = tm_heap_view_get_n_rows (view);

  g_assert_cmpuint (n, >=, 3);
  for (guint r = 1; r < n; r++)
    g_assert_cmpfloat (cell_number (view, r - 1, column), >=, cell_number (view, r, column));
  g_assert_cmpfloat (cell_number (view, 0, column), >, cell_number (view, n - 1, column));
}

/* Sizes and counts read largest first: the first click on their title
 * sorts descending (GTK's own first click sorts ascending). */
static void
test_sort_first_click (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmHeapView *view;
  GtkColumnView *table;

  tm_gui_test_open_and_wait (win, fx.leak_path);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.heap-at-selection", NULL));
  view = TM_HEAP_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_HEAP_VIEW));
  tm_gui_test_spin_until (view_idle, view, 60000);
  table = GTK_COLUMN_VIEW (tm_gui_test_find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW));
  tm_gui_test_spin (200);

  click_title (table, TM_HEAP_VIEW_COLUMN_OBJECTS);
  tm_gui_test_spin (100);
  assert_descending (view, TM_HEAP_VIEW_COLUMN_OBJECTS);
  click_title (table, TM_HEAP_VIEW_COLUMN_BYTES);
  tm_gui_test_spin (100);
  assert_descending (view, TM_HEAP_VIEW_COLUMN_BYTES);
  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-heap-XXXXXX", 0.5, &fx))
    return 77;
  g_test_add_func ("/gui/heap/window", test_window);
  g_test_add_func ("/gui/heap/no-graph", test_no_graph);
  g_test_add_func ("/gui/heap/data-structures", test_data_structures);
  g_test_add_func ("/gui/heap/sort-first-click", test_sort_first_click);
  return tm_gui_test_run (&fx);
}
