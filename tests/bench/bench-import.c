/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Importer benchmark, side by side in one run:
 *   1. a heaptrack recording of N allocations (this program records its
 *      own workload with `heaptrack` when no file is given): Tidemark's
 *      tm_heaptrack_import vs `heaptrack_print FILE` on the same file,
 *      with the totals cross-checked;
 *   2. GC log parsing throughput in lines per second, unified logging and
 *      legacy, on the test corpus repeated to a large file.
 *
 *   bench-import [--heaptrack FILE] [--python] [--allocs N] [--rounds R] [--gclog-lines N]
 *                [--base OTHER_BENCH_IMPORT]
 *
 * --python records a Python program instead (heaptrack python3 -c ...).
 * --base runs another build's import as well (its bench-import
 * --import-only), alternating with this one's: before and after.
 * The import and heaptrack_print each run in a child process, so that
 * their peak RSS (wait4) and CPU time are their own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "tm-gclog.h"
#include "tm-heaptrack.h"
#include "tm-heaptrack-profile.h"

/* ---- the recorded workload ------------------------------------------ */

/* Like a real program: allocations from many call stacks (a recursion
 * of varying depth over a few functions), sizes from 8 bytes to 16 KiB
 * skewed to small ones, lifetimes from immediate to forever (a ring of
 * 4096 live blocks, 1 in 1000 leaked), and the clock moving on. */
static void *volatile ring[4096];
static void *volatile *leaks;
static guint64 n_leaks;

static __attribute__((noinline)) void *
allocate (guint64 i)
{
  guint32 h = (guint32) (i * 2654435761u);
  gsize size = (gsize) 8 << (h % 12 < 8 ? h % 5 : h % 12);   /* 8 B .. 16 KiB */
  return malloc (size + (h >> 24) % 8 * 8);
}

static __attribute__((noinline)) void *visit_a (guint64 i, guint depth);
static __attribute__((noinline)) void *visit_b (guint64 i, guint depth);

static __attribute__((noinline)) void *
visit_a (guint64 i, guint depth)
{
  return depth == 0 ? allocate (i) : visit_b (i, depth - 1);
}

static __attribute__((noinline)) void *
visit_b (guint64 i, guint depth)
{
  return depth == 0 ? allocate (i) : (i & 1 ? visit_a (i >> 1, depth - 1) : visit_b (i >> 1, depth - 1));
}

static int
workload (guint64 n)
{
  leaks = calloc (n / 1000 + 1, sizeof (void *));
  for (guint64 i = 0; i < n; i++)
    {
      guint slot = (guint) ((i * 40503u) % G_N_ELEMENTS (ring));
      void *p = visit_a (i, (guint) (i % 9));

      if (i % 1000 == 999)
        leaks[n_leaks++] = p;
      else if (i % 3 == 0)
        free (p);   /* temporary */
      else
        {
          free (ring[slot]);
          ring[slot] = p;
        }
      if (i % 50000 == 0)
        g_usleep (1000);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ring); i++)
    free (ring[i]);
  return n_leaks > 0 ? 0 : 1;
}

/* ---- helpers ---------------------------------------------------------- */

static double
now_s (void)
{
  return (double) g_get_monotonic_time () / 1e6;
}

/* CPU seconds (user + system) of this process or of its waited-for children */
static double
cpu_s (int who)
{
  struct rusage ru;
  getrusage (who, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static char *
self_path (void)
{
  return g_file_read_link ("/proc/self/exe", NULL);
}

/* A Python program like a real one: a cache that keeps 1 in 50 records,
 * lists and byte strings that die young (the objects above pymalloc's
 * 512 bytes and the lists' item arrays come from malloc: about two
 * malloc calls per iteration), dictionaries rebuilt now and then. */
static const char python_workload[] =
  "import sys\n"
  "n = int(sys.argv[1]) // 2\n"
  "cache = {}\n"
  "for i in range(n):\n"
  "    rec = bytes(520 + i % 480)\n"
  "    row = [i] * (70 + i % 60)\n"
  "    if i % 50 == 0:\n"
  "        cache[i] = rec\n"
  "    if i % 100000 == 0:\n"
  "        cache = dict(cache)\n"
  "print(len(cache))\n";

static char *
record (guint64 allocs, gboolean python)
{
  g_autofree char *self = self_path ();
  g_autofree char *base = g_strdup_printf ("%s/tidemark-bench-heaptrack-%s-%" G_GUINT64_FORMAT, g_get_tmp_dir (),
                                           python ? "python" : "v2", allocs);
  char *path = g_strconcat (base, ".zst", NULL);
  g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, allocs);
  const char *c_argv[] = { "heaptrack", "-o", base, self, "--workload", n, NULL };
  /* the interpreter itself, not a wrapper script (pyenv's shims are) */
  const char *python3 = g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE) ? "/usr/bin/python3" : "python3";
  const char *py_argv[] = { "heaptrack", "-o", base, python3, "-c", python_workload, n, NULL };
  const char **argv = python ? py_argv : c_argv;
  g_autoptr(GError) error = NULL;
  int status = 0;
  double t0;

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return path;
  g_print ("recording %s allocations with heaptrack into %s ...\n", n, path);
  t0 = now_s ();
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error) || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_printerr ("cannot record with heaptrack: %s\n", error ? error->message : "no output file");
      exit (2);
    }
  g_print ("  recorded in %.1f s\n", now_s () - t0);
  return path;
}

