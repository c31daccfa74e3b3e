/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one-click report vs the analyses it holds: on the synthetic leak
 * (--scale S), (a) the whole-run report (tm_report_compute +
 * tm_report_html, fresh document) against (b) the same analyses asked of
 * a fresh document one by one (data structure growth, heap compare,
 * allocations for the run and each window), so the ratio is what the
 * report adds: GC summary, advice, charts as PNG, HTML.  Also the size of
 * the file.  Median of --runs runs, alternating.
 *
 * usage: bench-report [--scale S] [--runs N]
 */
#include "tm-config.h"
#include "tm-report-html.h"
#include "tm-synth.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  return v[n / 2];
}

static double
run_report (const char *path, gsize *html_bytes)
{
  g_autoptr(TmDocument) doc = tm_document_load (path, NULL, NULL, NULL, NULL);
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(TmReport) report = tm_report_compute (doc, NULL, -1, NULL, NULL, NULL, NULL);
  g_autoptr(GBytes) html = tm_report_html (report, NULL, NULL);

  *html_bytes = g_bytes_get_size (html);
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
run_analyses (const char *path)
{
  static const TmClassifier chain[] = { TM_CLASSIFIER_TYPE };
  g_autoptr(TmDocument) doc = tm_document_load (path, NULL, NULL, NULL, NULL);
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(GPtrArray) windows = tm_document_windows (doc, NULL, FALSE, NULL, NULL);
  TmTimelineModel *m = tm_document_get_timeline (doc);

  for (guint i = 0; i <= windows->len; i++)
    {
      const TmWindow *w = i ? windows->pdata[i - 1] : NULL;
      guint first = w ? w->first_gc : 1, last = w ? w->last_gc : m->n_gcs;
      TmRangeStats st;

      if (tm_timeline_model_range_stats (m, first, last, &st) && st.reachable_first_gc &&
          st.reachable_first_gc != st.reachable_last_gc)
        {
          g_autoptr(TmDsGrowth) g = tm_document_ds_growth (doc, st.reachable_first_gc, st.reachable_last_gc,
                                                           NULL, NULL, NULL, NULL);
          g_autoptr(TmHeapDiff) d = tm_document_heap_diff (doc, st.reachable_first_gc, st.reachable_last_gc, chain, 1,
                                                           TM_DOCUMENT_TREE_DEFAULT, FALSE, NULL, NULL, NULL, NULL);
          g_autoptr(GArray) top = tm_heap_diff_sorted_children (d, 0, TM_HEAP_METRIC_RETAINED_BYTES, NULL, NULL);
        }
      {
        g_autoptr(TmVmMetrics) vm = tm_document_vm_metrics (doc, first, last, TM_CLASSIFIER_TYPE, NULL, NULL);
      }
    }
  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (int argc, char **argv)
{
  double scale = 1;
  int runs = 3;
  GOptionEntry entries[] = {
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale, "Synthetic leak scale (1: ~2e5 allocations)", "S" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Runs (median)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- the report vs its analyses");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("bench-report-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "leak.tmtrace", NULL);
  TmSynthOptions o;
  double *a, *b;
  gsize html = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || runs < 1)
    {
      fprintf (stderr, "%s\n", error ? error->message : "--runs must be 1 or more");
      return 1;
    }
  tm_synth_options_init (&o);
  o.scenario = "leak";
  o.scale = scale;
  if (!tm_synth_write_file (&o, path, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  a = g_new (double, runs);
  b = g_new (double, runs);
  for (int i = 0; i < runs; i++)
    {
      b[i] = run_analyses (path);
      a[i] = run_report (path, &html);
    }
  printf ("synthetic leak, scale %.1f, median of %d runs\n", scale, runs);
  printf ("(b) the analyses one by one  %8.3f s\n", median (b, runs));
  printf ("(a) the whole-run report     %8.3f s\n", median (a, runs));
  printf ("report / analyses            %8.2f\n", median (a, runs) / median (b, runs));
  printf ("HTML file                    %8.2f MiB\n", html / 1048576.0);
  g_unlink (path);
  g_rmdir (dir);
  g_free (a);
  g_free (b);
  return 0;
}
