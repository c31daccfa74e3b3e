/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli chart: renders the application's charts into a PNG with
 * the shared renderer (src/render), so the file is what the app shows.
 * Kinds are a table: views added later (trend, ds-growth) add a row. */
#include "tm-config.h"
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-chart.h"
#include "tm-windows.h"
#include "cmd-trend.h"   /* --kind trend */
#include "cmd-ds-growth.h"
#include "tm-render-ds-growth.h"

#include <stdio.h>
#include <string.h>

int tm_cmd_chart (int argc, char **argv);

typedef struct {
  const char *png;
  int         width;
  int         height;
  gint64      from_gc;
  gint64      to_gc;
  gboolean    no_windows;
  gboolean    dark;
  char      **ds_files;
} ChartArgs;

typedef int (*ChartFunc) (const char *path, TmDocument *doc, const char *kind_name, const ChartArgs *args);

static int render_timeline_chart (const char *path, TmDocument *doc, const char *kind_name, const ChartArgs *args);
static int render_trend_chart (const char *path, TmDocument *doc, const char *kind_name, const ChartArgs *args);
static int render_ds_growth_chart (const char *path, TmDocument *doc, const char *kind_name, const ChartArgs *args);

static const struct {
  const char *name;
  ChartFunc   render;   /* NULL: reserved for a view not built yet */
} chart_kinds[] = {
  { "memory",    render_timeline_chart },
  { "objects",   render_timeline_chart },
  { "overhead",  render_timeline_chart },
  { "allocations", render_timeline_chart },   /* per second, temporary ones too */
  { "rss",       render_timeline_chart },   /* resident memory (heaptrack) */
  { "pauses",    render_timeline_chart },   /* each pause at its time, log scale */
  { "pause-histogram", render_timeline_chart },
  { "trend",     render_trend_chart },   /* TrendViz */
  { "ds-growth", render_ds_growth_chart },   /* data structure growth */
};

static int
render_trend_chart (const char *path, TmDocument *doc, const char *kind_name, const ChartArgs *args)
{
  return tm_cli_trend_chart (path, doc, args->png, args->width, args->height,
                             args->from_gc, args->to_gc, args->dark);
}

/* The bar chart of the app's growth view: top 10 structures by retained
 * heap growth portion between --from-gc and --to-gc. */
