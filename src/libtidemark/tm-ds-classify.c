/* SPDX-License-Identifier: GPL-3.0-or-later
 * The data-structure classifiers as a classification level
 * (tm-ds-classify.h). */
#include "tm-ds-classify.h"

#include <string.h>

guint32
tm_ds_classifier_domain (const TmDsResult *result)
{
  g_return_val_if_fail (result != NULL, 0);
  return result->n_structures + 1;
}

void
tm_ds_classify (TmDsResult     *result,
                TmDsClassifier  c,
                const guint32  *items,
                guint32         n_items,
                GArray         *keys,
                GArray         *out_items)
{
  g_autoptr(GArray) found = NULL;

  g_return_if_fail (result != NULL);
  g_return_if_fail (c < TM_DS_N_CLASSIFIERS);
  g_return_if_fail (items != NULL || n_items == 0);
  g_return_if_fail (keys != NULL && out_items != NULL);

  found = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 i = 0; i < n_items; i++)
    {
      guint32 item = items[i];

      if (item >= result->graph->n_nodes)
        continue;
      g_array_set_size (found, 0);
      if (c == TM_DS_CLASSIFIER_CONTAINING_DS)
        {
          tm_ds_result_containing (result, item, found);
          if (found->len == 0)
            {
              guint32 none = TM_DS_CLASSIFY_NONE (result);
              g_array_append_val (keys, none);
              g_array_append_val (out_items, item);
            }
          for (guint k = 0; k < found->len; k++)
            {
              g_array_append_val (keys, g_array_index (found, guint32, k));
              g_array_append_val (out_items, item);
            }
        }
      else
        {
          guint32 s = tm_ds_result_find_head (result, item);

          if (s == TM_DS_NONE)
            continue;
          if (c == TM_DS_CLASSIFIER_LEAVES)
            tm_ds_result_leaves (result, s, found);
          else
            tm_ds_result_deep_leaves (result, s, found);
          for (guint k = 0; k < found->len; k++)
            {
              g_array_append_val (keys, s);
              g_array_append_val (out_items, g_array_index (found, guint32, k));
            }
        }
    }
}

char *
tm_ds_classifier_key_label (const TmDsResult *result,
                            const TmTrace    *trace,
                            guint32           key)
{
  g_return_val_if_fail (result != NULL && trace != NULL, NULL);

  if (key >= result->n_structures)
    return g_strdup ("(no data structure)");
  return tm_ds_result_structure_label (result, trace, key);
}
