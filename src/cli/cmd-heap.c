/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli heap: the classification tree of the heap after one GC,
 * with shallow, deep and retained sizes (cli.md). */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-classify.h"
#include "tm-classify-chain.h"
#include "cmd-ds-growth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
  METRIC_OBJECTS, METRIC_BYTES, METRIC_DEEP_OBJECTS, METRIC_DEEP_BYTES,
  METRIC_RETAINED_OBJECTS, METRIC_RETAINED_BYTES, N_METRICS
} Metric;

static const char *metric_names[N_METRICS] = {
  "objects", "bytes", "deep-objects", "deep-bytes", "retained-objects", "retained-bytes",
};

typedef struct {
  const char  *path;
  TmClassTree *tree;
  Metric       metric;
  guint        top;
  gboolean     has_graph;
  guint64      total_objects, total_bytes;
} HeapView;

static guint64
metric_value (const TmClassNode *n, Metric m)
{
  switch (m)
    {
    case METRIC_OBJECTS:          return n->m.objects;
    case METRIC_BYTES:            return n->m.bytes;
    case METRIC_DEEP_OBJECTS:     return n->m.deep_objects;
    case METRIC_DEEP_BYTES:       return n->m.deep_bytes;
    case METRIC_RETAINED_OBJECTS: return n->m.retained_objects;
    case METRIC_RETAINED_BYTES:   return n->m.retained_bytes;
    case N_METRICS:
    default:                      return 0;
    }
}

static HeapView *sort_view;   /* qsort has no user data in C11 */

static int
cmp_by_metric (const void *a, const void *b)
{
  const TmClassNode *x = tm_class_tree_node (sort_view->tree, *(const guint32 *) a);
  const TmClassNode *y = tm_class_tree_node (sort_view->tree, *(const guint32 *) b);
  guint64 vx = metric_value (x, sort_view->metric), vy = metric_value (y, sort_view->metric);

  if (vx != vy)
    return vx > vy ? -1 : 1;
  if (x->m.bytes != y->m.bytes)
    return x->m.bytes > y->m.bytes ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : 1;
}

/* The children of `index` to show, best first; *n_all gets how many
 * there are.  Fills deep/retained sizes where the graph allows. */
static GArray *
shown_children (HeapView *v, guint32 index, guint *n_all)
{
  const TmClassNode *node = tm_class_tree_node (v->tree, index);
  GArray *kids = g_array_new (FALSE, FALSE, sizeof (guint32));
  gboolean rank_needs_graph = v->metric >= METRIC_DEEP_OBJECTS;

  for (guint32 c = 0; c < node->n_children; c++)
    {
      guint32 k = node->first_child + c;
      if (rank_needs_graph)
        tm_class_tree_compute_metrics (v->tree, k, NULL, NULL);
      g_array_append_val (kids, k);
    }
  sort_view = v;
  if (kids->len > 1)   /* an empty GArray has no data, and qsort (NULL, ...) is undefined */
    qsort (kids->data, kids->len, sizeof (guint32), cmp_by_metric);
  *n_all = kids->len;
  if (v->top > 0 && kids->len > v->top)
    g_array_set_size (kids, v->top);
  if (v->has_graph)
    for (guint i = 0; i < kids->len; i++)
      tm_class_tree_compute_metrics (v->tree, g_array_index (kids, guint32, i), NULL, NULL);
  return kids;
}

