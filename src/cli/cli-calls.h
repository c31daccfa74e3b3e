/* SPDX-License-Identifier: GPL-3.0-or-later
 * The call profile of any input for the call-tree commands: heaptrack's
 * own figures for heaptrack files, the allocation sites' stacks for
 * traces. */
#pragma once

#include "cli-common.h"
#include "tm-calltree.h"
#include "tm-heaptrack-profile.h"

G_BEGIN_DECLS

typedef struct {
  TmCallProfile      *calls;
  TmHeaptrackProfile *heaptrack;   /* heaptrack files only */
} TmCliCalls;

/* Loads; on failure prints "FILE: reason" and sets *exit_code. */
gboolean tm_cli_load_calls  (const char *path, TmCliCalls *out, int *exit_code);
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
