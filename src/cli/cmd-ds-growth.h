/* SPDX-License-Identifier: GPL-3.0-or-later
 * Shared by `ds-growth` and `chart --kind ds-growth`. */
#pragma once

#include "cli-common.h"
#include "tm-ds-growth.h"

G_BEGIN_DECLS

/* The shipped descriptions, then the user's files.  A file with a syntax
 * error is a warning (the others still load); one that cannot be read
 * ends the command with *code = TM_EXIT_INPUT. */
TmDsl *tm_cli_load_descriptions (char **files, int *code);

G_END_DECLS
