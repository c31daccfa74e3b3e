/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window detectors of tm-windows.c on plain arrays, so that tests and
 * benchmarks can drive them with series of a known answer.  The rules,
 * tie-breaking and complexities are documented in docs/windows.md.
 *
 * Series points must have strictly increasing times; values and times
 * are expected below 2^62 (tm-windows.c clamps what it extracts from a
 * trace), so that slope comparisons are exact in 128-bit integers.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 time_ns;
  guint64 value;   /* bytes */
} TmSeriesPoint;

/* Largest time/value the detectors accept (larger ones are clamped). */
#define TM_WINDOWS_MAX_COORD (G_GUINT64_CONSTANT (1) << 62)

/* Heuristic leak window: scans forward from p[0]; a point is accepted if
 * it is greater than the previous one, or greater than the window's first
 * point and at least `tolerance` times the window's maximum so far;
 * otherwise the window restarts at that point.  Returns the index of the
 * window's first point; the window always ends at n - 1.  O(n).
 * n must be >= 1. */
gsize    tm_leak_heuristic_start   (const TmSeriesPoint *p,
                                    gsize                n,
                                    double               tolerance);

/* Fastest-growing subwindow: among all windows p[i..j] with
 * min_points <= j - i + 1 <= max_points, the one with the largest
 * (v[j] - v[i]) / (t[j] - t[i]).  Ties: the longest window, then the
 * earliest.  Exact, O(n log n) time, O(n) memory (sliding lower convex
 * hulls, see docs/windows.md).  Needs 2 <= min_points <= max_points <= n;
 * returns FALSE otherwise.  *per_s is in value units per second. */
gboolean tm_leak_peak_search       (const TmSeriesPoint *p,
                                    gsize                n,
                                    gsize                min_points,
                                    gsize                max_points,
                                    gsize               *first,
                                    gsize               *last,
                                    double              *per_s);

/* Linear-regression leak window: the windows p[i..n-1] for i from
 * n - min_points down to 0 and their least-squares slopes.  The paper
 * keeps the steepest; with noise that is often a tiny window at the end,
 * so this returns the longest window whose slope is at least
 * (1 - slack) times the steepest (slack 0: the steepest, exact ties to
 * the longer).  Returns FALSE if no window has a positive slope (or
 * min_points < 2 or > n).  O(n), two passes.  *start_fit and *end_fit
 * receive the fitted values at the window's first and last time. */
gboolean tm_leak_regression_search (const TmSeriesPoint *p,
                                    gsize                n,
                                    gsize                min_points,
                                    double               slack,
                                    gsize               *first,
                                    double              *per_s,
                                    double              *start_fit,
                                    double              *end_fit);

/* Rate windows (GC overhead, churn).  bounds has n + 1 times: bounds[0]
 * the run's start, bounds[k] the end of the k-th GC (non-decreasing);
 * amount has n values, amount[k - 1] belonging to the k-th GC (pause ns,
 * freed bytes).  A window starts at bounds[a] and ends at bounds[b] with
 * min_gcs <= b - a <= max_gcs and covers GCs a+1..b (0-based a..b-1:
 * *first = a, *last = b - 1).  Rate = sum of the amounts / (bounds[b] -
 * bounds[a]), per ns (a fraction for pauses).  Windows of zero duration
 * are skipped.  Ties: the earliest ending, then the shortest.  With
 * prefix sums, O(n * min(max_gcs - min_gcs + 1, min_gcs)): only windows
 * shorter than 2 * min_gcs can win (see docs/windows.md). */
gboolean tm_rate_window_max        (const guint64       *bounds,
                                    const guint64       *amount,
                                    gsize                n,
                                    gsize                min_gcs,
                                    gsize                max_gcs,
                                    gsize               *first,
                                    gsize               *last,
                                    double              *per_ns);

/* Median rate (per ns; the upper one for an even count) over all
 * windows of exactly n_gcs GCs
 * (zero-duration windows skipped); 0 if there are none.  O(n). */
