/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark: the desktop application (`tidemark [FILE...]`). */
#include "tm-config.h"
#include "tm-application.h"

#include <glib/gi18n.h>
#include <locale.h>

/* Running from the build tree (as the README's command does), use the
 * translations compiled there rather than an older installed copy. */
static const char *
locale_dir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

  if (exe != NULL && g_str_has_prefix (exe, TM_BUILD_DIR "/") &&
      g_file_test (TM_BUILD_DIR "/po", G_FILE_TEST_IS_DIR))
    return TM_BUILD_DIR "/po";
  return LOCALEDIR;
}

int
main (int argc, char **argv)
{
  g_autoptr(TmApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = tm_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
