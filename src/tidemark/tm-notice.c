/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-notice.h"

#include <glib/gi18n.h>

#define HIDE_AFTER_S 6

typedef struct {
  GtkInfoBar *bar;
  GtkLabel   *label;
  GtkWidget  *open;
  char       *uri;
  guint       hide_id;
} Notice;

static void
notice_free (Notice *n)
{
  g_clear_handle_id (&n->hide_id, g_source_remove);
  g_free (n->uri);
  g_free (n);
}

static gboolean
hide_cb (gpointer data)
{
  Notice *n = data;

  n->hide_id = 0;
  gtk_info_bar_set_revealed (n->bar, FALSE);
  return G_SOURCE_REMOVE;
}

static void
response_cb (GtkInfoBar *bar, int response, Notice *n)
{
  if (response == GTK_RESPONSE_ACCEPT && n->uri != NULL)
    gtk_show_uri (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (bar))), n->uri, GDK_CURRENT_TIME);
  g_clear_handle_id (&n->hide_id, g_source_remove);
  gtk_info_bar_set_revealed (bar, FALSE);
}

/* The window's notice, made on first use; NULL where the window's child
 * is not a vertical box. */
static Notice *
notice_of (GtkWidget *widget)
{
  GtkRoot *root = widget ? gtk_widget_get_root (widget) : NULL;
  GtkWidget *box;
  Notice *n;

  if (!GTK_IS_WINDOW (root))
    return NULL;
  if ((n = g_object_get_data (G_OBJECT (root), "tm-notice")) != NULL)
    return n;
  box = gtk_window_get_child (GTK_WINDOW (root));
  if (!GTK_IS_BOX (box) || gtk_orientable_get_orientation (GTK_ORIENTABLE (box)) != GTK_ORIENTATION_VERTICAL)
    return NULL;
  n = g_new0 (Notice, 1);
  n->bar = GTK_INFO_BAR (gtk_info_bar_new ());
  n->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (n->label, TRUE);
  gtk_label_set_xalign (n->label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (n->label), TRUE);
  gtk_info_bar_add_child (n->bar, GTK_WIDGET (n->label));
  n->open = gtk_info_bar_add_button (n->bar, _("_Open"), GTK_RESPONSE_ACCEPT);
  gtk_info_bar_set_show_close_button (n->bar, TRUE);
  gtk_info_bar_set_revealed (n->bar, FALSE);
  g_signal_connect (n->bar, "response", G_CALLBACK (response_cb), n);
  gtk_box_prepend (GTK_BOX (box), GTK_WIDGET (n->bar));
  g_object_set_data_full (G_OBJECT (root), "tm-notice", n, (GDestroyNotify) notice_free);
  return n;
}

static void
show (Notice *n, GtkMessageType type, const char *text, const char *uri)
{
  g_free (n->uri);
  n->uri = g_strdup (uri);
  gtk_label_set_text (n->label, text);
  gtk_info_bar_set_message_type (n->bar, type);
  gtk_widget_set_visible (n->open, uri != NULL);
  gtk_info_bar_set_revealed (n->bar, TRUE);
  g_clear_handle_id (&n->hide_id, g_source_remove);
  if (type != GTK_MESSAGE_ERROR)
    n->hide_id = g_timeout_add_seconds (HIDE_AFTER_S, hide_cb, n);
}

void
tm_notice_saved (GtkWidget *widget, const char *path)
{
  Notice *n = notice_of (widget);
  g_autofree char *name = NULL, *text = NULL, *uri = NULL, *dir = NULL, *shown = NULL;

  g_return_if_fail (path != NULL);
  if (n == NULL)
    return;
  name = g_filename_display_basename (path);
  uri = g_filename_to_uri (path, NULL, NULL);
  dir = g_path_get_dirname (path);
  shown = g_filename_display_name (dir);
  /* TRANSLATORS: after an export; the file's name, then its folder */
  text = g_strdup_printf (_("Saved “%s” in %s"), name, shown);
  show (n, GTK_MESSAGE_INFO, text, uri);
}

void
tm_notice_error (GtkWidget *widget, const char *message)
{
  Notice *n = notice_of (widget);

  g_return_if_fail (message != NULL);
  if (n != NULL)
    show (n, GTK_MESSAGE_ERROR, message, NULL);
}

const char *
tm_notice_get_text (GtkWidget *widget)
{
  GtkRoot *root = widget ? gtk_widget_get_root (widget) : NULL;
  Notice *n = root ? g_object_get_data (G_OBJECT (root), "tm-notice") : NULL;

  return n != NULL && gtk_info_bar_get_revealed (n->bar) ? gtk_label_get_text (n->label) : NULL;
}
