/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * End-to-end tests of the JVMTI agent: real JVMs record Java programs with
 * known allocation counts and a known leak (the .java files here), and the
 * traces are checked exactly through the same loader the app uses.
 *
 * Environment (set by tests/agent/meson.build): TM_JAVA_HOME (the JDK the
 * agent was built against), TM_AGENT, TM_AGENT_CLASSES (compiled test
 * programs), TIDEMARK_CLI, TM_SOURCE_DIR.
 */
#include "tidemark.h"
#include "tm-advice-ages.h"
#include "tm-transactions.h"
#include "tm-windows.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

/* AllocCount.java */
#define MAIN_MARKERS    100000
#define WORKER_MARKERS  30000
#define ARRAYS          2000
#define BIG_ARRAYS      20000
/* ShortThreads.java */
#define SHORT_THREADS   3000
#define SHORT_WAVE      8
#define SHORT_PER       10
/* LeakCheck.java */
#define LEAK_PHASES     6
#define LEAK_PER_PHASE  5000
#define LEAK_PAYLOAD    64

static char *
java_path (const char *tool)
{
  return g_build_filename (g_getenv ("TM_JAVA_HOME"), "bin", tool, NULL);
}

static char *
make_tmpdir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("tm-agent-test-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

static void
remove_tree (const char *dir)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (cmd), ==, 0);
}

/* Runs argv; returns the exit status (-1 if killed), stderr in *err. */
static int
run (char **argv, char **out, char **err)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error);
  g_assert_no_error (error);
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return -1;
}

/* Runs main_class (with main_arg if not NULL) under the agent; the JVM
 * must exit with expect_status and print main_class first.  Its stdout is
 * returned in *stdout_out if that is not NULL.  With a shell_prefix (shell
 * commands such as a ulimit), the JVM runs under /bin/sh after them. */
static TmTrace *
record_run_in (const char *shell_prefix, const char *dir, const char *name, const char *agent_opts,
               const char * const *jvm_args, const char *main_class, const char *main_arg, int expect_status,
               char **stdout_out)
{
  g_autofree char *java = java_path ("java");
  g_autofree char *trace = g_build_filename (dir, name, NULL);
  g_autofree char *agentpath = g_strdup_printf ("-agentpath:%s=output=%s%s%s", g_getenv ("TM_AGENT"), trace,
                                                agent_opts ? "," : "", agent_opts ? agent_opts : "");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  TmTrace *t;
  int status;

  g_autofree char *script = shell_prefix ? g_strdup_printf ("%s && exec \"$0\" \"$@\"", shell_prefix) : NULL;

  if (script != NULL)
    {
      g_ptr_array_add (argv, (char *) "/bin/sh");
      g_ptr_array_add (argv, (char *) "-c");
      g_ptr_array_add (argv, script);
    }
  g_ptr_array_add (argv, java);
  for (guint i = 0; jvm_args && jvm_args[i]; i++)
    g_ptr_array_add (argv, (char *) jvm_args[i]);
  g_ptr_array_add (argv, agentpath);
  g_ptr_array_add (argv, (char *) "-cp");
  g_ptr_array_add (argv, (char *) g_getenv ("TM_AGENT_CLASSES"));
  g_ptr_array_add (argv, (char *) main_class);
  if (main_arg != NULL)
    g_ptr_array_add (argv, (char *) main_arg);
  g_ptr_array_add (argv, NULL);
  status = run ((char **) argv->pdata, &out, &err);
  if (status != expect_status)
    g_printerr ("%s", err);
  g_assert_cmpint (status, ==, expect_status);
  g_assert_true (g_str_has_prefix (out, main_class));

  t = tm_trace_load (trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  if (stdout_out != NULL)
    *stdout_out = g_steal_pointer (&out);
  return t;
}

static TmTrace *
record_run (const char *dir, const char *name, const char *agent_opts, const char * const *jvm_args,
            const char *main_class, const char *main_arg, int expect_status, char **stdout_out)
{
  return record_run_in (NULL, dir, name, agent_opts, jvm_args, main_class, main_arg, expect_status, stdout_out);
}

static TmTrace *
record (const char *dir, const char *name, const char *agent_opts, const char * const *jvm_args,
        const char *main_class)
{
  return record_run (dir, name, agent_opts, jvm_args, main_class, NULL, 0, NULL);
}

/* Line of the source line of tests/agent/FILE holding `marker`. */
static gint
source_line (const char *file, const char *marker)
{
  g_autofree char *path = g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "agent", file, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], marker) != NULL)
      return (gint) i + 1;
  g_assert_not_reached ();
  return -1;
}

static guint32
type_index (const TmTrace *t, const char *name)
{
  for (guint32 i = 1; i < t->types->len; i++)
    if (strcmp (tm_trace_type (t, i)->name, name) == 0)
      return i;
  return 0;
}

static const TmFrame *
site_frame (const TmTrace *t, guint32 site, guint k)
{
  const TmSite *s = tm_trace_site (t, site);
  if (site == 0 || k >= s->depth)
    return NULL;
  return tm_trace_frame (t, s->frames[k]);
}

typedef struct {
  guint64 count;
  guint64 alive;          /* never died */
  guint64 at_site;        /* allocated at the expected method and line */
  guint64 in_thread;      /* by the expected thread */
  guint64 size;
  gboolean sizes_equal;
} TypeStats;

static TypeStats
type_stats (const TmTrace *t, const char *type, const char *method, gint line, const char *thread)
{
  TypeStats s = { 0, 0, 0, 0, 0, TRUE };
  guint32 ti = type_index (t, type);

  g_assert_cmpuint (ti, !=, 0);
  for (guint64 i = 0; i < t->n_objects; i++)
    {
      const TmFrame *f;
      if (t->obj_type[i] != ti)
        continue;
      s.count++;
      if (t->obj_death[i] == TM_ALIVE)
        s.alive++;
      f = site_frame (t, t->obj_site[i], 0);
      if (f != NULL && g_str_has_prefix (f->method, method) && f->line == line)
        s.at_site++;
      if (thread != NULL && strcmp (tm_trace_thread (t, t->obj_thread[i])->name, thread) == 0)
        s.in_thread++;
      if (s.count == 1)
        s.size = tm_trace_object_size (t, i);
      else if (s.size != tm_trace_object_size (t, i))
        s.sizes_equal = FALSE;
    }
  /* the ones that died in their first GC: counters, not rows */
  for (guint e = 0; e < t->short_lived->len; e++)
    {
      const TmShortLived *sl = &g_array_index (t->short_lived, TmShortLived, e);
      const TmFrame *f;
      if (sl->type != ti)
        continue;
      if (s.count == 0)
        s.size = sl->bytes / sl->count;
      if (sl->bytes != s.size * sl->count)
        s.sizes_equal = FALSE;
      s.count += sl->count;
      f = site_frame (t, sl->site, 0);
      if (f != NULL && g_str_has_prefix (f->method, method) && f->line == line)
        s.at_site += sl->count;
      if (thread != NULL && strcmp (tm_trace_thread (t, sl->thread)->name, thread) == 0)
        s.in_thread += sl->count;
    }
  return s;
}

static void
assert_clean (const TmTrace *t)
{
  for (guint i = 0; i < t->warnings->len; i++)
    g_printerr ("warning: %s\n", g_array_index (t->warnings, TmWarning, i).message);
  g_assert_cmpuint (t->warnings->len, ==, 0);
  g_assert_true (t->complete);
  g_assert_cmpuint (t->dropped_events, ==, 0);
}

/* Every allocation of the test types, counted exactly, at the right
 * method, line and thread; every one dead at the end but the last of each
 * kind, which a static field keeps. */
