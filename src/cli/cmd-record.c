/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli record: runs a JVM launcher (java, javac, jshell, mvn...)
 * with the recording agent injected through JAVA_TOOL_OPTIONS, shows
 * progress from the status file the agent keeps, and says where the trace
 * went.  See docs/agent.md. */
#include "tm-config.h"
#include "cli-common.h"
#include "tm-install.h"
#include "cli-commands.h"

#include <glib/gstdio.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AGENT_NAME "libtidemark-agent.so"

static volatile sig_atomic_t forward_signal;

static void
on_signal (int sig)
{
  forward_signal = sig;
}

/* $TIDEMARK_AGENT, else the installed agent (tm-install.h). */
static char *
find_agent (void)
{
  char *path = tm_install_find ("TIDEMARK_AGENT", TM_INSTALL_LIBDIR, "tidemark/" AGENT_NAME);

  if (path != NULL && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&path, g_free);
  return path;
}

static gboolean
safe_for_options (const char *s)
{
  for (const char *p = s; *p; p++)
    if (*p == ',' || g_ascii_isspace (*p) || *p == '"' || *p == '\'')
      return FALSE;
  return TRUE;
}

/* Other JVMs the command started wrote NAME.PID.tmtrace (see the agent's
 * exclusive option). */
static void
report_other_jvms (const char *output, gint64 since)
{
  g_autofree char *dir = g_path_get_dirname (output);
  g_autofree char *base = g_path_get_basename (output);
  g_autofree char *stem = g_str_has_suffix (base, ".tmtrace")
                          ? g_strndup (base, strlen (base) - strlen (".tmtrace")) : g_strdup (base);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      const char *mid;
      GStatBuf sb;

      if (!g_str_has_prefix (name, stem) || name[strlen (stem)] != '.' || !g_str_has_suffix (name, ".tmtrace"))
        continue;
      mid = name + strlen (stem) + 1;
      if (!g_ascii_isdigit (*mid))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (g_stat (path, &sb) == 0 && (gint64) sb.st_mtime >= since)
        fprintf (stderr, "tidemark-cli record: another JVM of the command was recorded into %s\n", path);
    }
}

typedef struct {
  gint64  elapsed_ms;
  guint64 allocs;
  guint   gcs;
  guint64 bytes;
  guint64 dropped;
  gboolean valid;
} Status;

