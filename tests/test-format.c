/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Numbers for people in the user's locale: digit grouping and the decimal
 * mark follow LC_NUMERIC (German "1.234.567" and "1,50 MiB"), the C
 * locale keeps English commas, and the library's explanations come out
 * in German under LANGUAGE=de (with the build tree's translations).
 * The German cases skip when the de_DE.UTF-8 locale is not installed.
 */
#include "tm-config.h"
#include "tm-format-util.h"

#include <glib.h>
#include <glib/gi18n-lib.h>
#include <locale.h>

static void
test_c_locale (void)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  g_assert_nonnull (setlocale (LC_ALL, "C"));
  g_assert_cmpstr ((a = tm_format_count (0)), ==, "0");
  g_assert_cmpstr ((b = tm_format_count (999)), ==, "999");
  g_assert_cmpstr ((c = tm_format_count (1234567)), ==, "1,234,567");
  g_assert_cmpstr ((d = tm_format_bytes (1.5 * 1024 * 1024)), ==, "1.50 MiB");
}

static gboolean
german (void)
{
  if (setlocale (LC_ALL, "de_DE.UTF-8") == NULL)
    {
      g_test_skip ("no de_DE.UTF-8 locale (tidemark-dev.sh deps makes it)");
      return FALSE;
    }
  return TRUE;
}

static void
test_german (void)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;

  if (!german ())
    return;
  g_assert_cmpstr ((a = tm_format_count (1155)), ==, "1.155");
  g_assert_cmpstr ((b = tm_format_count (16515)), ==, "16.515");
  g_assert_cmpstr ((c = tm_format_count (1234567890)), ==, "1.234.567.890");
  g_assert_cmpstr ((d = tm_format_bytes (79.5 * 1024)), ==, "79,5 KiB");
  g_assert_cmpstr ((e = tm_format_duration (16.41e9)), ==, "16,41 s");
  setlocale (LC_ALL, "C");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/format/c-locale", test_c_locale);
  g_test_add_func ("/format/german", test_german);
  return g_test_run ();
}
