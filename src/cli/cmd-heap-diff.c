/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli heap-diff: the heaps after two GCs compared in one
 * classification tree, each group with its before, after and delta
 * values, sorted by the delta (cli.md). */
#include "cli-common.h"
#include "cli-commands.h"
#include "cmd-ds-growth.h"
#include "tm-classify-chain.h"
#include "tm-heap-diff.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
  TmHeapDiff   *diff;
  TmHeapMetric  metric;
  guint         top;
} DiffView;

/* The children of `index` to show, most grown first; *n_all gets how
 * many there are.  Fills deep/retained sizes where the graphs allow. */
static GArray *
shown_children (DiffView *v, guint32 index, guint *n_all)
{
  GArray *kids = tm_heap_diff_sorted_children (v->diff, index, v->metric, NULL, NULL);

  *n_all = kids->len;
  if (v->top > 0 && kids->len > v->top)
    g_array_set_size (kids, v->top);
  if (v->diff->has_graph)
    for (guint i = 0; i < kids->len; i++)
      tm_heap_diff_compute_metrics (v->diff, g_array_index (kids, guint32, i), NULL, NULL);
  return kids;
}

static void
json_side (GString *s, const char *name, const TmGroupMetrics *m, gboolean graph, gboolean delta,
           const TmGroupMetrics *before)
{
  g_string_append_printf (s, ", \"%s\": {", name);
  for (TmHeapMetric k = 0; k < TM_N_HEAP_METRICS; k++)
    {
      g_autofree char *key = g_strdelimit (g_strdup (tm_heap_metric_to_string (k)), "-", '_');

      g_string_append_printf (s, "%s\"%s\": ", k ? ", " : "", key);
      if (tm_heap_metric_needs_graph (k) && !graph)
        g_string_append (s, "null");
      else if (delta)
        g_string_append_printf (s, "%" G_GINT64_FORMAT,
                                (gint64) tm_group_metrics_get (m, k) - (gint64) tm_group_metrics_get (before, k));
      else
        g_string_append_printf (s, "%" G_GUINT64_FORMAT, tm_group_metrics_get (m, k));
    }
  g_string_append_c (s, '}');
}

static void
json_node (DiffView *v, GString *s, guint32 index)
{
  const TmHeapDiffNode *n = tm_heap_diff_node (v->diff, index);
  TmGroupMetrics before, after;
  g_autoptr(GArray) kids = NULL;
  guint n_all;

  tm_heap_diff_get_metrics (v->diff, index, &before, &after);
  g_string_append (s, "{\"key\": ");
  tm_json_append_string (s, n->label);
  g_string_append_printf (s, ", \"in_before\": %s, \"in_after\": %s",
                          n->before_node != TM_CLASS_NODE_NONE ? "true" : "false",
                          n->after_node != TM_CLASS_NODE_NONE ? "true" : "false");
  json_side (s, "before", &before, v->diff->has_graph, FALSE, NULL);
  json_side (s, "after", &after, v->diff->has_graph, FALSE, NULL);
  json_side (s, "delta", &after, v->diff->has_graph, TRUE, &before);

  kids = shown_children (v, index, &n_all);
  g_string_append (s, ", \"children\": [");
  for (guint i = 0; i < kids->len; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      json_node (v, s, g_array_index (kids, guint32, i));
    }
  g_string_append_printf (s, "], \"omitted_children\": %u}", n_all - kids->len);
}

/* "+1.2 MiB", "-300 B", "0 B" */
static char *
signed_bytes (gint64 d)
{
  g_autofree char *b = tm_format_bytes ((double) (d < 0 ? -d : d));
  return g_strdup_printf ("%s%s", d > 0 ? "+" : d < 0 ? "-" : "", b);
}

static char *
signed_count (gint64 d)
{
  g_autofree char *c = tm_format_count ((guint64) (d < 0 ? -d : d));
  return g_strdup_printf ("%s%s", d > 0 ? "+" : d < 0 ? "-" : "", c);
}

