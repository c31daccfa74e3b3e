/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The built-in classifiers: names, key domains, keys and labels.
 */
#include "tm-classify-chain.h"
#include "tm-error.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* Names come from the registry of chain classifiers (tm-classify-chain.c). */

const char *
tm_classifier_to_string (TmClassifier c)
{
  return tm_chain_classifier_to_string (c);
}

gboolean
tm_classifier_from_string (const char *name, TmClassifier *out)
{
  TmClassifier c;

  g_return_val_if_fail (name != NULL, FALSE);
  if (!tm_chain_classifier_from_string (name, &c) || !tm_classifier_is_per_object (c))
    return FALSE;
  if (out)
    *out = c;
  return TRUE;
}

gboolean
tm_classifier_chain_parse (const char    *list,
                           TmClassifier  *chain,
                           guint         *depth,
                           GError       **error)
{
  g_return_val_if_fail (list != NULL, FALSE);
  g_return_val_if_fail (chain != NULL && depth != NULL, FALSE);

  if (!tm_classify_chain_parse (list, chain, depth, error))
    return FALSE;
  for (guint i = 0; i < *depth; i++)
    if (tm_chain_classifier_is_ds (chain[i]))
      {
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                     _("%s needs data structures, which this analysis does not detect"),
                     tm_chain_classifier_to_string (chain[i]));
        return FALSE;
      }
    else if (!tm_classifier_is_per_object (chain[i]))
      {
        g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                     _("%s needs a heap state's reference graph, which this analysis does not read"),
                     tm_chain_classifier_to_string (chain[i]));
        return FALSE;
      }
  return TRUE;
}

guint32
tm_classifier_domain (TmClassifier c, const TmTrace *trace, guint32 gc_id)
{
  g_return_val_if_fail (trace != NULL, 1);

  switch (c)
    {
    case TM_CLASSIFIER_TYPE:
    case TM_CLASSIFIER_PACKAGE:   return MAX (trace->types->len, 1);
    case TM_CLASSIFIER_SITE:
    case TM_CLASSIFIER_CALL_SITE: return MAX (trace->frames->len, 1);
    case TM_CLASSIFIER_THREAD:    return MAX (trace->threads->len, 1);
    case TM_CLASSIFIER_SPACE:     return MAX (MAX (trace->spaces->len, 1), 256);
    case TM_CLASSIFIER_AGE:       return gc_id + 1;
    case TM_CLASSIFIER_TRANSACTION: return MAX (trace->tx_kinds->len, 1);
    case TM_N_CLASSIFIERS:
    default:
      g_return_val_if_reached (1);
    }
}

/* The first index given with `label` in `seen` (label -> index, owning
 * its keys): `index` itself when the label is new.  Takes `label`. */
static guint32
first_with_label (GHashTable *seen, char *label, guint32 index)
{
  gpointer found = g_hash_table_lookup (seen, label);

  if (found != NULL)
    {
      g_free (label);
      return GPOINTER_TO_UINT (found);
    }
  g_hash_table_insert (seen, label, GUINT_TO_POINTER (index));
  return index;
}

/* site index -> canonical frame index of frame `depth` (0 innermost),
 * merging frames that name the same method and line. */
static guint32 *
site_frame_table (const TmTrace *trace, guint depth)
{
  guint32 n_sites = trace->sites->len;
  guint32 *table = g_new0 (guint32, MAX (n_sites, 1));
  g_autoptr(GHashTable) canon = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree guint32 *frame_canon = g_new0 (guint32, MAX (trace->frames->len, 1));

  for (guint32 s = 1; s < n_sites; s++)
    {
      const TmSite *site = tm_trace_site (trace, s);
      guint32 f;

      if (site->depth <= depth)
        continue;
      f = site->frames[depth];
      if (f == 0 || f >= trace->frames->len)
        continue;
      if (frame_canon[f] == 0)
        {
          const TmFrame *frame = tm_trace_frame (trace, f);
          frame_canon[f] = first_with_label (canon, g_strdup_printf ("%s:%d", frame->method ? frame->method : "",
                                                                     frame->line), f);
        }
      table[s] = frame_canon[f];
    }
  return table;
}

