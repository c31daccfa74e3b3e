/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GC log import speed against reading the file, side by side in one run:
 * a large unified-logging G1 log (jdk17-g1.log of the test corpus
 * repeated with its time stamps and GC ids moved on, so that it is one
 * continuous run) is read by `cat` and imported by tm_gclog_import; the
 * same for its gzip file against `zcat`.  Best of R rounds, alternating;
 * GC and phase counts are cross-checked against the copies written.
 *
 *   bench-gclog [--mib N] [--rounds R] [--keep DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "tm-gclog.h"

static double
cpu_seconds (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static char *
load_average (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) parts = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return g_strdup ("?");
  parts = g_strsplit (text, " ", 4);
  return g_strdup_printf ("%s %s %s", parts[0], parts[1] ? parts[1] : "", parts[1] && parts[2] ? parts[2] : "");
}

/* "[0.017s]..." -> uptime in ms and where the rest starts; FALSE if the line has none */
static gboolean
uptime_ms (const char *line, guint64 *ms, const char **rest)
{
  char *end;
  double s;

  if (line[0] != '[')
    return FALSE;
  s = g_ascii_strtod (line + 1, &end);
  if (end == line + 1 || strncmp (end, "s]", 2) != 0)
    return FALSE;
  *ms = (guint64) (s * 1000 + 0.5);
  *rest = end + 2;
  return TRUE;
}

/* Writes the header lines once, then the GC lines `copies` times with the
 * time and the GC ids moved on, then the exit summary. */
static guint
write_log (const char *src, const char *out_path, guint64 target_bytes, guint *n_gc_ids, guint64 *n_lines)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GString *head = g_string_new (NULL), *tail = g_string_new (NULL);
  GPtrArray *body = g_ptr_array_new ();
  FILE *f;
  guint64 last_ms = 0, body_bytes = 0, written = 0;
  guint max_id = 0, copies = 0;

  if (!g_file_get_contents (src, &text, NULL, NULL))
    g_error ("cannot read %s", src);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *gc = strstr (lines[i], "GC(");
      guint64 ms;
      const char *rest;

      if (lines[i][0] == '\0')
        continue;
      if (strstr (lines[i], "[gc,heap,exit") != NULL)
        g_string_append_printf (tail, "%s\n", lines[i]);
      else if (gc == NULL && body->len == 0)
        g_string_append_printf (head, "%s\n", lines[i]);
      else
        {
          g_ptr_array_add (body, lines[i]);
          body_bytes += strlen (lines[i]) + 1;
          if (uptime_ms (lines[i], &ms, &rest))
            last_ms = MAX (last_ms, ms);
          if (gc != NULL)
            max_id = MAX (max_id, (guint) atoi (gc + 3));
        }
    }
  f = fopen (out_path, "w");
  if (f == NULL)
    g_error ("cannot write %s", out_path);
  fputs (head->str, f);
  for (copies = 0; written < target_bytes; copies++)
    {
      guint64 shift_ms = (guint64) copies * (last_ms + 100);
      guint shift_id = copies * (max_id + 1);
      for (guint i = 0; i < body->len; i++)
        {
          const char *l = body->pdata[i], *rest, *gc;
          guint64 ms;
          if (!uptime_ms (l, &ms, &rest))
            {
              fprintf (f, "%s\n", l);
              continue;
            }
          gc = strstr (rest, "GC(");
          if (gc != NULL)
            {
              char *after;
              guint id = (guint) strtoul (gc + 3, &after, 10);
              fprintf (f, "[%.3fs]%.*sGC(%u%s\n", (ms + shift_ms) / 1000.0, (int) (gc - rest), rest, id + shift_id, after);
            }
          else
            fprintf (f, "[%.3fs]%s\n", (ms + shift_ms) / 1000.0, rest);
        }
      written += body_bytes;
      *n_lines += body->len;
    }
  fputs (tail->str, f);
  fclose (f);
  *n_gc_ids = max_id + 1;
  g_string_free (head, TRUE);
  g_string_free (tail, TRUE);
  g_ptr_array_unref (body);
  return copies;
}

static void
gzip_file (const char *in, const char *out)
{
  g_autofree char *cmd = g_strdup_printf ("gzip -1 -c '%s' > '%s'", in, out);
  if (system (cmd) != 0)
    g_error ("gzip failed");
}

