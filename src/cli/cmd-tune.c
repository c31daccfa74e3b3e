/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli tune: run a Java workload under GC configurations, measure
 * each a few times from its own GC log, rank them for a goal and
 * recommend flags (docs/tune.md). */
#include "cli-common.h"
#include "cli-commands.h"
#include "tune-run.h"
#include "tm-gc-config.h"
#include "tm-gc-stats.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#define MIB (1024.0 * 1024.0)

static volatile sig_atomic_t cancelled;

static void
on_cancel (int sig)
{
  cancelled = 1;
}

/* Without SA_RESTART, so that waiting for the JVM wakes up and can stop
 * it when the signal reached only us (kill PID, not Ctrl-C). */
static void
catch_cancel (gboolean on)
{
  struct sigaction sa = { 0 };

  sa.sa_handler = on ? on_cancel : SIG_DFL;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
}

/* Median measurements of one configuration's successful runs. */
typedef struct {
  TmGcConfig config;
  char      *flags;             /* for the measured live size */
  guint      runs, ok_runs;
  char      *error;             /* first failure */
  double     wall_s, wall_min, wall_max;
  double     gc_throughput;
  double     p50_ns, p99_ns, max_ns;
  double     rss;               /* peak RSS, bytes */
  double     heap;              /* highest committed heap, bytes */
  double     full_gcs;
  double     gcs;
  TmTrace   *first_trace;       /* of the first successful run */
} Measured;

static void
measured_free (Measured *m)
{
  tm_gc_config_clear (&m->config);
  g_free (m->flags);
  g_free (m->error);
  g_clear_pointer (&m->first_trace, tm_trace_unref);
  g_free (m);
}

static double
median (double *v, guint n)
{
  return tm_quantile_sorted (v, n, 0.5);
}

/* Lower is better. */
static double
score (const Measured *m, TmGoal goal)
{
  switch (goal)
    {
    case TM_GOAL_LATENCY: return m->p99_ns + m->max_ns / 1000;   /* the longest pause breaks ties */
    case TM_GOAL_FOOTPRINT: return m->rss;
    case TM_GOAL_THROUGHPUT: case TM_N_GOALS: default: return m->wall_s;
    }
}

static const char *
score_unit (TmGoal goal)
{
  return goal == TM_GOAL_LATENCY ? "p99 pause" : goal == TM_GOAL_FOOTPRINT ? "peak RSS" : "wall time";
}

typedef struct {
  char          **argv;         /* java ARGS... */
  TmGoal          goal;
  guint           runs_per_config;
  guint           max_configs;
  double          time_budget_s;
  gint64          t0;
  char           *scratch;
  guint64         live_bytes;   /* measured under the default configuration */
  GPtrArray      *measured;     /* Measured* in the order tried */
  GPtrArray      *collectors;
  gboolean        quiet;
  gboolean        stopped;      /* budget reached or cancelled */
  const char     *stop_reason;
} Tune;

static double
elapsed (const Tune *t)
{
  return (double) (g_get_monotonic_time () - t->t0) / 1e6;
}

static gboolean
already_tried (Tune *t, const TmGcConfig *c)
{
  for (guint i = 0; i < t->measured->len; i++)
    if (tm_gc_config_equal (&((Measured *) t->measured->pdata[i])->config, c))
      return TRUE;
  return FALSE;
}

/* Runs one configuration runs_per_config times; NULL when the budget or
 * a cancel stopped it before it started. */
