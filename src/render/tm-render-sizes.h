/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The allocation-size histogram (heaptrack_gui's "Sizes"): one bar per
 * size class, its height the number of allocations, labelled with the
 * count and the bytes they took.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "tm-heaptrack-profile.h"

G_BEGIN_DECLS

void tm_render_size_histogram (cairo_t            *cr,
                               double              width,
                               double              height,
                               const TmSizeBucket *sizes,
                               const char         *title,
                               gboolean            dark);

/* "0 – 8 B", ..., "more than 1 KiB"; owned by the caller. */
char *tm_size_bucket_label    (const TmSizeBucket *sizes, guint bucket);

G_END_DECLS
