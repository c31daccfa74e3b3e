/* SPDX-License-Identifier: GPL-3.0-or-later
 * Loading call profiles for tidemark-cli's call-tree commands. */
#include "cli-calls.h"

#include <stdio.h>
#include <string.h>

#include "tm-calltree-trace.h"

TmHeaptrackProfile *
tm_cli_load_heaptrack (const char *path, int *exit_code)
{
  g_autoptr(GError) error = NULL;
  TmHeaptrackProfile *hp = tm_heaptrack_profile_read (path, NULL, NULL, NULL, &error);
  const char *const *warnings;

  if (hp == NULL)
    {
      if (g_str_has_prefix (error->message, path))
        fprintf (stderr, "%s\n", error->message);
      else
        fprintf (stderr, "%s: %s\n", path, error->message);
      *exit_code = TM_EXIT_INPUT;
      return NULL;
    }
  warnings = tm_heaptrack_profile_warnings (hp);
  for (guint i = 0; warnings[i] != NULL; i++)
    fprintf (stderr, "warning: %s\n", warnings[i]);
  if (!tm_heaptrack_profile_summary (hp)->complete)
    fprintf (stderr, "warning: %s: incomplete heaptrack file: figures cover the part that could be read\n", path);
  *exit_code = TM_EXIT_OK;
  return hp;
}

gboolean
tm_cli_load_calls (const char *command, const char *path, gint64 from_gc, gint64 to_gc, TmCliCalls *out,
                   int *exit_code)
{
  g_autoptr(GError) error = NULL;
  const char *format = tm_trace_detect_format (path, &error);
  g_autoptr(TmDocument) doc = NULL;
  TmTrace *trace;

  memset (out, 0, sizeof *out);
  if (from_gc == 0 && to_gc == 0 && format != NULL && strcmp (format, "heaptrack") == 0)
    {
      /* heaptrack's figures need no model: one pass over the file */
      if ((out->heaptrack = tm_cli_load_heaptrack (path, exit_code)) == NULL)
        return FALSE;
      out->calls = tm_call_profile_ref (tm_heaptrack_profile_calls (out->heaptrack));
      return TRUE;
    }
  if ((doc = tm_cli_open (path, exit_code)) == NULL)
    return FALSE;
  trace = tm_document_get_trace (doc);   /* the call data keeps its own reference */
  if ((from_gc != 0 && !tm_cli_check_gc (command, path, trace, from_gc, exit_code)) ||
      (to_gc != 0 && !tm_cli_check_gc (command, path, trace, to_gc, exit_code)))
    return FALSE;
  if (to_gc != 0 && from_gc > to_gc)
    {
      *exit_code = tm_cli_usage_error (command, "--from-gc comes after --to-gc");
      return FALSE;
    }
  out->data = tm_document_call_data (doc, (guint) from_gc, (guint) to_gc, NULL, &error);
  if (out->data == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      *exit_code = TM_EXIT_INPUT;
      return FALSE;
    }
  out->calls = tm_call_profile_ref (out->data->calls);
  return TRUE;
}

void
tm_cli_calls_clear (TmCliCalls *calls)
{
  g_clear_pointer (&calls->calls, tm_call_profile_unref);
  g_clear_pointer (&calls->heaptrack, tm_heaptrack_profile_free);
  g_clear_pointer (&calls->data, tm_call_data_unref);
}

char *
tm_cli_frame_text (const TmCallSymbol *sym, const char *file, gint32 line)
{
  g_autofree char *label = tm_call_symbol_label (sym);
  const char *base;

  if (file == NULL || file[0] == '\0')
    return g_steal_pointer (&label);
  base = strrchr (file, '/') ? strrchr (file, '/') + 1 : file;
  if (line > 0)
    return g_strdup_printf ("%s  (%s:%d)", label, base, line);
  return g_strdup_printf ("%s  (%s)", label, base);
}

void
tm_cli_json_cost (GString *out, const TmCost *cost)
{
  g_string_append_c (out, '{');
  for (guint k = 0; k < TM_N_COSTS; k++)
    g_string_append_printf (out, "%s\"%s\": %" G_GINT64_FORMAT, k ? ", " : "", tm_cost_kind_to_string (k), cost->v[k]);
  g_string_append_c (out, '}');
}

void
tm_cli_json_frame (GString *out, const TmCallSymbol *sym, const char *file, gint32 line)
{
  g_string_append (out, "\"function\": ");
  tm_json_append_string (out, sym->function);
  g_string_append (out, ", \"module\": ");
  tm_json_append_string (out, sym->module);
  g_string_append (out, ", \"file\": ");
  tm_json_append_string (out, file ? file : "");
  g_string_append_printf (out, ", \"line\": %d, \"resolved\": %s", line, sym->resolved ? "true" : "false");
}