static double
time_command (const char *cmd)
{
  gint64 t0 = g_get_monotonic_time ();
  if (system (cmd) != 0)
    g_error ("%s failed", cmd);
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
time_import (const char *path, guint *n_gcs, guint *n_phases, double *cpu)
{
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  double c0 = cpu_seconds ();
  TmTrace *t = tm_gclog_import (path, NULL, NULL, NULL, &error);
  double wall = (g_get_monotonic_time () - t0) / 1e6;

  *cpu = cpu_seconds () - c0;
  if (t == NULL)
    g_error ("%s: %s", path, error->message);
  *n_gcs = tm_trace_n_gcs (t);
  *n_phases = t->gc_phases->len;
  if (!t->complete)
    g_error ("%s: reported incomplete", path);
  tm_trace_unref (t);
  return wall;
}

int
main (int argc, char **argv)
{
  gint mib = 128, rounds = 3;
  g_autofree char *keep = NULL;
  GOptionEntry entries[] = {
    { "mib", 0, 0, G_OPTION_ARG_INT, &mib, "Size of the log to write (MiB, default 128)", "N" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "Rounds (best of; default 3)", "R" },
    { "keep", 0, 0, G_OPTION_ARG_FILENAME, &keep, "Write the logs here and keep them", "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- GC log import vs cat/zcat");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL, *plain = NULL, *gz = NULL, *src = NULL, *load0 = NULL, *load1 = NULL;
  g_autofree char *cat_cmd = NULL, *zcat_cmd = NULL;
  double best_cat = G_MAXDOUBLE, best_zcat = G_MAXDOUBLE, best_imp = G_MAXDOUBLE, best_gz = G_MAXDOUBLE;
  double cpu_imp = 0, cpu_gz = 0;
  guint copies, ids_per_copy, n_gcs = 0, n_phases = 0;
  guint64 n_lines = 0;
  GStatBuf st, stz;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  dir = keep ? g_strdup (keep) : g_dir_make_tmp ("bench-gclog-XXXXXX", NULL);
  plain = g_build_filename (dir, "big-g1.log", NULL);
  gz = g_build_filename (dir, "big-g1.log.gz", NULL);
  src = g_build_filename (TM_TEST_DATA, "gc-logs", "jdk17-g1.log", NULL);
  copies = write_log (src, plain, (guint64) mib << 20, &ids_per_copy, &n_lines);
  gzip_file (plain, gz);
  g_stat (plain, &st);
  g_stat (gz, &stz);
  cat_cmd = g_strdup_printf ("cat '%s' > /dev/null", plain);
  zcat_cmd = g_strdup_printf ("zcat '%s' > /dev/null", gz);

  load0 = load_average ();
  for (int r = 0; r < rounds; r++)
    {
      double cpu;
      best_cat = MIN (best_cat, time_command (cat_cmd));
      best_imp = MIN (best_imp, time_import (plain, &n_gcs, &n_phases, &cpu));
      cpu_imp = r == 0 ? cpu : MIN (cpu_imp, cpu);
      best_zcat = MIN (best_zcat, time_command (zcat_cmd));
      best_gz = MIN (best_gz, time_import (gz, &n_gcs, &n_phases, &cpu));
      cpu_gz = r == 0 ? cpu : MIN (cpu_gz, cpu);
    }
  load1 = load_average ();

  /* jdk17-g1.log: 156 GC ids, 196 pauses (GCs), 40 marking cycles of 8 phases each */
  if (n_gcs != copies * 196 || n_phases != copies * 40 * 8)
    g_error ("cross-check: %u GCs and %u phases for %u copies", n_gcs, n_phases, copies);

  printf ("log: %u copies of jdk17-g1.log, %.1f MiB (gzip -1: %.1f MiB), %u GCs, %u concurrent phases and cycles\n",
          copies, st.st_size / 1048576.0, stz.st_size / 1048576.0, n_gcs, n_phases);
  printf ("load average before / after: %s / %s\n", load0, load1);
  printf ("%-28s %10s %10s %10s\n", "", "wall s", "MiB/s", "ratio");
  printf ("%-28s %10.3f %10.0f %10s\n", "cat FILE", best_cat, st.st_size / 1048576.0 / best_cat, "1");
  printf ("%-28s %10.3f %10.0f %10.1f   (cpu %.3f s)\n", "tm_gclog_import FILE", best_imp,
          st.st_size / 1048576.0 / best_imp, best_imp / best_cat, cpu_imp);
  printf ("%-28s %10.3f %10.0f %10s\n", "zcat FILE.gz", best_zcat, st.st_size / 1048576.0 / best_zcat, "1");
  printf ("%-28s %10.3f %10.0f %10.1f   (cpu %.3f s)\n", "tm_gclog_import FILE.gz", best_gz,
          st.st_size / 1048576.0 / best_gz, best_gz / best_zcat, cpu_gz);
  printf ("lines/s (import, plain): %.2f M of %.1f M lines\n", n_lines / best_imp / 1e6, n_lines / 1e6);
  if (keep == NULL)
    {
      g_unlink (plain);
      g_unlink (gz);
      g_rmdir (dir);
    }
  return 0;
}