static void
json_node (HeapView *v, GString *s, guint32 index)
{
  const TmClassNode *n = tm_class_tree_node (v->tree, index);
  g_autofree char *label = tm_class_tree_node_label (v->tree, index);
  g_autoptr(GArray) kids = NULL;
  guint n_all;

  g_string_append (s, "{\"key\": ");
  tm_json_append_string (s, label);
  g_string_append_printf (s, ", \"objects\": %" G_GUINT64_FORMAT ", \"bytes\": %" G_GUINT64_FORMAT,
                          n->m.objects, n->m.bytes);
  if (v->has_graph)
    g_string_append_printf (s, ", \"deep_objects\": %" G_GUINT64_FORMAT ", \"deep_bytes\": %" G_GUINT64_FORMAT
                            ", \"retained_objects\": %" G_GUINT64_FORMAT ", \"retained_bytes\": %" G_GUINT64_FORMAT,
                            n->m.deep_objects, n->m.deep_bytes, n->m.retained_objects, n->m.retained_bytes);
  else
    g_string_append (s, ", \"deep_objects\": null, \"deep_bytes\": null"
                        ", \"retained_objects\": null, \"retained_bytes\": null");

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

static char *
cell_bytes (guint64 b)
{
  return tm_format_bytes ((double) b);
}

static char *
percent (guint64 part, guint64 whole)
{
  return g_strdup_printf ("%.1f%%", whole ? 100.0 * part / whole : 0.0);
}

static void
text_node (HeapView *v, guint32 index)
{
  const TmClassNode *n = tm_class_tree_node (v->tree, index);
  g_autofree char *label = tm_class_tree_node_label (v->tree, index);
  g_autofree char *objs = tm_format_count (n->m.objects);
  g_autofree char *objs_pc = percent (n->m.objects, v->total_objects);
  g_autofree char *bytes = cell_bytes (n->m.bytes);
  g_autofree char *bytes_pc = percent (n->m.bytes, v->total_bytes);
  g_autofree char *deep = v->has_graph ? cell_bytes (n->m.deep_bytes) : g_strdup ("-");
  g_autofree char *ret = v->has_graph ? cell_bytes (n->m.retained_bytes) : g_strdup ("-");
  g_autoptr(GArray) kids = NULL;
  guint n_all;
  guint64 shown_objects = 0, shown_bytes = 0;

  printf ("%12s %6s %11s %6s %11s %11s  %*s%s\n", objs, objs_pc, bytes, bytes_pc, deep, ret,
          2 * (int) n->level, "", label);

  kids = shown_children (v, index, &n_all);
  for (guint i = 0; i < kids->len; i++)
    {
      const TmClassNode *k = tm_class_tree_node (v->tree, g_array_index (kids, guint32, i));
      shown_objects += k->m.objects;
      shown_bytes += k->m.bytes;
      text_node (v, g_array_index (kids, guint32, i));
    }
  if (n_all > kids->len)
    {
      g_autofree char *ro = tm_format_count (n->m.objects - shown_objects);
      g_autofree char *rb = cell_bytes (n->m.bytes - shown_bytes);
      printf ("%12s %6s %11s %6s %11s %11s  %*s(%u more groups)\n", ro, "", rb, "", "", "",
              2 * (int) (n->level + 1), "", n_all - kids->len);
    }
}

int tm_cmd_heap (int argc, char **argv);

int
tm_cmd_heap (int argc, char **argv)
{
  gint gc = 0, top = 10;
  gboolean json = FALSE;
  g_autofree char *classify = NULL;
  g_autofree char *metric_name = NULL;
  gboolean data_structures = FALSE;
  g_auto(GStrv) ds_files = NULL;
  GOptionEntry entries[] = {
    { "gc", 0, 0, G_OPTION_ARG_INT, &gc, "The heap after GC N (required)", "N" },
    { "classify", 0, 0, G_OPTION_ARG_STRING, &classify,
      "Classifier chain: type, site, call-site, thread, space, age, leaves, deep-leaves, containing-ds "
      "(default: type)", "C1,C2,..." },
    { "metric", 0, 0, G_OPTION_ARG_STRING, &metric_name,
      "Sort by objects, bytes, deep-objects, deep-bytes, retained-objects, retained-bytes "
      "(default: retained-bytes when the GC has a reference graph, else bytes)", "M" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K largest groups per level (0: all; default 10)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { "data-structures", 0, 0, G_OPTION_ARG_NONE, &data_structures,
      "Only the heads of data structures (the data-structure view: structures inside another one are hidden)", NULL },
    { "ds", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &ds_files,
      "Also load these data structure descriptions (repeatable)", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE --gc N - classification tree of the heap after GC N");
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(TmHeapAnalysis) heap = NULL;
  g_autoptr(TmDsContext) ds = NULL;
  g_autoptr(TmClassTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  TmClassifier chain[TM_CLASSIFY_MAX_DEPTH];
  TmClassLevel levels[TM_CLASSIFY_MAX_DEPTH];
  guint depth = 0;
  gboolean needs_ds = FALSE;
  Metric metric = N_METRICS;
  const char *path;
  int code = 0;
  HeapView view = { 0 };

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "heap", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("heap", argc, argv, &code)) == NULL)
    return code;
  if (gc <= 0)
    return tm_cli_usage_error ("heap", "--gc N is required (a GC number, 1 or more)");
  if (top < 0)
    return tm_cli_usage_error ("heap", "--top must be 0 or more");
  if (!tm_classify_chain_parse (classify ? classify : "type", chain, &depth, &error))
    return tm_cli_usage_error ("heap", "--classify: %s", error->message);
  needs_ds = data_structures || tm_classify_chain_needs_ds (chain, depth);
  if (metric_name)
    {
      for (guint m = 0; m < N_METRICS; m++)
        if (strcmp (metric_name, metric_names[m]) == 0)
          metric = m;
      if (metric == N_METRICS)
        return tm_cli_usage_error ("heap", "unknown metric '%s' (known: objects, bytes, deep-objects, "
                                   "deep-bytes, retained-objects, retained-bytes)", metric_name);
    }

  if ((trace = tm_cli_load (path, &code)) == NULL)
    return code;
  if (!tm_cli_check_gc ("heap", path, trace, gc, &code))
    return code;

  view.has_graph = tm_trace_gc (trace, gc)->has_graph;
  if (metric == N_METRICS)
    metric = view.has_graph ? METRIC_RETAINED_BYTES : METRIC_BYTES;
  if (!view.has_graph && metric >= METRIC_DEEP_OBJECTS)
    {
      g_autofree char *msg = tm_heap_analysis_no_graph_message (trace, gc);
      fprintf (stderr, "%s: %s\n", path, msg);
      return TM_EXIT_INPUT;
    }

  heap = tm_heap_analysis_new (trace, gc, NULL, NULL, NULL, &error);
  if (heap == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (needs_ds)
    {
      TmDsl *dsl;

      if (!view.has_graph)
        {
          g_autofree char *msg = tm_heap_analysis_no_graph_message (trace, gc);
          fprintf (stderr, "%s: data structures need a reference graph: %s\n", path, msg);
          return TM_EXIT_INPUT;
        }
      if ((dsl = tm_cli_load_descriptions (ds_files, &code)) == NULL)
        return code;
      ds = tm_ds_context_new (dsl, TM_DS_CONTEXT_DEFAULT_BUDGET);
    }
  /* --data-structures: the heads of the data-structure view come first */
  if (data_structures && !tm_ds_context_heads_level (ds, heap, &levels[0], NULL, &error))
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (!tm_classify_chain_levels (ds, heap, chain, depth, levels + (data_structures ? 1 : 0), NULL, &error))
    {
      if (data_structures)
        tm_classify_chain_levels_clear (levels, 1);
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (data_structures)
    depth++;
  tree = tm_class_tree_new_for_levels (heap, levels, depth, NULL, &error);
  if (tree == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }

  view.path = path;
  view.tree = tree;
  view.metric = metric;
  view.top = top;
  view.total_objects = tm_class_tree_node (tree, 0)->m.objects;
  view.total_bytes = tm_class_tree_node (tree, 0)->m.bytes;
  if (view.has_graph)
    tm_class_tree_compute_metrics (tree, 0, NULL, NULL);
  else
    {
      g_autofree char *msg = tm_heap_analysis_no_graph_message (trace, gc);
      fprintf (stderr, "note: %s: %s; showing shallow sizes only\n", path, msg);
    }

  if (json)
    {
      GString *s = g_string_new (NULL);

      g_string_append_printf (s, "{\"gc\": %d, \"metric\": \"%s\", \"classifiers\": [", gc, metric_names[metric]);
      for (guint i = 0; i < depth; i++)
        g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", levels[i].name);
      g_string_append_printf (s, "], \"has_graph\": %s, \"complete\": %s, \"top\": %d, \"tree\": ",
                              view.has_graph ? "true" : "false", trace->complete ? "true" : "false", top);
      json_node (&view, s, 0);
      g_string_append (s, "}\n");
      fputs (s->str, stdout);
      g_string_free (s, TRUE);
    }
  else
    {
      g_autofree char *objs = tm_format_count (view.total_objects);
      g_autofree char *bytes = cell_bytes (view.total_bytes);

      printf ("Heap after GC %d of %s: %s objects, %s (reference graph: %s)\n", gc, path, objs, bytes,
              view.has_graph ? "yes" : "no");
      printf ("Classified by");
      for (guint i = 0; i < depth; i++)
        printf ("%s %s", i ? " >" : "", levels[i].name);
      printf ("; sorted by %s", metric_names[metric]);
      if (top > 0)
        printf ("; top %d per group", top);
      printf ("\n\n%12s %6s %11s %6s %11s %11s  %s\n", "objects", "%", "bytes", "%", "deep", "retained", "group");
      text_node (&view, 0);
    }
  return TM_EXIT_OK;
}
