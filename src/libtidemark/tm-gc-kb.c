/* SPDX-License-Identifier: GPL-3.0-or-later
 * The GC knowledge base: workloads' features -> best configuration per
 * goal, stored as a GKeyFile, and the k-nearest-neighbour lookup. */
#include "tm-config.h"
#include <glib/gi18n-lib.h>
#include "tm-gc-config.h"
#include "tm-install.h"
#include "tm-error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const goal_names[TM_N_GOALS] = { "throughput", "latency", "footprint" };

const char *
tm_goal_to_string (TmGoal goal)
{
  return goal < TM_N_GOALS ? goal_names[goal] : "?";
}

gboolean
tm_goal_from_string (const char *s, TmGoal *goal)
{
  for (guint g = 0; g < TM_N_GOALS; g++)
    if (g_strcmp0 (s, goal_names[g]) == 0)
      {
        *goal = (TmGoal) g;
        return TRUE;
      }
  return FALSE;
}

void
tm_kb_entry_free (TmKbEntry *e)
{
  if (e == NULL)
    return;
  g_free (e->name);
  g_free (e->description);
  for (guint g = 0; g < TM_N_GOALS; g++)
    tm_gc_config_clear (&e->best[g]);
  g_free (e);
}

char *
tm_kb_find (const char *given)
{
  char *path;

  if (given)
    return g_strdup (given);
  /* $TIDEMARK_KB (the source tree's, from `meson devenv`), else installed */
  path = tm_install_find ("TIDEMARK_KB", TM_INSTALL_DATADIR, "tidemark/gc-kb.ini");
  if (path != NULL && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&path, g_free);
  return path;
}

TmKb *
tm_kb_new (void)
{
  TmKb *kb = g_new0 (TmKb, 1);
  kb->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_kb_entry_free);
  return kb;
}

void
tm_kb_free (TmKb *kb)
{
  if (kb == NULL)
    return;
  g_ptr_array_unref (kb->entries);
  g_free (kb);
}

void
tm_kb_put (TmKb *kb, TmKbEntry *entry)
{
  for (guint i = 0; i < kb->entries->len; i++)
    if (g_str_equal (((TmKbEntry *) kb->entries->pdata[i])->name, entry->name))
      {
        tm_kb_entry_free (kb->entries->pdata[i]);
        kb->entries->pdata[i] = entry;
        return;
      }
  g_ptr_array_add (kb->entries, entry);
}

TmKb *
tm_kb_load (const char *path, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_auto(GStrv) groups = NULL;
  g_autoptr(TmKb) kb = tm_kb_new ();

  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, error))
    {
      if (error && *error)
        g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i]; i++)
    {
      TmKbEntry *e = g_new0 (TmKbEntry, 1);
      gsize n = 0;
      g_autofree double *v = g_key_file_get_double_list (kf, groups[i], "features", &n, NULL);

      e->name = g_strdup (groups[i]);
      e->description = g_key_file_get_string (kf, groups[i], "description", NULL);
      if (v == NULL || n != TM_GC_N_FEATURES)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("%s: [%s]: features must be %d numbers"), path,
                       groups[i], TM_GC_N_FEATURES);
          tm_kb_entry_free (e);
          return NULL;
        }
      memcpy (e->features.v, v, sizeof e->features.v);
      for (guint g = 0; g < TM_N_GOALS; g++)
        {
          g_autofree char *s = g_key_file_get_string (kf, groups[i], goal_names[g], NULL);
          g_autoptr(GError) local = NULL;
          if (s == NULL)
            continue;
          if (!tm_gc_config_from_string (s, &e->best[g], &local))
            {
              g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, "%s: [%s]: %s", path, groups[i], local->message);
              tm_kb_entry_free (e);
              return NULL;
            }
          e->has_best[g] = TRUE;
        }
      tm_kb_put (kb, e);
    }
  return g_steal_pointer (&kb);
}

