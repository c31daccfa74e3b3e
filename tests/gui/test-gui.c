/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The application driven as a person would: open a synthesized leak trace
 * in a real window (under Xvfb), wait for the worker, find the leak window
 * in the sidebar, select it by activating its row, export the chart; open
 * a file that is not a trace; open a trace cut short.  Exits 77 (skip)
 * when no display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-chart-view.h"
#include "tm-export-dialog.h"
#include "hprof-test-writer.h"
#include "tm-heap-view.h"
#include "tm-format-util.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

static TmGuiTestFixture fx;

typedef struct {
  gint64 start_us;
  gint64 last_us;
  gint64 max_gap_us;
  gint64 max_gap_at_us;
} Gap;

static gboolean
gap_cb (gpointer data)
{
  Gap *gap = data;
  gint64 now = g_get_monotonic_time ();

  if (gap->last_us && now - gap->last_us > gap->max_gap_us)
    {
      gap->max_gap_us = now - gap->last_us;
      gap->max_gap_at_us = now - gap->start_us;
    }
  gap->last_us = now;
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until the window has finished loading and detecting
 * (or 60 s passed); returns the largest gap between 5 ms timeouts. */
static double
wait_until_idle (TmAppWindow *win)
{
  Gap gap = { .start_us = g_get_monotonic_time () };
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  gint64 loaded_at = 0;
  guint id = g_timeout_add (5, gap_cb, &gap);

  while (tm_app_window_is_busy (win) && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, TRUE);
      if (loaded_at == 0 && g_strcmp0 (tm_app_window_get_page (win), "loading") != 0)
        loaded_at = g_get_monotonic_time () - gap.start_us;
    }
  g_test_message ("trace read in %.0f ms; largest main loop gap %.1f ms, %.0f ms after opening",
                  loaded_at / 1000.0, gap.max_gap_us / 1000.0, gap.max_gap_at_us / 1000.0);
  /* Let idles (summary, list selection) and a frame run. */
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  g_source_remove (id);
  g_assert_false (tm_app_window_is_busy (win));
  return gap.max_gap_us / 1000.0;
}

static TmAppWindow *
new_window (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  gtk_window_present (GTK_WINDOW (win));
  /* Let the window map and draw its first frames before the measurement. */
  tm_gui_test_spin (300);
  return win;
}

static gboolean
zoom_to_selection (gpointer win)
{
  return gtk_widget_activate_action (GTK_WIDGET (win), "win.zoom-selection", NULL);
}

