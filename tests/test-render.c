/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chart renderer: nice axis ticks with units, peak-keeping
 * downsampling (against a brute-force bucket scan), the timeline model
 * built from a trace made with the real builder, and an end-to-end render
 * where a one-GC spike among thousands must stay visible.  The windows'
 * lane: overlapping windows in separate rows, a window narrower than a
 * pixel kept visible and hit where it is drawn, no tint over the data;
 * a legend too wide for one row wraps instead of dropping entries; the
 * TrendViz log scale.
 */
#include "tm-config.h"
#include "tm-axis.h"
#include "tm-chart.h"
#include "tm-chart-lane.h"
#include "tm-render-trend.h"
#include "tm-downsample.h"
#include "tm-timeline-model.h"
#include "tm-trace-builder.h"
#include "tm-error.h"

#include <glib/gstdio.h>

#include <math.h>
#include <string.h>

static void
check_ticks (TmAxisUnit unit, double min, double max, guint max_ticks, gboolean extend,
             const char *const *labels)
{
  TmAxisTicks t;
  guint n = g_strv_length ((char **) labels);

  tm_axis_ticks (&t, unit, min, max, max_ticks, extend);
  g_assert_cmpuint (t.n_ticks, <=, max_ticks + 1);
  for (guint i = 0; i < t.n_ticks; i++)
    {
      g_autofree char *label = tm_axis_format_tick (&t, t.ticks[i]);
      /* Every tick is a multiple of the step, inside the range. */
      g_assert_cmpfloat (fabs (t.ticks[i] / t.step - round (t.ticks[i] / t.step)), <, 1e-6);
      g_assert_cmpfloat (t.ticks[i], >=, t.min - 1e-9 * t.step);
      g_assert_cmpfloat (t.ticks[i], <=, t.max + 1e-6 * t.step);
      if (i < n)
        g_assert_cmpstr (label, ==, labels[i]);
    }
  g_assert_cmpuint (t.n_ticks, ==, n);
  if (extend)
    g_assert_cmpfloat (t.ticks[t.n_ticks - 1], >=, max);
}

static void
test_axis_ticks (void)
{
  const char *bytes[] = { "0 MiB", "1 MiB", "2 MiB", "3 MiB", "4 MiB", NULL };
  const char *half_mib[] = { "0.0 MiB", "0.5 MiB", "1.0 MiB", "1.5 MiB", "2.0 MiB", NULL };
  const char *kib[] = { "0 KiB", "200 KiB", "400 KiB", "600 KiB", "800 KiB", NULL };
  const char *gib[] = { "0 GiB", "2 GiB", "4 GiB", "6 GiB", NULL };
  const char *secs[] = { "0 s", "5 s", "10 s", "15 s", "20 s", NULL };
  const char *mins[] = { "0 min", "2 min", "4 min", "6 min", "8 min", "10 min", NULL };
  const char *ms[] = { "0 ms", "50 ms", "100 ms", "150 ms", NULL };
  const char *offset_s[] = { "4 s", "5 s", "6 s", "7 s", NULL };
  const char *percent[] = { "0%", "5%", "10%", "15%", NULL };
  const char *counts[] = { "0", "5K", "10K", "15K", "20K", NULL };
  const char *small[] = { "0", "1", "2", "3", NULL };

  check_ticks (TM_AXIS_UNIT_BYTES, 0, 3.5 * 1048576, 6, TRUE, bytes);
  check_ticks (TM_AXIS_UNIT_BYTES, 0, 1.9 * 1048576, 6, TRUE, half_mib);
  check_ticks (TM_AXIS_UNIT_BYTES, 0, 750 * 1024.0, 5, TRUE, kib);
  check_ticks (TM_AXIS_UNIT_BYTES, 0, 5.2 * 1073741824.0, 4, TRUE, gib);
  check_ticks (TM_AXIS_UNIT_TIME_NS, 0, 20.43e9, 8, FALSE, secs);
  check_ticks (TM_AXIS_UNIT_TIME_NS, 0, 600e9, 6, FALSE, mins);
  check_ticks (TM_AXIS_UNIT_TIME_NS, 0, 150e6, 4, FALSE, ms);
  check_ticks (TM_AXIS_UNIT_TIME_NS, 3.3e9, 7.9e9, 6, FALSE, offset_s);
  check_ticks (TM_AXIS_UNIT_FRACTION, 0, 0.15, 4, TRUE, percent);
  check_ticks (TM_AXIS_UNIT_COUNT, 0, 19000, 5, TRUE, counts);
  /* Counts never get fractional steps. */
  check_ticks (TM_AXIS_UNIT_COUNT, 0, 2.5, 10, TRUE, small);

  g_assert_cmpfloat (tm_axis_nice_number (0.7, FALSE), ==, 1);
  g_assert_cmpfloat (tm_axis_nice_number (1.2, FALSE), ==, 2);
  g_assert_cmpfloat (tm_axis_nice_number (3, FALSE), ==, 5);
  g_assert_cmpfloat (tm_axis_nice_number (7, FALSE), ==, 10);
  g_assert_cmpfloat (tm_axis_nice_number (0.0031, FALSE), ==, 0.005);
  g_assert_cmpfloat (tm_axis_nice_number (1.2, TRUE), ==, 1);
  g_assert_cmpfloat (tm_axis_nice_number (4, TRUE), ==, 5);

  /* Degenerate ranges still give labelled axes. */
  {
    TmAxisTicks t;
    tm_axis_ticks (&t, TM_AXIS_UNIT_BYTES, 0, 0, 5, TRUE);
    g_assert_cmpuint (t.n_ticks, >=, 2);
    tm_axis_ticks (&t, TM_AXIS_UNIT_TIME_NS, 5, NAN, 5, FALSE);
    g_assert_cmpuint (t.n_ticks, >=, 1);
  }
}

