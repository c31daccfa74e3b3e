/* SPDX-License-Identifier: GPL-3.0-or-later
 * tidemark-cli trend, and its view options shared with `chart --kind trend`. */
#pragma once

#include "cli-common.h"
#include "tm-trend.h"
#include "tm-render-trend.h"

G_BEGIN_DECLS

int           tm_cmd_trend               (int argc, char **argv);

/* --classify, --metric, --sort, --top, --no-other, --every, --interval,
 * --drill, for the chart command's option context. */
GOptionGroup *tm_cli_trend_option_group  (void);
/* Renders the trend chart of the window (whole trace when from/to are 0)
 * with the parsed options; returns the exit code. */
int           tm_cli_trend_chart         (const char *path,
                                          TmDocument *doc,
                                          const char *png,
                                          int         width,
                                          int         height,
                                          gint64      from_gc,
                                          gint64      to_gc,
                                          gboolean    dark);

G_END_DECLS
