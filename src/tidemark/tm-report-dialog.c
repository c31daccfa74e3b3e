/* SPDX-License-Identifier: GPL-3.0-or-later
 * Export Report (see tm-report-dialog.h). */
#include "tm-config.h"
#include "tm-report-dialog.h"
#include "tm-export.h"
#include "tm-report-html.h"

#include <glib/gi18n.h>
#include <string.h>

struct _TmReportDialog
{
  GtkWindow            parent_instance;

  GtkWidget           *cancel_button;
  GtkWidget           *open_button;
  GtkLabel            *heading_label;
  GtkProgressBar      *progress_bar;
  GtkLabel            *detail_label;

  TmReportDialogState  state;
  GCancellable        *cancellable;
  char                *path;
  gboolean             disposed;    /* closed (or its parent) while writing */
};

G_DEFINE_FINAL_TYPE (TmReportDialog, tm_report_dialog, GTK_TYPE_WINDOW)

static void
progress_cb (double fraction, gpointer data)
{
  TmReportDialog *self = data;   /* alive: nothing is delivered after written_cb */

  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
}

static void
written_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(TmReportDialog) self = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_path_get_basename (self->path);
  gboolean written = tm_report_write_finish (TM_DOCUMENT (source), result, &error);

  if (self->disposed)
    {
      /* closed while writing: nobody to tell (a file finished just then stays) */
      self->state = written ? TM_REPORT_DIALOG_DONE
                  : g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? TM_REPORT_DIALOG_CANCELLED
                  : TM_REPORT_DIALOG_FAILED;
      return;
    }
  if (written)
    {
      self->state = TM_REPORT_DIALOG_DONE;
      gtk_label_set_label (self->heading_label, _("Report saved"));
      gtk_label_set_label (self->detail_label, self->path);
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
      gtk_widget_set_visible (self->open_button, TRUE);
      gtk_window_set_default_widget (GTK_WINDOW (self), self->open_button);
      gtk_widget_grab_focus (self->open_button);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      self->state = TM_REPORT_DIALOG_CANCELLED;
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  else
    {
      g_autofree char *heading = g_strdup_printf (_("Could not write the report “%s”"), name);

      self->state = TM_REPORT_DIALOG_FAILED;
      gtk_label_set_label (self->heading_label, heading);
      gtk_label_set_label (self->detail_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
    }
  gtk_button_set_label (GTK_BUTTON (self->cancel_button), _("_Close"));
}

static void
cancel_clicked_cb (TmReportDialog *self)
{
  if (self->state == TM_REPORT_DIALOG_WRITING)
    tm_report_dialog_cancel (self);
  else
    gtk_window_destroy (GTK_WINDOW (self));
}

static void
open_clicked_cb (TmReportDialog *self)
{
  g_autoptr(GFile) file = g_file_new_for_path (self->path);
  g_autofree char *uri = g_file_get_uri (file);

  gtk_show_uri (gtk_window_get_transient_for (GTK_WINDOW (self)), uri, GDK_CURRENT_TIME);
  gtk_window_destroy (GTK_WINDOW (self));
}

/* Closing the window while it writes stops the work. */
static gboolean
tm_report_dialog_close_request (GtkWindow *window)
{
  TmReportDialog *self = TM_REPORT_DIALOG (window);

  if (self->state == TM_REPORT_DIALOG_WRITING)
    g_cancellable_cancel (self->cancellable);
  return GTK_WINDOW_CLASS (tm_report_dialog_parent_class)->close_request (window);
}

static void
tm_report_dialog_dispose (GObject *object)
{
  TmReportDialog *self = TM_REPORT_DIALOG (object);

  self->disposed = TRUE;
  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_REPORT_DIALOG);
  G_OBJECT_CLASS (tm_report_dialog_parent_class)->dispose (object);
}

static void
tm_report_dialog_finalize (GObject *object)
{
  TmReportDialog *self = TM_REPORT_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_free (self->path);
  G_OBJECT_CLASS (tm_report_dialog_parent_class)->finalize (object);
}

static void
tm_report_dialog_class_init (TmReportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_report_dialog_dispose;
  object_class->finalize = tm_report_dialog_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = tm_report_dialog_close_request;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-report-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TmReportDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, TmReportDialog, open_button);
  gtk_widget_class_bind_template_child (widget_class, TmReportDialog, heading_label);
  gtk_widget_class_bind_template_child (widget_class, TmReportDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TmReportDialog, detail_label);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
tm_report_dialog_init (TmReportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
}

TmReportDialog *
tm_report_dialog_new (TmAppWindow *parent, int window, const char *path)
{
  TmSession *session;
  TmDocument *doc;
  TmReportDialog *self;

  g_return_val_if_fail (TM_IS_APP_WINDOW (parent), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  session = tm_app_window_get_session (parent);
  doc = tm_session_get_document (session);
  g_return_val_if_fail (doc != NULL, NULL);

  self = g_object_new (TM_TYPE_REPORT_DIALOG, "transient-for", parent, NULL);
  self->path = g_strdup (path);
  self->state = TM_REPORT_DIALOG_WRITING;
  gtk_label_set_label (self->detail_label, path);
  /* the windows the sidebar shows, numbered as there */
  tm_report_write_async (doc, tm_session_get_windows (session), window, path, progress_cb, self,
                         self->cancellable, written_cb, g_object_ref (self));
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

TmReportDialogState
tm_report_dialog_get_state (TmReportDialog *self)
{
  g_return_val_if_fail (TM_IS_REPORT_DIALOG (self), TM_REPORT_DIALOG_FAILED);
  return self->state;
}

void
tm_report_dialog_cancel (TmReportDialog *self)
{
  g_return_if_fail (TM_IS_REPORT_DIALOG (self));
  g_cancellable_cancel (self->cancellable);
}

const char *
tm_report_dialog_get_detail (TmReportDialog *self)
{
  g_return_val_if_fail (TM_IS_REPORT_DIALOG (self), NULL);
  return gtk_label_get_label (self->detail_label);
}

typedef struct {
  TmAppWindow *parent;
  int          window;
} Export;

static void
save_cb (const char *path, gpointer data)
{
  Export *e = data;

  if (path != NULL)
    tm_report_dialog_new (e->parent, e->window, path);
}

static void
export_free (gpointer data)
{
  Export *e = data;

  g_object_unref (e->parent);
  g_free (e);
}

void
tm_report_dialog_export (TmAppWindow *parent, int window)
{
  GFile *file = tm_app_window_get_file (parent);
  g_autofree char *base = file ? g_file_get_basename (file) : g_strdup ("tidemark");
  g_autofree char *stem = g_strndup (base, strcspn (base, "."));
  g_autofree char *name = window >= 0 ? g_strdup_printf ("%s-window-%d-report.html", stem, window + 1)
                                      : g_strdup_printf ("%s-report.html", stem);
  Export *e = g_new0 (Export, 1);

  g_return_if_fail (TM_IS_APP_WINDOW (parent));

  e->parent = g_object_ref (parent);
  e->window = window;
  tm_export_choose_file (GTK_WINDOW (parent), window >= 0 ? _("Export Report for the Window") : _("Export Report"),
                         _("HTML documents"), "text/html", name, save_cb, e, export_free);
}
