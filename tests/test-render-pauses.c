/* SPDX-License-Identifier: GPL-3.0-or-later
 * The GC-log charts on real logs with known pauses: the pause chart's
 * bars reach each pause's length on its log scale, the histogram counts
 * every pause, the phase lane draws the concurrent phases and stalls. */
#include "tm-config.h"
#include "tm-chart.h"
#include "tm-chart-pauses.h"
#include "gclog-test-util.h"

#include <math.h>

static guint32
pixel (cairo_surface_t *s, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (s);
  return *(const guint32 *) (data + y * cairo_image_surface_get_stride (s) + x * 4) & 0xffffff;
}

/* close to the colour (antialiasing and alpha blur it a little) */
static gboolean
near (guint32 px, TmColor c, double alpha)
{
  double r = ((px >> 16) & 0xff) / 255.0, g = ((px >> 8) & 0xff) / 255.0, b = (px & 0xff) / 255.0;
  double er = c.red * alpha + (1 - alpha), eg = c.green * alpha + (1 - alpha), eb = c.blue * alpha + (1 - alpha);
  return fabs (r - er) < 0.12 && fabs (g - eg) < 0.12 && fabs (b - eb) < 0.12;
}

static double
expected_y (const TmChartLayout *l, double lo, double hi, double v)
{
  return l->y + l->height - (log10 (v) - log10 (lo)) / (log10 (hi) - log10 (lo)) * l->height;
}

/* JDK 1.4.2 Serial: GC 0.0084272 s at 0.000, Full GC 0.2858561 s at
 * 11.653, GC 0.8142078 s at 22.879 (it collected the old generation too:
 * full), Full GC 0.8036514 s at 31.788 (README).  Longest / shortest is
 * 97: a log scale from 1 ms to 1 s. */
static void
test_pause_bars (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("legacy-serial-SampleSun1_4_2PrintGCDetails.txt");
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (t);
  const double at[] = { 0.0, 11.653e9, 22.879e9, 31.788e9 };
  const double len[] = { 8427200, 285856100, 814207800, 803651400 };
  const TmPauseClass cls[] = { TM_PAUSE_YOUNG, TM_PAUSE_FULL, TM_PAUSE_FULL, TM_PAUSE_FULL };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 300);
  cairo_t *cr = cairo_create (surface);
  TmChartOptions o;
  TmChartLayout l;

  g_assert_cmpuint (m->n_pauses, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpfloat (fabs (m->pause_at[i] - at[i]), <, 1e3);
      g_assert_cmpfloat (m->pause_len[i], ==, len[i]);
      g_assert_cmpuint (m->pause_class[i], ==, cls[i]);
    }
  tm_chart_options_init (&o, TM_CHART_PAUSES, m, 800, 300);
  tm_chart_render (cr, m, &o, &l);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  for (guint i = 0; i < 4; i++)
    {
      TmColor c = tm_chart_pause_color (cls[i], FALSE);
      int x = (int) floor (tm_chart_layout_ns_to_x (&l, at[i]));
      double y = expected_y (&l, 1e6, 1e9, len[i]);
      gboolean in = FALSE, above = FALSE;
      /* the bar (2 px wide, with a dot on top) reaches the pause's length and no further */
      for (int dx = 0; dx <= 1; dx++)
        {
          in |= near (pixel (surface, x + dx, (int) y + 6), c, 0.8);
          above |= near (pixel (surface, x + dx, (int) y - 6), c, 0.8) || near (pixel (surface, x + dx, (int) y - 6), c, 1);
        }
      g_assert_true (in);
      g_assert_false (above);
    }
  cairo_surface_destroy (surface);
}

/* JDK 17 G1 (README): 196 pause lines, 116 young of which 2 mixed, 40
 * remarks and 40 cleanups. */
static void
test_histogram (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("jdk17-g1.log");
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (t);
  TmChartOptions o;
  TmPauseHistogram h;
  guint sum = 0, per_class[TM_PAUSE_N_CLASSES] = { 0 };

  g_assert_cmpuint (m->n_pauses, ==, 196);
  g_assert_cmpuint (m->n_pauses_of_class[TM_PAUSE_YOUNG], ==, 114);
  g_assert_cmpuint (m->n_pauses_of_class[TM_PAUSE_MIXED], ==, 2);
  g_assert_cmpuint (m->n_pauses_of_class[TM_PAUSE_CYCLE], ==, 80);
  tm_chart_options_init (&o, TM_CHART_PAUSE_HISTOGRAM, m, 600, 200);
  tm_chart_histogram_bins (m, &o, &h);
  for (guint b = 0; b < h.n_bins; b++)
    for (guint c = 0; c < TM_PAUSE_N_CLASSES; c++)
      {
        sum += h.count[b][c];
        per_class[c] += h.count[b][c];
      }
  g_assert_cmpuint (sum, ==, 196);
  g_assert_cmpuint (h.n_pauses, ==, 196);
  g_assert_cmpuint (per_class[TM_PAUSE_MIXED], ==, 2);
  /* whole decades of bins 1-2, 2-5, 5-10: from 1 us (the shortest, a 4 us
   * cleanup) to 100 ms (the longest, 14 ms) */
  g_assert_cmpuint (h.n_bins, ==, 15);
  g_assert_cmpfloat (tm_chart_histogram_edge (&h, 0), ==, 1e3);
  g_assert_cmpfloat (tm_chart_histogram_edge (&h, 1), ==, 2e3);
  g_assert_cmpfloat (tm_chart_histogram_edge (&h, 15), ==, 1e8);
  /* a selection holds fewer */
  o.has_selection = TRUE;
  o.sel_start_ns = 0;
  o.sel_end_ns = 1e9;
  tm_chart_histogram_bins (m, &o, &h);
  g_assert_cmpuint (h.n_pauses, >, 0);
  g_assert_cmpuint (h.n_pauses, <, 196);
}

