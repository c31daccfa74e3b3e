/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-preferences-dialog.h"
#include "tm-settings.h"
#include "tm-dsl.h"

#include <glib/gi18n.h>

struct _TmPreferencesDialog
{
  GtkWindow  parent_instance;
  GtkGrid   *leak_grid;
  GtkGrid   *overhead_grid;
  GtkGrid   *churn_grid;
  GtkGrid   *loading_grid;
  GtkListBox *ds_list;
  GtkBox    *content_box;
  GtkLabel  *store_label;   /* why changes are not saved, when they are not */
};

G_DEFINE_FINAL_TYPE (TmPreferencesDialog, tm_preferences_dialog, GTK_TYPE_WINDOW)

typedef enum { PERCENT, NUMBER, COUNT } Kind;

typedef struct {
  const char *key;
  const char *label;      /* translated at use */
  const char *unit;
  Kind        kind;
  double      lower, upper, step;
  int         digits;
} Row;

/* Fractions are edited as percentages. */
static gboolean
get_percent (GValue *value, GVariant *variant, gpointer data)
{
  g_value_set_double (value, g_variant_get_double (variant) * 100.0);
  return TRUE;
}

static GVariant *
set_percent (const GValue *value, const GVariantType *type, gpointer data)
{
  return g_variant_new_double (g_value_get_double (value) / 100.0);
}

static gboolean
get_uint (GValue *value, GVariant *variant, gpointer data)
{
  g_value_set_double (value, g_variant_get_uint32 (variant));
  return TRUE;
}

static GVariant *
set_uint (const GValue *value, const GVariantType *type, gpointer data)
{
  return g_variant_new_uint32 ((guint32) g_value_get_double (value));
}

static void
add_rows (GtkGrid *grid, const Row *rows, guint n)
{
  GSettings *settings = tm_settings_get ();

  for (guint i = 0; i < n; i++)
    {
      const Row *r = &rows[i];
      GtkWidget *label = gtk_label_new_with_mnemonic (_(r->label));
      GtkWidget *spin = gtk_spin_button_new_with_range (r->lower, r->upper, r->step);
      GtkWidget *unit = gtk_label_new (r->unit ? _(r->unit) : "");
      g_autoptr(GSettingsSchemaKey) key = NULL;
      g_autoptr(GSettingsSchema) schema = NULL;

      g_object_get (settings, "settings-schema", &schema, NULL);
      key = g_settings_schema_get_key (schema, r->key);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
      gtk_widget_set_tooltip_text (label, g_settings_schema_key_get_description (key));
      gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), r->digits);
      gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
      gtk_label_set_xalign (GTK_LABEL (unit), 0);
      gtk_widget_add_css_class (unit, "dim-label");

      switch (r->kind)
        {
        case PERCENT:
          g_settings_bind_with_mapping (settings, r->key, spin, "value", G_SETTINGS_BIND_DEFAULT,
                                        get_percent, set_percent, NULL, NULL);
          break;
        case COUNT:
          g_settings_bind_with_mapping (settings, r->key, spin, "value", G_SETTINGS_BIND_DEFAULT,
                                        get_uint, set_uint, NULL, NULL);
          break;
        case NUMBER:
        default:
          g_settings_bind (settings, r->key, spin, "value", G_SETTINGS_BIND_DEFAULT);
          break;
        }

      gtk_grid_attach (grid, label, 0, i, 1, 1);
      gtk_grid_attach (grid, spin, 1, i, 1, 1);
      gtk_grid_attach (grid, unit, 2, i, 1, 1);
    }
}

/* Saving settings can fail where nobody sees it: GSettings falls back to
 * keeping them in memory when there is no dconf (no D-Bus session), and
 * a locked key refuses a write.  The dialog says so. */
static void
show_store_problem (TmPreferencesDialog *self, const char *text)
{
  gtk_label_set_text (self->store_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->store_label), TRUE);
}

static void
check_store (TmPreferencesDialog *self)
{
  g_autoptr(GObject) backend = NULL;
  const char *type;

  g_object_get (tm_settings_get (), "backend", &backend, NULL);
  type = backend ? G_OBJECT_TYPE_NAME (backend) : "";
  if (g_str_equal (type, "GMemorySettingsBackend") || g_str_equal (type, "GNullSettingsBackend"))
    show_store_problem (self, _("Changes apply now but are not saved for the next start: no settings "
                                "store is available (GSettings needs dconf and a D-Bus session)."));
}

