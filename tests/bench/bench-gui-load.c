/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app opening a trace, as a person sees it: how long until the first
 * chart is on screen, beside how long the whole load takes, and the
 * longest the main loop stood still meanwhile (a 1 ms timeout probe: any
 * gap longer than a frame is a visible stall).  Run it under a display:
 *
 *   GSK_RENDERER=cairo xvfb-run -a -s '-screen 0 1400x900x24' \
 *     build/tests/bench/bench-gui-load [--runs N] TRACE...
 *
 * Per trace, medians over the runs (each opens the file again in the same
 * window): time to the first frame that shows the charts, time until the
 * trace is loaded, until the suspicious windows are detected; the longest
 * main-loop gap while loading, in the frame that takes the finished
 * document, and during window detection; the longest frame (layout to
 * paint) while loading, in wall and in main-thread CPU time (a busy
 * machine makes the wall figures longer, not the CPU ones); the main
 * thread's CPU time while loading.  Prints a Markdown table.
 */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-app-window.h"

#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static gboolean verbose;

typedef struct {
  TmAppWindow *win;
  gint64  t0, last;
  double  first_chart_ms, loaded_ms, ready_ms;
  double  stall_loading_ms, stall_finish_ms, stall_detect_ms;
  gint64  frame_start;
  double  frame_cpu_start;
  double  frame_loading_ms;  /* the longest frame (layout to paint) while loading */
  double  frame_cpu_ms;      /* the most main-thread CPU time one of them took */
  gboolean had_trace;        /* at the previous probe */
  double  cpu_loading_ms;
} Run;

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
layout_cb (GdkFrameClock *clock, Run *r)
{
  r->frame_start = g_get_monotonic_time ();
  r->frame_cpu_start = thread_cpu_ms ();
}

static void
after_paint_cb (GdkFrameClock *clock, Run *r)
{
  gint64 now = g_get_monotonic_time ();

  if (r->first_chart_ms == 0 && g_strcmp0 (tm_app_window_get_page (r->win), "trace") == 0)
    r->first_chart_ms = (now - r->t0) / 1000.0;
  if (r->frame_start != 0 && tm_app_window_get_trace (r->win) == NULL)
    {
      double cpu = thread_cpu_ms () - r->frame_cpu_start;

      r->frame_loading_ms = MAX (r->frame_loading_ms, (now - r->frame_start) / 1000.0);
      r->frame_cpu_ms = MAX (r->frame_cpu_ms, cpu);
      if (verbose && cpu > 4)
        g_printerr ("frame at %.0f ms: %.1f ms CPU, page %s, %u GCs shown\n", (now - r->t0) / 1000.0, cpu,
                    tm_app_window_get_page (r->win),
                    tm_session_get_model (tm_app_window_get_session (r->win))
                      ? tm_session_get_model (tm_app_window_get_session (r->win))->n_gcs : 0);
    }
  r->frame_start = 0;
}

/* The probe: how long since it last ran, and in which phase. */
static gboolean
probe_cb (gpointer data)
{
  Run *r = data;
  gint64 now = g_get_monotonic_time ();
  double gap = (now - r->last) / 1000.0;
  gboolean has_trace = tm_app_window_get_trace (r->win) != NULL;

  if (!has_trace)
    r->stall_loading_ms = MAX (r->stall_loading_ms, gap);
  else if (!r->had_trace)
    r->stall_finish_ms = MAX (r->stall_finish_ms, gap);
  else
    r->stall_detect_ms = MAX (r->stall_detect_ms, gap);
  r->had_trace = has_trace;
  r->last = now;
  return G_SOURCE_CONTINUE;
}