/* One row: before, after and delta of objects, bytes and retained bytes. */
static void
text_row (const TmGroupMetrics *b, const TmGroupMetrics *a, gboolean graph, int indent, const char *label)
{
  g_autofree char *ob = tm_format_count (b->objects);
  g_autofree char *oa = tm_format_count (a->objects);
  g_autofree char *od = signed_count ((gint64) a->objects - (gint64) b->objects);
  g_autofree char *bb = tm_format_bytes ((double) b->bytes);
  g_autofree char *ba = tm_format_bytes ((double) a->bytes);
  g_autofree char *bd = signed_bytes ((gint64) a->bytes - (gint64) b->bytes);
  g_autofree char *rb = graph ? tm_format_bytes ((double) b->retained_bytes) : g_strdup ("-");
  g_autofree char *ra = graph ? tm_format_bytes ((double) a->retained_bytes) : g_strdup ("-");
  g_autofree char *rd = graph ? signed_bytes ((gint64) a->retained_bytes - (gint64) b->retained_bytes)
                                           : g_strdup ("-");

  printf ("%9s %9s %9s  %10s %10s %10s  %10s %10s %10s  %*s%s\n", ob, oa, od, bb, ba, bd, rb, ra, rd,
          indent, "", label);
}

static void
text_node (DiffView *v, guint32 index)
{
  const TmHeapDiffNode *n = tm_heap_diff_node (v->diff, index);
  TmGroupMetrics before, after, shown_b = { 0 }, shown_a = { 0 };
  g_autoptr(GArray) kids = NULL;
  guint n_all;

  tm_heap_diff_get_metrics (v->diff, index, &before, &after);
  text_row (&before, &after, v->diff->has_graph, 2 * (int) n->level, n->label);
  kids = shown_children (v, index, &n_all);
  for (guint i = 0; i < kids->len; i++)
    {
      TmGroupMetrics kb, ka;

      tm_heap_diff_get_metrics (v->diff, g_array_index (kids, guint32, i), &kb, &ka);
      shown_b.objects += kb.objects;
      shown_b.bytes += kb.bytes;
      shown_a.objects += ka.objects;
      shown_a.bytes += ka.bytes;
      text_node (v, g_array_index (kids, guint32, i));
    }
  if (n_all > kids->len)
    {
      /* the rest as one line; retained sizes do not add up, so none */
      TmGroupMetrics rb = { .objects = before.objects - shown_b.objects, .bytes = before.bytes - shown_b.bytes };
      TmGroupMetrics ra = { .objects = after.objects - shown_a.objects, .bytes = after.bytes - shown_a.bytes };
      g_autofree char *more = g_strdup_printf ("(%u more groups)", n_all - kids->len);

      text_row (&rb, &ra, FALSE, 2 * (int) (n->level + 1), more);
    }
}

