/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli trend: TrendViz series over a window — object groups over
 * time, ranked by a sorting strategy, top K plus Other, drill-down
 * (cli.md). */
#include "cmd-trend.h"
#include "cmd-ds-growth.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void
json_number (GString *s, double v)
{
  if (isinf (v))
    g_string_append (s, "null");
  else if (v == floor (v) && fabs (v) < 9e15)
    g_string_append_printf (s, "%.0f", v);
  else
    g_string_append_printf (s, "%.6g", v);
}

static void
json_points (GString *s, const TmTrend *trend, const double *values)
{
  g_string_append_c (s, '[');
  for (guint p = 0; p < trend->n_points; p++)
    {
      g_string_append_printf (s, "%s[%" G_GUINT64_FORMAT ", ", p ? ", " : "", trend->times_ns[p]);
      json_number (s, values[p]);
      g_string_append_c (s, ']');
    }
  g_string_append_c (s, ']');
}

static void
print_json (TmTrace *trace, TmTrend *trend, GPtrArray *shown, TmTrendSort sort, guint top,
            gboolean other)
{
  const TmTrendRequest *r = &trend->request;
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"metric\": \"%s\", \"sort\": \"%s\", "
                          "\"top\": %u, \"other\": %s, \"complete\": %s, \"classifiers\": [",
                          r->from_gc, r->to_gc, tm_trend_metric_to_string (r->metric),
                          tm_trend_sort_to_string (sort), top, other ? "true" : "false",
                          trace->complete ? "true" : "false");
  for (guint i = 0; i < r->depth; i++)
    g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", tm_chain_classifier_to_string (r->chain[i]));
  g_string_append (s, "], \"drill\": [");
  for (guint i = 0; i < r->n_drill; i++)
    {
      if (i)
        g_string_append (s, ", ");
      tm_json_append_string (s, r->drill[i]);
    }
  g_string_append_printf (s, "], \"level\": \"%s\", \"groups\": %u, \"gcs\": [",
                          tm_chain_classifier_to_string (trend->level_classifier), trend->groups->len);
  for (guint p = 0; p < trend->n_points; p++)
    g_string_append_printf (s, "%s%u", p ? ", " : "", trend->gcs[p]);
  g_string_append (s, "], \"total\": ");
  json_points (s, trend, trend->total);
  g_string_append (s, ", \"series\": [");
  for (guint i = 0; i < shown->len; i++)
    {
      const TmTrendSeries *ser = g_ptr_array_index (shown, i);

      g_string_append (s, i ? ", {\"key\": " : "{\"key\": ");
      tm_json_append_string (s, ser->key);
      g_string_append_printf (s, ", \"other\": %s, \"rank_value\": ", ser->is_other ? "true" : "false");
      json_number (s, tm_trend_series_rank_value (trend, ser, sort));
      g_string_append (s, ", \"points\": ");
      json_points (s, trend, ser->values);
      g_string_append_c (s, '}');
    }
  g_string_append (s, "]}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_csv (TmTrend *trend, GPtrArray *shown)
{
  g_autofree char *csv = tm_trend_to_csv (trend, shown);
  fputs (csv, stdout);
}

static char *
format_value (TmTrendMetric metric, double v)
{
  if (tm_trend_metric_is_bytes (metric))
    {
      g_autofree char *b = tm_format_bytes (fabs (v));
      return g_strdup_printf ("%s%s", v < 0 ? "-" : "", b);
    }
  return g_strdup_printf ("%.0f", v);
}

static void
print_text (const char *path, TmTrend *trend, GPtrArray *shown, TmTrendSort sort)
{
  const TmTrendRequest *r = &trend->request;
  guint last = trend->n_points - 1;

  printf ("TrendViz of %s, GCs %u..%u: %u classified GCs (%u..%u), %u groups by %s",
          path, r->from_gc, r->to_gc, trend->n_points, trend->gcs[0], trend->gcs[last],
          trend->groups->len, tm_chain_classifier_to_string (trend->level_classifier));
  if (r->n_drill > 0)
    {
      printf (" inside ");
      for (guint i = 0; i < r->n_drill; i++)
        printf ("%s%s", i ? " / " : "", r->drill[i]);
    }
  printf ("\nMetric %s, sorted by %s\n\n", tm_trend_metric_to_string (r->metric),
          tm_trend_sort_to_string (sort));
  printf ("%4s %12s %12s %12s %12s %9s  %s\n", "rank", "start", "end", "average", "growth", "rel", "group");
  for (guint i = 0; i < shown->len; i++)
    {
      const TmTrendSeries *s = g_ptr_array_index (shown, i);
      double first = s->values[0], end = s->values[last];
      double avg = tm_trend_series_rank_value (trend, s, TM_TREND_SORT_AVERAGE);
      double rel = tm_trend_series_rank_value (trend, s, TM_TREND_SORT_REL_GROWTH);
      g_autofree char *a = format_value (r->metric, first);
      g_autofree char *b = format_value (r->metric, end);
      g_autofree char *c = format_value (r->metric, avg);
      g_autofree char *d = format_value (r->metric, end - first);
      g_autofree char *rank = s->is_other ? g_strdup ("") : g_strdup_printf ("%u", i + 1);
      g_autofree char *relt = isinf (rel) ? g_strdup ("new") : g_strdup_printf ("%+.0f%%", 100 * rel);

      printf ("%4s %12s %12s %12s %12s %9s  %s\n", rank, a, b, c, d, relt, s->key);
    }
}

/* Options shared by `trend` and `chart --kind trend`. */
static struct {
  gint      top;
  gint      every;
  double    interval;
  gboolean  no_other;
  char     *classify;
  char     *metric;
  char     *sort;
  char     *drill;
  char    **ds_files;
  TmDsl    *dsl;        /* the descriptions, loaded when a level needs them */
} opt = { TM_TREND_DEFAULT_TOP, 0, 0, FALSE, NULL, NULL, NULL, NULL, NULL, NULL };

static const GOptionEntry view_entries[] = {
  { "classify", 0, 0, G_OPTION_ARG_STRING, &opt.classify,
    "Classifier chain: type, site, call-site, thread, space, age, transaction, leaves, deep-leaves, containing-ds, root-path "
    "(default: type; data-structure and root-path classifiers only at GCs with a reference graph)", "C1,C2,..." },
  { "metric", 0, 0, G_OPTION_ARG_STRING, &opt.metric,
    "objects, bytes, deep-objects, deep-bytes, retained-objects, retained-bytes (default: bytes; "
    "deep and retained only at GCs with a reference graph)", "M" },
  { "sort", 0, 0, G_OPTION_ARG_STRING, &opt.sort,
    "start, end, average, abs-growth, rel-growth (default: abs-growth)", "S" },
  { "top", 0, 0, G_OPTION_ARG_INT, &opt.top, "Show the K first groups (0: all; default 5)", "K" },
  { "no-other", 0, 0, G_OPTION_ARG_NONE, &opt.no_other, "No 'Other' series summing the rest", NULL },
  { "every", 0, 0, G_OPTION_ARG_INT, &opt.every, "Classify every N-th GC of the window (default 1)", "N" },
  { "interval", 0, 0, G_OPTION_ARG_DOUBLE, &opt.interval,
    "Classify the next GC at least SECONDS after the last classified one", "SECONDS" },
  { "drill", 0, 0, G_OPTION_ARG_STRING, &opt.drill,
    "Series of the children of this group (one key per level, '/'-separated; '\\/' for a '/' in a key)", "KEY[/KEY...]" },
  { "ds", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt.ds_files,
    "Also load these data structure descriptions (repeatable)", "FILE" },
  { NULL }
};

static void
clear_options (void)
{
  g_clear_pointer (&opt.classify, g_free);
  g_clear_pointer (&opt.metric, g_free);
  g_clear_pointer (&opt.sort, g_free);
  g_clear_pointer (&opt.drill, g_free);
  g_clear_pointer (&opt.ds_files, g_strfreev);
  g_clear_pointer (&opt.dsl, tm_dsl_free);
}

/* Checks the view options and fills the request (window left to the
 * caller); a usage error's exit code, or TM_EXIT_OK. */
static int
options_to_request (const char *command, TmTrendRequest *req, TmTrendSort *sort)
{
  g_autoptr(GError) error = NULL;

  tm_trend_request_init (req);
  *sort = TM_TREND_DEFAULT_SORT;
  if (opt.top < 0)
    return tm_cli_usage_error (command, "--top must be 0 or more");
  if (opt.every < 0 || (opt.every > 0 && opt.interval != 0))
    return tm_cli_usage_error (command, "use either --every N (N >= 1) or --interval SECONDS");
  if (opt.interval < 0 || !isfinite (opt.interval) || opt.interval > 1e9)
    return tm_cli_usage_error (command, "--interval must be a number of seconds, 0 or more");
  req->every = opt.every > 0 ? opt.every : 1;
  req->interval_ns = (guint64) (opt.interval * 1e9);
  if (!tm_classify_chain_parse (opt.classify ? opt.classify : "type", req->chain, &req->depth, &error))
    return tm_cli_usage_error (command, "--classify: %s", error->message);
  if (opt.metric && !tm_trend_metric_from_string (opt.metric, &req->metric))
    return tm_cli_usage_error (command, "unknown metric '%s' (known: objects, bytes, deep-objects, "
                               "deep-bytes, retained-objects, retained-bytes)", opt.metric);
  if (opt.sort && !tm_trend_sort_from_string (opt.sort, sort))
    return tm_cli_usage_error (command, "unknown sort '%s' (known: start, end, average, abs-growth, rel-growth)",
                               opt.sort);
  if (opt.drill && !tm_trend_request_set_drill (req, opt.drill, &error))
    return tm_cli_usage_error (command, "--drill: %s (add the next level to --classify)", error->message);
  if (tm_trend_request_uses_ds (req))
    {
      int code;

      if ((opt.dsl = tm_cli_load_descriptions (opt.ds_files, &code)) == NULL)
        return code;
    }
  return TM_EXIT_OK;
}

/* Runs the request on the window [from_gc, to_gc] of a loaded trace. */
static int
compute (const char *command, const char *path, TmDocument *doc, TmTrendRequest *req,
         guint from_gc, guint to_gc, TmTrend **out)
{
  g_autoptr(GError) error = NULL;
  TmTrace *trace = tm_document_get_trace (doc);
  int code;

  if (!tm_cli_check_gc (command, path, trace, from_gc, &code))
    return code;
  req->from_gc = from_gc;
  /* a window reaching past the end of a trace cut short is clipped */
  req->to_gc = MIN (to_gc, tm_trace_n_gcs (trace));

  if (opt.dsl != NULL)
    tm_document_set_dsl (doc, g_steal_pointer (&opt.dsl));
  *out = tm_document_trend (doc, req, NULL, NULL, NULL, &error);
  if (*out == NULL)
    {
      if (g_error_matches (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT))
        return tm_cli_usage_error (command, "%s", error->message);
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (tm_trend_metric_needs_graph (req->metric))
    fprintf (stderr, "note: %s: %s is known only at GCs with a reference graph: %u of GCs %u..%u classified\n",
             path, tm_trend_metric_to_string (req->metric), (*out)->n_points, req->from_gc, req->to_gc);
  else if (tm_trend_request_uses_ds (req))
    fprintf (stderr, "note: %s: data structures are detected only at GCs with a reference graph: "
             "%u of GCs %u..%u classified\n", path, (*out)->n_points, req->from_gc, req->to_gc);
  else if (tm_trend_request_needs_graph (req))
    fprintf (stderr, "note: %s: root paths are known only at GCs with a reference graph: "
             "%u of GCs %u..%u classified\n", path, (*out)->n_points, req->from_gc, req->to_gc);
  return TM_EXIT_OK;
}

int
tm_cmd_trend (int argc, char **argv)
{
  gint from_gc = 0, to_gc = 0;
  gboolean json = FALSE, csv = FALSE;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT, &from_gc, "First GC of the window (required)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT, &to_gc, "Last GC of the window (required)", "B" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "Print CSV: one row per classified GC", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("TRACE --from-gc A --to-gc B - TrendViz: object groups over a window");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;
  g_autoptr(TmTrend) trend = NULL;
  g_autoptr(GPtrArray) shown = NULL;
  TmTrendRequest req;
  TmTrendSort sort;
  const char *path;
  int code = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_main_entries (ctx, view_entries, NULL);
  if (!tm_cli_parse (ctx, "trend", &argc, &argv, &code))
    goto out;
  if ((path = tm_cli_single_input ("trend", argc, argv, &code)) == NULL)
    goto out;
  if (from_gc <= 0 || to_gc <= 0)
    {
      code = tm_cli_usage_error ("trend", "--from-gc A and --to-gc B are required (GC numbers, 1 or more)");
      goto out;
    }
  if (from_gc > to_gc)
    {
      code = tm_cli_usage_error ("trend", "--from-gc %d is after --to-gc %d", from_gc, to_gc);
      goto out;
    }
  if (json && csv)
    {
      code = tm_cli_usage_error ("trend", "use either --json or --csv");
      goto out;
    }
  if ((code = options_to_request ("trend", &req, &sort)) != TM_EXIT_OK)
    goto out_req;
  if ((doc = tm_cli_open (path, &code)) == NULL)
    goto out_req;
  trace = tm_document_get_trace (doc);
  if ((code = compute ("trend", path, doc, &req, from_gc, to_gc, &trend)) != TM_EXIT_OK)
    goto out_req;

  shown = tm_trend_select (trend, sort, opt.top, !opt.no_other);
  if (json)
    print_json (trace, trend, shown, sort, opt.top, !opt.no_other);
  else if (csv)
    print_csv (trend, shown);
  else
    print_text (path, trend, shown, sort);

out_req:
  tm_trend_request_clear (&req);
out:
  clear_options ();
  return code;
}

GOptionGroup *
tm_cli_trend_option_group (void)
{
  GOptionGroup *group = g_option_group_new ("trend", "Options of --kind trend:", "Show trend chart options",
                                            NULL, NULL);
  g_option_group_add_entries (group, view_entries);
  return group;
}

int
tm_cli_trend_chart (const char *path, TmDocument *doc, const char *png, int width, int height,
                    gint64 from_gc, gint64 to_gc, gboolean dark)
{
  g_autoptr(TmTrend) trend = NULL;
  g_autoptr(GPtrArray) shown = NULL;
  g_autoptr(GError) error = NULL;
  TmTrendChartOptions options;
  TmTrendRequest req;
  TmTrendSort sort;
  guint n = tm_trace_n_gcs (tm_document_get_trace (doc));
  int code;

  if ((code = options_to_request ("chart", &req, &sort)) != TM_EXIT_OK)
    goto out;
  if (n == 0 || from_gc < 0 || to_gc < 0 || (to_gc > 0 && from_gc > to_gc))
    {
      code = tm_cli_usage_error ("chart", "GC range %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
                                 " is outside 1..%u", from_gc, to_gc, n);
      goto out;
    }
  /* the whole trace unless a window is given */
  if ((code = compute ("chart", path, doc, &req, from_gc > 0 ? (guint) MIN (from_gc, G_MAXUINT32) : 1,
                       to_gc > 0 ? (guint) MIN (to_gc, G_MAXUINT32) : n, &trend)) != TM_EXIT_OK)
    goto out;

  shown = tm_trend_select (trend, sort, opt.top, !opt.no_other);
  tm_trend_chart_options_init (&options, width, height);
  if (dark)
    {
      options.dark = TRUE;
      options.foreground = (TmColor) { 1, 1, 1, 1 };
      options.background = (TmColor) { 0x24 / 255.0, 0x24 / 255.0, 0x24 / 255.0, 1 };
    }
  if (!tm_trend_chart_write_png (trend, shown, &options, png, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      code = TM_EXIT_INPUT;
    }

out:
  tm_trend_request_clear (&req);
  clear_options ();
  return code;
}
