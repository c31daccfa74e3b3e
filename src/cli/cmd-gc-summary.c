/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli gc-summary: throughput, pauses, rates and footprint of a
 * whole run or of a range of GCs (definitions in docs/gc-summary.md). */
#include "cli-common.h"
#include "cli-commands.h"
#include "tm-gc-summary.h"
#include "tm-gc-phases.h"

#include <math.h>
#include <stdio.h>

static void
json_pauses (GString *s, const TmPauseStats *p)
{
  g_string_append_printf (s, "{\"count\": %u, \"total_ns\": %" G_GUINT64_FORMAT ", \"mean_ns\": %" G_GUINT64_FORMAT
                          ", \"min_ns\": %" G_GUINT64_FORMAT ", \"max_ns\": %" G_GUINT64_FORMAT
                          ", \"p50_ns\": %" G_GUINT64_FORMAT ", \"p90_ns\": %" G_GUINT64_FORMAT
                          ", \"p99_ns\": %" G_GUINT64_FORMAT ", \"p99_9_ns\": %" G_GUINT64_FORMAT "}",
                          p->count, p->total_ns, p->mean_ns, p->min_ns, p->max_ns, p->p50_ns, p->p90_ns,
                          p->p99_ns, p->p999_ns);
}

static void
print_json (const TmTrace *t, const TmGcSummary *g)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "{\"from_gc\": %u, \"to_gc\": %u, \"start_ns\": %" G_GUINT64_FORMAT
                          ", \"end_ns\": %" G_GUINT64_FORMAT ", \"duration_ns\": %" G_GUINT64_FORMAT
                          ", \"throughput\": ",
                          g->first_gc, g->last_gc, g->start_ns, g->end_ns, g->end_ns - g->start_ns);
  tm_cli_json_double (s, g->throughput);
  g_string_append (s, ",\n \"pauses\": ");
  json_pauses (s, &g->pauses);
  g_string_append (s, ",\n \"by_kind\": {");
  for (guint k = 0, n = 0; k < TM_GC_N_KINDS; k++)
    {
      if (g->by_kind[k].count == 0)
        continue;
      g_string_append (s, n++ ? ",\n   " : "\n   ");
      tm_json_append_string (s, tm_gc_kind_to_string ((TmGcKind) k));
      g_string_append (s, ": ");
      json_pauses (s, &g->by_kind[k]);
    }
  g_string_append_printf (s, "},\n \"full_gcs\": {\"count\": %u, \"total_ns\": %" G_GUINT64_FORMAT "}"
                          ",\n \"allocated_bytes\": %" G_GUINT64_FORMAT ", \"allocation_rate\": ",
                          g->full_gcs, g->full_gc_ns, g->allocated_bytes);
  tm_cli_json_double (s, g->allocation_rate);
  g_string_append (s, ",\n \"promoted_bytes\": ");
  if (g->has_promotion)
    g_string_append_printf (s, "%" G_GUINT64_FORMAT, g->promoted_bytes);
  else
    g_string_append (s, "null");
  g_string_append (s, ", \"promotion_rate\": ");
  tm_cli_json_double (s, g->has_promotion ? g->promotion_rate : NAN);
  g_string_append_printf (s, ",\n \"freed_bytes\": %" G_GUINT64_FORMAT ", \"footprint_bytes\": %" G_GUINT64_FORMAT
                          ", \"peak_used_bytes\": %" G_GUINT64_FORMAT,
                          g->freed_bytes, g->footprint_bytes, g->peak_used_bytes);
  g_string_append_printf (s, ",\n \"after_full_gc\": {\"count\": %u", g->n_after_full);
  if (g->n_after_full > 0)
    g_string_append_printf (s, ", \"min_bytes\": %" G_GUINT64_FORMAT ", \"max_bytes\": %" G_GUINT64_FORMAT
                            ", \"last_bytes\": %" G_GUINT64_FORMAT,
                            g->after_full_min, g->after_full_max, g->after_full_last);
  g_string_append (s, ", \"slope_bytes_per_s\": ");
  tm_cli_json_double (s, g->after_full_slope);
  g_string_append (s, "},\n \"phases\": {");
  {
    /* concurrent cycles and phases, stalls, degenerated GCs (tidemark-cli gc-phases has them by name) */
    TmGcPhaseSummary ps;
    tm_gc_phase_summary_compute (t, g->first_gc, g->last_gc, &ps);
    for (guint k = 0; k < TM_GC_PHASE_N_KINDS; k++)
      g_string_append_printf (s, "%s\"%s\": {\"count\": %u, \"total_ns\": %" G_GUINT64_FORMAT "}", k ? ", " : "",
                              tm_gc_phase_kind_to_string (k), ps.n_per_kind[k], ps.ns_per_kind[k]);
    tm_gc_phase_summary_clear (&ps);
  }
  g_string_append (s, "},\n ");
  tm_cli_json_print_end (s, t);
}

static void
print_pauses (const char *label, const TmPauseStats *p)
{
  g_autofree char *total = tm_format_duration ((double) p->total_ns);
  g_autofree char *mean = tm_format_duration ((double) p->mean_ns);
  g_autofree char *max = tm_format_duration ((double) p->max_ns);
  g_autofree char *p50 = tm_format_duration ((double) p->p50_ns);
  g_autofree char *p90 = tm_format_duration ((double) p->p90_ns);
  g_autofree char *p99 = tm_format_duration ((double) p->p99_ns);
  g_autofree char *p999 = tm_format_duration ((double) p->p999_ns);

  printf ("  %-12s %6u  total %-10s mean %-10s max %-10s p50 %-10s p90 %-10s p99 %-10s p99.9 %s\n",
          label, p->count, total, mean, max, p50, p90, p99, p999);
}

