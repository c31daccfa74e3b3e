/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli allocs: objects and bytes allocated and freed per GC
 * interval by type, site, call-site or thread, top K plus Other
 * (VM-level metrics, tm-vm-metrics.h). */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-vm-metrics.h"

#include <stdio.h>

static void
json_values (GString *s, const char *name, const guint64 *v, guint n)
{
  g_string_append_printf (s, ", \"%s\": [", name);
  for (guint p = 0; p < n; p++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, p ? ", " : "", v[p]);
  g_string_append_c (s, ']');
}

static void
json_group (GString *s, const TmAllocSeries *series, const TmAllocGroup *g)
{
  g_string_append (s, "{\"key\": ");
  tm_json_append_string (s, g->key);
  g_string_append_printf (s, ", \"other\": %s, \"alloc_objects_total\": %" G_GUINT64_FORMAT
                          ", \"alloc_bytes_total\": %" G_GUINT64_FORMAT
                          ", \"freed_objects_total\": %" G_GUINT64_FORMAT
                          ", \"freed_bytes_total\": %" G_GUINT64_FORMAT,
                          g->is_other ? "true" : "false", g->sum_alloc_objects, g->sum_alloc_bytes,
                          g->sum_freed_objects, g->sum_freed_bytes);
  json_values (s, "alloc_objects", g->alloc_objects, series->n_points);
  json_values (s, "alloc_bytes", g->alloc_bytes, series->n_points);
  json_values (s, "freed_objects", g->freed_objects, series->n_points);
  json_values (s, "freed_bytes", g->freed_bytes, series->n_points);
  g_string_append_c (s, '}');
}