/* The package of a Java type name: what comes before its last '.' (an
 * array's element type's), or "" for the default package and primitives. */
static char *
package_of (const char *name)
{
  const char *end = name + strlen (name), *dot;

  while (end - name >= 2 && end[-2] == '[' && end[-1] == ']')
    end -= 2;
  for (dot = end; dot > name && dot[-1] != '.'; dot--)
    ;
  return dot > name ? g_strndup (name, dot - 1 - name) : g_strdup ("");
}

/* type index -> the first type index of the same package (0: unknown). */
static guint32 *
package_table (const TmTrace *trace)
{
  guint32 n = trace->types->len;
  guint32 *table = g_new0 (guint32, MAX (n, 1));
  g_autoptr(GHashTable) first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint32 t = 1; t < n; t++)
    {
      const char *name = tm_trace_type (trace, t)->name;
      table[t] = first_with_label (first, package_of (name ? name : ""), t);
    }
  return table;
}

/* types[i] -> keys[i], in place allowed */
static void
package_keys (const TmTrace *trace, const guint32 *types, guint32 n, guint32 *keys)
{
  g_autofree guint32 *table = package_table (trace);
  guint32 n_types = trace->types->len;

  for (guint32 i = 0; i < n; i++)
    keys[i] = types[i] < n_types ? table[types[i]] : 0;
}

void
tm_classifier_keys (TmClassifier c, const TmTrace *trace, guint32 gc_id,
                    const guint32 *objects, guint32 n, guint32 *keys)
{
  g_return_if_fail (trace != NULL);
  g_return_if_fail (n == 0 || (objects != NULL && keys != NULL));

  switch (c)
    {
    case TM_CLASSIFIER_TYPE:
      for (guint32 i = 0; i < n; i++)
        keys[i] = trace->obj_type[objects[i]];
      break;

    case TM_CLASSIFIER_PACKAGE:
      for (guint32 i = 0; i < n; i++)
        keys[i] = trace->obj_type[objects[i]];
      package_keys (trace, keys, n, keys);
      break;

    case TM_CLASSIFIER_SITE:
    case TM_CLASSIFIER_CALL_SITE:
      {
        g_autofree guint32 *table = site_frame_table (trace, c == TM_CLASSIFIER_SITE ? 0 : 1);
        guint32 n_sites = trace->sites->len;
        for (guint32 i = 0; i < n; i++)
          {
            guint32 s = trace->obj_site[objects[i]];
            keys[i] = s < n_sites ? table[s] : 0;
          }
      }
      break;

    case TM_CLASSIFIER_THREAD:
      for (guint32 i = 0; i < n; i++)
        keys[i] = trace->obj_thread[objects[i]];
      break;

    case TM_CLASSIFIER_TRANSACTION:
      for (guint32 i = 0; i < n; i++)
        keys[i] = trace->obj_tx != NULL ? trace->obj_tx[objects[i]] : 0;
      break;

    case TM_CLASSIFIER_SPACE:
      for (guint32 i = 0; i < n; i++)
        keys[i] = tm_trace_object_space_at (trace, objects[i], gc_id);
      break;

    case TM_CLASSIFIER_AGE:
      {
        /* objects come ascending, so the birth GC only moves forward */
        const TmGc *gcs = (const TmGc *) (gpointer) trace->gcs->data;
        guint32 n_gcs = trace->gcs->len, b = 0;
        gboolean sorted = TRUE;

        for (guint32 i = 1; i < n && sorted; i++)
          sorted = objects[i - 1] <= objects[i];
        for (guint32 i = 0; i < n; i++)
          {
            guint32 birth;
            if (sorted)
              {
                while (b < n_gcs && gcs[b].allocs_before <= objects[i])
                  b++;
                birth = b;
              }
            else
              birth = tm_trace_object_birth_gc (trace, objects[i]);
            keys[i] = birth >= gc_id ? 0 : gc_id - birth;
          }
      }
      break;

    case TM_N_CLASSIFIERS:
    default:
      g_return_if_reached ();
    }
}

