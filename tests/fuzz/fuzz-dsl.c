/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: any bytes as a data structure description (.ds), then
 * every description looked up and its patterns matched against the type
 * names of the input, as detection would. */
#include "tidemark.h"
#include "tm-dsl.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(TmDsl) dsl = tm_dsl_new ();
  g_autoptr(GError) error = NULL;
  const char * const *warnings;

  if (!tm_dsl_add_string (dsl, "fuzz.ds", (const char *) data, (gssize) size, &error))
    {
      g_assert (error != NULL);
      g_assert (g_str_has_prefix (error->message, "fuzz.ds:"));
      /* quotes stay short, whatever the input */
      g_assert (strlen (error->message) < 400);
      g_assert (tm_dsl_n_descriptions (dsl) == 0);
      return 0;
    }
  for (guint i = 0; i < tm_dsl_n_descriptions (dsl); i++)
    {
      const TmDslDescription *d = tm_dsl_get (dsl, i);
      g_assert (d->type != NULL && d->file != NULL);
      g_assert (tm_dsl_lookup (dsl, d->type) != NULL);
      for (guint k = 0; k < d->n_pointees; k++)
        {
          const TmDslPointee *p = &d->pointees[k];
          g_assert (p->wildcard == (strchr (p->pattern, '*') != NULL));
          if (!p->wildcard)
            g_assert (tm_dsl_pattern_match (p->pattern, p->pattern));
          tm_dsl_pattern_match (p->pattern, d->type);
        }
    }
  warnings = tm_dsl_warnings (dsl);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    g_assert (warnings[i][0] != '\0');
  return 0;
}
