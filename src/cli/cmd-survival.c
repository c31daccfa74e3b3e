/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli survival: per GC, the objects that survived it (new ones
 * and all), the bytes promoted into the old spaces, and the age
 * distribution of the survivors (GCs survived, 1..15 and 16+). */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-vm-metrics.h"

#include <stdio.h>

static void
print_json (const TmTrace *trace, const TmSurvival *sv)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"complete\": %s, \"promotion_source\": \"%s\", "
                          "\"gcs\": [", sv->from_gc, sv->to_gc, trace->complete ? "true" : "false",
                          tm_promotion_source_to_string (sv->promotion_source));
  for (guint i = 0; i < sv->points->len; i++)
    {
      const TmSurvivalPoint *p = &g_array_index (sv->points, TmSurvivalPoint, i);

      g_string_append_printf (s, "%s{\"gc\": %u, \"kind\": \"%s\", \"survived_objects\": %" G_GUINT64_FORMAT
                              ", \"survived_bytes\": %" G_GUINT64_FORMAT ", \"live_objects\": %" G_GUINT64_FORMAT
                              ", \"live_bytes\": %" G_GUINT64_FORMAT ", \"promoted_bytes\": ",
                              i ? ", " : "", p->gc, tm_gc_kind_to_string (tm_trace_gc (trace, p->gc)->kind),
                              p->survived_objects, p->survived_bytes, p->live_objects, p->live_bytes);
      if (p->promoted_known)
        g_string_append_printf (s, "%" G_GUINT64_FORMAT, p->promoted_bytes);
      else
        g_string_append (s, "null");
      g_string_append (s, ", \"age_objects\": [");
      for (guint a = 0; a < TM_SURVIVAL_AGES; a++)
        g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, a ? ", " : "", p->age_objects[a]);
      g_string_append (s, "], \"age_bytes\": [");
      for (guint a = 0; a < TM_SURVIVAL_AGES; a++)
        g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, a ? ", " : "", p->age_bytes[a]);
      g_string_append (s, "]}");
    }
  g_string_append (s, "]}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_text (const char *path, const TmTrace *trace, const TmSurvival *sv)
{
  printf ("Survival in %s, GCs %u..%u (promotion: %s)\n\n", path, sv->from_gc, sv->to_gc,
          sv->promotion_source == TM_PROMOTION_FROM_USAGE ? "growth of the old spaces across young GCs"
                                                         : "unknown, the trace has no old space");
  printf ("%6s %-10s %12s %12s %12s %12s  %s\n", "gc", "kind", "new alive", "live", "live bytes", "promoted",
          "age 1 / 2 / 3 / 4+ (objects)");
  for (guint i = 0; i < sv->points->len; i++)
    {
      const TmSurvivalPoint *p = &g_array_index (sv->points, TmSurvivalPoint, i);
      g_autofree char *lb = tm_format_bytes ((double) p->live_bytes);
      g_autofree char *pb = p->promoted_known ? tm_format_bytes ((double) p->promoted_bytes) : g_strdup ("-");
      guint64 older = 0;

      for (guint a = 3; a < TM_SURVIVAL_AGES; a++)
        older += p->age_objects[a];
      printf ("%6u %-10s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %12s %12s  %" G_GUINT64_FORMAT
              " / %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT "\n",
              p->gc, tm_gc_kind_to_string (tm_trace_gc (trace, p->gc)->kind), p->survived_objects,
              p->live_objects, lb, pb, p->age_objects[0], p->age_objects[1], p->age_objects[2], older);
    }
}

int
tm_cmd_survival (int argc, char **argv)
{
  gint64 from_gc = 0, to_gc = 0;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &from_gc, "First GC of the window (default: the first)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &to_gc, "Last GC of the window (default: the last)", "B" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE - survivors, promotion and ages per GC");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace = NULL;
  g_autoptr(TmSurvival) sv = NULL;
  g_autoptr(GError) error = NULL;
  guint32 from, to;
  const char *path;
  int code = TM_EXIT_OK;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "survival", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("survival", argc, argv, &code)) == NULL)
    return code;
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  if (!tm_cli_window ("survival", path, trace, from_gc, to_gc, &from, &to, &code))
    return code;
  sv = tm_survival_compute (trace, from, to, NULL, &error);
  if (sv == NULL)
    return tm_cli_usage_error ("survival", "%s", error->message);
  if (json)
    print_json (trace, sv);
  else
    print_text (path, trace, sv);
  return TM_EXIT_OK;
}
