/* SPDX-License-Identifier: GPL-3.0-or-later
 * The call profile of any input for the call-tree commands: heaptrack's
 * own figures for heaptrack files, the allocation sites' stacks for
 * traces. */
#pragma once

#include "cli-common.h"
#include "tm-calltree.h"
#include "tm-heaptrack-profile.h"
#include "tm-call-data.h"

G_BEGIN_DECLS

typedef struct {
  TmCallProfile      *calls;
  TmHeaptrackProfile *heaptrack;   /* heaptrack files, whole recording */
  TmCallData         *data;        /* a window */
} TmCliCalls;

/* Loads; on failure prints "FILE: reason" and sets *exit_code.  A window
 * of GCs or time points (from_gc..to_gc, 0: from the start / to the end)
 * loads the trace model too (tm_call_data_load). */
gboolean tm_cli_load_calls  (const char *command, const char *path, gint64 from_gc, gint64 to_gc,
                             TmCliCalls *out, int *exit_code);
void     tm_cli_calls_clear (TmCliCalls *calls);
/* Reads a heaptrack file's summary figures; warnings go to stderr. */
TmHeaptrackProfile *tm_cli_load_heaptrack (const char *path, int *exit_code);

/* "name (file:line)" for a symbol at a node's own location. */
char    *tm_cli_frame_text  (const TmCallSymbol *sym, const char *file, gint32 line);
/* {"allocations": .., "temporary": .., "peak": .., "leaked": .., "allocated": ..} */
void     tm_cli_json_cost   (GString *out, const TmCost *cost);
/* "function": .., "module": .., "file": .., "line": .., "resolved": .. (no braces) */
void     tm_cli_json_frame  (GString *out, const TmCallSymbol *sym, const char *file, gint32 line);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TmCliCalls, tm_cli_calls_clear)

G_END_DECLS
