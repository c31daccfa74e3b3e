/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Allocations view in the application, under Xvfb: open the synthetic
 * leak, select the leak window (GCs 40..200), Analyze > Allocations and
 * Lifetimes; the tables hold what the library computes for that window
 * (the same numbers tidemark-cli allocs/lifetimes/survival print), byte[]
 * allocates most, regrouping by thread recomputes, the survival table has
 * one row per GC, the synthetic graphs leave no floating garbage, and a
 * trace without transactions says how to record them.  A screenshot of
 * the view goes to $TM_SCREENSHOT_DIR when set.  Exits 77 (skip) when no
 * display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-allocations-view.h"
#include "tm-churn.h"

#include <gtk/gtk.h>
#include <string.h>

static TmGuiTestFixture fx;

static gboolean
view_done (gpointer data)
{
  return tm_allocations_view_get_result (data) != NULL;
}

static void
test_window (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmAllocationsView *view;
  const TmVmMetrics *m;
  TmTextTable *t;
  GtkDropDown *dropdown;
  g_autofree char *top = NULL, *first_gc = NULL;

  tm_gui_test_open_and_wait (win, fx.leak_path);
  tm_session_select_gcs (tm_app_window_get_session (win), 40, 200);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.allocations-at-selection", NULL));
  view = TM_ALLOCATIONS_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_ALLOCATIONS_VIEW));
  g_assert_nonnull (view);
  tm_gui_test_spin_until (view_done, view, 30000);
  m = tm_allocations_view_get_result (view);
  g_assert_cmpuint (m->from_gc, ==, 40);
  g_assert_cmpuint (m->to_gc, ==, 200);

  /* one row per type that allocated or freed in the window, byte[] first
   * (sorted by allocated bytes) */
  t = tm_allocations_view_get_table (view, TM_ALLOCATIONS_PAGE_ALLOCS);
  g_assert_cmpuint (tm_text_table_get_n_rows (t), ==, m->allocs->groups->len);
  top = tm_text_table_dup_cell (t, 0, 0);
  g_assert_cmpstr (top, ==, "byte[]");
  g_assert_cmpstr (((TmAllocGroup *) g_ptr_array_index (m->allocs->groups, 0))->key, ==, "byte[]");

  t = tm_allocations_view_get_table (view, TM_ALLOCATIONS_PAGE_SURVIVAL);
  g_assert_cmpuint (tm_text_table_get_n_rows (t), ==, 161);
  t = tm_allocations_view_get_table (view, TM_ALLOCATIONS_PAGE_FLOATING);
  g_assert_cmpuint (tm_text_table_get_n_rows (t), ==, m->floating->len);
  for (guint i = 0; i < m->floating->len; i++)
    g_assert_cmpuint (g_array_index (m->floating, TmFloatingPoint, i).floating_bytes, ==, 0);
  g_assert_null (m->transactions);
  g_assert_nonnull (strstr (m->transactions_unavailable, "--transaction"));

  /* regroup by thread: recomputed, groups are threads */
  dropdown = GTK_DROP_DOWN (tm_gui_test_find_widget (GTK_WIDGET (view), GTK_TYPE_DROP_DOWN));
  gtk_drop_down_set_selected (dropdown, 3);
  tm_gui_test_spin_until (view_done, view, 30000);
  m = tm_allocations_view_get_result (view);
  g_assert_cmpint (m->classifier, ==, TM_CLASSIFIER_THREAD);
  g_assert_cmpint (m->lifetimes->classifier, ==, TM_CLASSIFIER_THREAD);

  if (g_getenv ("TM_SCREENSHOT_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TM_SCREENSHOT_DIR"), "allocations.png", NULL);
      gtk_drop_down_set_selected (dropdown, 0);
      tm_gui_test_spin_until (view_done, view, 30000);
      tm_gui_test_spin (500);
      tm_gui_test_save_png (GTK_WIDGET (win), png, NULL);
    }
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (500);
}

/* Analyze > Short-Lived Objects: the same view on its short-lived page,
 * one row per group, as many objects as the lifetimes analysis counts
 * dying at their first GC. */
static void
test_short_lived (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmAllocationsView *view;
  const TmVmMetrics *m;
  TmTextTable *t;
  GtkNotebook *pages;
  guint64 sum = 0;

  tm_gui_test_open_and_wait (win, fx.leak_path);
  tm_session_select_gcs (tm_app_window_get_session (win), 40, 200);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.short-lived-at-selection", NULL));
  view = TM_ALLOCATIONS_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_ALLOCATIONS_VIEW));
  g_assert_nonnull (view);
  tm_gui_test_spin_until (view_done, view, 30000);
  m = tm_allocations_view_get_result (view);
  pages = GTK_NOTEBOOK (tm_gui_test_find_widget (GTK_WIDGET (view), GTK_TYPE_NOTEBOOK));
  g_assert_cmpint (gtk_notebook_get_current_page (pages), ==, TM_ALLOCATIONS_PAGE_SHORT_LIVED);

  t = tm_allocations_view_get_table (view, TM_ALLOCATIONS_PAGE_SHORT_LIVED);
  g_assert_cmpuint (tm_text_table_get_n_rows (t), ==, m->churn->root->children->len);
  g_assert_cmpuint (tm_text_table_get_n_rows (t), >, 0);
  for (guint i = 0; i < m->churn->root->children->len; i++)
    sum += ((TmChurnNode *) g_ptr_array_index (m->churn->root->children, i))->objects;
  g_assert_cmpuint (sum, ==, m->lifetimes->died_young_objects);
  g_assert_cmpuint (m->churn->root->objects, ==, m->lifetimes->died_young_objects);

  if (g_getenv ("TM_SCREENSHOT_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TM_SCREENSHOT_DIR"), "short-lived.png", NULL);
      tm_gui_test_spin (500);
      tm_gui_test_save_png (GTK_WIDGET (win), png, NULL);
    }
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (500);
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-allocations-XXXXXX", 0, &fx))
    return 77;
  g_test_add_func ("/gui/allocations/window", test_window);
  g_test_add_func ("/gui/allocations/short-lived", test_short_lived);
  return tm_gui_test_run (&fx);
}
