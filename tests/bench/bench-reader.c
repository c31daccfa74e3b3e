/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reader benchmark.  On one synthesized trace of >= 10^7
 * allocations it measures, side by side in one run and alternating so that
 * machine noise hits both alike:
 *   (a) tm_trace_load time / `zstd -dc FILE > /dev/null` time,
 *   (b) allocation records per second,
 *   (c) model memory per object.
 * Usage: bench-reader [--scale N] [--runs N] [TRACE]
 *        bench-reader --memory FILE...   (any format Tidemark reads: the
 *        model's bytes per allocation and per surviving object, a row each)
 */
#include "tidemark.h"
#include "tm-synth.h"
#include "tm-trace-reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

static double
now (void)
{
  return (double) g_get_monotonic_time () / 1e6;
}

static double
time_zstd (const char *path)
{
  g_autofree char *cmd = g_strdup_printf ("zstd -dc -q '%s' > /dev/null", path);
  double t0 = now ();
  if (system (cmd) != 0)
    g_error ("zstd failed");
  return now () - t0;
}

static double
time_records_only (const char *path, guint64 *n)
{
  g_autoptr(TmTraceReader) r = tm_trace_reader_new (path, NULL);
  TmRecord rec;
  double t0 = now ();
  *n = 0;
  while (tm_trace_reader_next (r, &rec, NULL) == TM_READ_RECORD)
    (*n)++;
  return now () - t0;
}

static double
time_load (const char *path, TmTrace **out)
{
  g_autoptr(GError) error = NULL;
  double t0 = now ();
  TmTrace *t = tm_trace_load (path, NULL, NULL, NULL, &error);
  double dt = now () - t0;
  if (t == NULL)
    g_error ("%s", error->message);
  if (out)
    *out = t;
  else
    tm_trace_unref (t);
  return dt;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* The model's memory of each file, a Markdown row each. */
static int
memory_table (int n, char **paths)
{
  printf ("| file | allocations | rows kept (surviving objects) | short-lived counters | model memory | **bytes per allocation** | bytes per surviving object |\n");
  printf ("|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTrace) t = tm_trace_load (paths[i], NULL, NULL, NULL, &error);
      gsize mem;

      if (t == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      mem = tm_trace_object_memory (t);
      printf ("| %s (%s) | %" G_GUINT64_FORMAT " | %" G_GUINT64_FORMAT " (%.1f %%) | %u | %.1f MiB | **%.2f** | %.1f |\n",
              paths[i], t->format, t->total_allocs, t->n_objects,
              100.0 * (double) t->n_objects / (double) MAX (t->total_allocs, 1), t->short_lived->len,
              mem / 1048576.0, (double) mem / (double) MAX (t->total_allocs, 1), (double) mem / (double) MAX (t->n_objects, 1));
    }
  return 0;
}

int
main (int argc, char **argv)
{
  double scale = 50;
  int runs = 3;
  gboolean memory = FALSE;
  GOptionEntry entries[] = {
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale, "synth scale (50 = ~1e7 allocations)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "runs per measurement (median)", "N" },
    { "memory", 0, 0, G_OPTION_ARG_NONE, &memory, "only the model's memory of each FILE", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[TRACE]");
  g_autofree char *path = NULL;
  gboolean made = FALSE;
  double tz[16], tl[16], tr[16];
  guint64 records = 0;
  TmTrace *t = NULL;
  GStatBuf st;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, NULL))
    return 1;
  runs = CLAMP (runs, 1, 15);
  if (memory)
    return memory_table (argc - 1, argv + 1);

  if (argc > 1)
    path = g_strdup (argv[1]);
  else
    {
      TmSynthOptions opt;
      g_autoptr(GError) error = NULL;
      tm_synth_options_init (&opt);
      opt.scenario = "leak";
      opt.scale = scale;
      path = g_build_filename (g_get_tmp_dir (), "tm-bench-reader.tmtrace", NULL);
      fprintf (stderr, "synthesizing leak --scale %g ...\n", scale);
      if (!tm_synth_write_file (&opt, path, &error))
        g_error ("%s", error->message);
      made = TRUE;
    }
  g_stat (path, &st);

  /* warm the page cache once */
  time_zstd (path);
  for (int i = 0; i < runs; i++)
    {
      tz[i] = time_zstd (path);
      tl[i] = time_load (path, i == runs - 1 ? &t : NULL);
      tr[i] = time_records_only (path, &records);
    }

  {
    double z = median (tz, runs), l = median (tl, runs), r = median (tr, runs);
    gsize mem = tm_trace_object_memory (t);
    printf ("## Reader\n\n");
    printf ("trace: %" G_GUINT64_FORMAT " allocations, %u GCs, %u graphs, %.1f MiB on disk, %" G_GUINT64_FORMAT " records\n\n",
            t->total_allocs, t->gcs->len, t->n_graphs, st.st_size / 1048576.0, records);
    printf ("| measure | value |\n|---|---|\n");
    printf ("| `zstd -dc FILE > /dev/null` | %.3f s |\n", z);
    printf ("| reader + decompression, records only (no model) | %.3f s |\n", r);
    printf ("| tm_trace_load (full model, reachability at graphs) | %.3f s |\n", l);
    printf ("| **(a) load / zstd -dc** | **%.2f** (goal <= 1.5) |\n", l / z);
    printf ("| records-only / zstd -dc | %.2f |\n", r / z);
    printf ("| **(b) allocation records per second** | **%.1f M/s** |\n", t->total_allocs / l / 1e6);
    /* what a row per allocation (the model before the short-lived
     * counters: 5 x 4 bytes, + 1 with spaces) would take, side by side */
    double rows_model = (20.0 + (t->obj_space ? 1 : 0)) * (double) t->total_allocs;
    printf ("| **(c) model memory per allocation** | **%.2f bytes** (a row per allocation: %.0f; goal <= 4) |\n",
            (double) mem / MAX (t->total_allocs, 1), rows_model / MAX (t->total_allocs, 1));
    printf ("| model memory per surviving object (row) | %.1f bytes |\n", (double) mem / MAX (t->n_objects, 1));
    printf ("| rows kept / allocations | %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " (%.1f%%), %u short-lived counters |\n",
            t->n_objects, t->total_allocs, 100.0 * (double) t->n_objects / (double) MAX (t->total_allocs, 1),
            t->short_lived->len);
    printf ("| model memory / a row per allocation | %.3f |\n", (double) mem / rows_model);
  }
  tm_trace_unref (t);
  if (made)
    g_unlink (path);
  return 0;
}
