/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli transactions: per transaction kind, what its runs allocated
 * and freed per class, and the runs that left objects behind after the
 * next whole-heap GC (leak suspects) with the survivors' allocation sites
 * (tm-transactions.h). */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-transactions.h"

#include <stdio.h>

static char *
site_label (const TmTrace *trace, guint32 site)
{
  return site == TM_UNKNOWN ? g_strdup ("(unknown site)") : tm_trace_site_label (trace, site);
}

/* kind: to mark recurring sites (NULL: every site of one run) */
static void
json_sites (GString *s, const TmTrace *trace, const TmTxKindReport *kind, const GArray *sites, guint top)
{
  guint n = top == 0 ? sites->len : MIN (top, sites->len);

  g_string_append_c (s, '[');
  for (guint i = 0; i < n; i++)
    {
      const TmTxSurvivorSite *ss = &g_array_index (sites, TmTxSurvivorSite, i);
      g_autofree char *label = site_label (trace, ss->site);

      g_string_append (s, i ? ", {\"type\": " : "{\"type\": ");
      tm_json_append_string (s, tm_trace_type (trace, ss->type)->name);
      g_string_append (s, ", \"site\": ");
      tm_json_append_string (s, label);
      g_string_append_printf (s, ", \"objects\": %" G_GUINT64_FORMAT ", \"bytes\": %" G_GUINT64_FORMAT
                              ", \"runs\": %u, \"recurring\": %s}", ss->objects, ss->bytes, ss->runs,
                              kind == NULL || tm_tx_site_is_recurring (kind, ss) ? "true" : "false");
    }
  g_string_append_c (s, ']');
}

static void
print_json (const TmTxReport *r, guint top)
{
  const TmTrace *trace = r->trace;
  GString *s = g_string_new (NULL);
  guint n = top == 0 ? r->suspects->len : MIN (top, r->suspects->len);
  gboolean first = TRUE;

  g_string_append_printf (s, "{\"complete\": %s, \"runs\": %u, \"unchecked_runs\": %" G_GUINT64_FORMAT
                          ", \"suspect_runs\": %u, \"kinds\": [", trace->complete ? "true" : "false",
                          r->runs->len, r->unchecked_runs, r->suspects->len);
  for (guint k = 0; k < r->kinds->len; k++)
    {
      const TmTxKindReport *kr = g_ptr_array_index (r->kinds, k);

      if (kr->runs == 0)
        continue;
      g_string_append (s, first ? "{\"name\": " : ", {\"name\": ");
      first = FALSE;
      tm_json_append_string (s, g_array_index (trace->tx_kinds, TmTxKind, kr->kind).name);
      g_string_append_printf (s, ", \"runs\": %" G_GUINT64_FORMAT ", \"checked_runs\": %" G_GUINT64_FORMAT
                              ", \"suspect_runs\": %" G_GUINT64_FORMAT ", \"one_time_runs\": %" G_GUINT64_FORMAT
                              ", \"allocated_objects\": %" G_GUINT64_FORMAT
                              ", \"allocated_bytes\": %" G_GUINT64_FORMAT ", \"surviving_objects\": %" G_GUINT64_FORMAT
                              ", \"surviving_bytes\": %" G_GUINT64_FORMAT ", \"classes\": [",
                              kr->runs, kr->checked_runs, kr->suspect_runs, kr->one_time_runs, kr->allocated_objects,
                              kr->allocated_bytes, kr->surviving_objects, kr->surviving_bytes);
      for (guint c = 0; c < kr->classes->len; c++)
        {
          const TmTxClassStats *cs = &g_array_index (kr->classes, TmTxClassStats, c);
          g_string_append (s, c ? ", {\"type\": " : "{\"type\": ");
          tm_json_append_string (s, tm_trace_type (trace, cs->type)->name);
          g_string_append_printf (s, ", \"allocated_objects\": %" G_GUINT64_FORMAT ", \"allocated_bytes\": %"
                                  G_GUINT64_FORMAT ", \"freed_objects\": %" G_GUINT64_FORMAT
                                  ", \"freed_bytes\": %" G_GUINT64_FORMAT ", \"surviving_objects\": %"
                                  G_GUINT64_FORMAT ", \"surviving_bytes\": %" G_GUINT64_FORMAT "}",
                                  cs->allocated_objects, cs->allocated_bytes, cs->freed_objects, cs->freed_bytes,
                                  cs->surviving_objects, cs->surviving_bytes);
        }
      g_string_append (s, "], \"survivor_sites\": ");
      json_sites (s, trace, kr, kr->sites, 0);
      g_string_append_c (s, '}');
    }
  g_string_append (s, "], \"suspects\": [");
  for (guint i = 0; i < n; i++)
    {
      const TmTxRun *run = g_ptr_array_index (r->suspects, i);
      const TmTransaction *tx = &g_array_index (trace->transactions, TmTransaction, run->index);

      g_string_append_printf (s, "%s{\"id\": %" G_GUINT64_FORMAT ", \"kind\": ", i ? ", " : "", tx->id);
      tm_json_append_string (s, g_array_index (trace->tx_kinds, TmTxKind, tx->kind).name);
      g_string_append (s, ", \"thread\": ");
      tm_json_append_string (s, tm_trace_thread (trace, tx->thread)->name);
      g_string_append_printf (s, ", \"begin_ns\": %" G_GUINT64_FORMAT ", \"end_ns\": %" G_GUINT64_FORMAT
                              ", \"check_gc\": %u, \"allocated_objects\": %" G_GUINT64_FORMAT
                              ", \"surviving_objects\": %" G_GUINT64_FORMAT ", \"surviving_bytes\": %"
                              G_GUINT64_FORMAT ", \"recurring_objects\": %" G_GUINT64_FORMAT
                              ", \"recurring_bytes\": %" G_GUINT64_FORMAT ", \"sites\": ",
                              tx->begin_ns, tx->end_ns, run->check_gc, run->allocated_objects,
                              run->surviving_objects, run->surviving_bytes, run->recurring_objects,
                              run->recurring_bytes);
      json_sites (s, trace, g_ptr_array_index (r->kinds, tx->kind), run->sites, 0);
      g_string_append_c (s, '}');
    }
  g_string_append (s, "]}\n");
  fputs (s->str, stdout);
  g_string_free (s, TRUE);
}

