/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Compare Heaps under Xvfb, as a person uses it: open the synthetic
 * leak, click the leak window's "Compare Heaps" button in the sidebar;
 * the view compares the window's first and last GC with a graph, every
 * cell equal to two class trees built on their own; the cache map grew
 * most in retained size; expanding Overall and a group drills down; path
 * to GC roots of the journeys fills the panel; the GC pickers and a
 * second classifier rebuild it; win.compare-heaps "(uu)" opens any pair;
 * the sidebar's explanations carry no CLI command, offer the steps as
 * buttons and the whole text in a popover; Heap at Start of Selection.
 * Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-app-window.h"
#include "tm-heap-diff-view.h"
#include "tm-heap-view.h"
#include "tm-session.h"
#include "tm-window-steps.h"

#include "gui-test-util.h"

#include <gtk/gtk.h>
#include <string.h>

static TmGuiTestFixture fx;

static gboolean
diff_idle (gpointer data)
{
  return !tm_heap_diff_view_is_busy (data) && tm_heap_diff_view_get_diff (data) != NULL;
}

static gboolean
path_shown (gpointer data)
{
  return tm_root_path_panel_get_n_hops (data) > 0;
}

static GtkWidget *
icon_button (GtkWidget *root, const char *icon)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (root)), icon) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = icon_button (c, icon);
      if (found)
        return found;
    }
  return NULL;
}

static void
read_text_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);

  *(char **) data = text ? text : g_strdup ("(nothing)");
}

static gboolean
text_read (gpointer data)
{
  return *(char **) data != NULL;
}

static int
find_row (TmHeapDiffView *view, const char *name)
{
  for (guint r = 0; r < tm_heap_diff_view_get_n_rows (view); r++)
    {
      g_autofree char *cell = tm_heap_diff_view_dup_cell (view, r, TM_HEAP_DIFF_COLUMN_NAME);
      if (strcmp (cell, name) == 0)
        return (int) r;
    }
  return -1;
}

/* The cells of a group against the trees of the two heaps built apart. */
static void
check_row (TmHeapDiffView *view, guint row, TmClassTree *before, TmClassTree *after)
{
  g_autofree char *name = tm_heap_diff_view_dup_cell (view, row, TM_HEAP_DIFF_COLUMN_NAME);
  guint32 nb = g_str_equal (name, "Overall") ? 0 : tm_class_tree_find_child (before, 0, name);
  guint32 na = g_str_equal (name, "Overall") ? 0 : tm_class_tree_find_child (after, 0, name);
  TmGroupMetrics b = { 0 }, a = { 0 };
  struct { guint column; guint64 value; } want[4];
  g_autofree char *delta = NULL;

  if (nb != TM_CLASS_NODE_NONE)
    {
      g_assert_true (tm_class_tree_compute_metrics (before, nb, NULL, NULL));
      tm_class_tree_get_metrics (before, nb, &b);
    }
  if (na != TM_CLASS_NODE_NONE)
    {
      g_assert_true (tm_class_tree_compute_metrics (after, na, NULL, NULL));
      tm_class_tree_get_metrics (after, na, &a);
    }
  want[0].column = TM_HEAP_DIFF_COLUMN_BYTES_BEFORE, want[0].value = b.bytes;
  want[1].column = TM_HEAP_DIFF_COLUMN_BYTES_AFTER, want[1].value = a.bytes;
  want[2].column = TM_HEAP_DIFF_COLUMN_RETAINED_BEFORE, want[2].value = b.retained_bytes;
  want[3].column = TM_HEAP_DIFF_COLUMN_RETAINED_AFTER, want[3].value = a.retained_bytes;
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_autofree char *cell = tm_heap_diff_view_dup_cell (view, row, want[i].column);
      g_autofree char *expect = tm_format_bytes ((double) want[i].value);
      g_assert_cmpstr (cell, ==, expect);
    }
  {
    g_autofree char *cell = tm_heap_diff_view_dup_cell (view, row, TM_HEAP_DIFF_COLUMN_OBJECTS_AFTER);
    g_autofree char *expect = tm_format_count (a.objects);
    g_assert_cmpstr (cell, ==, expect);
  }
  /* a change is signed: + for growth */
  delta = tm_heap_diff_view_dup_cell (view, row, TM_HEAP_DIFF_COLUMN_RETAINED_DELTA);
  if (a.retained_bytes > b.retained_bytes)
    g_assert_true (delta[0] == '+');
}

static gboolean
compare_button_shown (gpointer row)
{
  GtkWidget *b = tm_gui_test_find_button (GTK_WIDGET (row), "Compare Heaps");
  return b != NULL && gtk_widget_is_visible (b);
}

