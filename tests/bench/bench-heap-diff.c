/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Heap compare (tm_document_heap_diff) against what it is made of, side
 * by side in one run on the synthetic leak (scale S, default 20: about
 * 4,000 GCs' worth of allocations over 200 GCs), comparing the first and
 * the last graph GC of the leak, heap states kept (as the app has them):
 *
 *   trees     two classification trees (type,site), shallow sizes
 *   diff      the same two trees merged into the diff
 *   trees+    the two trees with every group's deep and retained size
 *   diff+     the diff with every node's deep and retained sizes
 *
 * Best of three, alternating.  Usage: bench-heap-diff [S]
 */
#include "tidemark.h"
#include "tm-synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <glib/gstdio.h>

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

static const TmClassifier chain[] = { TM_CLASSIFIER_TYPE, TM_CLASSIFIER_SITE };

static double
run_trees (TmDocument *doc, guint a, guint b, gboolean all)
{
  double t0 = now_s ();
  g_autoptr(TmClassTree) x = tm_document_class_tree (doc, a, chain, 2, TM_DOCUMENT_TREE_DEFAULT, NULL, NULL, NULL, NULL);
  g_autoptr(TmClassTree) y = tm_document_class_tree (doc, b, chain, 2, TM_DOCUMENT_TREE_DEFAULT, NULL, NULL, NULL, NULL);

  if (all)
    {
      tm_class_tree_compute_all (x, NULL, NULL, NULL, NULL);
      tm_class_tree_compute_all (y, NULL, NULL, NULL, NULL);
    }
  return now_s () - t0;
}

static double
run_diff (TmDocument *doc, guint a, guint b, gboolean all, guint *n_nodes)
{
  double t0 = now_s ();
  g_autoptr(TmHeapDiff) d = tm_document_heap_diff (doc, a, b, chain, 2, TM_DOCUMENT_TREE_DEFAULT, all,
                                                   NULL, NULL, NULL, NULL);
  double t = now_s () - t0;

  *n_nodes = d->nodes->len;
  return t;
}

int
main (int argc, char **argv)
{
  double scale = argc > 1 ? atof (argv[1]) : 20;
  g_autofree char *dir = g_dir_make_tmp ("bench-heap-diff-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "leak.tmtrace", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDocument) doc = NULL;
  TmSynthOptions opt;
  TmTrace *trace;
  guint a = 0, b = 0, n_nodes = 0;
  double best[4] = { 1e9, 1e9, 1e9, 1e9 };

  tm_synth_options_init (&opt);
  opt.scenario = "leak";
  opt.scale = scale;
  if (!tm_synth_write_file (&opt, path, &error) || (doc = tm_document_load (path, NULL, NULL, NULL, &error)) == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  trace = tm_document_get_trace (doc);
  for (guint gc = tm_trace_n_gcs (trace) / 5; gc <= tm_trace_n_gcs (trace); gc++)
    if (tm_trace_gc (trace, gc)->has_graph)
      {
        if (a == 0)
          a = gc;
        b = gc;
      }
  /* the heap states once, outside the timings */
  run_trees (doc, a, b, FALSE);
  for (int r = 0; r < 3; r++)
    {
      best[0] = MIN (best[0], run_trees (doc, a, b, FALSE));
      best[1] = MIN (best[1], run_diff (doc, a, b, FALSE, &n_nodes));
      best[2] = MIN (best[2], run_trees (doc, a, b, TRUE));
      best[3] = MIN (best[3], run_diff (doc, a, b, TRUE, &n_nodes));
    }
  printf ("heap compare, GC %u -> %u of the leak at scale %.0f: %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT
          " objects, %u diff nodes (type,site)\n",
          a, b, scale, tm_trace_gc (trace, a)->live_objects, tm_trace_gc (trace, b)->live_objects, n_nodes);
  printf ("%-34s %10s %8s\n", "", "seconds", "ratio");
  printf ("%-34s %10.4f %8s\n", "two trees, shallow", best[0], "1.00");
  printf ("%-34s %10.4f %8.2f\n", "diff, shallow", best[1], best[1] / best[0]);
  printf ("%-34s %10.4f %8s\n", "two trees, deep + retained", best[2], "1.00");
  printf ("%-34s %10.4f %8.2f\n", "diff, deep + retained", best[3], best[3] / best[2]);
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