static char *
rate (guint64 bytes, double per_s)
{
  g_autofree char *b = tm_format_bytes ((double) bytes);
  g_autofree char *r = isfinite (per_s) ? tm_format_bytes (per_s) : g_strdup ("?");
  return g_strdup_printf ("%s (%s/s)", b, r);
}

static void
print_text (const char *path, const TmTrace *t, const TmGcSummary *g)
{
  g_autofree char *from = tm_format_duration ((double) g->start_ns);
  g_autofree char *to = tm_format_duration ((double) g->end_ns);
  g_autofree char *span = tm_format_duration ((double) (g->end_ns - g->start_ns));
  g_autofree char *paused = tm_format_duration ((double) g->pauses.total_ns);
  g_autofree char *full = tm_format_duration ((double) g->full_gc_ns);
  g_autofree char *alloc = rate (g->allocated_bytes, g->allocation_rate);
  g_autofree char *promo = g->has_promotion ? rate (g->promoted_bytes, g->promotion_rate)
                                            : g_strdup ("not known (the source logs no generation sizes)");
  g_autofree char *freed = tm_format_bytes ((double) g->freed_bytes);
  g_autofree char *foot = tm_format_bytes ((double) g->footprint_bytes);
  g_autofree char *peak = tm_format_bytes ((double) g->peak_used_bytes);

  if (g->last_gc == 0)
    {
      printf ("GC summary of %s: no GC in the log\n", path);
      return;
    }
  printf ("GC summary of %s, GC %u to GC %u (%s to %s, %s)\n", path, g->first_gc, g->last_gc, from, to, span);
  if (isnan (g->throughput))
    printf ("Throughput:      not known: the GCs have no times (paused %s)\n", paused);
  else
    printf ("Throughput:      %.3f%% (paused %s)\n", g->throughput * 100, paused);
  printf ("Pauses:\n");
  print_pauses ("all", &g->pauses);
  for (guint k = 0; k < TM_GC_N_KINDS; k++)
    if (g->by_kind[k].count > 0)
      print_pauses (tm_gc_kind_to_string ((TmGcKind) k), &g->by_kind[k]);
  printf ("Full GCs:        %u (%s)\n", g->full_gcs, full);
  printf ("Allocated:       %s\n", alloc);
  printf ("Promoted:        %s\n", promo);
  printf ("Freed:           %s\n", freed);
  printf ("Footprint:       %s (largest committed heap); peak occupancy %s\n", foot, peak);
  if (g->n_after_full > 0)
    {
      g_autofree char *mn = tm_format_bytes ((double) g->after_full_min);
      g_autofree char *mx = tm_format_bytes ((double) g->after_full_max);
      g_autofree char *last = tm_format_bytes ((double) g->after_full_last);
      g_autofree char *slope = isfinite (g->after_full_slope) ? tm_format_bytes (fabs (g->after_full_slope)) : NULL;
      printf ("After full GCs:  min %s, max %s, last %s", mn, mx, last);
      if (slope != NULL)
        printf (", trend %s%s/s", g->after_full_slope < 0 ? "-" : "+", slope);
      printf ("\n");
    }
  else
    printf ("After full GCs:  no full GC in the range\n");
  {
    TmGcPhaseSummary ps;
    tm_gc_phase_summary_compute (t, g->first_gc, g->last_gc, &ps);
    for (guint k = 0; k < TM_GC_PHASE_N_KINDS; k++)
      if (ps.n_per_kind[k] > 0 && k != TM_GC_PHASE_PAUSE)
        {
          g_autofree char *total = tm_format_duration ((double) ps.ns_per_kind[k]);
          g_autofree char *label = g_strdup_printf ("%s:", tm_gc_phase_kind_title (k));
          printf ("%-16s %u, %s in all\n", label, ps.n_per_kind[k], total);
        }
    tm_gc_phase_summary_clear (&ps);
  }
}

int
tm_cmd_gc_summary (int argc, char **argv)
{
  gboolean json = FALSE;
  gint from = 0, to = 0;
  int code = TM_EXIT_OK;
  GOptionEntry entries[] = {
    { "from-gc", 0, 0, G_OPTION_ARG_INT, &from, "First GC of the range (default: the first)", "A" },
    { "to-gc", 0, 0, G_OPTION_ARG_INT, &to, "Last GC of the range (default: the last; clipped to the last)", "B" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE [--from-gc A --to-gc B] - GC summary of a run or a range of GCs");
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;
  g_autoptr(GError) error = NULL;
  TmGcSummary g;
  const char *path;
  guint32 first, last;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!tm_cli_parse (ctx, "gc-summary", &argc, &argv, &code))
    return code;
  path = tm_cli_single_input ("gc-summary", argc, argv, &code);
  if (path == NULL)
    return code;
  doc = tm_cli_open (path, &code);
  if (doc == NULL)
    return code;
  trace = tm_document_get_trace (doc);
  if (tm_trace_n_gcs (trace) == 0 && from == 0 && to == 0)
    first = last = 0;   /* nothing logged yet: an empty summary, not an error */
  else if (!tm_cli_window ("gc-summary", path, trace, from, to, &first, &last, &code))
    return code;
  if (!tm_gc_summary_compute (trace, first, last, &g, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return TM_EXIT_INPUT;
    }
  if (json)
    print_json (trace, &g);
  else
    print_text (path, trace, &g);
  return TM_EXIT_OK;
}
