/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli ds-growth: data structure growth over a window (ICPE 2019),
 * sorted by retained heap growth portion. */
#include "cli-common.h"
#include "cli-commands.h"
#include "cmd-ds-growth.h"
#include "tm-root-paths.h"

#include <stdio.h>

int tm_cmd_ds_growth (int argc, char **argv);

/* Loads the shipped descriptions and then the user's files.  A user's
 * file that cannot be read or parsed ends the command (exit 2, one line
 * "FILE:LINE:COLUMN: reason"): results without the structures asked for
 * would look right and be wrong. */
TmDsl *
tm_cli_load_descriptions (char **files, int *code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDsl) dsl = tm_dsl_new_default (&error);
  const char * const *warnings;

  if (dsl == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      *code = TM_EXIT_INPUT;
      return NULL;
    }
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    if (!tm_dsl_add_file (dsl, files[i], &error))
      {
        fprintf (stderr, "%s\n", error->message);
        *code = TM_EXIT_INPUT;
        return NULL;
      }
  warnings = tm_dsl_warnings (dsl);
  for (guint i = 0; warnings[i] != NULL; i++)
    fprintf (stderr, "warning: %s\n", warnings[i]);
  return g_steal_pointer (&dsl);
}

static void
json_pair (GString *s, const char *name, const TmDsGrowthEntry *e, TmDsMetric m, gboolean bytes)
{
  g_string_append_printf (s, ", \"%s\": [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "]", name,
                          bytes ? e->size[m][0].bytes : e->size[m][0].objects,
                          bytes ? e->size[m][1].bytes : e->size[m][1].objects);
}

