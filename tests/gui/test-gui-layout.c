/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every view at 1024x700, as a person with a small screen sees it: the
 * window's content fits (its minimum size is not larger than the window,
 * so nothing is cut off at the right or bottom), and no label is cut
 * short, except where cutting is by design: names ellipsized at their
 * start (the class or function name at their end stays), and the
 * previews marked "tm-preview" (the sidebar's explanations, shown whole
 * on the Selection page).  Then the sidebar: F9's action hides and shows
 * it, and the setting remembers it.  Feedback: an export's "Saved …"
 * notice fits the small window and names the file; the Preferences say
 * that changes are not saved when GSettings has no store (the memory
 * backend these tests run with).  Run in English and, when the locale is
 * there, in German (longer words).
 * Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-app-window.h"
#include "tm-session.h"
#include "tm-settings.h"
#include "tm-notice.h"
#include "tm-preferences-dialog.h"

#include "gui-test-util.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#define WIDTH  1024
#define HEIGHT 700

static TmGuiTestFixture fx;

static gboolean
loaded (gpointer data)
{
  return !tm_app_window_is_busy (data) && g_strcmp0 (tm_app_window_get_page (data), "trace") == 0;
}

static gboolean
has_class_up (GtkWidget *w, const char *css_class)
{
  for (; w != NULL; w = gtk_widget_get_parent (w))
    if (gtk_widget_has_css_class (w, css_class))
      return TRUE;
  return FALSE;
}

/* Labels cut short below root, as "text" (why) lines. */
static void
collect_truncated (GtkWidget *root, GString *out)
{
  if (!gtk_widget_get_mapped (root))
    return;
  if (GTK_IS_LABEL (root))
    {
      GtkLabel *label = GTK_LABEL (root);
      PangoEllipsizeMode mode = gtk_label_get_ellipsize (label);
      const char *text = gtk_label_get_text (label);

      if (mode != PANGO_ELLIPSIZE_NONE && *text != '\0' &&
          pango_layout_is_ellipsized (gtk_label_get_layout (label)) &&
          mode != PANGO_ELLIPSIZE_START && !has_class_up (root, "tm-preview"))
        g_string_append_printf (out, "  \"%s\" (%s, %d px wide)\n", text,
                                mode == PANGO_ELLIPSIZE_MIDDLE ? "ellipsized in the middle" : "ellipsized",
                                gtk_widget_get_width (root));
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_truncated (c, out);
}

/* Where a minimum width comes from: the widest descendants, down. */
static void
append_widest_path (GtkWidget *w, GString *out)
{
  for (int depth = 0; w != NULL && depth < 40; depth++)
    {
      GtkWidget *widest = NULL;
      int min = 0, best = -1;

      gtk_widget_measure (w, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      g_string_append_printf (out, "    %s%s%s%s%.50s (min %d)\n", G_OBJECT_TYPE_NAME (w),
                              GTK_IS_LABEL (w) ? " " : "", GTK_IS_LABEL (w) ? gtk_label_get_text (GTK_LABEL (w)) : "",
                              gtk_widget_get_name (w) && !g_str_has_prefix (gtk_widget_get_name (w), "Gtk") ? " #" : "",
                              gtk_widget_get_name (w) && !g_str_has_prefix (gtk_widget_get_name (w), "Gtk") ? gtk_widget_get_name (w) : "",
                              min);
      for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
        {
          int m = 0;
          if (!gtk_widget_get_visible (c))
            continue;
          gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &m, NULL, NULL, NULL);
          if (m > best)
            {
              best = m;
              widest = c;
            }
        }
      w = widest;
    }
}

/* The children of panes that reach past the window's right edge: a
 * GtkPaned gives its end child at least its minimum width, even where
 * the window has no room for it, and the rest is cut off. */
static void
collect_overflowing (GtkWidget *root, GtkWidget *window_child, GString *out)
{
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (root))
    return;
  if (GTK_IS_PANED (gtk_widget_get_parent (root)) &&
      gtk_widget_compute_bounds (root, window_child, &bounds) &&
      bounds.origin.x + bounds.size.width > gtk_widget_get_width (window_child) + 1)
    {
      int min = 0;

      gtk_widget_measure (root, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      g_string_append_printf (out, "  %s in %s (minimum width %d px) ends at x = %.0f, the window at %d\n",
                              G_OBJECT_TYPE_NAME (root), G_OBJECT_TYPE_NAME (gtk_widget_get_parent (root)),
                              min, bounds.origin.x + bounds.size.width, gtk_widget_get_width (window_child));
      append_widest_path (root, out);
      if (gtk_paned_get_end_child (GTK_PANED (gtk_widget_get_parent (root))) == root)
        {
          g_string_append (out, "  beside it:\n");
          append_widest_path (gtk_paned_get_start_child (GTK_PANED (gtk_widget_get_parent (root))), out);
        }
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_overflowing (c, window_child, out);
}

static void
assert_fits (TmAppWindow *win, const char *what)
{
  GtkWidget *child = gtk_window_get_child (GTK_WINDOW (win));
  g_autoptr(GString) bad = g_string_new (NULL);
  int min_w = 0, min_h = 0;

  gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (child), &min_h, NULL, NULL, NULL);
  if (min_w > gtk_widget_get_width (child) || min_h > gtk_widget_get_height (child))
    {
      g_test_message ("%s: the window's content needs %dx%d, has %dx%d", what, min_w, min_h,
                      gtk_widget_get_width (child), gtk_widget_get_height (child));
      g_test_fail ();
    }
  collect_overflowing (child, child, bad);
  if (bad->len > 0)
    {
      g_test_message ("%s: cut off at the right edge:\n%s", what, bad->str);
      g_test_fail ();
    }
  g_string_truncate (bad, 0);
  collect_truncated (GTK_WIDGET (win), bad);
  if (bad->len > 0)
    {
      g_test_message ("%s: labels cut short at %dx%d:\n%s", what, WIDTH, HEIGHT, bad->str);
      g_test_fail ();
    }
}

static TmAppWindow *
open_small (const char *path)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkListBoxRow *row;

  gtk_window_set_default_size (GTK_WINDOW (win), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (win));
  tm_app_window_open (win, file);
  tm_gui_test_spin_until (loaded, win, 60000);
  g_assert_cmpstr (tm_app_window_get_page (win), ==, "trace");
  if ((row = gtk_list_box_get_row_at_index (tm_app_window_get_windows_list (win), 0)) != NULL)
    gtk_widget_activate (GTK_WIDGET (row));
  tm_gui_test_spin (400);
  return win;
}

