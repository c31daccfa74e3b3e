/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli containers: leak confidence per container over a leak
 * region (Xu & Rountev, ICSE 2008; tm-containers.h).  The region defaults
 * to the suspicious leak window, else the whole run. */
#include "cli-common.h"
#include "cli-commands.h"
#include "cmd-ds-growth.h"
#include "tm-containers.h"
#include "tm-windows.h"

#include <stdio.h>

/* The suspicious leak window, if any: what the region defaults to. */
static gboolean
default_region (TmDocument *doc, guint32 *from, guint32 *to)
{
  g_autoptr(GPtrArray) windows = tm_document_windows (doc, NULL, FALSE, NULL, NULL);

  for (guint i = 0; windows != NULL && i < windows->len; i++)
    {
      const TmWindow *w = g_ptr_array_index (windows, i);
      if (w->kind == TM_WINDOW_LEAK && w->suspicious)
        {
          *from = w->first_gc;
          *to = w->last_gc;
          return TRUE;
        }
    }
  *from = 1;
  *to = tm_trace_n_gcs (tm_document_get_trace (doc));
  return FALSE;
}

static char *
site_label (const TmTrace *trace, guint32 site)
{
  return site == TM_UNKNOWN ? g_strdup ("(unknown site)") : tm_trace_site_label (trace, site);
}