/* Brute force: min and max of each bucket must appear in the output. */
static void
check_downsample (const double *x, const double *y, gsize n, double x0, double x1, guint buckets)
{
  g_autofree double *ox = g_new (double, TM_DOWNSAMPLE_CAPACITY (buckets));
  g_autofree double *oy = g_new (double, TM_DOWNSAMPLE_CAPACITY (buckets));
  gsize m = tm_downsample_min_max (x, y, n, x0, x1, buckets, ox, oy);
  double width = (x1 - x0) / buckets;

  g_assert_cmpuint (m, <=, TM_DOWNSAMPLE_CAPACITY (buckets));
  for (gsize i = 1; i < m; i++)
    g_assert_cmpfloat (ox[i], >=, ox[i - 1]);

  for (guint b = 0; b < buckets; b++)
    {
      double lo = x0 + b * width, hi = b == buckets - 1 ? x1 : x0 + (b + 1) * width;
      double mn = INFINITY, mx = -INFINITY;
      gboolean found_min = FALSE, found_max = FALSE;

      for (gsize i = 0; i < n; i++)
        if (x[i] >= lo && (x[i] < hi || (b == buckets - 1 && x[i] <= hi)) && !isnan (y[i]))
          {
            mn = MIN (mn, y[i]);
            mx = MAX (mx, y[i]);
          }
      if (!isfinite (mn))
        continue;
      for (gsize i = 0; i < m; i++)
        {
          if (ox[i] >= lo && ox[i] <= hi && oy[i] == mn)
            found_min = TRUE;
          if (ox[i] >= lo && ox[i] <= hi && oy[i] == mx)
            found_max = TRUE;
        }
      g_assert_true (found_min);
      g_assert_true (found_max);
    }
}

