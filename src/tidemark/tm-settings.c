/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-settings.h"
#include "tm-install.h"

GSettings *
tm_settings_get (void)
{
  static GSettings *settings;

  if (g_once_init_enter (&settings))
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchema) schema = NULL;
      GSettings *s;

      if (source)
        schema = g_settings_schema_source_lookup (source, TM_SETTINGS_SCHEMA, TRUE);
      if (schema == NULL)
        {
          /* A relocated install: the schemas compiled under its prefix.
           * (Running from the build tree, `meson devenv` sets
           * GSETTINGS_SCHEMA_DIR for the default source.) */
          g_autofree char *dir = tm_install_find (NULL, TM_INSTALL_DATADIR, "glib-2.0/schemas");
          g_autoptr(GSettingsSchemaSource) local =
            dir ? g_settings_schema_source_new_from_directory (dir, source, FALSE, NULL) : NULL;
          if (local)
            schema = g_settings_schema_source_lookup (local, TM_SETTINGS_SCHEMA, FALSE);
        }
      if (schema == NULL)
        g_error ("GSettings schema %s is not installed (run `meson devenv` from the build tree, "
                 "or set GSETTINGS_SCHEMA_DIR)", TM_SETTINGS_SCHEMA);
      s = g_settings_new_full (schema, NULL, NULL);
      g_once_init_leave (&settings, s);
    }
  return settings;
}

void
tm_settings_window_params (GSettings *s, TmWindowParams *p)
{
  g_return_if_fail (G_IS_SETTINGS (s) && p != NULL);

  tm_window_params_init (p);
  p->leak_min_coverage = g_settings_get_double (s, "leak-min-coverage");
  p->leak_tolerance = g_settings_get_double (s, "leak-tolerance");
  p->leak_min_growth = g_settings_get_double (s, "leak-min-growth");
  p->overhead_threshold = g_settings_get_double (s, "overhead-threshold");
  p->overhead_min_gcs = g_settings_get_uint (s, "overhead-min-gcs");
  p->overhead_max_gcs = MAX (p->overhead_min_gcs, g_settings_get_uint (s, "overhead-max-gcs"));
  p->churn_min_gcs = g_settings_get_uint (s, "churn-min-gcs");
  p->churn_max_gcs = MAX (p->churn_min_gcs, g_settings_get_uint (s, "churn-max-gcs"));
  p->churn_median_factor = g_settings_get_double (s, "churn-median-factor");
  p->churn_min_bytes_per_s = g_settings_get_double (s, "churn-min-mib-per-second") * 1024.0 * 1024.0;
}

void
tm_settings_load_options (GSettings *s, TmLoadOptions *options)
{
  g_return_if_fail (G_IS_SETTINGS (s) && options != NULL);

  /* 0 keeps the library's default */
  options->memory_limit = (guint64) g_settings_get_uint (s, "memory-limit-mib") << 20;
}