static const char *
load_average (void)
{
  static char buf[64];
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return "?";
  g_strlcpy (buf, text, sizeof buf);
  g_strdelimit (buf, "\n", '\0');
  return buf;
}

static guint64
summary_number (const char *out, const char *label)
{
  const char *p = strstr (out, label);
  return p ? g_ascii_strtoull (p + strlen (label), NULL, 10) : 0;
}

typedef struct {
  double wall, cpu;
  double peak_rss_mib;
} ChildRun;

/* Runs argv under GNU time with stdout into out_path (or /dev/null); its
 * wall and CPU time and peak RSS.  Through time(1) because a process
 * keeps its peak RSS across exec: a child spawned from this big process
 * would report this process's size. */
static void
run_child (const char *const *argv, const char *out_path, ChildRun *run)
{
  g_autofree char *times = g_build_filename (g_get_tmp_dir (), "tidemark-bench-time.txt", NULL);
  g_autofree char *text = NULL;
  const char *timed[16] = { "/usr/bin/time", "-f", "%M %e %U %S", "-o", times };
  posix_spawn_file_actions_t fa;
  double kib = 0, e = 0, u = 0, sy = 0;
  pid_t pid;
  int status = 0, n = 5;
  extern char **environ;

  for (int i = 0; argv[i] != NULL && n < 15; i++)
    timed[n++] = argv[i];
  timed[n] = NULL;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_addopen (&fa, 1, out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
  if (posix_spawn (&pid, timed[0], &fa, NULL, (char *const *) timed, environ) != 0)
    {
      g_printerr ("cannot run %s (needs GNU time)\n", timed[0]);
      exit (2);
    }
  posix_spawn_file_actions_destroy (&fa);
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0 ||
      !g_file_get_contents (times, &text, NULL, NULL) || sscanf (text, "%lf %lf %lf %lf", &kib, &e, &u, &sy) != 4)
    {
      g_printerr ("%s failed\n", argv[0]);
      exit (2);
    }
  g_unlink (times);
  run->wall = e;
  run->cpu = u + sy;
  run->peak_rss_mib = kib / 1024.0;
}

/* heaptrack_print and the import, each in a child of its own */
static void
run_print_child (const char *path, ChildRun *run, guint64 *allocs, guint64 *temporary)
{
  g_autofree char *out_path = g_build_filename (g_get_tmp_dir (), "tidemark-bench-heaptrack-print.txt", NULL);
  g_autofree char *out = NULL;
  const char *argv[] = { "heaptrack_print", path, NULL };

  run_child (argv, out_path, run);
  if (!g_file_get_contents (out_path, &out, NULL, NULL))
    exit (2);
  *allocs = summary_number (out, "calls to allocation functions: ");
  *temporary = summary_number (out, "temporary memory allocations: ");
  g_unlink (out_path);
}

/* the import by this build, or by another build's bench-import (`base`) */
static void
run_import_child (const char *base, const char *path, ChildRun *run)
{
  g_autofree char *self = self_path ();
  const char *argv[] = { base ? base : self, "--import-only", path, NULL };

  run_child (argv, NULL, run);
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* medians of wall and CPU time, the largest peak RSS */
static ChildRun
child_median (GArray *runs)
{
  g_autoptr(GArray) wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  ChildRun m = { 0, 0, 0 };

  for (guint i = 0; i < runs->len; i++)
    {
      const ChildRun *r = &g_array_index (runs, ChildRun, i);
      g_array_append_val (wall, r->wall);
      g_array_append_val (cpu, r->cpu);
      m.peak_rss_mib = MAX (m.peak_rss_mib, r->peak_rss_mib);
    }
  g_array_sort (wall, compare_doubles);
  g_array_sort (cpu, compare_doubles);
  m.wall = g_array_index (wall, double, wall->len / 2);
  m.cpu = g_array_index (cpu, double, cpu->len / 2);
  return m;
}

/* heaptrack_print on the file; returns seconds, its allocation count */
static double
run_heaptrack_print (const char *path, guint64 *allocs, guint64 *temporary, double *cpu)
{
  const char *argv[] = { "heaptrack_print", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  double t0 = now_s (), c0 = cpu_s (RUSAGE_CHILDREN), t;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     &out, NULL, &status, &error) || !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("heaptrack_print failed: %s\n", error->message);
      exit (2);
    }
  t = now_s () - t0;
  *cpu = cpu_s (RUSAGE_CHILDREN) - c0;
  *allocs = summary_number (out, "calls to allocation functions: ");
  *temporary = summary_number (out, "temporary memory allocations: ");
  return t;
}

