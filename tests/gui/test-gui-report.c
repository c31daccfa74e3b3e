/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Export Report in the application, under Xvfb: the actions are there
 * once a trace is open (the window one only with a window selected in the
 * sidebar); the dialog shows progress, then where the report went with
 * Open Report; the file is the report the CLI writes for the same window
 * (same sections, same windows); Cancel stops the work and writes
 * nothing; an unwritable path says why.  A screenshot of the finished
 * dialog goes to $TM_SCREENSHOT_DIR when set.  Exits 77 (skip) when no
 * display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-report-dialog.h"

#include <gtk/gtk.h>
#include <string.h>

static TmGuiTestFixture fx;

static gboolean
finished (gpointer data)
{
  return tm_report_dialog_get_state (data) != TM_REPORT_DIALOG_WRITING;
}

static TmReportDialog *
find_dialog (void)
{
  GListModel *tops = gtk_window_get_toplevels ();   /* not ours */

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (tops, i);
      if (TM_IS_REPORT_DIALOG (w))
        return TM_REPORT_DIALOG (w);
    }
  return NULL;
}

/* The fallback dialog of the native chooser (no portal under Xvfb). */
static GtkWidget *
find_chooser (void)
{
  GListModel *tops = gtk_window_get_toplevels ();   /* not ours */

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (tops, i);
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      if (GTK_IS_FILE_CHOOSER_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_WIDGET (w);
      G_GNUC_END_IGNORE_DEPRECATIONS
    }
  return NULL;
}

static gboolean
chooser_shown (gpointer data)
{
  return find_chooser () != NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  return find_dialog () != NULL;
}

static char *
read_file (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static guint
count (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p; p = strstr (p + 1, needle))
    n++;
  return n;
}

static void
test_export (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmSession *session;
  TmReportDialog *dialog;
  GtkWidget *chooser;
  GPtrArray *windows;
  g_autofree char *path = g_build_filename (fx.tmpdir, "app-report.html", NULL);
  g_autofree char *cli_path = g_build_filename (fx.tmpdir, "cli-report.html", NULL);
  g_autofree char *html = NULL, *cli_html = NULL;
  g_autofree char *cmd = NULL;
  int status;

  tm_gui_test_open_and_wait (win, fx.leak_path);
  session = tm_app_window_get_session (win);
  windows = tm_session_get_windows (session);
  g_assert_nonnull (windows);
  g_assert_cmpuint (windows->len, >=, 2);

  /* no window selected: nothing to report on alone */
  tm_session_set_selected_window (session, -1);
  tm_gui_test_spin (50);
  gtk_widget_activate_action (GTK_WIDGET (win), "win.export-window-report", NULL);
  tm_gui_test_spin (200);
  g_assert_null (find_chooser ());

  /* Analyze > Export Report for Selected Window…: the chooser suggests a
   * name; its Export writes with progress, then says where */
  tm_session_select_window (session, 1);
  tm_gui_test_spin (50);
  g_assert_cmpint (tm_session_get_selected_window (session), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.export-window-report", NULL));
  tm_gui_test_spin_until (chooser_shown, NULL, 5000);
  chooser = find_chooser ();
  g_assert_nonnull (chooser);
  {
    g_autofree char *suggested = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser));
    g_autoptr(GFile) folder = g_file_new_for_path (fx.tmpdir);

    g_assert_cmpstr (suggested, ==, "leak-window-2-report.html");
    g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL));
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "app-report.html");
    gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  }
  tm_gui_test_spin_until (dialog_shown, NULL, 5000);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  tm_gui_test_spin_until (finished, dialog, 60000);
  g_assert_cmpint (tm_report_dialog_get_state (dialog), ==, TM_REPORT_DIALOG_DONE);
  if (g_getenv ("TM_SCREENSHOT_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TM_SCREENSHOT_DIR"), "report-dialog.png", NULL);
      tm_gui_test_spin (200);
      g_assert_true (tm_gui_test_save_png (GTK_WIDGET (dialog), png, NULL));
    }
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* the same report as the CLI's for window 2 (the sidebar's second) */
  cmd = g_strdup_printf ("'%s' report '%s' --window 2 -o '%s'", g_getenv ("TIDEMARK_CLI"), fx.leak_path, cli_path);
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  html = read_file (path);
  cli_html = read_file (cli_path);
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>"));
  g_assert_nonnull (strstr (html, "id=\"window-2\""));
  g_assert_null (strstr (html, "id=\"window-1\""));
  g_assert_null (strstr (html, "id=\"run\""));
  g_assert_cmpuint (count (html, "<img "), ==, count (cli_html, "<img "));
  g_assert_cmpuint (count (html, "<section"), ==, count (cli_html, "<section"));
  g_assert_cmpuint (count (html, "<tr>"), ==, count (cli_html, "<tr>"));

  gtk_window_destroy (GTK_WINDOW (win));
}

static void
test_cancel_and_fail (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmReportDialog *dialog;
  g_autofree char *path = g_build_filename (fx.tmpdir, "cancelled.html", NULL);
  g_autofree char *bad = g_build_filename (fx.tmpdir, "no", "such", "dir", "r.html", NULL);

  tm_gui_test_open_and_wait (win, fx.leak_path);

  /* Cancel at once: the dialog goes away, no file is left */
  dialog = tm_report_dialog_new (win, -1, path);
  g_object_ref (dialog);
  tm_report_dialog_cancel (dialog);
  tm_gui_test_spin_until (finished, dialog, 60000);
  g_assert_cmpint (tm_report_dialog_get_state (dialog), ==, TM_REPORT_DIALOG_CANCELLED);
  g_assert_null (find_dialog ());
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_object_unref (dialog);

  /* the dialog closed while writing (its close button, Escape): the work
   * stops and the late answer touches no widget */
  dialog = g_object_ref (tm_report_dialog_new (win, -1, path));
  gtk_window_close (GTK_WINDOW (dialog));
  tm_gui_test_spin_until (finished, dialog, 60000);
  g_assert_cmpint (tm_report_dialog_get_state (dialog), ==, TM_REPORT_DIALOG_CANCELLED);
  g_assert_null (find_dialog ());
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_object_unref (dialog);

  /* a folder that does not exist: the dialog says so and names it */
  dialog = tm_report_dialog_new (win, -1, bad);
  tm_gui_test_spin_until (finished, dialog, 60000);
  g_assert_cmpint (tm_report_dialog_get_state (dialog), ==, TM_REPORT_DIALOG_FAILED);
  g_assert_nonnull (strstr (tm_report_dialog_get_detail (dialog), "no/such/dir"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-report-XXXXXX", 0, &fx))
    return 77;
  g_test_add_func ("/gui/report/export", test_export);
  g_test_add_func ("/gui/report/cancel-and-fail", test_cancel_and_fail);
  return tm_gui_test_run (&fx);
}
