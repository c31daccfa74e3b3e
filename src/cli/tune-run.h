/* SPDX-License-Identifier: GPL-3.0-or-later
 * One measured JVM run for `tune`: the program under extra flags with
 * -Xlog:gc* to a scratch file that Tidemark's own importer reads; wall
 * time and peak RSS from the kernel; cancellable from a signal handler. */
#pragma once

#include <glib.h>
#include <signal.h>
#include "tidemark.h"

typedef struct {
  gboolean  ok;
  char     *error;          /* why it failed (exit status, last output line) */
  double    wall_s;
  guint64   peak_rss;       /* bytes */
  TmDocument *document;     /* the GC log, opened; NULL if failed */
  TmTrace  *trace;          /* its trace */
} TmTuneRun;

void     tm_tune_run_clear (TmTuneRun *run);

/* Runs argv[0] (java) with `flags` inserted before argv[1..].  Output of
 * the program goes to a scratch file in scratch_dir.  Returns FALSE with
 * run->error set when the JVM fails, crashes or is cancelled. */
gboolean tm_tune_run_jvm   (char *const *argv, char *const *flags, const char *scratch_dir,
                            volatile sig_atomic_t *cancelled, TmTuneRun *run);

/* Collectors this JVM has ("Serial", "Parallel", ...), from -XX:+PrintFlagsFinal. */
GPtrArray *tm_tune_available_collectors (const char *java);