static Measured *
try_config (Tune *t, const TmGcConfig *c)
{
  Measured *m;
  g_autofree char *name = tm_gc_config_to_string (c);
  g_auto(GStrv) flags = tm_gc_config_flags (c, t->live_bytes);
  double wall[64], thr[64], p50[64], p99[64], mx[64], rss[64], heap[64], full[64], gcs[64];
  guint n = 0;

  if (t->stopped || already_tried (t, c))
    return NULL;
  if (cancelled)
    {
      t->stopped = TRUE;
      t->stop_reason = "cancelled";
      return NULL;
    }
  if (t->measured->len >= t->max_configs)
    {
      t->stopped = TRUE;
      t->stop_reason = "configuration budget reached";
      return NULL;
    }
  /* predict from the default's wall time: stop before overrunning the budget */
  if (t->measured->len > 0)
    {
      const Measured *base = t->measured->pdata[0];
      double need = (base->ok_runs ? base->wall_s : 1.0) * t->runs_per_config;
      if (elapsed (t) + need > t->time_budget_s)
        {
          t->stopped = TRUE;
          t->stop_reason = "time budget reached";
          return NULL;
        }
    }

  m = g_new0 (Measured, 1);
  tm_gc_config_copy (&m->config, c);
  m->flags = g_strjoinv (" ", flags);
  g_ptr_array_add (t->measured, m);
  for (guint r = 0; r < t->runs_per_config && r < G_N_ELEMENTS (wall); r++)
    {
      TmTuneRun run;
      TmGcStats st;

      if (!t->quiet)
        fprintf (stderr, "tune: [%u/%u] %s (%s), run %u/%u ... ", t->measured->len, t->max_configs, name,
                 *m->flags ? m->flags : "no flags", r + 1, t->runs_per_config);
      m->runs++;
      if (!tm_tune_run_jvm (t->argv, flags, t->scratch, &cancelled, &run))
        {
          if (!t->quiet)
            fprintf (stderr, "failed: %s\n", run.error);
          if (m->error == NULL)
            m->error = g_strdup (run.error);
          tm_tune_run_clear (&run);
          if (cancelled)
            {
              t->stopped = TRUE;
              t->stop_reason = "cancelled";
            }
          break;   /* a configuration that fails once is not worth repeating */
        }
      tm_gc_stats_compute (run.trace, 0, 0, &st);
      wall[n] = run.wall_s;
      thr[n] = st.throughput;
      p50[n] = st.pause_p50_ns;
      p99[n] = st.pause_p99_ns;
      mx[n] = st.pause_max_ns;
      rss[n] = (double) run.peak_rss;
      heap[n] = (double) st.max_committed_bytes;
      full[n] = st.n_major;
      gcs[n] = st.n_gcs;
      if (m->first_trace == NULL)
        m->first_trace = tm_trace_ref (run.trace);
      if (!t->quiet)
        fprintf (stderr, "%.2f s, %u GCs\n", run.wall_s, st.n_gcs);
      n++;
      tm_tune_run_clear (&run);
    }
  m->ok_runs = n;
  if (m->error == NULL && n > 0)
    {
      m->wall_min = m->wall_max = wall[0];
      for (guint i = 0; i < n; i++)
        {
          m->wall_min = MIN (m->wall_min, wall[i]);
          m->wall_max = MAX (m->wall_max, wall[i]);
        }
      m->wall_s = median (wall, n);
      m->gc_throughput = median (thr, n);
      m->p50_ns = median (p50, n);
      m->p99_ns = median (p99, n);
      m->max_ns = median (mx, n);
      m->rss = median (rss, n);
      m->heap = median (heap, n);
      m->full_gcs = median (full, n);
      m->gcs = median (gcs, n);
    }
  return m;
}

static void
free_config (gpointer p)
{
  tm_gc_config_clear (p);
  g_free (p);
}

static gboolean
usable (const Measured *m)
{
  return m && m->error == NULL && m->ok_runs > 0;
}

/* Index of the best usable configuration for a goal, -1 if none. */
static gint
best_index (Tune *t, TmGoal goal)
{
  gint best = -1;

  for (guint i = 0; i < t->measured->len; i++)
    {
      const Measured *m = t->measured->pdata[i];
      if (usable (m) && (best < 0 || score (m, goal) < score (t->measured->pdata[best], goal)))
        best = (gint) i;
    }
  return best;
}

