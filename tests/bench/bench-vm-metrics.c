/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * VM-level metrics over the synthetic leak scaled to ~10^7 allocations, as
 * ratios to one plain pass over the window's object records, side by side
 * in one run (goal: the allocation series within 10x that pass):
 *
 *   baseline   one plain pass over type, size and death of every object
 *              allocated before the window's last GC
 *   allocs     tm_alloc_series_compute by type, by site, and type/thread
 *              drilled into the largest type
 *   lifetimes  tm_lifetimes_compute by type
 *   survival   tm_survival_compute
 *
 * Usage: bench-vm-metrics [SCALE]   (default 50: ~10^7 allocations)
 */
#include "tm-vm-metrics.h"
#include "tm-synth.h"
#include "tm-trace-loader.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile guint64 sink;

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static void
plain_pass (TmTrace *trace, guint64 limit)
{
  guint64 sum = 0;

  for (guint64 i = 0; i < limit; i++)
    sum += trace->obj_size[i] ^ trace->obj_type[i] ^ trace->obj_death[i];
  sink = sum;
}

static double
best_of (int n, double (*f) (TmTrace *, gpointer), TmTrace *trace, gpointer data)
{
  double best = G_MAXDOUBLE;
  for (int i = 0; i < n; i++)
    best = MIN (best, f (trace, data));
  return best;
}

static double
time_plain (TmTrace *trace, gpointer data)
{
  double t0 = now_ms ();
  plain_pass (trace, tm_trace_allocs_before_gc (trace, tm_trace_n_gcs (trace)));
  return now_ms () - t0;
}

static double
time_allocs (TmTrace *trace, gpointer data)
{
  TmAllocRequest *req = data;
  g_autoptr(GError) error = NULL;
  double t0 = now_ms ();
  g_autoptr(TmAllocSeries) s = tm_alloc_series_compute (trace, req, NULL, &error);

  if (s == NULL)
    g_error ("%s", error->message);
  return now_ms () - t0;
}

static double
time_lifetimes (TmTrace *trace, gpointer data)
{
  g_autoptr(GError) error = NULL;
  double t0 = now_ms ();
  g_autoptr(TmLifetimes) lt = tm_lifetimes_compute (trace, 1, tm_trace_n_gcs (trace), TM_CLASSIFIER_TYPE, 8,
                                                    NULL, &error);
  if (lt == NULL)
    g_error ("%s", error->message);
  return now_ms () - t0;
}

static double
time_survival (TmTrace *trace, gpointer data)
{
  g_autoptr(GError) error = NULL;
  double t0 = now_ms ();
  g_autoptr(TmSurvival) sv = tm_survival_compute (trace, 1, tm_trace_n_gcs (trace), NULL, &error);

  if (sv == NULL)
    g_error ("%s", error->message);
  return now_ms () - t0;
}

int
main (int argc, char **argv)
{
  TmSynthOptions so;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(TmTrace) trace = NULL;
  TmAllocRequest by_type, by_site, drill;
  g_autoptr(TmAllocSeries) first = NULL;
  double base, t_type, t_site, t_drill, t_life, t_surv;
  int fd;

  tm_synth_options_init (&so);
  so.scenario = "leak";
  so.scale = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 50.0;
  fd = g_file_open_tmp ("bench-vm-XXXXXX.tmtrace", &path, &error);
  if (fd < 0)
    g_error ("%s", error->message);
  close (fd);
  if (!tm_synth_write_file (&so, path, &error))
    g_error ("%s", error->message);
  trace = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_unlink (path);
  if (trace == NULL)
    g_error ("%s", error->message);

  tm_alloc_request_init (&by_type);
  by_type.from_gc = 1;
  by_type.to_gc = tm_trace_n_gcs (trace);
  tm_alloc_request_init (&by_site);
  by_site = by_type;
  by_site.chain[0] = TM_CLASSIFIER_SITE;
  first = tm_alloc_series_compute (trace, &by_type, NULL, &error);
  tm_alloc_request_init (&drill);
  if (!tm_alloc_request_parse (&drill, "type,thread",
                               ((TmAllocGroup *) g_ptr_array_index (first->groups, 0))->key, &error))
    g_error ("%s", error->message);
  drill.from_gc = by_type.from_gc;
  drill.to_gc = by_type.to_gc;

  base = best_of (5, time_plain, trace, NULL);
  t_type = best_of (3, time_allocs, trace, &by_type);
  t_site = best_of (3, time_allocs, trace, &by_site);
  t_drill = best_of (3, time_allocs, trace, &drill);
  t_life = best_of (3, time_lifetimes, trace, NULL);
  t_surv = best_of (3, time_survival, trace, NULL);

  printf ("synthetic leak, scale %.0f: %" G_GUINT64_FORMAT " allocations, %u GCs (load %s)\n", so.scale,
          trace->n_objects, tm_trace_n_gcs (trace), g_getenv ("LOADAVG") ? g_getenv ("LOADAVG") : "n/a");
  printf ("| one plain pass | %.1f ms | 1.0 |\n", base);
  printf ("| allocs by type | %.1f ms | %.1f |\n", t_type, t_type / base);
  printf ("| allocs by site | %.1f ms | %.1f |\n", t_site, t_site / base);
  printf ("| allocs type/thread, drilled | %.1f ms | %.1f |\n", t_drill, t_drill / base);
  printf ("| lifetimes by type | %.1f ms | %.1f |\n", t_life, t_life / base);
  printf ("| survival | %.1f ms | %.1f |\n", t_surv, t_surv / base);
  tm_alloc_request_clear (&drill);
  return 0;
}