static void
test_leak_window (void)
{
  TmAppWindow *win = new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (fx.leak_path);
  TmSession *session;
  TmTrace *trace;
  GtkListBox *list;
  GtkListBoxRow *row;
  const TmWindow *leak = NULL;
  int leak_index = -1;
  guint n_gcs;
  double gap_ms;
  g_autofree char *png = g_build_filename (fx.tmpdir, "memory.png", NULL);
  g_autofree char *tooltip = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (tm_app_window_get_page (win), ==, "empty");
  tm_app_window_open (win, file);
  g_assert_cmpstr (tm_app_window_get_page (win), ==, "loading");
  gap_ms = wait_until_idle (win);
  g_test_message ("largest main loop gap while loading: %.1f ms", gap_ms);

  g_assert_cmpstr (tm_app_window_get_page (win), ==, "trace");
  g_assert_false (tm_app_window_get_banner_shown (win));
  trace = tm_app_window_get_trace (win);
  g_assert_nonnull (trace);
  n_gcs = tm_trace_n_gcs (trace);
  g_assert_cmpuint (n_gcs, ==, 200);

  /* The sidebar lists the leak window: planted from 20% of the GCs to the end. */
  session = tm_app_window_get_session (win);
  list = tm_app_window_get_windows_list (win);
  for (int i = 0; (row = gtk_list_box_get_row_at_index (list, i)) != NULL; i++)
    {
      const TmWindow *w = tm_session_get_window (session, i);
      g_assert_nonnull (w);
      if (w->kind == TM_WINDOW_LEAK)
        {
          leak = w;
          leak_index = i;
        }
    }
  g_assert_nonnull (leak);
  g_assert_cmpuint (leak->first_gc, >=, n_gcs * 15 / 100);
  g_assert_cmpuint (leak->first_gc, <=, n_gcs * 25 / 100);
  g_assert_cmpuint (leak->last_gc, ==, n_gcs);

  /* Select it by activating its row, as a click does. */
  row = gtk_list_box_get_row_at_index (list, leak_index);
  g_assert_false (tm_session_get_has_selection (session));
  gtk_widget_activate (GTK_WIDGET (row));
  tm_gui_test_spin (50);
  g_assert_true (tm_session_get_has_selection (session));
  g_assert_cmpint (tm_session_get_selected_window (session), ==, leak_index);
  g_assert_cmpuint (tm_session_get_selected_first_gc (session), ==, leak->first_gc);
  g_assert_cmpuint (tm_session_get_selected_last_gc (session), ==, leak->last_gc);
  g_assert_true (gtk_list_box_get_selected_row (list) == row);

  /* Every chart draws from the same session. */
  for (TmChartKind k = 0; k < TM_CHART_N_KINDS; k++)
    g_assert_true (tm_chart_view_get_session (TM_CHART_VIEW (tm_app_window_get_chart (win, k))) == session);

  /* Hover text names the GC and its exact numbers. */
  tooltip = tm_chart_view_describe_gc (TM_CHART_VIEW (tm_app_window_get_chart (win, TM_CHART_MEMORY)), 100);
  g_assert_nonnull (strstr (tooltip, "GC 100"));
  g_assert_nonnull (strstr (tooltip, "Heap after"));

  /* Zoom to the window (enabled once the window shows the selection), then reset. */
  tm_gui_test_spin_until (zoom_to_selection, win, 10000);
  g_assert_cmpfloat (tm_session_get_visible_start (session), <, leak->start_ns);
  g_assert_cmpfloat (tm_session_get_visible_start (session), >, 0);
  gtk_widget_activate_action (GTK_WIDGET (win), "win.zoom-reset", NULL);
  g_assert_cmpfloat (tm_session_get_visible_start (session), ==, 0);
  g_assert_cmpfloat (tm_session_get_visible_end (session), ==, tm_session_get_whole_end (session));

  /* Export: the action opens the size dialog; the PNG has the chosen size. */
  gtk_widget_activate_action (GTK_WIDGET (win), "win.export-chart", "s", "memory");
  tm_gui_test_spin (50);
  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    gboolean found = FALSE;
    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);
        if (TM_IS_EXPORT_DIALOG (w))
          {
            found = TRUE;
            gtk_window_destroy (GTK_WINDOW (w));
            break;
          }
      }
    g_assert_true (found);
  }
  g_assert_true (tm_app_window_export_chart (win, TM_CHART_MEMORY, png, 900, 320, &error));
  g_assert_no_error (error);
  tm_gui_test_assert_png (png, 900, 320);

  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

static gboolean
has_window_kind (TmSession *session, TmWindowKind kind)
{
  GPtrArray *windows = tm_session_get_windows (session);

  for (guint i = 0; windows && i < windows->len; i++)
    if (((TmWindow *) g_ptr_array_index (windows, i))->kind == kind)
      return TRUE;
  return FALSE;
}

/* Opens Preferences (the app action) and returns its dialog, or NULL. */
static GtkWindow *
open_preferences (void)
{
  GListModel *toplevels;

  g_action_group_activate_action (G_ACTION_GROUP (fx.app), "preferences", NULL);
  tm_gui_test_spin (100);
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);
      if (g_str_equal (G_OBJECT_TYPE_NAME (w), "TmPreferencesDialog"))
        return GTK_WINDOW (w);
    }
  return NULL;
}

/* The preferences dialog edits the thresholds in GSettings; open windows
 * detect again with them.  GC overhead in the leak scenario is about 2%:
 * not suspicious at 10%, suspicious at 1%. */
