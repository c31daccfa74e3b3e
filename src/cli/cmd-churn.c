/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli churn: the short-lived objects of a window (allocated in
 * it and dead by their first GC) as a classification tree by type, site,
 * call-site or thread, with their age at death. */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-churn.h"
#include "tm-format-util.h"

#include <stdio.h>

static void
json_node (GString *s, const TmChurnNode *n, guint top)
{
  guint shown = top == 0 ? n->children->len : MIN (top, n->children->len);

  g_string_append (s, "{\"key\": ");
  tm_json_append_string (s, n->key);
  g_string_append_printf (s, ", \"objects\": %" G_GUINT64_FORMAT ", \"bytes\": %" G_GUINT64_FORMAT
                          ", \"mean_age_seconds\": ", n->objects, n->bytes);
  tm_cli_json_double (s, n->objects ? n->age_seconds / (double) n->objects : 0.0);
  g_string_append (s, ", \"by_age\": [");
  for (guint b = 0; b < TM_LIFETIME_TIME_BUCKETS; b++)
    g_string_append_printf (s, "%s{\"age\": \"%s\", \"objects\": %" G_GUINT64_FORMAT "}", b ? ", " : "",
                            tm_lifetime_time_bucket_label (b), n->by_age[b]);
  g_string_append_printf (s, "], \"groups_total\": %u, \"children\": [", n->children->len);
  for (guint i = 0; i < shown; i++)
    {
      if (i)
        g_string_append (s, ", ");
      json_node (s, g_ptr_array_index (n->children, i), top);
    }
  g_string_append (s, "]}");
}

static void
print_json (const TmTrace *trace, const TmChurn *c, guint top)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"classifiers\": [", c->from_gc, c->to_gc);
  for (guint l = 0; l < c->depth; l++)
    g_string_append_printf (s, "%s\"%s\"", l ? ", " : "", tm_classifier_to_string (c->chain[l]));
  g_string_append_printf (s, "], \"complete\": %s, \"top\": %u, \"allocated_objects\": %" G_GUINT64_FORMAT
                          ", \"allocated_bytes\": %" G_GUINT64_FORMAT ", \"tree\": ",
                          trace->complete ? "true" : "false", top, c->allocated_objects, c->allocated_bytes);
  json_node (s, c->root, top);
  g_string_append (s, "}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_node (const TmChurnNode *n, const TmChurn *c, guint depth, guint top)
{
  guint shown = top == 0 ? n->children->len : MIN (top, n->children->len);
  g_autofree char *bytes = tm_format_bytes ((double) n->bytes);
  g_autofree char *objects = tm_format_count (n->objects);
  double share = c->root->bytes ? 100.0 * (double) n->bytes / (double) c->root->bytes : 0.0;

  printf ("%*s%-*s %10s %10s %6.1f%% %9.3f\n", depth * 2, "", 50 - MIN (depth * 2, 40), n->key, objects, bytes,
          share, n->objects ? n->age_seconds / (double) n->objects : 0.0);
  for (guint i = 0; i < shown; i++)
    print_node (g_ptr_array_index (n->children, i), c, depth + 1, top);
  if (shown < n->children->len)
    printf ("%*s(%u more)\n", (depth + 1) * 2, "", n->children->len - shown);
}

static void
print_text (const char *path, const TmChurn *c, guint top)
{
  g_autofree char *all = tm_format_bytes ((double) c->allocated_bytes);

  printf ("Short-lived objects in %s, GCs %u..%u: allocated in the window and dead by their first GC\n",
          path, c->from_gc, c->to_gc);
  printf ("Allocated in the window: %" G_GUINT64_FORMAT " objects (%s); short-lived: %" G_GUINT64_FORMAT
          " (%.1f%%)\n\n", c->allocated_objects, all, c->root->objects,
          c->allocated_objects ? 100.0 * (double) c->root->objects / (double) c->allocated_objects : 0.0);
  printf ("%-50s %10s %10s %7s %9s\n", "group", "objects", "bytes", "share", "mean age s");
  print_node (c->root, c, 0, top);
}

int
tm_cmd_churn (int argc, char **argv)
{
  gint64 from_gc = 0, to_gc = 0;
  gint top = 10;
  gboolean json = FALSE;
  g_autofree char *classify = NULL;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &from_gc, "First GC of the window (default: the first)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &to_gc, "Last GC of the window (default: the last)", "B" },
    { "classify", 0, 0, G_OPTION_ARG_STRING, &classify,
      "type, package, site, call-site, thread, comma-separated (default: type,site)", "C1,C2" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K groups with most bytes per level (0: all; default 10)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE - objects that die before their first GC");
  g_autoptr(TmDocument) doc = NULL;
  g_auto(GStrv) names = NULL;
  TmClassifier chain[TM_CLASSIFY_MAX_DEPTH];
  guint depth = 0;
  TmTrace *trace = NULL;
  g_autoptr(TmChurn) churn = NULL;
  g_autoptr(GError) error = NULL;
  guint32 from, to;
  const char *path;
  int code = TM_EXIT_OK;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "churn", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("churn", argc, argv, &code)) == NULL)
    return code;
  if (top < 0)
    return tm_cli_usage_error ("churn", "--top must be 0 or more");
  names = tm_cli_split_list (classify != NULL ? classify : "type,site");
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (depth == TM_CLASSIFY_MAX_DEPTH)
        return tm_cli_usage_error ("churn", "at most %u classifiers", TM_CLASSIFY_MAX_DEPTH);
      if (!tm_classifier_from_string (names[i], &chain[depth]) || !tm_churn_classifier_ok (chain[depth]))
        return tm_cli_usage_error ("churn", "unknown classifier '%s' (known: type, package, site, call-site, thread)",
                                   names[i]);
      depth++;
    }
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  if (!tm_cli_window ("churn", path, trace, from_gc, to_gc, &from, &to, &code))
    return code;
  churn = tm_churn_compute (trace, from, to, chain, depth, NULL, &error);
  if (churn == NULL)
    return tm_cli_usage_error ("churn", "%s", error->message);
  if (json)
    print_json (trace, churn, (guint) top);
  else
    print_text (path, churn, (guint) top);
  return TM_EXIT_OK;
}
