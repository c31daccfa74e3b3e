/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window searches behind tm-windows.c, on plain arrays (see
 * tm-windows-private.h and docs/windows.md for rules and complexity).
 */
#include "tm-windows-private.h"

#include <math.h>
#include <string.h>

/* Exact products of two 62-bit differences. */
#ifdef __SIZEOF_INT128__
typedef __int128 TmWide;
#else
typedef long double TmWide;
#endif

gsize
tm_leak_heuristic_start (const TmSeriesPoint *p,
                         gsize                n,
                         double               tolerance)
{
  gsize start = 0;
  guint64 max;

  g_return_val_if_fail (p != NULL && n > 0, 0);

  max = p[0].value;
  for (gsize i = 1; i < n; i++)
    {
      guint64 v = p[i].value;
      gboolean ok = v > p[i - 1].value ||
                    (v > p[start].value && (double) v >= tolerance * (double) max);

      if (!ok)
        {
          start = i;
          max = v;
        }
      else if (v > max)
        max = v;
    }
  return start;
}

/* ---- leak peak: max slope over pairs with an index gap in [gmin, gmax] ---- */

static inline gint64
dv (const TmSeriesPoint *a, const TmSeriesPoint *b)
{
  return (gint64) b->value - (gint64) a->value;
}

static inline gint64
dt (const TmSeriesPoint *a, const TmSeriesPoint *b)
{
  return (gint64) b->time_ns - (gint64) a->time_ns;
}

/* slope(a,b) >= slope(c,d), times increasing within each pair */
static inline gboolean
slope_ge (const TmSeriesPoint *a, const TmSeriesPoint *b,
          const TmSeriesPoint *c, const TmSeriesPoint *d)
{
  return (TmWide) dv (a, b) * dt (c, d) >= (TmWide) dv (c, d) * dt (a, b);
}

/* hull[0..k-1]: point indices of a lower convex hull in increasing time,
 * no three collinear.  Returns the leftmost hull point i maximizing
 * slope(p[i], q).  Along the hull that slope rises then falls, so binary
 * search for the first edge at least as steep as the slope to q. */
static gsize
hull_tangent (const TmSeriesPoint *p, const gsize *hull, gsize k, const TmSeriesPoint *q)
{
  gsize lo = 0, hi = k - 1;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      const TmSeriesPoint *a = &p[hull[mid]], *b = &p[hull[mid + 1]];

      if (slope_ge (a, b, a, q))
        hi = mid;
      else
        lo = mid + 1;
    }
  return hull[lo];
}

typedef struct {
  gboolean found;
  gsize    i, j;
} PeakBest;

static void
peak_offer (const TmSeriesPoint *p, PeakBest *best, gsize i, gsize j)
{
  if (!best->found)
    goto take;
  {
    const TmSeriesPoint *a = &p[i], *b = &p[j], *c = &p[best->i], *d = &p[best->j];
    TmWide l = (TmWide) dv (a, b) * dt (c, d);
    TmWide r = (TmWide) dv (c, d) * dt (a, b);

    if (l < r)
      return;
    if (l == r)
      {
        if (j - i < best->j - best->i)
          return;
        if (j - i == best->j - best->i && i >= best->i)
          return;
      }
  }
take:
  best->found = TRUE;
  best->i = i;
  best->j = j;
}