static void
test_thresholds (void)
{
  TmAppWindow *win = new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (fx.leak_path);
  TmSession *session = tm_app_window_get_session (win);
  GSettings *settings = NULL;
  GtkWindow *dialog;

  tm_app_window_open (win, file);
  wait_until_idle (win);
  g_assert_false (has_window_kind (session, TM_WINDOW_GC_OVERHEAD));

  dialog = open_preferences ();
  g_assert_nonnull (dialog);
  gtk_window_destroy (dialog);

  settings = g_settings_new ("io.github.tidemark.Tidemark");
  g_settings_set_double (settings, "overhead-threshold", 0.01);
  tm_gui_test_spin (20);
  wait_until_idle (win);
  g_assert_true (has_window_kind (session, TM_WINDOW_GC_OVERHEAD));
  g_assert_cmpfloat (tm_session_get_overhead_threshold (session), ==, 0.01);
  g_settings_reset (settings, "overhead-threshold");
  tm_gui_test_spin (20);
  wait_until_idle (win);
  g_assert_false (has_window_kind (session, TM_WINDOW_GC_OVERHEAD));
  g_object_unref (settings);

  /* The trace is now in Open Recent (the recent list lives in the test's
   * own XDG_DATA_HOME). */
  {
    GMenuModel *recent = tm_application_get_recent_menu (fx.app);
    g_autofree char *uri = g_file_get_uri (file);
    gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
    g_autoptr(GVariant) target = NULL;

    /* Files opened by earlier cases are already listed, and the recent
     * list updates asynchronously: wait for this file to come first. */
    for (;;)
      {
        if (g_menu_model_get_n_items (recent) > 0)
          {
            g_clear_pointer (&target, g_variant_unref);
            target = g_menu_model_get_item_attribute_value (recent, 0, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);
            if (target != NULL && g_strcmp0 (g_variant_get_string (target, NULL), uri) == 0)
              break;
          }
        if (g_get_monotonic_time () >= deadline)
          break;
        g_main_context_iteration (NULL, FALSE);
      }
    g_assert_cmpint (g_menu_model_get_n_items (recent), >=, 1);
    g_assert_nonnull (target);
    g_assert_cmpstr (g_variant_get_string (target, NULL), ==, uri);
  }

  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

/* The label of the first widget named `name` below root, or NULL. */
static const char *
find_named_label (GtkWidget *root, const char *name)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return gtk_label_get_label (GTK_LABEL (root));
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      const char *found = find_named_label (c, name);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Preferences > Loading > Memory limit: a trace whose model needs more
 * opens up to there, and the banner names the limit and where to raise
 * it.  Preferences > Data Structures shows why a .ds file is not used. */
static void
test_memory_limit_and_bad_ds (void)
{
  TmAppWindow *win = new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (fx.leak_path);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.tidemark.Tidemark");
  g_autofree char *broken = g_build_filename (fx.tmpdir, "broken.ds", NULL);
  const char *files[] = { broken, NULL };
  const char *none[] = { NULL };
  const char *problem;
  GtkWindow *dialog;
  TmTrace *trace;

  g_settings_set_uint (settings, "memory-limit-mib", 1);
  tm_app_window_open (win, file);
  wait_until_idle (win);
  trace = tm_app_window_get_trace (win);
  g_assert_nonnull (trace);
  g_assert_true (trace->memory_limited);
  g_assert_cmpuint (trace->memory_limit, ==, 1u << 20);
  g_assert_cmpuint (tm_trace_n_gcs (trace), >, 0);
  g_assert_true (tm_app_window_get_banner_shown (win));
  g_assert_nonnull (strstr (tm_app_window_get_banner_text (win), "memory limit of 1.00 MiB"));
  g_assert_nonnull (strstr (tm_app_window_get_banner_text (win), "Preferences"));
  g_settings_reset (settings, "memory-limit-mib");
  gtk_window_destroy (GTK_WINDOW (win));

  g_assert_true (g_file_set_contents (broken, "DS broken {\n  x y\n}\n", -1, NULL));
  g_settings_set_strv (settings, "ds-files", files);
  dialog = open_preferences ();
  g_assert_nonnull (dialog);
  problem = find_named_label (GTK_WIDGET (dialog), "ds-file-error");
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (problem, "broken.ds:2:5: expected ';' or '}' after pointee"));
  if (g_getenv ("TM_SCREENSHOT_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TM_SCREENSHOT_DIR"), "preferences-bad-ds.png", NULL);
      tm_gui_test_spin (500);
      tm_gui_test_save_png (GTK_WIDGET (dialog), png, NULL);
    }
  gtk_window_destroy (dialog);
  g_settings_set_strv (settings, "ds-files", none);
  tm_gui_test_spin (20);
}

