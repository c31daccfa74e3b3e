/* SPDX-License-Identifier: GPL-3.0-or-later
 * The save chooser shared by the exports (see tm-export.h). */
#include "tm-config.h"
#include "tm-export.h"

#include <glib/gi18n.h>

typedef struct {
  TmExportSaveFunc save;
  gpointer         user_data;
  GDestroyNotify   destroy;
} Request;

static void
response_cb (GtkNativeDialog *chooser, int response, Request *r)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      r->save (path, r->user_data);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  if (r->destroy)
    r->destroy (r->user_data);
  g_free (r);
}

void
tm_export_choose_file (GtkWindow        *parent,
                       const char       *title,
                       const char       *filter_name,
                       const char       *mime_type,
                       const char       *suggested_name,
                       TmExportSaveFunc  save,
                       gpointer          user_data,
                       GDestroyNotify    destroy)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  Request *r;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (title != NULL && mime_type != NULL && save != NULL);

  chooser = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_file_filter_set_name (filter, filter_name);
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  if (suggested_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested_name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);

  r = g_new (Request, 1);
  *r = (Request) { save, user_data, destroy };
  g_signal_connect (chooser, "response", G_CALLBACK (response_cb), r);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