/* The best configuration so far with one dimension changed (0/NULL: keep). */
static void
try_variant (Tune *t, const char *collector, double heap_factor, guint new_ratio, guint survivor_ratio,
             guint max_tenuring)
{
  gint b = best_index (t, t->goal);
  TmGcConfig c;

  if (b < 0 || t->stopped)
    return;
  tm_gc_config_copy (&c, &((Measured *) t->measured->pdata[b])->config);
  if (collector)
    {
      g_free (c.collector);
      c.collector = g_strdup (collector);
    }
  c.heap_factor = heap_factor ? heap_factor : c.heap_factor;
  c.new_ratio = new_ratio ? new_ratio : c.new_ratio;
  c.survivor_ratio = survivor_ratio ? survivor_ratio : c.survivor_ratio;
  c.max_tenuring = max_tenuring ? max_tenuring : c.max_tenuring;
  try_config (t, &c);
  tm_gc_config_clear (&c);
}

static const char *
best_collector (Tune *t)
{
  gint b = best_index (t, t->goal);
  const char *c = b >= 0 ? ((Measured *) t->measured->pdata[b])->config.collector : NULL;
  return c ? c : "G1";   /* JDK 9 and later default to G1 on a server-class machine */
}

/* Varies one dimension of the current best configuration at a time; each
 * dimension starts from the best so far. */
static void
search (Tune *t, const TmGcConfig *suggested, GPtrArray *extra)
{
  static const double heap_footprint[] = { 1.5, 2, 3 }, heap_others[] = { 4, 3, 2 };
  const double *heap = t->goal == TM_GOAL_FOOTPRINT ? heap_footprint : heap_others;
  gint b;

  if (suggested)
    try_config (t, suggested);
  for (guint i = 0; i < extra->len; i++)
    try_config (t, extra->pdata[i]);
  for (guint i = 0; i < t->collectors->len; i++)
    try_variant (t, t->collectors->pdata[i], 0, 0, 0, 0);
  /* heap size as a multiple of the live data: from the best collector */
  b = best_index (t, t->goal);
  if (t->live_bytes > 0 && b >= 0)
    {
      TmGcConfig base;
      tm_gc_config_copy (&base, &((Measured *) t->measured->pdata[b])->config);
      for (guint i = 0; i < 3 && !t->stopped; i++)
        {
          base.heap_factor = heap[i];
          try_config (t, &base);
        }
      tm_gc_config_clear (&base);
    }
  /* young generation and survivors: generational stop-the-world collectors */
  if (g_str_equal (best_collector (t), "Serial") || g_str_equal (best_collector (t), "Parallel"))
    {
      try_variant (t, NULL, 0, 1, 0, 0);
      try_variant (t, NULL, 0, 3, 0, 0);
      try_variant (t, NULL, 0, 0, 4, 0);
    }
  /* tenuring: Parallel sizes it adaptively and ignores the threshold */
  if (g_str_equal (best_collector (t), "Serial") || g_str_equal (best_collector (t), "G1"))
    try_variant (t, NULL, 0, 0, 0, 15);
  if (!t->stopped)
    t->stop_reason = "every configuration of the search was measured";
}

static char *
fmt_ns (double ns)
{
  return tm_format_duration (ns);
}

