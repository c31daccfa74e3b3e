/* SPDX-License-Identifier: GPL-3.0-or-later
 * Finding installed files (see the header). */
#include "tm-config.h"
#include "tm-install.h"

#include <libintl.h>

/* Configured directories, absolute and relative to the program's bindir. */
static const struct {
  const char *absolute;
  const char *from_bindir;
} dirs[] = {
  [TM_INSTALL_DATADIR]   = { TM_DATADIR, TM_BINDIR_TO_DATADIR },
  [TM_INSTALL_LIBDIR]    = { TM_LIBDIR, TM_BINDIR_TO_LIBDIR },
  [TM_INSTALL_LOCALEDIR] = { LOCALEDIR, TM_BINDIR_TO_LOCALEDIR },
};

char *
tm_install_path (TmInstallDir dir, const char *name)
{
  g_return_val_if_fail (dir < G_N_ELEMENTS (dirs), NULL);
  return g_build_filename (dirs[dir].absolute, name, NULL);
}

char *
tm_install_find (const char *env_var, TmInstallDir dir, const char *name)
{
  const char *env = env_var ? g_getenv (env_var) : NULL;
  g_autofree char *exe = NULL;
  g_autofree char *relocated = NULL;
  g_autofree char *configured = NULL;

  g_return_val_if_fail (dir < G_N_ELEMENTS (dirs), NULL);

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  exe = g_file_read_link ("/proc/self/exe", NULL);
  if (exe != NULL)
    {
      g_autofree char *bindir = g_path_get_dirname (exe);
      g_autofree char *joined = g_path_is_absolute (dirs[dir].from_bindir)
                                ? g_build_filename (dirs[dir].from_bindir, name, NULL)
                                : g_build_filename (bindir, dirs[dir].from_bindir, name, NULL);

      relocated = g_canonicalize_filename (joined, NULL);
      if (g_file_test (relocated, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&relocated);
    }
  configured = tm_install_path (dir, name);
  if (g_file_test (configured, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&configured);
  return NULL;
}

void
tm_install_bind_textdomain (void)
{
  g_autofree char *dir = tm_install_find ("TIDEMARK_LOCALEDIR", TM_INSTALL_LOCALEDIR, "");

  bindtextdomain (GETTEXT_PACKAGE, dir ? dir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}
