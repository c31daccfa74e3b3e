/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-downsample.h"

#include <math.h>

gsize
tm_downsample_lower_bound (const double *x, gsize n, double value)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (x[mid] < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gsize
tm_downsample_min_max (const double *x,
                       const double *y,
                       gsize         n,
                       double        x0,
                       double        x1,
                       guint         n_buckets,
                       double       *out_x,
                       double       *out_y)
{
  gsize first, end, out = 0, i;
  double width;

  g_return_val_if_fail (n == 0 || (x != NULL && y != NULL), 0);
  g_return_val_if_fail (out_x != NULL && out_y != NULL, 0);

  if (n == 0 || n_buckets == 0 || !(x1 > x0))
    return 0;

  first = tm_downsample_lower_bound (x, n, x0);
  end = tm_downsample_lower_bound (x, n, x1);
  while (end < n && x[end] <= x1)
    end++;
  width = (x1 - x0) / n_buckets;

  /* The last point before the range, so the line enters from the edge. */
  for (i = first; i > 0; i--)
    if (!isnan (y[i - 1]))
      {
        out_x[out] = x[i - 1];
        out_y[out] = y[i - 1];
        out++;
        break;
      }

  i = first;
  while (i < end)
    {
      guint bucket = (guint) MIN ((x[i] - x0) / width, (double) (n_buckets - 1));
      double bucket_end = x0 + (bucket + 1) * width;
      gsize imin = G_MAXSIZE, imax = G_MAXSIZE, start = i;

      /* The last bucket is closed on the right.  The point that chose the
       * bucket always belongs to it: rounding can put it at bucket_end,
       * and skipping it would never move on. */
      for (; i < end && (i == start || x[i] < bucket_end || bucket == n_buckets - 1); i++)
        {
          if (isnan (y[i]))
            continue;
          if (imin == G_MAXSIZE || y[i] < y[imin])
            imin = i;
          if (imax == G_MAXSIZE || y[i] > y[imax])
            imax = i;
        }
      if (imin == G_MAXSIZE)
        continue;
      if (imin == imax)
        {
          out_x[out] = x[imin];
          out_y[out] = y[imin];
          out++;
        }
      else
        {
          gsize a = MIN (imin, imax), b = MAX (imin, imax);
          out_x[out] = x[a];
          out_y[out] = y[a];
          out_x[out + 1] = x[b];
          out_y[out + 1] = y[b];
          out += 2;
        }
    }

  /* The first point after the range. */
  for (i = end; i < n; i++)
    if (!isnan (y[i]))
      {
        out_x[out] = x[i];
        out_y[out] = y[i];
        out++;
        break;
      }

  return out;
}