static void
test_exact_counts (gconstpointer data)
{
  const char *collector = data;
  const char *args[] = { "-XX:-DoEscapeAnalysis", "-Xmx256m", collector, NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record (dir, "alloc.tmtrace", "stack-depth=3", args, "AllocCount");
  TypeStats m, w, a, big;
  const TmFrame *caller;
  guint32 ti;

  assert_clean (t);
  g_assert_cmpuint (t->alloc_sample_bytes, ==, 0);
  g_assert_true (t->flags & TM_TRACE_FLAG_GRAPHS);
  g_assert_cmpuint (t->n_graphs, >=, 1);

  m = type_stats (t, "AllocCountMarker", "AllocCount.makeMarker(int)",
                  source_line ("AllocCount.java", "SITE-MARKER"), "main");
  g_assert_cmpuint (m.count, ==, MAIN_MARKERS);
  g_assert_cmpuint (m.at_site, ==, MAIN_MARKERS);
  g_assert_cmpuint (m.in_thread, ==, MAIN_MARKERS);
  g_assert_cmpuint (m.alive, ==, 1);
  g_assert_true (m.sizes_equal);
  g_assert_cmpuint (m.size, >=, 16);

  w = type_stats (t, "AllocCountWorkerMarker", "AllocCount.lambda$main$",
                  source_line ("AllocCount.java", "SITE-WORKER"), "alloc-worker");
  g_assert_cmpuint (w.count, ==, WORKER_MARKERS);
  g_assert_cmpuint (w.at_site, ==, WORKER_MARKERS);
  g_assert_cmpuint (w.in_thread, ==, WORKER_MARKERS);
  g_assert_cmpuint (w.alive, ==, 1);

  a = type_stats (t, "AllocCountMarker[]", "AllocCount.main(String[])",
                  source_line ("AllocCount.java", "SITE-ARRAY"), "main");
  g_assert_cmpuint (a.count, ==, ARRAYS);
  g_assert_cmpuint (a.at_site, ==, ARRAYS);
  g_assert_cmpuint (a.alive, ==, 1);
  ti = type_index (t, "AllocCountMarker[]");
  g_assert_true (tm_trace_type (t, ti)->flags & TM_TYPE_FLAG_REF_ARRAY);

  big = type_stats (t, "long[]", "AllocCount.bigArrays()", source_line ("AllocCount.java", "SITE-BIG"), NULL);
  g_assert_cmpuint (big.at_site, ==, BIG_ARRAYS);
  g_assert_true (tm_trace_type (t, type_index (t, "long[]"))->flags & TM_TYPE_FLAG_PRIM_ARRAY);

  /* the caller frame of the marker site: from a row, or from the
   * counters of the markers that died young */
  caller = NULL;
  for (guint64 i = 0; i < t->n_objects && caller == NULL; i++)
    if (t->obj_type[i] == type_index (t, "AllocCountMarker"))
      caller = site_frame (t, t->obj_site[i], 1);
  for (guint e = 0; e < t->short_lived->len && caller == NULL; e++)
    if (g_array_index (t->short_lived, TmShortLived, e).type == type_index (t, "AllocCountMarker"))
      caller = site_frame (t, g_array_index (t->short_lived, TmShortLived, e).site, 1);
  g_assert_nonnull (caller);
  g_assert_cmpstr (caller->method, ==, "AllocCount.main(String[])");
  g_assert_cmpstr (caller->file, ==, "AllocCount.java");

  /* objects that were in the heap before recording: site 0, type known */
  g_assert_cmpuint (t->obj_site[0], ==, 0);
  g_assert_cmpuint (t->obj_type[0], !=, 0);
  remove_tree (dir);
}

/* Concurrent collectors: exact counts too, GCs recorded as the pauses of
 * concurrent cycles, and an orderly end (a forced GC at VMDeath would wait
 * forever for their stopped threads). */
static void
test_concurrent (gconstpointer data)
{
  const char *args[] = { "-XX:-DoEscapeAnalysis", "-Xmx256m", data, NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record (dir, "concurrent.tmtrace", NULL, args, "AllocCount");
  TypeStats m, w;

  assert_clean (t);
  m = type_stats (t, "AllocCountMarker", "AllocCount.makeMarker(int)",
                  source_line ("AllocCount.java", "SITE-MARKER"), "main");
  w = type_stats (t, "AllocCountWorkerMarker", "AllocCount.lambda$main$",
                  source_line ("AllocCount.java", "SITE-WORKER"), "alloc-worker");
  g_assert_cmpuint (m.count, ==, MAIN_MARKERS);
  g_assert_cmpuint (m.at_site, ==, MAIN_MARKERS);
  g_assert_cmpuint (w.count, ==, WORKER_MARKERS);
  g_assert_cmpuint (w.in_thread, ==, WORKER_MARKERS);
  /* System.gc() at least: one cycle, three pauses */
  g_assert_cmpuint (tm_trace_n_gcs (t), >=, 1);
  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    g_assert_cmpint (tm_trace_gc (t, n)->kind, ==, TM_GC_KIND_CONCURRENT);
  remove_tree (dir);
}

/* Sampling: about one ALLOC per N bytes, said in the header. */
static void
test_sampled (void)
{
  const char *args[] = { "-XX:-DoEscapeAnalysis", "-Xmx256m", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record (dir, "sampled.tmtrace", "sample-bytes=32768", args, "AllocCount");
  TypeStats big = type_stats (t, "long[]", "AllocCount.bigArrays()", source_line ("AllocCount.java", "SITE-BIG"), NULL);
  double expected = (double) BIG_ARRAYS * (double) big.size / 32768.0;

  assert_clean (t);
  g_assert_cmpuint (t->alloc_sample_bytes, ==, 32768);
  g_assert_false (t->flags & TM_TRACE_FLAG_GRAPHS);
  /* Poisson with mean ~166: half to twice is > 6 standard deviations */
  g_assert_cmpfloat ((double) big.at_site, >=, expected / 2);
  g_assert_cmpfloat ((double) big.at_site, <=, expected * 2);
  g_assert_cmpuint (t->total_allocs, <, MAIN_MARKERS);
  remove_tree (dir);
}

/* The map of LeakCheck is reachable and grows from each phase's graph to
 * the next by at least the entries added. */
static void
test_leak_graphs (void)
{
  const char *args[] = { "-XX:-DoEscapeAnalysis", "-Xmx256m", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record (dir, "leak.tmtrace", "graph-every=1", args, "LeakCheck");
  g_autofree char *trace = g_build_filename (dir, "leak.tmtrace", NULL);
  g_autofree char *out = NULL, *err = NULL;
  guint32 entry_type = type_index (t, "LeakCheckEntry");
  guint64 entry_size = 0, previous = 0;
  guint phase = 0;
  const char *p;
  guint numbers = 0;

  assert_clean (t);
  g_assert_cmpuint (entry_type, !=, 0);
  for (guint64 i = 0; i < t->n_objects && entry_size == 0; i++)
    if (t->obj_type[i] == entry_type)
      entry_size = tm_trace_object_size (t, i);

  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    {
      const TmGc *gc = tm_trace_gc (t, n);
      guint64 alive = 0;

      if (strcmp (gc->cause, "System.gc()") != 0)
        continue;
      g_assert_true (gc->has_graph);
      for (guint64 i = 0; i < t->n_objects; i++)
        if (t->obj_type[i] == entry_type && tm_trace_object_alive_after (t, i, n))
          alive++;
      phase++;
      g_assert_cmpuint (alive, ==, (guint64) phase * LEAK_PER_PHASE);
      if (phase > 1)
        g_assert_cmpuint (gc->reachable_bytes, >=, previous + LEAK_PER_PHASE * (entry_size + LEAK_PAYLOAD));
      previous = gc->reachable_bytes;
    }
  g_assert_cmpuint (phase, ==, LEAK_PHASES);

  /* the same through the CLI: reachable_bytes is a number at graph GCs */
  {
    char *argv[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "timeline", trace, (char *) "--json", NULL };
    g_assert_cmpint (run (argv, &out, &err), ==, 0);
  }
  for (p = out; (p = strstr (p, "\"reachable_bytes\": ")) != NULL; p++)
    if (g_ascii_isdigit (p[strlen ("\"reachable_bytes\": ")]))
      numbers++;
  g_assert_cmpuint (numbers, >=, LEAK_PHASES);
  remove_tree (dir);
}

/* SIGKILL mid-run: the completed zstd frames are a readable trace that
 * says it was cut short. */
static void
test_sigkill (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *java = java_path ("java");
  g_autofree char *trace = g_build_filename (dir, "killed.tmtrace", NULL);
  g_autofree char *status = g_build_filename (dir, "status", NULL);
  g_autofree char *agentpath = g_strdup_printf ("-agentpath:%s=output=%s,status=%s", g_getenv ("TM_AGENT"), trace, status);
  char *argv[] = { java, (char *) "-Xmx64m", agentpath, (char *) "-cp", (char *) g_getenv ("TM_AGENT_CLASSES"),
                   (char *) "LongRun", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;
  g_autofree char *out = NULL, *err = NULL;
  GPid pid;
  int wstatus;
  gboolean ready = FALSE;

  g_spawn_async (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  /* until the agent has run 2 s and seen 2 GCs (at most 60 s) */
  for (int i = 0; i < 600 && !ready; i++)
    {
      g_autofree char *text = NULL;
      gint64 ms = 0;
      guint64 allocs = 0;
      guint gcs = 0;
      g_usleep (100000);
      if (g_file_get_contents (status, &text, NULL, NULL)
          && sscanf (text, "%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %u", &ms, &allocs, &gcs) == 3)
        ready = ms >= 2000 && gcs >= 2 && allocs > 0;
    }
  kill (pid, SIGKILL);
  waitpid (pid, &wstatus, 0);
  g_assert_true (ready);
  g_assert_true (WIFSIGNALED (wstatus));

  t = tm_trace_load (trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (t->complete);
  g_assert_false (t->has_end);
  g_assert_cmpuint (t->n_objects, >, 0);
  g_assert_cmpuint (tm_trace_n_gcs (t), >=, 1);

  {
    char *cli[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "info", trace, (char *) "--json", NULL };
    g_assert_cmpint (run (cli, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, "\"complete\": false"));
  }
  remove_tree (dir);
}

/* tidemark-cli record of javac compiling a real source tree (the test
 * programs, the demo and the agent's helper class). */
static void
test_javac (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *javac = java_path ("javac");
  g_autofree char *trace = g_build_filename (dir, "javac.tmtrace", NULL);
  g_autofree char *classes = g_build_filename (dir, "classes", NULL);
  const char *src = g_getenv ("TM_SOURCE_DIR");
  g_autofree char *s1 = g_build_filename (src, "tests", "agent", "AllocCount.java", NULL);
  g_autofree char *s2 = g_build_filename (src, "tests", "agent", "LeakCheck.java", NULL);
  g_autofree char *s3 = g_build_filename (src, "tests", "agent", "LongRun.java", NULL);
  g_autofree char *s4 = g_build_filename (src, "tests", "agent", "AllocBench.java", NULL);
  g_autofree char *s5 = g_build_filename (src, "data", "demo", "LeakDemo.java", NULL);
  g_autofree char *s6 = g_build_filename (src, "src", "agent", "TidemarkAgentHelper.java", NULL);
  char *argv[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "record", (char *) "-o", trace, (char *) "--",
                   javac, (char *) "-d", classes, s1, s2, s3, s4, s5, s6, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *compiled = g_build_filename (classes, "LeakDemo.class", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  if (run (argv, &out, &err) != 0)
    g_printerr ("%s", err);
  g_assert_nonnull (strstr (err, "trace written to"));
  g_assert_true (g_file_test (compiled, G_FILE_TEST_IS_REGULAR));

  {
    char *cli[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "info", trace, (char *) "--json", NULL };
    g_assert_cmpint (run (cli, &out2, &err2), ==, 0);
    g_assert_nonnull (strstr (out2, "\"complete\": true"));
    g_assert_nonnull (strstr (out2, "\"warnings\": []"));
    g_assert_cmpstr (err2, ==, "");
  }
  t = tm_trace_load (trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_clean (t);
  g_assert_cmpuint (t->n_objects, >, 100000);
  g_assert_cmpuint (t->n_graphs, >=, 1);
  g_assert_nonnull (strstr (t->command_line, "javac"));
  remove_tree (dir);
}

/* TxLeak.java: handle() is the transaction; runs 10, 20, ..., 200 each
 * leave exactly one TxLeakItem (allocated in handle at TX_LEAK_SITE);
 * the nested handle(-1) of every 50th run is part of that run. */
static void
test_transactions (void)
{
  static const char * const args[] = { "-XX:+UseG1GC", "-XX:-DoEscapeAnalysis", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record (dir, "tx.tmtrace", "graph-every=0,transaction=TxLeak.handle", args, "TxLeak");
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTxReport) r = tm_transactions_analyse (t, NULL, &error);
  guint32 item = type_index (t, "TxLeakItem");
  gint line = source_line ("TxLeak.java", "TX_LEAK_SITE");
  const TmTxKindReport *kind;

  g_assert_no_error (error);
  g_assert_cmpuint (t->tx_kinds->len, ==, 2);
  g_assert_cmpstr (g_array_index (t->tx_kinds, TmTxKind, 1).name, ==, "TxLeak.handle");
  /* 200 runs: the nested calls are not runs of their own */
  g_assert_cmpuint (t->transactions->len, ==, 200);
  g_assert_cmpuint (r->unchecked_runs, ==, 0);
  kind = g_ptr_array_index (r->kinds, 1);
  g_assert_cmpuint (kind->runs, ==, 200);
  g_assert_cmpuint (kind->suspect_runs, ==, 20);
  g_assert_cmpuint (r->suspects->len, ==, 20);
  g_assert_cmpuint (kind->one_time_runs, ==, 0);
  /* the recurring survivor site: TxLeakItem at TX_LEAK_SITE, in 20 runs */
  {
    const TmTxSurvivorSite *top = &g_array_index (kind->sites, TmTxSurvivorSite, 0);
    g_assert_cmpuint (top->type, ==, item);
    g_assert_cmpuint (top->runs, ==, 20);
    for (guint s = 1; s < kind->sites->len; s++)
      g_assert_false (tm_tx_site_is_recurring (kind, &g_array_index (kind->sites, TmTxSurvivorSite, s)));
  }
  for (guint i = 0; i < r->suspects->len; i++)
    {
      const TmTxRun *run = g_ptr_array_index (r->suspects, i);
      const TmTransaction *tx = &g_array_index (t->transactions, TmTransaction, run->index);
      const TmTxSurvivorSite *site;
      const TmFrame *f;

      /* runs are numbered in order: run n is transaction n */
      g_assert_cmpuint (tx->id % 10, ==, 0);
      g_assert_cmpuint (run->recurring_objects, ==, 1);
      /* the first run that keeps an item also loads its class: one-time
       * survivors beside it, not part of the leak */
      site = NULL;
      for (guint s = 0; s < run->sites->len; s++)
        if (g_array_index (run->sites, TmTxSurvivorSite, s).type == item)
          site = &g_array_index (run->sites, TmTxSurvivorSite, s);
      g_assert_nonnull (site);
      g_assert_cmpuint (site->objects, ==, 1);
      if (tx->id != 10)
        g_assert_cmpuint (run->surviving_objects, ==, 1);
      f = site_frame (t, site->site, 0);
      g_assert_nonnull (f);
      g_assert_true (g_str_has_prefix (f->method, "TxLeak.handle("));
      g_assert_cmpint (f->line, ==, line);
      /* 20 byte[] each (40 in the runs with a nested call) plus the item */
      if (tx->id == 10)
        g_assert_cmpuint (run->allocated_objects, >, 21);
      else
        g_assert_cmpuint (run->allocated_objects, ==, tx->id % 50 == 0 ? 41 : 21);
    }
  /* leak-free runs allocate their 20 byte[] and keep nothing */
  for (guint i = 0; i < r->runs->len; i++)
    {
      const TmTxRun *run = g_ptr_array_index (r->runs, i);
      const TmTransaction *tx = &g_array_index (t->transactions, TmTransaction, run->index);
      if (tx->id % 10 != 0)
        {
          g_assert_cmpuint (run->allocated_objects, ==, 20);
          g_assert_cmpuint (run->surviving_objects, ==, 0);
        }
    }
  remove_tree (dir);
}

/* Bad options stop the JVM with a clear message. */
static void
test_options (void)
{
  static const struct { const char *opts; const char *message; } cases[] = {
    { "bogus=1", "unknown option 'bogus'" },
    { "stack-depth=abc", "stack-depth: 'abc' is not a non-negative number" },
    { "stack-depth=65", "stack-depth: 65 is too large" },
    { "sample-bytes=1024,graph-every=5", "cannot be combined with sample-bytes" },
    { "output", "needs a value" },
  };
  g_autofree char *java = java_path ("java");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *agentpath = g_strdup_printf ("-agentpath:%s=%s", g_getenv ("TM_AGENT"), cases[i].opts);
      char *argv[] = { java, agentpath, (char *) "-version", NULL };
      g_autofree char *out = NULL, *err = NULL;
      g_assert_cmpint (run (argv, &out, &err), !=, 0);
      if (strstr (err, cases[i].message) == NULL)
        g_printerr ("stderr: %s\n", err);
      g_assert_nonnull (strstr (err, cases[i].message));
    }

  {
    char *argv[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "record", NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run (argv, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "missing COMMAND"));
  }
  {
    char *argv[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "record", (char *) "--sample-bytes", (char *) "100",
                     (char *) "--graph-every", (char *) "2", (char *) "--", (char *) "java", NULL };
    g_autofree char *out = NULL, *err = NULL;
    g_assert_cmpint (run (argv, &out, &err), ==, 1);
  }
}

static guint64
meta_u64 (const TmTrace *t, const char *key)
{
  const char *v = g_hash_table_lookup (t->meta, key);
  g_assert_nonnull (v);
  return g_ascii_strtoull (v, NULL, 10);
}

/* CacheChurn holds an LRU of CACHE_ENTRIES byte[CACHE_PAYLOAD] values (16
 * bytes of header or more each): a floor for what every graph must reach. */
#define CACHE_ENTRIES  4000
#define CACHE_PAYLOAD  256

typedef struct {
  const char *collector;
  const char *agent_opts;
  const char *extra[2];   /* more JVM options, or NULL */
} RealRun;

/* A real run under each collector: every graph intact (the LRU's entries
 * reachable, none failed, none empty), including graphs at G1's
 * concurrent-cycle pauses; the program never stalls for more than a
 * second beyond the longest heap walk; the final graph is marked
 * post-mortem; the anonymous LinkedHashMap subclass knows its superclass. */
static void
test_real_run (gconstpointer data)
{
  const RealRun *rr = data;
  const char *args[] = { "-Xmx32m", rr->collector, rr->extra[0], rr->extra[1], NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *out = NULL;
  g_autoptr(TmTrace) t = record_run (dir, "run.tmtrace", rr->agent_opts, args, "CacheChurn", "2", 0, &out);
  gint put_line = source_line ("CacheChurn.java", "LRU.put");
  guint32 bytes_type = type_index (t, "byte[]");
  guint graphs = 0, concurrent_graphs = 0;
  const char *gap_text;
  guint32 lru;

  assert_clean (t);
  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    {
      const TmGc *gc = tm_trace_gc (t, n);
      guint64 values = 0, entry_floor;

      g_assert_false (gc->graph_failed);
      if (!gc->has_graph)
        continue;
      graphs++;
      /* The LRU's values alive after this GC: until it is full nothing is
       * evicted, so all of them are in it; once full, CACHE_ENTRIES are. */
      for (guint64 i = 0; i < gc->allocs_before; i++)
        {
          const TmFrame *f = site_frame (t, t->obj_site[i], 0);
          if (t->obj_type[i] == bytes_type && f != NULL && f->line == put_line
              && g_str_has_prefix (f->method, "CacheChurn.main") && tm_trace_object_alive_after (t, i, n))
            values++;
        }
      entry_floor = MIN (values, CACHE_ENTRIES) * (CACHE_PAYLOAD + 16);
      concurrent_graphs += gc->kind == TM_GC_KIND_CONCURRENT;
      if (gc->reachable_bytes < entry_floor)
        g_printerr ("GC %u (%s, %s): reachable %" G_GUINT64_FORMAT " bytes\n", n, gc->collector, gc->cause,
                    gc->reachable_bytes);
      g_assert_cmpuint (gc->reachable_bytes, >=, entry_floor);
      g_assert_cmpint (gc->graph_context, ==, n == tm_trace_n_gcs (t) && strcmp (rr->collector, "-XX:+UseZGC") != 0
                       && strcmp (rr->collector, "-XX:+UseShenandoahGC") != 0 ? TM_GRAPH_POST_MORTEM : TM_GRAPH_AT_GC);
    }
  /* the default spacing: the final graph and at least one on the way */
  g_assert_cmpuint (graphs, >=, rr->agent_opts == NULL ? 2 : 1);
  /* which pauses get graphs depends on timing: the count of graphs at
   * concurrent-cycle pauses is reported, not asserted */
  if (g_test_verbose ())
    g_printerr ("%u graphs, %u at concurrent-cycle pauses\n", graphs, concurrent_graphs);

  /* stalls: the longest gap between two steps of the program's loop */
  gap_text = strstr (out, "maxgap_ms ");
  g_assert_nonnull (gap_text);
  g_assert_cmpuint (g_ascii_strtoull (gap_text + 10, NULL, 10), <=, 1000 + meta_u64 (t, "graph_walk_max_ms"));

  /* The LRU is found as the LinkedHashMap it extends: the map, its table
   * and 4000 entries with their keys and values */
  if (rr->agent_opts == NULL)
    {
      g_autofree char *trace = g_build_filename (dir, "run.tmtrace", NULL);
      g_autofree char *gc_arg = NULL, *json = NULL, *err = NULL;
      const char *at;
      guint last_graph = 0;

      for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
        if (tm_trace_gc (t, n)->has_graph)
          last_graph = n;
      gc_arg = g_strdup_printf ("%u", last_graph);
      {
        char *cli[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "heap", trace, (char *) "--gc", gc_arg,
                        (char *) "--data-structures", (char *) "--json", NULL };
        g_assert_cmpint (run (cli, &json, &err), ==, 0);
      }
      at = strstr (json, "{\"key\": \"CacheChurn$1\"");
      g_assert_nonnull (at);
      at = strstr (at, "\"deep_objects\": ");
      g_assert_nonnull (at);
      g_assert_cmpuint (g_ascii_strtoull (at + strlen ("\"deep_objects\": "), NULL, 10), ==, 2 + 3 * CACHE_ENTRIES);
    }

  lru = type_index (t, "CacheChurn$1");
  g_assert_cmpuint (lru, !=, 0);
  g_assert_cmpstr (tm_trace_type (t, tm_trace_type (t, lru)->super)->name, ==, "java.util.LinkedHashMap");
  g_assert_true (tm_trace_type_is_a (t, lru, type_index (t, "java.util.HashMap")));
  g_assert_true (tm_trace_type_is_a (t, lru, type_index (t, "java.util.Map")));
  remove_tree (dir);
}

/* Death by OutOfMemoryError: the event (kind, thread), a graph at the
 * error showing the full heap, and a post-mortem graph (main, which held
 * the leak, has died) marked as such. */
static void
test_oom (void)
{
  const char *args[] = { "-Xmx32m", "-XX:+UseSerialGC", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record_run (dir, "oom.tmtrace", NULL, args, "OomLeak", NULL, 1, NULL);
  const TmOomEvent *ev;
  const TmGc *at_oom = NULL, *last;

  g_assert_true (t->complete);
  g_assert_true (t->complete);
  g_assert_cmpuint (t->n_warnings_total, ==, 0);
  g_assert_cmpuint (tm_trace_n_oom_events (t), >=, 1);
  ev = tm_trace_oom_event (t, 0);
  g_assert_cmpint (ev->kind, ==, TM_OOM_JAVA_HEAP);
  g_assert_cmpuint (ev->gc_before, >=, 1);
  g_assert_cmpuint (ev->gc_before, <=, tm_trace_n_gcs (t));
  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    if (tm_trace_gc (t, n)->has_graph && tm_trace_gc (t, n)->graph_context == TM_GRAPH_AT_OOM)
      at_oom = tm_trace_gc (t, n);
  g_assert_nonnull (at_oom);
  /* the last GC before the error, or one another thread caused while
   * the throwing thread waited for the walk (the heap walked is its) */
  g_assert_cmpuint (at_oom->id, >=, ev->gc_before);
  /* the leak fills the 32 MiB heap */
  g_assert_cmpuint (at_oom->reachable_bytes, >=, 20u << 20);
  last = tm_trace_gc (t, tm_trace_n_gcs (t));
  g_assert_true (last->has_graph);
  g_assert_cmpint (last->graph_context, ==, TM_GRAPH_POST_MORTEM);
  g_assert_cmpuint (last->reachable_bytes, <, 8u << 20);
  remove_tree (dir);
}

/* A heap still full when main has died of the error: the process exits
 * without VMDeath (DestroyJavaVM cannot attach its thread, which needs a
 * Thread object).  The trace must still hold the error and end with its
 * END record (before, it had neither: the events were queued, never
 * written, and the file stopped a second before the exit). */
static void
test_oom_full_at_exit (void)
{
  const char *args[] = { "-Xmx32m", "-XX:+UseG1GC", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record_run (dir, "oom.tmtrace", NULL, args, "OomStatic", NULL, 1, NULL);
  const TmOomEvent *ev;

  g_assert_true (t->complete);
  g_assert_cmpuint (t->n_warnings_total, ==, 0);
  g_assert_cmpuint (tm_trace_n_oom_events (t), >=, 1);
  ev = tm_trace_oom_event (t, 0);
  g_assert_cmpint (ev->kind, ==, TM_OOM_JAVA_HEAP);
  g_assert_cmpuint (ev->gc_before, >=, 1);
  g_assert_cmpuint (ev->gc_before, <=, tm_trace_n_gcs (t));
  remove_tree (dir);
}

/* -XX:+ExitOnOutOfMemoryError: the JVM calls exit() from the throwing
 * thread, inside the VM, so no safepoint completes after it and any call
 * into the JVM blocks.  The trace must still end with its END record,
 * written without such calls (before, the exit waited 15 s for the agent
 * thread, blocked in a JNI call, and the file stopped a second before the
 * exit).  The JVM exits before it posts the error: no OOM event. */
static void
test_oom_exit_on_oom (void)
{
  const char *args[] = { "-Xmx32m", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record_run (dir, "oom.tmtrace", NULL, args, "OomStatic", NULL, 3, NULL);

  g_assert_true (t->complete);
  g_assert_cmpuint (t->n_warnings_total, ==, 0);
  g_assert_cmpstr (g_hash_table_lookup (t->meta, "jvm.ExitOnOutOfMemoryError"), ==, "true");
  g_assert_cmpuint (tm_trace_n_gcs (t), >=, 1);
  remove_tree (dir);
}

/* The OutOfMemoryErrors outside the Java heap are recorded with their
 * kind, and `tidemark-cli info` names it; no graph is taken for them (the
 * throwing thread may hold VM locks a heap walk needs). */
typedef struct {
  const char *main_class;
  const char *main_arg;
  const char *shell_prefix;
  const char *jvm_arg;
  TmOomKind   kind;
  const char *info_text;
} OomRun;

static void
test_oom_kind (gconstpointer data)
{
  const OomRun *r = data;
  const char *args[] = { "-Xmx32m", "-XX:+UseSerialGC", r->jvm_arg, NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record_run_in (r->shell_prefix, dir, "oom.tmtrace", NULL, args, r->main_class, r->main_arg,
                                        1, NULL);
  g_autofree char *trace = g_build_filename (dir, "oom.tmtrace", NULL);
  g_autofree char *info = NULL, *err = NULL;
  char *cli[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "info", trace, NULL };
  const TmOomEvent *ev;

  assert_clean (t);
  g_assert_true (t->complete);
  g_assert_cmpuint (tm_trace_n_oom_events (t), >=, 1);
  ev = tm_trace_oom_event (t, 0);
  g_assert_cmpint (ev->kind, ==, r->kind);
  g_assert_cmpstr (tm_trace_thread (t, ev->thread)->name, ==, "main");
  g_assert_cmpuint (ev->gc_before, <=, tm_trace_n_gcs (t));
  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    g_assert_cmpint (tm_trace_gc (t, n)->graph_context, !=, TM_GRAPH_AT_OOM);
  g_assert_cmpint (run (cli, &info, &err), ==, 0);
  g_assert_nonnull (strstr (info, r->info_text));
  remove_tree (dir);
}

/* The default spacing gives a run of about ten seconds (on an idle
 * machine) at least 8 graphs, and one at each whole-heap collection.  GraphRun does a fixed amount of work, so a
 * loaded machine stretches its run and its walks alike; the budget also
 * counts in CPU time, which waiting for a core does not stretch. */
static void
test_graph_count (void)
{
  const char *args[] = { "-XX:+UseSerialGC", "-Xmn8m", "-Xmx64m", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record_run (dir, "graphs.tmtrace", NULL, args, "GraphRun", "200", 0, NULL);
  guint graphs = 0;

  assert_clean (t);
  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    {
      const TmGc *gc = tm_trace_gc (t, n);
      g_assert_false (gc->graph_failed);
      /* whole-heap collections get one whatever the spacing (the
       * System.gc() half way, the final one) */
      if (gc->kind == TM_GC_KIND_MAJOR)
        g_assert_true (gc->has_graph);
      if (gc->has_graph)
        {
          graphs++;
          /* the live ring of 5000 int[64] (272 bytes each) */
          g_assert_cmpuint (gc->reachable_bytes, >=, 5000u * 272);
        }
    }
  g_test_message ("%u graphs in %u GCs, %.1f s; walks %" G_GUINT64_FORMAT " ms wall, %" G_GUINT64_FORMAT
                  " ms CPU of %" G_GUINT64_FORMAT " ms", graphs, tm_trace_n_gcs (t), t->duration_ns / 1e9,
                  meta_u64 (t, "graph_walk_total_ms"), meta_u64 (t, "graph_walk_cpu_ms"), meta_u64 (t, "process_cpu_ms"));
  g_assert_cmpuint (graphs, >=, 8);
  /* and the final one, after the program ended */
  g_assert_true (tm_trace_gc (t, tm_trace_n_gcs (t))->has_graph);
  g_assert_cmpint (tm_trace_gc (t, tm_trace_n_gcs (t))->graph_context, ==, TM_GRAPH_POST_MORTEM);
  remove_tree (dir);
}

/* A program that barely collects on its own (a large heap, 1 KiB kept
 * every 10 ms and no garbage) still gets a graph at least every ~1.5 s over 12 s:
 * the agent forces the GCs (META idle_gcs), and the graphs show the leak. */
static void
test_graph_count_quiet (void)
{
  const char *args[] = { "-XX:+UseG1GC", "-Xms256m", "-Xmx256m", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) t = record_run (dir, "quiet.tmtrace", NULL, args, "QuietLeak", "12", 0, NULL);
  guint graphs = 0;
  guint64 first = 0, last = 0;

  assert_clean (t);
  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    {
      const TmGc *gc = tm_trace_gc (t, n);
      g_assert_false (gc->graph_failed);
      if (!gc->has_graph || gc->graph_context == TM_GRAPH_POST_MORTEM)
        continue;
      graphs++;
      if (first == 0)
        first = gc->reachable_bytes;
      /* what is kept stays kept */
      g_assert_cmpuint (gc->reachable_bytes, >=, last);
      last = gc->reachable_bytes;
    }
  g_test_message ("%u graphs in %u GCs (%" G_GUINT64_FORMAT " forced), %.1f s; reachable %" G_GUINT64_FORMAT
                  " -> %" G_GUINT64_FORMAT, graphs, tm_trace_n_gcs (t), meta_u64 (t, "idle_gcs"),
                  t->duration_ns / 1e9, first, last);
  g_assert_cmpuint (meta_u64 (t, "idle_gcs"), >=, 5);
  g_assert_cmpuint (graphs, >=, 8);
  /* about 1200 arrays of 1040 bytes kept in 12 s; at least half of that
   * between the first graph and the last one taken while it ran */
  g_assert_cmpuint (last - first, >=, 500u * 1040);
  remove_tree (dir);
}

/* The JVM's GC flags in META, as the JVM reports them (set, ergonomic or
 * default), and the advice's tenuring threshold taken from them. */
static void
test_jvm_flags (void)
{
  const char *serial[] = { "-XX:+UseSerialGC", "-XX:MaxTenuringThreshold=3", "-XX:SurvivorRatio=6",
                           "-Xmx64m", "-Xms32m", NULL };
  const char *g1[] = { "-XX:+UseG1GC", "-XX:G1HeapRegionSize=2m", "-Xmx64m", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(TmTrace) s = record (dir, "serial.tmtrace", "sample-bytes=65536", serial, "AllocCount");
  g_autoptr(TmTrace) g = record (dir, "g1.tmtrace", "sample-bytes=65536", g1, "AllocCount");
  g_autofree char *path = g_build_filename (dir, "serial.tmtrace", NULL);
  char *argv[] = { (char *) g_getenv ("TIDEMARK_CLI"), (char *) "info", (char *) "--json", path, NULL };
  g_autofree char *out = NULL, *err = NULL;
  const char *user;

  assert_clean (s);
  g_assert_cmpstr (g_hash_table_lookup (s->meta, "jvm.collector"), ==, "Serial");
  g_assert_cmpuint (meta_u64 (s, "jvm.MaxTenuringThreshold"), ==, 3);
  g_assert_cmpuint (meta_u64 (s, "jvm.SurvivorRatio"), ==, 6);
  g_assert_cmpuint (meta_u64 (s, "jvm.MaxHeapSize"), ==, 64u << 20);
  g_assert_cmpuint (meta_u64 (s, "jvm.InitialHeapSize"), ==, 32u << 20);
  g_assert_cmpuint (meta_u64 (s, "jvm.TargetSurvivorRatio"), ==, 50);
  /* Serial's young generation is sized by the JVM: within the heap */
  g_assert_cmpuint (meta_u64 (s, "jvm.MaxNewSize"), >, 0);
  g_assert_cmpuint (meta_u64 (s, "jvm.MaxNewSize"), <, 64u << 20);
  g_assert_null (g_hash_table_lookup (s->meta, "jvm.G1HeapRegionSize"));
  user = g_hash_table_lookup (s->meta, "jvm.user_flags");
  g_assert_nonnull (user);
  g_assert_nonnull (strstr (user, "MaxTenuringThreshold"));
  g_assert_nonnull (strstr (user, "SurvivorRatio"));
  g_assert_null (strstr (user, "NewRatio"));
  /* the advice promotes at the recorded threshold, not the default 15 */
  g_assert_cmpuint (tm_trace_tenuring_threshold (s), ==, 3);
  g_assert_cmpint (run (argv, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\"jvm.MaxTenuringThreshold\": \"3\""));
  g_assert_nonnull (strstr (out, "\"jvm.collector\": \"Serial\""));

  assert_clean (g);
  g_assert_cmpstr (g_hash_table_lookup (g->meta, "jvm.collector"), ==, "G1");
  g_assert_cmpuint (meta_u64 (g, "jvm.G1HeapRegionSize"), ==, 2u << 20);
  g_assert_cmpuint (meta_u64 (g, "jvm.MaxTenuringThreshold"), ==, 15);
  g_assert_cmpuint (meta_u64 (g, "jvm.MaxHeapSize"), ==, 64u << 20);
  g_assert_cmpuint (tm_trace_tenuring_threshold (g), ==, 15);
  remove_tree (dir);
}

/* Thousands of short-lived threads: every marker recorded with its thread
 * (each thread defined once, with its name), while the agent releases
 * what it keeps per thread once the thread ended. */
static void
test_short_threads (void)
{
  const char *args[] = { "-XX:-DoEscapeAnalysis", "-XX:+UseSerialGC", "-Xmx64m", NULL };
  g_autofree char *dir = make_tmpdir ();
  /* with the container hooks, which run on the program's threads too */
  g_autoptr(TmTrace) t = record (dir, "threads.tmtrace", "graph-every=0,containers=1", args, "ShortThreads");
  g_autofree guint *per_thread = NULL;
  guint32 ti = type_index (t, "ShortThreadsMarker");
  guint n_short = 0;
  gint line = source_line ("ShortThreads.java", "SITE-SHORT");
  TypeStats m;

  assert_clean (t);
  m = type_stats (t, "ShortThreadsMarker", "ShortThreads.lambda$main$", line, NULL);
  g_assert_cmpuint (m.count, ==, SHORT_THREADS * SHORT_PER);
  g_assert_cmpuint (m.at_site, ==, SHORT_THREADS * SHORT_PER);

  /* each short-N thread once, with exactly its own markers */
  per_thread = g_new0 (guint, t->threads->len);
  for (guint64 i = 0; i < t->n_objects; i++)
    if (t->obj_type[i] == ti)
      per_thread[t->obj_thread[i]]++;
  for (guint e = 0; e < t->short_lived->len; e++)
    {
      const TmShortLived *sl = &g_array_index (t->short_lived, TmShortLived, e);
      if (sl->type == ti)
        per_thread[sl->thread] += sl->count;
    }
  for (guint i = 1; i < t->threads->len; i++)
    if (g_str_has_prefix (tm_trace_thread (t, i)->name, "short-"))
      {
        n_short++;
        g_assert_cmpuint (per_thread[i], ==, SHORT_PER);
      }
    else
      g_assert_cmpuint (per_thread[i], ==, 0);
  g_assert_cmpuint (n_short, ==, SHORT_THREADS);

  /* what the agent held per thread was released as threads ended: at
   * most a few waves' worth at once, not one per thread ever seen */
  g_test_message ("thread states held at most: %" G_GUINT64_FORMAT, meta_u64 (t, "thread_states_peak"));
  g_assert_cmpuint (meta_u64 (t, "thread_states_peak"), <, SHORT_THREADS / 2);
  /* and no thread got a state after its ThreadEnd (which nothing would
   * release) but the one that runs VMDeath */
  g_assert_cmpuint (meta_u64 (t, "thread_states_after_end"), <=, 1);
  remove_tree (dir);
}

/* A pause as -Xlog:gc,safepoint shows it. */
typedef struct {
  TmGcKind kind;
  char    *cause;        /* NULL for Remark and Cleanup (none logged) */
  guint64  before_mib, after_mib;
  gboolean several;      /* a young collection and a full one */
} LogPause;

static void
log_pause_clear (gpointer p)
{
  g_free (((LogPause *) p)->cause);
}

/* The pauses of a -Xlog:gc,safepoint log, in order.  The GC lines of one
 * safepoint come before its "Safepoint" line.  Under Serial and Parallel a
 * full collection right after a young one in the same safepoint is the
 * same pause (one JVMTI GarbageCollectionStart/Finish pair); under G1 the
 * young pause and the full collection after it are two pairs. */
static GArray *
log_pauses (const char *path, gboolean young_then_full_is_one)
{
  g_autoptr(GRegex) gc_re = g_regex_new ("GC\\(\\d+\\) Pause (Young|Full|Remark|Cleanup)((?: \\((?:[^()]|\\(\\))*\\))*)"
                                         " (\\d+)M->(\\d+)M", 0, 0, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *pauses = g_array_new (FALSE, TRUE, sizeof (LogPause));
  gboolean young_open = FALSE;   /* the last pause of this safepoint is a young one */

  g_array_set_clear_func (pauses, log_pause_clear);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *what = NULL, *parens = NULL, *before = NULL, *after = NULL;
      const char *cause;

      if (strstr (lines[i], "[safepoint") != NULL && strstr (lines[i], "Safepoint \"") != NULL)
        {
          young_open = FALSE;
          continue;
        }
      if (!g_regex_match (gc_re, lines[i], 0, &m))
        continue;
      what = g_match_info_fetch (m, 1);
      parens = g_match_info_fetch (m, 2);
      before = g_match_info_fetch (m, 3);
      after = g_match_info_fetch (m, 4);
      /* the cause is the last parenthesis: "Pause Young (Mixed) (G1 Evacuation Pause)",
       * "Pause Full (System.gc())" */
      cause = g_str_has_suffix (parens, "())") ? g_strrstr_len (parens, strlen (parens) - 3, "(")
                                                 : strrchr (parens, '(');
      if (young_then_full_is_one && young_open && strcmp (what, "Full") == 0)
        {
          LogPause *p = &g_array_index (pauses, LogPause, pauses->len - 1);
          p->kind = TM_GC_KIND_MAJOR;
          p->after_mib = g_ascii_strtoull (after, NULL, 10);
          p->several = TRUE;
          young_open = FALSE;
          continue;
        }
      {
        LogPause p = { strcmp (what, "Young") == 0 ? TM_GC_KIND_MINOR
                       : strcmp (what, "Full") == 0 ? TM_GC_KIND_MAJOR : TM_GC_KIND_CONCURRENT,
                       cause ? g_strndup (cause + 1, strlen (cause) - 2) : NULL,
                       g_ascii_strtoull (before, NULL, 10), g_ascii_strtoull (after, NULL, 10), FALSE };
        g_array_append_val (pauses, p);
        young_open = p.kind == TM_GC_KIND_MINOR;
      }
    }
  return pauses;
}

typedef struct {
  const char *collector;
  const char *props[3];     /* Escalate's settings (-D) */
  gboolean    young_then_full_is_one;
  guint       min_several;   /* pauses of a young and a full collection */
  guint       min_full;
  guint       min_concurrent;
  gboolean    no_perf_data;  /* -XX:-UsePerfData: the MXBeans' counts alone */
} GcKindsRun;

/* Every GC in the trace is the pause -Xlog:gc shows at the same place in
 * the same run: the same kind (a pause that held a young and a full
 * collection is a major GC), the same cause and the heap's occupancy
 * before and after it; the full collections are as many. */
static void
test_gc_kinds (gconstpointer data)
{
  const GcKindsRun *run_ = data;
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *log = g_build_filename (dir, "gc.log", NULL);
  g_autofree char *log_arg = g_strdup_printf ("-Xlog:gc,safepoint:file=%s", log);
  const char *args[] = { "-Xmx20m", "-Xmn6m", run_->no_perf_data ? "-XX:-UsePerfData" : "-XX:+UsePerfData",
                         run_->collector, log_arg, run_->props[0], run_->props[1], NULL };
  g_autoptr(TmTrace) t = record_run (dir, "kinds.tmtrace", NULL, args, "Escalate", "40", 0, NULL);
  g_autoptr(GArray) pauses = log_pauses (log, run_->young_then_full_is_one);
  guint skip = 0, several = 0, log_full = 0, log_concurrent = 0, trace_major = 0;

  assert_clean (t);
  /* the agent's own GC at VMInit, before the trace starts */
  g_assert_cmpuint (pauses->len, >, 0);
  if (g_strcmp0 (g_array_index (pauses, LogPause, 0).cause, "JvmtiEnv ForceGarbageCollection") == 0)
    skip = 1;
  for (guint k = skip; k < pauses->len; k++)
    {
      const LogPause *p = &g_array_index (pauses, LogPause, k);
      log_full += p->kind == TM_GC_KIND_MAJOR;
      log_concurrent += p->kind == TM_GC_KIND_CONCURRENT;
      several += p->several;
    }
  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    trace_major += tm_trace_gc (t, n)->kind == TM_GC_KIND_MAJOR;
  g_test_message ("%s: %u pauses in the log (%u major, %u of a young and a full collection), %u GCs in the trace"
                  " (%u major)", run_->collector, pauses->len - skip, log_full, several, tm_trace_n_gcs (t),
                  trace_major);
  /* the run is one that tests something */
  g_assert_cmpuint (several, >=, run_->min_several);
  g_assert_cmpuint (log_full, >=, run_->min_full);
  g_assert_cmpuint (log_concurrent, >=, run_->min_concurrent);
  g_assert_cmpuint (log_full, <, pauses->len - skip);

  g_assert_cmpuint (tm_trace_n_gcs (t), ==, pauses->len - skip);
  if (run_->no_perf_data)
    {
      /* said so, and the pauses still are all there */
      g_assert_cmpstr (g_hash_table_lookup (t->meta, "gc_matching"), ==,
                       "collection counts (no perf data, -XX:-UsePerfData)");
      remove_tree (dir);
      return;
    }
  g_assert_cmpuint (trace_major, ==, log_full);
  for (guint n = 1; n <= tm_trace_n_gcs (t); n++)
    {
      const TmGc *gc = tm_trace_gc (t, n);
      const LogPause *p = &g_array_index (pauses, LogPause, n - 1 + skip);
      TmGcKind kind = gc->kind == TM_GC_KIND_MIXED ? TM_GC_KIND_MINOR : gc->kind;

      if (kind != p->kind || (p->cause != NULL && strcmp (gc->cause, p->cause) != 0))
        g_printerr ("GC %u: trace %s %s (%s), log %s (%s)\n", n, tm_gc_kind_to_string (gc->kind),
                    gc->collector, gc->cause, tm_gc_kind_to_string (p->kind), p->cause ? p->cause : "-");
      g_assert_cmpint (kind, ==, p->kind);
      if (p->cause != NULL)
        g_assert_cmpstr (gc->cause, ==, p->cause);
      /* Remark and Cleanup have no collection whose MXBean notification
       * carries the usage: the trace has the pools' usage when written */
      if (p->kind == TM_GC_KIND_CONCURRENT)
        continue;
      /* the log rounds down to MiB */
      g_assert_cmpuint (gc->used_before >> 20, <=, p->before_mib + 1);
      g_assert_cmpuint (gc->used_before >> 20, >=, p->before_mib - MIN (p->before_mib, 1));
      g_assert_cmpuint (gc->used_after >> 20, <=, p->after_mib + 1);
      g_assert_cmpuint (gc->used_after >> 20, >=, p->after_mib - MIN (p->after_mib, 1));
    }
  g_assert_cmpstr (g_hash_table_lookup (t->meta, "gc_matching"), ==, "perf counters");
  remove_tree (dir);
}

/* Phases.java: a real JVM with a planted shape of reachable memory; the
 * suspicious windows must name it (docs/windows.md, "Real runs"). */
static void
test_phases (gconstpointer data)
{
  const char *mode = data;
  g_autofree char *prop = g_strdup_printf ("-Dphases.mode=%s", mode);
  const char *args[] = { "-XX:+UseSerialGC", "-Xmn4m", "-Xmx128m", prop, NULL };
  g_autofree char *dir = make_tmpdir ();
  /* a graph every 2 GCs: enough points for a verdict even when a loaded
   * machine makes the run short of GCs */
  g_autoptr(TmTrace) t = record (dir, "phases.tmtrace", "graph-every=2", args, "Phases");
  g_autoptr(GPtrArray) ws = tm_windows_detect (t, NULL, TRUE);
  const TmWindow *leak = NULL;
  guint n = tm_trace_n_gcs (t);

  assert_clean (t);
  for (guint i = 0; i < ws->len; i++)
    {
      const TmWindow *w = ws->pdata[i];

      g_test_message ("%s: %s GCs %u-%u %s: %s", mode, tm_window_kind_to_string (w->kind), w->first_gc,
                      w->last_gc, w->growth ? w->growth : "-", w->explanation);
      if (w->kind == TM_WINDOW_LEAK)
        leak = w;
    }
  g_assert_nonnull (leak);
  g_assert_cmpstr (leak->series, ==, "reachable");
  if (g_str_equal (mode, "plateau"))
    {
      /* the LRU cache is full after 30% of the ticks: warm-up, no leak
       * kind suspicious; the plateau starts near 30% of the GCs */
      g_assert_cmpstr (leak->growth, ==, "warm-up");
      g_assert_cmpfloat (leak->plateau_gc, >=, 0.15 * n);
      g_assert_cmpfloat (leak->plateau_gc, <=, 0.45 * n);
      for (guint i = 0; i < ws->len; i++)
        if (((TmWindow *) ws->pdata[i])->series)
          g_assert_false (((TmWindow *) ws->pdata[i])->suspicious);
    }
  else
    {
      /* the list (old listeners accumulate) or the queue (young jobs in
       * growing numbers) grows from 20% of the ticks to the end */
      g_assert_true (leak->suspicious);
      g_assert_cmpstr (leak->growth, ==, g_str_equal (mode, "leak") ? "leak" : "backlog");
      g_assert_cmpfloat (leak->first_gc, <=, 0.35 * n);
      g_assert_cmpfloat (leak->last_gc, >=, n - 6);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("TM_JAVA_HOME") == NULL || g_getenv ("TM_AGENT") == NULL || g_getenv ("TM_AGENT_CLASSES") == NULL)
    {
      g_test_skip ("TM_JAVA_HOME, TM_AGENT and TM_AGENT_CLASSES are not set (run through meson test)");
      return 0;
    }
  g_test_add_data_func ("/agent/exact-counts/g1", "-XX:+UseG1GC", test_exact_counts);
  g_test_add_data_func ("/agent/exact-counts/serial", "-XX:+UseSerialGC", test_exact_counts);
  g_test_add_data_func ("/agent/exact-counts/parallel", "-XX:+UseParallelGC", test_exact_counts);
  g_test_add_data_func ("/agent/concurrent/zgc", "-XX:+UseZGC", test_concurrent);
  g_test_add_data_func ("/agent/concurrent/shenandoah", "-XX:+UseShenandoahGC", test_concurrent);
  g_test_add_func ("/agent/sampled", test_sampled);
  g_test_add_func ("/agent/leak-graphs", test_leak_graphs);
  g_test_add_func ("/agent/sigkill", test_sigkill);
  g_test_add_func ("/agent/javac", test_javac);
  {
    static const RealRun runs[] = {
      { "-XX:+UseG1GC", "graph-every=1",
        { "-XX:InitiatingHeapOccupancyPercent=5", "-XX:+ExplicitGCInvokesConcurrent" } },
      { "-XX:+UseG1GC", NULL, { NULL, NULL } },
      { "-XX:+UseParallelGC", "graph-every=1", { NULL, NULL } },
      { "-XX:+UseSerialGC", "graph-every=1", { NULL, NULL } },
      { "-XX:+UseZGC", "graph-every=1", { "-XX:ZCollectionInterval=0.3", NULL } },
      { "-XX:+UseShenandoahGC", "graph-every=1", { "-XX:ShenandoahGCHeuristics=compact", NULL } },
    };
    static const char *names[] = { "g1-concurrent", "g1", "parallel", "serial", "zgc", "shenandoah" };
    for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
      {
        g_autofree char *path = g_strdup_printf ("/agent/real-run/%s", names[i]);
        g_test_add_data_func (path, &runs[i], test_real_run);
      }
  }
  g_test_add_func ("/agent/oom", test_oom);
  g_test_add_func ("/agent/oom-full-at-exit", test_oom_full_at_exit);
  g_test_add_func ("/agent/oom-exit-on-oom", test_oom_exit_on_oom);
  {
    static const OomRun metaspace = { "MetaspaceOom", NULL, NULL, "-XX:MaxMetaspaceSize=16m", TM_OOM_METASPACE,
                                      "OutOfMemoryError: metaspace" };
    /* thread stacks of 256 MiB in 3 GB of address space: creating a
     * thread fails after a few (the limit does not apply to root's
     * process count, the address space limit does) */
    static const OomRun threads = { "ThreadOom", "256", "ulimit -v 3000000", "-XX:CompressedClassSpaceSize=64m",
                                    TM_OOM_THREADS, "OutOfMemoryError: native threads" };
    g_test_add_data_func ("/agent/oom-metaspace", &metaspace, test_oom_kind);
    g_test_add_data_func ("/agent/oom-threads", &threads, test_oom_kind);
  }
  g_test_add_func ("/agent/graph-count", test_graph_count);
  g_test_add_func ("/agent/quiet-graphs", test_graph_count_quiet);
  {
    /* Serial: young collections that find the old generation too full
     * go on to a full one; Parallel: System.gc() every 4 rounds is a
     * young and a full collection while the old generation has room;
     * G1: young pauses among concurrent-cycle pauses (Remark, Cleanup),
     * full collections after young pauses that ran out of room and at
     * System.gc() */
    static const GcKindsRun serial = { "-XX:+UseSerialGC", { NULL }, TRUE, 5, 5, 0 };
    static const GcKindsRun parallel = { "-XX:+UseParallelGC", { "-Descalate.gcEvery=4", "-Descalate.ringKib=8192" },
                                         TRUE, 5, 5, 0 };
    static const GcKindsRun g1 = { "-XX:+UseG1GC", { "-Descalate.gcEvery=10" }, FALSE, 0, 4, 2 };
    g_test_add_data_func ("/agent/gc-kinds/serial", &serial, test_gc_kinds);
    g_test_add_data_func ("/agent/gc-kinds/parallel", &parallel, test_gc_kinds);
    static const GcKindsRun no_perf = { "-XX:+UseSerialGC", { NULL }, TRUE, 5, 5, 0, TRUE };
    g_test_add_data_func ("/agent/gc-kinds/g1", &g1, test_gc_kinds);
    g_test_add_data_func ("/agent/gc-kinds/no-perf-data", &no_perf, test_gc_kinds);
  }
  g_test_add_func ("/agent/jvm-flags", test_jvm_flags);
  g_test_add_func ("/agent/short-threads", test_short_threads);
  g_test_add_func ("/agent/options", test_options);
  g_test_add_func ("/agent/transactions", test_transactions);
  g_test_add_data_func ("/agent/phases/plateau", "plateau", test_phases);
  g_test_add_data_func ("/agent/phases/leak", "leak", test_phases);
  g_test_add_data_func ("/agent/phases/backlog", "backlog", test_phases);
  return g_test_run ();
}
