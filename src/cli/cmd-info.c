/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli info: a trace's summary. */
#include "cli-common.h"
#include "cli-calls.h"
#include "cli-commands.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  guint failed;
  guint at_oom;
  guint post_mortem;
} GraphCounts;

static GraphCounts
count_graphs (const TmTrace *t)
{
  GraphCounts c = { 0, 0, 0 };

  for (guint i = 1; i <= tm_trace_n_gcs (t); i++)
    {
      const TmGc *gc = tm_trace_gc (t, i);
      c.failed += gc->graph_failed;
      c.at_oom += gc->has_graph && gc->graph_context == TM_GRAPH_AT_OOM;
      c.post_mortem += gc->has_graph && gc->graph_context == TM_GRAPH_POST_MORTEM;
    }
  return c;
}

static const char *
oom_kind_key (TmOomKind kind)
{
  switch (kind)
    {
    case TM_OOM_JAVA_HEAP: return "java_heap";
    case TM_OOM_METASPACE: return "metaspace";
    case TM_OOM_THREADS: return "threads";
    default: return "other";
    }
}

static void
json_oom_events (GString *s, const TmTrace *t)
{
  g_string_append (s, "[");
  for (guint i = 0; i < tm_trace_n_oom_events (t); i++)
    {
      const TmOomEvent *ev = tm_trace_oom_event (t, i);
      g_string_append_printf (s, "%s{\"time_ns\": %" G_GUINT64_FORMAT ", \"gc_before\": %u, \"kind\": \"%s\", \"thread\": ",
                              i ? ", " : "", ev->time_ns, ev->gc_before, oom_kind_key (ev->kind));
      tm_json_append_string (s, tm_trace_thread (t, ev->thread)->name);
      g_string_append (s, ", \"message\": ");
      tm_json_append_string (s, ev->message);
      g_string_append (s, "}");
    }
  g_string_append (s, "]");
}

static void
print_oom_text (const TmTrace *t)
{
  for (guint i = 0; i < tm_trace_n_oom_events (t); i++)
    {
      const TmOomEvent *ev = tm_trace_oom_event (t, i);
      g_autofree char *at = tm_format_duration ((double) ev->time_ns);
      printf ("OutOfMemoryError: %s at %s (after GC %u), thread %s%s%s\n", tm_oom_kind_to_string (ev->kind), at,
              ev->gc_before, tm_trace_thread (t, ev->thread)->name, *ev->message ? ": " : "", ev->message);
    }
}

/* heaptrack's summary (heaptrack_print's last lines, heaptrack_gui's
 * summary page): per second of its run time, as heaptrack counts it. */
static double
per_second (guint64 n, const TmHeaptrackSummary *h)
{
  return h->total_time_ms > 0 ? (double) n * 1000.0 / (double) h->total_time_ms : 0.0;
}

static void
json_heaptrack (GString *s, const TmHeaptrackSummary *h)
{
  g_string_append_printf (s,
                          ", \"heaptrack\": {\"total_time_ms\": %" G_GUINT64_FORMAT
                          ", \"allocations\": %" G_GUINT64_FORMAT
                          ", \"allocations_per_second\": %.1f"
                          ", \"temporary\": %" G_GUINT64_FORMAT
                          ", \"temporary_per_second\": %.1f"
                          ", \"temporary_fraction\": %.6f"
                          ", \"allocated_bytes\": %" G_GUINT64_FORMAT
                          ", \"peak_bytes\": %" G_GUINT64_FORMAT
                          ", \"peak_time_ms\": %" G_GUINT64_FORMAT
                          ", \"peak_rss_bytes\": %" G_GUINT64_FORMAT
                          ", \"leaked_bytes\": %" G_GUINT64_FORMAT
                          ", \"suppressed_bytes\": %" G_GUINT64_FORMAT
                          ", \"attached\": %s}",
                          h->total_time_ms, h->allocations, per_second (h->allocations, h), h->temporary,
                          per_second (h->temporary, h),
                          h->allocations ? (double) h->temporary / (double) h->allocations : 0.0, h->allocated_bytes,
                          h->peak_bytes, h->peak_time_ms, h->peak_rss_bytes, h->leaked_bytes, h->suppressed_bytes,
                          h->attached ? "true" : "false");
}