static void
print_table (Tune *t)
{
  g_autofree guint *order = g_new (guint, t->measured->len);
  guint n = 0, rank = 0;

  /* ranked usable ones first, failed ones after */
  for (guint i = 0; i < t->measured->len; i++)
    if (usable (t->measured->pdata[i]))
      order[n++] = i;
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      if (score (t->measured->pdata[order[j]], t->goal) < score (t->measured->pdata[order[i]], t->goal))
        {
          guint x = order[i];
          order[i] = order[j];
          order[j] = x;
        }
  for (guint i = 0; i < t->measured->len; i++)
    if (!usable (t->measured->pdata[i]))
      order[n++] = i;

  printf ("%-4s %-44s %-5s %-19s %-7s %-10s %-10s %-10s %-10s %-9s %s\n", "RANK", "CONFIGURATION", "RUNS",
          "WALL (MIN-MAX)", "GC THR", "PAUSE P50", "P99", "MAX", "PEAK RSS", "HEAP", "FULL GCS");
  for (guint k = 0; k < n; k++)
    {
      const Measured *m = t->measured->pdata[order[k]];
      g_autofree char *name = tm_gc_config_to_string (&m->config);

      if (!usable (m))
        {
          printf ("-    %-44s %u/%-3u failed: %s\n", name, m->ok_runs, m->runs, m->error ? m->error : "no run");
          continue;
        }
      {
        g_autofree char *wall = g_strdup_printf ("%.2f s (%.2f-%.2f)", m->wall_s, m->wall_min, m->wall_max);
        g_autofree char *p50 = fmt_ns (m->p50_ns), *p99 = fmt_ns (m->p99_ns), *mx = fmt_ns (m->max_ns);
        g_autofree char *rss = tm_format_bytes (m->rss), *heap = tm_format_bytes (m->heap);
        printf ("%-4u %-44s %u/%-3u %-19s %5.1f%%  %-10s %-10s %-10s %-10s %-9s %.0f\n", ++rank, name, m->ok_runs,
                m->runs, wall, m->gc_throughput * 100, p50, p99, mx, rss, heap, m->full_gcs);
      }
    }
}

/* Relative noise of the default's measurement: the spread of its runs,
 * at least 3% (one run says nothing about noise). */
static double
noise (const Measured *base, TmGoal goal)
{
  double spread = base->ok_runs > 1 && base->wall_s > 0 ? (base->wall_max - base->wall_min) / base->wall_s : 0;
  return MAX (goal == TM_GOAL_THROUGHPUT ? spread : 0, 0.03);
}

static void
append_measured_json (GString *s, const Measured *m, guint rank)
{
  g_autofree char *name = tm_gc_config_to_string (&m->config);

  g_string_append (s, "{\"config\": ");
  tm_json_append_string (s, name);
  g_string_append (s, ", \"flags\": ");
  tm_json_append_string (s, m->flags);
  g_string_append_printf (s, ", \"runs\": %u, \"ok_runs\": %u, \"failed\": %s", m->runs, m->ok_runs,
                          usable (m) ? "false" : "true");
  if (!usable (m))
    {
      g_string_append (s, ", \"error\": ");
      tm_json_append_string (s, m->error ? m->error : "no run");
    }
  else
    g_string_append_printf (s, ", \"rank\": %u, \"wall_s\": %.4f, \"wall_min_s\": %.4f, \"wall_max_s\": %.4f, "
                            "\"gc_throughput\": %.5f, \"pause_p50_ns\": %.0f, \"pause_p99_ns\": %.0f, "
                            "\"pause_max_ns\": %.0f, \"peak_rss_bytes\": %.0f, \"heap_bytes\": %.0f, "
                            "\"full_gcs\": %.0f, \"gcs\": %.0f",
                            rank, m->wall_s, m->wall_min, m->wall_max, m->gc_throughput, m->p50_ns, m->p99_ns,
                            m->max_ns, m->rss, m->heap, m->full_gcs, m->gcs);
  g_string_append_c (s, '}');
}

