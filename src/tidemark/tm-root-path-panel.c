/* SPDX-License-Identifier: GPL-3.0-or-later
 * Path to GC roots, a row per hop (see the header). */
#include "tm-config.h"
#include "tm-root-path-panel.h"
#include "tm-format-util.h"

#include <glib/gi18n.h>

struct _TmRootPathPanel
{
  GtkWidget  parent_instance;

  GtkWidget *box;
  GtkLabel  *header_label;
  GtkButton *copy_button;
  GtkGrid   *grid;

  GString   *text;
  guint      n_hops;
};

G_DEFINE_FINAL_TYPE (TmRootPathPanel, tm_root_path_panel, GTK_TYPE_WIDGET)

enum { COL_STEP, COL_TYPE, COL_OBJECT, COL_FIELD, COL_ROOT, COL_SITE, N_COLS };

static void
clear_grid (TmRootPathPanel *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))))
    gtk_grid_remove (self->grid, child);
  self->n_hops = 0;
}

static void
add_cell (TmRootPathPanel *self, int col, int row, const char *text, gboolean heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), col == COL_STEP ? 1 : 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (heading)
    gtk_widget_add_css_class (label, "caption-heading");
  else if (col == COL_STEP || col == COL_OBJECT)
    gtk_widget_add_css_class (label, "numeric");
  if (col == COL_SITE && !heading)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (self->grid, label, col, row, 1, 1);
}

/* A row of the grid and its line of text, tab-separated. */
static void
add_row (TmRootPathPanel *self, int row, const char *const cells[N_COLS], gboolean heading)
{
  for (int c = 0; c < N_COLS; c++)
    {
      add_cell (self, c, row, cells[c], heading);
      g_string_append (self->text, cells[c]);
      g_string_append_c (self->text, c + 1 < N_COLS ? '\t' : '\n');
    }
}

void
tm_root_path_panel_set_message (TmRootPathPanel *self, const char *message)
{
  g_return_if_fail (TM_IS_ROOT_PATH_PANEL (self));

  clear_grid (self);
  g_string_assign (self->text, message);
  gtk_label_set_text (self->header_label, message);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

/* "static field of pkg.Holder (cache)", "thread stack" */
static char *
root_text (const TmRootPath *path)
{
  const char *kind = _(tm_root_kind_to_string (path->root_kind));

  if (path->root_class != NULL)
    {
      const char *field = path->root_name + strlen (path->root_class) + 1;
      /* TRANSLATORS: a GC root: its kind, the class owning the static field, the field */
      return g_strdup_printf (_("%s of %s (%s)"), kind, path->root_class, field);
    }
  if (path->root_name != NULL)
    return g_strdup_printf ("%s (%s)", kind, path->root_name);
  return g_strdup (kind);
}

void
tm_root_path_panel_set_path (TmRootPathPanel  *self,
                             TmTrace          *trace,
                             const char       *group,
                             const TmRootPath *path)
{
  g_autofree char *retained = NULL;
  g_autofree char *header = NULL;
  const char *titles[N_COLS] = {
    /* TRANSLATORS: column titles of the path to GC roots */
    C_("path", "#"), C_("path", "Type"), C_("path", "Object"), C_("path", "Field or index"),
    C_("path", "GC root"), C_("path", "Allocated at"),
  };
  int row = 0;

  g_return_if_fail (TM_IS_ROOT_PATH_PANEL (self));
  g_return_if_fail (trace != NULL && path != NULL);

  clear_grid (self);
  g_string_truncate (self->text, 0);
  retained = tm_format_bytes ((double) path->retained_bytes);
  {
    const char *type = tm_trace_type (trace, trace->obj_type[path->object])->name;
    g_autofree char *obj = g_strdup_printf ("%s @%" G_GUINT64_FORMAT, type, tm_trace_object_id (trace, path->object));

    if (path->objects->len == 0)
      /* TRANSLATORS: header of the path panel when no root reaches the group's largest object */
      header = g_strdup_printf (_("No GC root reaches “%s” through its largest object %s (garbage the recorder still listed)."),
                                group, obj);
    else
      /* TRANSLATORS: header of the path panel: group, its largest object, what it retains, the hops */
      header = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Path to GC roots for “%s”, through its largest object %s, which retains %s: %u hop",
                                             "Path to GC roots for “%s”, through its largest object %s, which retains %s: %u hops",
                                             path->objects->len),
                                group, obj, retained, path->objects->len);
  }
  gtk_label_set_text (self->header_label, header);
  g_string_append_printf (self->text, "%s\n", header);

  if (path->objects->len > 0)
    add_row (self, row++, titles, TRUE);
  for (guint i = 0; i < path->objects->len; i++)
    {
      guint32 object = g_array_index (path->objects, guint32, i);
      const char *field = g_ptr_array_index (path->fields, i);
      g_autofree char *step = g_strdup_printf ("%u", i + 1);
      g_autofree char *id = g_strdup_printf ("@%" G_GUINT64_FORMAT, tm_trace_object_id (trace, object));
      g_autofree char *site = tm_trace_site_label (trace, trace->obj_site[object]);
      g_autofree char *root = i == 0 ? root_text (path) : g_strdup ("");
      const char *cells[N_COLS] = {
        step, tm_trace_type (trace, trace->obj_type[object])->name, id,
        /* the recorder does not name fields; heap dumps do */
        i == 0 ? "" : field != NULL ? field : "?", root, site,
      };

      add_row (self, row++, cells, FALSE);
      self->n_hops++;
    }
  /* recordings name no fields: no column of question marks then */
  {
    gboolean named = FALSE;
    for (guint i = 1; i < path->fields->len; i++)
      named |= g_ptr_array_index (path->fields, i) != NULL;
    for (int r = 0; r < row && !named; r++)
      gtk_widget_set_visible (gtk_grid_get_child_at (self->grid, COL_FIELD, r), FALSE);
  }
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