static Status
read_status (const char *path)
{
  Status s = { 0 };
  g_autofree char *text = NULL;

  if (g_file_get_contents (path, &text, NULL, NULL)
      && sscanf (text, "%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                 &s.elapsed_ms, &s.allocs, &s.gcs, &s.bytes, &s.dropped) == 5)
    s.valid = TRUE;
  return s;
}

static void
print_progress (const Status *s, gint64 elapsed_us, gboolean tty)
{
  g_autofree char *size = g_format_size (s->bytes);

  fprintf (stderr, "%s  %6.1f s  %" G_GUINT64_FORMAT " allocations  %u GCs  %s%s",
           tty ? "\r" : "", elapsed_us / 1e6, s->allocs, s->gcs, size, tty ? "   " : "\n");
  fflush (stderr);
}

int tm_cmd_record (int argc, char **argv);

int
tm_cmd_record (int argc, char **argv)
{
  g_autofree char *output = NULL;
  int graph_every = -1, stack_depth = -1;
  gint64 sample_bytes = 0;
  g_autofree char *transactions = NULL;
  gboolean containers = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default COMMAND-DATE-TIME.tmtrace)", "FILE" },
    { "graph-every", 0, 0, G_OPTION_ARG_INT, &graph_every, "A reference graph every N GCs (default 10; 0: only at the end)", "N" },
    { "sample-bytes", 0, 0, G_OPTION_ARG_INT64, &sample_bytes, "Record one allocation per about N bytes (default 0: every allocation; no graphs)", "N" },
    { "stack-depth", 0, 0, G_OPTION_ARG_INT, &stack_depth, "Frames per allocation site (default 2, at most 64; 0: no sites)", "N" },
    { "transaction", 0, 0, G_OPTION_ARG_STRING, &transactions,
      "Record runs of these methods as transactions, with the objects each run allocates", "CLASS.METHOD[,...]" },
    { "containers", 0, 0, G_OPTION_ARG_NONE, &containers,
      "Record add, get and remove on java.util collections (exact staleness for 'containers')", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[--] COMMAND [ARGS...] - record a JVM's memory behaviour");
  g_autoptr(GError) error = NULL;
  g_autofree char *agent = NULL;
  g_autofree char *tmpdir = NULL;
  g_autofree char *status_path = NULL;
  g_autofree char *abs_output = NULL;
  g_autofree char *tool_options = NULL;
  g_auto(GStrv) envp = NULL;
  GString *opts;
  GPid pid;
  int code = 0, wstatus = 0;
  gboolean tty = isatty (STDERR_FILENO);
  gint64 t0, last_print = 0, t_start;
  Status st;
  GStatBuf sb;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_strict_posix (ctx, TRUE);
  g_option_context_set_description (ctx,
    "Runs COMMAND (any JVM launcher: java, javac, jshell, mvn...) with the Tidemark\n"
    "agent injected through JAVA_TOOL_OPTIONS.  For exact allocation counts add\n"
    "-XX:-DoEscapeAnalysis to the JVM's options (see docs/agent.md).\n"
    "The agent is found through $TIDEMARK_AGENT or the installation.");
  if (!tm_cli_parse (ctx, "record", &argc, &argv, &code))
    return code;
  if (argc > 1 && strcmp (argv[1], "--") == 0)
    {
      argv++;
      argc--;
    }
  if (argc < 2)
    return tm_cli_usage_error ("record", "missing COMMAND to run (e.g. tidemark-cli record -- java -jar app.jar)");
  if (graph_every < -1 || stack_depth < -1 || stack_depth > 64 || sample_bytes < 0 || sample_bytes > G_MAXINT32)
    return tm_cli_usage_error ("record", "--graph-every, --sample-bytes (< 2^31) and --stack-depth (<= 64) take non-negative numbers");
  if (sample_bytes > 0 && graph_every > 0)
    return tm_cli_usage_error ("record", "--graph-every needs full recording; it cannot be combined with --sample-bytes");
  if (sample_bytes > 0 && containers)
    return tm_cli_usage_error ("record", "--containers needs full recording; it cannot be combined with --sample-bytes");

  if (transactions != NULL)
    {
      g_auto(GStrv) names = g_strsplit (transactions, ",", -1);
      for (guint i = 0; names[i] != NULL; i++)
        {
          const char *dot = strrchr (names[i], '.');
          if (dot == NULL || dot == names[i] || dot[1] == '\0' || !safe_for_options (names[i])
              || strchr (names[i], ';') != NULL)
            return tm_cli_usage_error ("record", "--transaction: '%s' is not CLASS.METHOD (e.g. com.shop.Cart.checkout)",
                                       names[i]);
        }
      /* the agent's options are comma-separated: methods go ';'-separated */
      g_strdelimit (transactions, ",", ';');
    }

  agent = find_agent ();
  if (agent == NULL)
    {
      g_autofree char *expected = tm_install_path (TM_INSTALL_LIBDIR, "tidemark/" AGENT_NAME);

      fprintf (stderr, "tidemark-cli record: cannot find the agent %s (set TIDEMARK_AGENT, or build with -Dagent=enabled "
               "and install)\n", g_getenv ("TIDEMARK_AGENT") ? g_getenv ("TIDEMARK_AGENT") : expected);
      return TM_EXIT_INPUT;
    }
  if (output == NULL)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *base = g_path_get_basename (argv[1]);
      g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
      output = g_strdup_printf ("%s-%s.tmtrace", base, stamp);
    }
  abs_output = g_canonicalize_filename (output, NULL);
  if (!safe_for_options (agent) || !safe_for_options (abs_output))
    return tm_cli_usage_error ("record", "the paths of the agent and the trace may not contain commas, quotes or spaces (%s)",
                               safe_for_options (agent) ? abs_output : agent);

  tmpdir = g_dir_make_tmp ("tidemark-record-XXXXXX", &error);
  if (tmpdir == NULL)
    {
      fprintf (stderr, "tidemark-cli record: %s\n", error->message);
      return TM_EXIT_INPUT;
    }
  status_path = g_build_filename (tmpdir, "status", NULL);

  opts = g_string_new (NULL);
  g_string_append_printf (opts, "-agentpath:%s=output=%s,status=%s,exclusive=1", agent, abs_output, status_path);
  if (graph_every >= 0)
    g_string_append_printf (opts, ",graph-every=%d", graph_every);
  if (sample_bytes > 0)
    g_string_append_printf (opts, ",sample-bytes=%" G_GINT64_FORMAT, sample_bytes);
  if (stack_depth >= 0)
    g_string_append_printf (opts, ",stack-depth=%d", stack_depth);
  if (transactions != NULL)
    g_string_append_printf (opts, ",transaction=%s", transactions);
  if (containers)
    g_string_append (opts, ",containers=1");
  if (g_getenv ("JAVA_TOOL_OPTIONS") != NULL && *g_getenv ("JAVA_TOOL_OPTIONS") != '\0')
    g_string_append_printf (opts, " %s", g_getenv ("JAVA_TOOL_OPTIONS"));
  tool_options = g_string_free (opts, FALSE);
  envp = g_environ_setenv (g_get_environ (), "JAVA_TOOL_OPTIONS", tool_options, TRUE);

  g_unlink (abs_output);
  t_start = (gint64) time (NULL) - 1;
  if (!g_spawn_async (NULL, argv + 1, envp, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD
                      | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, &pid, &error))
    {
      fprintf (stderr, "tidemark-cli record: cannot run %s: %s\n", argv[1], error->message);
      g_rmdir (tmpdir);
      return TM_EXIT_INPUT;
    }
  fprintf (stderr, "tidemark-cli record: recording %s into %s\n", argv[1], abs_output);

  /* Ctrl-C reaches the JVM too, which then writes a complete trace: wait
   * for it.  SIGTERM is passed on. */
  signal (SIGINT, SIG_IGN);
  signal (SIGTERM, on_signal);
  signal (SIGHUP, on_signal);
  t0 = g_get_monotonic_time ();
  for (;;)
    {
      pid_t r = waitpid (pid, &wstatus, WNOHANG);
      gint64 now = g_get_monotonic_time ();

      if (r == pid || (r < 0 && errno != EINTR))
        break;
      if (forward_signal != 0)
        {
          kill (pid, forward_signal);
          forward_signal = 0;
        }
      if (now - last_print >= (tty ? 500000 : 5000000))
        {
          st = read_status (status_path);
          if (st.valid)
            print_progress (&st, now - t0, tty);
          last_print = now;
        }
      g_usleep (100000);
    }
  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  signal (SIGHUP, SIG_DFL);

  st = read_status (status_path);
  g_unlink (status_path);
  g_rmdir (tmpdir);
  if (tty && last_print != 0)
    fputc ('\n', stderr);

  if (g_stat (abs_output, &sb) != 0 || sb.st_size == 0)
    {
      fprintf (stderr, "%s: no trace was written (did %s start a JVM that loaded the agent?)\n", abs_output, argv[1]);
      return TM_EXIT_INPUT;
    }
  if (WIFSIGNALED (wstatus))
    fprintf (stderr, "tidemark-cli record: %s was killed by signal %d; the trace may be cut short\n",
             argv[1], WTERMSIG (wstatus));
  else if (WIFEXITED (wstatus) && WEXITSTATUS (wstatus) != 0)
    fprintf (stderr, "tidemark-cli record: %s exited with status %d\n", argv[1], WEXITSTATUS (wstatus));
  {
    g_autofree char *size = g_format_size ((guint64) sb.st_size);
    fprintf (stderr, "tidemark-cli record: trace written to %s (%" G_GUINT64_FORMAT " allocations, %u GCs, %s%s)\n",
             abs_output, st.allocs, st.gcs, size,
             st.dropped ? ", some events dropped: the writer could not keep up" : "");
    if (st.dropped)
      fprintf (stderr, "tidemark-cli record: %" G_GUINT64_FORMAT " allocation events were dropped\n", st.dropped);
  }
  report_other_jvms (abs_output, t_start);
  printf ("%s\n", abs_output);
  return TM_EXIT_OK;
}
