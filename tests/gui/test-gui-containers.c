/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Container leak confidence in the application, under Xvfb, on the
 * hand-built trace of tests/container-trace.h (numbers derived there):
 *
 * - Data structure growth over GCs 1..5 with its operations: the
 *   "Containers by Allocation Site" page ranks Registry.<init>() (box A:
 *   SC 0.600, +400 B, 5 elements, exact) above Cache.<init>() (box B: SC
 *   0.104), LC = SC^(1 - MC); the structures table shows the same LC;
 *   selecting A lists the caller that added its elements with its mean
 *   staleness; the cells have tooltips.
 * - The Selection page of the 40-GC version's leak window (GCs 1..40)
 *   names box A as the most likely leaking container with its exact SC:
 *   a_1 stale from ts = 1 s to te = 40 s (39 s), a_g added at g - 0.5 s
 *   stale 40.5 - g s (g = 2..40, 760.5 s): 799.5 / 40 / 39 = 0.51.
 *
 * Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "container-trace.h"
#include "tm-settings.h"
#include "tm-ds-growth-view.h"
#include "tm-selection-page.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

static TmGuiTestFixture fx;

static char *
write_trace (guint n_gcs)
{
  g_autoptr(GBytes) bytes = tm_test_container_trace_bytes (TRUE, n_gcs);
  g_autofree char *name = g_strdup_printf ("containers-%u.tmtrace", n_gcs);
  char *path = g_build_filename (fx.tmpdir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));
  return path;
}

/* The description of the boxes, as a user's file in Preferences. */
static void
use_box_description (gboolean on)
{
  g_autofree char *ds = g_build_filename (fx.tmpdir, "box.ds", NULL);
  const char *files[] = { ds, NULL };
  const char *none[] = { NULL };

  g_assert_true (g_file_set_contents (ds, "DS Box { (Item); }\n", -1, NULL));
  g_settings_set_strv (tm_settings_get (), "ds-files", on ? files : none);
}

static gboolean
containers_known (gpointer data)
{
  return tm_ds_growth_view_get_containers_table (data) != NULL;
}

static char *
cell (TmTextTable *table, guint row, guint column)
{
  char *text = tm_text_table_dup_cell (table, row, column);

  g_assert_nonnull (text);
  return text;
}

static void
assert_cell (TmTextTable *table, guint row, guint column, const char *expected)
{
  g_autofree char *text = cell (table, row, column);

  g_assert_cmpstr (text, ==, expected);
}

static void
assert_cell_prefix (TmTextTable *table, guint row, guint column, const char *prefix)
{
  g_autofree char *text = cell (table, row, column);

  g_assert_true (g_str_has_prefix (text, prefix));
}

static void
save_shot (GtkWidget *widget, const char *name)
{
  g_autoptr(GError) error = NULL;
  const char *dir = g_getenv ("TM_GUI_SHOTS");
  g_autofree char *path = g_build_filename (dir != NULL ? dir : fx.tmpdir, name, NULL);

  g_assert_true (tm_gui_test_save_png (widget, path, &error));
  g_assert_no_error (error);
}

static void
destroy (TmAppWindow *win)
{
  gtk_window_destroy (GTK_WINDOW (win));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
widget_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (GTK_WIDGET (widget));
}