double   tm_rate_window_median     (const guint64       *bounds,
                                    const guint64       *amount,
                                    gsize                n,
                                    gsize                n_gcs);

/* ---- evidence rules for real runs (tm-windows-evidence.c) ---- */

/* Teardown, the final drop at exit: the longest tail of the series (at
 * most max_fraction of its points, but 2 at least, and of its time span)
 * whose points all lie at or below (1 - min_drop) times the peak before
 * the tail, extended back over the fall into it.  Returns the number of
 * points before the teardown (n when there is none).  O(n). */
gsize    tm_teardown_start         (const TmSeriesPoint *p,
                                    gsize                n,
                                    double               min_drop,
                                    double               max_fraction);

/* Least-squares line through p[0..n-1]: its slope (value units per
 * second) and its values at the first and last point. */
double   tm_ls_fit                 (const TmSeriesPoint *p,
                                    gsize                n,
                                    double              *fit0,
                                    double              *fit1);

/* Points in the last third of an n-point window (at least 3). */
gsize    tm_growth_tail_points     (gsize                n);

/* Where the last third of the window p[0..n-1] starts: the later of the
 * starts of its last third of points (tm_growth_tail_points) and of its
 * last third of time, as long as 3 points remain.  Graphs are not evenly
 * spaced: they follow the GCs, which come often while a program fills a
 * cache and rarely once it only reads it, so a plateau can hold a third
 * of the time with a fifth of the points. */
gsize    tm_growth_tail_start      (const TmSeriesPoint *p,
                                    gsize                n);

/* Whether the growth of p[0..n-1] continues: the least-squares slope of
 * its last third (from tm_growth_tail_start) is at least `ratio` times the
 * slope of the whole window (ratio <= 0: any window with a positive
 * slope).  A window shorter than two thirds cannot tell and does not
 * continue.  *plateau_from: where the memory last rose to the lowest
 * value of the last third, less 5% of the window's growth, and stayed at
 * or above it.  O(n). */
gboolean tm_growth_continues       (const TmSeriesPoint *p,
                                    gsize                n,
                                    double               ratio,
                                    double              *slope_all,
                                    double              *slope_tail,
                                    gsize               *plateau_from);

/* Index of the first restart of the scan of tm_leak_heuristic_start
 * (n when it never restarts): the end of the run's first cycle, which
 * may be initialization (the paper's Figure 3, spike at start). */
gsize    tm_leak_first_restart     (const TmSeriesPoint *p,
                                    gsize                n,
                                    double               tolerance);

/* Whether the window p[first..n-1] reaches new heights: the highest
 * point of its last third lies at least a sixth of the window's growth
 * (its maximum minus its first point) above every point from
 * MIN (from, first) to the start of that third.  A sawtooth that rises
 * again to where it already was does not.  *earlier_max / *earlier_at:
 * that earlier highest point.  O(n). */
gboolean tm_growth_new_high        (const TmSeriesPoint *p,
                                    gsize                n,
                                    gsize                first,
                                    gsize                from,
                                    guint64             *earlier_max,
                                    gsize               *earlier_at);

/* Time-weighted median rate (per ns) of all windows of exactly n_gcs
 * GCs, each weighted by its duration: the rate the run keeps for half of
 * its time, which a burst of many short GC intervals cannot capture.
 * 0 if there are no windows.  O(n) expected. */
double   tm_rate_window_time_median (const guint64      *bounds,
                                     const guint64      *amount,
                                     gsize               n,
                                     gsize               n_gcs);
/* The same over the calm windows only: those whose pauses (pause[] per
 * GC, as amount[]) take less than max_overhead of their duration; over
 * all windows when none is calm. */
double   tm_rate_window_time_median_calm (const guint64 *bounds,
                                          const guint64 *amount,
                                          const guint64 *pause,
                                          double         max_overhead,
                                          gsize          n,
                                          gsize          n_gcs);

G_END_DECLS
