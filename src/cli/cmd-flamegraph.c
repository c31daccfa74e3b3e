/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli flamegraph: the app's flame graph of allocation costs by
 * call stack, as PNG or SVG. */
#include "cli-calls.h"
#include "cli-commands.h"

#include <stdio.h>
#include <string.h>

#include "tm-render-flame.h"

int
tm_cmd_flamegraph (int argc, char **argv)
{
  g_autofree char *metric_name = NULL, *png = NULL, *svg = NULL, *search = NULL;
  gboolean bottom_up = FALSE;
  gint width = 1200, height = 0;
  gint64 from_gc = 0, to_gc = 0;
  GOptionEntry entries[] = {
    { "metric", 0, 0, G_OPTION_ARG_STRING, &metric_name, "allocations (default), temporary, peak, leaked or allocated", "COST" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png, "Write a PNG image", "FILE" },
    { "svg", 0, 0, G_OPTION_ARG_FILENAME, &svg, "Write an SVG document", "FILE" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Width in pixels (default 1200)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, "Height in pixels (default: every level of the tree)", "H" },
    { "bottom-up", 0, 0, G_OPTION_ARG_NONE, &bottom_up, "Allocating functions at the base instead of entry points", NULL },
    { "search", 0, 0, G_OPTION_ARG_STRING, &search, "Highlight functions containing TEXT", "TEXT" },
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &from_gc, "A window from GC (or heaptrack time point) A ...", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &to_gc, "... to B: what it allocated; leaked: what it kept; peak: live after B", "B" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("FILE - flame graph of allocation costs by call stack");
  g_auto(TmCliCalls) calls = { 0 };
  g_autoptr(TmCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL, *base = NULL;
  TmFlameOptions options = { 0 };
  TmCostKind metric = TM_COST_ALLOCATIONS;
  const char *path;
  int code = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "flamegraph", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("flamegraph", argc, argv, &code)) == NULL)
    return code;
  if (metric_name != NULL && !tm_cost_kind_from_string (metric_name, &metric))
    return tm_cli_usage_error ("flamegraph", "unknown --metric '%s' (allocations, temporary, peak, leaked, allocated)",
                               metric_name);
  if ((png == NULL) == (svg == NULL))
    return tm_cli_usage_error ("flamegraph", "give one of --png FILE or --svg FILE");
  if (from_gc < 0 || to_gc < 0)
    return tm_cli_usage_error ("flamegraph", "--from-gc and --to-gc must be 1 or more");
  if (!tm_cli_load_calls ("flamegraph", path, from_gc, to_gc, &calls, &code))
    return code;

  tree = tm_call_tree_new (calls.calls, bottom_up ? TM_CALL_TREE_BOTTOM_UP : TM_CALL_TREE_TOP_DOWN);
  base = g_path_get_basename (path);
  title = g_strdup_printf ("%s by call stack%s — %s", tm_cost_kind_label (metric), bottom_up ? " (bottom-up)" : "", base);
  options.metric = metric;
  options.title = title;
  options.search = search;
  if (height <= 0)
    height = (gint) tm_render_flame_height (tree, 120, 8000);
  if (!tm_render_flame_write (tree, &options, width, height, svg != NULL, svg ? svg : png, &error))
    {
      fprintf (stderr, "tidemark-cli flamegraph: %s\n", error->message);
      return error->domain == G_FILE_ERROR ? TM_EXIT_INPUT : TM_EXIT_USAGE;
    }
  return TM_EXIT_OK;
}
