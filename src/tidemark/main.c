/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark: the desktop application (`tidemark [FILE...]`). */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-install.h"

#include <glib/gi18n.h>
#include <locale.h>

int
main (int argc, char **argv)
{
  g_autoptr(TmApplication) app = NULL;

  setlocale (LC_ALL, "");
  tm_install_bind_textdomain ();
  textdomain (GETTEXT_PACKAGE);

  app = tm_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
