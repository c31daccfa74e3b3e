/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-load-options.h"
#include "tm-error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#define MIN_LIMIT (G_GUINT64_CONSTANT (1) << 20)

/* cgroup v2 "memory.max" of this process, or 0 when there is none. */
static guint64
cgroup_memory_max (void)
{
  g_autofree char *self = NULL, *path = NULL, *text = NULL;
  const char *rel;
  guint64 v;
  char *end;

  if (!g_file_get_contents ("/proc/self/cgroup", &self, NULL, NULL))
    return 0;
  /* v2: a single line "0::/path" */
  rel = strstr (self, "0::");
  if (rel == NULL)
    return 0;
  rel += 3;
  g_strchomp ((char *) rel);
  path = g_build_filename ("/sys/fs/cgroup", rel, "memory.max", NULL);
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  errno = 0;
  v = g_ascii_strtoull (text, &end, 10);
  if (end == text || errno != 0)
    return 0;    /* "max": no limit */
  return v;
}

guint64
tm_memory_limit_default (void)
{
  static guint64 cached;

  if (g_once_init_enter (&cached))
    {
      long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
      guint64 phys = pages > 0 && page > 0 ? (guint64) pages * (guint64) page : G_GUINT64_CONSTANT (4) << 30;
      guint64 cg = cgroup_memory_max ();

      if (cg != 0 && cg < phys)
        phys = cg;
      g_once_init_leave (&cached, MAX (phys / 2, MIN_LIMIT));
    }
  return cached;
}

guint64
tm_load_options_memory_limit (const TmLoadOptions *options)
{
  if (options == NULL || options->memory_limit == 0)
    return tm_memory_limit_default ();
  return options->memory_limit;
}

gboolean
tm_parse_size (const char *text, guint64 *bytes, GError **error)
{
  const char *s = text;
  char *end;
  double v;
  guint shift = 0;

  g_return_val_if_fail (text != NULL && bytes != NULL, FALSE);

  while (g_ascii_isspace (*s))
    s++;
  if (!g_ascii_isdigit (*s) && *s != '.')
    goto bad;
  v = g_ascii_strtod (s, &end);
  if (end == s || !(v >= 0))
    goto bad;
  switch (g_ascii_toupper (*end))
    {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    case 'B': case '\0': break;
    default: goto bad;
    }
  /* "2G", "2GB", "2GiB", "4096", "4096B" */
  if (shift != 0 && g_ascii_strncasecmp (end, "iB", 2) == 0)
    end += 2;
  else if (g_ascii_toupper (*end) == 'B')
    end++;
  while (g_ascii_isspace (*end))
    end++;
  if (*end != '\0')
    goto bad;
  v = v * (double) (G_GUINT64_CONSTANT (1) << shift);
  if (v >= 18446744073709551615.0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("size '%s' is too large"), text);
      return FALSE;
    }
  if (v < (double) MIN_LIMIT)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("size '%s' is below the smallest limit, 1M"), text);
      return FALSE;
    }
  *bytes = (guint64) v;
  return TRUE;

bad:
  g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
               _("'%s' is not a size (examples: 256M, 2G, 1.5G, 4096)"), text);
  return FALSE;
}
