/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Peak-keeping downsampling (the model side of drawing, as heaptrack's
 * parser and Sysprof's layers do it): a series with many more points than
 * pixel columns is reduced to the minimum and the maximum of every column,
 * in time order, so a one-GC spike survives any zoom level.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Capacity the output arrays need for `n_buckets`. */
#define TM_DOWNSAMPLE_CAPACITY(n_buckets) (2 * (gsize) (n_buckets) + 2)

/* x must be ascending.  Keeps the points with x in [x0, x1], grouped into
 * n_buckets equal slices of x; each slice contributes its minimum and its
 * maximum (one point when they coincide) in x order.  The nearest point
 * outside each edge is kept too, so lines reach the edges.  Points whose y
 * is NaN are skipped.  Returns the number of points written. */
gsize tm_downsample_min_max (const double *x,
                             const double *y,
                             gsize         n,
                             double        x0,
                             double        x1,
                             guint         n_buckets,
                             double       *out_x,
                             double       *out_y);

/* Index of the first point with x >= value (n if none). */
gsize tm_downsample_lower_bound (const double *x, gsize n, double value);

G_END_DECLS