/* Each analysis view of the leak's first window, one after the other in
 * the same window (its pages stay open, as a user's do). */
static void
test_views (void)
{
  static const char *actions[] = {
    NULL,   /* the Selection page */
    "win.heap-at-selection",
    "win.compare-heaps-at-selection",
    "win.trend-at-selection",
    "win.ds-growth-at-selection",
    "win.allocations-at-selection",
    "win.advice-at-selection",
    "win.call-stacks",
  };
  TmAppWindow *win = open_small (fx.leak_path);

  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (win)), <=, WIDTH + 64);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      if (actions[i] != NULL)
        {
          if (!gtk_widget_activate_action (GTK_WIDGET (win), actions[i], NULL))
            {
              g_test_message ("%s: not available for this trace", actions[i]);
              continue;
            }
          /* the views compute on workers; let them finish and lay out */
          tm_gui_test_spin (2500);
        }
      assert_fits (win, actions[i] ? actions[i] : "the Selection page");
    }
  gtk_window_destroy (GTK_WINDOW (win));
}

/* A GC log: the GC summary grid on the Selection page. */
static void
test_gc_log (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "data", "gc-logs",
                                            "jdk17-g1.log", NULL);
  TmAppWindow *win;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no G1 sample log");
      return;
    }
  win = open_small (path);
  assert_fits (win, "a GC log's Selection page");
  gtk_widget_activate_action (GTK_WIDGET (win), "win.advice-at-selection", NULL);
  tm_gui_test_spin (2000);
  assert_fits (win, "a GC log's advice");
  gtk_window_destroy (GTK_WINDOW (win));
}

/* Every shortcut the Keyboard Shortcuts window lists is set, and the
 * analyses on the selection all have one. */
static void
test_shortcuts (void)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/tidemark/Tidemark/gtk/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  static const char *const analyses[] = {
    "win.heap-at-selection", "win.compare-heaps-at-selection", "win.ds-growth-at-selection",
    "win.trend-at-selection", "win.allocations-at-selection", "win.call-stacks", "win.advice-at-selection",
  };
  guint listed = 0;

  for (GSList *l = objects; l; l = l->next)
    {
      g_autofree char *action = NULL;
      g_auto(GStrv) accels = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "action-name", &action, NULL);
      if (action == NULL)
        continue;   /* the mouse's, described in words */
      accels = gtk_application_get_accels_for_action (GTK_APPLICATION (fx.app), action);
      g_assert_true (accels != NULL && accels[0] != NULL);
      listed += g_strv_contains (analyses, action);
    }
  g_assert_cmpuint (listed, ==, G_N_ELEMENTS (analyses));
}

