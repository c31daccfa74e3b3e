/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-screenshot: the application window as a person sees it, as a PNG,
 * without a desktop (run under xvfb-run; GSK_RENDERER=cairo).  Opens the
 * trace, selects a suspicious window as a click on its row does, runs an
 * action if asked (win.heap-at-selection, win.trend-at-selection,
 * win.ds-growth-at-selection), waits for the work to finish and saves.
 * For docs/screenshot.png and for looking at a change; not installed.
 *
 *   tm-screenshot TRACE OUT.png [--select N] [--action ACTION] [--wait MS]
 *                 [--size WxH] [--memory-limit MIB] [--page N]
 *                 [--while-loading MS --loading-png FILE [--cancel]]
 *
 * --page N shows the N-th page of the analysis notebook (0: Selection).
 * --while-loading saves FILE that many milliseconds into the load (the
 * progress page); --cancel then cancels the load as its button does and
 * saves OUT.png once the window is idle again.
 *
 * The language is the environment's (LANGUAGE=de LC_ALL=de_DE.UTF-8), with
 * the build tree's translations ($TIDEMARK_LOCALEDIR, `meson devenv`).
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-settings.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

static gboolean
loaded (gpointer data)
{
  TmAppWindow *win = data;
  return !tm_app_window_is_busy (win) && g_strcmp0 (tm_app_window_get_page (win), "trace") == 0;
}

static gboolean
save (TmAppWindow *win, const char *path)
{
  g_autoptr(GError) error = NULL;

  if (tm_gui_test_save_png (GTK_WIDGET (win), path, &error))
    return TRUE;
  g_printerr ("tm-screenshot: %s\n", error->message);
  return FALSE;
}

static gboolean
idle (gpointer data)
{
  return !tm_app_window_is_busy (data);
}

/* The first notebook under w (the analysis pages) */
static GtkNotebook *
find_notebook (GtkWidget *w)
{
  if (GTK_IS_NOTEBOOK (w))
    return GTK_NOTEBOOK (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkNotebook *n = find_notebook (c);
      if (n != NULL)
        return n;
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  gint select = 0, wait_ms = 3000, memory_limit_mib = 0, loading_ms = -1, page = -1;
  g_autofree char *loading_png = NULL;
  gboolean cancel = FALSE;
  g_autofree char *action = NULL;
  g_autofree char *size = NULL;
  int width = 0, height = 0;
  GOptionEntry entries[] = {
    { "select", 0, 0, G_OPTION_ARG_INT, &select, "Select the N-th suspicious window (-1: none)", "N" },
    { "action", 0, 0, G_OPTION_ARG_STRING, &action, "Then run this window action", "ACTION" },
    { "wait", 0, 0, G_OPTION_ARG_INT, &wait_ms, "Milliseconds to let views compute (default 3000)", "MS" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "Window size (default: the saved one)", "WxH" },
    { "memory-limit", 0, 0, G_OPTION_ARG_INT, &memory_limit_mib, "Preferences > Memory limit (MiB; default 0)", "MIB" },
    { "page", 0, 0, G_OPTION_ARG_INT, &page, "Show this page of the analysis notebook (0: Selection)", "N" },
    { "while-loading", 0, 0, G_OPTION_ARG_INT, &loading_ms, "Milliseconds into the load to save --loading-png", "MS" },
    { "loading-png", 0, 0, G_OPTION_ARG_FILENAME, &loading_png, "The window while loading, as a PNG", "FILE" },
    { "cancel", 0, 0, G_OPTION_ARG_NONE, &cancel, "Then cancel the load and save OUT.png", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE OUT.png - the window as a PNG");
  g_autoptr(GError) error = NULL;
  g_autoptr(TmApplication) app = NULL;
  g_autoptr(GFile) file = NULL;
  TmAppWindow *win;
  GtkListBoxRow *row;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc != 3)
    {
      g_printerr ("%s\n", error ? error->message : "usage: tm-screenshot TRACE OUT.png [OPTION...]");
      return 1;
    }
  if (size != NULL && (sscanf (size, "%dx%d", &width, &height) != 2 || width < 100 || height < 100))
    {
      g_printerr ("tm-screenshot: --size wants WxH, e.g. 1024x700\n");
      return 1;
    }
  setlocale (LC_ALL, "");
  if (g_getenv ("TIDEMARK_LOCALEDIR"))
    bindtextdomain (GETTEXT_PACKAGE, g_getenv ("TIDEMARK_LOCALEDIR"));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (!gtk_init_check ())
    {
      g_printerr ("tm-screenshot: no display (run it under xvfb-run)\n");
      return 1;
    }
  app = tm_application_new (G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_settings_set_uint (tm_settings_get (), "memory-limit-mib", (guint) MAX (memory_limit_mib, 0));
  win = tm_app_window_new (app);
  if (width > 0)
    gtk_window_set_default_size (GTK_WINDOW (win), width, height);
  gtk_window_present (GTK_WINDOW (win));
  file = g_file_new_for_commandline_arg (argv[1]);
  tm_app_window_open (win, file);
  if (loading_ms >= 0 && loading_png != NULL)
    {
      tm_gui_test_spin (loading_ms);
      if (!save (win, loading_png))
        return 2;
      g_print ("page while loading: %s\n", tm_app_window_get_page (win));
      if (cancel)
        {
          gint64 t0 = g_get_monotonic_time ();
          gtk_widget_activate_action (GTK_WIDGET (win), "win.cancel-load", NULL);
          tm_gui_test_spin_until (idle, win, 120000);
          g_print ("cancelled: idle after %.0f ms, page %s, message: %s\n",
                   (g_get_monotonic_time () - t0) / 1000.0, tm_app_window_get_page (win),
                   tm_app_window_get_last_error (win) ? tm_app_window_get_last_error (win) : "(none)");
          tm_gui_test_spin (wait_ms);
          if (!save (win, argv[2]))
            return 2;
          gtk_window_destroy (GTK_WINDOW (win));
          return 0;
        }
    }
  tm_gui_test_spin_until (loaded, win, 120000);
  if (g_strcmp0 (tm_app_window_get_page (win), "trace") != 0)
    {
      g_printerr ("tm-screenshot: %s did not open: %s\n", argv[1], tm_app_window_get_last_error (win));
      return 2;
    }
  if (select >= 0 && (row = gtk_list_box_get_row_at_index (tm_app_window_get_windows_list (win), select)) != NULL)
    gtk_widget_activate (GTK_WIDGET (row));
  tm_gui_test_spin (300);
  if (action != NULL && !gtk_widget_activate_action (GTK_WIDGET (win), action, NULL))
    {
      g_printerr ("tm-screenshot: %s is not available here\n", action);
      return 1;
    }
  tm_gui_test_spin (wait_ms);
  if (page >= 0 && find_notebook (GTK_WIDGET (win)) != NULL)
    {
      gtk_notebook_set_current_page (find_notebook (GTK_WIDGET (win)), page);
      tm_gui_test_spin (300);
    }
  if (!save (win, argv[2]))
    return 2;
  gtk_window_destroy (GTK_WINDOW (win));
  return 0;
}