gboolean
tm_kb_save (const TmKb *kb, const char *path, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();

  for (guint i = 0; i < kb->entries->len; i++)
    {
      const TmKbEntry *e = kb->entries->pdata[i];
      GString *f = g_string_new (NULL);

      if (e->description)
        g_key_file_set_string (kf, e->name, "description", e->description);
      /* four significant digits: more would be noise, and the file stays readable */
      for (guint k = 0; k < TM_GC_N_FEATURES; k++)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          g_string_append_printf (f, "%s%s", k ? ";" : "", g_ascii_formatd (buf, sizeof buf, "%.4g", e->features.v[k]));
        }
      g_key_file_set_value (kf, e->name, "features", f->str);
      g_string_free (f, TRUE);
      for (guint g = 0; g < TM_N_GOALS; g++)
        if (e->has_best[g])
          {
            g_autofree char *s = tm_gc_config_to_string (&e->best[g]);
            g_key_file_set_string (kf, e->name, goal_names[g], s);
          }
    }
  return g_key_file_save_to_file (kf, path, error);
}

/* Spread of each feature over the knowledge base (1 when it does not vary),
 * so that no metric dominates the distance by its unit. */
static void
feature_scale (const TmKb *kb, double scale[TM_GC_N_FEATURES])
{
  guint n = kb->entries->len;

  for (guint k = 0; k < TM_GC_N_FEATURES; k++)
    {
      double mean = 0, var = 0;
      for (guint i = 0; i < n; i++)
        mean += ((TmKbEntry *) kb->entries->pdata[i])->features.v[k] / n;
      for (guint i = 0; i < n; i++)
        {
          double d = ((TmKbEntry *) kb->entries->pdata[i])->features.v[k] - mean;
          var += d * d / n;
        }
      scale[k] = var > 1e-12 ? sqrt (var) : 1.0;
    }
}

static int
compare_neighbours (const void *a, const void *b)
{
  const TmKbNeighbour *x = a, *y = b;
  if (x->distance != y->distance)
    return x->distance < y->distance ? -1 : 1;
  return strcmp (x->entry->name, y->entry->name);
}

guint
tm_kb_nearest (const TmKb *kb, const TmGcFeatures *f, guint k, TmKbNeighbour *out)
{
  guint n = kb->entries->len;
  double scale[TM_GC_N_FEATURES];
  g_autofree TmKbNeighbour *all = NULL;

  if (n == 0 || k == 0)
    return 0;
  feature_scale (kb, scale);
  all = g_new (TmKbNeighbour, n);
  for (guint i = 0; i < n; i++)
    {
      const TmKbEntry *e = kb->entries->pdata[i];
      double d2 = 0;
      for (guint j = 0; j < TM_GC_N_FEATURES; j++)
        {
          double d = (f->v[j] - e->features.v[j]) / scale[j];
          d2 += d * d;
        }
      all[i].entry = e;
      all[i].distance = sqrt (d2);
    }
  qsort (all, n, sizeof *all, compare_neighbours);
  k = MIN (k, n);
  memcpy (out, all, k * sizeof *all);
  return k;
}

gboolean
tm_kb_suggest (const TmKb *kb, const TmGcFeatures *f, guint k, TmGoal goal, TmGcConfig *config)
{
  g_autofree TmKbNeighbour *nb = g_new (TmKbNeighbour, MAX (k, 1));
  guint n = tm_kb_nearest (kb, f, k, nb);
  guint best = G_MAXUINT, best_votes = 0;

  /* majority vote; the nearest wins ties because it is seen first */
  for (guint i = 0; i < n; i++)
    {
      guint votes = 0;
      if (!nb[i].entry->has_best[goal])
        continue;
      for (guint j = 0; j < n; j++)
        if (nb[j].entry->has_best[goal] && tm_gc_config_equal (&nb[i].entry->best[goal], &nb[j].entry->best[goal]))
          votes++;
      if (votes > best_votes)
        {
          best_votes = votes;
          best = i;
        }
    }
  if (best == G_MAXUINT)
    return FALSE;
  tm_gc_config_copy (config, &nb[best].entry->best[goal]);
  return TRUE;
}