static void
print_text (const char *path, const TmTxReport *r, guint top)
{
  const TmTrace *trace = r->trace;
  guint n = top == 0 ? r->suspects->len : MIN (top, r->suspects->len);

  printf ("Transactions in %s: %u runs, %u leave objects behind after the next whole-heap GC",
          path, r->runs->len, r->suspects->len);
  if (r->unchecked_runs > 0)
    printf (" (%" G_GUINT64_FORMAT " runs had no whole-heap GC after them: not checked)", r->unchecked_runs);
  printf ("\n\n%-40s %8s %8s %12s %12s\n", "transaction", "runs", "suspect", "allocated", "surviving");
  for (guint k = 0; k < r->kinds->len; k++)
    {
      const TmTxKindReport *kr = g_ptr_array_index (r->kinds, k);
      g_autofree char *ab = tm_format_bytes ((double) kr->allocated_bytes);
      g_autofree char *sb = tm_format_bytes ((double) kr->surviving_bytes);

      if (kr->runs == 0)
        continue;
      printf ("%-40s %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %12s %12s\n",
              g_array_index (trace->tx_kinds, TmTxKind, kr->kind).name, kr->runs, kr->suspect_runs, ab, sb);
      for (guint i = 0; i < kr->sites->len && i < 5; i++)
        {
          const TmTxSurvivorSite *ss = &g_array_index (kr->sites, TmTxSurvivorSite, i);
          g_autofree char *label = site_label (trace, ss->site);
          g_autofree char *b = tm_format_bytes ((double) ss->bytes);
          printf ("    survivors: %s x %" G_GUINT64_FORMAT " (%s, in %u runs%s) at %s\n",
                  tm_trace_type (trace, ss->type)->name, ss->objects, b, ss->runs,
                  tm_tx_site_is_recurring (kr, ss) ? "" : ": once, initialisation", label);
        }
    }
  if (n > 0)
    printf ("\nSuspect runs, most surviving bytes first:\n");
  for (guint i = 0; i < n; i++)
    {
      const TmTxRun *run = g_ptr_array_index (r->suspects, i);
      const TmTransaction *tx = &g_array_index (trace->transactions, TmTransaction, run->index);
      g_autofree char *sb = tm_format_bytes ((double) run->recurring_bytes);

      printf ("  run %" G_GUINT64_FORMAT " of %s on %s at %.3f s: %" G_GUINT64_FORMAT " objects (%s) alive after GC %u\n",
              tx->id, g_array_index (trace->tx_kinds, TmTxKind, tx->kind).name,
              tm_trace_thread (trace, tx->thread)->name, tx->begin_ns / 1e9, run->recurring_objects, sb,
              run->check_gc);
    }
}

int
tm_cmd_transactions (int argc, char **argv)
{
  gint top = 20;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Show the K worst suspect runs (0: all; default 20)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx =
    g_option_context_new ("TRACE - transactions that leave objects behind (record --transaction)");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace = NULL;
  g_autoptr(TmTxReport) report = NULL;
  g_autoptr(GError) error = NULL;
  const char *path;
  int code = TM_EXIT_OK;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "transactions", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("transactions", argc, argv, &code)) == NULL)
    return code;
  if (top < 0)
    return tm_cli_usage_error ("transactions", "--top must be 0 or more");
  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  report = tm_transactions_analyse (trace, NULL, &error);
  if (report == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return TM_EXIT_INPUT;
    }
  if (json)
    print_json (report, top);
  else
    print_text (path, report, top);
  return TM_EXIT_OK;
}