static void
print_json (const TmTrace *trace, const TmAllocSeries *series, GPtrArray *shown, TmAllocSort sort)
{
  const TmAllocRequest *r = &series->request;
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"sort\": \"%s\", \"complete\": %s, "
                          "\"level\": \"%s\", \"groups\": %u, \"drill\": [",
                          r->from_gc, r->to_gc, tm_alloc_sort_to_string (sort),
                          trace->complete ? "true" : "false", tm_classifier_to_string (series->level),
                          series->groups->len);
  for (guint i = 0; i < r->n_drill; i++)
    {
      if (i)
        g_string_append (s, ", ");
      tm_json_append_string (s, r->drill[i]);
    }
  g_string_append (s, "], \"gcs\": [");
  for (guint p = 0; p < series->n_points; p++)
    g_string_append_printf (s, "%s%u", p ? ", " : "", series->gcs[p]);
  g_string_append (s, "], \"end_ns\": [");
  for (guint p = 0; p < series->n_points; p++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, p ? ", " : "", series->end_ns[p]);
  g_string_append (s, "], \"interval_ns\": [");
  for (guint p = 0; p < series->n_points; p++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, p ? ", " : "", series->interval_ns[p]);
  g_string_append (s, "], \"total\": ");
  json_group (s, series, &series->total);
  g_string_append (s, ", \"series\": [");
  for (guint i = 0; i < shown->len; i++)
    {
      if (i)
        g_string_append (s, ", ");
      json_group (s, series, g_ptr_array_index (shown, i));
    }
  g_string_append (s, "]}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static char *
csv_field (const char *text)
{
  GString *o = g_string_new ("\"");

  for (const char *c = text; *c; c++)
    {
      if (*c == '"')
        g_string_append_c (o, '"');
      g_string_append_c (o, *c);
    }
  g_string_append_c (o, '"');
  return g_string_free (o, FALSE);
}

static void
print_csv (const TmAllocSeries *series, GPtrArray *shown)
{
  printf ("gc,end_ns,interval_ns,group,alloc_objects,alloc_bytes,freed_objects,freed_bytes\n");
  for (guint i = 0; i < shown->len; i++)
    {
      const TmAllocGroup *g = g_ptr_array_index (shown, i);
      g_autofree char *key = csv_field (g->key);

      for (guint p = 0; p < series->n_points; p++)
        printf ("%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n",
                series->gcs[p], series->end_ns[p], series->interval_ns[p], key, g->alloc_objects[p],
                g->alloc_bytes[p], g->freed_objects[p], g->freed_bytes[p]);
    }
}

static void
print_text (const char *path, const TmTrace *trace, const TmAllocSeries *series, GPtrArray *shown,
            TmAllocSort sort)
{
  const TmAllocRequest *r = &series->request;
  guint64 span = 0;
  const char *unit = g_strcmp0 (trace->format, "heaptrack") == 0 ? "time points" : "GCs";

  for (guint p = 0; p < series->n_points; p++)
    span += series->interval_ns[p];
  printf ("Allocations and deaths in %s, %s %u..%u (%.3f s), by %s, sorted by %s\n\n", path, unit,
          r->from_gc, r->to_gc, span / 1e9, tm_classifier_to_string (series->level),
          tm_alloc_sort_to_string (sort));
  printf ("%4s %12s %12s %12s %12s %12s  %s\n", "rank", "allocated", "objects", "freed", "objects",
          "alloc rate", "group");
  for (guint i = 0; i <= shown->len; i++)
    {
      const TmAllocGroup *g = i < shown->len ? g_ptr_array_index (shown, i) : &series->total;
      g_autofree char *ab = tm_format_bytes ((double) g->sum_alloc_bytes);
      g_autofree char *fb = tm_format_bytes ((double) g->sum_freed_bytes);
      g_autofree char *rate = tm_format_bytes (span ? g->sum_alloc_bytes * 1e9 / span : 0);
      g_autofree char *rank = i < shown->len && !g->is_other ? g_strdup_printf ("%u", i + 1) : g_strdup ("");

      printf ("%4s %12s %12" G_GUINT64_FORMAT " %12s %12" G_GUINT64_FORMAT " %10s/s  %s\n", rank, ab,
              g->sum_alloc_objects, fb, g->sum_freed_objects, rate, g->key);
    }
}

int
tm_cmd_allocs (int argc, char **argv)
{
  gint64 from_gc = 0, to_gc = 0;
  gint top = 10;
  gboolean json = FALSE, csv = FALSE, no_other = FALSE;
  g_autofree char *classify = NULL, *sort_name = NULL, *drill = NULL;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &from_gc, "First GC of the window (default: the first)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &to_gc, "Last GC of the window (default: the last)", "B" },
    { "classify", 0, 0, G_OPTION_ARG_STRING, &classify, "type, package, site, call-site, thread (default: type)", "C1[,C2]" },
    { "drill", 0, 0, G_OPTION_ARG_STRING, &drill, "Groups inside this group ('/'-separated keys)", "KEY[/KEY]" },
    { "sort", 0, 0, G_OPTION_ARG_STRING, &sort_name,
      "alloc-bytes, alloc-objects, freed-bytes, freed-objects, net-bytes (default: alloc-bytes)", "S" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K first groups (0: all; default 10)", "K" },
    { "no-other", 0, 0, G_OPTION_ARG_NONE, &no_other, "No 'Other' group summing the rest", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "Print CSV: one row per group and GC", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("TRACE - objects and bytes allocated and freed per GC interval");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace = NULL;
  g_autoptr(TmAllocSeries) series = NULL;
  g_autoptr(GPtrArray) shown = NULL;
  g_autoptr(GError) error = NULL;
  TmAllocRequest req;
  TmAllocSort sort = TM_ALLOC_SORT_ALLOC_BYTES;
  const char *path;
  int code = TM_EXIT_OK;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "allocs", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("allocs", argc, argv, &code)) == NULL)
    return code;
  if (json && csv)
    return tm_cli_usage_error ("allocs", "use either --json or --csv");
  if (top < 0)
    return tm_cli_usage_error ("allocs", "--top must be 0 or more");
  if (sort_name && !tm_alloc_sort_from_string (sort_name, &sort))
    return tm_cli_usage_error ("allocs", "unknown sort '%s' (known: alloc-bytes, alloc-objects, freed-bytes, "
                               "freed-objects, net-bytes)", sort_name);
  tm_alloc_request_init (&req);
  if (!tm_alloc_request_parse (&req, classify, drill, &error))
    {
      code = tm_cli_usage_error ("allocs", "%s", error->message);
      goto out;
    }
  if ((doc = tm_cli_open (path, &code)) == NULL)
    goto out;
  trace = tm_document_get_trace (doc);
  if (!tm_cli_window ("allocs", path, trace, from_gc, to_gc, &req.from_gc, &req.to_gc, &code))
    goto out;
  series = tm_alloc_series_compute (trace, &req, NULL, &error);
  if (series == NULL)
    {
      code = tm_cli_usage_error ("allocs", "%s", error->message);
      goto out;
    }
  shown = tm_alloc_series_select (series, sort, top, !no_other);
  if (json)
    print_json (trace, series, shown, sort);
  else if (csv)
    print_csv (series, shown);
  else
    print_text (path, trace, series, shown, sort);
out:
  tm_alloc_request_clear (&req);
  return code;
}
