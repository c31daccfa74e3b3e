/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the inputs after the first (tm_cli_single_input), for tm_cli_load */
static GPtrArray *more_inputs;
static char *more_command;

/* Options of the loading commands, set while their arguments are parsed. */
static TmLoadOptions load_options;

static gboolean
parse_memory_limit (const char *name, const char *value, gpointer data, GError **error)
{
  g_autoptr(GError) local = NULL;

  if (!tm_parse_size (value, &load_options.memory_limit, &local))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s", name, local->message);
      return FALSE;
    }
  return TRUE;
}

/* --memory-limit on every command that reads an input: all but those
 * that write traces, so that a new command cannot forget it. */
static const char *const commands_without_input[] = { "record", "synth", NULL };

static void
add_load_options (GOptionContext *context)
{
  static const GOptionEntry entries[] = {
    { "memory-limit", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) parse_memory_limit,
      "Memory the loaded model may take (256M, 2G...; default: half of the physical memory); "
      "a larger input loads up to there, as partial", "SIZE" },
    { NULL }
  };
  g_option_context_add_main_entries (context, entries, NULL);
}

const TmLoadOptions *
tm_cli_load_options (void)
{
  return &load_options;
}

int
tm_cli_usage_error (const char *command, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  fprintf (stderr, "tidemark-cli %s: %s\nTry 'tidemark-cli %s --help'.\n",
           command, msg, command);
  return TM_EXIT_USAGE;
}

gboolean
tm_cli_parse (GOptionContext *context, const char *command,
              int *argc, char ***argv, int *exit_code)
{
  g_autoptr(GError) error = NULL;

  if (!g_strv_contains (commands_without_input, command))
    add_load_options (context);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      *exit_code = tm_cli_usage_error (command, "%s", error->message);
      return FALSE;
    }
  return TRUE;
}

const char *
tm_cli_single_input (const char *command, int argc, char **argv, int *exit_code)
{
  if (argc < 2)
    {
      *exit_code = tm_cli_usage_error (command, "missing input file");
      return NULL;
    }
  /* further files: the rotated parts of one GC log (checked on loading) */
  g_clear_pointer (&more_inputs, g_ptr_array_unref);
  if (argc > 2)
    {
      more_inputs = g_ptr_array_new_with_free_func (g_free);
      for (int i = 2; i < argc; i++)
        g_ptr_array_add (more_inputs, g_strdup (argv[i]));
      g_free (more_command);
      more_command = g_strdup (command);
    }
  return argv[1];
}

/* Several inputs: the parts of one rotated GC log, or heap dumps of one
 * process; anything else among them is a usage error. */
static gboolean
check_series (GPtrArray *paths, int *exit_code)
{
  const char *first = tm_trace_detect_format (paths->pdata[0], NULL);

  for (guint i = 0; i < paths->len; i++)
    {
      const char *format = tm_trace_detect_format (paths->pdata[i], NULL);
      if (format != NULL && (g_strcmp0 (format, first) != 0
                             || (strcmp (format, "gc-log") != 0 && strcmp (format, "hprof") != 0)))
        {
          *exit_code = tm_cli_usage_error (more_command, "unexpected argument '%s' (only GC logs, as the parts "
                                           "of a rotated log, or HPROF heap dumps of one process can be given "
                                           "several at once)",
                                           (const char *) paths->pdata[i == 0 ? 1 : i]);
          return FALSE;
        }
    }
  return TRUE;
}

