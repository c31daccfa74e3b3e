/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-install.h"
#include "tm-app-window.h"
#include "tm-preferences-dialog.h"

#include <glib/gi18n.h>

struct _TmApplication
{
  GtkApplication    parent_instance;
  GMenu            *recent_menu;
  GtkRecentManager *recent;
};

G_DEFINE_FINAL_TYPE (TmApplication, tm_application, GTK_TYPE_APPLICATION)

#define MAX_RECENT 10

static TmAppWindow *
find_window (TmApplication *self, GFile *file, gboolean want_empty)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    {
      TmAppWindow *win;
      GFile *shown;

      if (!TM_IS_APP_WINDOW (l->data))
        continue;
      win = l->data;
      shown = tm_app_window_get_file (win);
      if (want_empty && shown == NULL)
        return win;
      if (!want_empty && shown != NULL && file != NULL && g_file_equal (shown, file))
        return win;
    }
  return NULL;
}

GtkWindow *
tm_application_open_file (TmApplication *self, GFile *file)
{
  TmAppWindow *win;

  g_return_val_if_fail (TM_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if ((win = find_window (self, file, FALSE)) == NULL)
    {
      if ((win = find_window (self, NULL, TRUE)) == NULL)
        win = tm_app_window_new (self);
      tm_app_window_open (win, file);
    }
  gtk_window_present (GTK_WINDOW (win));
  return GTK_WINDOW (win);
}

GFile *
tm_application_find_sample (void)
{
  g_autofree char *path = tm_install_find ("TIDEMARK_SAMPLE", TM_INSTALL_DATADIR, "tidemark/samples/sample-leak.tmtrace");

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  return g_file_new_for_path (path);
}

/* Newest first. */
static int
compare_recent (gconstpointer a, gconstpointer b)
{
  GDateTime *ma = gtk_recent_info_get_modified ((GtkRecentInfo *) a);
  GDateTime *mb = gtk_recent_info_get_modified ((GtkRecentInfo *) b);

  return g_date_time_compare (mb, ma);
}

static void
rebuild_recent_menu (TmApplication *self)
{
  GList *items = gtk_recent_manager_get_items (self->recent);
  const char *app_name = g_get_prgname ();   /* what tm_application_add_recent registers */
  guint n = 0;

  g_menu_remove_all (self->recent_menu);
  items = g_list_sort (items, compare_recent);
  for (GList *l = items; l && n < MAX_RECENT; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      g_autoptr(GMenuItem) item = NULL;
      g_autofree char *label = NULL;

      if (app_name == NULL || !gtk_recent_info_has_application (info, app_name) || !gtk_recent_info_exists (info))
        continue;
      label = g_strdup (gtk_recent_info_get_display_name (info));
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "app.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_menu, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

GMenuModel *
tm_application_get_recent_menu (TmApplication *self)
{
  g_return_val_if_fail (TM_IS_APPLICATION (self), NULL);
  return G_MENU_MODEL (self->recent_menu);
}

void
tm_application_add_recent (TmApplication *self, GFile *file)
{
  g_autofree char *uri = NULL;
  g_autofree char *exec = NULL;
  GtkRecentData data = { 0 };

  g_return_if_fail (TM_IS_APPLICATION (self));

  /* Registered under the program name, which the Open Recent menu filters
   * on (the display name is translated). */
  uri = g_file_get_uri (file);
  exec = g_strdup_printf ("%s %%u", g_get_prgname ());
  data.mime_type = (char *) "application/octet-stream";
  data.app_name = (char *) g_get_prgname ();
  data.app_exec = exec;
  gtk_recent_manager_add_full (self->recent, uri, &data);
}

static GtkWindow *
active_or_new_window (TmApplication *self)
{
  GtkWindow *win = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (win == NULL)
    {
      win = GTK_WINDOW (tm_app_window_new (self));
      gtk_window_present (win);
    }
  return win;
}

static void
open_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkWindow *win = active_or_new_window (data);
  gtk_widget_activate_action (GTK_WIDGET (win), "win.open", NULL);
}

static void
open_recent_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));
  tm_application_open_file (data, file);
}