static void
close_dialogs (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = g_list_model_get_n_items (toplevels); i > 0; i--)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i - 1);
      if (GTK_IS_MESSAGE_DIALOG (w))
        gtk_window_destroy (GTK_WINDOW (w));
    }
}

static void
test_not_a_trace (void)
{
  TmAppWindow *win = new_window ();
  g_autofree char *path = g_build_filename (fx.tmpdir, "notes.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  const char *message;
  gboolean dialog = FALSE;

  g_assert_true (g_file_set_contents (path, "Shopping list: milk, eggs, a memory profiler.\n", -1, NULL));
  tm_app_window_open (win, file);
  wait_until_idle (win);

  g_assert_cmpstr (tm_app_window_get_page (win), ==, "empty");
  g_assert_null (tm_app_window_get_file (win));
  message = tm_app_window_get_last_error (win);
  g_assert_nonnull (message);
  g_test_message ("error shown: %s", message);
  g_assert_true (g_str_has_prefix (message, path));
  g_assert_cmpuint (strlen (message), >, strlen (path) + 3);

  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);
        if (GTK_IS_MESSAGE_DIALOG (w))
          dialog = TRUE;
      }
  }
  g_assert_true (dialog);
  close_dialogs ();
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

static void
test_cut_short (void)
{
  TmAppWindow *win = new_window ();
  g_autofree char *path = g_build_filename (fx.tmpdir, "cut.tmtrace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *data = NULL;
  gsize len;
  TmTrace *trace;
  const char *text;

  g_assert_true (g_file_get_contents (fx.leak_path, &data, &len, NULL));
  g_assert_true (g_file_set_contents (path, data, len * 6 / 10, NULL));
  tm_app_window_open (win, file);
  wait_until_idle (win);

  /* The part that was read is shown, with a banner saying where it stops. */
  g_assert_cmpstr (tm_app_window_get_page (win), ==, "trace");
  trace = tm_app_window_get_trace (win);
  g_assert_false (trace->complete);
  g_assert_cmpuint (tm_trace_n_gcs (trace), >, 0);
  g_assert_cmpuint (tm_trace_n_gcs (trace), <, 200);
  g_assert_true (tm_app_window_get_banner_shown (win));
  text = tm_app_window_get_banner_text (win);
  g_test_message ("banner: %s", text);
  g_assert_nonnull (strstr (text, "cut.tmtrace"));
  {
    g_autofree char *gc = g_strdup_printf ("GC %u", tm_trace_n_gcs (trace));
    g_assert_nonnull (strstr (text, gc));
  }
  close_dialogs ();
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

static void
test_cancel (void)
{
  TmAppWindow *win = new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (fx.leak_path);

  /* Cancel right away: back to the empty state, no error dialog. */
  tm_app_window_open (win, file);
  gtk_widget_activate_action (GTK_WIDGET (win), "win.cancel-load", NULL);
  wait_until_idle (win);
  if (tm_app_window_get_trace (win) == NULL)
    {
      g_assert_cmpstr (tm_app_window_get_page (win), ==, "empty");
      g_assert_null (tm_app_window_get_last_error (win));
    }
  else
    g_test_message ("the load finished before the cancel was seen");
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

static GtkGestureDrag *
find_drag (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_DRAG (c))
        return GTK_GESTURE_DRAG (c);
    }
  return NULL;
}

/* The chart's drag gesture, driven with the signals a pointer produces:
 * a click on a band picks the narrowest window there, a drag selects a
 * time range, a click outside every band clears the selection. */
static void
test_chart_pointer (void)
{
  TmAppWindow *win = new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (fx.leak_path);
  TmSession *session = tm_app_window_get_session (win);
  TmChartView *chart;
  GtkGestureDrag *drag;
  GPtrArray *windows;
  const TmWindow *peak = NULL;
  int peak_index = -1;
  double x, x0, x1, y = 100;
  TmTimelineModel *m;

  tm_app_window_open (win, file);
  wait_until_idle (win);
  tm_gui_test_spin (200);   /* a frame, so the charts have a layout */
  chart = TM_CHART_VIEW (tm_app_window_get_chart (win, TM_CHART_MEMORY));
  drag = find_drag (GTK_WIDGET (chart));
  g_assert_nonnull (drag);
  m = tm_session_get_model (session);

  windows = tm_session_get_windows (session);
  for (guint i = 0; i < windows->len; i++)
    {
      const TmWindow *w = g_ptr_array_index (windows, i);
      if (w->kind == TM_WINDOW_LEAK_PEAK)
        peak = w, peak_index = (int) i;
    }
  g_assert_nonnull (peak);

  /* Click inside the peak, which lies inside the leak window. */
  g_assert_true (tm_chart_view_time_to_x (chart, (peak->start_ns + peak->end_ns) / 2.0, &x));
  g_signal_emit_by_name (drag, "drag-begin", x, y);
  g_signal_emit_by_name (drag, "drag-end", 0.0, 0.0);
  g_assert_cmpint (tm_session_get_selected_window (session), ==, peak_index);
  g_assert_cmpuint (tm_session_get_selected_first_gc (session), ==, peak->first_gc);
  g_assert_cmpuint (tm_session_get_selected_last_gc (session), ==, peak->last_gc);

  /* Rubber band from 1 s to 3 s. */
  g_assert_true (tm_chart_view_time_to_x (chart, 1e9, &x0));
  g_assert_true (tm_chart_view_time_to_x (chart, 3e9, &x1));
  g_signal_emit_by_name (drag, "drag-begin", x0, y);
  g_signal_emit_by_name (drag, "drag-update", (x1 - x0) / 2, 0.0);
  g_signal_emit_by_name (drag, "drag-update", x1 - x0, 0.0);
  g_signal_emit_by_name (drag, "drag-end", x1 - x0, 0.0);
  g_assert_true (tm_session_get_has_selection (session));
  g_assert_cmpint (tm_session_get_selected_window (session), ==, -1);
  g_assert_cmpfloat (fabs (tm_session_get_selection_start (session) - 1e9), <, 0.05e9);
  g_assert_cmpfloat (fabs (tm_session_get_selection_end (session) - 3e9), <, 0.05e9);
  /* The selected GCs are those the range touches. */
  g_assert_cmpfloat (m->end_ns[tm_session_get_selected_first_gc (session) - 1], >=, tm_session_get_selection_start (session));
  g_assert_cmpfloat (m->start_ns[tm_session_get_selected_last_gc (session) - 1], <=, tm_session_get_selection_end (session));
  g_assert_cmpuint (tm_session_get_selected_last_gc (session) - tm_session_get_selected_first_gc (session), >=, 15);

  /* Horizontal scrolling pans a zoomed view by a tenth of its span. */
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (chart));
    GObject *scroll = NULL;
    double a, span;
    gboolean handled = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (controllers) && scroll == NULL; i++)
      {
        g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
        if (GTK_IS_EVENT_CONTROLLER_SCROLL (c))
          scroll = c;
      }
    g_assert_nonnull (scroll);
    gtk_widget_activate_action (GTK_WIDGET (win), "win.zoom-in", NULL);
    a = tm_session_get_visible_start (session);
    span = tm_session_get_visible_end (session) - a;
    g_assert_cmpfloat (fabs (span - tm_session_get_whole_end (session) / 2), <, 1);
    g_signal_emit_by_name (scroll, "scroll", 1.0, 0.0, &handled);
    g_assert_true (handled);
    g_assert_cmpfloat (fabs (tm_session_get_visible_start (session) - (a + span * 0.1)), <, 1);
    gtk_widget_activate_action (GTK_WIDGET (win), "win.zoom-reset", NULL);
  }

  /* A click where no window is clears the selection. */
  g_assert_true (tm_chart_view_time_to_x (chart, 0.5e9, &x));
  g_signal_emit_by_name (drag, "drag-begin", x, y);
  g_signal_emit_by_name (drag, "drag-end", 0.0, 0.0);
  g_assert_false (tm_session_get_has_selection (session));

  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

