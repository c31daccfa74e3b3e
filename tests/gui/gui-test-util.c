/* SPDX-License-Identifier: GPL-3.0-or-later
 * Fixture code shared by the GUI tests (see gui-test-util.h). */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-synth.h"

#include <glib/gstdio.h>
#include <string.h>

/* No session bus or accessibility bus under a bare Xvfb: GTK warns and
 * carries on, and so do we; anything else stays fatal. */
static gboolean
fatal_handler (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  if ((level & G_LOG_LEVEL_WARNING) && message &&
      (strstr (message, "session bus") || strstr (message, "accessibility bus") ||
       strstr (message, "AT-SPI")))
    return FALSE;
  return TRUE;
}

static char *
write_leak (const char *dir, double scale)
{
  TmSynthOptions options;
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, "leak.tmtrace", NULL);

  tm_synth_options_init (&options);
  options.scenario = "leak";
  if (scale > 0)
    options.scale = scale;
  g_assert_true (tm_synth_write_file (&options, path, &error));
  g_assert_no_error (error);
  return path;
}

gboolean
tm_gui_test_setup (int *argc, char ***argv, const char *tmp_template, double scale, TmGuiTestFixture *fx)
{
  g_autoptr(GError) error = NULL;

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);   /* no accessibility bus under Xvfb */
  g_test_init (argc, argv, NULL);
  g_test_log_set_fatal_handler (fatal_handler, NULL);

  memset (fx, 0, sizeof *fx);
  fx->tmpdir = g_dir_make_tmp (tmp_template, &error);
  g_assert_no_error (error);
  /* Recent files go to the test's directory, not the user's. */
  g_setenv ("XDG_DATA_HOME", fx->tmpdir, TRUE);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: skipping the GUI tests\n");
      g_rmdir (fx->tmpdir);
      g_clear_pointer (&fx->tmpdir, g_free);
      return FALSE;
    }

  fx->leak_path = write_leak (fx->tmpdir, scale);
  fx->app = tm_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (fx->app), NULL, &error));
  g_assert_no_error (error);
  return TRUE;
}

int
tm_gui_test_run (TmGuiTestFixture *fx)
{
  int ret = g_test_run ();
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_clear_object (&fx->app);
  dir = g_dir_open (fx->tmpdir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *p = g_build_filename (fx->tmpdir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (fx->tmpdir);
  g_clear_pointer (&fx->leak_path, g_free);
  g_clear_pointer (&fx->tmpdir, g_free);
  return ret;
}

void
tm_gui_test_spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

void
tm_gui_test_spin_until (gboolean (*done) (gpointer), gpointer data, guint max_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) max_ms * 1000;

  while (!done (data) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
window_idle (gpointer data)
{
  TmAppWindow *win = data;

  return !tm_app_window_is_busy (win) && g_strcmp0 (tm_app_window_get_page (win), "trace") == 0;
}

void
tm_gui_test_open_and_wait (TmAppWindow *win, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  gtk_window_present (GTK_WINDOW (win));
  tm_app_window_open (win, file);
  tm_gui_test_spin_until (window_idle, win, 60000);
  g_assert_cmpstr (tm_app_window_get_page (win), ==, "trace");
}

GtkWidget *
tm_gui_test_find_widget (GtkWidget *root, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = tm_gui_test_find_widget (c, type);
      if (found)
        return found;
    }
  return NULL;
}

void
tm_gui_test_assert_png (const char *path, int width, int height)
{
  cairo_surface_t *surface;

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  surface = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, height);
  cairo_surface_destroy (surface);
}

int
tm_gui_test_dropdown_index (GtkDropDown *dropdown, const char *title)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (strcmp (gtk_string_list_get_string (GTK_STRING_LIST (model), i), title) == 0)
      return (int) i;
  return -1;
}

gboolean
tm_gui_test_save_png (GtkWidget *widget, const char *path, GError **error)
{
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || renderer == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the widget has not been drawn yet");
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: could not be written", path);
      return FALSE;
    }
  return TRUE;
}