static double
run_import (const char *path, TmTrace **keep, double *cpu)
{
  g_autoptr(GError) error = NULL;
  double t0 = now_s (), c0 = cpu_s (RUSAGE_SELF);
  TmTrace *t = tm_heaptrack_import (path, NULL, NULL, NULL, &error);
  double dt = now_s () - t0;

  *cpu = cpu_s (RUSAGE_SELF) - c0;
  if (t == NULL)
    {
      g_printerr ("import failed: %s\n", error->message);
      exit (2);
    }
  if (*keep)
    tm_trace_unref (*keep);
  *keep = t;
  return dt;
}

/* heaptrack's figures per call stack and the bottom-up tree, what the
 * call-tree views and `tidemark-cli callers` need; returns seconds */
static double
run_calltree (const char *path, guint64 *allocs, guint *nodes)
{
  g_autoptr(GError) error = NULL;
  double t0 = now_s ();
  g_autoptr(TmHeaptrackProfile) hp = tm_heaptrack_profile_read (path, NULL, NULL, NULL, &error);
  g_autoptr(TmCallTree) tree = NULL;

  if (hp == NULL)
    {
      g_printerr ("reading the call stacks failed: %s\n", error->message);
      exit (2);
    }
  tree = tm_call_tree_new (tm_heaptrack_profile_calls (hp), TM_CALL_TREE_BOTTOM_UP);
  *allocs = tm_heaptrack_profile_summary (hp)->allocations;
  *nodes = tm_call_tree_n_nodes (tree);
  return now_s () - t0;
}

static guint64
meta_u64 (const TmTrace *t, const char *key)
{
  const char *v = g_hash_table_lookup (t->meta, key);
  return v ? g_ascii_strtoull (v, NULL, 10) : 0;
}

/* A big log: the corpus file repeated until it has `lines` lines. */
static char *
big_log (const char *name, guint64 lines, guint64 *n_lines)
{
  g_autofree char *src = g_build_filename (TM_TEST_DATA, "gc-logs", name, NULL);
  g_autofree char *text = NULL;
  gsize len;
  guint64 per = 0;
  char *path;
  FILE *f;
  int fd;

  if (!g_file_get_contents (src, &text, &len, NULL))
    {
      g_printerr ("cannot read %s\n", src);
      exit (2);
    }
  for (gsize i = 0; i < len; i++)
    per += text[i] == '\n';
  fd = g_file_open_tmp ("tidemark-bench-XXXXXX.log", &path, NULL);
  f = fdopen (fd, "w");
  *n_lines = 0;
  while (*n_lines < lines)
    {
      fwrite (text, 1, len, f);
      *n_lines += per;
    }
  fclose (f);
  return path;
}

