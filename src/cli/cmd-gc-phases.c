/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli gc-phases: a GC log's concurrent phases and cycles, the
 * pauses of concurrent collectors, ZGC stalls and Shenandoah's
 * degenerated and full GCs, each listed and totalled per kind and name. */
#include "tm-config.h"
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-gc-phases.h"

#include <stdio.h>
#include <string.h>

static void
print_json (const TmTrace *t, const TmGcPhaseSummary *s, int only_kind, gboolean list)
{
  GString *o = g_string_new (NULL);
  guint n = 0;

  g_string_append (o, "{\"per_kind\": {");
  for (guint k = 0; k < TM_GC_PHASE_N_KINDS; k++)
    {
      if (only_kind >= 0 && (guint) only_kind != k)
        continue;
      g_string_append_printf (o, "%s\n  \"%s\": {\"count\": %u, \"total_ns\": %" G_GUINT64_FORMAT "}", k && only_kind < 0 ? "," : "",
                              tm_gc_phase_kind_to_string (k), s->n_per_kind[k], s->ns_per_kind[k]);
    }
  g_string_append (o, "},\n \"by_name\": [");
  for (guint i = 0; i < s->totals->len; i++)
    {
      const TmGcPhaseTotal *x = &g_array_index (s->totals, TmGcPhaseTotal, i);
      if (only_kind >= 0 && (guint) only_kind != x->kind)
        continue;
      g_string_append_printf (o, "%s\n  {\"kind\": \"%s\", \"name\": ", n++ ? "," : "", tm_gc_phase_kind_to_string (x->kind));
      tm_json_append_string (o, x->name);
      g_string_append_printf (o, ", \"nested\": %s, \"count\": %u, \"total_ns\": %" G_GUINT64_FORMAT
                              ", \"max_ns\": %" G_GUINT64_FORMAT "}",
                              x->depth > 0 ? "true" : "false", x->count, x->total_ns, x->max_ns);
    }
  g_string_append (o, "]");
  if (list)
    {
      g_string_append (o, ",\n \"phases\": [");
      n = 0;
      for (guint i = s->first_phase; i < s->last_phase; i++)
        {
          const TmGcPhase *ph = &g_array_index (t->gc_phases, TmGcPhase, i);
          if (only_kind >= 0 && (guint) only_kind != ph->kind)
            continue;
          g_string_append_printf (o, "%s\n  {\"kind\": \"%s\", \"name\": ", n++ ? "," : "",
                                  tm_gc_phase_kind_to_string (ph->kind));
          tm_json_append_string (o, ph->name);
          g_string_append (o, ", \"detail\": ");
          tm_json_append_string (o, ph->detail);
          g_string_append_printf (o, ", \"gc_id\": %" G_GINT64_FORMAT ", \"depth\": %u, \"start_ns\": %" G_GUINT64_FORMAT
                                  ", \"end_ns\": %" G_GUINT64_FORMAT ", \"duration_ns\": %" G_GUINT64_FORMAT "}",
                                  ph->jvm_gc_id, ph->depth, ph->start_ns, ph->end_ns, ph->end_ns - ph->start_ns);
        }
      g_string_append (o, "]");
    }
  g_string_append (o, ",\n ");
  tm_cli_json_print_end (o, t);
}

static void
print_text (const char *path, const TmTrace *t, const TmGcPhaseSummary *s, int only_kind, gboolean list)
{
  printf ("%-12s %-40s %7s %12s %12s\n", "kind", "name", "count", "total", "max");
  for (guint i = 0; i < s->totals->len; i++)
    {
      const TmGcPhaseTotal *x = &g_array_index (s->totals, TmGcPhaseTotal, i);
      g_autofree char *total = tm_format_duration ((double) x->total_ns);
      g_autofree char *max = tm_format_duration ((double) x->max_ns);
      g_autofree char *name = g_strdup_printf ("%s%s", x->depth > 0 ? "  " : "", x->name);

      if (only_kind >= 0 && (guint) only_kind != x->kind)
        continue;
      printf ("%-12s %-40s %7u %12s %12s\n", tm_gc_phase_kind_to_string (x->kind), name, x->count, total, max);
    }
  if (s->totals->len == 0)
    printf ("(%s logs no concurrent phases, cycles or stalls)\n", path);
  if (!list)
    return;
  printf ("\n%12s %12s  %-12s %6s  %s\n", "start", "duration", "kind", "GC", "name");
  for (guint i = s->first_phase; i < s->last_phase; i++)
    {
      const TmGcPhase *ph = &g_array_index (t->gc_phases, TmGcPhase, i);
      g_autofree char *at = tm_format_duration ((double) ph->start_ns);
      g_autofree char *d = tm_format_duration ((double) (ph->end_ns - ph->start_ns));
      g_autofree char *id = ph->jvm_gc_id >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, ph->jvm_gc_id) : g_strdup ("-");

      if (only_kind >= 0 && (guint) only_kind != ph->kind)
        continue;
      printf ("%12s %12s  %-12s %6s  %*s%s%s%s%s\n", at, d, tm_gc_phase_kind_to_string (ph->kind), id,
              (int) ph->depth * 2, "", ph->name, *ph->detail ? " (" : "", ph->detail, *ph->detail ? ")" : "");
    }
}

int
tm_cmd_gc_phases (int argc, char **argv)
{
  gboolean json = FALSE, list = FALSE;
  gint from = 0, to = 0;
  g_autofree char *kind_name = NULL;
  int code = TM_EXIT_OK, only_kind = -1;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT, &from, "First GC of the range (default: the first)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT, &to, "Last GC of the range (default: the last)", "B" },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind_name, "Only this kind: cycle, concurrent, pause, degenerated, full, stall", "KIND" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, "Also list every phase", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE - concurrent phases, cycles, stalls and degenerated GCs of a GC log");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;
  TmGcPhaseSummary s;
  const char *path;
  guint32 first = 1, last = 1;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "gc-phases", &argc, &argv, &code))
    return code;
  if (kind_name != NULL)
    {
      for (guint k = 0; k < TM_GC_PHASE_N_KINDS; k++)
        if (strcmp (kind_name, tm_gc_phase_kind_to_string (k)) == 0)
          only_kind = (int) k;
      if (only_kind < 0)
        return tm_cli_usage_error ("gc-phases", "unknown kind '%s' (cycle, concurrent, pause, degenerated, full, stall)",
                                   kind_name);
    }
  path = tm_cli_single_input ("gc-phases", argc, argv, &code);
  if (path == NULL)
    return code;
  doc = tm_cli_open (path, &code);
  if (doc == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  /* a log with stalls but no completed GC still lists them */
  if ((from != 0 || to != 0 || tm_trace_n_gcs (trace) > 0) &&
      !tm_cli_window ("gc-phases", path, trace, from, to, &first, &last, &code))
    return code;
  tm_gc_phase_summary_compute (trace, first, last, &s);
  if (json)
    print_json (trace, &s, only_kind, list);
  else
    print_text (path, trace, &s, only_kind, list);
  tm_gc_phase_summary_clear (&s);
  return TM_EXIT_OK;
}