static void
test_sidebar (void)
{
  GSettings *settings = tm_settings_get ();
  TmAppWindow *win = open_small (fx.leak_path);
  GtkWidget *list = GTK_WIDGET (tm_app_window_get_windows_list (win));
  const char *const *accels;
  g_auto(GStrv) f9 = gtk_application_get_accels_for_action (GTK_APPLICATION (fx.app), "win.sidebar-visible");

  accels = (const char *const *) f9;
  g_assert_true (accels != NULL && g_strv_contains (accels, "F9"));
  g_assert_true (gtk_widget_is_visible (list));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.sidebar-visible", NULL));
  tm_gui_test_spin (100);
  g_assert_false (gtk_widget_is_visible (list));
  g_assert_false (g_settings_get_boolean (settings, "sidebar-visible"));
  /* without the sidebar the charts take the room */
  g_assert_cmpint (gtk_widget_get_width (tm_app_window_get_chart (win, TM_CHART_MEMORY)), >, WIDTH - 100);
  assert_fits (win, "the window without its sidebar");

  /* a new window remembers it */
  {
    TmAppWindow *other = open_small (fx.leak_path);
    g_assert_false (gtk_widget_is_visible (GTK_WIDGET (tm_app_window_get_windows_list (other))));
    gtk_window_destroy (GTK_WINDOW (other));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.sidebar-visible", NULL));
  tm_gui_test_spin (100);
  g_assert_true (gtk_widget_is_visible (list));
  g_assert_true (g_settings_get_boolean (settings, "sidebar-visible"));
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
test_feedback (void)
{
  TmAppWindow *win = open_small (fx.leak_path);
  g_autofree char *path = g_build_filename (fx.tmpdir, "a-rather-long-name-for-the-memory-chart.png", NULL);
  TmPreferencesDialog *prefs;
  g_autoptr(GString) text = g_string_new (NULL);

  g_assert_null (tm_notice_get_text (GTK_WIDGET (win)));
  tm_notice_saved (tm_app_window_get_chart (win, TM_CHART_MEMORY), path);
  tm_gui_test_spin (600);
  g_assert_nonnull (tm_notice_get_text (GTK_WIDGET (win)));
  g_assert_nonnull (strstr (tm_notice_get_text (GTK_WIDGET (win)), "a-rather-long-name-for-the-memory-chart.png"));
  assert_fits (win, "the window with an export's notice");

  prefs = tm_preferences_dialog_new (GTK_WINDOW (win));
  gtk_window_present (GTK_WINDOW (prefs));
  tm_gui_test_spin (300);
  {
    /* the labels of the dialog, to find the warning among them */
    GtkWidget *stack[256];
    int n = 0;
    stack[n++] = GTK_WIDGET (prefs);
    while (n > 0)
      {
        GtkWidget *w = stack[--n];
        if (GTK_IS_LABEL (w) && gtk_widget_get_visible (w) && gtk_widget_has_css_class (w, "error"))
          g_string_append (text, gtk_label_get_text (GTK_LABEL (w)));
        for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL && n < 256; c = gtk_widget_get_next_sibling (c))
          stack[n++] = c;
      }
  }
  g_assert_nonnull (strstr (text->str, "GSettings"));
  gtk_window_destroy (GTK_WINDOW (prefs));
  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int argc, char **argv)
{
  /* German when the locale is there: its words are longer */
  if (g_strcmp0 (g_getenv ("TM_LAYOUT_LANG"), "de") == 0)
    {
      g_setenv ("LANGUAGE", "de", TRUE);
      if (setlocale (LC_ALL, "de_DE.UTF-8") == NULL)
        {
          g_printerr ("no de_DE.UTF-8 locale: skipping the German layout test\n");
          return 77;
        }
    }
  else
    setlocale (LC_ALL, "");
  if (g_getenv ("TIDEMARK_LOCALEDIR"))
    bindtextdomain (GETTEXT_PACKAGE, g_getenv ("TIDEMARK_LOCALEDIR"));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (!tm_gui_test_setup (&argc, &argv, "tm-gui-layout-XXXXXX", 0, &fx))
    return 77;
  g_test_add_func ("/gui/layout/views", test_views);
  g_test_add_func ("/gui/layout/gc-log", test_gc_log);
  g_test_add_func ("/gui/layout/sidebar", test_sidebar);
  g_test_add_func ("/gui/layout/shortcuts", test_shortcuts);
  g_test_add_func ("/gui/layout/feedback", test_feedback);
  return tm_gui_test_run (&fx);
}
