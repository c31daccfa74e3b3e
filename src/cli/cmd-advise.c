/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli advise: GC configuration advice from one recording or GC
 * log (rules in docs/advice.md), as text or JSON. */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-advice-report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void
append_similar_json (GString *s, const TmAdviceReport *sim)
{
  g_string_append (s, ", \"similar\": [");
  for (guint i = 0; i < sim->n_near; i++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append (s, i ? ", {\"name\": " : "{\"name\": ");
      tm_json_append_string (s, sim->near[i].entry->name);
      g_string_append_printf (s, ", \"distance\": %s}",
                              g_ascii_formatd (buf, sizeof buf, "%.4f", sim->near[i].distance));
    }
  g_string_append_printf (s, "], \"close\": %s, \"suggested\": {", sim->close ? "true" : "false");
  for (guint g = 0, n = 0; g < TM_N_GOALS; g++)
    if (sim->has_suggestion[g])
      {
        g_autofree char *c = tm_gc_config_to_string (&sim->suggest[g]);
        g_autofree char *f = tm_gc_config_flags_line (&sim->suggest[g], sim->live_bytes);
        g_string_append_printf (s, "%s\"%s\": {\"config\": ", n++ ? ", " : "", tm_goal_to_string ((TmGoal) g));
        tm_json_append_string (s, c);
        g_string_append (s, ", \"flags\": ");
        tm_json_append_string (s, f);
        g_string_append_c (s, '}');
      }
  g_string_append (s, "}, \"decision_tree\": {");
  for (guint g = 0, n = 0; g < TM_N_GOALS; g++)
    if (sim->has_decision[g])
      {
        const TmKbDecision *d = &sim->decision[g];
        g_autofree char *c = tm_gc_config_to_string (&d->config);

        g_string_append_printf (s, "%s\"%s\": {\"config\": ", n++ ? ", " : "", tm_goal_to_string ((TmGoal) g));
        tm_json_append_string (s, c);
        g_string_append (s, ", \"conditions\": [");
        for (guint i = 0; i < d->conditions->len; i++)
          {
            g_string_append (s, i ? ", " : "");
            tm_json_append_string (s, d->conditions->pdata[i]);
          }
        g_string_append (s, "], \"like\": [");
        for (guint i = 0; i < d->like->len; i++)
          {
            g_string_append (s, i ? ", " : "");
            tm_json_append_string (s, d->like->pdata[i]);
          }
        g_string_append (s, "]}");
      }
  g_string_append_c (s, '}');
}

static void
print_similar (const TmAdviceReport *sim)
{
  gboolean close = sim->close;
  GString *s = g_string_new (close ? "Resembles (knowledge base):"
                                   : "Resembles no known workload closely (knowledge base; nearest):");

  for (guint i = 0; i < sim->n_near; i++)
    g_string_append_printf (s, "%s %s (distance %.2f)", i ? "," : "", sim->near[i].entry->name,
                            sim->near[i].distance);
  puts (s->str);
  g_string_free (s, TRUE);
  for (guint g = 0; g < TM_N_GOALS; g++)
    if (sim->has_suggestion[g])
      {
        g_autofree char *c = tm_gc_config_to_string (&sim->suggest[g]);
        g_autofree char *f = tm_gc_config_flags_line (&sim->suggest[g], sim->live_bytes);
        printf ("  to start from for %-10s %s%s%s%s\n", tm_goal_to_string ((TmGoal) g), c,
                *f ? " (" : "", f, *f ? ")" : "");
      }
  /* the decision tree says why: the conditions down to its leaf (only
   * for a run like the known ones: far from all of them it is a guess) */
  for (guint g = 0; g < TM_N_GOALS; g++)
    if (close && sim->has_decision[g])
      {
        const TmKbDecision *d = &sim->decision[g];
        g_autofree char *c = tm_gc_config_to_string (&d->config);
        GString *why = g_string_new (NULL);

        for (guint i = 0; i < d->conditions->len; i++)
          g_string_append_printf (why, "%s%s", i ? ", " : "", (char *) d->conditions->pdata[i]);
        for (guint i = 0; i < d->like->len; i++)
          g_string_append_printf (why, "%s%s", i ? ", " : " (like ", (char *) d->like->pdata[i]);
        g_string_append (why, d->like->len ? ")" : "");
        printf ("  decision tree for %-10s %s: %s\n", tm_goal_to_string ((TmGoal) g), c,
                why->len ? why->str : "the only configuration known");
        g_string_free (why, TRUE);
      }
  if (close)
    printf ("  (measure before you keep it: tidemark-cli tune)\n");
  putchar ('\n');
}

