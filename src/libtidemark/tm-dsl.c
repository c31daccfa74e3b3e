/* SPDX-License-Identifier: GPL-3.0-or-later
 * TmDsl: the set of descriptions from all loaded files. */
#include "tm-config.h"
#include <glib/gi18n-lib.h>
#include "tm-dsl-private.h"
#include "tm-install.h"
#include "tm-error.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

/* Description files are small; anything bigger is not one. */
#define TM_DSL_MAX_FILE_SIZE (16u << 20)

struct _TmDsl {
  GPtrArray  *descriptions;   /* TmDslDescription*, first-definition order */
  GHashTable *by_type;        /* type name (owned by the description) -> index + 1 */
  GPtrArray  *files;          /* char*, names the descriptions point to */
  GPtrArray  *warnings;       /* char*, NULL-terminated */
};

TmDsl *
tm_dsl_new (void)
{
  TmDsl *dsl = g_new0 (TmDsl, 1);

  dsl->descriptions = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_dsl_description_free);
  dsl->by_type = g_hash_table_new (g_str_hash, g_str_equal);
  dsl->files = g_ptr_array_new_with_free_func (g_free);
  dsl->warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (dsl->warnings, NULL);
  return dsl;
}

void
tm_dsl_free (TmDsl *dsl)
{
  if (dsl == NULL)
    return;
  g_hash_table_unref (dsl->by_type);
  g_ptr_array_unref (dsl->descriptions);
  g_ptr_array_unref (dsl->files);
  g_ptr_array_unref (dsl->warnings);
  g_free (dsl);
}

static void G_GNUC_PRINTF (2, 3)
add_warning (TmDsl *dsl, const char *format, ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* keep the array NULL-terminated */
  g_ptr_array_index (dsl->warnings, dsl->warnings->len - 1) = message;
  g_ptr_array_add (dsl->warnings, NULL);
}

gboolean
tm_dsl_add_string (TmDsl       *dsl,
                   const char  *name,
                   const char  *text,
                   gssize       length,
                   GError     **error)
{
  g_autoptr(GPtrArray) parsed = NULL;
  char *file;

  g_return_val_if_fail (dsl != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (length < 0)
    length = strlen (text);

  file = g_strdup (name);
  parsed = tm_dsl_parse (file, text, length, error);
  if (parsed == NULL)
    {
      g_free (file);
      return FALSE;
    }
  g_ptr_array_add (dsl->files, file);

  for (guint i = 0; i < parsed->len; i++)
    {
      TmDslDescription *d = g_ptr_array_index (parsed, i);
      gpointer slot;

      /* take ownership out of `parsed` */
      g_ptr_array_index (parsed, i) = NULL;

      if (g_hash_table_lookup_extended (dsl->by_type, d->type, NULL, &slot))
        {
          guint index = GPOINTER_TO_UINT (slot) - 1;
          TmDslDescription *old = g_ptr_array_index (dsl->descriptions, index);

          add_warning (dsl, "%s:%u:%u: description of %s replaces the one at %s:%u:%u",
                       d->file, d->line, d->column, d->type, old->file, old->line, old->column);
          g_hash_table_remove (dsl->by_type, old->type);
          tm_dsl_description_free (old);
          g_ptr_array_index (dsl->descriptions, index) = d;
          g_hash_table_insert (dsl->by_type, d->type, GUINT_TO_POINTER (index + 1));
        }
      else
        {
          g_ptr_array_add (dsl->descriptions, d);
          g_hash_table_insert (dsl->by_type, d->type, GUINT_TO_POINTER (dsl->descriptions->len));
        }
    }
  return TRUE;
}

gboolean
tm_dsl_add_file (TmDsl       *dsl,
                 const char  *path,
                 GError     **error)
{
  g_autofree char *contents = NULL;
  GError *local = NULL;
  GStatBuf st;
  gsize length;

  g_return_val_if_fail (dsl != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* say what is wrong with directories and devices before reading them */
  if (g_stat (path, &st) != 0)
    {
      int e = errno;
      g_set_error (error, TM_ERROR, TM_ERROR_FAILED, "%s: %s", path, g_strerror (e));
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FAILED, _("%s: is a directory, not a description file"), path);
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FAILED, _("%s: not a regular file"), path);
      return FALSE;
    }
  if ((guint64) st.st_size > TM_DSL_MAX_FILE_SIZE)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "%s: too large for a description file (%" G_GUINT64_FORMAT " bytes)",
                   path, (guint64) st.st_size);
      return FALSE;
    }
  if (!g_file_get_contents (path, &contents, &length, &local))
    {
      /* GLib's message names the file already */
      g_set_error (error, TM_ERROR, TM_ERROR_FAILED, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  return tm_dsl_add_string (dsl, path, contents, length, error);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

guint
tm_dsl_add_directory (TmDsl       *dsl,
                      const char  *dir,
                      GError     **error)
{
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GError *local = NULL;
  const char *entry;
  guint added = 0;

  g_return_val_if_fail (dsl != NULL, 0);
  g_return_val_if_fail (dir != NULL, 0);

  d = g_dir_open (dir, 0, &local);
  if (d == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FAILED, "%s: %s", dir, local->message);
      g_error_free (local);
      return 0;
    }
  while ((entry = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (entry, ".ds"))
      g_ptr_array_add (names, g_strdup (entry));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);

      if (tm_dsl_add_file (dsl, path, &local))
        added++;
      else
        {
          add_warning (dsl, "%s", local->message);
          g_clear_error (&local);
        }
    }
  return added;
}