/* Opening another file while one loads shows the second; closing a window
 * while it loads is safe. */
static void
test_replace_and_close (void)
{
  TmAppWindow *win = new_window ();
  g_autofree char *cut = g_build_filename (fx.tmpdir, "second.tmtrace", NULL);
  g_autoptr(GFile) first = g_file_new_for_path (fx.leak_path);
  g_autoptr(GFile) second = g_file_new_for_path (cut);
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (fx.leak_path, &data, &len, NULL));
  g_assert_true (g_file_set_contents (cut, data, len / 2, NULL));

  tm_app_window_open (win, first);
  tm_app_window_open (win, second);
  wait_until_idle (win);
  g_assert_true (g_file_equal (tm_app_window_get_file (win), second));
  g_assert_false (tm_app_window_get_trace (win)->complete);
  g_assert_true (tm_app_window_get_banner_shown (win));
  close_dialogs ();

  tm_app_window_open (win, first);
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (500);
}

/* Writes two heap dumps, dump i taken at ms[i] (in segments or not),
 * the second cut to 3/4 if asked, and opens them together as File >
 * Open does.  Returns the second one's length. */
static gsize
open_two_dumps (TmAppWindow *win, const char *const names[2], const guint64 ms[2], const gboolean segments[2],
                gboolean cut_second)
{
  GFile *files[2];
  gsize len = 0;

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GBytes) b = hw_test_heap_at (8, segments[i], FALSE, ms[i]);
      g_autofree char *path = g_build_filename (fx.tmpdir, names[i], NULL);
      len = g_bytes_get_size (b);
      if (i == 1 && cut_second)
        len = len * 3 / 4;
      g_assert_true (g_file_set_contents (path, g_bytes_get_data (b, NULL), (gssize) len, NULL));
      files[i] = g_file_new_for_path (path);
    }
  gtk_window_present (GTK_WINDOW (win));
  tm_app_window_open_files (win, files, 2);
  g_object_unref (files[0]);
  g_object_unref (files[1]);
  wait_until_idle (win);
  return len;
}