static void
append_gcs (GString *s, const TmAdvice *a)
{
  g_string_append_c (s, '[');
  for (guint i = 0; i < a->gcs->len; i++)
    g_string_append_printf (s, "%s%u", i ? ", " : "", g_array_index (a->gcs, guint32, i));
  g_string_append_c (s, ']');
}

static void
append_num (GString *s, const char *key, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (s, "\"%s\": %s", key,
                          isfinite (v) ? g_ascii_formatd (buf, sizeof buf, "%.6g", v) : "null");
}

static void
append_stats (GString *s, const TmGcStats *st)
{
  g_string_append_printf (s, "{\"first_gc\": %u, \"last_gc\": %u, \"gcs\": %u, \"minor\": %u, \"full\": %u, "
                          "\"mixed\": %u, \"concurrent\": %u, \"collector\": ",
                          st->first_gc, st->last_gc, st->n_gcs, st->n_minor, st->n_major, st->n_mixed,
                          st->n_concurrent);
  tm_json_append_string (s, st->collector);
  {
    const struct { const char *key; double v; } nums[] = {
      { "duration_ns", st->duration_ns }, { "throughput", st->throughput },
      { "pause_total_ns", st->pause_total_ns }, { "pause_p50_ns", st->pause_p50_ns },
      { "pause_p99_ns", st->pause_p99_ns }, { "pause_max_ns", st->pause_max_ns },
      { "alloc_rate", st->alloc_rate },
    };
    for (guint i = 0; i < G_N_ELEMENTS (nums); i++)
      {
        g_string_append (s, ", ");
        append_num (s, nums[i].key, nums[i].v);
      }
  }
  g_string_append_printf (s, ", \"live_max_bytes\": %" G_GUINT64_FORMAT ", \"max_committed_bytes\": %"
                          G_GUINT64_FORMAT "}", st->live_max_bytes, st->max_committed_bytes);
}

