/* SPDX-License-Identifier: GPL-3.0-or-later
 * The commands of tidemark-cli, one per cmd-NAME.c, registered in the
 * table of tidemark-cli.c. */
#pragma once

#include "tm-config.h"

int tm_cmd_info      (int argc, char **argv);
int tm_cmd_timeline  (int argc, char **argv);
int tm_cmd_synth     (int argc, char **argv);
int tm_cmd_windows   (int argc, char **argv);
int tm_cmd_heap      (int argc, char **argv);
int tm_cmd_heap_diff (int argc, char **argv);
int tm_cmd_trend     (int argc, char **argv);
int tm_cmd_ds_growth (int argc, char **argv);
int tm_cmd_record    (int argc, char **argv);
int tm_cmd_gc_summary (int argc, char **argv);
int tm_cmd_gc_phases (int argc, char **argv);
int tm_cmd_advise    (int argc, char **argv);
int tm_cmd_tune      (int argc, char **argv);
int tm_cmd_allocs    (int argc, char **argv);
int tm_cmd_lifetimes (int argc, char **argv);
int tm_cmd_churn     (int argc, char **argv);
int tm_cmd_survival  (int argc, char **argv);
int tm_cmd_floating_garbage (int argc, char **argv);
int tm_cmd_transactions (int argc, char **argv);
int tm_cmd_containers (int argc, char **argv);
int tm_cmd_callers   (int argc, char **argv);
int tm_cmd_chart     (int argc, char **argv);
int tm_cmd_flamegraph (int argc, char **argv);
int tm_cmd_report    (int argc, char **argv);
