/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Classifier chains with the data-structure classifiers, and the
 * detection results they classify with (tm-classify-chain.h).
 */
#include "tm-config.h"
#include "tm-classify-chain.h"
#include "tm-error.h"
#include "tm-root-classify.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* The registry of every classifier: the names of `--classify` and the
 * titles the app shows (translated there), by TmClassifier. */
static const struct {
  const char  *name;
  const char  *title;
} registry[TM_N_CLASSIFIERS] = {
  [TM_CLASSIFIER_TYPE]          = { "type",          N_("Type") },
  [TM_CLASSIFIER_PACKAGE]       = { "package",       N_("Package") },
  [TM_CLASSIFIER_SITE]          = { "site",          N_("Allocation site") },
  [TM_CLASSIFIER_CALL_SITE]     = { "call-site",     N_("Call site") },
  [TM_CLASSIFIER_THREAD]        = { "thread",        N_("Thread") },
  [TM_CLASSIFIER_SPACE]         = { "space",         N_("Space") },
  [TM_CLASSIFIER_AGE]           = { "age",           N_("Age (GCs survived)") },
  [TM_CLASSIFIER_TRANSACTION]   = { "transaction",   N_("Transaction") },
  [TM_CLASSIFIER_LEAVES]        = { "leaves",        N_("Data structure leaves") },
  [TM_CLASSIFIER_DEEP_LEAVES]   = { "deep-leaves",   N_("Data structure deep leaves") },
  [TM_CLASSIFIER_CONTAINING_DS] = { "containing-ds", N_("Containing data structure") },
  [TM_CLASSIFIER_ROOT_PATH]     = { "root-path",     N_("Root path") },
};

/* the data-structure classifiers in TmDsClassifier's order */
G_STATIC_ASSERT (TM_CLASSIFIER_DEEP_LEAVES - TM_CLASSIFIER_LEAVES == TM_DS_CLASSIFIER_DEEP_LEAVES);
G_STATIC_ASSERT (TM_CLASSIFIER_CONTAINING_DS - TM_CLASSIFIER_LEAVES == TM_DS_CLASSIFIER_CONTAINING_DS);
G_STATIC_ASSERT (TM_DS_N_CLASSIFIERS == 3);

gboolean
tm_chain_classifier_is_ds (TmClassifier c)
{
  return c >= TM_CLASSIFIER_LEAVES && c <= TM_CLASSIFIER_CONTAINING_DS;
}

gboolean
tm_chain_classifier_needs_graph (TmClassifier c)
{
  return c >= TM_N_OBJECT_CLASSIFIERS && c < TM_N_CLASSIFIERS;
}

TmDsClassifier
tm_chain_classifier_ds (TmClassifier c)
{
  g_return_val_if_fail (tm_chain_classifier_is_ds (c), TM_DS_CLASSIFIER_CONTAINING_DS);
  return (TmDsClassifier) (c - TM_CLASSIFIER_LEAVES);
}

const char *
tm_chain_classifier_to_string (TmClassifier c)
{
  g_return_val_if_fail (c < TM_N_CLASSIFIERS, "unknown");
  return registry[c].name;
}

const char *
tm_chain_classifier_title (TmClassifier c)
{
  g_return_val_if_fail (c < TM_N_CLASSIFIERS, "?");
  return registry[c].title;
}

gboolean
tm_chain_classifier_from_string (const char *name, TmClassifier *out)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < TM_N_CLASSIFIERS; i++)
    if (strcmp (name, registry[i].name) == 0)
      {
        if (out)
          *out = (TmClassifier) i;
        return TRUE;
      }
  return FALSE;
}

/* "type, site, ..., containing-ds" */
static char *
known_names (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < TM_N_CLASSIFIERS; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", registry[i].name);
  return g_string_free (s, FALSE);
}