/* File > Open with several heap dumps: one timeline, in time order. */
static void
test_heap_dumps_together (void)
{
  TmAppWindow *win = new_window ();
  const char *const names[] = { "later.hprof", "earlier.hprof" };
  /* the later dump is given first: 1 s after the other */
  const guint64 ms[] = { G_GUINT64_CONSTANT (1700000001000), G_GUINT64_CONSTANT (1700000000000) };
  const gboolean segments[] = { TRUE, FALSE };
  TmTrace *trace;

  open_two_dumps (win, names, ms, segments, FALSE);

  g_assert_cmpstr (tm_app_window_get_page (win), ==, "trace");
  trace = tm_app_window_get_trace (win);
  g_assert_cmpstr (trace->format, ==, "hprof");
  g_assert_true (trace->complete);
  g_assert_cmpuint (tm_trace_n_gcs (trace), ==, 2);
  g_assert_cmpstr (tm_trace_gc (trace, 1)->cause, ==, "earlier.hprof");
  g_assert_cmpstr (tm_trace_gc (trace, 2)->cause, ==, "later.hprof");
  g_assert_cmpuint (tm_trace_gc (trace, 2)->end_ns - tm_trace_gc (trace, 1)->end_ns, ==, 1000000000);
  g_assert_true (tm_trace_gc (trace, 1)->has_graph && tm_trace_gc (trace, 2)->has_graph);
  /* a timeline of dumps: memory over the dumps, no GC overhead to chart,
   * and no heap opened by itself (the user picks the dumps) */
  g_assert_true (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_MEMORY)));
  g_assert_false (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_OVERHEAD)));
  g_assert_null (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_HEAP_VIEW));
  close_dialogs ();
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

/* Two heap dumps, the later one cut short: the banner names that dump,
 * its file and where it stops (not a "GC"); then the cut one alone. */
