/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark: the desktop application (`tidemark [FILE...]`). */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-install.h"

#include <glib/gi18n.h>
#include <locale.h>

/* $TIDEMARK_LOCALEDIR (the build tree's translations, set by `meson
 * devenv`), else the installed ones (tm-install.h). */
static char *
locale_dir (void)
{
  char *dir = tm_install_find ("TIDEMARK_LOCALEDIR", TM_INSTALL_LOCALEDIR, "");

  return dir ? dir : g_strdup (LOCALEDIR);
}

int
main (int argc, char **argv)
{
  g_autoptr(TmApplication) app = NULL;
  g_autofree char *locales = locale_dir ();

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locales);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = tm_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