int
tm_cmd_tune (int argc, char **argv)
{
  g_autoptr(GOptionContext) ctx = NULL;
  const char *goal_s = "throughput", *kb_path_opt = NULL, *save_to = NULL, *name = NULL, *description = NULL;
  gint runs = 3, max_configs = 12;
  double budget = 300;
  gboolean json = FALSE, quiet = FALSE, no_kb = FALSE;
  g_auto(GStrv) configs = NULL;
  g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func (free_config);
  Tune t = { 0 };
  g_autoptr(TmKb) kb = NULL;
  g_autofree char *kb_path = NULL;
  TmGcConfig suggestion = { 0 };
  gboolean have_suggestion = FALSE;
  TmGcFeatures features;
  int code = 0, sep = -1;
  gint best;

  /* everything after "--" is the program */
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
        sep = i;
        break;
      }
  {
    GOptionEntry entries[] = {
      { "goal", 0, 0, G_OPTION_ARG_STRING, &goal_s, "throughput (default), latency or footprint", "GOAL" },
      { "runs-per-config", 0, 0, G_OPTION_ARG_INT, &runs, "Runs of each configuration, for noise (default 3)", "N" },
      { "max-configs", 0, 0, G_OPTION_ARG_INT, &max_configs, "Configurations to try at most, the default included (default 12)", "N" },
      { "time-budget", 0, 0, G_OPTION_ARG_DOUBLE, &budget, "Stop before running past this many seconds (default 300)", "S" },
      { "config", 0, 0, G_OPTION_ARG_STRING_ARRAY, &configs, "Also try this configuration, e.g. 'collector=Parallel heap=3x' (repeatable)", "CONFIG" },
      { "kb", 0, 0, G_OPTION_ARG_FILENAME, &kb_path_opt, "Knowledge base to start from (default: the bundled one)", "FILE" },
      { "no-kb", 0, 0, G_OPTION_ARG_NONE, &no_kb, "Do not start from the knowledge base's suggestion", NULL },
      { "save-to-kb", 0, 0, G_OPTION_ARG_FILENAME, &save_to, "Add this workload's features and best configurations to a knowledge base", "FILE" },
      { "name", 0, 0, G_OPTION_ARG_STRING, &name, "Name of the workload in the knowledge base", "NAME" },
      { "description", 0, 0, G_OPTION_ARG_STRING, &description, "One line about the workload, for the knowledge base", "TEXT" },
      { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
      { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on stderr", NULL },
      { NULL }
    };
    int opt_argc = sep >= 0 ? sep : argc;

    ctx = g_option_context_new ("-- java ARGS... - measure GC configurations on a workload and recommend one");
    g_option_context_add_main_entries (ctx, entries, NULL);
    g_option_context_set_description (ctx,
      "Runs the program under the JVM's default, then (from the knowledge base's\n"
      "suggestion) varies one dimension at a time: collector, heap size as a\n"
      "multiple of the measured live data, young generation, survivors, tenuring.\n"
      "Each run logs -Xlog:gc* to a scratch file read by Tidemark's importer.\n"
      "Ctrl-C stops and reports what was measured. Details: docs/tune.md.");
    if (!tm_cli_parse (ctx, "tune", &opt_argc, &argv, &code))
      return code;
    if (opt_argc != 1)
      return tm_cli_usage_error ("tune", "unexpected argument '%s' (the program goes after --)", argv[1]);
  }
  if (sep < 0 || sep + 1 >= argc)
    return tm_cli_usage_error ("tune", "no program to run: tune [OPTIONS] -- java ARGS...");
  if (!tm_goal_from_string (goal_s, &t.goal))
    return tm_cli_usage_error ("tune", "unknown goal '%s' (throughput, latency or footprint)", goal_s);
  if (runs < 1 || runs > 64)
    return tm_cli_usage_error ("tune", "--runs-per-config must be 1 to 64");
  if (max_configs < 1)
    return tm_cli_usage_error ("tune", "--max-configs must be at least 1");
  if (!(budget > 0 && isfinite (budget)))
    return tm_cli_usage_error ("tune", "--time-budget must be positive");
  if (save_to && name == NULL)
    return tm_cli_usage_error ("tune", "--save-to-kb needs --name");
  for (guint i = 0; configs && configs[i]; i++)
    {
      TmGcConfig *c = g_new0 (TmGcConfig, 1);
      g_autoptr(GError) error = NULL;
      if (!tm_gc_config_from_string (configs[i], c, &error))
        {
          g_free (c);
          return tm_cli_usage_error ("tune", "--config: %s", error->message);
        }
      g_ptr_array_add (extra, c);
    }

  t.argv = argv + sep + 1;
  t.runs_per_config = (guint) runs;
  t.max_configs = (guint) max_configs;
  t.time_budget_s = budget;
  t.quiet = quiet;
  t.measured = g_ptr_array_new_with_free_func ((GDestroyNotify) measured_free);
  t.t0 = g_get_monotonic_time ();
  t.scratch = g_dir_make_tmp ("tidemark-tune-XXXXXX", NULL);
  if (t.scratch == NULL)
    {
      fprintf (stderr, "tidemark-cli tune: cannot make a scratch folder\n");
      return TM_EXIT_INPUT;
    }
  if (!no_kb && (kb_path = tm_kb_find (kb_path_opt)) != NULL)
    {
      g_autoptr(GError) error = NULL;
      kb = tm_kb_load (kb_path, &error);
      if (kb == NULL && kb_path_opt)
        {
          fprintf (stderr, "%s\n", error->message);
          return TM_EXIT_INPUT;
        }
      if (kb == NULL)
        fprintf (stderr, "%s (going on without a knowledge base)\n", error->message);
    }

  catch_cancel (TRUE);
  t.collectors = tm_tune_available_collectors (t.argv[0]);
  if (!quiet)
    {
      g_autoptr(GString) s = g_string_new (NULL);
      for (guint i = 0; i < t.collectors->len; i++)
        g_string_append_printf (s, "%s%s", i ? ", " : "", (char *) t.collectors->pdata[i]);
      fprintf (stderr, "tune: collectors of %s: %s\n", t.argv[0], s->len ? s->str : "none found (the default only)");
    }

  /* the JVM's default first: the reference, the live data and the features */
  {
    TmGcConfig def = { 0 };
    Measured *base = try_config (&t, &def);
    if (!usable (base))
      {
        fprintf (stderr, "tidemark-cli tune: the program fails under the JVM's default configuration: %s\n",
                 base && base->error ? base->error : "not run");
        catch_cancel (FALSE);
        g_rmdir (t.scratch);
        return cancelled ? 130 : TM_EXIT_INPUT;
      }
    t.live_bytes = tm_gc_live_estimate (base->first_trace);
    g_free (base->flags);
    base->flags = g_strdup ("");
    tm_gc_features_compute (base->first_trace, &features);
  }
  if (kb && kb->entries->len > 0)
    have_suggestion = tm_kb_suggest (kb, &features, 3, t.goal, &suggestion);
  search (&t, have_suggestion ? &suggestion : NULL, extra);
  catch_cancel (FALSE);

  best = best_index (&t, t.goal);
  {
    const Measured *base = t.measured->pdata[0];
    const Measured *bm = t.measured->pdata[best];
    double ratio = score (bm, t.goal) / MAX (score (base, t.goal), 1e-9);
    gboolean better = best != 0 && ratio < 1 - noise (base, t.goal);
    g_autofree char *sugg = have_suggestion ? tm_gc_config_to_string (&suggestion) : NULL;
    g_autofree char *live = tm_format_bytes ((double) t.live_bytes);
    g_autofree char *best_name = tm_gc_config_to_string (&bm->config);

    if (json)
      {
        GString *s = g_string_new ("{\"goal\": ");
        tm_json_append_string (s, tm_goal_to_string (t.goal));
        g_string_append_printf (s, ", \"live_bytes\": %" G_GUINT64_FORMAT ", \"runs_per_config\": %u, "
                                "\"elapsed_s\": %.2f, \"stopped\": ", t.live_bytes, t.runs_per_config, elapsed (&t));
        tm_json_append_string (s, t.stop_reason);
        g_string_append (s, ", \"cancelled\": ");
        g_string_append (s, cancelled ? "true" : "false");
        g_string_append (s, ", \"kb_suggestion\": ");
        if (sugg)
          tm_json_append_string (s, sugg);
        else
          g_string_append (s, "null");
        g_string_append (s, ", \"configs\": [");
        for (guint i = 0; i < t.measured->len; i++)
          {
            const Measured *m = t.measured->pdata[i];
            guint r = 1;
            for (guint j = 0; j < t.measured->len; j++)
              if (usable (t.measured->pdata[j]) && score (t.measured->pdata[j], t.goal) < score (m, t.goal))
                r++;
            g_string_append (s, i ? ",\n  " : "\n  ");
            append_measured_json (s, m, r);
          }
        g_string_append (s, "],\n \"recommended\": {\"config\": ");
        tm_json_append_string (s, better ? best_name : "default");
        g_string_append (s, ", \"flags\": ");
        tm_json_append_string (s, better ? bm->flags : "");
        g_string_append_printf (s, ", \"ratio_to_default\": %.4f, \"better_than_noise\": %s, \"noise\": %.4f}}\n",
                                ratio, better ? "true" : "false", noise (base, t.goal));
        fputs (s->str, stdout);
        g_string_free (s, TRUE);
      }
    else
      {
        g_autofree char *cmd = g_strjoinv (" ", t.argv);
        printf ("GC configurations for: %s\n", cmd);
        printf ("Goal: %s (%s, lower is better). Live data under the default: %s. %u run%s each; %s after %.0f s.\n",
                tm_goal_to_string (t.goal), score_unit (t.goal), live, t.runs_per_config,
                t.runs_per_config == 1 ? "" : "s", t.stop_reason, elapsed (&t));
        if (sugg)
          printf ("Knowledge base suggestion (3 nearest workloads): %s\n", sugg);
        putchar ('\n');
        print_table (&t);
        putchar ('\n');
        if (better)
          printf ("Recommended for %s: %s\n  %s (%s %.2fx the default's)\n", tm_goal_to_string (t.goal),
                  bm->flags, best_name, score_unit (t.goal), ratio);
        else
          printf ("Recommended for %s: keep the JVM's default; no configuration measured better than the noise "
                  "(%.0f%%).\n", tm_goal_to_string (t.goal), 100 * noise (base, t.goal));
      }
  }

  if (save_to)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TmKb) target = g_file_test (save_to, G_FILE_TEST_EXISTS) ? tm_kb_load (save_to, &error) : tm_kb_new ();
      TmKbEntry *e;

      if (target == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return TM_EXIT_INPUT;
        }
      e = g_new0 (TmKbEntry, 1);
      e->name = g_strdup (name);
      e->description = g_strdup (description);
      e->features = features;
      for (guint g = 0; g < TM_N_GOALS; g++)
        {
          gint bi = best_index (&t, (TmGoal) g);
          if (bi >= 0)
            {
              tm_gc_config_copy (&e->best[g], &((Measured *) t.measured->pdata[bi])->config);
              e->has_best[g] = TRUE;
            }
        }
      tm_kb_put (target, e);
      if (!tm_kb_save (target, save_to, &error))
        {
          fprintf (stderr, "%s: %s\n", save_to, error->message);
          return TM_EXIT_INPUT;
        }
      if (!quiet)
        fprintf (stderr, "tune: saved '%s' to %s\n", name, save_to);
    }

  tm_gc_config_clear (&suggestion);
  {
    g_autofree char *log = g_build_filename (t.scratch, "gc.log", NULL);
    g_autofree char *out = g_build_filename (t.scratch, "output.txt", NULL);
    g_unlink (log);
    g_unlink (out);
    g_rmdir (t.scratch);
  }
  g_free (t.scratch);
  g_ptr_array_unref (t.collectors);
  g_ptr_array_unref (t.measured);
  return cancelled ? 130 : TM_EXIT_OK;
}
