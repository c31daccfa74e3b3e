/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli report: the app's one-click report (src/render/
 * tm-report-html.c) of the whole run or of one suspicious window, as a
 * self-contained HTML file. */
#include "tm-config.h"
#include "cli-common.h"
#include "cli-commands.h"
#include "cmd-ds-growth.h"   /* tm_cli_load_descriptions */
#include "tm-report-html.h"
#include "tm-install.h"

#include <stdio.h>

int
tm_cmd_report (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) ds_files = NULL;
  g_autoptr(TmDocument) doc = NULL;
  g_autoptr(GPtrArray) windows = NULL;
  g_autoptr(GError) error = NULL;
  gint window = 0;
  int code = TM_EXIT_OK;
  const char *path;
  TmDsl *dsl;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the report to this HTML file (required)", "FILE" },
    { "window", 0, 0, G_OPTION_ARG_INT, &window,
      "Report on suspicious window N alone (numbered as `windows` lists them, from 1)", "N" },
    { "ds", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &ds_files,
      "Also load these data structure descriptions (repeatable)", "FILE" },
    { NULL }
  };

  context = g_option_context_new ("FILE - a self-contained HTML report of a run or of one window");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "The report holds the memory, object and GC overhead charts, the suspicious\n"
    "windows with their explanations and, for the whole run and each window,\n"
    "the data structures and the groups of objects that grew (as ds-growth and\n"
    "heap-diff rank them), allocations by type, the GC summary and GC advice,\n"
    "as far as the input records them. Charts are embedded as PNG; the file\n"
    "needs nothing else to open, offline or printed.");
  if (!tm_cli_parse (context, "report", &argc, &argv, &code))
    return code;
  if ((path = tm_cli_single_input ("report", argc, argv, &code)) == NULL)
    return code;
  if (output == NULL)
    return tm_cli_usage_error ("report", "missing -o FILE");
  if (window < 0)
    return tm_cli_usage_error ("report", "--window must be 1 or more");

  if ((doc = tm_cli_open (path, &code)) == NULL)
    return code;
  /* without --ds the document loads the shipped descriptions when the
   * growth analysis needs them; if they are missing, that part says so */
  if (ds_files != NULL)
    {
      if ((dsl = tm_cli_load_descriptions (ds_files, &code)) == NULL)
        return code;
      tm_document_set_dsl (doc, dsl);
    }

  /* the report is for people: in their language, as the app writes it
   * (the rest of the CLI's output stays English for scripts) */
  tm_install_bind_textdomain ();

  windows = tm_document_windows (doc, NULL, FALSE, NULL, NULL);
  if (window > 0 && (guint) window > windows->len)
    return tm_cli_usage_error ("report", "window %d does not exist (%s has %u suspicious windows)",
                               window, path, windows->len);

  if (!tm_report_write (doc, windows, window - 1, output, NULL, NULL, NULL, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return TM_EXIT_INPUT;
    }
  return TM_EXIT_OK;
}