static int
render_ds_growth_chart (const char *path, TmDocument *doc, const char *kind_name, const ChartArgs *args)
{
  TmTrace *trace = tm_document_get_trace (doc);
  TmDsl *dsl;
  g_autoptr(TmDsGrowth) growth = NULL;
  g_autoptr(GError) error = NULL;
  TmDsGrowthChartOptions options;
  int code = TM_EXIT_OK;

  if (args->from_gc <= 0 || args->to_gc <= 0 || args->from_gc >= args->to_gc)
    return tm_cli_usage_error ("chart", "--kind ds-growth needs --from-gc A and --to-gc B with A < B");
  if (!tm_cli_check_gc ("chart", path, trace, args->to_gc, &code))
    return code;
  if ((dsl = tm_cli_load_descriptions (args->ds_files, &code)) == NULL)
    return code;
  tm_document_set_dsl (doc, dsl);
  growth = tm_document_ds_growth (doc, (guint32) args->from_gc, (guint32) args->to_gc, NULL, NULL, NULL, &error);
  if (growth == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  tm_ds_growth_chart_options_init (&options, args->width, args->height);
  if (args->dark)
    {
      options.dark = TRUE;
      options.foreground = (TmColor) { 1, 1, 1, 1 };
      options.background = (TmColor) { 0x24 / 255.0, 0x24 / 255.0, 0x24 / 255.0, 1 };
    }
  if (!tm_ds_growth_chart_write_png (trace, growth, &options, args->png, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return TM_EXIT_INPUT;
    }
  return TM_EXIT_OK;
}

static int
render_timeline_chart (const char *path, TmDocument *doc, const char *kind_name, const ChartArgs *args)
{
  TmTimelineModel *model = tm_document_get_timeline (doc);
  g_autoptr(GPtrArray) windows = NULL;
  g_autofree TmChartBand *bands = NULL;
  g_autoptr(GError) error = NULL;
  TmChartOptions options;
  TmChartKind kind = TM_CHART_MEMORY;
  TmWindowParams params;
  guint n_bands = 0;

  tm_chart_kind_from_string (kind_name, &kind);
  if (kind == TM_CHART_RSS && model->n_committed == 0)
    {
      fprintf (stderr, "%s: no resident memory (RSS) or committed heap is recorded in this file\n", path);
      return TM_EXIT_INPUT;
    }
  tm_chart_options_init (&options, kind, model, args->width, args->height);

  /* a GC log knows nothing before its first event, as in the app */
  if (g_strcmp0 (tm_document_get_trace (doc)->format, "gc-log") == 0 &&
      options.view_end_ns > tm_timeline_model_first_event (model))
    options.view_start_ns = tm_timeline_model_first_event (model);
  if (args->from_gc > 0 || args->to_gc > 0)
    {
      gint64 a = args->from_gc > 0 ? args->from_gc : 1;
      gint64 b = args->to_gc > 0 ? args->to_gc : (gint64) model->n_gcs;

      if (model->n_gcs == 0 || a > b || b > (gint64) model->n_gcs)
        return tm_cli_usage_error ("chart", "GC range %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
                                   " is outside 1..%u", a, b, model->n_gcs);
      options.view_start_ns = model->start_ns[a - 1];
      options.view_end_ns = model->end_ns[b - 1];
      if (options.view_end_ns <= options.view_start_ns)
        options.view_end_ns = options.view_start_ns + 1;
    }

  if (!args->no_windows)
    {
      tm_window_params_init (&params);
      windows = tm_document_windows (doc, &params, FALSE, NULL, NULL);
      bands = tm_chart_bands_from_windows (windows, &n_bands);
      options.bands = bands;
      options.n_bands = n_bands;
    }

  if (args->dark)
    {
      options.dark = TRUE;
      options.foreground = (TmColor) { 1, 1, 1, 1 };
      options.background = (TmColor) { 0x24 / 255.0, 0x24 / 255.0, 0x24 / 255.0, 1 };
    }

  if (!tm_chart_write_png (model, &options, args->png, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return TM_EXIT_INPUT;
    }
  (void) path;
  return TM_EXIT_OK;
}

int
tm_cmd_chart (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *kind = NULL;
  g_autofree char *png = NULL;
  g_autoptr(TmDocument) doc = NULL;
  ChartArgs args = { .width = 1200, .height = 400 };
  int exit_code = TM_EXIT_OK;
  const char *path;
  GOptionEntry entries[] = {
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind, "Chart: memory, objects, overhead, allocations, rss, pauses, pause-histogram, trend, ds-growth", "KIND" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png, "Write the chart to this PNG file", "FILE" },
    { "width", 0, 0, G_OPTION_ARG_INT, &args.width, "Width in pixels (default 1200)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &args.height, "Height in pixels (default 400)", "H" },
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &args.from_gc, "Show from this GC on", "N" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &args.to_gc, "Show up to this GC", "N" },
    { "no-windows", 0, 0, G_OPTION_ARG_NONE, &args.no_windows, "Do not draw suspicious windows", NULL },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &args.dark, "Dark background", NULL },
    { "ds", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args.ds_files, "ds-growth: also load these data structure descriptions", "FILE" },
    { NULL }
  };
  ChartFunc render = NULL;
  gboolean known = FALSE;

  context = g_option_context_new ("TRACE - render a chart into a PNG");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_add_group (context, tm_cli_trend_option_group ());
  if (!tm_cli_parse (context, "chart", &argc, &argv, &exit_code))
    return exit_code;
  if ((path = tm_cli_single_input ("chart", argc, argv, &exit_code)) == NULL)
    return exit_code;
  if (kind == NULL)
    kind = g_strdup ("memory");
  for (gsize i = 0; i < G_N_ELEMENTS (chart_kinds); i++)
    if (strcmp (kind, chart_kinds[i].name) == 0)
      {
        known = TRUE;
        render = chart_kinds[i].render;
      }
  if (!known)
    return tm_cli_usage_error ("chart", "unknown chart kind '%s' (memory, objects, overhead, allocations, rss, pauses, pause-histogram, trend, ds-growth)", kind);
  if (render == NULL)
    return tm_cli_usage_error ("chart", "chart kind '%s' is not available in this build yet", kind);
  if (png == NULL)
    return tm_cli_usage_error ("chart", "missing --png FILE");
  if (args.width < 16 || args.width > 16384 || args.height < 16 || args.height > 16384)
    return tm_cli_usage_error ("chart", "--width and --height must be between 16 and 16384");
  args.png = png;

  if ((doc = tm_cli_open (path, &exit_code)) == NULL)
    {
      g_strfreev (args.ds_files);
      return exit_code;
    }
  exit_code = render (path, doc, kind, &args);
  g_strfreev (args.ds_files);
  return exit_code;
}
