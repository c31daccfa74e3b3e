/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HPROF importer benchmark, side by side in one run on one dump:
 *   (a) tm_hprof_import time / `cat FILE > /dev/null` time (goal <= 5),
 *   (b) model memory per object (goal <= 24 bytes) and the peak RSS of
 *       the import,
 *   (c) reading the graph back for analyses / import time.
 * Runs alternate (cat, import, import on one thread, cat, ...), medians
 * are printed; the one-thread import (hprof_parse_set_one_thread) shows
 * what the applying thread gains where a second core is free.
 *
 *   bench-hprof DUMP [--runs N]
 * tests/bench/bench-hprof.sh makes a 10^7-object dump with data/demo/HeapDemo.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tidemark.h"
#include "tm-hprof-private.h"

static double
now (void)
{
  return (double) g_get_monotonic_time () / 1e6;
}

/* CPU seconds (user + system) of this process, or of its waited children */
static double
cpu (int who)
{
  struct rusage ru;
  getrusage (who, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double
time_cat (const char *path, double *cpu_s)
{
  g_autofree char *cmd = g_strdup_printf ("cat '%s' > /dev/null", path);
  double t0 = now (), c0 = cpu (RUSAGE_CHILDREN);
  if (system (cmd) != 0)
    g_error ("cat failed");
  *cpu_s = cpu (RUSAGE_CHILDREN) - c0;
  return now () - t0;
}

/* resident bytes now (Linux) */
static double
rss_now (void)
{
  g_autofree char *statm = NULL;
  unsigned long pages = 0, resident = 0;

  if (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    sscanf (statm, "%lu %lu", &pages, &resident);
  return (double) resident * (double) sysconf (_SC_PAGESIZE);
}

static double
rss_peak (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_maxrss * 1024.0;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Where the import's time goes, from its progress: reading the dump
 * (up to 0.765 = 0.85 * 0.9), resolving references (to 0.85), then
 * marking the graph and finishing the model. */
typedef struct {
  double t0, read_end, resolve_end;
} Phases;

static void
phase_progress (double fraction, gpointer user)
{
  Phases *ph = user;

  if (ph->read_end == 0 && fraction > 0.85 * 0.9 + 1e-9)
    ph->read_end = now ();
  if (ph->resolve_end == 0 && fraction >= 0.85 - 1e-9)
    ph->resolve_end = now ();
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return v[n / 2];
}

int
main (int argc, char **argv)
{
  guint runs = 3;
  const char *path;
  double *t_cat, *t_imp, *c_cat, *c_imp, *t_read, *t_resolve, *t_one, *c_one;
  double t_graph = 0, rss_model = 0, peak_import = 0, peak_graph = 0;
  guint64 n = 0, edges = 0;
  gsize model = 0;
  struct rusage ru;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bench-hprof DUMP [--runs N]\n");
      return 1;
    }
  path = argv[1];
  if (argc >= 4 && g_strcmp0 (argv[2], "--runs") == 0)
    runs = (guint) MAX (1, atoi (argv[3]));
  t_cat = g_new (double, runs);
  t_imp = g_new (double, runs);
  c_cat = g_new (double, runs);
  c_imp = g_new (double, runs);
  t_read = g_new (double, runs);
  t_resolve = g_new (double, runs);
  t_one = g_new (double, runs);
  c_one = g_new (double, runs);

  time_cat (path, &c_cat[0]);   /* warm the page cache */
  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTrace) t = NULL;
      double t0, c0;
      Phases ph = { 0 };

      t_cat[r] = time_cat (path, &c_cat[r]);
      t0 = now ();
      c0 = cpu (RUSAGE_SELF);
      t = tm_hprof_import (path, phase_progress, &ph, NULL, &error);
      t_imp[r] = now () - t0;
      t_read[r] = ph.read_end > 0 ? ph.read_end - t0 : 0;
      t_resolve[r] = ph.resolve_end > 0 && ph.read_end > 0 ? ph.resolve_end - ph.read_end : 0;
      c_imp[r] = cpu (RUSAGE_SELF) - c0;
      if (t == NULL)
        g_error ("%s", error->message);
      n = t->n_objects;
      model = tm_trace_object_memory (t);
      if (r == 0)
        {
          TmHeapGraph *g;
          peak_import = rss_peak ();
          rss_model = rss_now ();
          t0 = now ();
          g = tm_heap_graph_read (t, 1, NULL, &error);
          t_graph = now () - t0;
          if (g == NULL)
            g_error ("%s", error->message);
          edges = g->n_edges;
          peak_graph = rss_peak ();
          tm_heap_graph_free (g);
        }
      g_clear_pointer (&t, tm_trace_unref);
      {
        /* the same import applying objects on the parsing thread */
        g_autoptr(TmTrace) one = NULL;
        hprof_parse_set_one_thread (TRUE);
        t0 = now ();
        c0 = cpu (RUSAGE_SELF);
        one = tm_hprof_import (path, NULL, NULL, NULL, &error);
        t_one[r] = now () - t0;
        c_one[r] = cpu (RUSAGE_SELF) - c0;
        hprof_parse_set_one_thread (FALSE);
        if (one == NULL)
          g_error ("%s", error->message);
      }
    }
  getrusage (RUSAGE_SELF, &ru);

  {
    double cat = median (t_cat, runs), imp = median (t_imp, runs);
    double ccat = median (c_cat, runs), cimp = median (c_imp, runs);
    printf ("dump: %s, %" G_GUINT64_FORMAT " objects, %" G_GUINT64_FORMAT " references in the live graph\n",
            path, n, edges);
    printf ("cat FILE > /dev/null      %.3f s (median of %u)\n", cat, runs);
    printf ("tm_hprof_import           %.3f s (median of %u)\n", imp, runs);
    printf ("(a) import / cat          %.2f (goal <= 5)\n", imp / cat);
    printf ("    CPU time: cat %.3f s, import %.3f s, ratio %.2f (on a loaded machine the wall ratio counts waiting)\n",
            ccat, cimp, cimp / MAX (ccat, 1e-3));
    printf ("    one thread parsing and applying: %.3f s, CPU %.3f s: import / cat %.2f\n",
            median (t_one, runs), median (c_one, runs), median (t_one, runs) / cat);
    printf ("    phases (medians): reading %.3f s, resolving %.3f s, marking and the rest %.3f s\n",
            median (t_read, runs), median (t_resolve, runs),
            imp - median (t_read, runs) - median (t_resolve, runs));
    printf ("    objects per second    %.1f M/s\n", (double) n / imp / 1e6);
    printf ("(b) model bytes / object  %.1f (goal <= 24)\n", (double) model / (double) MAX (n, 1));
    printf ("    peak RSS              %.0f MiB (%.1f bytes / object, the first import and its graph read)\n",
            peak_graph / 1048576.0, peak_graph / (double) MAX (n, 1));
    printf ("    peak RSS of the run   %.0f MiB (%.1f bytes / object, with the later imports)\n",
            ru.ru_maxrss / 1024.0, ru.ru_maxrss * 1024.0 / (double) MAX (n, 1));
    printf ("    peak RSS of the import %.0f MiB (%.1f bytes / object)\n", peak_import / 1048576.0,
            peak_import / (double) MAX (n, 1));
    printf ("(c) graph read            %.3f s (%.2f x import)\n", t_graph, t_graph / imp);
    printf ("    RSS before it         %.0f MiB (the model and the allocator's pages), peak during it %.0f MiB:\n"
            "    the graph read's own  %.1f bytes / object\n",
            rss_model / 1048576.0, peak_graph / 1048576.0, (peak_graph - rss_model) / (double) MAX (n, 1));
  }
  g_free (t_cat);
  g_free (t_imp);
  g_free (c_cat);
  g_free (c_imp);
  g_free (t_read);
  g_free (t_one);
  g_free (c_one);
  g_free (t_resolve);
  return 0;
}
