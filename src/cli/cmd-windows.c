/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli windows: suspicious time windows (MPLR 2019; rules in
 * docs/windows.md), as a table or JSON. */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-windows.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* registered in tidemark-cli.c */
int tm_cmd_windows (int argc, char **argv);

static void
print_json (const TmTrace *trace, const TmWindowParams *params, GPtrArray *windows)
{
  GString *s = g_string_new ("{\"windows\": [");

  for (guint i = 0; i < windows->len; i++)
    {
      const TmWindow *w = windows->pdata[i];

      g_string_append (s, i ? ",\n  {" : "\n  {");
      g_string_append (s, "\"kind\": ");
      tm_json_append_string (s, tm_window_kind_to_string (w->kind));
      g_string_append_printf (s, ", \"first_gc\": %u, \"last_gc\": %u, \"start_ns\": %" G_GUINT64_FORMAT
                              ", \"end_ns\": %" G_GUINT64_FORMAT ", \"score\": ",
                              w->first_gc, w->last_gc, w->start_ns, w->end_ns);
      tm_cli_json_double (s, w->score);
      g_string_append (s, ", \"unit\": ");
      tm_json_append_string (s, w->unit);
      g_string_append_printf (s, ", \"suspicious\": %s, \"explanation\": ", w->suspicious ? "true" : "false");
      tm_json_append_string (s, w->explanation);
      g_string_append (s, ", \"series\": ");
      if (w->series)
        tm_json_append_string (s, w->series);
      else
        g_string_append (s, "null");
      g_string_append (s, ", \"threshold\": ");
      tm_cli_json_double (s, w->threshold);
      if (w->series)
        {
          g_string_append (s, ", \"value_start\": ");
          tm_cli_json_double (s, w->value_start);
          g_string_append (s, ", \"value_end\": ");
          tm_cli_json_double (s, w->value_end);
        }
      else
        {
          g_string_append (s, ", \"amount\": ");
          tm_cli_json_double (s, w->amount);
        }
      if (w->series)
        {
          g_string_append (s, ", \"growth\": ");
          if (w->growth)
            tm_json_append_string (s, w->growth);
          else
            g_string_append (s, "null");
          if (w->plateau_gc)
            g_string_append_printf (s, ", \"plateau_gc\": %u", w->plateau_gc);
        }
      g_string_append_c (s, '}');
    }
  g_string_append (s, windows->len ? "\n], \"leak_series\": " : "], \"leak_series\": ");
  tm_json_append_string (s, tm_windows_leak_series_label (trace, params));
  g_string_append_printf (s, ", \"gcs\": %u, \"complete\": %s, \"note\": ",
                          tm_trace_n_gcs (trace), trace->complete ? "true" : "false");
  {
    g_autofree char *note = tm_windows_evidence_note (trace, params);

    if (note)
      tm_json_append_string (s, note);
    else
      g_string_append (s, "null");
  }
  g_string_append (s, ", \"warnings\": ");
  tm_cli_json_warnings (s, trace);
  g_string_append (s, "}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static char *
format_score (const TmWindow *w)
{
  if (g_strcmp0 (w->unit, "fraction") == 0)
    return g_strdup_printf ("%.1f%%", w->score * 100);
  {
    g_autofree char *b = tm_format_bytes (w->score);
    return g_strdup_printf ("%s/s", b);
  }
}

static void
print_text (const char *path, const TmTrace *trace, const TmWindowParams *params,
            GPtrArray *windows, gboolean all)
{
  g_autofree char *note = tm_windows_evidence_note (trace, params);
  gboolean heaptrack = g_strcmp0 (trace->format, "heaptrack") == 0;

  printf ("Suspicious time windows of %s\n", path);
  printf ("(%u %s; leaks judged on %s)\n\n", tm_trace_n_gcs (trace), heaptrack ? "time points" : "GCs",
          tm_windows_leak_series_label (trace, params));
  if (note)
    {
      tm_cli_print_wrapped (note, 0, 78);
      putchar ('\n');
    }
  if (windows->len == 0)
    {
      if (all)
        printf ("Too few %s to look for windows.\n", heaptrack ? "time points" : "GCs");
      else
        printf ("No suspicious time windows. Run with --all to see the closest candidates.\n");
      return;
    }

  printf ("%-16s %-13s %-11s %-11s %-13s %s\n", "KIND", heaptrack ? "POINTS" : "GCS", "FROM", "TO", "SCORE", "SUSPICIOUS");
  for (guint i = 0; i < windows->len; i++)
    {
      const TmWindow *w = windows->pdata[i];
      g_autofree char *gcs = g_strdup_printf ("%u-%u", w->first_gc, w->last_gc);
      g_autofree char *from = tm_format_duration ((double) w->start_ns);
      g_autofree char *to = tm_format_duration ((double) w->end_ns);
      g_autofree char *score = format_score (w);

      if (i > 0)
        putchar ('\n');
      printf ("%-16s %-13s %-11s %-11s %-13s %s\n", tm_window_kind_to_string (w->kind), gcs, from, to,
              score, w->suspicious ? "yes" : "no");
      tm_cli_print_wrapped (w->explanation, 4, 78);
    }
}

int
tm_cmd_windows (int argc, char **argv)
{
  TmWindowParams params;
  gboolean json = FALSE, all = FALSE, paper = FALSE;
  gint min_gcs = -1, max_gcs = -1, min_evidence = -1;
  double continue_ratio = -1, teardown_drop = -1, backlog_old = -1;
  g_autoptr(GOptionContext) ctx = NULL;
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;
  g_autoptr(GPtrArray) windows = NULL;
  const char *path;
  int code = 0;

  tm_window_params_init (&params);
  {
    GOptionEntry entries[] = {
      { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
      { "all", 0, 0, G_OPTION_ARG_NONE, &all, "Also show the candidates below the thresholds", NULL },
      { "overhead-threshold", 0, 0, G_OPTION_ARG_DOUBLE, &params.overhead_threshold,
        "GC overhead (pause time / window length) at which a window is suspicious (default 0.10)", "FRACTION" },
      { "churn-factor", 0, 0, G_OPTION_ARG_DOUBLE, &params.churn_median_factor,
        "Churn hotspot: times the median churn of same-size windows (default 3)", "X" },
      { "churn-floor", 0, 0, G_OPTION_ARG_DOUBLE, &params.churn_min_bytes_per_s,
        "Churn hotspot: at least this many freed bytes per second (default 1048576)", "BYTES" },
      { "min-gcs", 0, 0, G_OPTION_ARG_INT, &min_gcs,
        "Fewest GCs in a GC overhead or churn window (default 5)", "N" },
      { "max-gcs", 0, 0, G_OPTION_ARG_INT, &max_gcs,
        "Most GCs in a GC overhead or churn window (default 50)", "N" },
      { "leak-tolerance", 0, 0, G_OPTION_ARG_DOUBLE, &params.leak_tolerance,
        "A leak window tolerates points at least this fraction of its maximum (default 0.75)", "FRACTION" },
      { "leak-min-coverage", 0, 0, G_OPTION_ARG_DOUBLE, &params.leak_min_coverage,
        "A leak window covers at least this fraction of the samples (default 0.10)", "FRACTION" },
      { "leak-min-growth", 0, 0, G_OPTION_ARG_DOUBLE, &params.leak_min_growth,
        "A leak window grows by at least this fraction of its start value (default 0.10)", "FRACTION" },
      { "leak-regression-slack", 0, 0, G_OPTION_ARG_DOUBLE, &params.leak_regression_slack,
        "leak-regression: the longest window whose slope is within this fraction of the steepest"
        " (default 0.10; 0: the steepest)", "FRACTION" },
      { "paper-rules", 0, 0, G_OPTION_ARG_NONE, &paper,
        "The paper's rules: no teardown, minimum evidence, continuation test or age classification;"
        " the median-of-windows churn baseline (other options apply on top)", NULL },
      { "min-evidence", 0, 0, G_OPTION_ARG_INT, &min_evidence,
        "Fewest leak-series points (leaks) or GCs (churn) to judge at all (default 15)", "N" },
      { "continue-ratio", 0, 0, G_OPTION_ARG_DOUBLE, &continue_ratio,
        "A leak's last third grows at least this fraction as fast as the whole window; otherwise it is"
        " warm-up (default 0.25; 0: off)", "FRACTION" },
      { "teardown-drop", 0, 0, G_OPTION_ARG_DOUBLE, &teardown_drop,
        "A final drop by this fraction of the peak in the last 10% of the run is teardown at exit"
        " (default 0.5; 0: off)", "FRACTION" },
      { "backlog-old-fraction", 0, 0, G_OPTION_ARG_DOUBLE, &backlog_old,
        "Growth is a leak when objects born in the window's first half hold this fraction of it,"
        " a backlog below (default 0.2; 0: off)", "FRACTION" },
      { NULL }
    };

    ctx = g_option_context_new ("TRACE - suspicious time windows: leaks, GC overhead, churn");
    g_option_context_add_main_entries (ctx, entries, NULL);
    g_option_context_set_description (ctx,
      "Kinds: leak (longest growth window), leak-peak (its fastest-growing part),\n"
      "leak-regression (steepest fitted trend to the end), gc-overhead, churn.\n"
      "Leaks are judged on reachable memory when the trace has reference graphs,\n"
      "otherwise on heap occupancy after GC (heaptrack: heap in use). Growth that\n"
      "levels off is warm-up, young objects in growing numbers a backlog; the\n"
      "teardown at exit is left out. Rules: docs/windows.md.");
    if (!tm_cli_parse (ctx, "windows", &argc, &argv, &code))
      return code;
  }
  if ((path = tm_cli_single_input ("windows", argc, argv, &code)) == NULL)
    return code;

  if (paper)
    {
      /* the paper's rules under whatever else was given */
      TmWindowParams p;

      tm_window_params_init_paper (&p);
      params.min_evidence = p.min_evidence;
      params.min_graph_evidence = p.min_graph_evidence;
      params.churn_all_freed = p.churn_all_freed;
      params.teardown_min_drop = p.teardown_min_drop;
      params.leak_continue_ratio = p.leak_continue_ratio;
      params.backlog_old_fraction = p.backlog_old_fraction;
      params.churn_count_median = p.churn_count_median;
    }
  if (min_evidence != -1)
    {
      if (min_evidence < 0)
        return tm_cli_usage_error ("windows", "--min-evidence must not be negative");
      params.min_evidence = (guint) min_evidence;
    }
  if (continue_ratio != -1)
    {
      if (!(continue_ratio >= 0 && continue_ratio <= 1))
        return tm_cli_usage_error ("windows", "--continue-ratio must be in [0, 1]");
      params.leak_continue_ratio = continue_ratio;
    }
  if (teardown_drop != -1)
    {
      if (!(teardown_drop >= 0 && teardown_drop < 1))
        return tm_cli_usage_error ("windows", "--teardown-drop must be in [0, 1)");
      params.teardown_min_drop = teardown_drop;
    }
  if (backlog_old != -1)
    {
      if (!(backlog_old >= 0 && backlog_old <= 1))
        return tm_cli_usage_error ("windows", "--backlog-old-fraction must be in [0, 1]");
      params.backlog_old_fraction = backlog_old;
    }

  if (min_gcs != -1)
    {
      if (min_gcs < 1)
        return tm_cli_usage_error ("windows", "--min-gcs must be at least 1");
      params.overhead_min_gcs = params.churn_min_gcs = (guint) min_gcs;
    }
  if (max_gcs != -1)
    {
      if (max_gcs < 1)
        return tm_cli_usage_error ("windows", "--max-gcs must be at least 1");
      params.overhead_max_gcs = params.churn_max_gcs = (guint) max_gcs;
    }
  if (params.overhead_min_gcs > params.overhead_max_gcs)
    return tm_cli_usage_error ("windows", "--min-gcs (%u) is larger than --max-gcs (%u)",
                               params.overhead_min_gcs, params.overhead_max_gcs);
  if (!(params.overhead_threshold > 0 && params.overhead_threshold <= 1))
    return tm_cli_usage_error ("windows", "--overhead-threshold must be in (0, 1]");
  if (!(params.churn_median_factor > 0 && isfinite (params.churn_median_factor)))
    return tm_cli_usage_error ("windows", "--churn-factor must be positive");
  if (!(params.churn_min_bytes_per_s >= 0 && isfinite (params.churn_min_bytes_per_s)))
    return tm_cli_usage_error ("windows", "--churn-floor must not be negative");
  if (!(params.leak_tolerance > 0 && params.leak_tolerance <= 1))
    return tm_cli_usage_error ("windows", "--leak-tolerance must be in (0, 1]");
  if (!(params.leak_min_coverage >= 0 && params.leak_min_coverage <= 1))
    return tm_cli_usage_error ("windows", "--leak-min-coverage must be in [0, 1]");
  if (!(params.leak_min_growth >= 0 && isfinite (params.leak_min_growth)))
    return tm_cli_usage_error ("windows", "--leak-min-growth must not be negative");
  if (!(params.leak_regression_slack >= 0 && params.leak_regression_slack < 1))
    return tm_cli_usage_error ("windows", "--leak-regression-slack must be in [0, 1)");

  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);

  windows = tm_document_windows (doc, &params, all, NULL, NULL);
  if (json)
    print_json (trace, &params, windows);
  else
    print_text (path, trace, &params, windows, all);
  return TM_EXIT_OK;
}
