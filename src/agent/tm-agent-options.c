/* SPDX-License-Identifier: GPL-3.0-or-later
 * Parsing of the agent's option string: -agentpath:LIB=key=value,key=value */
#include "tm-agent.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KNOWN "output, sample-bytes, stack-depth, graph-every, status, level, exclusive, transaction, containers"

static gboolean
parse_number (const char *key, const char *value, guint64 max, guint64 *out, char **error)
{
  char *end = NULL;
  guint64 v;

  if (value == NULL || *value == '\0' || !g_ascii_isdigit (*value))
    {
      *error = g_strdup_printf ("%s: '%s' is not a non-negative number", key, value ? value : "");
      return FALSE;
    }
  errno = 0;
  v = g_ascii_strtoull (value, &end, 10);
  /* allow k/m/g suffixes for byte counts */
  if (end != NULL && *end != '\0' && end[1] == '\0' && strcmp (key, "sample-bytes") == 0)
    {
      guint64 mul = 0;
      switch (g_ascii_tolower (*end))
        {
        case 'k': mul = 1024; break;
        case 'm': mul = 1024 * 1024; break;
        case 'g': mul = 1024 * 1024 * 1024; break;
        default: break;
        }
      if (mul != 0 && v <= G_MAXUINT64 / mul)
        {
          v *= mul;
          end++;
        }
    }
  if (errno != 0 || end == NULL || *end != '\0')
    {
      *error = g_strdup_printf ("%s: '%s' is not a non-negative number", key, value);
      return FALSE;
    }
  if (v > max)
    {
      *error = g_strdup_printf ("%s: %s is too large (at most %" G_GUINT64_FORMAT ")", key, value, max);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

gboolean
tm_agent_options_parse (const char *text, TmAgentOptions *opts, char **error)
{
  g_auto(GStrv) items = NULL;
  guint64 v;

  memset (opts, 0, sizeof *opts);
  opts->stack_depth = 2;   /* the allocating method and its caller: what the site and call-site classifiers use */
  opts->graph_every = 10;
  opts->zstd_level = 3;

  if (text == NULL || *text == '\0')
    goto done;

  items = g_strsplit (text, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *item = items[i];
      const char *eq = strchr (item, '=');
      g_autofree char *key = NULL;
      const char *value;

      if (*item == '\0')
        continue;
      if (eq == NULL)
        {
          *error = g_strdup_printf ("option '%s' needs a value (key=value; options: " KNOWN ")", item);
          return FALSE;
        }
      key = g_strndup (item, eq - item);
      value = eq + 1;

      if (strcmp (key, "output") == 0 || strcmp (key, "status") == 0)
        {
          char **slot = key[0] == 'o' ? &opts->output : &opts->status;
          if (*value == '\0')
            {
              *error = g_strdup_printf ("%s: empty file name", key);
              return FALSE;
            }
          g_free (*slot);
          *slot = g_strdup (value);
        }
      else if (strcmp (key, "sample-bytes") == 0)
        {
          if (!parse_number (key, value, G_MAXINT32, &v, error))
            return FALSE;
          opts->sample_bytes = v;
        }
      else if (strcmp (key, "stack-depth") == 0)
        {
          if (!parse_number (key, value, TM_AGENT_MAX_DEPTH, &v, error))
            return FALSE;
          opts->stack_depth = (guint) v;
        }
      else if (strcmp (key, "graph-every") == 0)
        {
          if (!parse_number (key, value, G_MAXINT32, &v, error))
            return FALSE;
          opts->graph_every = (guint) v;
          opts->graph_every_set = TRUE;
        }
      else if (strcmp (key, "exclusive") == 0)
        {
          if (!parse_number (key, value, 1, &v, error))
            return FALSE;
          opts->exclusive = v != 0;
        }
      else if (strcmp (key, "containers") == 0)
        {
          if (!parse_number (key, value, 1, &v, error))
            return FALSE;
          opts->containers = v != 0;
        }
      else if (strcmp (key, "transaction") == 0)
        {
          /* pkg.Class.method;pkg.Other.method ('.' separates the method) */
          g_auto(GStrv) names = g_strsplit (value, ";", -1);
          GPtrArray *kept = g_ptr_array_new ();

          for (guint k = 0; names[k] != NULL; k++)
            {
              const char *dot = strrchr (names[k], '.');
              if (names[k][0] == '\0')
                continue;
              if (dot == NULL || dot == names[k] || dot[1] == '\0')
                {
                  *error = g_strdup_printf ("transaction: '%s' is not Class.method", names[k]);
                  g_ptr_array_free (kept, TRUE);
                  return FALSE;
                }
              g_ptr_array_add (kept, g_strdup (names[k]));
            }
          g_ptr_array_add (kept, NULL);
          g_strfreev (opts->transactions);
          opts->transactions = (char **) g_ptr_array_free (kept, FALSE);
        }
      else if (strcmp (key, "level") == 0)
        {
          if (!parse_number (key, value, 19, &v, error))
            return FALSE;
          opts->zstd_level = (int) v;
        }
      else
        {
          *error = g_strdup_printf ("unknown option '%s' (options: " KNOWN ")", key);
          return FALSE;
        }
    }

done:
  if (opts->sample_bytes > 0)
    {
      /* A sampled heap has no complete reference graph to walk. */
      if (opts->graph_every_set && opts->graph_every > 0)
        {
          *error = g_strdup ("graph-every needs full recording (it cannot be combined with sample-bytes)");
          return FALSE;
        }
      opts->graph_every = 0;
    }
  if (opts->containers && opts->sample_bytes > 0)
    {
      /* operations name objects by the ids only full recording gives out */
      *error = g_strdup ("containers needs full recording (it cannot be combined with sample-bytes)");
      return FALSE;
    }
  if (opts->output == NULL)
    opts->output = g_strdup_printf ("tidemark-%d.tmtrace", (int) getpid ());
  return TRUE;
}

void
tm_agent_options_clear (TmAgentOptions *opts)
{
  g_clear_pointer (&opts->output, g_free);
  g_clear_pointer (&opts->status, g_free);
  g_clear_pointer (&opts->transactions, g_strfreev);
}
