/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-export-dialog.h"
#include "tm-export.h"
#include "tm-notice.h"
#include "tm-settings.h"

#include <glib/gi18n.h>
#include <string.h>

struct _TmExportDialog
{
  GtkWindow       parent_instance;
  TmAppWindow    *app_window;      /* weak: the dialog is transient for it */
  GtkDropDown    *chart_dropdown;
  GtkSpinButton  *width_spin;
  GtkSpinButton  *height_spin;
};

G_DEFINE_FINAL_TYPE (TmExportDialog, tm_export_dialog, GTK_TYPE_WINDOW)

static void
save_chart (const char *path, gpointer user_data)
{
  TmExportDialog *self = user_data;
  g_autoptr(GError) error = NULL;
  int w = gtk_spin_button_get_value_as_int (self->width_spin);
  int h = gtk_spin_button_get_value_as_int (self->height_spin);
  TmChartKind kind = gtk_drop_down_get_selected (self->chart_dropdown);

  if (self->app_window == NULL)
    return;
  g_settings_set_uint (tm_settings_get (), "export-width", w);
  g_settings_set_uint (tm_settings_get (), "export-height", h);
  if (path == NULL ||
      !tm_app_window_export_chart (self->app_window, kind, path, w, h, &error))
    {
      GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self->app_window),
                                                  GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                  GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                  _("Could not export the chart"));
      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                                error ? error->message : _("Only local files can be written."));
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (dialog));
    }
  else
    tm_notice_saved (GTK_WIDGET (self->app_window), path);
}

static void
export_clicked_cb (GtkButton *button, TmExportDialog *self)
{
  TmChartKind kind = gtk_drop_down_get_selected (self->chart_dropdown);
  GFile *trace_file = self->app_window ? tm_app_window_get_file (self->app_window) : NULL;
  g_autofree char *base = trace_file ? g_file_get_basename (trace_file) : g_strdup ("trace");
  g_autofree char *name = NULL;
  char *dot;

  if ((dot = strrchr (base, '.')) != NULL && dot != base)
    *dot = '\0';
  name = g_strdup_printf ("%s-%s.png", base, tm_chart_kind_to_string (kind));

  /* the dialog hides while the chooser is up and goes once it is answered */
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  tm_export_choose_file (GTK_WINDOW (self), _("Export Chart"), _("PNG images"), "image/png", name,
                         save_chart, self, (GDestroyNotify) gtk_window_destroy);
}

static void
cancel_clicked_cb (GtkButton *button, TmExportDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
tm_export_dialog_dispose (GObject *object)
{
  TmExportDialog *self = TM_EXPORT_DIALOG (object);

  g_clear_weak_pointer (&self->app_window);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_EXPORT_DIALOG);
  G_OBJECT_CLASS (tm_export_dialog_parent_class)->dispose (object);
}

static void
tm_export_dialog_class_init (TmExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_export_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TmExportDialog, chart_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmExportDialog, width_spin);
  gtk_widget_class_bind_template_child (widget_class, TmExportDialog, height_spin);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
tm_export_dialog_init (TmExportDialog *self)
{
  GSettings *settings = tm_settings_get ();

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_spin_button_set_value (self->width_spin, g_settings_get_uint (settings, "export-width"));
  gtk_spin_button_set_value (self->height_spin, g_settings_get_uint (settings, "export-height"));
}

TmExportDialog *
tm_export_dialog_new (TmAppWindow *parent, TmChartKind kind)
{
  TmExportDialog *self;

  g_return_val_if_fail (TM_IS_APP_WINDOW (parent), NULL);

  self = g_object_new (TM_TYPE_EXPORT_DIALOG, "transient-for", parent, "modal", TRUE, NULL);
  g_set_weak_pointer (&self->app_window, parent);
  gtk_drop_down_set_selected (self->chart_dropdown, kind);
  return self;
}