static void
print_json (const TmTrace *trace, const TmContainerReport *r, gboolean from_window, guint top)
{
  GString *s = g_string_new (NULL);
  guint n = top == 0 ? r->containers->len : MIN (top, r->containers->len);

  g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"region\": \"%s\", \"graphs\": %u, "
                          "\"staleness\": \"%s\", \"complete\": %s, \"leak_free\": %u, \"containers\": [",
                          r->from_gc, r->to_gc, from_window ? "leak-window" : "given", r->n_graphs,
                          r->sc_upper_bound ? "upper-bound" : "exact", trace->complete ? "true" : "false",
                          r->leak_free);
  for (guint i = 0; i < n; i++)
    {
      const TmContainer *c = g_ptr_array_index (r->containers, i);

      g_string_append (s, i ? ", {\"type\": " : "{\"type\": ");
      tm_json_append_string (s, tm_trace_type (trace, c->type)->name);
      g_string_append_printf (s, ", \"object_id\": %" G_GUINT64_FORMAT ", \"lc\": %.6f, \"mc\": %.6f, \"sc\": %.6f"
                              ", \"elements\": %" G_GUINT64_FORMAT ", \"adds\": %" G_GUINT64_FORMAT
                              ", \"removes\": %" G_GUINT64_FORMAT ", \"bytes\": %" G_GUINT64_FORMAT
                              ", \"first_gc\": %u, \"last_gc\": %u, \"staleness\": \"%s\""
                              ", \"operations\": %" G_GUINT64_FORMAT ", \"growth\": %" G_GINT64_FORMAT
                              ", \"relevant\": %s, \"sites\": [",
                              tm_trace_object_id (trace, c->head_object), c->lc, c->mc, c->sc, c->elements_at_end,
                              c->adds, c->removes, c->bytes_at_end, c->first_gc, c->last_gc,
                              c->exact ? "exact" : "upper-bound", c->ops,
                              (gint64) c->bytes_at_end - (gint64) c->bytes_at_start, c->relevant ? "true" : "false");
      for (guint k = 0; k < c->sites->len; k++)
        {
          const TmContainerSite *cs = &g_array_index (c->sites, TmContainerSite, k);
          g_autofree char *label = site_label (trace, cs->site);
          g_string_append (s, k ? ", {\"site\": " : "{\"site\": ");
          tm_json_append_string (s, label);
          g_string_append_printf (s, ", \"elements\": %" G_GUINT64_FORMAT ", \"staleness\": %.6f}", cs->elements,
                                  cs->mean_staleness);
        }
      g_string_append (s, "]}");
    }
  g_string_append (s, "]}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_text (const char *path, const TmTrace *trace, const TmContainerReport *r, gboolean from_window, guint top)
{
  guint n = top == 0 ? r->containers->len : MIN (top, r->containers->len);

  printf ("Leak confidence of the containers in %s, GCs %u..%u (%s; %u reference graphs)\n", path, r->from_gc,
          r->to_gc, from_window ? "the leak window" : "the given region", r->n_graphs);
  if (!r->ops_recorded)
    printf ("Staleness and LC are upper bounds: the graphs show when elements come and go, not when they are read.\n");
  else if (!r->sc_upper_bound)
    printf ("Staleness and LC are exact: from the recorded container operations (add, get, remove).\n");
  else
    printf ("Staleness and LC are exact from the recorded container operations, except for the containers "
            "marked ~ (no operation recorded): upper bounds from the graphs.\n");
  printf ("%u containers alive at the end are leak-free (empty, or all they gained they lost again).\n\n",
          r->leak_free);
  /* the relevant containers come first: when there are none, what grows
   * is held elsewhere (a hand-grown array, a hand-written list, a field),
   * not by the stale JDK map that tops the list */
  if (n > 0 && !((const TmContainer *) g_ptr_array_index (r->containers, 0))->relevant)
    printf ("No container explains the growth (none grew by 1%% of it): what grows is held outside the "
            "described data structures. Look at the types and the allocation sites that grow "
            "(tidemark-cli trend TRACE --from-gc %u --to-gc %u --classify type, then --classify site).\n\n",
            r->from_gc, r->to_gc);
  printf ("%6s %6s %6s %9s %10s  %s\n", "LC", "MC", "SC", "elements", "size", "container");
  for (guint i = 0; i < n; i++)
    {
      const TmContainer *c = g_ptr_array_index (r->containers, i);
      g_autofree char *b = tm_format_bytes ((double) c->bytes_at_end);

      if (!c->relevant && (i == 0 || ((const TmContainer *) g_ptr_array_index (r->containers, i - 1))->relevant))
        printf ("-- not explaining the growth (each grew by less than 1%% of it):\n");

      printf ("%6.3f %6.3f %5.3f%s %9" G_GUINT64_FORMAT " %10s  %s (object %" G_GUINT64_FORMAT ")\n", c->lc, c->mc,
              c->sc, c->exact || !r->ops_recorded ? " " : "~", c->elements_at_end, b, tm_trace_type (trace, c->type)->name,
              tm_trace_object_id (trace, c->head_object));
      for (guint k = 0; k < c->sites->len && k < 3; k++)
        {
          const TmContainerSite *cs = &g_array_index (c->sites, TmContainerSite, k);
          g_autofree char *label = site_label (trace, cs->site);
          printf ("%31s staleness %.3f, %" G_GUINT64_FORMAT " elements %s %s\n", "", cs->mean_staleness,
                  cs->elements, c->exact ? "added at" : "from", label);
        }
    }
}

/* --by-site: the ranked containers grouped by their allocation site */
static void
print_by_site (const char *path, const TmTrace *trace, const TmContainerReport *r, gboolean from_window, guint top,
               gboolean json)
{
  g_autoptr(GArray) groups = tm_container_report_by_alloc_site (trace, r);
  guint n = top == 0 ? groups->len : MIN (top, groups->len);
  GString *s = g_string_new (NULL);

  if (json)
    g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"region\": \"%s\", \"graphs\": %u, "
                            "\"staleness\": \"%s\", \"leak_free\": %u, \"sites\": [",
                            r->from_gc, r->to_gc, from_window ? "leak-window" : "given", r->n_graphs,
                            r->sc_upper_bound ? "upper-bound" : "exact", r->leak_free);
  else
    g_string_append_printf (s, "Leak confidence by allocation site of the containers in %s, GCs %u..%u (%s; %u "
                            "reference graphs)\nEach site's containers are taken as one: MC adds up, SC is the mean "
                            "over all their elements, LC = SC^(1 - MC).%s\n\n%6s %6s %6s %10s %11s %9s  %s\n",
                            path, r->from_gc, r->to_gc, from_window ? "the leak window" : "the given region",
                            r->n_graphs, r->sc_upper_bound ? " Staleness and LC are upper bounds where marked ~." : "",
                            "LC", "MC", "SC", "containers", "growth", "elements", "allocation site (type)");
  for (guint i = 0; i < n; i++)
    {
      const TmContainerAllocSite *g = &g_array_index (groups, TmContainerAllocSite, i);
      const TmContainer *best = g_ptr_array_index (r->containers, g->top);
      g_autofree char *label = site_label (trace, g->site);
      const char *type = g->type == TM_UNKNOWN ? NULL : tm_trace_type (trace, g->type)->name;
      const char *staleness = g->n_exact == g->n_containers ? "exact" : g->n_exact == 0 ? "upper-bound" : "partly-exact";

      if (json)
        {
          g_string_append (s, i ? ", {\"site\": " : "{\"site\": ");
          tm_json_append_string (s, label);
          g_string_append (s, ", \"type\": ");
          if (type != NULL)
            tm_json_append_string (s, type);
          else
            g_string_append (s, "null");
          g_string_append_printf (s, ", \"containers\": %u, \"exact\": %u, \"staleness\": \"%s\", \"lc\": %.6f, "
                                  "\"mc\": %.6f, \"sc\": %.6f, \"growth\": %" G_GINT64_FORMAT ", \"bytes\": %"
                                  G_GUINT64_FORMAT ", \"elements\": %" G_GUINT64_FORMAT ", \"top_object_id\": %"
                                  G_GUINT64_FORMAT ", \"relevant\": %s}",
                                  g->n_containers, g->n_exact, staleness, g->lc, g->mc, g->sc, g->growth_bytes,
                                  g->bytes_at_end, g->elements_at_end, tm_trace_object_id (trace, best->head_object),
                                  g->relevant ? "true" : "false");
        }
      else
        {
          g_autofree char *b = tm_format_bytes ((double) ABS (g->growth_bytes));
          g_string_append_printf (s, "%6.3f %6.3f %5.3f%s %10u %s%10s %9" G_GUINT64_FORMAT "  %s (%s)\n", g->lc, g->mc,
                                  g->sc, g->n_exact == g->n_containers ? " " : "~", g->n_containers,
                                  g->growth_bytes < 0 ? "-" : "+", b, g->elements_at_end, label,
                                  type != NULL ? type : "several types");
        }
    }
  g_string_append (s, json ? "]}\n" : "");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

int
tm_cmd_containers (int argc, char **argv)
{
  gint64 from_gc = 0, to_gc = 0;
  gint top = 10;
  gboolean json = FALSE, from_window = FALSE, by_site = FALSE;
  g_auto(GStrv) ds_files = NULL;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT64, &from_gc, "First GC of the leak region (default: the leak window)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT64, &to_gc, "Last GC of the leak region (default: the leak window)", "B" },
    { "ds", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &ds_files, "Also load these data structure descriptions", "FILE" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K most suspicious containers (0: all; default 10)", "K" },
    { "by-site", 0, 0, G_OPTION_ARG_NONE, &by_site,
      "Group the containers by the site that allocated them (each group taken as one container)", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("TRACE - leak confidence per container: memory contribution x staleness");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace = NULL;
  g_autoptr(TmDsl) dsl = NULL;
  g_autoptr(TmContainerReport) report = NULL;
  g_autoptr(GError) error = NULL;
  guint32 from, to;
  const char *path;
  int code = TM_EXIT_OK;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "containers", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("containers", argc, argv, &code)) == NULL)
    return code;
  if (top < 0)
    return tm_cli_usage_error ("containers", "--top must be 0 or more");
  if ((from_gc > 0) != (to_gc > 0))
    return tm_cli_usage_error ("containers", "give both --from-gc and --to-gc, or neither");
  if ((dsl = tm_cli_load_descriptions (ds_files, &code)) == NULL)
    return code;
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  tm_document_set_dsl (doc, g_steal_pointer (&dsl));
  trace = tm_document_get_trace (doc);
  if (from_gc > 0)
    {
      if (!tm_cli_window ("containers", path, trace, from_gc, to_gc, &from, &to, &code))
        return code;
    }
  else
    from_window = default_region (doc, &from, &to);
  report = tm_document_containers (doc, from, to, NULL, &error);
  if (report == NULL)
    {
      if (g_error_matches (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT))
        return tm_cli_usage_error ("containers", "%s", error->message);
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (by_site)
    print_by_site (path, trace, report, from_window, top, json);
  else if (json)
    print_json (trace, report, from_window, top);
  else
    print_text (path, trace, report, from_window, top);
  return TM_EXIT_OK;
}