static void
test_heap_dump_cut (void)
{
  TmAppWindow *win = new_window ();
  const char *const names[] = { "first.hprof", "cut-second.hprof" };
  const guint64 ms[] = { G_GUINT64_CONSTANT (1700000000000), G_GUINT64_CONSTANT (1700000001000) };
  const gboolean segments[] = { TRUE, TRUE };
  TmTrace *trace;
  const char *text;
  gsize cut = open_two_dumps (win, names, ms, segments, TRUE);

  g_assert_cmpstr (tm_app_window_get_page (win), ==, "trace");
  trace = tm_app_window_get_trace (win);
  g_assert_false (trace->complete);
  g_assert_cmpuint (tm_trace_n_gcs (trace), ==, 2);
  g_assert_cmpuint (trace->stop_offset, >, 0);
  g_assert_cmpuint (trace->stop_offset, <=, cut);
  g_assert_true (tm_app_window_get_banner_shown (win));
  text = tm_app_window_get_banner_text (win);
  g_test_message ("banner: %s", text);
  {
    g_autofree char *where = tm_format_count (trace->stop_offset);
    g_autofree char *want = g_strdup_printf ("reading stopped at byte %s of heap dump 2, “cut-second.hprof”", where);
    g_assert_nonnull (strstr (text, want));
  }
  g_assert_null (strstr (text, "GC"));
  close_dialogs ();
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);

  /* the cut dump alone: the banner names it once */
  win = new_window ();
  {
    g_autofree char *path = g_build_filename (fx.tmpdir, names[1], NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    tm_app_window_open (win, file);
  }
  wait_until_idle (win);
  trace = tm_app_window_get_trace (win);
  g_assert_cmpuint (tm_trace_n_gcs (trace), ==, 1);
  text = tm_app_window_get_banner_text (win);
  g_test_message ("banner: %s", text);
  {
    g_autofree char *where = tm_format_count (trace->stop_offset);
    g_autofree char *want = g_strdup_printf ("“cut-second.hprof” is incomplete: reading stopped at byte %s of the heap dump.",
                                             where);
    g_assert_nonnull (strstr (text, want));
  }
  close_dialogs ();
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

static gboolean
heap_view_titled (gpointer data)
{
  return tm_gui_test_find_label (GTK_WIDGET (data), "Heap dump 1: ") != NULL;
}

/* One heap dump is one heap state: the window opens on its heap, as MAT
 * does, and shows no GC overhead, pauses or GC summary (a dump has none). */
static void
test_one_heap_dump (void)
{
  TmAppWindow *win = new_window ();
  g_autoptr(GBytes) b = hw_test_heap_at (8, TRUE, FALSE, G_GUINT64_CONSTANT (1700000000000));
  g_autofree char *path = g_build_filename (fx.tmpdir, "one.hprof", NULL);
  GtkWidget *heap;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (b, NULL), (gssize) g_bytes_get_size (b), NULL));
  tm_gui_test_open_and_wait (win, path);
  wait_until_idle (win);
  g_assert_cmpstr (tm_app_window_get_trace (win)->format, ==, "hprof");

  heap = tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_HEAP_VIEW);
  g_assert_nonnull (heap);
  tm_gui_test_spin_until (heap_view_titled, win, 20000);
  g_assert_true (gtk_widget_get_mapped (heap));   /* the page shown */
  g_assert_false (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_OVERHEAD)));
  g_assert_false (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_PAUSES)));
  {
    GtkWidget *summary = tm_gui_test_find_label (GTK_WIDGET (win), "GC Summary");
    g_assert_true (summary == NULL || !gtk_widget_is_visible (summary));
  }
  close_dialogs ();
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

int
main (int argc, char **argv)
{
  /* TIDEMARK_GUI_TEST_SCALE=50 measures the main loop on a big trace
   * (docs/app.md); the planted truth is the same at every scale. */
  const char *scale = g_getenv ("TIDEMARK_GUI_TEST_SCALE");

  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-XXXXXX", scale ? g_ascii_strtod (scale, NULL) : 0,
                          &fx))
    return 77;

  g_test_add_func ("/gui/leak-window", test_leak_window);
  g_test_add_func ("/gui/not-a-trace", test_not_a_trace);
  g_test_add_func ("/gui/cut-short", test_cut_short);
  g_test_add_func ("/gui/heap-dump-cut", test_heap_dump_cut);
  g_test_add_func ("/gui/cancel", test_cancel);
  g_test_add_func ("/gui/thresholds", test_thresholds);
  g_test_add_func ("/gui/memory-limit-and-bad-ds", test_memory_limit_and_bad_ds);
  g_test_add_func ("/gui/chart-pointer", test_chart_pointer);
  g_test_add_func ("/gui/replace-and-close-while-loading", test_replace_and_close);
  g_test_add_func ("/gui/heap-dumps-together", test_heap_dumps_together);
  g_test_add_func ("/gui/one-heap-dump", test_one_heap_dump);
  return tm_gui_test_run (&fx);
}