static void
save_ds_files (GtkWidget *widget, const char * const *files)
{
  GtkWidget *self = gtk_widget_get_ancestor (widget, TM_TYPE_PREFERENCES_DIALOG);

  if (!g_settings_set_strv (tm_settings_get (), "ds-files", files) && self != NULL)
    show_store_problem (TM_PREFERENCES_DIALOG (self),
                        _("Could not save the list of description files: the setting is locked "
                          "(read-only in this system's settings)."));
}

static void
reset_clicked_cb (GtkButton *button, TmPreferencesDialog *self)
{
  GSettings *settings = tm_settings_get ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i]; i++)
    if (g_str_has_prefix (keys[i], "leak-") || g_str_has_prefix (keys[i], "overhead-") ||
        g_str_has_prefix (keys[i], "churn-"))
      g_settings_reset (settings, keys[i]);
}

/* ---- data structure descriptions (the "ds-files" key) ---- */

static void
remove_ds_clicked_cb (GtkButton *button, gpointer data)
{
  const char *path = g_object_get_data (G_OBJECT (button), "path");
  GSettings *settings = tm_settings_get ();
  g_auto(GStrv) files = g_settings_get_strv (settings, "ds-files");
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  for (guint i = 0; files[i]; i++)
    if (g_strcmp0 (files[i], path) != 0)
      g_strv_builder_add (kept, files[i]);
  result = g_strv_builder_end (kept);
  save_ds_files (GTK_WIDGET (button), (const char * const *) result);
}

static void
fill_ds_list (TmPreferencesDialog *self)
{
  g_auto(GStrv) files = g_settings_get_strv (tm_settings_get (), "ds-files");
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->ds_list))) != NULL)
    gtk_list_box_remove (self->ds_list, child);

  gtk_widget_set_visible (GTK_WIDGET (self->ds_list), files[0] != NULL);
  for (guint i = 0; files[i]; i++)
    {
      GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      g_autofree char *base = g_path_get_basename (files[i]);
      GtkWidget *label = gtk_label_new (base);
      GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
      g_autoptr(TmDsl) check = tm_dsl_new ();
      g_autoptr(GError) error = NULL;

      gtk_widget_set_margin_start (outer, 12);
      gtk_widget_set_margin_end (outer, 6);
      gtk_widget_set_margin_top (outer, 6);
      gtk_widget_set_margin_bottom (outer, 6);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_set_tooltip_text (label, files[i]);
      gtk_widget_set_tooltip_text (remove, _("Stop loading this file"));
      gtk_widget_add_css_class (remove, "flat");
      g_object_set_data_full (G_OBJECT (remove), "path", g_strdup (files[i]), g_free);
      g_signal_connect (remove, "clicked", G_CALLBACK (remove_ds_clicked_cb), NULL);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (row), remove);
      gtk_box_append (GTK_BOX (outer), row);
      /* A file that does not parse is not used: say why, here, where it
       * can be fixed or removed (small files: parsing them is quick). */
      if (!tm_dsl_add_file (check, files[i], &error))
        {
          GtkWidget *problem = gtk_label_new (error->message);

          gtk_label_set_xalign (GTK_LABEL (problem), 0);
          gtk_label_set_wrap (GTK_LABEL (problem), TRUE);
          gtk_label_set_wrap_mode (GTK_LABEL (problem), PANGO_WRAP_WORD_CHAR);
          gtk_label_set_selectable (GTK_LABEL (problem), TRUE);
          gtk_widget_add_css_class (problem, "error");
          gtk_widget_set_name (problem, "ds-file-error");
          gtk_widget_add_css_class (label, "error");
          gtk_box_append (GTK_BOX (outer), problem);
        }
      gtk_list_box_append (self->ds_list, outer);
    }
}

static void
ds_files_changed_cb (GSettings *settings, const char *key, TmPreferencesDialog *self)
{
  fill_ds_list (self);
}