static void
bench_gclog (const char *name, guint64 lines, guint rounds)
{
  guint64 n_lines;
  g_autofree char *path = big_log (name, lines, &n_lines);
  double best = 1e9;
  guint gcs = 0;
  GStatBuf st;

  g_stat (path, &st);
  for (guint r = 0; r < rounds; r++)
    {
      g_autoptr(GError) error = NULL;
      double t0 = now_s ();
      TmTrace *t = tm_gclog_import (path, NULL, NULL, NULL, &error);
      double dt = now_s () - t0;
      if (t == NULL)
        {
          g_printerr ("gc log import failed: %s\n", error->message);
          exit (2);
        }
      gcs = tm_trace_n_gcs (t);
      tm_trace_unref (t);
      best = MIN (best, dt);
    }
  g_print ("| %s x%" G_GUINT64_FORMAT " lines | %.1f MiB | %u GCs | %.3f s | %.2f M lines/s | %.0f MiB/s |\n", name,
           n_lines, st.st_size / 1048576.0, gcs, best, n_lines / best / 1e6, st.st_size / 1048576.0 / best);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_autofree char *file = NULL;
  gint64 allocs = 10000000, gclog_lines = 1000000;
  gint rounds = 2;
  gint64 workload_n = -1;
  gboolean python = FALSE;
  g_autofree char *import_only = NULL;
  g_autofree char *base = NULL;
  g_autoptr(GArray) runs_import = g_array_new (FALSE, FALSE, sizeof (ChildRun));
  g_autoptr(GArray) runs_base = g_array_new (FALSE, FALSE, sizeof (ChildRun));
  g_autoptr(GArray) runs_print = g_array_new (FALSE, FALSE, sizeof (ChildRun));
  ChildRun child_import, child_print, child_base = { 0, 0, 0 };
  GOptionEntry entries[] = {
    { "heaptrack", 0, 0, G_OPTION_ARG_FILENAME, &file, "heaptrack file (default: record one)", "FILE" },
    { "allocs", 0, 0, G_OPTION_ARG_INT64, &allocs, "allocations to record (default 10^7)", "N" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "repetitions, best time counts (default 2)", "R" },
    { "gclog-lines", 0, 0, G_OPTION_ARG_INT64, &gclog_lines, "lines of the GC log benchmark (default 10^6; 0: none)", "N" },
    { "python", 0, 0, G_OPTION_ARG_NONE, &python, "record a Python program (default: a C one)", NULL },
    { "base", 0, 0, G_OPTION_ARG_FILENAME, &base, "another build's bench-import: its import too, alternating", "PATH" },
    { "workload", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT64, &workload_n, NULL, NULL },
    { "import-only", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &import_only, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- importer benchmark");
  g_autoptr(GError) error = NULL;
  TmTrace *t = NULL;
  double best_import = 1e9, best_print = 1e9, cpu_import = 1e9, cpu_print = 1e9, best_tree = 1e9;
  guint64 p_allocs = 0, p_temp = 0, tree_allocs = 0;
  guint tree_nodes = 0;
  GStatBuf st;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  if (workload_n >= 0)
    return workload ((guint64) workload_n);
  if (import_only != NULL)
    {
      TmTrace *only = tm_heaptrack_import (import_only, NULL, NULL, NULL, &error);
      if (only == NULL)
        return 2;
      tm_trace_unref (only);
      return 0;
    }
  rounds = MAX (rounds, 1);

  if (file == NULL)
    file = record ((guint64) allocs, python);
  g_stat (file, &st);

  /* alternate the two, so that both see the same machine load */
  for (gint r = 0; r < rounds; r++)
    {
      double ci, cp;
      best_import = MIN (best_import, run_import (file, &t, &ci));
      best_print = MIN (best_print, run_heaptrack_print (file, &p_allocs, &p_temp, &cp));
      best_tree = MIN (best_tree, run_calltree (file, &tree_allocs, &tree_nodes));
      cpu_import = MIN (cpu_import, ci);
      cpu_print = MIN (cpu_print, cp);
    }
  /* the same, each in a process of its own, alternating: peak RSS side
   * by side, medians of the times */
  for (gint r = 0; r < rounds; r++)
    {
      ChildRun a, b, c;
      guint64 ca, ct;

      run_import_child (NULL, file, &a);
      g_array_append_val (runs_import, a);
      run_print_child (file, &b, &ca, &ct);
      g_array_append_val (runs_print, b);
      if (base != NULL)
        {
          run_import_child (base, file, &c);
          g_array_append_val (runs_base, c);
        }
    }
  child_import = child_median (runs_import);
  child_print = child_median (runs_print);
  if (base != NULL)
    child_base = child_median (runs_base);

  g_print ("\n## heaptrack import: %s (%.1f MiB)\n\n", file, st.st_size / 1048576.0);
  g_print ("| measure | value |\n|---|---|\n");
  g_print ("| allocations (Tidemark / heaptrack_print) | %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " |\n",
           meta_u64 (t, "heaptrack.allocations"), p_allocs);
  g_print ("| temporary (Tidemark / heaptrack_print) | %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " |\n",
           meta_u64 (t, "heaptrack.temporary"), p_temp);
  g_print ("| allocations / rows kept (alive at a time point) / deaths / timeline points | %" G_GUINT64_FORMAT
           " / %" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " / %u |\n",
           t->total_allocs, t->n_objects, t->total_deaths, tm_trace_n_gcs (t));
  g_print ("| **model memory per allocation** | **%.2f bytes** (a row per allocation: 20; goal <= 4) |\n",
           (double) tm_trace_object_memory (t) / (double) MAX (t->total_allocs, 1));
  g_print ("| model memory per surviving object (row) | %.1f bytes |\n",
           (double) tm_trace_object_memory (t) / (double) MAX (t->n_objects, 1));
  g_print ("| `heaptrack_print FILE` | %.3f s |\n", best_print);
  g_print ("| tm_heaptrack_import (full model) | %.3f s |\n", best_import);
  g_print ("| **Tidemark / heaptrack_print, wall** | **%.2f** (goal <= 0.25) |\n", best_import / best_print);
  g_print ("| processes of their own, wall (medians of %d): Tidemark import / heaptrack_print | %.3f s / %.3f s = **%.2f** |\n",
           rounds, child_import.wall, child_print.wall, child_import.wall / child_print.wall);
  if (base != NULL)
    {
      g_print ("| the same, the base build's import / heaptrack_print (wall) | %.3f s / %.3f s = **%.2f** |\n",
               child_base.wall, child_print.wall, child_base.wall / child_print.wall);
      g_print ("| the same, the base build's import / heaptrack_print (CPU) | %.3f s / %.3f s = **%.2f** |\n",
               child_base.cpu, child_print.cpu, child_base.cpu / child_print.cpu);
      g_print ("| this build / the base build: wall, CPU, peak RSS | %.2f, %.2f, %.2f |\n",
               child_import.wall / child_base.wall, child_import.cpu / child_base.cpu,
               child_import.peak_rss_mib / child_base.peak_rss_mib);
    }
  g_print ("| processes of their own, CPU: Tidemark import / heaptrack_print | %.3f s / %.3f s = **%.2f** |\n",
           child_import.cpu, child_print.cpu, child_import.cpu / child_print.cpu);
  g_print ("| **peak RSS: Tidemark import / heaptrack_print** | %.1f MiB / %.1f MiB = **%.2f** (goal <= 1.5) |\n",
           child_import.peak_rss_mib, child_print.peak_rss_mib, child_import.peak_rss_mib / child_print.peak_rss_mib);
  g_print ("| peak RSS of the import per allocation | %.2f bytes |\n",
           child_import.peak_rss_mib * 1048576.0 / (double) MAX (t->total_allocs, 1));
  g_print ("| CPU time (user + system), Tidemark (both threads) / heaptrack_print | %.3f s / %.3f s = **%.2f** |\n",
           cpu_import, cpu_print, cpu_import / cpu_print);
  g_print ("| allocations imported per second | %.1f M/s |\n", t->total_allocs / best_import / 1e6);
  g_print ("| bottom-up call tree (heaptrack's figures per stack + tree, %u nodes) | %.3f s |\n", tree_nodes, best_tree);
  g_print ("| **bottom-up tree / heaptrack_print's whole report** | **%.2f** (goal <= 2) |\n", best_tree / best_print);
  g_print ("| load average while measuring | %s |\n", load_average ());
  if (meta_u64 (t, "heaptrack.allocations") != p_allocs || meta_u64 (t, "heaptrack.temporary") != p_temp ||
      tree_allocs != p_allocs)
    g_print ("\nWARNING: totals differ from heaptrack_print\n");
  tm_trace_unref (t);

  /* Round by round: where the wall ratio moves with the CPU ratio, the
   * work itself varies; where it moves alone, the import waited for a
   * core (its three threads need more than one at a time). */
  g_print ("\n| round | import wall / CPU | heaptrack_print wall / CPU | wall ratio | CPU ratio | import CPU / wall |\n"
           "|---|---|---|---|---|---|\n");
  for (guint r = 0; r < runs_import->len; r++)
    {
      const ChildRun *a = &g_array_index (runs_import, ChildRun, r), *b = &g_array_index (runs_print, ChildRun, r);
      g_print ("| %u | %.3f / %.3f s | %.3f / %.3f s | %.2f | %.2f | %.2f |\n", r + 1, a->wall, a->cpu, b->wall, b->cpu,
               a->wall / b->wall, a->cpu / b->cpu, a->cpu / MAX (a->wall, 1e-3));
    }

  if (gclog_lines <= 0)
    return 0;
  g_print ("\n## GC log parsing\n\n| log | size | GCs | best time | lines/s | MiB/s |\n|---|---|---|---|---|---|\n");
  bench_gclog ("jdk17-g1.log", (guint64) gclog_lines, (guint) rounds);
  bench_gclog ("legacy-g1-SampleSun1_6_0G1_gc_verbose.txt", (guint64) gclog_lines, (guint) rounds);
  bench_gclog ("legacy-cms-SampleSun1_8_0CmsPrintGcId.txt", (guint64) gclog_lines, (guint) rounds);
  return 0;
}
