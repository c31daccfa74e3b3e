/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Data structure growth in the application, under Xvfb: open the synthetic
 * leak, select GCs 40..200, Analyze > Data Structure Growth; the view
 * compares GC 40 with GC 200, the cache map heads the table with
 * single-ownership container growth; expanding it shows the four metrics
 * and its leaves by type at both ends (journey keys and journeys gained);
 * choosing a bar selects its row.  Also the rendered chart: one bar per
 * structure, hit boxes, bar color by pattern.
 * Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-settings.h"
#include "tm-ds-growth-view.h"
#include "tm-render-ds-growth.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

static TmGuiTestFixture fx;

static gboolean
view_done (gpointer data)
{
  return tm_ds_growth_view_get_result (data) != NULL;
}

static int
find_row (TmDsGrowthView *view, const char *name)
{
  for (guint r = 0; r < tm_ds_growth_view_get_n_rows (view); r++)
    {
      g_autofree char *cell = tm_ds_growth_view_dup_cell (view, r, 0);
      if (strcmp (cell, name) == 0)
        return (int) r;
    }
  return -1;
}

static gboolean
confidence_shown (gpointer data)
{
  g_autofree char *lc = tm_ds_growth_view_dup_cell (data, 0, 6);
  return lc != NULL && *lc != '\0';
}

static void
test_window (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  const TmDsGrowth *g;
  TmDsGrowthView *view;
  guint n_top;
  int row;

  tm_gui_test_open_and_wait (win, fx.leak_path);

  tm_session_select_gcs (tm_app_window_get_session (win), 40, 200);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.ds-growth-at-selection", NULL));
  view = TM_DS_GROWTH_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_DS_GROWTH_VIEW));
  g_assert_nonnull (view);
  tm_gui_test_spin_until (view_done, view, 60000);
  g = tm_ds_growth_view_get_result (view);
  g_assert_nonnull (g);
  /* graphs every 10 GCs: the selection's first and last graph */
  g_assert_cmpuint (g->from_gc, ==, 40);
  g_assert_cmpuint (g->to_gc, ==, 200);
  g_assert_cmpuint (g->entries->len, >=, 2);

  /* one row per structure, the cache first */
  n_top = tm_ds_growth_view_get_n_rows (view);
  g_assert_cmpuint (n_top, ==, g->entries->len);
  {
    g_autofree char *name = tm_ds_growth_view_dup_cell (view, 0, 0);
    g_autofree char *pattern = tm_ds_growth_view_dup_cell (view, 0, 5);
    g_autofree char *growth = tm_ds_growth_view_dup_cell (view, 0, 3);
    g_assert_true (g_str_has_prefix (name, "java.util.concurrent.ConcurrentHashMap @"));
    g_assert_cmpstr (pattern, ==, tm_ds_pattern_label (TM_DS_PATTERN_SINGLE_CONTAINER_GROWTH));
    g_assert_true (g_str_has_prefix (growth, "+"));
  }

  /* leak confidence joins the table when computed: the cache, which only
   * gains entries, is a likely leak (an upper bound from the graphs) */
  tm_gui_test_spin_until (confidence_shown, view, 60000);
  {
    g_autofree char *lc = tm_ds_growth_view_dup_cell (view, 0, 6);
    g_assert_true (g_str_has_prefix (lc, "≤ "));
    g_assert_cmpfloat (g_ascii_strtod (lc + strlen ("≤ "), NULL), >, 0.5);
  }

  /* its metrics, then its leaves by type at both ends */
  tm_ds_growth_view_set_expanded (view, 0, TRUE);
  g_assert_cmpuint (tm_ds_growth_view_get_n_rows (view), ==, n_top + 6);
  for (guint m = 0; m < TM_DS_N_METRICS; m++)
    {
      g_autofree char *name = tm_ds_growth_view_dup_cell (view, 1 + m, 0);
      g_assert_cmpstr (name, ==, tm_ds_metric_label (m));
    }
  row = find_row (view, "Leaves by type");
  g_assert_cmpint (row, ==, 5);
  tm_ds_growth_view_set_expanded (view, row, TRUE);
  row = find_row (view, "com.example.travel.JourneyKey");
  g_assert_cmpint (row, >, 5);
  {
    g_autofree char *before = tm_ds_growth_view_dup_cell (view, row, 1);
    g_autofree char *after = tm_ds_growth_view_dup_cell (view, row, 2);
    g_autofree char *growth = tm_ds_growth_view_dup_cell (view, row, 3);
    g_assert_cmpstr (before, !=, after);
    g_assert_true (g_str_has_prefix (growth, "+"));
  }
  g_assert_cmpint (find_row (view, "com.example.travel.Journey"), >, 5);

  /* a bar's entry selects its row; the chart follows the selection */
  tm_ds_growth_view_select_entry (view, 1);
  g_assert_cmpint (tm_ds_growth_view_get_selected_entry (view), ==, 1);
  tm_ds_growth_view_select_entry (view, -1);
  g_assert_cmpint (tm_ds_growth_view_get_selected_entry (view), ==, -1);

  gtk_window_destroy (GTK_WINDOW (win));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* The rendered chart: bars in HGP order, hit boxes, pattern colors. */
/* Preferences > Data Structures: the user's .ds files reach the view.
 * Describing AppContext as a structure makes its HashMap a nested part,
 * so the growth analysis lists AppContext instead. */