static void
text_heaptrack (const TmHeaptrackSummary *h)
{
  g_autofree char *run = tm_format_duration ((double) h->total_time_ms * 1e6);
  g_autofree char *allocs = tm_format_count (h->allocations);
  g_autofree char *temp = tm_format_count (h->temporary);
  g_autofree char *peak = tm_format_bytes ((double) h->peak_bytes);
  g_autofree char *rss = tm_format_bytes ((double) h->peak_rss_bytes);
  g_autofree char *leaked = tm_format_bytes ((double) h->leaked_bytes);
  g_autofree char *suppressed = tm_format_bytes ((double) h->suppressed_bytes);
  g_autofree char *allocated = tm_format_bytes ((double) h->allocated_bytes);
  g_autofree char *alloc_rate = tm_format_count ((guint64) per_second (h->allocations, h));
  g_autofree char *temp_rate = tm_format_count ((guint64) per_second (h->temporary, h));

  printf ("heaptrack summary%s:\n", h->attached ? " (attached to a running process)" : "");
  printf ("  Run time:    %s\n", run);
  printf ("  Allocations: %s calls to allocation functions (%s/s), %s in total\n", allocs, alloc_rate, allocated);
  printf ("  Temporary:   %s (%.1f %% of the allocations, %s/s)\n", temp,
          h->allocations ? 100.0 * (double) h->temporary / (double) h->allocations : 0.0, temp_rate);
  printf ("  Peak heap:   %s at %.2f s\n", peak, (double) h->peak_time_ms / 1000.0);
  printf ("  Peak RSS:    %s (including heaptrack's overhead)\n", rss);
  printf ("  Leaked:      %s (suppressed leaks: %s)\n", leaked, suppressed);
}

static gint
key_cmp (gconstpointer x, gconstpointer y)
{
  return strcmp (*(const char *const *) x, *(const char *const *) y);
}

/* META keys in order: the recorder's notes, the JVM flags it read */
static GPtrArray *
sorted_meta_keys (const TmTrace *t, const char *prefix)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter it;
  gpointer k;

  g_hash_table_iter_init (&it, t->meta);
  while (g_hash_table_iter_next (&it, &k, NULL))
    if (prefix == NULL || g_str_has_prefix (k, prefix))
      g_ptr_array_add (keys, k);
  g_ptr_array_sort (keys, key_cmp);
  return keys;
}

static void
json_meta (GString *s, const TmTrace *t)
{
  g_autoptr(GPtrArray) keys = sorted_meta_keys (t, NULL);

  g_string_append_c (s, '{');
  for (guint i = 0; i < keys->len; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      tm_json_append_string (s, keys->pdata[i]);
      g_string_append (s, ": ");
      tm_json_append_string (s, g_hash_table_lookup (t->meta, keys->pdata[i]));
    }
  g_string_append_c (s, '}');
}

static void
text_jvm_flags (const TmTrace *t)
{
  g_autoptr(GPtrArray) keys = sorted_meta_keys (t, "jvm.");
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; i < keys->len; i++)
    if (strcmp (keys->pdata[i], "jvm.user_flags") != 0)
      g_string_append_printf (line, "%s%s=%s", line->len ? " " : "", (const char *) keys->pdata[i] + 4,
                              (const char *) g_hash_table_lookup (t->meta, keys->pdata[i]));
  if (line->len > 0)
    printf ("JVM flags:     %s\n", line->str);
}