static void
test_downsample_keeps_peaks (void)
{
  const gsize n = 100000;
  g_autofree double *x = g_new (double, n);
  g_autofree double *y = g_new (double, n);
  double ox[TM_DOWNSAMPLE_CAPACITY (100)], oy[TM_DOWNSAMPLE_CAPACITY (100)];
  gboolean spike = FALSE, dip = FALSE;
  GRand *rand = g_rand_new_with_seed (42);
  gsize m;

  for (gsize i = 0; i < n; i++)
    {
      x[i] = i * 10.0 + g_rand_double_range (rand, 0, 5);
      y[i] = g_rand_double_range (rand, 0, 1);
    }
  y[54321] = 1000;
  y[7777] = -500;

  m = tm_downsample_min_max (x, y, n, x[0], x[n - 1], 100, ox, oy);
  g_assert_cmpuint (m, <=, 200);
  g_assert_cmpuint (m, >=, 100);
  for (gsize i = 0; i < m; i++)
    {
      if (oy[i] == 1000 && ox[i] == x[54321])
        spike = TRUE;
      if (oy[i] == -500 && ox[i] == x[7777])
        dip = TRUE;
    }
  g_assert_true (spike);
  g_assert_true (dip);

  /* Every bucket's extremes, for several zoom levels and bucket counts. */
  check_downsample (x, y, 5000, x[0], x[4999], 37);
  check_downsample (x, y, 5000, x[1000], x[1500], 200);   /* more buckets than points in places */
  check_downsample (x, y, 5000, x[10], x[4000], 1);
  g_rand_free (rand);
}