gboolean
tm_leak_peak_search (const TmSeriesPoint *p,
                     gsize                n,
                     gsize                min_points,
                     gsize                max_points,
                     gsize               *first,
                     gsize               *last,
                     double              *per_s)
{
  gsize gmin, gmax, block;
  g_autofree gsize *hull = NULL;
  PeakBest best = { FALSE, 0, 0 };

  g_return_val_if_fail (p != NULL, FALSE);
  if (min_points < 2 || min_points > max_points || max_points > n)
    return FALSE;

  gmin = min_points - 1;
  gmax = max_points - 1;
  /* For end point j the start i ranges over [j - gmax, j - gmin], a range
   * of `block` points.  Cut the indices into blocks of that length: the
   * range is a suffix of one block plus a prefix of the next.  Prefix
   * hulls grow to the right as j rises, suffix hulls grow to the left as
   * j falls, so both are plain monotone-chain stacks. */
  block = gmax - gmin + 1;
  hull = g_new (gsize, block + 1);

  /* Pass 1, j rising: prefix [block start of b, b], b = j - gmin. */
  {
    gsize k = 0, cur_block = G_MAXSIZE;

    for (gsize j = gmin; j < n; j++)
      {
        gsize b = j - gmin;

        if (b / block != cur_block)
          {
            cur_block = b / block;
            k = 0;
          }
        while (k >= 2 && slope_ge (&p[hull[k - 2]], &p[hull[k - 1]], &p[hull[k - 1]], &p[b]))
          k--;
        hull[k++] = b;
        peak_offer (p, &best, hull_tangent (p, hull, k, &p[j]), j);
      }
  }

  /* Pass 2, j falling: suffix [a, block end of a], a = j - gmax.  The
   * stack lives at the end of `hull`, so it stays in time order. */
  if (n > gmax)
    {
      gsize top = block + 1, cur_block = G_MAXSIZE, added = 0;

      for (gsize j = n - 1; j >= gmax; j--)
        {
          gsize a = j - gmax;

          if (a / block != cur_block)
            {
              /* the first a of a block may be inside it: start the hull
               * from the block's end (never past the series' end) */
              cur_block = a / block;
              top = block + 1;
              added = MIN (cur_block * block + block, n);
            }
          while (added > a)
            {
              gsize x = --added;

              while (block + 1 - top >= 2 &&
                     slope_ge (&p[x], &p[hull[top]], &p[hull[top]], &p[hull[top + 1]]))
                top++;
              hull[--top] = x;
            }
          peak_offer (p, &best, hull_tangent (p, hull + top, block + 1 - top, &p[j]), j);
          if (j == gmax)
            break;
        }
    }

  if (!best.found)
    return FALSE;
  *first = best.i;
  *last = best.j;
  *per_s = (double) dv (&p[best.i], &p[best.j]) * 1e9 / (double) dt (&p[best.i], &p[best.j]);
  return TRUE;
}

/* ---- leak regression ---- */

/* Welford's running means and co-moments, points added right to left,
 * coordinates relative to the last point (seconds, bytes) so that the
 * sums stay well conditioned. */
typedef struct {
  double mt, mv, ctv, ctt;
} Fit;

static inline void
fit_add (Fit *f, gsize c, double t, double v)
{
  double d = t - f->mt;

  f->mt += d / c;
  f->mv += (v - f->mv) / c;
  f->ctv += d * (v - f->mv);
  f->ctt += d * (t - f->mt);
}

gboolean
tm_leak_regression_search (const TmSeriesPoint *p,
                           gsize                n,
                           gsize                min_points,
                           double               slack,
                           gsize               *first,
                           double              *per_s,
                           double              *start_fit,
                           double              *end_fit)
{
  Fit fit = { 0 };
  double best = 0, accept;
  gboolean found = FALSE;
  const TmSeriesPoint *o;

  g_return_val_if_fail (p != NULL, FALSE);
  if (min_points < 2 || min_points > n)
    return FALSE;

  /* pass 1: the steepest slope */
  o = &p[n - 1];
  for (gsize c = 1; c <= n; c++)
    {
      gsize i = n - c;

      fit_add (&fit, c, -(double) (o->time_ns - p[i].time_ns) / 1e9, (double) p[i].value - (double) o->value);
      if (c >= min_points && fit.ctt > 0 && fit.ctv / fit.ctt > best)
        {
          best = fit.ctv / fit.ctt;
          found = TRUE;
        }
    }
  if (!found)
    return FALSE;

  /* pass 2 (same arithmetic, same slopes): the longest window within
   * `slack` of it; 1e-9 keeps exact ties when slack is 0 */
  accept = best * (1 - MAX (slack, 1e-9));
  memset (&fit, 0, sizeof fit);
  for (gsize c = 1; c <= n; c++)
    {
      gsize i = n - c;
      double t = -(double) (o->time_ns - p[i].time_ns) / 1e9;

      fit_add (&fit, c, t, (double) p[i].value - (double) o->value);
      if (c >= min_points && fit.ctt > 0 && fit.ctv / fit.ctt >= accept)
        {
          double slope = fit.ctv / fit.ctt;

          *first = i;
          *per_s = slope;
          *start_fit = (double) o->value + fit.mv + slope * (t - fit.mt);
          *end_fit = (double) o->value + fit.mv + slope * (0 - fit.mt);
        }
    }
  return TRUE;
}

/* ---- rate windows ---- */

/* Prefix sums in wrapping 64-bit arithmetic: differences are exact
 * whenever a window's true sum fits in 64 bits. */