/* The memory chart, 800 x 300, from t0 (to t1 unless 0). */
static cairo_surface_t *
render_memory (TmTimelineModel *m, double t0, double t1, TmChartLayout *l)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 300);
  cairo_t *cr = cairo_create (surface);
  TmChartOptions o;

  tm_chart_options_init (&o, TM_CHART_MEMORY, m, 800, 300);
  o.view_start_ns = t0;
  if (t1 > 0)
    o.view_end_ns = t1;
  tm_chart_render (cr, m, &o, l);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* ZGC: the pause chart shows the three single pauses of the cycle
 * (8, 11 and 6 µs), not the cycle's sum; the lane marks the stalls. */
static void
test_zgc_lane (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("ujl-zgc-gc-other.txt");
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (t);
  cairo_surface_t *surface;
  TmChartLayout l;
  double lane;
  int stall_x;

  g_assert_cmpuint (m->n_pauses, ==, 3);
  g_assert_cmpfloat (m->pause_len[0], ==, 8000);
  g_assert_cmpfloat (m->pause_len[1], ==, 11000);
  g_assert_cmpfloat (m->pause_len[2], ==, 6000);
  g_assert_cmpuint (m->n_phases_of_kind[TM_GC_PHASE_STALL], ==, 14);
  g_assert_true (tm_chart_has_phase_lane (m));
  g_assert_cmpfloat (tm_timeline_model_first_event (m), ==, 200343e6);

  surface = render_memory (m, tm_timeline_model_first_event (m), 0, &l);
  lane = l.y + l.height + 3;
  /* the concurrent mark (200.344 s to 201.507 s) fills the lane's middle */
  g_assert_true (near (pixel (surface, (int) tm_chart_layout_ns_to_x (&l, 200.9e9), (int) (lane + TM_CHART_PHASE_LANE / 2)),
                       tm_chart_concurrent_color (FALSE), 0.95));
  /* the first stall (201.482 s) is a triangle at the lane's top */
  stall_x = (int) round (tm_chart_layout_ns_to_x (&l, 201.482e9 - 706e3));
  g_assert_true (near (pixel (surface, stall_x, (int) lane + 1), tm_chart_stall_color (FALSE), 1.0));
  /* a tooltip finds the stall there, and the mark phase in the middle */
  g_assert_cmpuint (m->phase_kind[tm_timeline_model_phase_at (m, 201.482e9 - 706e3, 1e6)], ==, TM_GC_PHASE_STALL);
  g_assert_cmpuint (m->phase_kind[tm_timeline_model_phase_at (m, 200.9e9, 1e6)], ==, TM_GC_PHASE_CONCURRENT);
  cairo_surface_destroy (surface);
}

/* Shenandoah: a degenerated GC is a bar of its own colour in the lane,
 * however short it is at the chart's scale */
static void
test_degenerated_marker (void)
{
  g_autoptr(TmTrace) t = gclog_test_load ("legacy-shenandoah-SampleOpenJdk1_8_0-332.txt");
  g_autoptr(TmTimelineModel) m = tm_timeline_model_new (t);
  cairo_surface_t *surface;
  TmChartLayout l;
  int deg = -1, lane_y, n_marked = 0;
  double x;

  for (guint i = 0; i < m->n_phases; i++)
    if (m->phase_kind[i] == TM_GC_PHASE_DEGENERATED)
      deg = (int) i;
  g_assert_cmpint (deg, >=, 0);
  /* 184.489 ms in a 60 s view: less than 3 px, still 3 px wide */
  surface = render_memory (m, m->phase_start[deg] - 30e9, m->phase_end[deg] + 30e9, &l);
  x = tm_chart_layout_ns_to_x (&l, (m->phase_start[deg] + m->phase_end[deg]) / 2);
  lane_y = (int) (l.y + l.height + 3 + TM_CHART_PHASE_LANE / 2);
  g_assert_true (near (pixel (surface, (int) floor (x), lane_y), tm_chart_pause_color (TM_PAUSE_DEGENERATED, FALSE), 1.0));
  for (int dx = -5; dx <= 5; dx++)
    if (near (pixel (surface, (int) floor (x) + dx, lane_y), tm_chart_pause_color (TM_PAUSE_DEGENERATED, FALSE), 1.0))
      n_marked++;
  g_assert_cmpint (n_marked, >=, 3);
  cairo_surface_destroy (surface);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render-pauses/bars", test_pause_bars);
  g_test_add_func ("/render-pauses/histogram", test_histogram);
  g_test_add_func ("/render-pauses/zgc-lane", test_zgc_lane);
  g_test_add_func ("/render-pauses/degenerated-marker", test_degenerated_marker);
  return g_test_run ();
}