static void
test_downsample_edges (void)
{
  double x[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  double y[] = { 5, NAN, 7, 1, 9, 2, 8, 3, NAN, 4 };
  double ox[TM_DOWNSAMPLE_CAPACITY (4)], oy[TM_DOWNSAMPLE_CAPACITY (4)];
  gsize m;

  /* Range 3..6: the neighbours 2 (before) and 7 (after) are kept. */
  m = tm_downsample_min_max (x, y, 10, 3, 6, 4, ox, oy);
  g_assert_cmpfloat (ox[0], ==, 2);
  g_assert_cmpfloat (ox[m - 1], ==, 7);
  for (gsize i = 0; i < m; i++)
    g_assert_false (isnan (oy[i]));

  /* NaN neighbours are skipped: before 2 comes 0 (1 is NaN). */
  m = tm_downsample_min_max (x, y, 10, 2, 7, 2, ox, oy);
  g_assert_cmpfloat (ox[0], ==, 0);
  m = tm_downsample_min_max (x, y, 10, 5, 7.5, 2, ox, oy);
  g_assert_cmpfloat (ox[m - 1], ==, 9);   /* 8 is NaN */

  g_assert_cmpuint (tm_downsample_min_max (x, y, 0, 0, 1, 4, ox, oy), ==, 0);
  g_assert_cmpuint (tm_downsample_min_max (x, y, 10, 5, 5, 4, ox, oy), ==, 0);
  g_assert_cmpuint (tm_downsample_lower_bound (x, 10, 4.5), ==, 5);
  g_assert_cmpuint (tm_downsample_lower_bound (x, 10, 100), ==, 10);
}

/* A trace built by the real builder: spaces Old (id 1) and Eden (id 2);
 * GC i starts at i*100 ms, pauses 10 ms (GC 3: 50 ms, major). */
static TmTrace *
make_trace (guint n_gcs, guint spike_gc)
{
  TmTraceBuilder *b = tm_trace_builder_new ("test.tmtrace", "tmtrace");
  TmTraceHeader h = { .version = 1, .vm_name = "test", .pointer_size = 8 };
  g_autoptr(GError) error = NULL;

  tm_trace_builder_header (b, &h);
  g_assert_true (tm_trace_builder_space (b, 2, TM_SPACE_KIND_YOUNG, "Eden", &error));
  g_assert_true (tm_trace_builder_space (b, 1, TM_SPACE_KIND_OLD, "Old", &error));
  g_assert_true (tm_trace_builder_space (b, 3, TM_SPACE_KIND_NON_HEAP, "Metaspace", &error));
  for (guint i = 1; i <= n_gcs; i++)
    {
      guint64 start = i * 100000000ull;
      guint64 pause = i == 3 ? 50000000ull : 10000000ull;
      guint64 old = 1000000 + i * 1000;
      guint64 eden = i == spike_gc ? 30000000 : 4000000;
      TmSpaceUsageRecord u[3] = {
        { 1, old, old, old * 2 },
        { 2, eden, 0, 8000000 },
        { 3, 500000, 500000, 600000 },
      };

      g_assert_true (tm_trace_builder_gc_start (b, i, start, i == 3 ? TM_GC_KIND_MAJOR : TM_GC_KIND_MINOR,
                                                "G1", "Allocation Failure", &error));
      g_assert_true (tm_trace_builder_gc_end (b, i, start + pause, pause, 3, u, &error));
    }
  tm_trace_builder_end (b, 0, 0, n_gcs, (n_gcs + 1) * 100000000ull);
  return tm_trace_builder_finish (b);
}

static void
test_timeline_model (void)
{
  g_autoptr(TmTrace) trace = make_trace (10, 0);
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (trace);
  TmRangeStats st;
  guint a, b;

  g_assert_cmpuint (m->n_gcs, ==, 10);
  /* Non-heap spaces are left out; old at the bottom, young on top. */
  g_assert_cmpuint (m->n_spaces, ==, 2);
  g_assert_cmpstr (m->space_names[0], ==, "Old");
  g_assert_cmpstr (m->space_names[1], ==, "Eden");

  /* GC 2: old 1,002,000 bytes; eden 4,000,000 before and 0 after. */
  g_assert_cmpfloat (m->used_before[1], ==, 5002000);
  g_assert_cmpfloat (m->used_after[1], ==, 1002000);
  g_assert_cmpfloat (m->layer_top[0 * 20 + 2], ==, 1002000);          /* old, vertex "start of GC 2" */
  g_assert_cmpfloat (m->layer_top[1 * 20 + 2], ==, 5002000);          /* old + eden */
  g_assert_cmpfloat (m->layer_top[1 * 20 + 3], ==, 1002000);          /* after GC 2 */
  g_assert_cmpfloat (m->saw_x[2], ==, 200e6);
  g_assert_cmpfloat (m->saw_x[3], ==, 210e6);

  /* Overhead: 10 ms paused of 100 ms since the previous GC ended. */
  g_assert_cmpfloat (fabs (m->overhead[1] - 0.10), <, 1e-9);
  g_assert_cmpfloat (fabs (m->overhead[2] - 50.0 / 140.0), <, 1e-9);   /* 50 ms of 210..350 ms */

  g_assert_cmpuint (tm_timeline_model_gc_at (m, 0), ==, 1);
  g_assert_cmpuint (tm_timeline_model_gc_at (m, 305e6), ==, 3);
  g_assert_cmpuint (tm_timeline_model_gc_at (m, 340e6), ==, 3);   /* nearer GC 3's end than GC 4's start */
  g_assert_cmpuint (tm_timeline_model_gc_at (m, 380e6), ==, 4);
  g_assert_cmpuint (tm_timeline_model_gc_at (m, 1e12), ==, 10);

  tm_timeline_model_gc_range (m, 250e6, 520e6, &a, &b);
  g_assert_cmpuint (a, ==, 3);
  g_assert_cmpuint (b, ==, 5);

  g_assert_true (tm_timeline_model_range_stats (m, 2, 4, &st));
  g_assert_cmpuint (st.n_gcs, ==, 3);
  g_assert_cmpuint (st.n_major, ==, 1);
  g_assert_cmpfloat (st.pause_ns, ==, 70e6);
  g_assert_cmpfloat (st.freed_bytes, ==, 3 * 4000000.0);
  g_assert_cmpfloat (st.used_after_last - st.used_after_first, ==, 2000);
  g_assert_true (isnan (st.reachable_first));
  g_assert_false (tm_timeline_model_range_stats (m, 4, 2, &st));
  g_assert_false (tm_timeline_model_range_stats (m, 1, 11, &st));
}

/* Data is drawn in blues; background, grid and text are white or gray. */
static gboolean
pixel_is_data (cairo_surface_t *s, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  guint32 px = *(const guint32 *) (data + y * stride + x * 4);
  int r = (px >> 16) & 0xff, b = px & 0xff;

  return b - r > 40;
}

/* 3000 GCs drawn into 300 pixels: the one GC whose young generation is
 * 7x the others must still reach its height. */
static void
test_render_spike_survives (void)
{
  const guint n = 3000, spike = 1234;
  g_autoptr(TmTrace) trace = make_trace (n, spike);
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (trace);
  TmChartOptions o;
  TmChartLayout l;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 400, 240);
  cairo_t *cr = cairo_create (surface);
  int spike_x, probe_y, hits = 0;

  tm_chart_options_init (&o, TM_CHART_MEMORY, m, 400, 240);
  o.show_legend = FALSE;
  tm_chart_render (cr, m, &o, &l);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  g_assert_cmpfloat (l.width, >, 200);
  g_assert_cmpfloat (l.t1, ==, m->duration_ns);
  spike_x = (int) tm_chart_layout_ns_to_x (&l, m->start_ns[spike - 1]);
  /* Halfway up the plot is far above every GC but the spike (34 MB vs 5-7 MB). */
  probe_y = (int) (l.y + l.height * 0.5);
  for (int dx = -1; dx <= 1; dx++)
    hits += pixel_is_data (surface, spike_x + dx, probe_y);
  g_assert_cmpint (hits, >, 0);
  g_assert_false (pixel_is_data (surface, spike_x + 40, probe_y));
  g_assert_false (pixel_is_data (surface, spike_x - 40, probe_y));
  /* ... while the bottom of the plot is data everywhere. */
  g_assert_true (pixel_is_data (surface, spike_x + 40, (int) (l.y + l.height - 3)));
  cairo_surface_destroy (surface);
}