gboolean
tm_classify_chain_parse (const char *list, TmClassifier *chain, guint *depth, GError **error)
{
  g_auto(GStrv) names = NULL;

  g_return_val_if_fail (list != NULL && chain != NULL && depth != NULL, FALSE);

  names = g_strsplit (list, ",", -1);
  *depth = 0;
  for (guint i = 0; names[i] != NULL; i++)
    {
      char *name = g_strstrip (names[i]);

      if (*name == '\0')
        continue;
      if (*depth >= TM_CLASSIFY_MAX_DEPTH - 1)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                       _("at most %d classifiers"), TM_CLASSIFY_MAX_DEPTH - 1);
          return FALSE;
        }
      if (!tm_chain_classifier_from_string (name, &chain[*depth]))
        {
          g_autofree char *known = known_names ();
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("unknown classifier '%s' (known: %s)"), name, known);
          return FALSE;
        }
      (*depth)++;
    }
  if (*depth == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("no classifier given"));
      return FALSE;
    }
  return TRUE;
}

gboolean
tm_classify_chain_needs_ds (const TmClassifier *chain, guint depth)
{
  for (guint i = 0; i < depth; i++)
    if (tm_chain_classifier_is_ds (chain[i]))
      return TRUE;
  return FALSE;
}

gboolean
tm_classify_chain_needs_graph (const TmClassifier *chain, guint depth)
{
  for (guint i = 0; i < depth; i++)
    if (tm_chain_classifier_needs_graph (chain[i]))
      return TRUE;
  return FALSE;
}

/* ---- levels ---- */

typedef struct {
  TmHeapState    *state;    /* the detection, from the heap cache */
  TmDsClassifier  which;
} DsLevel;

static void
ds_level_free (gpointer data)
{
  DsLevel *d = data;

  tm_heap_state_unref (d->state);
  g_free (d);
}

/* The detection on heap's GC, a new state reference. */
static TmHeapState *
detection (TmHeapCache *heaps, TmHeapAnalysis *heap, GCancellable *cancellable, GError **error)
{
  if (tm_heap_cache_get_trace (heaps) != tm_heap_analysis_get_trace (heap))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT, _("the heap cache belongs to another trace"));
      return NULL;
    }
  return tm_heap_cache_get_ds (heaps, tm_heap_analysis_get_gc (heap), cancellable, error);
}

static guint32
ds_domain (const TmClassLevel *level, TmHeapAnalysis *heap)
{
  const DsLevel *d = level->data;
  return tm_ds_classifier_domain (d->state->ds);
}

static void
ds_pairs (const TmClassLevel *level, TmHeapAnalysis *heap, const guint32 *items, guint32 n,
          GArray *keys, GArray *out_items)
{
  const DsLevel *d = level->data;
  tm_ds_classify (d->state->ds, d->which, items, n, keys, out_items);
}

static char *
ds_label (const TmClassLevel *level, TmHeapAnalysis *heap, guint32 key)
{
  const DsLevel *d = level->data;
  return tm_ds_classifier_key_label (d->state->ds, tm_heap_analysis_get_trace (heap), key);
}

static guint32
heads_domain (const TmClassLevel *level, TmHeapAnalysis *heap)
{
  return 1;
}

static void
heads_pairs (const TmClassLevel *level, TmHeapAnalysis *heap, const guint32 *items, guint32 n,
             GArray *keys, GArray *out_items)
{
  const DsLevel *d = level->data;
  g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) wanted = g_hash_table_new (NULL, NULL);
  guint32 zero = 0;

  tm_ds_result_view_heads (d->state->ds, heads);
  for (guint i = 0; i < heads->len; i++)
    g_hash_table_add (wanted, GUINT_TO_POINTER (g_array_index (heads, guint32, i) + 1));
  for (guint32 i = 0; i < n; i++)
    if (g_hash_table_contains (wanted, GUINT_TO_POINTER (items[i] + 1)))
      {
        g_array_append_val (keys, zero);
        g_array_append_val (out_items, items[i]);
      }
}