TmDocument *
tm_cli_open (const char *path, int *exit_code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  TmDocument *doc;
  TmTrace *trace;

  g_ptr_array_add (paths, (gpointer) path);
  for (guint i = 0; more_inputs != NULL && i < more_inputs->len; i++)
    g_ptr_array_add (paths, more_inputs->pdata[i]);
  if (paths->len > 1 && !check_series (paths, exit_code))
    return NULL;
  doc = tm_document_load_files ((const char *const *) paths->pdata, paths->len, &load_options,
                                NULL, NULL, NULL, &error);
  if (doc == NULL)
    {
      /* Loader messages already start with the file name when they
       * concern its content. */
      if (g_str_has_prefix (error->message, path))
        fprintf (stderr, "%s\n", error->message);
      else
        fprintf (stderr, "%s: %s\n", path, error->message);
      *exit_code = TM_EXIT_INPUT;
      return NULL;
    }

  trace = tm_document_get_trace (doc);
  /* at the memory limit, the first warning names it and the option */
  if (!trace->complete && trace->stopped)
    fprintf (stderr, "warning: %s: incomplete trace, reading stopped at byte offset %" G_GUINT64_FORMAT "\n",
             path, trace->stop_offset);
  else if (!trace->complete)
    fprintf (stderr, "warning: %s: read to the end with %" G_GUINT64_FORMAT " problem%s\n", path,
             trace->n_warnings_total, trace->n_warnings_total == 1 ? "" : "s");
  if (g_hash_table_lookup (trace->meta, "note") != NULL)
    fprintf (stderr, "note: %s: %s\n", path, (const char *) g_hash_table_lookup (trace->meta, "note"));
  for (guint i = 0; i < trace->warnings->len && i < 20; i++)
    {
      const TmWarning *w = &g_array_index (trace->warnings, TmWarning, i);
      fprintf (stderr, "warning: %s\n", w->message);
    }
  if (trace->n_warnings_total > MIN (trace->warnings->len, 20))
    fprintf (stderr, "warning: %s: %" G_GUINT64_FORMAT " more warnings\n", path,
             trace->n_warnings_total - MIN (trace->warnings->len, 20));

  *exit_code = TM_EXIT_OK;
  return doc;
}

gboolean
tm_cli_check_gc (const char *command, const char *path, const TmTrace *trace, gint64 gc, int *exit_code)
{
  if (gc <= (gint64) tm_trace_n_gcs (trace))
    return TRUE;
  *exit_code = tm_cli_usage_error (command, "GC %" G_GINT64_FORMAT " does not exist (%s has %u GCs)",
                                   gc, path, tm_trace_n_gcs (trace));
  return FALSE;
}

void
tm_cli_json_warnings (GString *out, const TmTrace *trace)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < trace->warnings->len; i++)
    {
      const TmWarning *w = &g_array_index (trace->warnings, TmWarning, i);
      if (i > 0)
        g_string_append (out, ", ");
      tm_json_append_string (out, w->message);
    }
  g_string_append_c (out, ']');
}

void
tm_cli_json_print_end (GString *out, const TmTrace *trace)
{
  g_string_append_printf (out, "\"complete\": %s, \"warnings\": ", trace->complete ? "true" : "false");
  tm_cli_json_warnings (out, trace);
  g_string_append (out, "}\n");
  fputs (out->str, stdout);
  g_string_free (out, TRUE);
}

char **
tm_cli_split_list (const char *value)
{
  g_auto(GStrv) parts = g_strsplit (value ? value : "", ",", -1);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; parts[i]; i++)
    {
      char *p = g_strstrip (parts[i]);
      if (*p)
        g_ptr_array_add (out, g_strdup (p));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

void
tm_cli_json_double (GString *out, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v))
    g_string_append (out, "null");
  else
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.10g", v));
}

/* Word-wraps text at `width` columns with an indent. */
void
tm_cli_print_wrapped (const char *text, guint indent, guint width)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);
  guint col = 0;

  for (guint i = 0; words[i]; i++)
    {
      guint len = g_utf8_strlen (words[i], -1);

      if (*words[i] == '\0')
        continue;
      if (col > 0 && col + 1 + len > width)
        {
          putchar ('\n');
          col = 0;
        }
      if (col == 0)
        {
          printf ("%*s%s", indent, "", words[i]);
          col = indent + len;
        }
      else
        {
          printf (" %s", words[i]);
          col += 1 + len;
        }
    }
  if (col > 0)
    putchar ('\n');
}

gboolean
tm_cli_window (const char *command, const char *path, const TmTrace *trace,
               gint64 from_gc, gint64 to_gc, guint32 *from, guint32 *to, int *exit_code)
{
  guint32 n = tm_trace_n_gcs (trace);

  if (n == 0)
    {
      fprintf (stderr, "%s: no GCs (or time points) to analyse\n", path);
      *exit_code = TM_EXIT_INPUT;
      return FALSE;
    }
  if (from_gc < 0 || to_gc < 0 || (to_gc > 0 && from_gc > to_gc))
    {
      *exit_code = tm_cli_usage_error (command, "--from-gc A --to-gc B need 1 <= A <= B");
      return FALSE;
    }
  if (!tm_cli_check_gc (command, path, trace, from_gc, exit_code))
    return FALSE;
  *from = from_gc > 0 ? (guint32) from_gc : 1;
  /* a window reaching past the end of a trace cut short is clipped */
  *to = to_gc > 0 ? (guint32) MIN (to_gc, (gint64) n) : n;
  return TRUE;
}
