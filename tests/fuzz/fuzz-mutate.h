/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Deterministic mutations for the replay tests of the fuzz targets: the
 * input as is, then byte flips, cuts, deleted and inserted runs and
 * interesting byte values, each run through the target. */
#pragma once

#include <glib.h>

typedef int (*TmFuzzTarget) (const guint8 *data, size_t size);

void tm_fuzz_mutate_and_run (GBytes *base, GRand *rand, guint rounds, TmFuzzTarget target);
