/* SPDX-License-Identifier: GPL-3.0-or-later
 * One measured JVM run for `tune`; see tune-run.h. */
#include "tune-run.h"
#include "cli-common.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

void
tm_tune_run_clear (TmTuneRun *run)
{
  g_clear_pointer (&run->error, g_free);
  g_clear_object (&run->document);
  memset (run, 0, sizeof *run);
}

/* The last non-empty line of the program's output, for failure messages. */
static char *
last_line (const char *path)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, &len, NULL))
    return g_strdup ("");
  if (len > 4096)
    memmove (text, text + len - 4096, 4097);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = g_strv_length (lines); i-- > 0;)
    if (*g_strstrip (lines[i]) != '\0')
      return g_strdup (lines[i]);
  return g_strdup ("");
}

gboolean
tm_tune_run_jvm (char *const *argv, char *const *flags, const char *scratch_dir,
                 volatile sig_atomic_t *cancelled, TmTuneRun *run)
{
  g_autofree char *log = g_build_filename (scratch_dir, "gc.log", NULL);
  g_autofree char *out = g_build_filename (scratch_dir, "output.txt", NULL);
  g_autofree char *xlog = g_strdup_printf ("-Xlog:gc*:file=%s", log);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  struct rusage ru;
  int status = 0, fd;
  gint64 t0;
  pid_t pid;

  memset (run, 0, sizeof *run);
  g_ptr_array_add (args, argv[0]);
  for (guint i = 0; flags && flags[i]; i++)
    g_ptr_array_add (args, flags[i]);
  g_ptr_array_add (args, xlog);
  for (guint i = 1; argv[i]; i++)
    g_ptr_array_add (args, argv[i]);
  g_ptr_array_add (args, NULL);
  g_unlink (log);

  fd = open (out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      run->error = g_strdup_printf ("%s: %s", out, g_strerror (errno));
      return FALSE;
    }
  t0 = g_get_monotonic_time ();
  pid = fork ();
  if (pid == 0)
    {
      int in = open ("/dev/null", O_RDONLY);
      dup2 (in, 0);
      dup2 (fd, 1);
      dup2 (fd, 2);
      execvp (argv[0], (char **) args->pdata);
      dprintf (2, "cannot run %s: %s\n", argv[0], g_strerror (errno));
      _exit (127);
    }
  close (fd);
  if (pid < 0)
    {
      run->error = g_strdup_printf ("cannot start %s: %s", argv[0], g_strerror (errno));
      return FALSE;
    }
  for (;;)
    {
      pid_t r = wait4 (pid, &status, 0, &ru);
      if (r == pid)
        break;
      if (r < 0 && errno != EINTR)
        {
          run->error = g_strdup_printf ("waiting for %s: %s", argv[0], g_strerror (errno));
          return FALSE;
        }
      if (*cancelled)
        kill (pid, SIGTERM);   /* Ctrl-C reached it too; a SIGTERM from elsewhere did not */
    }
  run->wall_s = (double) (g_get_monotonic_time () - t0) / 1e6;
  run->peak_rss = (guint64) ru.ru_maxrss * 1024;

  if (*cancelled)
    run->error = g_strdup ("cancelled");
  else if (WIFSIGNALED (status))
    run->error = g_strdup_printf ("killed by signal %d", WTERMSIG (status));
  else if (WIFEXITED (status) && WEXITSTATUS (status) != 0)
    {
      g_autofree char *line = last_line (out);
      run->error = g_strdup_printf ("exit status %d: %s", WEXITSTATUS (status), line);
    }
  if (run->error)
    return FALSE;

  run->document = tm_document_load_files ((const char * const *) &log, 1, tm_cli_load_options (), NULL, NULL, NULL, &error);
  if (run->document == NULL)
    {
      run->error = g_strdup_printf ("GC log unreadable: %s", error->message);
      return FALSE;
    }
  run->trace = tm_document_get_trace (run->document);
  if (tm_trace_n_gcs (run->trace) == 0)
    {
      /* a run without a GC has nothing to compare; still a valid run */
      g_debug ("%s: no GCs", log);
    }
  run->ok = TRUE;
  return TRUE;
}

GPtrArray *
tm_tune_available_collectors (const char *java)
{
  static const char *const names[][2] = {
    { "Serial", "UseSerialGC" }, { "Parallel", "UseParallelGC" }, { "G1", "UseG1GC" },
    { "ZGC", "UseZGC" }, { "Shenandoah", "UseShenandoahGC" },
  };
  const char *argv[] = { java, "-XX:+PrintFlagsFinal", "-version", NULL };
  g_autofree char *out = NULL;
  GPtrArray *found = g_ptr_array_new ();
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     &out, NULL, &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    return found;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *needle = g_strdup_printf (" %s ", names[i][1]);
      if (strstr (out, needle) != NULL)
        g_ptr_array_add (found, (gpointer) names[i][0]);
    }
  return found;
}