static void
test_user_files (void)
{
  GSettings *settings = tm_settings_get ();
  g_autofree char *ds = g_build_filename (fx.tmpdir, "app.ds", NULL);
  const char *files[] = { ds, NULL };
  const char *none[] = { NULL };
  TmAppWindow *win;
  TmDsGrowthView *view;
  const TmDsGrowth *g;
  gboolean app_context = FALSE, hash_map = FALSE;

  g_assert_true (g_file_set_contents (ds, "DS com.example.app.AppContext { java.util.HashMap; }\n"
                                          "java.util.HashMap { *; }\n", -1, NULL));
  g_settings_set_strv (settings, "ds-files", files);

  win = tm_app_window_new (fx.app);
  tm_gui_test_open_and_wait (win, fx.leak_path);
  tm_session_select_gcs (tm_app_window_get_session (win), 40, 200);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.ds-growth-at-selection", NULL));
  view = TM_DS_GROWTH_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_DS_GROWTH_VIEW));
  tm_gui_test_spin_until (view_done, view, 60000);
  g = tm_ds_growth_view_get_result (view);
  g_assert_nonnull (g);
  for (guint i = 0; i < g->entries->len; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (g->entries, TmDsGrowthEntry, i);
      const char *type = tm_trace_type (tm_app_window_get_trace (win), e->type)->name;
      app_context |= g_strcmp0 (type, "com.example.app.AppContext") == 0;
      hash_map |= g_strcmp0 (type, "java.util.HashMap") == 0;
    }
  g_assert_true (app_context);
  g_assert_false (hash_map);

  g_settings_set_strv (settings, "ds-files", none);
  gtk_window_destroy (GTK_WINDOW (win));
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static void
test_chart (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDocument) doc = tm_document_load (fx.leak_path, NULL, NULL, NULL, &error);
  TmTrace *trace;
  g_autoptr(TmDsGrowth) growth = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 360);
  cairo_t *cr = cairo_create (surface);
  TmDsGrowthChartOptions o;
  TmDsGrowthChartLayout l;
  guint bars[TM_DS_GROWTH_CHART_MAX_BARS];
  guint n;

  g_assert_no_error (error);
  trace = tm_document_get_trace (doc);
  growth = tm_document_ds_growth (doc, 40, 200, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  tm_ds_growth_chart_options_init (&o, 800, 360);
  o.background = (TmColor) { 1, 1, 1, 1 };
  tm_ds_growth_chart_render (cr, trace, growth, &o, &l);
  n = tm_ds_growth_chart_pick (growth, TM_DS_METRIC_RETAINED, 10, bars, G_N_ELEMENTS (bars));
  g_assert_cmpuint (l.n_bars, ==, n);
  g_assert_cmpuint (n, ==, MIN (10, growth->entries->len));
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (l.entry[i], ==, bars[i]);
      g_assert_cmpint (tm_ds_growth_chart_hit (&l, l.x + 5, l.bar_y[i] + l.row_height / 2), ==, (int) bars[i]);
      if (i > 0)
        g_assert_cmpfloat (g_array_index (growth->entries, TmDsGrowthEntry, bars[i - 1]).hgp[TM_DS_METRIC_RETAINED], >=,
                           g_array_index (growth->entries, TmDsGrowthEntry, bars[i]).hgp[TM_DS_METRIC_RETAINED]);
    }
  g_assert_cmpint (tm_ds_growth_chart_hit (&l, l.x + 5, l.bar_y[n - 1] + 2 * l.row_height), ==, -1);

  /* the top bar (the cache, ~100% of the growth) is drawn in its pattern's
   * color, 85% opaque over white: most pixels along its middle (grid lines
   * show through here and there) */
  {
    const TmDsGrowthEntry *top = &g_array_index (growth->entries, TmDsGrowthEntry, bars[0]);
    TmColor want = tm_ds_pattern_color (top->pattern, FALSE);
    double expect[3] = { 255 * (0.85 * want.red + 0.15), 255 * (0.85 * want.green + 0.15),
                         255 * (0.85 * want.blue + 0.15) };
    const guint8 *data;
    int stride, y = (int) (l.bar_y[0] + l.row_height / 2), matching = 0;

    cairo_surface_flush (surface);
    data = cairo_image_surface_get_data (surface);
    stride = cairo_image_surface_get_stride (surface);
    for (int k = 0; k < 20; k++)
      {
        int x = (int) (l.x + 3 + k * (l.width * 0.9 / 20));
        guint32 px = *(const guint32 *) (data + y * stride + 4 * x);
        int rgb[3] = { (px >> 16) & 0xff, (px >> 8) & 0xff, px & 0xff };
        gboolean ok = TRUE;

        for (int c = 0; c < 3; c++)
          ok = ok && ABS (rgb[c] - expect[c]) <= 2.5;
        matching += ok;
      }
    g_assert_cmpint (matching, >=, 15);
  }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-ds-XXXXXX", 0, &fx))
    return 77;

  g_test_add_func ("/gui/ds-growth/window", test_window);
  g_test_add_func ("/gui/ds-growth/chart", test_chart);
  g_test_add_func ("/gui/ds-growth/user-files", test_user_files);
  return tm_gui_test_run (&fx);
}