int
tm_cmd_heap_diff (int argc, char **argv)
{
  gint from_gc = 0, to_gc = 0, top = 10;
  gboolean json = FALSE, data_structures = FALSE;
  g_autofree char *classify = NULL;
  g_autofree char *metric_name = NULL;
  g_auto(GStrv) ds_files = NULL;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT, &from_gc, "The heap after GC A, before (required)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT, &to_gc, "The heap after GC B, after (required)", "B" },
    { "classify", 0, 0, G_OPTION_ARG_STRING, &classify,
      "Classifier chain: type, site, call-site, thread, space, age, transaction, leaves, deep-leaves, containing-ds, root-path "
      "(default: type)", "C1,C2,..." },
    { "metric", 0, 0, G_OPTION_ARG_STRING, &metric_name,
      "Sort by the growth of objects, bytes, deep-objects, deep-bytes, retained-objects, retained-bytes "
      "(default: retained-bytes when both GCs have a reference graph, else bytes)", "M" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K most grown groups per level (0: all; default 10)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "data-structures", 0, 0, G_OPTION_ARG_NONE, &data_structures,
      "Only the heads of data structures (structures inside another one are hidden)", NULL },
    { "ds", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &ds_files,
      "Also load these data structure descriptions (repeatable)", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("TRACE --from-gc A --to-gc B - how the heap changed from GC A to GC B, per group");
  g_autoptr(TmDocument) doc = NULL;
  g_autoptr(TmHeapDiff) diff = NULL;
  g_autoptr(GError) error = NULL;
  TmTrace *trace;
  TmClassifier chain[TM_CLASSIFY_MAX_DEPTH];
  guint depth = 0;
  TmHeapMetric metric = TM_N_HEAP_METRICS;
  gboolean has_graph, needs_ds;
  const char *path;
  int code = 0;
  DiffView view = { 0 };

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "heap-diff", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("heap-diff", argc, argv, &code)) == NULL)
    return code;
  if (from_gc <= 0 || to_gc <= 0)
    return tm_cli_usage_error ("heap-diff", "--from-gc A and --to-gc B are required (GC numbers, 1 or more)");
  if (top < 0)
    return tm_cli_usage_error ("heap-diff", "--top must be 0 or more");
  if (!tm_classify_chain_parse (classify ? classify : "type", chain, &depth, &error))
    return tm_cli_usage_error ("heap-diff", "--classify: %s", error->message);
  if (metric_name && !tm_heap_metric_from_string (metric_name, &metric))
    return tm_cli_usage_error ("heap-diff", "unknown metric '%s' (known: objects, bytes, deep-objects, "
                               "deep-bytes, retained-objects, retained-bytes)", metric_name);
  needs_ds = data_structures || tm_classify_chain_needs_ds (chain, depth);

  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  if (!tm_cli_check_gc ("heap-diff", path, trace, from_gc, &code)
      || !tm_cli_check_gc ("heap-diff", path, trace, to_gc, &code))
    return code;

  has_graph = tm_trace_gc (trace, from_gc)->has_graph && tm_trace_gc (trace, to_gc)->has_graph;
  if (metric == TM_N_HEAP_METRICS)
    metric = has_graph ? TM_HEAP_METRIC_RETAINED_BYTES : TM_HEAP_METRIC_BYTES;
  if (!has_graph && (tm_heap_metric_needs_graph (metric) || needs_ds))
    {
      guint32 bare = tm_trace_gc (trace, from_gc)->has_graph ? to_gc : from_gc;
      g_autofree char *msg = tm_heap_analysis_no_graph_message (trace, bare);

      fprintf (stderr, "%s: %s%s\n", path,
               tm_heap_metric_needs_graph (metric) ? "" : "data structures need a reference graph: ", msg);
      return TM_EXIT_INPUT;
    }
  if (needs_ds)
    {
      TmDsl *dsl = tm_cli_load_descriptions (ds_files, &code);

      if (dsl == NULL)
        return code;
      tm_document_set_dsl (doc, dsl);
    }
  diff = tm_document_heap_diff (doc, from_gc, to_gc, chain, depth,
                                data_structures ? TM_DOCUMENT_TREE_DS_HEADS : TM_DOCUMENT_TREE_DEFAULT,
                                FALSE, NULL, NULL, NULL, &error);
  if (diff == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (has_graph)
    tm_heap_diff_compute_metrics (diff, 0, NULL, NULL);
  else
    {
      guint32 bare = tm_trace_gc (trace, from_gc)->has_graph ? to_gc : from_gc;
      g_autofree char *msg = tm_heap_analysis_no_graph_message (trace, bare);

      fprintf (stderr, "note: %s: %s; comparing shallow sizes only\n", path, msg);
    }
  view.diff = diff;
  view.metric = metric;
  view.top = top;

  if (json)
    {
      g_autoptr(GString) s = g_string_new (NULL);

      g_string_append_printf (s, "{\"from_gc\": %d, \"to_gc\": %d, \"metric\": \"%s\", \"classifiers\": [",
                              from_gc, to_gc, tm_heap_metric_to_string (metric));
      for (guint i = 0; i < diff->after->depth; i++)
        g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", diff->after->levels[i].name);
      g_string_append_printf (s, "], \"has_graph\": %s, \"complete\": %s, \"top\": %d, \"tree\": ",
                              has_graph ? "true" : "false", trace->complete ? "true" : "false", top);
      json_node (&view, s, 0);
      g_string_append (s, "}\n");
      fputs (s->str, stdout);
    }
  else
    {
      printf ("Heap after GC %d compared with the heap after GC %d of %s (reference graphs: %s)\n",
              to_gc, from_gc, path, has_graph ? "yes" : "no");
      printf ("Classified by");
      for (guint i = 0; i < diff->after->depth; i++)
        printf ("%s %s", i ? " >" : "", diff->after->levels[i].name);
      printf ("; sorted by the change in %s", tm_heap_metric_to_string (metric));
      if (top > 0)
        printf ("; top %d per group", top);
      printf ("\n\n%-29s  %-32s  %-32s\n", "objects", "bytes", "retained bytes");
      printf ("%9s %9s %9s  %10s %10s %10s  %10s %10s %10s  %s\n", "before", "after", "change",
              "before", "after", "change", "before", "after", "change", "group");
      text_node (&view, 0);
    }
  return TM_EXIT_OK;
}