static gboolean
is_red (guint32 px)
{
  return ((px >> 16) & 0xff) > 150 && ((px >> 8) & 0xff) < 80 && (px & 0xff) < 80;
}

/* An OutOfMemoryError is drawn as a red line where it was thrown, and
 * nowhere else. */
static void
test_render_oom (void)
{
  TmTraceBuilder *b = tm_trace_builder_new ("oom.tmtrace", "tmtrace");
  TmTraceHeader h = { .version = 1, .vm_name = "test", .pointer_size = 8 };
  TmSpaceUsageRecord u[1] = { { 1, 4000000, 1000000, 8000000 } };
  g_autoptr(TmTrace) trace = NULL;
  g_autoptr(TmTimelineModel) m = NULL;
  TmChartOptions o;
  TmChartLayout l;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 400, 240);
  cairo_t *cr = cairo_create (surface);
  const guint8 *data;
  int stride, oom_x, red_rows = 0;

  tm_trace_builder_header (b, &h);
  g_assert_true (tm_trace_builder_space (b, 1, TM_SPACE_KIND_OLD, "Old", NULL));
  g_assert_true (tm_trace_builder_thread (b, 1, "main", NULL));
  for (guint i = 1; i <= 10; i++)
    {
      g_assert_true (tm_trace_builder_gc_start (b, i, i * 100000000ull, TM_GC_KIND_MINOR, "Copy", "", NULL));
      g_assert_true (tm_trace_builder_gc_end (b, i, i * 100000000ull + 1000000, 1000000, 1, u, NULL));
    }
  g_assert_true (tm_trace_builder_oom (b, 750000000ull, 7, 1, TM_OOM_JAVA_HEAP, "Java heap space", NULL));
  trace = tm_trace_builder_finish (b);
  m = tm_timeline_model_new (trace);
  g_assert_cmpuint (m->n_oom, ==, 1);
  g_assert_cmpfloat (m->oom_ns[0], ==, 750000000.0);

  tm_chart_options_init (&o, TM_CHART_MEMORY, m, 400, 240);
  o.show_legend = FALSE;
  tm_chart_render (cr, m, &o, &l);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  oom_x = (int) tm_chart_layout_ns_to_x (&l, 750000000.0);
  for (int y = (int) l.y + 2; y < (int) (l.y + l.height) - 2; y++)
    {
      gboolean red_at = FALSE;

      /* the line is 2 px wide on a pixel boundary: one of three columns */
      for (int dx = -1; dx <= 1; dx++)
        red_at |= is_red (*(const guint32 *) (data + y * stride + (oom_x + dx) * 4));
      red_rows += red_at;
      g_assert_false (is_red (*(const guint32 *) (data + y * stride + (oom_x + 30) * 4)));
    }
  /* the whole height of the plot */
  g_assert_cmpint (red_rows, >=, (int) l.height - 8);
  cairo_surface_destroy (surface);
}