static void
print_json (const TmTrace *t, const TmHeaptrackSummary *h)
{
  GString *s = g_string_new ("{");
  GraphCounts gcounts = count_graphs (t);

  g_string_append_printf (s, "\"format_version\": %u, \"format\": ", t->format_version);
  tm_json_append_string (s, t->format);
  g_string_append (s, ", \"vm\": ");
  tm_json_append_string (s, t->vm_name);
  g_string_append (s, ", \"vm_version\": ");
  tm_json_append_string (s, t->vm_version);
  g_string_append (s, ", \"command_line\": ");
  tm_json_append_string (s, t->command_line);
  g_string_append_printf (s,
                          ", \"start_unix_ns\": %" G_GUINT64_FORMAT
                          ", \"duration_ns\": %" G_GUINT64_FORMAT
                          ", \"gcs\": %u"
                          ", \"allocs\": %" G_GUINT64_FORMAT
                          ", \"alloc_bytes\": %" G_GUINT64_FORMAT
                          ", \"deaths\": %" G_GUINT64_FORMAT
                          ", \"graphs\": %u"
                          ", \"complete\": %s"
                          ", \"alloc_sample_bytes\": %" G_GUINT64_FORMAT
                          ", \"peak_used_bytes\": %" G_GUINT64_FORMAT
                          ", \"types\": %u, \"sites\": %u, \"threads\": %u, \"spaces\": %u"
                          ", \"dropped_events\": %" G_GUINT64_FORMAT,
                          t->start_unix_ns, t->duration_ns, t->gcs->len, t->total_allocs, t->total_alloc_bytes,
                          t->total_deaths, t->n_graphs, t->complete ? "true" : "false", t->alloc_sample_bytes,
                          t->peak_used_bytes, t->types->len - 1, t->sites->len - 1, t->threads->len - 1,
                          t->spaces->len - 1, t->dropped_events);
  g_string_append_printf (s, ", \"graphs_failed\": %u, \"graphs_at_oom\": %u, \"graphs_post_mortem\": %u",
                          gcounts.failed, gcounts.at_oom, gcounts.post_mortem);
  g_string_append (s, ", \"oom_events\": ");
  json_oom_events (s, t);
  g_string_append_printf (s, ", \"container_ops\": %u", t->container_ops->len);
  if (!t->complete && t->stopped)
    g_string_append_printf (s, ", \"stop_offset\": %" G_GUINT64_FORMAT, t->stop_offset);
  g_string_append_printf (s, ", \"memory_limit_bytes\": %" G_GUINT64_FORMAT ", \"memory_limited\": %s"
                          ", \"warnings_total\": %" G_GUINT64_FORMAT,
                          t->memory_limit, t->memory_limited ? "true" : "false", t->n_warnings_total);
  g_string_append (s, ", \"meta\": ");
  json_meta (s, t);
  if (h != NULL)
    json_heaptrack (s, h);
  g_string_append (s, ", \"warnings\": ");
  tm_cli_json_warnings (s, t);
  g_string_append (s, "}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_text (const TmTrace *t, const TmHeaptrackSummary *h)
{
  g_autofree char *dur = tm_format_duration ((double) t->duration_ns);
  g_autofree char *peak = tm_format_bytes ((double) t->peak_used_bytes);
  g_autofree char *allocs = tm_format_count (t->total_allocs);
  g_autofree char *abytes = tm_format_bytes ((double) t->total_alloc_bytes);
  g_autofree char *deaths = tm_format_count (t->total_deaths);
  GraphCounts gcounts = count_graphs (t);
  g_autoptr(GString) graphs = g_string_new (NULL);

  printf ("File:          %s\n", t->path ? t->path : "");
  printf ("Format:        %s (version %u)%s\n", t->format, t->format_version,
          t->complete ? "" : "  INCOMPLETE");
  printf ("VM:            %s %s\n", t->vm_name, t->vm_version);
  if (*t->command_line)
    printf ("Command line:  %s\n", t->command_line);
  printf ("Duration:      %s\n", dur);
  g_string_printf (graphs, "%u with a reference graph", t->n_graphs);
  if (gcounts.at_oom > 0)
    g_string_append_printf (graphs, ", %u taken at OutOfMemoryError", gcounts.at_oom);
  if (gcounts.post_mortem > 0)
    g_string_append_printf (graphs, ", %u post-mortem", gcounts.post_mortem);
  if (gcounts.failed > 0)
    g_string_append_printf (graphs, ", %u failed walk%s", gcounts.failed, gcounts.failed == 1 ? "" : "s");
  printf ("GCs:           %u (%s)\n", t->gcs->len, graphs->str);
  printf ("Allocations:   %s (%s)%s\n", allocs, abytes,
          t->alloc_sample_bytes ? " sampled: object counts are estimates" : "");
  printf ("Deaths:        %s\n", deaths);
  printf ("Peak heap:     %s\n", peak);
  printf ("Types/sites/threads: %u / %u / %u\n", t->types->len - 1, t->sites->len - 1, t->threads->len - 1);
  if (t->container_ops->len > 0)
    {
      g_autofree char *ops = tm_format_count (t->container_ops->len);
      printf ("Container operations: %s (add, get, remove on collections)\n", ops);
    }
  text_jvm_flags (t);
  print_oom_text (t);
  if (h != NULL)
    text_heaptrack (h);
  if (t->memory_limited)
    {
      g_autofree char *limit = tm_format_bytes ((double) t->memory_limit);
      printf ("Reading stopped at byte offset %" G_GUINT64_FORMAT " at the memory limit of %s: everything before it "
              "is shown (raise it with --memory-limit SIZE).\n", t->stop_offset, limit);
    }
  else if (!t->complete && t->stopped)
    printf ("Reading stopped at byte offset %" G_GUINT64_FORMAT ": everything before it is shown.\n", t->stop_offset);
  else if (!t->complete)
    printf ("Read to the end; %" G_GUINT64_FORMAT " damaged part%s skipped (see the warnings).\n",
            t->n_warnings_total, t->n_warnings_total == 1 ? " was" : "s were");
  if (g_hash_table_lookup (t->meta, "note") != NULL)
    printf ("Note:          %s\n", (const char *) g_hash_table_lookup (t->meta, "note"));
}

int
tm_cmd_info (int argc, char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE - summary of a trace");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;
  g_autoptr(TmHeaptrackProfile) heaptrack = NULL;
  const TmHeaptrackSummary *h = NULL;
  const char *path;
  int code = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "info", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("info", argc, argv, &code)) == NULL)
    return code;
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);

  /* heaptrack's own figures (temporary, suppressed leaks, ...) come from
   * its reading of the file, which the model does not keep */
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    {
      if ((heaptrack = tm_cli_load_heaptrack (path, &code)) == NULL)
        return code;
      h = tm_heaptrack_profile_summary (heaptrack);
    }
  if (json)
    print_json (trace, h);
  else
    print_text (trace, h);
  return TM_EXIT_OK;
}
