/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli lifetimes: age at death of the objects that died in a
 * window, in GCs survived and in seconds, per type, site or thread; the
 * share that dies before its first GC, and the long-lived-but-dead groups
 * (candidates for pooling or premature promotion). */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-vm-metrics.h"

#include <stdio.h>

static void
json_group (GString *s, const TmLifetimeGroup *g)
{
  g_string_append (s, "{\"key\": ");
  tm_json_append_string (s, g->key);
  g_string_append_printf (s, ", \"died_objects\": %" G_GUINT64_FORMAT ", \"died_bytes\": %" G_GUINT64_FORMAT
                          ", \"mean_gcs\": %.6g, \"mean_seconds\": %.6g, \"long_lived_objects\": %"
                          G_GUINT64_FORMAT ", \"long_lived_bytes\": %" G_GUINT64_FORMAT ", \"by_gcs\": [",
                          g->died_objects, g->died_bytes, g->mean_gcs, g->mean_seconds,
                          g->long_lived_objects, g->long_lived_bytes);
  for (guint b = 0; b < TM_LIFETIME_GC_BUCKETS; b++)
    g_string_append_printf (s, "%s{\"gcs\": \"%s\", \"objects\": %" G_GUINT64_FORMAT ", \"bytes\": %"
                            G_GUINT64_FORMAT "}", b ? ", " : "", tm_lifetime_gc_bucket_label (b),
                            g->by_gcs_objects[b], g->by_gcs_bytes[b]);
  g_string_append (s, "], \"by_time\": [");
  for (guint b = 0; b < TM_LIFETIME_TIME_BUCKETS; b++)
    g_string_append_printf (s, "%s{\"age\": \"%s\", \"objects\": %" G_GUINT64_FORMAT "}", b ? ", " : "",
                            tm_lifetime_time_bucket_label (b), g->by_time_objects[b]);
  g_string_append (s, "]}");
}

static void
print_json (const TmTrace *trace, const TmLifetimes *lt, guint top)
{
  GString *s = g_string_new (NULL);
  guint n = top == 0 ? lt->groups->len : MIN (top, lt->groups->len);

  g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"classifier\": \"%s\", \"complete\": %s, "
                          "\"long_lived_gcs\": %u, \"born_objects\": %" G_GUINT64_FORMAT
                          ", \"born_bytes\": %" G_GUINT64_FORMAT ", \"died_before_first_gc_objects\": %"
                          G_GUINT64_FORMAT ", \"died_before_first_gc_bytes\": %" G_GUINT64_FORMAT
                          ", \"total\": ", lt->from_gc, lt->to_gc, tm_classifier_to_string (lt->classifier),
                          trace->complete ? "true" : "false", lt->long_lived_gcs, lt->born_objects,
                          lt->born_bytes, lt->died_young_objects, lt->died_young_bytes);
  json_group (s, &lt->total);
  g_string_append_printf (s, ", \"groups_total\": %u, \"groups\": [", lt->groups->len);
  for (guint i = 0; i < n; i++)
    {
      if (i)
        g_string_append (s, ", ");
      json_group (s, g_ptr_array_index (lt->groups, i));
    }
  g_string_append (s, "]}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_text (const char *path, const TmLifetimes *lt, guint top)
{
  guint n = top == 0 ? lt->groups->len : MIN (top, lt->groups->len);
  g_autofree char *died = tm_format_bytes ((double) lt->total.died_bytes);

  printf ("Lifetimes in %s, GCs %u..%u, by %s\n", path, lt->from_gc, lt->to_gc,
          tm_classifier_to_string (lt->classifier));
  printf ("Allocated in the window: %" G_GUINT64_FORMAT " objects, of which %" G_GUINT64_FORMAT
          " (%.1f%%) died at their first GC\n", lt->born_objects, lt->died_young_objects,
          lt->born_objects ? 100.0 * lt->died_young_objects / lt->born_objects : 0.0);
  printf ("Died in the window: %" G_GUINT64_FORMAT " objects (%s); %" G_GUINT64_FORMAT
          " survived %u GCs or more first\n\n", lt->total.died_objects, died, lt->total.long_lived_objects,
          lt->long_lived_gcs);
  printf ("%-34s", "GCs survived:");
  for (guint b = 0; b < TM_LIFETIME_GC_BUCKETS; b++)
    printf (" %9s", tm_lifetime_gc_bucket_label (b));
  printf ("  mean GCs  mean s\n");
  for (guint i = 0; i <= n; i++)
    {
      const TmLifetimeGroup *g = i < n ? g_ptr_array_index (lt->groups, i) : &lt->total;
      g_autofree char *key = g_utf8_strlen (g->key, -1) > 33 ? g_strdup_printf ("%.30s...", g->key) : g_strdup (g->key);

      printf ("%-34s", key);
      for (guint b = 0; b < TM_LIFETIME_GC_BUCKETS; b++)
        printf (" %9" G_GUINT64_FORMAT, g->by_gcs_objects[b]);
      printf ("  %8.2f %7.3f\n", g->mean_gcs, g->mean_seconds);
    }
}

int
tm_cmd_lifetimes (int argc, char **argv)
{
  gint64 from_gc = 0, to_gc = 0;
  gint top = 10, long_lived = 8;
  gboolean json = FALSE;
  g_autofree char *classify = NULL;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &from_gc, "First GC of the window (default: the first)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &to_gc, "Last GC of the window (default: the last)", "B" },
    { "classify", 0, 0, G_OPTION_ARG_STRING, &classify, "type, site, call-site or thread (default: type)", "C" },
    { "long-lived", 0, 0, G_OPTION_ARG_INT, &long_lived,
      "GCs survived that make an object long-lived (default 8)", "N" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K groups that freed most bytes (0: all; default 10)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE - how long objects live before they die");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace = NULL;
  g_autoptr(TmLifetimes) lt = NULL;
  g_autoptr(GError) error = NULL;
  TmClassifier c = TM_CLASSIFIER_TYPE;
  guint32 from, to;
  const char *path;
  int code = TM_EXIT_OK;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "lifetimes", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("lifetimes", argc, argv, &code)) == NULL)
    return code;
  if (top < 0 || long_lived < 1)
    return tm_cli_usage_error ("lifetimes", "--top must be 0 or more and --long-lived 1 or more");
  if (classify && !tm_classifier_from_string (classify, &c))
    return tm_cli_usage_error ("lifetimes", "unknown classifier '%s' (known: type, site, call-site, thread)",
                               classify);
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  if (!tm_cli_window ("lifetimes", path, trace, from_gc, to_gc, &from, &to, &code))
    return code;
  lt = tm_lifetimes_compute (trace, from, to, c, (guint32) long_lived, NULL, &error);
  if (lt == NULL)
    return tm_cli_usage_error ("lifetimes", "%s", error->message);
  if (json)
    print_json (trace, lt, top);
  else
    print_text (path, lt, top);
  return TM_EXIT_OK;
}
