/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Axis ticks and labels for the charts: "nice" steps (1, 2, 5 x 10^k in
 * the unit chosen for the range) with units KiB/MiB/GiB for bytes,
 * ms/s/min for time, K/M for counts and % for fractions.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TM_AXIS_UNIT_COUNT,     /* plain numbers: 0, 500, 1 K, 2.5 M */
  TM_AXIS_UNIT_BYTES,     /* binary: 0 B, 512 KiB, 1.5 GiB */
  TM_AXIS_UNIT_TIME_NS,   /* nanoseconds shown as ms / s / min */
  TM_AXIS_UNIT_FRACTION,  /* 0..1 shown as 0 %, 25 % */
} TmAxisUnit;

#define TM_AXIS_MAX_TICKS 32

typedef struct {
  double   min;            /* the range covered (min <= first tick) */
  double   max;
  double   step;           /* in raw units (bytes, ns, ...) */
  double   scale;          /* raw units per displayed unit (e.g. 1048576 for MiB) */
  const char *suffix;      /* displayed unit, e.g. "MiB" */
  guint    n_ticks;
  double   ticks[TM_AXIS_MAX_TICKS];
} TmAxisTicks;

/* Computes at most `max_ticks` (>= 2) nice ticks inside [min, max].
 * When `extend_max` is TRUE the range's max is raised to the next tick so
 * that the top of the data is labelled (value axes); time axes keep their
 * range. */
void   tm_axis_ticks        (TmAxisTicks *ticks,
                             TmAxisUnit   unit,
                             double       min,
                             double       max,
                             guint        max_ticks,
                             gboolean     extend_max);

/* Label of one tick, with as few decimals as the step needs. */
char  *tm_axis_format_tick  (const TmAxisTicks *ticks,
                             double             value);

/* A 1-2-5 "nice" number >= x (round = FALSE) or nearest (round = TRUE). */
double tm_axis_nice_number  (double x, gboolean round);

G_END_DECLS