static guint64 *
prefix_sums (const guint64 *amount, gsize n)
{
  guint64 *s = g_new (guint64, n + 1);

  s[0] = 0;
  for (gsize k = 0; k < n; k++)
    s[k + 1] = s[k] + amount[k];
  return s;
}

gboolean
tm_rate_window_max (const guint64 *bounds,
                    const guint64 *amount,
                    gsize          n,
                    gsize          min_gcs,
                    gsize          max_gcs,
                    gsize         *first,
                    gsize         *last,
                    double        *per_ns)
{
  g_autofree guint64 *s = NULL;
  /* best rate as a fraction, compared by exact cross products: no
   * division in the inner loop, and ties are exact */
  gint64 best_num = -1, best_den = 1;
  gsize best_a = 0, best_b = 0, kcap;

  g_return_val_if_fail (bounds != NULL && amount != NULL, FALSE);
  if (min_gcs < 1 || min_gcs > max_gcs || n < min_gcs)
    return FALSE;

  /* A window of >= 2 * min_gcs GCs splits into two windows of >= min_gcs
   * GCs whose rates straddle its own (a mediant), so one of them is at
   * least as high, and the first ends earlier: under the tie rule the
   * answer is always shorter than 2 * min_gcs.  That needs every window
   * of min_gcs GCs to have a duration; if one has none, scan all sizes. */
  kcap = MIN (max_gcs, 2 * min_gcs - 1);
  for (gsize a = 0; a + min_gcs <= n && kcap < max_gcs; a++)
    if (bounds[a + min_gcs] <= bounds[a])
      kcap = max_gcs;

  s = prefix_sums (amount, n);
  for (gsize b = min_gcs; b <= n; b++)
    {
      gsize kmax = MIN (kcap, b);
      guint64 sb = s[b], tb = bounds[b];

      for (gsize k = min_gcs; k <= kmax; k++)
        {
          gsize a = b - k;
          gint64 num, den;

          if (tb <= bounds[a])
            continue;
          num = (gint64) (sb - s[a]);
          den = (gint64) (tb - bounds[a]);
          if ((TmWide) num * best_den > (TmWide) best_num * den)
            {
              best_num = num;
              best_den = den;
              best_a = a;
              best_b = b;
            }
        }
    }

  if (best_num < 0)
    return FALSE;
  *first = best_a;
  *last = best_b - 1;
  *per_ns = (double) best_num / (double) best_den;
  return TRUE;
}

/* Quickselect with three-way partitioning and a pseudo-random pivot (so
 * no input order makes it quadratic): the k-th smallest of v[0..n-1]. */
static double
select_kth (double *v, gsize n, gsize k)
{
  gsize lo = 0, hi = n;
  guint64 rng = 0x9e3779b97f4a7c15u;

  while (hi - lo > 1)
    {
      double pivot, tmp;
      gsize lt = lo, i = lo, gt = hi;

      rng ^= rng << 13;
      rng ^= rng >> 7;
      rng ^= rng << 17;
      pivot = v[lo + rng % (hi - lo)];
      while (i < gt)
        {
          if (v[i] < pivot)
            {
              tmp = v[lt]; v[lt] = v[i]; v[i] = tmp;
              lt++, i++;
            }
          else if (v[i] > pivot)
            {
              gt--;
              tmp = v[gt]; v[gt] = v[i]; v[i] = tmp;
            }
          else
            i++;
        }
      if (k < lt)
        hi = lt;
      else if (k >= gt)
        lo = gt;
      else
        return pivot;
    }
  return v[lo];
}

double
tm_rate_window_median (const guint64 *bounds,
                       const guint64 *amount,
                       gsize          n,
                       gsize          n_gcs)
{
  g_autofree guint64 *s = NULL;
  g_autofree double *rates = NULL;
  gsize m = 0;

  g_return_val_if_fail (bounds != NULL && amount != NULL, 0);
  if (n_gcs < 1 || n < n_gcs)
    return 0;

  s = prefix_sums (amount, n);
  rates = g_new (double, n - n_gcs + 1);
  for (gsize b = n_gcs; b <= n; b++)
    {
      gsize a = b - n_gcs;

      if (bounds[b] <= bounds[a])
        continue;
      rates[m++] = (double) (s[b] - s[a]) / (double) (bounds[b] - bounds[a]);
    }
  if (m == 0)
    return 0;
  /* the upper median for an even count */
  return select_kth (rates, m, m / 2);
}
