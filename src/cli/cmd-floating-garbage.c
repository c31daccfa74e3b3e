/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli floating-garbage: dead objects a collector still keeps,
 * per GC with a reference graph, and by type/site/thread/space at one GC. */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-vm-metrics.h"

#include <stdio.h>

int
tm_cmd_floating_garbage (int argc, char **argv)
{
  gint64 from_gc = 0, to_gc = 0, at_gc = 0;
  gint top = 10;
  gboolean json = FALSE;
  g_autofree char *classify = NULL;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &from_gc, "First GC of the window (default: the first)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &to_gc, "Last GC of the window (default: the last)", "B" },
    { "gc", 0, 0, G_OPTION_ARG_INT64, &at_gc,
      "Break down the floating garbage at this graph GC (default: the window's last graph GC)", "N" },
    { "classify", 0, 0, G_OPTION_ARG_STRING, &classify, "type, site, call-site, thread, space (default: type)", "C" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K largest groups (0: all; default 10)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("TRACE - dead objects kept by the collector at GCs with a reference graph");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace = NULL;
  g_autoptr(GArray) series = NULL;
  g_autoptr(GPtrArray) groups = NULL;
  g_autoptr(GError) error = NULL;
  TmClassifier c = TM_CLASSIFIER_TYPE;
  guint32 from, to, at = 0;
  const char *path;
  GString *s;
  int code = TM_EXIT_OK;
  guint n;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "floating-garbage", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("floating-garbage", argc, argv, &code)) == NULL)
    return code;
  if (top < 0)
    return tm_cli_usage_error ("floating-garbage", "--top must be 0 or more");
  if (classify && (!tm_classifier_from_string (classify, &c) || c == TM_CLASSIFIER_AGE))
    return tm_cli_usage_error ("floating-garbage", "unknown classifier '%s' (known: type, site, call-site, "
                               "thread, space)", classify);
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  if (!tm_cli_window ("floating-garbage", path, trace, from_gc, to_gc, &from, &to, &code))
    return code;
  series = tm_floating_garbage_series (trace, from, to, &error);
  if (series == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (at_gc > 0)
    {
      if (!tm_cli_check_gc ("floating-garbage", path, trace, at_gc, &code))
        return code;
      at = (guint32) at_gc;
    }
  else if (series->len > 0)
    at = g_array_index (series, TmFloatingPoint, series->len - 1).gc;
  if (at > 0)
    {
      groups = tm_floating_garbage_breakdown (tm_document_get_heap_cache (doc), at, c, NULL, &error);
      if (groups == NULL)
        return tm_cli_usage_error ("floating-garbage", "%s", error->message);
    }
  n = groups ? (top == 0 ? groups->len : MIN ((guint) top, groups->len)) : 0;

  s = g_string_new (NULL);
  if (json)
    {
      g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"complete\": %s, \"gcs\": [", from, to,
                              trace->complete ? "true" : "false");
      for (guint i = 0; i < series->len; i++)
        {
          const TmFloatingPoint *p = &g_array_index (series, TmFloatingPoint, i);
          g_string_append_printf (s, "%s{\"gc\": %u, \"live_objects\": %" G_GUINT64_FORMAT ", \"live_bytes\": %"
                                  G_GUINT64_FORMAT ", \"floating_objects\": %" G_GUINT64_FORMAT
                                  ", \"floating_bytes\": %" G_GUINT64_FORMAT "}", i ? ", " : "", p->gc,
                                  p->live_objects, p->live_bytes, p->floating_objects, p->floating_bytes);
        }
      g_string_append_printf (s, "], \"breakdown\": {\"gc\": %u, \"classifier\": \"%s\", \"groups\": [", at,
                              tm_classifier_to_string (c));
      for (guint i = 0; i < n; i++)
        {
          const TmFloatingGroup *g = g_ptr_array_index (groups, i);
          g_string_append (s, i ? ", {\"key\": " : "{\"key\": ");
          tm_json_append_string (s, g->key);
          g_string_append_printf (s, ", \"objects\": %" G_GUINT64_FORMAT ", \"bytes\": %" G_GUINT64_FORMAT "}",
                                  g->objects, g->bytes);
        }
      g_string_append (s, "]}}\n");
    }
  else
    {
      g_string_append_printf (s, "Floating garbage in %s, GCs %u..%u (%u GCs with a reference graph)\n\n",
                              path, from, to, series->len);
      g_string_append_printf (s, "%6s %12s %12s %8s\n", "gc", "live", "floating", "share");
      for (guint i = 0; i < series->len; i++)
        {
          const TmFloatingPoint *p = &g_array_index (series, TmFloatingPoint, i);
          g_autofree char *lb = tm_format_bytes ((double) p->live_bytes);
          g_autofree char *fb = tm_format_bytes ((double) p->floating_bytes);
          g_string_append_printf (s, "%6u %12s %12s %7.1f%%\n", p->gc, lb, fb,
                                  p->live_bytes ? 100.0 * p->floating_bytes / p->live_bytes : 0.0);
        }
      if (at > 0)
        g_string_append_printf (s, "\nAt GC %u by %s:\n", at, tm_classifier_to_string (c));
      for (guint i = 0; i < n; i++)
        {
          const TmFloatingGroup *g = g_ptr_array_index (groups, i);
          g_autofree char *b = tm_format_bytes ((double) g->bytes);
          g_string_append_printf (s, "%12s %10" G_GUINT64_FORMAT "  %s\n", b, g->objects, g->key);
        }
    }
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
  return TM_EXIT_OK;
}