static void
test_compare (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmSession *session;
  TmHeapDiffView *view;
  GtkListBoxRow *leak_row;
  GtkWidget *button;
  g_autoptr(TmDocument) doc = NULL;
  g_autoptr(TmClassTree) before = NULL;
  g_autoptr(TmClassTree) after = NULL;
  g_autoptr(GError) error = NULL;
  TmClassifier type = TM_CLASSIFIER_TYPE, chain[2] = { TM_CLASSIFIER_TYPE, TM_CLASSIFIER_CALL_SITE };
  const TmWindow *w;
  guint from, to, n_rows;
  int row;

  tm_gui_test_open_and_wait (win, fx.leak_path);
  session = tm_app_window_get_session (win);
  w = tm_session_get_window (session, 0);
  g_assert_nonnull (w);
  g_assert_cmpint (w->kind, ==, TM_WINDOW_LEAK);

  /* the sidebar: no command lines, the steps as buttons, the whole text */
  leak_row = gtk_list_box_get_row_at_index (tm_app_window_get_windows_list (win), 0);
  g_assert_null (tm_gui_test_find_label (GTK_WIDGET (leak_row), "tidemark-cli"));
  g_assert_nonnull (strstr (w->explanation, "tidemark-cli"));   /* the CLI keeps it */
  g_assert_nonnull (tm_gui_test_find_button (GTK_WIDGET (leak_row), "Data Structures"));
  g_assert_nonnull (tm_gui_test_find_button (GTK_WIDGET (leak_row), "TrendViz"));
  g_assert_nonnull (tm_gui_test_find_button (GTK_WIDGET (leak_row), "Allocations"));
  g_assert_nonnull (tm_gui_test_find_widget (GTK_WIDGET (leak_row), GTK_TYPE_MENU_BUTTON));
  {
    GtkMenuButton *more = GTK_MENU_BUTTON (tm_gui_test_find_widget (GTK_WIDGET (leak_row), GTK_TYPE_MENU_BUTTON));
    GtkWidget *full = gtk_popover_get_child (gtk_menu_button_get_popover (more));
    g_autofree char *want = tm_window_steps_app_text (w->explanation);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (full)), ==, want);
    g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (full)), ==, PANGO_ELLIPSIZE_NONE);
  }

  /* the next steps show on the selected window only: the list stays short */
  tm_session_select_window (session, 0);
  /* the row shows them when the selection reaches it: wait for that, not a fixed time */
  tm_gui_test_spin_until (compare_button_shown, leak_row, 10000);
  g_assert_true (gtk_widget_is_visible (tm_gui_test_find_button (GTK_WIDGET (leak_row), "Compare Heaps")));
  {
    GtkListBoxRow *other = gtk_list_box_get_row_at_index (tm_app_window_get_windows_list (win), 1);
    g_assert_nonnull (other);
    g_assert_false (gtk_widget_is_visible (tm_gui_test_find_button (GTK_WIDGET (other), "Compare Heaps")));
  }

  /* its Compare Heaps button: the window's first and last graph GC */
  button = tm_gui_test_find_button (GTK_WIDGET (leak_row), "Compare Heaps");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpint (tm_session_get_selected_window (session), ==, 0);
  view = TM_HEAP_DIFF_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_HEAP_DIFF_VIEW));
  g_assert_nonnull (view);
  tm_heap_diff_view_get_gcs (view, &from, &to);
  g_assert_cmpuint (from, ==, w->first_gc);   /* 40 and 200 carry graphs */
  g_assert_cmpuint (to, ==, w->last_gc);
  tm_gui_test_spin_until (diff_idle, view, 60000);
  g_assert_true (tm_heap_diff_view_get_diff (view)->has_graph);
  g_assert_cmpstr (tm_section_get_title (TM_SECTION (view)), ==, "Compare GC 40 → 200");

  /* independent answers: the two heaps' trees built on another document */
  doc = tm_document_load (fx.leak_path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  before = tm_document_class_tree (doc, from, &type, 1, TM_DOCUMENT_TREE_DEFAULT, NULL, NULL, NULL, &error);
  after = tm_document_class_tree (doc, to, &type, 1, TM_DOCUMENT_TREE_DEFAULT, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* Overall, expanded, its groups by retained growth: the map first */
  n_rows = tm_heap_diff_view_get_n_rows (view);
  g_assert_cmpuint (n_rows, >, 3);
  {
    g_autofree char *first = tm_heap_diff_view_dup_cell (view, 0, TM_HEAP_DIFF_COLUMN_NAME);
    g_assert_cmpstr (first, ==, "Overall");
  }
  for (guint r = 0; r < n_rows; r++)
    check_row (view, r, before, after);
  /* the map (with its table, which it retains whole) grew most */
  {
    gint64 prev = G_MAXINT64;
    TmHeapDiff *diff = tm_heap_diff_view_get_diff (view);
    int map = find_row (view, "java.util.concurrent.ConcurrentHashMap");

    for (guint r = 1; r < n_rows; r++)
      {
        g_autofree char *name = tm_heap_diff_view_dup_cell (view, r, TM_HEAP_DIFF_COLUMN_NAME);
        gint64 d = tm_heap_diff_delta (diff, tm_heap_diff_find_path (diff, name), TM_HEAP_METRIC_RETAINED_BYTES);
        g_assert_cmpint (d, <=, prev);
        prev = d;
      }
    g_assert_cmpint (map, >=, 1);
    g_assert_cmpint (map, <=, 2);
  }

  /* path to GC roots of the journeys, in the later heap */
  row = find_row (view, "com.example.travel.Journey");
  g_assert_cmpint (row, >, 0);
  tm_heap_diff_view_select (view, row);
  tm_heap_diff_view_show_path (view);
  tm_gui_test_spin_until (path_shown, tm_heap_diff_view_get_path_panel (view), 30000);
  {
    TmRootPathPanel *panel = tm_heap_diff_view_get_path_panel (view);
    const char *text = tm_root_path_panel_get_text (panel);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (panel)));
    g_assert_nonnull (strstr (text, "\tstatic field\t"));
    g_assert_nonnull (strstr (text, "\tcom.example.travel.Journey\t@"));
    /* Copy puts the same text on the clipboard */
    {
      GtkWidget *copy = icon_button (GTK_WIDGET (panel), "edit-copy-symbolic");
      char *got = NULL;

      g_assert_nonnull (copy);
      g_signal_emit_by_name (copy, "clicked");
      gdk_clipboard_read_text_async (gtk_widget_get_clipboard (copy), NULL, read_text_cb, &got);
      tm_gui_test_spin_until (text_read, &got, 5000);
      g_assert_cmpstr (got, ==, text);
      g_free (got);
    }
  }
  if (g_getenv ("TM_SCREENSHOT_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TM_SCREENSHOT_DIR"), "compare-heaps.png", NULL);
      gtk_window_set_default_size (GTK_WINDOW (win), 1024, 700);
      tm_gui_test_spin (500);
      g_assert_true (tm_gui_test_save_png (GTK_WIDGET (win), png, NULL));
    }

  /* drill down: type > call site; the journeys come from one caller */
  tm_heap_diff_view_set_chain (view, chain, 2);
  tm_gui_test_spin_until (diff_idle, view, 60000);

  /* search finds a call site under a collapsed type and expands it */
  tm_heap_diff_view_select (view, GTK_INVALID_LIST_POSITION);
  g_assert_true (tm_heap_diff_view_search (view, "journeycache.LOOKUP("));
  {
    guint n_before = tm_heap_diff_view_get_n_rows (view);
    int found = -1;

    for (guint r = 0; r < n_before && found < 0; r++)
      {
        g_autofree char *name = tm_heap_diff_view_dup_cell (view, r, TM_HEAP_DIFF_COLUMN_NAME);
        if (g_str_has_prefix (name, "com.example.travel.JourneyCache.lookup("))
          found = (int) r;
      }
    g_assert_cmpint (found, >, 0);
  }
  g_assert_false (tm_heap_diff_view_search (view, "no such group anywhere"));
  for (guint r = 0; r < tm_heap_diff_view_get_n_rows (view); r++)
    tm_heap_diff_view_set_expanded (view, r, FALSE);
  tm_heap_diff_view_set_expanded (view, 0, TRUE);
  row = find_row (view, "com.example.travel.Journey");
  g_assert_cmpint (row, >, 0);
  tm_heap_diff_view_set_expanded (view, row, TRUE);
  {
    g_autofree char *child = tm_heap_diff_view_dup_cell (view, row + 1, TM_HEAP_DIFF_COLUMN_NAME);
    g_autofree char *objects = tm_heap_diff_view_dup_cell (view, row + 1, TM_HEAP_DIFF_COLUMN_OBJECTS_DELTA);
    g_autofree char *parent = tm_heap_diff_view_dup_cell (view, row, TM_HEAP_DIFF_COLUMN_OBJECTS_DELTA);
    g_assert_true (g_str_has_prefix (child, "com.example.travel.JourneyCache.lookup("));
    g_assert_cmpstr (objects, ==, parent);
  }

  /* other GCs: a pair without graphs compares shallow sizes */
  tm_heap_diff_view_set_gcs (view, 15, 195);
  tm_gui_test_spin_until (diff_idle, view, 60000);
  g_assert_false (tm_heap_diff_view_get_diff (view)->has_graph);
  {
    g_autofree char *retained = tm_heap_diff_view_dup_cell (view, 0, TM_HEAP_DIFF_COLUMN_RETAINED_AFTER);
    g_assert_cmpstr (retained, ==, "—");
    g_assert_nonnull (tm_gui_test_find_label (GTK_WIDGET (view), "only shallow sizes are compared"));
  }

  /* the action with parameters: any two GCs */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.compare-heaps", "(uu)", 100, 110));
  tm_gui_test_spin (100);
  {
    GtkNotebook *nb = GTK_NOTEBOOK (tm_gui_test_find_widget (GTK_WIDGET (win), GTK_TYPE_NOTEBOOK));
    GtkWidget *page = gtk_notebook_get_nth_page (nb, gtk_notebook_get_current_page (nb));
    g_assert_true (TM_IS_HEAP_DIFF_VIEW (page));
    tm_heap_diff_view_get_gcs (TM_HEAP_DIFF_VIEW (page), &from, &to);
    g_assert_cmpuint (from, ==, 100);
    g_assert_cmpuint (to, ==, 110);
    tm_gui_test_spin_until (diff_idle, page, 60000);

    /* Heap at Start of Selection (the leak window: GC 40) */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.heap-at-selection-start", NULL));
    page = gtk_notebook_get_nth_page (nb, gtk_notebook_get_current_page (nb));
    g_assert_true (TM_IS_HEAP_VIEW (page));
    g_assert_cmpuint (tm_heap_view_get_gc (TM_HEAP_VIEW (page)), ==, 40);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.heap-at-gc", "u", 77));
    page = gtk_notebook_get_nth_page (nb, gtk_notebook_get_current_page (nb));
    g_assert_cmpuint (tm_heap_view_get_gc (TM_HEAP_VIEW (page)), ==, 77);
  }

  gtk_window_destroy (GTK_WINDOW (win));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