const char *
tm_root_path_panel_get_text (TmRootPathPanel *self)
{
  g_return_val_if_fail (TM_IS_ROOT_PATH_PANEL (self), NULL);
  return self->text->str;
}

guint
tm_root_path_panel_get_n_hops (TmRootPathPanel *self)
{
  g_return_val_if_fail (TM_IS_ROOT_PATH_PANEL (self), 0);
  return self->n_hops;
}

static void
copy_clicked_cb (GtkButton *button, TmRootPathPanel *self)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->text->str);
}

static void
close_clicked_cb (GtkButton *button, TmRootPathPanel *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tm_root_path_panel_new (void)
{
  return g_object_new (TM_TYPE_ROOT_PATH_PANEL, NULL);
}

static void
tm_root_path_panel_dispose (GObject *object)
{
  TmRootPathPanel *self = TM_ROOT_PATH_PANEL (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_ROOT_PATH_PANEL);
  G_OBJECT_CLASS (tm_root_path_panel_parent_class)->dispose (object);
}

static void
tm_root_path_panel_finalize (GObject *object)
{
  TmRootPathPanel *self = TM_ROOT_PATH_PANEL (object);

  g_string_free (self->text, TRUE);
  G_OBJECT_CLASS (tm_root_path_panel_parent_class)->finalize (object);
}

static void
tm_root_path_panel_class_init (TmRootPathPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_root_path_panel_dispose;
  object_class->finalize = tm_root_path_panel_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-root-path-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TmRootPathPanel, box);
  gtk_widget_class_bind_template_child (widget_class, TmRootPathPanel, header_label);
  gtk_widget_class_bind_template_child (widget_class, TmRootPathPanel, copy_button);
  gtk_widget_class_bind_template_child (widget_class, TmRootPathPanel, grid);
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_clicked_cb);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tm_root_path_panel_init (TmRootPathPanel *self)
{
  self->text = g_string_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
}