static void
print_json (const TmTrace *trace, const TmAdviceParams *params, const TmAdviceReport *sim)
{
  GPtrArray *advice = sim->advice;

  GString *s = g_string_new ("{\"goal\": ");

  tm_json_append_string (s, tm_advice_goal_to_string (params->goal));
  g_string_append (s, ", \"stats\": ");
  append_stats (s, &sim->stats);
  g_string_append (s, ", \"advice\": [");
  for (guint i = 0; i < advice->len; i++)
    {
      const TmAdvice *a = advice->pdata[i];

      g_string_append (s, i ? ",\n  {\"rule\": " : "\n  {\"rule\": ");
      tm_json_append_string (s, a->rule);
      g_string_append (s, ", \"title\": ");
      tm_json_append_string (s, a->title);
      g_string_append (s, ", \"finding\": ");
      tm_json_append_string (s, a->finding);
      g_string_append (s, ", \"action\": ");
      tm_json_append_string (s, a->action);
      g_string_append (s, ", \"flags\": ");
      tm_json_append_string (s, a->flags);
      g_string_append (s, ", ");
      append_num (s, "severity", a->severity);
      g_string_append_printf (s, ", \"n_gcs\": %u, \"gcs\": ", a->n_gcs);
      append_gcs (s, a);
      g_string_append_c (s, '}');
    }
  g_string_append (s, advice->len ? "\n]" : "]");
  if (sim->kb)
    append_similar_json (s, sim);
  g_string_append (s, ", \"complete\": ");
  g_string_append (s, trace->complete ? "true" : "false");
  g_string_append (s, ", \"warnings\": ");
  tm_cli_json_warnings (s, trace);
  g_string_append (s, "}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_gc_list (const TmAdvice *a)
{
  GString *s = g_string_new ("    GCs: ");

  guint shown = MIN (a->gcs->len, 12);

  for (guint i = 0; i < shown; i++)
    g_string_append_printf (s, "%s%u", i ? ", " : "", g_array_index (a->gcs, guint32, i));
  if (a->n_gcs > shown)
    g_string_append_printf (s, " ... (%u in all)", a->n_gcs);
  puts (s->str);
  g_string_free (s, TRUE);
}

static void
print_text (const char *path, const TmAdviceParams *params, const TmAdviceReport *sim)
{
  const TmGcStats *st = &sim->stats;
  GPtrArray *advice = sim->advice;
  g_autofree char *p50 = tm_format_duration (st->pause_p50_ns);
  g_autofree char *p99 = tm_format_duration (st->pause_p99_ns);
  g_autofree char *pmax = tm_format_duration (st->pause_max_ns);
  g_autofree char *rate = tm_format_bytes (st->alloc_rate);

  printf ("GC advice for %s (GCs %u-%u, goal: %s)\n", path, st->first_gc, st->last_gc,
          tm_advice_goal_to_string (params->goal));
  printf ("%u GCs (%u minor, %u full), %s; throughput %.1f%%, pauses p50 %s, p99 %s, max %s; "
          "allocation %s/s\n\n",
          st->n_gcs, st->n_minor, st->n_major, st->collector[0] ? st->collector : "collector unknown",
          st->throughput * 100, p50, p99, pmax, rate);
  if (sim->kb && sim->n_near > 0)
    print_similar (sim);
  if (advice->len == 0)
    {
      printf ("No advice: nothing in this run points to a configuration problem.\n");
      return;
    }
  for (guint i = 0; i < advice->len; i++)
    {
      const TmAdvice *a = advice->pdata[i];

      printf ("%u. %s [%s]\n", i + 1, a->title, a->rule);
      tm_cli_print_wrapped (a->finding, 4, 78);
      tm_cli_print_wrapped (a->action, 4, 78);
      if (a->flags[0])
        printf ("    Try: %s\n", a->flags);
      print_gc_list (a);
      if (i + 1 < advice->len)
        putchar ('\n');
    }
}

int
tm_cmd_advise (int argc, char **argv)
{
  TmAdviceParams params;
  gboolean json = FALSE;
  const char *goal = NULL, *kb_opt = NULL;
  gboolean no_kb = FALSE;
  g_autofree char *kb_path = NULL;
  gint first = 0, last = 0;
  guint32 from = 0, to = 0;   /* 0, 0: the whole run */
  g_autoptr(GOptionContext) ctx = NULL;
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace = NULL;
  g_autoptr(TmAdviceReport) report = NULL;
  const char *path;
  int code = 0;

  tm_advice_params_init (&params);
  {
    GOptionEntry entries[] = {
      { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
      { "goal", 0, 0, G_OPTION_ARG_STRING, &goal, "What matters most: throughput, latency or footprint", "GOAL" },
      { "pause-target", 0, 0, G_OPTION_ARG_DOUBLE, &params.pause_target_ms,
        "Latency goal: pauses longer than this are too long (default 100)", "MS" },
      { "from-gc", 0, 0, G_OPTION_ARG_INT, &first, "First GC of the range to advise on (default: the first)", "A" },
      { "to-gc", 0, 0, G_OPTION_ARG_INT, &last, "Last GC of the range (default: the last)", "B" },
      { "kb", 0, 0, G_OPTION_ARG_FILENAME, &kb_opt, "Knowledge base of known workloads (default: the bundled one)", "FILE" },
      { "no-kb", 0, 0, G_OPTION_ARG_NONE, &no_kb, "Do not compare with known workloads", NULL },
      { NULL }
    };

    ctx = g_option_context_new ("FILE - GC configuration advice, with the GCs that show each problem");
    g_option_context_add_main_entries (ctx, entries, NULL);
    g_option_context_set_description (ctx,
      "Rules: leak, heap-too-small, premature-promotion, survivor-overflow,\n"
      "young-too-small, explicit-gc, metaspace, humongous, evacuation-failure,\n"
      "latency-pauses (with --goal latency). Each says what it measured, the\n"
      "flag to try and the GCs that show it; none fires on a healthy run.\n"
      "With a knowledge base (data/gc-kb.ini, docs/tune.md) it also names the known\n"
      "workloads the input resembles and the configurations they suggest.\n"
      "Rules and thresholds: docs/advice.md.");
    if (!tm_cli_parse (ctx, "advise", &argc, &argv, &code))
      return code;
  }
  if ((path = tm_cli_single_input ("advise", argc, argv, &code)) == NULL)
    return code;
  if (goal && !tm_advice_goal_from_string (goal, &params.goal))
    return tm_cli_usage_error ("advise", "unknown goal '%s' (throughput, latency or footprint)", goal);
  if (!(params.pause_target_ms > 0 && isfinite (params.pause_target_ms)))
    return tm_cli_usage_error ("advise", "--pause-target must be positive");

  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  if ((first || last) && !tm_cli_window ("advise", path, trace, first, last, &from, &to, &code))
    return code;

  if (!no_kb)
    kb_path = tm_kb_find (kb_opt);
  report = tm_document_advice (doc, from, to, &params, kb_path);
  if (report->kb_error != NULL && kb_opt)
    {
      fprintf (stderr, "%s\n", report->kb_error);
      return TM_EXIT_INPUT;
    }
  if (report->kb_error != NULL)
    fprintf (stderr, "tidemark-cli advise: %s (going on without it)\n", report->kb_error);
  if (json)
    print_json (trace, &params, report);
  else
    print_text (path, &params, report);
  return TM_EXIT_OK;
}
