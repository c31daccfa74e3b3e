/* SPDX-License-Identifier: GPL-3.0-or-later
 * Internals of TrendViz shared by its source files. */
#pragma once

#include "tm-trend.h"

G_BEGIN_DECLS

/* Time of a classification point: the end of the GC (its start when the
 * trace was cut inside it). */
guint64 tm_trend_gc_time (const TmGc *gc);

G_END_DECLS