static void
one_run (TmAppWindow *win, GFile *file, Run *r)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (win));
  gulong paint, layout;
  guint probe;
  double cpu0;

  memset (r, 0, sizeof *r);
  r->win = win;
  paint = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), r);
  layout = g_signal_connect (clock, "layout", G_CALLBACK (layout_cb), r);
  cpu0 = thread_cpu_ms ();
  r->t0 = r->last = g_get_monotonic_time ();
  tm_app_window_open (win, file);
  probe = g_timeout_add (1, probe_cb, r);
  while (tm_app_window_is_busy (win))
    {
      g_main_context_iteration (NULL, TRUE);
      if (r->loaded_ms == 0 && tm_app_window_get_trace (win) != NULL)
        {
          r->loaded_ms = (g_get_monotonic_time () - r->t0) / 1000.0;
          r->cpu_loading_ms = thread_cpu_ms () - cpu0;
        }
    }
  r->ready_ms = (g_get_monotonic_time () - r->t0) / 1000.0;
  /* the frame that shows the result */
  for (gint64 end = g_get_monotonic_time () + 100000; g_get_monotonic_time () < end;)
    g_main_context_iteration (NULL, FALSE);
  g_source_remove (probe);
  g_signal_handler_disconnect (clock, paint);
  g_signal_handler_disconnect (clock, layout);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Median of one field over the runs. */
static double
median (const Run *runs, guint n, gsize offset)
{
  g_autofree double *v = g_new (double, n);

  for (guint i = 0; i < n; i++)
    v[i] = *(const double *) ((const char *) &runs[i] + offset);
  qsort (v, n, sizeof (double), cmp_double);
  return v[n / 2];
}

#define MEDIAN(field) median (runs, n_runs, G_STRUCT_OFFSET (Run, field))

int
main (int argc, char **argv)
{
  int n_runs = 3;
  GOptionEntry entries[] = {
    { "runs", 'n', 0, G_OPTION_ARG_INT, &n_runs, "Opens per trace (default 3)", "N" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Print every frame over 4 ms of CPU while loading", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE... - time to the first chart and main-loop stalls");
  g_autoptr(GError) error = NULL;
  g_autoptr(TmApplication) app = NULL;
  TmAppWindow *win;
  double load[3];

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc < 2 || n_runs < 1)
    {
      g_printerr ("%s\n", error ? error->message : "usage: bench-gui-load [--runs N] TRACE...");
      return 1;
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  if (!gtk_init_check ())
    {
      g_printerr ("bench-gui-load: no display (run it under xvfb-run)\n");
      return 77;
    }
  app = tm_application_new (G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  win = tm_app_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1200, 800);
  gtk_window_present (GTK_WINDOW (win));
  for (gint64 end = g_get_monotonic_time () + 500000; g_get_monotonic_time () < end;)
    g_main_context_iteration (NULL, FALSE);

  if (getloadavg (load, 3) == 3)
    g_print ("load average before: %.2f %.2f %.2f; renderer %s\n\n", load[0], load[1], load[2],
             g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "(default)");
  g_print ("| trace | GCs | load | **first chart** | first chart / load | windows detected "
           "| **longest stall while loading** | stall taking the document | stall while detecting "
           "| longest frame while loading (wall / CPU) | main-thread CPU while loading |\n");
  g_print ("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (argv[i]);
      g_autofree char *name = g_file_get_basename (file);
      g_autofree Run *runs = g_new0 (Run, n_runs);

      for (int k = 0; k < n_runs; k++)
        one_run (win, file, &runs[k]);
      if (tm_app_window_get_trace (win) == NULL)
        {
          g_printerr ("bench-gui-load: %s did not open: %s\n", argv[i],
                      tm_app_window_get_last_error (win) ? tm_app_window_get_last_error (win) : "?");
          return 1;
        }
      g_print ("| %s | %u | %.0f ms | **%.0f ms** | %.2f | %.0f ms | **%.1f ms** | %.1f ms | %.1f ms | %.1f / %.1f ms | %.0f ms |\n",
               name, tm_trace_n_gcs (tm_app_window_get_trace (win)),
               MEDIAN (loaded_ms), MEDIAN (first_chart_ms), MEDIAN (first_chart_ms) / MAX (MEDIAN (loaded_ms), 1),
               MEDIAN (ready_ms), MEDIAN (stall_loading_ms), MEDIAN (stall_finish_ms), MEDIAN (stall_detect_ms),
               MEDIAN (frame_loading_ms), MEDIAN (frame_cpu_ms), MEDIAN (cpu_loading_ms));
    }
  if (getloadavg (load, 3) == 3)
    g_print ("\nload average after: %.2f %.2f %.2f; %d runs each, medians\n", load[0], load[1], load[2], n_runs);
  gtk_window_destroy (GTK_WINDOW (win));
  return 0;
}