static void
print_json (const TmTrace *trace, const TmDsGrowth *g, guint top)
{
  static const char *const metric_field[] = { "retained", "deep", "ds", "deep_ds" };
  GString *s = g_string_new ("{");
  guint n = top > 0 ? MIN (top, g->entries->len) : g->entries->len;
  g_autoptr(TmRootPaths) paths = g->by_path ? tm_root_paths_new (g->result[1]->graph, trace) : NULL;

  g_string_append_printf (s, "\"from_gc\": %u, \"to_gc\": %u, \"heap_growth_bytes\": %" G_GINT64_FORMAT
                          ", \"heap_bytes\": [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "]"
                          ", \"heap_objects\": [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "]"
                          ", \"structures_detected\": [%u, %u], \"structures_compared\": %u"
                          ", \"complete\": %s",
                          g->from_gc, g->to_gc, g->heap_growth_bytes, g->heap[0].bytes, g->heap[1].bytes,
                          g->heap[0].objects, g->heap[1].objects, g->n_structures[0], g->n_structures[1],
                          g->entries->len, trace->complete ? "true" : "false");
  /* heap dumps: structures matched by their path from the GC roots */
  {
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append_printf (s, ", \"matching\": {\"by\": \"%s\", \"candidates\": %u, \"matched\": %u, "
                            "\"matched_by_path\": %u, \"match_rate\": %s}",
                            g->by_path ? "root-path" : "identity", g->n_candidates, g->n_matched,
                            g->n_matched_by_path,
                            g_ascii_formatd (buf, sizeof buf, "%.4f",
                                             g->n_candidates ? (double) g->n_matched / g->n_candidates : 0.0));
  }
  g_string_append (s, ", \"structures\": [");
  for (guint i = 0; i < n; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (g->entries, TmDsGrowthEntry, i);
      g_autofree char *site = tm_trace_site_label (trace, trace->obj_site[e->object_index]);

      g_string_append_printf (s, "%s\n  {\"object_id\": %" G_GUINT64_FORMAT ", \"type\": ", i ? "," : "",
                              tm_trace_object_id (trace, e->object_index));
      tm_json_append_string (s, tm_trace_type (trace, e->type)->name);
      g_string_append (s, ", \"site\": ");
      tm_json_append_string (s, site);
      if (paths != NULL)
        {
          /* heap dumps: where the structure hangs, as matched */
          g_autofree char *key = tm_root_paths_key (paths, e->node[1]);
          g_string_append (s, ", \"root_path\": ");
          if (key)
            tm_json_append_string (s, key);
          else
            g_string_append (s, "null");
        }
      for (guint m = 0; m < TM_DS_N_METRICS; m++)
        {
          g_autofree char *bytes = g_strdup_printf ("%s_bytes", metric_field[m]);
          g_autofree char *objects = g_strdup_printf ("%s_objects", metric_field[m]);
          json_pair (s, bytes, e, m, TRUE);
          json_pair (s, objects, e, m, FALSE);
        }
      g_string_append (s, ", \"hgp\": {");
      for (guint m = 0; m < TM_DS_N_METRICS; m++)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          /* JSON numbers use '.', whatever the locale */
          g_string_append_printf (s, "%s\"%s\": %s", m ? ", " : "", tm_ds_metric_to_string (m),
                                  g_ascii_formatd (buf, sizeof buf, "%.6f", e->hgp[m]));
        }
      g_string_append (s, "}, \"pattern\": ");
      tm_json_append_string (s, tm_ds_pattern_to_string (e->pattern));
      g_string_append_printf (s, ", \"born\": %s}", e->born ? "true" : "false");
    }
  g_string_append (s, "]}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static char *
signed_bytes (gint64 v)
{
  g_autofree char *abs = tm_format_bytes ((double) (v < 0 ? -v : v));
  return g_strdup_printf ("%s%s", v < 0 ? "-" : "+", abs);
}

static void
print_text (const char *path, const TmTrace *trace, const TmDsGrowth *g, guint top)
{
  g_autofree char *growth = signed_bytes (g->heap_growth_bytes);
  guint n = top > 0 ? MIN (top, g->entries->len) : g->entries->len;
  g_autoptr(TmRootPaths) paths = g->by_path ? tm_root_paths_new (g->result[1]->graph, trace) : NULL;

  printf ("Data structure growth in %s, GC %u to GC %u\n", path, g->from_gc, g->to_gc);
  printf ("Heap growth %s; %u structures alive at the end and not contained in another, those born"
          " inside the window growing from zero (detected: %u at GC %u, %u at GC %u)\n\n",
          growth, g->entries->len, g->n_structures[0], g->from_gc, g->n_structures[1], g->to_gc);
  if (g->by_path)
    printf ("Heap dumps: structures matched by their path from the GC roots (object identity is lost "
            "between dumps): %u of %u (%.0f%%)\n\n", g->n_matched, g->n_candidates,
            g->n_candidates ? 100.0 * g->n_matched / g->n_candidates : 0.0);
  if (n == 0)
    {
      printf ("No data structure is alive at the end of the window.\n");
      return;
    }
  printf ("%4s %-44s %11s %11s %8s %11s %11s  %s\n", "#", "STRUCTURE", "RETAINED", "GROWTH", "HGP",
          "DEEP GROWTH", "DS GROWTH", "PATTERN");
  for (guint i = 0; i < n; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (g->entries, TmDsGrowthEntry, i);
      g_autofree char *name = g_strdup_printf ("%s @%" G_GUINT64_FORMAT, tm_trace_type (trace, e->type)->name,
                                               tm_trace_object_id (trace, e->object_index));
      g_autofree char *retained = tm_format_bytes ((double) e->size[TM_DS_METRIC_RETAINED][1].bytes);
      g_autofree char *dr = signed_bytes (tm_ds_growth_entry_delta (e, TM_DS_METRIC_RETAINED));
      g_autofree char *dd = signed_bytes (tm_ds_growth_entry_delta (e, TM_DS_METRIC_DEEP));
      g_autofree char *dds = signed_bytes (tm_ds_growth_entry_delta (e, TM_DS_METRIC_DS));
      g_autofree char *site = tm_trace_site_label (trace, trace->obj_site[e->object_index]);

      printf ("%4u %-44s %11s %11s %7.1f%% %11s %11s  %s\n", i + 1, name, retained, dr,
              100.0 * e->hgp[TM_DS_METRIC_RETAINED], dd, dds, tm_ds_pattern_to_string (e->pattern));
      if (paths != NULL && trace->obj_site[e->object_index] == TM_UNKNOWN)
        {
          /* heap dumps know no sites; where the structure hangs says more */
          g_autofree char *key = tm_root_paths_key (paths, e->node[1]);
          printf ("     reached by %s%s\n", key ? key : "(no root)", e->born ? " (new since the first dump)" : "");
        }
      else
        printf ("     allocated at %s%s\n", site, e->born ? " (born inside the window)" : "");
    }
  if (n < g->entries->len)
    printf ("(%u more; --top 0 shows all)\n", g->entries->len - n);
}

int
tm_cmd_ds_growth (int argc, char **argv)
{
  gint from = 0, to = 0, top = -1;
  gboolean json = FALSE;
  g_auto(GStrv) ds_files = NULL;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT, &from, "Start of the window (a GC with a reference graph; required)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT, &to, "End of the window (a GC with a reference graph; required)", "B" },
    { "ds", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &ds_files,
      "Also load these data structure descriptions (repeatable; later ones replace earlier ones)", "FILE" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K structures with the largest retained HGP "
      "(0: all; default 20, all with --json)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE --from-gc A --to-gc B - data structure growth over a window");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;
  g_autoptr(TmDsl) dsl = NULL;
  g_autoptr(TmDsGrowth) growth = NULL;
  g_autoptr(GError) error = NULL;
  const char *path;
  int code = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Structures come from the descriptions in dsl-library/ plus --ds files\n"
    "(language: docs/data-structures.md). Growth is measured for the\n"
    "structures alive at the second GC and not contained in another one (born\n"
    "after the first GC: growing from zero); HGP is a\n"
    "structure's growth as a fraction of the heap's growth. Patterns:\n"
    "single-/shared-ownership container growth, single-/shared-ownership data\n"
    "growth, non-growth.");
  if (!tm_cli_parse (ctx, "ds-growth", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("ds-growth", argc, argv, &code)) == NULL)
    return code;
  if (from <= 0 || to <= 0)
    return tm_cli_usage_error ("ds-growth", "--from-gc A and --to-gc B are required (GC numbers, 1 or more)");
  if (from >= to)
    return tm_cli_usage_error ("ds-growth", "--from-gc (%d) must be before --to-gc (%d)", from, to);
  if (top < -1)
    return tm_cli_usage_error ("ds-growth", "--top must be 0 or more");
  if (top == -1)
    top = json ? 0 : 20;

  if ((dsl = tm_cli_load_descriptions (ds_files, &code)) == NULL)
    return code;
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  tm_document_set_dsl (doc, g_steal_pointer (&dsl));
  trace = tm_document_get_trace (doc);
  if (!tm_cli_check_gc ("ds-growth", path, trace, to, &code))
    return code;

  growth = tm_document_ds_growth (doc, from, to, NULL, NULL, NULL, &error);
  if (growth == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (json)
    print_json (trace, growth, top);
  else
    print_text (path, trace, growth, top);
  return TM_EXIT_OK;
}