static char *
heads_label (const TmClassLevel *level, TmHeapAnalysis *heap, guint32 key)
{
  return g_strdup ("Data structures");
}

void
tm_classify_chain_levels_clear (TmClassLevel *levels, guint depth)
{
  for (guint i = 0; i < depth; i++)
    if (levels[i].data_free != NULL && levels[i].data != NULL)
      {
        levels[i].data_free (levels[i].data);
        levels[i].data = NULL;
      }
}

gboolean
tm_classify_chain_levels (TmHeapCache        *heaps,
                          TmHeapAnalysis     *heap,
                          const TmClassifier *chain,
                          guint               depth,
                          TmClassLevel       *levels,
                          GCancellable       *cancellable,
                          GError            **error)
{
  TmHeapState *state = NULL;

  g_return_val_if_fail (heap != NULL && chain != NULL && levels != NULL, FALSE);
  g_return_val_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH, FALSE);

  memset (levels, 0, depth * sizeof (TmClassLevel));
  for (guint i = 0; i < depth; i++)
    {
      DsLevel *d;

      if (chain[i] == TM_CLASSIFIER_ROOT_PATH)
        {
          if (!tm_root_classify_level (heap, &levels[i], cancellable, error))
            goto fail;
          continue;
        }
      if (!tm_chain_classifier_is_ds (chain[i]))
        {
          tm_class_level_init_builtin (&levels[i], chain[i]);
          continue;
        }
      if (heaps == NULL)
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                       _("%s needs data structure descriptions"), tm_chain_classifier_to_string (chain[i]));
          goto fail;
        }
      if (state == NULL && (state = detection (heaps, heap, cancellable, error)) == NULL)
        goto fail;
      d = g_new0 (DsLevel, 1);
      d->state = tm_heap_state_ref (state);
      d->which = tm_chain_classifier_ds (chain[i]);
      levels[i].name = tm_chain_classifier_to_string (chain[i]);
      levels[i].classifier = chain[i];
      levels[i].data = d;
      levels[i].data_free = ds_level_free;
      levels[i].domain = ds_domain;
      levels[i].pairs = ds_pairs;
      levels[i].label = ds_label;
    }
  g_clear_pointer (&state, tm_heap_state_unref);
  return TRUE;

fail:
  g_clear_pointer (&state, tm_heap_state_unref);
  tm_classify_chain_levels_clear (levels, depth);
  return FALSE;
}

gboolean
tm_classify_heads_level (TmHeapCache    *heaps,
                           TmHeapAnalysis *heap,
                           TmClassLevel   *level,
                           GCancellable   *cancellable,
                           GError        **error)
{
  DsLevel *d;
  TmHeapState *state;

  g_return_val_if_fail (heaps != NULL && heap != NULL && level != NULL, FALSE);

  memset (level, 0, sizeof *level);
  if ((state = detection (heaps, heap, cancellable, error)) == NULL)
    return FALSE;
  d = g_new0 (DsLevel, 1);
  d->state = state;
  level->name = "data-structures";
  level->classifier = TM_CLASSIFIER_NONE;
  level->data = d;
  level->data_free = ds_level_free;
  level->domain = heads_domain;
  level->pairs = heads_pairs;
  level->label = heads_label;
  return TRUE;
}

TmClassTree *
tm_classify_chain_tree (TmHeapCache        *heaps,
                        TmHeapAnalysis     *heap,
                        const TmClassifier *chain,
                        guint               depth,
                        GCancellable       *cancellable,
                        GError            **error)
{
  TmClassLevel levels[TM_CLASSIFY_MAX_DEPTH];

  g_return_val_if_fail (heap != NULL && chain != NULL, NULL);
  g_return_val_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH, NULL);

  if (!tm_classify_chain_levels (heaps, heap, chain, depth, levels, cancellable, error))
    return NULL;
  return tm_class_tree_new_for_levels (heap, levels, depth, cancellable, error);
}
