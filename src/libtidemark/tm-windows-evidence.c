/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The evidence rules that make the window detectors hold on real runs
 * (docs/windows.md, "Real runs"): where the application effectively ends
 * (the final drop at exit), whether growth continues or levels off into
 * a plateau, and a churn baseline that a long burst cannot capture.
 * Plain arrays, declared in tm-windows-private.h.
 */
#include "tm-windows-private.h"

#include <math.h>

gsize
tm_teardown_start (const TmSeriesPoint *p,
                   gsize                n,
                   double               min_drop,
                   double               max_fraction)
{
  g_autofree guint64 *prefix_max = NULL;
  gsize max_points, t;
  guint64 span, tail_max = 0;

  g_return_val_if_fail (p != NULL || n == 0, n);
  if (n < 3 || !(min_drop > 0) || !(max_fraction > 0))
    return n;

  /* prefix_max[i] = max of p[0..i-1] */
  prefix_max = g_new (guint64, n);
  prefix_max[0] = 0;
  for (gsize i = 1; i < n; i++)
    prefix_max[i] = MAX (prefix_max[i - 1], p[i - 1].value);

  max_points = MAX (2, (gsize) ceil (max_fraction * (double) n - 1e-9));
  span = p[n - 1].time_ns - p[0].time_ns;

  /* The tail of points that all lie at or below (1 - min_drop) of the
   * peak before them.  Valid tails nest (a shorter one has a higher peak
   * before it and a lower maximum), so walk back to the longest; it is a
   * teardown only when it is short: a low phase that lasts longer is the
   * program's own behaviour. */
  t = n;
  while (t > 1)
    {
      gsize i = t - 1;
      guint64 m = MAX (tail_max, p[i].value);

      if ((double) m > (1 - min_drop) * (double) prefix_max[i])
        break;
      if (n - i > max_points ||
          (double) (p[n - 1].time_ns - p[i - 1].time_ns) > max_fraction * (double) span)
        return n;
      tail_max = m;
      t = i;
    }
  if (t == n)
    return n;

  /* the fall into the drop is part of the teardown: the kept series ends
   * at the last peak before it (still within the time bound) */
  while (t > 1 && p[t - 1].value > p[t].value &&
         (double) (p[n - 1].time_ns - p[t - 2].time_ns) <= max_fraction * (double) span)
    t--;
  return t;
}

/* Least-squares slope (value units per second) of p[0..n-1]; 0 when the
 * points have no time extent. */
static double
ls_slope (const TmSeriesPoint *p, gsize n)
{
  double mt = 0, mv = 0, ctv = 0, ctt = 0;

  /* Welford, relative to the first point so the sums stay well conditioned */
  for (gsize i = 0; i < n; i++)
    {
      double t = (double) (p[i].time_ns - p[0].time_ns) / 1e9;
      double v = (double) p[i].value - (double) p[0].value;
      double d = t - mt;

      mt += d / (double) (i + 1);
      mv += (v - mv) / (double) (i + 1);
      ctv += d * (v - mv);
      ctt += d * (t - mt);
    }
  return ctt > 0 ? ctv / ctt : 0;
}

double
tm_ls_fit (const TmSeriesPoint *p, gsize n, double *fit0, double *fit1)
{
  double slope, mt = 0, mv = 0;

  g_return_val_if_fail (p != NULL && n > 0, 0);
  slope = n >= 2 ? ls_slope (p, n) : 0;
  for (gsize i = 0; i < n; i++)
    {
      mt += ((double) (p[i].time_ns - p[0].time_ns) / 1e9 - mt) / (double) (i + 1);
      mv += ((double) p[i].value - (double) p[0].value - mv) / (double) (i + 1);
    }
  if (fit0)
    *fit0 = (double) p[0].value + mv - slope * mt;
  if (fit1)
    *fit1 = (double) p[0].value + mv + slope * ((double) (p[n - 1].time_ns - p[0].time_ns) / 1e9 - mt);
  return slope;
}

gsize
tm_growth_tail_points (gsize n)
{
  /* a third of the window, and never fewer than 3 points (2 intervals) */
  return MAX (3, (n + 2) / 3);
}

gsize
tm_growth_tail_start (const TmSeriesPoint *p, gsize n)
{
  gsize s, k = tm_growth_tail_points (n);
  guint64 cut;

  g_return_val_if_fail (p != NULL || n == 0, 0);
  if (n <= k)
    return 0;
  s = n - k;
  cut = p[n - 1].time_ns - (p[n - 1].time_ns - p[0].time_ns) / 3;
  while (s + 3 < n && p[s].time_ns < cut)
    s++;
  return s;
}

gboolean
tm_growth_continues (const TmSeriesPoint *p,
                     gsize                n,
                     double               ratio,
                     double              *slope_all,
                     double              *slope_tail,
                     gsize               *plateau_from)
{
  gsize k, i;
  guint64 floor_v = G_MAXUINT64;
  double all, tail;

  g_return_val_if_fail (p != NULL, FALSE);
  k = tm_growth_tail_points (n);
  all = n >= 2 ? ls_slope (p, n) : 0;
  if (n >= k)
    k = n - tm_growth_tail_start (p, n);
  tail = n >= k ? ls_slope (p + n - k, k) : all;
  if (slope_all)
    *slope_all = all;
  if (slope_tail)
    *slope_tail = tail;

  /* the plateau starts where memory last rose to the lowest value of the
   * window's last third, less 5% of the window's growth (what is that
   * close has arrived), and stayed at or above it */
  {
    guint64 top = 0;
    double level;

    for (i = n >= k ? n - k : 0; i < n; i++)
      floor_v = MIN (floor_v, p[i].value);
    for (i = 0; i < n; i++)
      top = MAX (top, p[i].value);
    level = (double) floor_v - 0.05 * ((double) top - (double) p[0].value);
    i = n;
    while (i > 0 && (double) p[i - 1].value >= level)
      i--;
    if (plateau_from)
      *plateau_from = MIN (i, n - 1);
  }

  if (ratio <= 0)
    return all > 0;
  return all > 0 && n >= 2 * tm_growth_tail_points (n) && tail >= ratio * all;
}