void
tm_classifier_keys_short_lived (TmClassifier c, const TmTrace *trace, const TmShortLived *entries,
                                guint32 n, guint32 *keys)
{
  g_return_if_fail (trace != NULL);
  g_return_if_fail (n == 0 || (entries != NULL && keys != NULL));

  switch (c)
    {
    case TM_CLASSIFIER_TYPE:
      for (guint32 i = 0; i < n; i++)
        keys[i] = entries[i].type;
      break;

    case TM_CLASSIFIER_PACKAGE:
      for (guint32 i = 0; i < n; i++)
        keys[i] = entries[i].type;
      package_keys (trace, keys, n, keys);
      break;

    case TM_CLASSIFIER_SITE:
    case TM_CLASSIFIER_CALL_SITE:
      {
        g_autofree guint32 *table = site_frame_table (trace, c == TM_CLASSIFIER_SITE ? 0 : 1);
        guint32 n_sites = trace->sites->len;
        for (guint32 i = 0; i < n; i++)
          keys[i] = entries[i].site < n_sites ? table[entries[i].site] : 0;
      }
      break;

    case TM_CLASSIFIER_THREAD:
      for (guint32 i = 0; i < n; i++)
        keys[i] = entries[i].thread;
      break;

    default:
      /* no rows are folded while transactions are recorded; spaces and
       * ages are heap-state classifiers */
      memset (keys, 0, sizeof (guint32) * n);
      break;
    }
}

guint32
tm_classifier_key (TmClassifier c, const TmTrace *trace, guint32 gc_id, guint32 object_index)
{
  guint32 key = 0;

  g_return_val_if_fail (trace != NULL && object_index < trace->n_objects, 0);
  tm_classifier_keys (c, trace, gc_id, &object_index, 1, &key);
  return key;
}

char *
tm_classifier_key_label (TmClassifier c, const TmTrace *trace, guint32 key)
{
  g_return_val_if_fail (trace != NULL, NULL);

  switch (c)
    {
    case TM_CLASSIFIER_TYPE:
      if (key == 0 || key >= trace->types->len)
        return g_strdup ("(unknown type)");
      return g_strdup (tm_trace_type (trace, key)->name);

    case TM_CLASSIFIER_SITE:
    case TM_CLASSIFIER_CALL_SITE:
      if (key == 0 || key >= trace->frames->len)
        return g_strdup (c == TM_CLASSIFIER_SITE ? "(unknown site)" : "(no caller)");
      {
        const TmFrame *f = tm_trace_frame (trace, key);
        if (f->line >= 0)
          return g_strdup_printf ("%s:%d", f->method, f->line);
        return g_strdup (f->method);
      }

    case TM_CLASSIFIER_THREAD:
      if (key == 0 || key >= trace->threads->len)
        return g_strdup ("(unknown thread)");
      return g_strdup (tm_trace_thread (trace, key)->name);

    case TM_CLASSIFIER_SPACE:
      if (key == 0 || key >= trace->spaces->len)
        return g_strdup ("(unknown space)");
      return g_strdup (tm_trace_space (trace, key)->name);

    case TM_CLASSIFIER_AGE:
      return g_strdup_printf (key == 1 ? "%u GC" : "%u GCs", key);

    case TM_CLASSIFIER_PACKAGE:
      if (key == 0 || key >= trace->types->len)
        return g_strdup ("(unknown type)");
      {
        g_autofree char *pkg = package_of (tm_trace_type (trace, key)->name ? tm_trace_type (trace, key)->name : "");
        return *pkg ? g_steal_pointer (&pkg) : g_strdup ("(default package)");
      }

    case TM_CLASSIFIER_TRANSACTION:
      if (key == 0 || key >= trace->tx_kinds->len)
        return g_strdup ("(no transaction)");
      return g_strdup (g_array_index (trace->tx_kinds, TmTxKind, key).name);

    case TM_N_CLASSIFIERS:
    default:
      g_return_val_if_reached (g_strdup ("?"));
    }
}