static void
add_ds_response_cb (GtkNativeDialog *chooser, int response, TmPreferencesDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        {
          GSettings *settings = tm_settings_get ();
          g_auto(GStrv) files = g_settings_get_strv (settings, "ds-files");

          if (!g_strv_contains ((const char * const *) files, path))
            {
              g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
              g_auto(GStrv) result = NULL;
              g_strv_builder_addv (builder, (const char **) files);
              g_strv_builder_add (builder, path);
              result = g_strv_builder_end (builder);
              save_ds_files (GTK_WIDGET (self), (const char * const *) result);
            }
        }
    }
  g_object_unref (chooser);
}

static void
add_ds_clicked_cb (GtkButton *button, TmPreferencesDialog *self)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) ds = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Add Data Structure Descriptions"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Add"), _("_Cancel"));
  gtk_file_filter_set_name (ds, _("Data structure descriptions"));
  gtk_file_filter_add_pattern (ds, "*.ds");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), ds);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (add_ds_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
tm_preferences_dialog_class_init (TmPreferencesDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-preferences-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TmPreferencesDialog, leak_grid);
  gtk_widget_class_bind_template_child (widget_class, TmPreferencesDialog, overhead_grid);
  gtk_widget_class_bind_template_child (widget_class, TmPreferencesDialog, churn_grid);
  gtk_widget_class_bind_template_child (widget_class, TmPreferencesDialog, loading_grid);
  gtk_widget_class_bind_template_child (widget_class, TmPreferencesDialog, ds_list);
  gtk_widget_class_bind_template_child (widget_class, TmPreferencesDialog, content_box);
  gtk_widget_class_bind_template_callback (widget_class, reset_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_ds_clicked_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
tm_preferences_dialog_init (TmPreferencesDialog *self)
{
  static const Row leak[] = {
    { "leak-min-coverage", N_("Shortest _window"), N_("percent of all GCs"), PERCENT, 1, 100, 1, 0 },
    { "leak-tolerance", N_("Growth _tolerance"), N_("percent of the highest value so far"), PERCENT, 0, 100, 5, 0 },
    { "leak-min-growth", N_("Smallest _growth"), N_("percent of the start value"), PERCENT, 0, 1000, 5, 0 },
  };
  static const Row overhead[] = {
    { "overhead-threshold", N_("_Threshold"), N_("percent of the time in GC pauses"), PERCENT, 1, 100, 1, 0 },
    { "overhead-min-gcs", N_("_Fewest GCs"), N_("GCs"), COUNT, 1, 10000, 1, 0 },
    { "overhead-max-gcs", N_("_Most GCs"), N_("GCs"), COUNT, 1, 100000, 5, 0 },
  };
  static const Row churn[] = {
    { "churn-median-factor", N_("_Factor over the median"), N_("× the median rate"), NUMBER, 1, 1000, 0.5, 1 },
    { "churn-min-mib-per-second", N_("Smallest _rate"), N_("MiB/s freed"), NUMBER, 0, 1000000, 1, 1 },
    { "churn-min-gcs", N_("Fe_west GCs"), N_("GCs"), COUNT, 1, 10000, 1, 0 },
    { "churn-max-gcs", N_("M_ost GCs"), N_("GCs"), COUNT, 1, 100000, 5, 0 },
  };

  static const Row loading[] = {
    { "memory-limit-mib", N_("Memory _limit"), N_("MiB per file; 0: half of the memory"), COUNT, 0, 16777216, 256, 0 },
  };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->store_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->store_label, TRUE);
  gtk_label_set_xalign (self->store_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->store_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->store_label), FALSE);
  gtk_box_prepend (self->content_box, GTK_WIDGET (self->store_label));
  check_store (self);
  add_rows (self->leak_grid, leak, G_N_ELEMENTS (leak));
  add_rows (self->overhead_grid, overhead, G_N_ELEMENTS (overhead));
  add_rows (self->churn_grid, churn, G_N_ELEMENTS (churn));
  add_rows (self->loading_grid, loading, G_N_ELEMENTS (loading));
  fill_ds_list (self);
  g_signal_connect_object (tm_settings_get (), "changed::ds-files", G_CALLBACK (ds_files_changed_cb), self, 0);
}

TmPreferencesDialog *
tm_preferences_dialog_new (GtkWindow *parent)
{
  return g_object_new (TM_TYPE_PREFERENCES_DIALOG, "transient-for", parent, NULL);
}