static void
test_by_site (void)
{
  g_autofree char *path = write_trace (5);
  TmAppWindow *win = tm_app_window_new (fx.app);
  double mc_a = tm_test_container_mc (BOX_A), mc_b = tm_test_container_mc (BOX_B);
  g_autofree char *lc_a = g_strdup_printf ("%.3f", pow (0.6, 1 - mc_a));
  g_autofree char *lc_b = g_strdup_printf ("%.3f", pow (0.104, 1 - mc_b));
  g_autofree char *mc_a_text = g_strdup_printf ("%.3f", mc_a);
  TmDsGrowthView *view;
  TmTextTable *table, *sites;
  GtkNotebook *notebook;
  int a_entry = -1;

  use_box_description (TRUE);
  tm_gui_test_open_and_wait (win, path);
  gtk_window_set_default_size (GTK_WINDOW (win), 1300, 860);
  tm_session_select_gcs (tm_app_window_get_session (win), 1, 5);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.ds-growth-at-selection", NULL));
  view = TM_DS_GROWTH_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_DS_GROWTH_VIEW));
  g_assert_nonnull (view);
  tm_gui_test_spin_until (containers_known, view, 60000);
  table = tm_ds_growth_view_get_containers_table (view);
  g_assert_nonnull (table);

  /* A's site first (highest LC), then B's; C and D are leak-free */
  g_assert_cmpuint (tm_text_table_get_n_rows (table), ==, 2);
  assert_cell_prefix (table, 0, 0, "Registry.<init>()");
  assert_cell (table, 0, 1, "Box");
  assert_cell (table, 0, 2, "1");
  assert_cell (table, 0, 3, "+400 B");
  assert_cell (table, 0, 4, "5");
  assert_cell (table, 0, 5, "0.600");
  assert_cell (table, 0, 6, lc_a);
  assert_cell (table, 0, 7, mc_a_text);
  assert_cell (table, 0, 8, "exact");
  assert_cell_prefix (table, 1, 0, "Cache.<init>()");
  assert_cell (table, 1, 3, "+0 B");
  assert_cell (table, 1, 4, "2");
  assert_cell (table, 1, 5, "0.104");
  assert_cell (table, 1, 6, lc_b);
  {
    g_autofree char *tip = tm_text_table_dup_tooltip (table, 0, 6);
    g_assert_nonnull (strstr (tip, "Box @1"));
    g_assert_nonnull (strstr (tip, "SC^(1 − MC)"));
  }
  /* sortable by any column: by staleness A stays first */
  tm_text_table_sort_by (table, 5);
  assert_cell (table, 0, 5, "0.600");

  /* the structures table shows the same LC; A's row lists who added its elements */
  for (guint r = 0; r < tm_ds_growth_view_get_n_rows (view); r++)
    {
      g_autofree char *name = tm_ds_growth_view_dup_cell (view, r, 0);
      g_autofree char *lc = tm_ds_growth_view_dup_cell (view, r, 6);
      if (strcmp (name, "Box @1") == 0)
        {
          g_assert_cmpfloat_with_epsilon (g_ascii_strtod (lc, NULL), pow (0.6, 1 - mc_a), 0.006);
          a_entry = 0;
        }
    }
  g_assert_cmpint (a_entry, ==, 0);
  {
    const TmDsGrowth *g = tm_ds_growth_view_get_result (view);
    for (guint i = 0; i < g->entries->len; i++)
      if (tm_trace_object_id (tm_app_window_get_trace (win),
                              g_array_index (g->entries, TmDsGrowthEntry, i).object_index) == BOX_A)
        a_entry = (int) i;
  }
  g_assert_null (tm_ds_growth_view_get_sites_table (view));
  tm_ds_growth_view_select_entry (view, a_entry);
  sites = tm_ds_growth_view_get_sites_table (view);
  g_assert_nonnull (sites);
  g_assert_cmpuint (tm_text_table_get_n_rows (sites), ==, 1);
  assert_cell_prefix (sites, 0, 0, "Caller.use()");
  assert_cell (sites, 0, 1, "5");
  assert_cell (sites, 0, 2, "0.600");
  tm_gui_test_spin (300);
  save_shot (GTK_WIDGET (win), "containers-structures.png");

  /* the second page, as a user gets there */
  notebook = GTK_NOTEBOOK (gtk_widget_get_ancestor (GTK_WIDGET (table), GTK_TYPE_NOTEBOOK));
  g_assert_nonnull (notebook);
  gtk_notebook_set_current_page (notebook, 1);
  /* mapped at the next frame: later on a loaded machine */
  tm_gui_test_spin_until (widget_mapped, table, 10000);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (table)));
  save_shot (GTK_WIDGET (win), "containers-by-site.png");

  use_box_description (FALSE);
  destroy (win);
}

static gboolean
names_container (gpointer data)
{
  return strstr (tm_selection_page_get_explanation (data), "Most likely leaking container") != NULL;
}

static void
test_explanation (void)
{
  g_autofree char *path = write_trace (40);
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmSelectionPage *page;
  GtkListBoxRow *row;
  const char *text;

  use_box_description (TRUE);
  tm_gui_test_open_and_wait (win, path);
  page = TM_SELECTION_PAGE (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_SELECTION_PAGE));
  g_assert_nonnull (page);
  row = gtk_list_box_get_row_at_index (tm_app_window_get_windows_list (win), 0);
  g_assert_nonnull (row);
  gtk_widget_activate (GTK_WIDGET (row));
  tm_gui_test_spin (100);
  g_assert_cmpuint (tm_session_get_selected_first_gc (tm_app_window_get_session (win)), ==, 1);
  g_assert_cmpuint (tm_session_get_selected_last_gc (tm_app_window_get_session (win)), ==, 40);
  tm_gui_test_spin_until (names_container, page, 60000);
  text = tm_selection_page_get_explanation (page);
  g_assert_nonnull (strstr (text, "\n\nMost likely leaking container: Box @1 allocated at Registry.<init>()"));
  g_assert_nonnull (strstr (text, "staleness 0.51, exact, from the recorded operations"));
  g_assert_nonnull (strstr (text, "40 elements, the stalest added at Caller.use()"));
  tm_gui_test_spin (300);
  save_shot (GTK_WIDGET (win), "containers-explanation.png");

  /* a range chosen by hand: the plain text, no container */
  tm_session_clear_selection (tm_app_window_get_session (win));
  tm_session_select_gcs (tm_app_window_get_session (win), 5, 30);
  tm_gui_test_spin (300);
  g_assert_nonnull (strstr (tm_selection_page_get_explanation (page), "chosen by hand"));
  g_assert_null (strstr (tm_selection_page_get_explanation (page), "Most likely"));

  use_box_description (FALSE);
  destroy (win);
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-containers-XXXXXX", 0.05, &fx))
    return 77;

  g_test_add_func ("/gui/containers/by-site", test_by_site);
  g_test_add_func ("/gui/containers/explanation", test_explanation);
  return tm_gui_test_run (&fx);
}