heap_idle (gpointer data)
{
  return !tm_heap_view_is_busy (data) && tm_heap_view_get_tree (data) != NULL;
}

/* heaptrack: blocks at time points, no graphs: no deep or retained
 * columns, no path to roots, no note about missing graphs. */
static void
test_heaptrack (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "data", "heaptrack", "leaker.gz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDocument) doc = tm_document_load (path, NULL, NULL, NULL, &error);
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  TmHeapView *heap;
  TmHeapDiffView *diff;
  guint n;

  g_assert_no_error (error);
  tm_session_set_document (session, doc);
  n = tm_trace_n_gcs (tm_document_get_trace (doc));
  heap = TM_HEAP_VIEW (tm_heap_view_new (session, n));
  diff = TM_HEAP_DIFF_VIEW (tm_heap_diff_view_new (session, 1, n));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (heap));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (diff));
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  tm_gui_test_spin_until (heap_idle, heap, 60000);
  tm_gui_test_spin_until (diff_idle, diff, 60000);

  {
    g_autofree char *title = g_strdup_printf ("Allocated at time point %u", n);
    g_assert_cmpstr (tm_section_get_title (TM_SECTION (heap)), ==, title);
  }
  g_assert_null (tm_gui_test_find_label (GTK_WIDGET (heap), "reference graph"));
  g_assert_false (gtk_widget_get_visible (tm_gui_test_find_button (GTK_WIDGET (heap), "_Path to GC Roots")));
  g_assert_null (tm_gui_test_find_label (GTK_WIDGET (diff), "reference graph"));
  g_assert_false (gtk_widget_get_visible (tm_gui_test_find_button (GTK_WIDGET (diff), "_Path to GC Roots")));
  /* the leaker's blocks grew; the view's Overall row says by how much */
  {
    TmHeapDiff *d = tm_heap_diff_view_get_diff (diff);
    g_autofree char *cell = tm_heap_diff_view_dup_cell (diff, 0, TM_HEAP_DIFF_COLUMN_BYTES_DELTA);
    g_autofree char *mag = tm_format_bytes ((double) tm_heap_diff_delta (d, 0, TM_HEAP_METRIC_BYTES));
    g_autofree char *want = g_strconcat ("+", mag, NULL);
    g_assert_false (d->has_graph);
    g_assert_cmpint (tm_heap_diff_delta (d, 0, TM_HEAP_METRIC_BYTES), >, 0);
    g_assert_cmpstr (cell, ==, want);
  }
  gtk_window_destroy (GTK_WINDOW (window));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-heap-diff-XXXXXX", 0.5, &fx))
    return 77;
  g_test_add_func ("/gui/heap-diff/compare", test_compare);
  g_test_add_func ("/gui/heap-diff/heaptrack", test_heaptrack);
  return tm_gui_test_run (&fx);
}
