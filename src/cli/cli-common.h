/* SPDX-License-Identifier: GPL-3.0-or-later
 * Shared plumbing of tidemark-cli's commands: option parsing with the
 * documented exit codes, loading any input format, JSON helpers. */
#pragma once

#include <glib.h>
#include "tidemark.h"

G_BEGIN_DECLS

enum {
  TM_EXIT_OK    = 0,
  TM_EXIT_USAGE = 1,   /* bad usage: one line + hint to --help */
  TM_EXIT_INPUT = 2,   /* input unusable: "FILE: reason" */
};

typedef struct {
  const char *name;
  const char *synopsis;   /* arguments, for the command list */
  const char *summary;
  int       (*run) (int argc, char **argv);
} TmCliCommand;

/* Prints "tidemark-cli CMD: reason" and the --help hint; returns TM_EXIT_USAGE. */
int       tm_cli_usage_error (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Parses options (with the loading options, see below); on failure prints
 * the reason and returns FALSE with *exit_code set (0 for --help). */
gboolean  tm_cli_parse       (GOptionContext *context, const char *command,
                              int *argc, char ***argv, int *exit_code);

/* Requires a positional argument (the input file) left in argv and returns
 * it.  More of them are the rotated parts of one GC log: tm_cli_open then
 * reads them all as one timeline (or fails with a usage error if one is
 * not a GC log). */
const char *tm_cli_single_input (const char *command, int argc, char **argv, int *exit_code);

/* How tm_cli_open() loads: --memory-limit SIZE, which tm_cli_parse()
 * adds to every command but those that write traces (record, synth). */
const TmLoadOptions *tm_cli_load_options (void);

/* Opens any supported input as a document, under tm_cli_load_options().
 * On failure prints "FILE: reason" and sets *exit_code = TM_EXIT_INPUT.
 * Prints a warning on stderr for traces cut short or damaged (with the
 * byte offset) or stopped at the memory limit. */
TmDocument *tm_cli_open      (const char *path, int *exit_code);

/* Requires GC number gc (1 or more) to be in the loaded trace; otherwise
 * prints "GC N does not exist (FILE has M GCs)" and returns FALSE with
 * *exit_code = TM_EXIT_USAGE. */
gboolean  tm_cli_check_gc    (const char *command, const char *path, const TmTrace *trace,
                              gint64 gc, int *exit_code);

/* Writes a number as JSON with 10 significant digits; null if not finite. */
void      tm_cli_json_double (GString *out, double v);

/* The window of --from-gc/--to-gc (0 = not given: the whole run); a
 * window reaching past the end is clipped.  FALSE with *exit_code set. */
gboolean  tm_cli_window      (const char *command, const char *path, const TmTrace *trace,
                              gint64 from_gc, gint64 to_gc, guint32 *from, guint32 *to,
                              int *exit_code);

/* Writes the trace's warnings as a JSON array of strings. */
void      tm_cli_json_warnings (GString *out, const TmTrace *trace);
/* Ends a GC-log command's JSON object with `"complete"` and `"warnings"`,
 * prints it and frees it. */
void      tm_cli_json_print_end (GString *out, const TmTrace *trace);

/* Parses "1,2,3" style lists; returns NULL-terminated strv. */
char    **tm_cli_split_list  (const char *value);

/* Prints text word-wrapped at `width` columns, each line indented. */
void      tm_cli_print_wrapped (const char *text, guint indent, guint width);

G_END_DECLS
