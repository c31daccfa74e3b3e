/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli heap: the classification tree of the heap after one GC,
 * with shallow, deep and retained sizes (cli.md). */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-classify.h"
#include "tm-classify-chain.h"
#include "cmd-ds-growth.h"
#include "tm-root-path.h"
#include "tm-heap-diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char  *path;
  TmClassTree *tree;
  TmHeapMetric metric;
  guint        top;
  gboolean     has_graph;
  guint64      total_objects, total_bytes;
} HeapView;

static HeapView *sort_view;   /* qsort has no user data in C11 */

static int
cmp_by_metric (const void *a, const void *b)
{
  const TmClassNode *x = tm_class_tree_node (sort_view->tree, *(const guint32 *) a);
  const TmClassNode *y = tm_class_tree_node (sort_view->tree, *(const guint32 *) b);
  guint64 vx = tm_group_metrics_get (&x->m, sort_view->metric), vy = tm_group_metrics_get (&y->m, sort_view->metric);

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
  gboolean rank_needs_graph = tm_heap_metric_needs_graph (v->metric);

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

/* One object of a path: "TYPE @ID (allocated at SITE)". */
static char *
describe_object (TmTrace *trace, guint32 object)
{
  g_autofree char *site = tm_trace_site_label (trace, trace->obj_site[object]);

  return g_strdup_printf ("%s @%" G_GUINT64_FORMAT " (allocated at %s)",
                          tm_trace_type (trace, trace->obj_type[object])->name,
                          tm_trace_object_id (trace, object), site);
}

static void
json_object (GString *s, TmTrace *trace, guint32 object)
{
  g_autofree char *site = tm_trace_site_label (trace, trace->obj_site[object]);

  g_string_append_printf (s, "{\"id\": %" G_GUINT64_FORMAT ", \"type\": ", tm_trace_object_id (trace, object));
  tm_json_append_string (s, tm_trace_type (trace, trace->obj_type[object])->name);
  g_string_append (s, ", \"site\": ");
  tm_json_append_string (s, site);
  g_string_append_c (s, '}');
}

static void
json_string_or_null (GString *s, const char *text)
{
  if (text != NULL)
    tm_json_append_string (s, text);
  else
    g_string_append (s, "null");
}

/* --path-to-roots: OBJECT (@ID) or GROUP (a label path of the tree). */
static int
print_root_path (TmDocument *doc, TmClassTree *tree, guint32 gc, const char *file, const char *what,
                 gboolean json)
{
  TmTrace *trace = tm_document_get_trace (doc);
  g_autoptr(TmRootPath) path = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *retained = NULL;
  g_autofree char *target = NULL;
  gboolean group = what[0] != '@';

  if (!group)
    {
      guint64 id, index;
      char *end;

      id = g_ascii_strtoull (what + 1, &end, 10);
      if (end == what + 1 || *end != '\0')
        return tm_cli_usage_error ("heap", "--path-to-roots: '%s' is not @ID (an object id)", what);
      if (!tm_trace_object_index_for_id (trace, id, &index))
        {
          fprintf (stderr, "%s: no object has id %" G_GUINT64_FORMAT "\n", file, id);
          return TM_EXIT_INPUT;
        }
      path = tm_document_path_to_root (doc, gc, (guint32) index, NULL, &error);
    }
  else
    {
      guint32 node = tm_class_tree_find_path (tree, what);

      if (node == TM_CLASS_NODE_NONE || node == 0)
        return tm_cli_usage_error ("heap", "--path-to-roots: no group '%s' in the tree (a label path like A/B, "
                                   "labels as the tree prints them)", what);
      path = tm_document_group_path_to_root (doc, tree, node, NULL, &error);
    }
  if (path == NULL)
    {
      fprintf (stderr, "%s: %s\n", file, error->message);
      return TM_EXIT_INPUT;
    }

  if (json)
    {
      g_autoptr(GString) s = g_string_new (NULL);

      g_string_append_printf (s, "{\"gc\": %u, \"group\": ", gc);
      if (group)
        tm_json_append_string (s, what);
      else
        g_string_append (s, "null");
      g_string_append (s, ", \"object\": ");
      json_object (s, trace, path->object);
      g_string_append_printf (s, ", \"retained_bytes\": %" G_GUINT64_FORMAT ", \"root_kind\": ", path->retained_bytes);
      if (path->objects->len > 0)
        tm_json_append_string (s, tm_root_kind_to_string (path->root_kind));
      else
        g_string_append (s, "null");
      g_string_append (s, ", \"root_name\": ");
      json_string_or_null (s, path->root_name);
      g_string_append (s, ", \"root_class\": ");
      json_string_or_null (s, path->root_class);
      g_string_append (s, ", \"path\": [");
      for (guint i = 0; i < path->objects->len; i++)
        {
          if (i > 0)
            g_string_append (s, ", ");
          json_object (s, trace, g_array_index (path->objects, guint32, i));
        }
      /* per hop, the field of the previous object that holds this one */
      g_string_append (s, "], \"fields\": [");
      for (guint i = 0; i < path->fields->len; i++)
        {
          if (i > 0)
            g_string_append (s, ", ");
          json_string_or_null (s, g_ptr_array_index (path->fields, i));
        }
      g_string_append (s, "]}\n");
      fputs (s->str, stdout);
      return TM_EXIT_OK;
    }

  retained = tm_format_bytes ((double) path->retained_bytes);
  target = describe_object (trace, path->object);
  if (group)
    printf ("Path to GC roots of %s after GC %u of %s, through its largest object %s, which retains %s:\n",
            what, gc, file, target, retained);
  else
    printf ("Path to GC roots of %s after GC %u of %s (it retains %s):\n", target, gc, file, retained);
  if (path->objects->len == 0)
    printf ("  no GC root reaches it (garbage the recorder still listed)\n");
  for (guint i = 0; i < path->objects->len; i++)
    {
      g_autofree char *obj = describe_object (trace, g_array_index (path->objects, guint32, i));

      const char *field = g_ptr_array_index (path->fields, i);

      if (i == 0 && path->root_name != NULL)
        printf ("  GC root (%s %s): %s\n", tm_root_kind_to_string (path->root_kind), path->root_name, obj);
      else if (i == 0)
        printf ("  GC root (%s): %s\n", tm_root_kind_to_string (path->root_kind), obj);
      else if (field != NULL)
        printf ("  %*s-> %s%s: %s\n", (int) (2 * (i - 1)), "", field[0] == '[' ? "" : ".", field, obj);
      else
        printf ("  %*s-> %s\n", (int) (2 * (i - 1)), "", obj);
    }
  return TM_EXIT_OK;
}

int
tm_cmd_heap (int argc, char **argv)
{
  gint gc = 0, top = 10;
  gboolean json = FALSE;
  g_autofree char *classify = NULL;
  g_autofree char *metric_name = NULL;
  gboolean data_structures = FALSE;
  g_auto(GStrv) ds_files = NULL;
  g_autofree char *path_to_roots = NULL;
  GOptionEntry entries[] = {
    { "gc", 0, 0, G_OPTION_ARG_INT, &gc, "The heap after GC N (required)", "N" },
    { "classify", 0, 0, G_OPTION_ARG_STRING, &classify,
      "Classifier chain: type, site, call-site, thread, space, age, transaction, leaves, deep-leaves, containing-ds, root-path "
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
    { "path-to-roots", 0, 0, G_OPTION_ARG_STRING, &path_to_roots,
      "Instead of the tree, why OBJECT (@ID) or GROUP (a label path of the tree, A/B) is alive: "
      "a shortest chain of references from a GC root (a group through its member retaining most)",
      "OBJECT|GROUP" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE --gc N - classification tree of the heap after GC N");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;
  g_autoptr(TmClassTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  TmClassifier chain[TM_CLASSIFY_MAX_DEPTH];
  guint depth = 0;
  gboolean needs_ds = FALSE;
  TmHeapMetric metric = TM_N_HEAP_METRICS;
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
      if (!tm_heap_metric_from_string (metric_name, &metric))
        return tm_cli_usage_error ("heap", "unknown metric '%s' (known: objects, bytes, deep-objects, "
                                   "deep-bytes, retained-objects, retained-bytes)", metric_name);
    }

  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  if (!tm_cli_check_gc ("heap", path, trace, gc, &code))
    return code;

  view.has_graph = tm_trace_gc (trace, gc)->has_graph;
  if (metric == TM_N_HEAP_METRICS)
    metric = view.has_graph ? TM_HEAP_METRIC_RETAINED_BYTES : TM_HEAP_METRIC_BYTES;
  if (!view.has_graph && (tm_heap_metric_needs_graph (metric) || needs_ds || path_to_roots != NULL))
    {
      g_autofree char *msg = tm_heap_analysis_no_graph_message (trace, gc);
      fprintf (stderr, "%s: %s%s\n", path,
               tm_heap_metric_needs_graph (metric) ? "" : "data structures need a reference graph: ", msg);
      return TM_EXIT_INPUT;
    }
  /* a --ds file that cannot be used is an error even when unused here */
  if (needs_ds || ds_files != NULL)
    {
      TmDsl *dsl = tm_cli_load_descriptions (ds_files, &code);

      if (dsl == NULL)
        return code;
      tm_document_set_dsl (doc, dsl);
    }
  /* --data-structures: the heads of the data-structure view come first */
  tree = tm_document_class_tree (doc, gc, chain, depth,
                                 data_structures ? TM_DOCUMENT_TREE_DS_HEADS : TM_DOCUMENT_TREE_DEFAULT,
                                 NULL, NULL, NULL, &error);
  if (tree == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  depth = tree->depth;
  if (path_to_roots != NULL)
    return print_root_path (doc, tree, gc, path, path_to_roots, json);

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

      g_string_append_printf (s, "{\"gc\": %d, \"metric\": \"%s\", \"classifiers\": [", gc, tm_heap_metric_to_string (metric));
      for (guint i = 0; i < depth; i++)
        g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", tree->levels[i].name);
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
        printf ("%s %s", i ? " >" : "", tree->levels[i].name);
      printf ("; sorted by %s", tm_heap_metric_to_string (metric));
      if (top > 0)
        printf ("; top %d per group", top);
      printf ("\n\n%12s %6s %11s %6s %11s %11s  %s\n", "objects", "%", "bytes", "%", "deep", "retained", "group");
      text_node (&view, 0);
    }
  return TM_EXIT_OK;
}