/* ---- a churn baseline weighted by time ---- */

typedef struct {
  double rate;
  double weight;
} Weighted;

/* Weighted quickselect: the smallest rate r such that the windows with a
 * rate <= r hold at least half of the total weight.  Three-way partition
 * with a pseudo-random pivot, O(n) expected. */
static double
weighted_median (Weighted *v, gsize n, double total)
{
  gsize lo = 0, hi = n;
  double below = 0, half = total / 2;
  guint64 rng = 0x9e3779b97f4a7c15u;

  while (hi - lo > 1)
    {
      Weighted pivot, tmp;
      gsize lt = lo, i = lo, gt = hi;
      double w_lt = 0, w_eq = 0;

      rng ^= rng << 13;
      rng ^= rng >> 7;
      rng ^= rng << 17;
      pivot = v[lo + rng % (hi - lo)];
      while (i < gt)
        {
          if (v[i].rate < pivot.rate)
            {
              w_lt += v[i].weight;
              tmp = v[lt]; v[lt] = v[i]; v[i] = tmp;
              lt++, i++;
            }
          else if (v[i].rate > pivot.rate)
            {
              gt--;
              tmp = v[gt]; v[gt] = v[i]; v[i] = tmp;
            }
          else
            {
              w_eq += v[i].weight;
              i++;
            }
        }
      if (below + w_lt >= half && lt > lo)
        hi = lt;
      else if (below + w_lt + w_eq >= half)
        return pivot.rate;
      else
        {
          below += w_lt + w_eq;
          lo = gt;
        }
    }
  return v[lo].rate;
}

double
tm_rate_window_time_median (const guint64 *bounds,
                            const guint64 *amount,
                            gsize          n,
                            gsize          n_gcs)
{
  return tm_rate_window_time_median_calm (bounds, amount, NULL, 0, n, n_gcs);
}

double
tm_rate_window_time_median_calm (const guint64 *bounds,
                                 const guint64 *amount,
                                 const guint64 *pause,
                                 double         max_overhead,
                                 gsize          n,
                                 gsize          n_gcs)
{
  g_autofree Weighted *w = NULL;
  guint64 sum = 0, paused = 0;
  double total = 0, total_calm = 0;
  gsize m = 0, m_calm = 0;

  g_return_val_if_fail (bounds != NULL && amount != NULL, 0);
  if (n_gcs < 1 || n < n_gcs)
    return 0;

  /* the calm windows first, the others after them */
  w = g_new (Weighted, 2 * (n - n_gcs + 1));
  for (gsize k = 0; k < n_gcs; k++)
    {
      sum += amount[k];
      paused += pause ? pause[k] : 0;
    }
  for (gsize b = n_gcs; b <= n; b++)
    {
      gsize a = b - n_gcs;
      double dur;
      Weighted x;

      if (b > n_gcs)
        {
          sum += amount[b - 1] - amount[a - 1];   /* wrapping, exact when the window's sum fits */
          if (pause)
            paused += pause[b - 1] - pause[a - 1];
        }
      if (bounds[b] <= bounds[a])
        continue;
      dur = (double) (bounds[b] - bounds[a]);
      x.weight = dur;
      x.rate = (double) sum / dur;
      total += dur;
      if (pause == NULL || (double) paused < max_overhead * dur)
        {
          w[m_calm++] = x;
          total_calm += dur;
        }
      w[n - n_gcs + 1 + m++] = x;
    }
  if (m_calm > 0)
    return weighted_median (w, m_calm, total_calm);
  if (m == 0)
    return 0;
  return weighted_median (w + (n - n_gcs + 1), m, total);
}

gsize
tm_leak_first_restart (const TmSeriesPoint *p,
                       gsize                n,
                       double               tolerance)
{
  gsize start = 0;
  guint64 max;

  g_return_val_if_fail (p != NULL || n == 0, n);
  if (n == 0)
    return 0;
  /* the scan of tm_leak_heuristic_start, stopped at its first restart */
  max = p[0].value;
  for (gsize i = 1; i < n; i++)
    {
      guint64 v = p[i].value;

      if (!(v > p[i - 1].value || (v > p[start].value && (double) v >= tolerance * (double) max)))
        return i;
      max = MAX (max, v);
    }
  return n;
}

gboolean
tm_growth_new_high (const TmSeriesPoint *p,
                    gsize                n,
                    gsize                first,
                    gsize                from,
                    guint64             *earlier_max,
                    gsize               *earlier_at)
{
  gsize k, tail;
  guint64 h = 0, top = 0, wmax = 0;
  gsize at = from;

  g_return_val_if_fail (p != NULL && first < n, FALSE);
  k = tm_growth_tail_points (n - first);
  tail = n > k ? n - k : 0;
  from = MIN (from, first);
  for (gsize i = from; i < tail; i++)
    if (p[i].value >= h)
      {
        h = p[i].value;
        at = i;
      }
  for (gsize i = first; i < n; i++)
    wmax = MAX (wmax, p[i].value);
  for (gsize i = tail; i < n; i++)
    top = MAX (top, p[i].value);
  if (earlier_max)
    *earlier_max = h;
  if (earlier_at)
    *earlier_at = at;
  /* at a steady rate the last third adds a third of the growth above
   * everything before it; half of that allows for noise and slowing */
  return (double) top >= (double) h + ((double) wmax - (double) p[first].value) / 6;
}
