/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

int  LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* Runs the target on `base`, then on `rounds` mutations of it. */
void tm_fuzz_mutate_and_run (GBytes *base, GRand *rand, guint rounds);
