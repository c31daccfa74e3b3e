/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli timeline: one row per GC. */
#include "cli-common.h"
#include "cli-commands.h"

#include <stdio.h>

/* Allocations in the interval before GC i (from the previous GC's start
 * to this one's), and heaptrack's temporary ones among them. */
static guint64
interval_allocations (const TmTrace *t, guint i, gboolean temporary)
{
  const TmGc *gc = &g_array_index (t->gcs, TmGc, i);
  const TmGc *prev = i > 0 ? &g_array_index (t->gcs, TmGc, i - 1) : NULL;
  guint64 now = temporary ? gc->temporary_before : gc->allocations_before;
  guint64 before = prev == NULL ? 0 : temporary ? prev->temporary_before : prev->allocations_before;

  return now > before ? now - before : 0;
}

static gboolean
is_heaptrack (const TmTrace *t)
{
  return g_strcmp0 (t->format, "heaptrack") == 0;
}

static void
print_json (const TmTrace *t)
{
  GString *s = g_string_sized_new (256 + t->gcs->len * 256);

  g_string_append (s, "{\"complete\": ");
  g_string_append (s, t->complete ? "true" : "false");
  g_string_append (s, ", \"gcs\": [");
  for (guint i = 0; i < t->gcs->len; i++)
    {
      const TmGc *gc = &g_array_index (t->gcs, TmGc, i);
      guint64 freed = gc->used_before > gc->used_after ? gc->used_before - gc->used_after : 0;

      g_string_append (s, i ? ",\n  " : "\n  ");
      g_string_append_printf (s, "{\"id\": %u, \"start_ns\": %" G_GUINT64_FORMAT ", \"end_ns\": %" G_GUINT64_FORMAT
                                 ", \"kind\": \"%s\", \"collector\": ",
                              gc->id, gc->start_ns, gc->end_ns, tm_gc_kind_to_string (gc->kind));
      tm_json_append_string (s, gc->collector);
      g_string_append (s, ", \"cause\": ");
      tm_json_append_string (s, gc->cause);
      g_string_append_printf (s, ", \"pause_ns\": %" G_GUINT64_FORMAT ", \"used_before\": %" G_GUINT64_FORMAT
                                 ", \"used_after\": %" G_GUINT64_FORMAT ", \"committed_after\": %" G_GUINT64_FORMAT
                                 ", \"freed_bytes\": %" G_GUINT64_FORMAT ", \"live_objects\": %" G_GUINT64_FORMAT
                                 ", \"live_bytes\": %" G_GUINT64_FORMAT,
                              gc->pause_ns, gc->used_before, gc->used_after, gc->committed_after, freed,
                              gc->live_objects, gc->live_bytes);
      g_string_append_printf (s, ", \"allocations\": %" G_GUINT64_FORMAT, interval_allocations (t, i, FALSE));
      if (is_heaptrack (t))
        {
          g_string_append_printf (s, ", \"temporary\": %" G_GUINT64_FORMAT, interval_allocations (t, i, TRUE));
          if (gc->committed_after > 0)
            g_string_append_printf (s, ", \"rss_bytes\": %" G_GUINT64_FORMAT, gc->committed_after);
          else
            g_string_append (s, ", \"rss_bytes\": null");
        }
      if (gc->has_graph)
        g_string_append_printf (s, ", \"reachable_bytes\": %" G_GUINT64_FORMAT ", \"reachable_objects\": %" G_GUINT64_FORMAT,
                                gc->reachable_bytes, gc->reachable_objects);
      else
        g_string_append (s, ", \"reachable_bytes\": null, \"reachable_objects\": null");
      g_string_append_printf (s, ", \"graph\": \"%s\"",
                              gc->has_graph ? "complete" : gc->graph_failed ? "failed" : "none");
      if (gc->has_graph && gc->graph_context != TM_GRAPH_AT_GC)
        g_string_append_printf (s, ", \"graph_context\": \"%s\"",
                                gc->graph_context == TM_GRAPH_AT_OOM ? "oom" : "post-mortem");
      g_string_append (s, ", \"spaces\": [");
      for (guint k = 0; k < gc->usage_count; k++)
        {
          const TmSpaceUsage *u = &g_array_index (t->space_usage, TmSpaceUsage, gc->usage_first + k);
          const TmSpace *sp = tm_trace_space (t, u->space);
          if (k)
            g_string_append (s, ", ");
          g_string_append (s, "{\"name\": ");
          tm_json_append_string (s, sp->name);
          g_string_append_printf (s, ", \"kind\": \"%s\", \"used_before\": %" G_GUINT64_FORMAT ", \"used_after\": %" G_GUINT64_FORMAT
                                     ", \"committed_after\": %" G_GUINT64_FORMAT "}",
                                  tm_space_kind_to_string (sp->kind), u->used_before, u->used_after, u->committed_after);
        }
      g_string_append (s, "]}");
    }
  g_string_append (s, "\n]}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_csv (const TmTrace *t)
{
  printf ("id,start_ns,end_ns,kind,cause,pause_ns,used_before,used_after,freed_bytes,live_objects,reachable_bytes\n");
  for (guint i = 0; i < t->gcs->len; i++)
    {
      const TmGc *gc = &g_array_index (t->gcs, TmGc, i);
      g_autofree char *cause = g_strdup (gc->cause);
      g_strdelimit (cause, ",\"\n", ' ');
      printf ("%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s,%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
              ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
              gc->id, gc->start_ns, gc->end_ns, tm_gc_kind_to_string (gc->kind), cause, gc->pause_ns,
              gc->used_before, gc->used_after,
              gc->used_before > gc->used_after ? gc->used_before - gc->used_after : 0, gc->live_objects);
      if (gc->has_graph)
        printf ("%" G_GUINT64_FORMAT, gc->reachable_bytes);
      printf ("\n");
    }
}

/* heaptrack: time points, heaptrack_gui's figures over time */
static void
print_text_points (const TmTrace *t)
{
  printf ("%6s %12s %12s %12s %12s %12s %12s %12s\n",
          "point", "time", "peak", "in use", "RSS", "live blocks", "allocations", "temporary");
  for (guint i = 0; i < t->gcs->len; i++)
    {
      const TmGc *gc = &g_array_index (t->gcs, TmGc, i);
      g_autofree char *time = tm_format_duration ((double) gc->start_ns);
      g_autofree char *peak = tm_format_bytes ((double) gc->used_before);
      g_autofree char *in_use = tm_format_bytes ((double) gc->used_after);
      g_autofree char *rss = gc->committed_after > 0 ? tm_format_bytes ((double) gc->committed_after) : g_strdup ("-");

      printf ("%6u %12s %12s %12s %12s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT "\n",
              gc->id, time, peak, in_use, rss, gc->live_objects, interval_allocations (t, i, FALSE),
              interval_allocations (t, i, TRUE));
    }
}

static void
print_text (const TmTrace *t)
{
  if (is_heaptrack (t))
    {
      print_text_points (t);
      return;
    }

  printf ("%6s %12s %-10s %10s %12s %12s %12s %12s  %s\n",
          "GC", "time", "kind", "pause", "before", "after", "live objs", "reachable", "cause");
  for (guint i = 0; i < t->gcs->len; i++)
    {
      const TmGc *gc = &g_array_index (t->gcs, TmGc, i);
      g_autofree char *time = tm_format_duration ((double) gc->start_ns);
      g_autofree char *pause = tm_format_duration ((double) gc->pause_ns);
      g_autofree char *before = tm_format_bytes ((double) gc->used_before);
      g_autofree char *after = tm_format_bytes ((double) gc->used_after);
      g_autofree char *reach = gc->has_graph ? tm_format_bytes ((double) gc->reachable_bytes)
                               : g_strdup (gc->graph_failed ? "failed" : "-");
      printf ("%6u %12s %-10s %10s %12s %12s %12" G_GUINT64_FORMAT " %12s  %s\n",
              gc->id, time, tm_gc_kind_to_string (gc->kind), pause, before, after, gc->live_objects, reach, gc->cause);
      if (gc->has_graph && gc->graph_context != TM_GRAPH_AT_GC)
        printf ("%6s (graph of GC %u taken %s)\n", "", gc->id, tm_graph_context_to_string (gc->graph_context));
    }
}

int
tm_cmd_timeline (int argc, char **argv)
{
  gboolean json = FALSE, csv = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "Print CSV", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE - one row per GC");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;
  const char *path;
  int code = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "timeline", &argc, &argv, &code))
    return code;
  if (json && csv)
    return tm_cli_usage_error ("timeline", "--json and --csv exclude each other");
  if ((path = tm_cli_single_input ("timeline", argc, argv, &code)) == NULL)
    return code;
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);

  if (json)
    print_json (trace);
  else if (csv)
    print_csv (trace);
  else
    print_text (trace);
  return TM_EXIT_OK;
}