/* Uninstalled runs (the executable lives in the build tree) use the
 * source tree's library, so a stale installed copy never shadows it. */
char *
tm_dsl_library_dir (void)
{
  char *dir = tm_install_find ("TM_DSL_LIBRARY", TM_INSTALL_DATADIR, "tidemark/dsl-library");

  return dir ? dir : tm_install_path (TM_INSTALL_DATADIR, "tidemark/dsl-library");
}

TmDsl *
tm_dsl_new_default (GError **error)
{
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autofree char *dir = tm_dsl_library_dir ();
  GError *local = NULL;

  tm_dsl_add_directory (dsl, dir, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  return g_steal_pointer (&dsl);
}

guint
tm_dsl_n_descriptions (const TmDsl *dsl)
{
  g_return_val_if_fail (dsl != NULL, 0);
  return dsl->descriptions->len;
}

const TmDslDescription *
tm_dsl_get (const TmDsl *dsl,
            guint        i)
{
  g_return_val_if_fail (dsl != NULL, NULL);
  g_return_val_if_fail (i < dsl->descriptions->len, NULL);
  return g_ptr_array_index (dsl->descriptions, i);
}

const TmDslDescription *
tm_dsl_lookup (const TmDsl *dsl,
               const char  *type)
{
  gpointer slot;

  g_return_val_if_fail (dsl != NULL, NULL);
  g_return_val_if_fail (type != NULL, NULL);

  slot = g_hash_table_lookup (dsl->by_type, type);
  return slot != NULL ? g_ptr_array_index (dsl->descriptions, GPOINTER_TO_UINT (slot) - 1) : NULL;
}

void
tm_dsl_add_files (TmDsl *dsl, const char * const *files)
{
  g_return_if_fail (dsl != NULL);
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    {
      g_autoptr(GError) local = NULL;

      if (!tm_dsl_add_file (dsl, files[i], &local))
        add_warning (dsl, "%s", local->message);
    }
}

const char * const *
tm_dsl_warnings (const TmDsl *dsl)
{
  g_return_val_if_fail (dsl != NULL, NULL);
  return (const char * const *) dsl->warnings->pdata;
}

gboolean
tm_dsl_pattern_match (const char *pattern,
                      const char *name)
{
  const char *star_p = NULL, *star_n = NULL;

  g_return_val_if_fail (pattern != NULL && name != NULL, FALSE);

  /* iterative glob with backtracking to the last '*' */
  while (*name != '\0')
    {
      if (*pattern == '*')
        {
          star_p = ++pattern;
          star_n = name;
        }
      else if (*pattern == *name)
        {
          pattern++;
          name++;
        }
      else if (star_p != NULL)
        {
          pattern = star_p;
          name = ++star_n;
        }
      else
        return FALSE;
    }
  while (*pattern == '*')
    pattern++;
  return *pattern == '\0';
}