static void
open_sample_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_autoptr(GFile) sample = tm_application_find_sample ();

  if (sample)
    tm_application_open_file (data, sample);
}

static void
new_window_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  gtk_window_present (GTK_WINDOW (tm_app_window_new (data)));
}

static void
preferences_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (data));
  gtk_window_present (GTK_WINDOW (tm_preferences_dialog_new (parent)));
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (data));
  const char *authors[] = { _("The Tidemark developers"), NULL };

  gtk_show_about_dialog (parent,
                         "program-name", _("Tidemark"),
                         "logo-icon-name", TM_APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Find memory leaks, GC overhead and churn in recordings of a program’s memory over time"),
                         "website", "https://github.com/tidemark/tidemark",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         /* Translators: put your names here */
                         "translator-credits", _("translator-credits"),
                         "copyright", "© 2026 The Tidemark developers",
                         NULL);
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  g_application_quit (G_APPLICATION (data));
}

static const GActionEntry app_actions[] = {
  { "open", open_action },
  { "open-recent", open_recent_action, "s" },
  { "open-sample", open_sample_action },
  { "new-window", new_window_action },
  { "preferences", preferences_action },
  { "about", about_action },
  { "quit", quit_action },
};

static void
tm_application_startup (GApplication *app)
{
  TmApplication *self = TM_APPLICATION (app);
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();
  g_autoptr(GFile) sample = tm_application_find_sample ();
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.open", { "<Control>o", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
    { "win.zoom-out", { "<Control>minus", NULL } },
    { "win.zoom-reset", { "<Control>0", NULL } },
    { "win.zoom-selection", { "<Control>1", NULL } },
    { "win.clear-selection", { "Escape", NULL } },
    { "win.export-chart('memory')", { "<Control>e", NULL } },
    { "win.heap-at-selection", { "<Control>h", NULL } },
    { "win.compare-heaps-at-selection", { "<Control>d", NULL } },
    { "win.ds-growth-at-selection", { "<Control>g", NULL } },
    { "win.trend-at-selection", { "<Control>t", NULL } },
    { "win.allocations-at-selection", { "<Control>m", NULL } },
    { "win.call-stacks", { "<Control><Shift>c", NULL } },
    { "win.advice-at-selection", { "<Control><Shift>a", NULL } },
    { "win.sidebar-visible", { "F9", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };

  G_APPLICATION_CLASS (tm_application_parent_class)->startup (app);

  g_set_application_name (_("Tidemark"));
  gtk_window_set_default_icon_name (TM_APP_ID);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (app), "open-sample")),
                               sample != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  gtk_css_provider_load_from_resource (css, "/io/github/tidemark/Tidemark/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  self->recent = gtk_recent_manager_get_default ();
  g_signal_connect_object (self->recent, "changed", G_CALLBACK (rebuild_recent_menu), self, G_CONNECT_SWAPPED);
  rebuild_recent_menu (self);
}

static void
tm_application_activate (GApplication *app)
{
  GtkWindow *win = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (win == NULL)
    win = GTK_WINDOW (tm_app_window_new (TM_APPLICATION (app)));
  gtk_window_present (win);
}

static void
tm_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    tm_application_open_file (TM_APPLICATION (app), files[i]);
}

static void
tm_application_finalize (GObject *object)
{
  TmApplication *self = TM_APPLICATION (object);

  g_clear_object (&self->recent_menu);
  G_OBJECT_CLASS (tm_application_parent_class)->finalize (object);
}

static void
tm_application_class_init (TmApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = tm_application_finalize;
  app_class->startup = tm_application_startup;
  app_class->activate = tm_application_activate;
  app_class->open = tm_application_open;
}

static void
tm_application_init (TmApplication *self)
{
  self->recent_menu = g_menu_new ();
}

TmApplication *
tm_application_new (GApplicationFlags extra_flags)
{
  return g_object_new (TM_TYPE_APPLICATION,
                       "application-id", TM_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | extra_flags,
                       "resource-base-path", "/io/github/tidemark/Tidemark",
                       NULL);
}
