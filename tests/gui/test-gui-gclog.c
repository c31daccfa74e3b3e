/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC logs in the window under Xvfb: the Selection page shows the GC
 * summary of the whole run, then of a selected range, with the numbers
 * of docs/gc-summary.md (the JDK 1.4.2 sample: throughput 94.133 %); the
 * views that need objects are disabled with a reason, the objects
 * chart and the range's live-object row are hidden; a ZGC excerpt that starts at 200 s is shown from its
 * first GC, not from 0; the rotated parts of a log open as one timeline.
 * Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-app-window.h"
#include "tm-session.h"

#include "gui-test-util.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

static TmGuiTestFixture fx;

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "data", "gc-logs", name, NULL);
}

/* The text of every label below root, one per line. */
static void
collect_labels (GtkWidget *root, GString *out)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_visible (root))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (root)));
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, out);
}

static GtkWidget *
find_action_button (GtkWidget *root, const char *action)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_action_button (c, action);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
shows_selection_summary (gpointer data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  collect_labels (GTK_WIDGET (data), text);
  return strstr (text->str, "GC Summary of the Selection") != NULL;
}

static gboolean
not_busy (gpointer data)
{
  return !tm_app_window_is_busy (data);
}

static void
test_summary (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autofree char *path = data_path ("legacy-serial-SampleSun1_4_2PrintGCDetails.txt");
  g_autoptr(GString) text = g_string_new (NULL);
  TmSession *session;
  const char *reason;

  tm_gui_test_open_and_wait (win, path);
  tm_gui_test_spin_until (not_busy, win, 20000);
  tm_gui_test_spin (100);
  g_assert_cmpuint (tm_trace_n_gcs (tm_app_window_get_trace (win)), ==, 4);

  /* nothing selected: the whole run */
  collect_labels (GTK_WIDGET (win), text);
  g_assert_nonnull (strstr (text->str, "GC Summary of the Whole Run"));
  g_assert_nonnull (strstr (text->str, "94.13 %"));
  g_assert_nonnull (strstr (text->str, "Full GCs"));
  g_assert_nonnull (strstr (text->str, "p99.9"));

  /* objects: none in a GC log; the button that needs them says why */
  g_assert_false (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_OBJECTS)));
  {
    GtkWidget *heap = find_action_button (GTK_WIDGET (win), "win.heap-at-selection");
    g_assert_nonnull (heap);
    g_assert_false (gtk_widget_is_sensitive (heap));
    reason = gtk_widget_get_tooltip_text (heap);
    g_assert_nonnull (reason);
    g_assert_nonnull (strstr (reason, "no objects"));
  }

  /* the pause charts: over time in the chart column, the histogram under the summary */
  g_assert_true (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_PAUSES)));
  g_assert_true (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_PAUSE_HISTOGRAM)));
  g_assert_nonnull (gtk_widget_get_ancestor (tm_app_window_get_chart (win, TM_CHART_PAUSE_HISTOGRAM), GTK_TYPE_NOTEBOOK));
  g_assert_null (gtk_widget_get_ancestor (tm_app_window_get_chart (win, TM_CHART_PAUSES), GTK_TYPE_NOTEBOOK));

  /* GCs 2 and 3 selected: the summary of the range (paused 1.10 s) */
  session = tm_app_window_get_session (win);
  tm_session_select_gcs (session, 2, 3);
  g_assert_true (tm_session_get_has_selection (session));
  tm_gui_test_spin_until (shows_selection_summary, win, 5000);
  g_string_truncate (text, 0);
  collect_labels (GTK_WIDGET (win), text);
  g_assert_nonnull (strstr (text->str, "GC Summary of the Selection"));
  g_assert_nonnull (strstr (text->str, "90.86 %"));
  g_assert_nonnull (strstr (text->str, "not logged (no generation sizes)"));
  /* the range's figures: heap sizes, but no row of zero live objects */
  g_assert_nonnull (strstr (text->str, "Heap after GC\n"));
  g_assert_null (strstr (text->str, "Live objects\n"));

  if (g_getenv ("TIDEMARK_GUI_SCREENSHOT_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TIDEMARK_GUI_SCREENSHOT_DIR"), "gclog-summary.png", NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *hist = g_build_filename (g_getenv ("TIDEMARK_GUI_SCREENSHOT_DIR"), "gclog-histogram.png", NULL);
      g_autofree char *pauses = g_build_filename (g_getenv ("TIDEMARK_GUI_SCREENSHOT_DIR"), "gclog-pauses.png", NULL);
      g_assert_true (tm_app_window_export_chart (win, TM_CHART_MEMORY, png, 900, 320, &error));
      g_assert_true (tm_app_window_export_chart (win, TM_CHART_PAUSE_HISTOGRAM, hist, 700, 190, &error));
      g_assert_true (tm_app_window_export_chart (win, TM_CHART_PAUSES, pauses, 900, 200, &error));
    }
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

/* A ZGC excerpt whose first GC starts at 200.3 s: the axis starts there. */
static void
test_time_axis (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autofree char *path = data_path ("ujl-zgc-gc-other.txt");
  TmSession *session;

  tm_gui_test_open_and_wait (win, path);
  tm_gui_test_spin_until (not_busy, win, 20000);
  session = tm_app_window_get_session (win);
  g_assert_cmpfloat (tm_session_get_whole_start (session), ==, 200343000000.0);
  g_assert_cmpfloat (tm_session_get_visible_start (session), ==, 200343000000.0);
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

static gboolean
loaded (gpointer data)
{
  return g_strcmp0 (tm_app_window_get_page (data), "trace") == 0 && !tm_app_window_is_busy (data);
}

/* Two rotated parts, given newest first: one timeline of all GCs. */
static void
test_series (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autofree char *path = data_path ("jdk17-serial.log");
  g_autofree char *p0 = g_build_filename (fx.tmpdir, "gc.log.0", NULL);
  g_autofree char *p1 = g_build_filename (fx.tmpdir, "gc.log.1", NULL);
  g_autofree char *contents = NULL;
  gsize len, cut;
  GFile *files[2];

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  cut = (gsize) (strchr (contents + len / 2, '\n') - contents) + 1;
  g_assert_true (g_file_set_contents (p0, contents, (gssize) cut, NULL));
  g_assert_true (g_file_set_contents (p1, contents + cut, (gssize) (len - cut), NULL));
  files[0] = g_file_new_for_path (p1);
  files[1] = g_file_new_for_path (p0);
  gtk_window_present (GTK_WINDOW (win));
  tm_app_window_open_files (win, files, 2);
  tm_gui_test_spin_until (loaded, win, 60000);
  g_assert_cmpstr (tm_app_window_get_page (win), ==, "trace");
  g_assert_cmpuint (tm_trace_n_gcs (tm_app_window_get_trace (win)), ==, 122);
  g_assert_true (tm_app_window_get_trace (win)->complete);
  g_object_unref (files[0]);
  g_object_unref (files[1]);
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
  g_unlink (p0);
  g_unlink (p1);
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-gclog-XXXXXX", 0.5, &fx))
    return 77;
  g_test_add_func ("/gui/gclog/summary", test_summary);
  g_test_add_func ("/gui/gclog/time-axis", test_time_axis);
  g_test_add_func ("/gui/gclog/series", test_series);
  return tm_gui_test_run (&fx);
}