static void
test_png_size (void)
{
  g_autoptr(TmTrace) trace = make_trace (50, 0);
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (trace);
  g_autofree char *dir = g_dir_make_tmp ("tm-render-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "chart.png", NULL);
  g_autoptr(GError) error = NULL;
  TmChartOptions o;
  cairo_surface_t *s;

  for (TmChartKind k = 0; k < TM_CHART_N_KINDS; k++)
    {
      tm_chart_options_init (&o, k, m, 640, 200 + k);
      g_assert_true (tm_chart_write_png (m, &o, path, &error));
      g_assert_no_error (error);
      s = cairo_image_surface_create_from_png (path);
      g_assert_cmpint (cairo_image_surface_get_width (s), ==, 640);
      g_assert_cmpint (cairo_image_surface_get_height (s), ==, 200 + k);
      cairo_surface_destroy (s);
    }
  /* A trace cut before its first GC still draws labelled, empty charts. */
  {
    g_autoptr(TmTrace) empty = make_trace (0, 0);
    g_autoptr(TmTimelineModel) em = tm_timeline_model_new (empty);

    g_assert_cmpuint (em->n_gcs, ==, 0);
    g_assert_cmpuint (tm_timeline_model_gc_at (em, 5), ==, 0);
    for (TmChartKind k = 0; k < TM_CHART_N_KINDS; k++)
      {
        tm_chart_options_init (&o, k, em, 300, 120);
        o.hover_gc = 1;
        g_assert_true (tm_chart_write_png (em, &o, path, &error));
        g_assert_no_error (error);
      }
  }

  tm_chart_options_init (&o, TM_CHART_MEMORY, m, 5, 5);
  g_assert_false (tm_chart_write_png (m, &o, path, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_remove (path);
  g_rmdir (dir);
}

/* Points exactly on bucket edges, where (x - x0) / width rounds down one
 * bucket short of x's own: every point is still taken, and the scan ends
 * (it once looped for ever on such a point). */
static void
test_downsample_rounding (void)
{
  double x[43], y[43], ox[TM_DOWNSAMPLE_CAPACITY (2000)], oy[TM_DOWNSAMPLE_CAPACITY (2000)];

  for (guint i = 0; i < G_N_ELEMENTS (x); i++)
    {
      x[i] = i * 5e7;
      y[i] = i;
    }
  for (guint buckets = 1000; buckets <= 2000; buckets++)
    {
      gsize n = tm_downsample_min_max (x, y, G_N_ELEMENTS (x), 0, 2.1e9, buckets, ox, oy);
      g_assert_cmpuint (n, ==, G_N_ELEMENTS (x));   /* one point per bucket here: all kept */
    }
}


static void
test_lane_geometry (void)
{
  /* 1 ms per pixel from x = 100 */
  TmChartLayout l = { .x = 100, .y = 80, .width = 1000, .height = 200, .t0 = 0, .t1 = 1e9 };
  const TmChartBand bands[] = {
    { TM_WINDOW_LEAK, 0.1e9, 0.9e9, TRUE },
    { TM_WINDOW_LEAK_PEAK, 0.5e9, 0.6e9, TRUE },
    { TM_WINDOW_GC_OVERHEAD, 0.3e9, 0.3e9 + 1000, TRUE },   /* 1 µs: a thousandth of a pixel */
    { TM_WINDOW_CHURN, 2e9, 3e9, TRUE },                    /* not in view */
  };
  TmChartLaneSlot slots[G_N_ELEMENTS (bands)];
  guint rows = tm_chart_lane_place (bands, G_N_ELEMENTS (bands), &l, FALSE, TM_CHART_LANE_MAX_ROWS, slots);
  double row_h = tm_chart_lane_row_height (FALSE);

  g_assert_cmpuint (rows, ==, 3);
  g_assert_cmpint (slots[0].row, ==, 0);
  g_assert_cmpfloat (slots[0].x0, ==, 200);
  g_assert_cmpfloat (slots[0].x1, ==, 1000);
  g_assert_cmpint (slots[1].row, ==, 1);           /* overlaps the leak */
  g_assert_cmpint (slots[2].row, ==, 2);           /* overlaps both rows' markers */
  g_assert_cmpfloat (slots[2].x1 - slots[2].x0, ==, TM_CHART_BAND_MIN_WIDTH);
  g_assert_cmpfloat (fabs ((slots[2].x0 + slots[2].x1) / 2 - 400), <, 0.01);   /* where it is */
  g_assert_cmpint (slots[3].row, ==, -1);

  /* the hit test finds what was drawn, row by row */
  l.lane_y = 50;
  l.lane_rows = rows;
  g_assert_cmpint (tm_chart_lane_hit (bands, G_N_ELEMENTS (bands), &l, FALSE, 650, 50 + row_h * 1.5), ==, 1);
  g_assert_cmpint (tm_chart_lane_hit (bands, G_N_ELEMENTS (bands), &l, FALSE, 401, 50 + row_h * 2.5), ==, 2);
  g_assert_cmpint (tm_chart_lane_hit (bands, G_N_ELEMENTS (bands), &l, FALSE, 650, 50 + row_h * 0.5), ==, 0);
  g_assert_cmpint (tm_chart_lane_hit (bands, G_N_ELEMENTS (bands), &l, FALSE, 150, 50 + row_h * 0.5), ==, -1);
  g_assert_cmpint (tm_chart_lane_hit (bands, G_N_ELEMENTS (bands), &l, FALSE, 650, 50 + row_h * 3.5), ==, -1);

  /* with one row allowed, all share it */
  g_assert_cmpuint (tm_chart_lane_place (bands, G_N_ELEMENTS (bands), &l, TRUE, 1, slots), ==, 1);
  g_assert_cmpint (slots[1].row, ==, 0);
  /* labelled markers keep room for their names: a window starting
   * right after another's start goes to the next row */
  {
    const TmChartBand two[] = {
      { TM_WINDOW_LEAK, 0.1e9, 0.11e9, TRUE },
      { TM_WINDOW_CHURN, 0.15e9, 0.2e9, TRUE },
    };
    TmChartLaneSlot s2[2];
    g_assert_cmpuint (tm_chart_lane_place (two, 2, &l, FALSE, 3, s2), ==, 1);
    g_assert_cmpuint (tm_chart_lane_place (two, 2, &l, TRUE, 3, s2), ==, 2);
  }
}

static gboolean
pixel_is_white (cairo_surface_t *s, int x, int y)
{
  guint32 px = *(guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + x * 4);
  return (px & 0xffffff) == 0xffffff;
}

static void
test_lane_drawn (void)
{
  g_autoptr(TmTrace) trace = make_trace (100, 0);
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (trace);
  const TmChartBand bands[] = {
    { TM_WINDOW_LEAK, 2e9, 9e9, TRUE },
    { TM_WINDOW_GC_OVERHEAD, 5e9, 5e9 + 1e6, TRUE },   /* a 1 ms window, far under a pixel */
  };
  TmChartOptions o;
  TmChartLayout l, bare;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 300);
  cairo_t *cr = cairo_create (surface);
  int narrow_x, colored = 0;
  double lane_row_y;

  tm_chart_options_init (&o, TM_CHART_MEMORY, m, 600, 300);
  o.background = (TmColor) { 1, 1, 1, 1 };
  tm_chart_render (cr, m, &o, &bare);
  g_assert_cmpuint (bare.lane_rows, ==, 0);

  o.bands = bands;
  o.n_bands = G_N_ELEMENTS (bands);
  tm_chart_render (cr, m, &o, &l);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  g_assert_cmpuint (l.lane_rows, ==, 2);
  /* the lane sits above the plot, which gives it the room */
  g_assert_cmpfloat (l.lane_y, >=, bare.y - 6);
  g_assert_cmpfloat (l.y, >=, l.lane_y + 2 * tm_chart_lane_row_height (TRUE));
  /* the narrow window's marker is drawn at least the minimum width */
  narrow_x = (int) round (tm_chart_layout_ns_to_x (&l, 5e9));
  lane_row_y = l.lane_y + 2 * tm_chart_lane_row_height (TRUE) - 3;
  for (int dx = -4; dx <= 4; dx++)
    colored += !pixel_is_white (surface, narrow_x + dx, (int) lane_row_y);
  g_assert_cmpint (colored, >=, (int) TM_CHART_BAND_MIN_WIDTH - 1);
  /* no tint over the plot when no window is selected: above the data,
   * inside the leak window, the plot stays white */
  g_assert_true (pixel_is_white (surface, (int) tm_chart_layout_ns_to_x (&l, 7e9), (int) (l.y + 4)));
  cairo_surface_destroy (surface);
}

static void
test_legend_wraps (void)
{
  g_autoptr(TmTrace) trace = make_trace (20, 0);
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (trace);
  TmChartOptions o;
  TmChartLayout wide, narrow;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1600, 300);
  cairo_t *cr = cairo_create (surface);

  tm_chart_options_init (&o, TM_CHART_MEMORY, m, 1600, 300);
  tm_chart_render (cr, m, &o, &wide);
  tm_chart_options_init (&o, TM_CHART_MEMORY, m, 360, 300);
  tm_chart_render (cr, m, &o, &narrow);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  /* Eden, Old, Metaspace, Major GC do not fit beside the title in 360 px:
   * they take more rows, and the plot starts lower */
  g_assert_cmpfloat (narrow.y, >=, wide.y + 16);
}

static void
test_trend_log_scale (void)
{
  TmTrendChartLayout l = { .plot = { .x = 0, .y = 0, .width = 100, .height = 300 } };

  l.y_max = 100;
  g_assert_cmpfloat (tm_trend_chart_value_y (&l, 50), ==, 150);
  g_assert_cmpfloat (tm_trend_chart_value_y (&l, 0), ==, 300);
  l.log_scale = TRUE;
  l.y_min = 1;
  l.y_max = 1e6;
  /* a decade is the same height at any size: 1 KB beside 1 MB is readable */
  g_assert_cmpfloat (fabs (tm_trend_chart_value_y (&l, 1e3) - 150), <, 1e-9);
  g_assert_cmpfloat (fabs (tm_trend_chart_value_y (&l, 10) - 250), <, 1e-9);
  g_assert_cmpfloat (tm_trend_chart_value_y (&l, 1e6), ==, 0);
  g_assert_cmpfloat (tm_trend_chart_value_y (&l, 0), ==, 300);   /* nothing is below the bottom */
}


int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/axis-ticks", test_axis_ticks);
  g_test_add_func ("/render/downsample-keeps-peaks", test_downsample_keeps_peaks);
  g_test_add_func ("/render/downsample-edges", test_downsample_edges);
  g_test_add_func ("/render/timeline-model", test_timeline_model);
  g_test_add_func ("/render/spike-survives", test_render_spike_survives);
  g_test_add_func ("/render/png-size", test_png_size);
  g_test_add_func ("/render/oom", test_render_oom);
  g_test_add_func ("/render/downsample-rounding", test_downsample_rounding);
  g_test_add_func ("/render/lane-geometry", test_lane_geometry);
  g_test_add_func ("/render/lane-drawn", test_lane_drawn);
  g_test_add_func ("/render/legend-wraps", test_legend_wraps);
  g_test_add_func ("/render/trend-log-scale", test_trend_log_scale);
  return g_test_run ();
}
