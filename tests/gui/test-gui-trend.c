/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TrendViz in the application, under Xvfb: open the synthetic leak,
 * select the leak window (GCs 40..200), Analyze > Trends in Selected
 * Window; the first chart shows the leaking types on top; selecting the
 * Journey series adds a chart of its call sites below whose total is the
 * Journey series; a selection in the first chart replaces the drill-down;
 * closing it leaves one chart; hover and zoom go through the session.
 * Also hit-testing of the rendered chart (legend entries and lines), and
 * the data-structure classifiers: grouping by "Containing data structure"
 * classifies the GCs with a graph, puts the JourneyCache map on top of the
 * structures, and drills into it by type; the user's .ds files apply.
 * Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-trend-view.h"
#include "tm-render-trend.h"
#include "tm-settings.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

static TmGuiTestFixture fx;

static gboolean
panel_done (gpointer data)
{
  return !tm_trend_panel_is_busy (data) && tm_trend_panel_get_trend (data) != NULL;
}

static int
shown_index (TmTrendPanel *panel, const char *key)
{
  GPtrArray *shown = tm_trend_panel_get_shown (panel);

  for (guint i = 0; i < shown->len; i++)
    if (strcmp (((TmTrendSeries *) g_ptr_array_index (shown, i))->key, key) == 0)
      return (int) i;
  return -1;
}

static void
test_drill_down (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  const char *leak[] = { "java.util.concurrent.ConcurrentHashMap$Node", "com.example.travel.JourneyKey",
                         "com.example.travel.Journey", "java.lang.String", "byte[]" };
  TmSession *session;
  TmTrendView *view;
  TmTrendPanel *top, *drilled;
  TmTrend *trend, *sub;
  GPtrArray *shown;
  const TmTrendSeries *journey;
  int j;

  tm_gui_test_open_and_wait (win, fx.leak_path);

  session = tm_app_window_get_session (win);
  tm_session_select_gcs (session, 40, 200);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.trend-at-selection", NULL));
  view = TM_TREND_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_TREND_VIEW));
  g_assert_nonnull (view);
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 1);

  top = tm_trend_view_get_chart (view, 0);
  tm_gui_test_spin_until (panel_done, top, 30000);
  trend = tm_trend_panel_get_trend (top);
  g_assert_true (trend->complete);
  g_assert_cmpuint (trend->request.from_gc, ==, 40);
  g_assert_cmpuint (trend->request.to_gc, ==, 200);
  shown = tm_trend_panel_get_shown (top);
  g_assert_cmpuint (shown->len, ==, 6);   /* top 5 + Other by default */
  for (guint i = 0; i < 5; i++)
    {
      const char *key = ((TmTrendSeries *) g_ptr_array_index (shown, i))->key;
      gboolean is_leak = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (leak); k++)
        is_leak = is_leak || strcmp (key, leak[k]) == 0;
      g_assert_true (is_leak);
    }

  /* drill into Journey: its call sites, all in JourneyCache.lookup */
  j = shown_index (top, "com.example.travel.Journey");
  g_assert_cmpint (j, >=, 0);
  tm_trend_panel_set_next_classifier (top, TM_CLASSIFIER_CALL_SITE);
  tm_trend_panel_select (top, j);
  g_assert_cmpint (tm_trend_panel_get_selected (top), ==, j);
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 2);
  drilled = tm_trend_view_get_chart (view, 1);
  tm_gui_test_spin_until (panel_done, drilled, 30000);
  sub = tm_trend_panel_get_trend (drilled);
  g_assert_cmpuint (sub->request.n_drill, ==, 1);
  g_assert_cmpstr (sub->request.drill[0], ==, "com.example.travel.Journey");
  g_assert_cmpint (sub->level_classifier, ==, TM_CLASSIFIER_CALL_SITE);
  g_assert_cmpuint (sub->groups->len, >, 0);
  for (guint i = 0; i < sub->groups->len; i++)
    g_assert_true (g_str_has_prefix (((TmTrendSeries *) g_ptr_array_index (sub->groups, i))->key,
                                     "com.example.travel.JourneyCache.lookup("));
  journey = tm_trend_find_group (trend, "com.example.travel.Journey");
  g_assert_cmpuint (sub->n_points, ==, trend->n_points);
  for (guint p = 0; p < sub->n_points; p++)
    g_assert_cmpfloat (sub->total[p], ==, journey->values[p]);

  /* the drilled chart keeps its own settings */
  tm_trend_panel_set_top (drilled, 1, FALSE);
  g_assert_cmpuint (tm_trend_panel_get_shown (drilled)->len, ==, 1);
  g_assert_cmpuint (tm_trend_panel_get_shown (top)->len, ==, 6);

  /* a chain: drill once more, then a new selection on top replaces both */
  tm_trend_panel_select (drilled, 0);
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 3);
  tm_trend_panel_select (top, shown_index (top, "byte[]"));
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 2);
  drilled = tm_trend_view_get_chart (view, 1);
  g_assert_cmpstr (tm_trend_panel_get_request (drilled)->drill[0], ==, "byte[]");

  /* Other is no group: selecting it drills nowhere */
  tm_trend_panel_select (top, 5);
  g_assert_cmpint (tm_trend_panel_get_selected (top), ==, -1);
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 2);

  /* closing the drill-down */
  g_signal_emit_by_name (drilled, "close-requested");
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 1);

  /* the keyboard does what a click does */
  {
    GtkWidget *area = tm_gui_test_find_widget (GTK_WIDGET (top), GTK_TYPE_DRAWING_AREA);
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (area);
    GtkEventController *keys = NULL;
    gboolean handled = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
        if (GTK_IS_EVENT_CONTROLLER_KEY (c))
          keys = c;
      }
    g_assert_nonnull (keys);
    g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Down, 0, 0, &handled);
    g_assert_true (handled);
    g_assert_cmpint (tm_trend_panel_get_selected (top), ==, 0);
    g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 2);
    g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Up, 0, 0, &handled);
    g_assert_cmpint (tm_trend_panel_get_selected (top), ==, 4);
    g_assert_cmpstr (tm_trend_panel_get_request (tm_trend_view_get_chart (view, 1))->drill[0], ==,
                     ((TmTrendSeries *) g_ptr_array_index (tm_trend_panel_get_shown (top), 4))->key);
  }

  /* grouping the top chart by another classifier drops the drill-down */
  {
    GtkDropDown *group = GTK_DROP_DOWN (tm_gui_test_find_widget (GTK_WIDGET (top), GTK_TYPE_DROP_DOWN));
    gtk_drop_down_set_selected (group, TM_CLASSIFIER_THREAD);
    g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 1);
    g_assert_cmpint (tm_trend_panel_get_selected (top), ==, -1);
    tm_gui_test_spin_until (panel_done, top, 30000);
    g_assert_cmpint (tm_trend_panel_get_trend (top)->level_classifier, ==, TM_CLASSIFIER_THREAD);
    gtk_drop_down_set_selected (group, TM_CLASSIFIER_TYPE);
  }

  /* a retained chart: only GCs with a graph */
  tm_trend_panel_set_metric (top, TM_TREND_METRIC_RETAINED_BYTES);
  g_assert_true (tm_trend_panel_is_busy (top));
  tm_gui_test_spin_until (panel_done, top, 60000);
  trend = tm_trend_panel_get_trend (top);
  g_assert_true (trend->complete);
  for (guint p = 0; p < trend->n_points; p++)
    g_assert_true (tm_trace_gc (trend->trace, trend->gcs[p])->has_graph);
  g_assert_cmpstr (((TmTrendSeries *) g_ptr_array_index (tm_trend_panel_get_shown (top), 0))->key, ==,
                   "java.util.concurrent.ConcurrentHashMap");

  /* exports */
  {
    g_autofree char *dir = g_dir_make_tmp ("tidemark-trend-XXXXXX", NULL);
    g_autofree char *png = g_build_filename (dir, "t.png", NULL);
    g_autofree char *csv = g_build_filename (dir, "t.csv", NULL);
    g_autofree char *text = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_true (tm_trend_panel_write_png (top, png, 800, 300, &error));
    g_assert_no_error (error);
    tm_gui_test_assert_png (png, 800, 300);
    g_assert_true (tm_trend_panel_write_csv (top, csv, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
    g_assert_true (g_str_has_prefix (text, "gc,time_ns,java.util.concurrent.ConcurrentHashMap,"));
    g_unlink (png);
    g_unlink (csv);
    g_rmdir (dir);
  }

  /* closing a drill-down and the window while their workers run */
  tm_trend_panel_select (top, 0);
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 2);
  drilled = tm_trend_view_get_chart (view, 1);
  g_assert_true (tm_trend_panel_is_busy (drilled));
  g_signal_emit_by_name (drilled, "close-requested");
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 1);
  tm_trend_panel_set_metric (top, TM_TREND_METRIC_DEEP_BYTES);
  g_assert_true (tm_trend_panel_is_busy (top));
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (3000);
}

/* The rendered chart's hit boxes: each legend entry and each line. */
static void
test_hit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) trace = tm_trace_load (fx.leak_path, NULL, NULL, NULL, &error);
  g_autoptr(TmTrend) trend = NULL;
  g_autoptr(GPtrArray) shown = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 320);
  cairo_t *cr = cairo_create (surface);
  TmTrendChartOptions o;
  TmTrendChartLayout l;
  TmTrendRequest req;

  g_assert_no_error (error);
  tm_trend_request_init (&req);
  req.from_gc = 40;
  req.to_gc = 200;
  trend = tm_trend_compute (trace, &req, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  shown = tm_trend_select (trend, TM_TREND_SORT_ABS_GROWTH, 5, TRUE);
  tm_trend_chart_options_init (&o, 900, 320);
  tm_trend_chart_render (cr, trend, shown, &o, &l);

  g_assert_cmpuint (l.n_legend, ==, shown->len);
  for (guint s = 0; s < shown->len; s++)
    g_assert_cmpint (tm_trend_chart_hit (&l, trend, shown, l.legend_x + 20, l.legend_y[s] + l.legend_row / 2),
                     ==, (int) s);
  /* on the top series' line at the last point, and far from every line */
  {
    const TmTrendSeries *first = g_ptr_array_index (shown, 0);
    guint p = trend->n_points - 1;
    double x = tm_chart_layout_ns_to_x (&l.plot, (double) trend->times_ns[p]);
    double y = l.plot.y + l.plot.height - first->values[p] / l.y_max * l.plot.height;
    g_assert_cmpint (tm_trend_chart_hit (&l, trend, shown, x - 1, y), ==, 0);
    g_assert_cmpint (tm_trend_chart_hit (&l, trend, shown, x - 1, l.plot.y + 2), ==, -1);
  }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_data_structures (void)
{
  GSettings *settings = tm_settings_get ();
  g_autofree char *ds = g_build_filename (fx.tmpdir, "journey.ds", NULL);
  const char *files[] = { ds, NULL };
  const char *none[] = { NULL };
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmTrendView *view;
  TmTrendPanel *top, *drilled;
  GtkDropDown *group;
  TmTrend *trend;
  GPtrArray *shown;
  const char *cache = NULL;
  int choice, cache_index = -1;
  guint journeys = 0;

  g_assert_true (g_file_set_contents (ds, "DS com.example.travel.Journey { java.lang.String; byte[]; }\n", -1, NULL));
  g_settings_set_strv (settings, "ds-files", files);

  tm_gui_test_open_and_wait (win, fx.leak_path);
  tm_session_select_gcs (tm_app_window_get_session (win), 40, 200);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.trend-at-selection", NULL));
  view = TM_TREND_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_TREND_VIEW));
  top = tm_trend_view_get_chart (view, 0);
  tm_gui_test_spin_until (panel_done, top, 30000);

  /* Group by: the first dropdown of the chart; Drill into offers them too */
  group = GTK_DROP_DOWN (tm_gui_test_find_widget (GTK_WIDGET (top), GTK_TYPE_DROP_DOWN));
  g_assert_cmpint (tm_gui_test_dropdown_index (group, "Data structure leaves"), >=, 0);
  g_assert_cmpint (tm_gui_test_dropdown_index (group, "Data structure deep leaves"), >=, 0);
  choice = tm_gui_test_dropdown_index (group, "Containing data structure");
  g_assert_cmpint (choice, >=, 0);
  tm_trend_panel_set_top (top, 20, FALSE);
  gtk_drop_down_set_selected (group, choice);
  g_assert_true (tm_trend_panel_is_busy (top));
  tm_gui_test_spin_until (panel_done, top, 60000);
  trend = tm_trend_panel_get_trend (top);
  g_assert_true (trend->complete);
  g_assert_cmpint (trend->level_classifier, ==, TM_CLASSIFIER_CONTAINING_DS);
  for (guint p = 0; p < trend->n_points; p++)
    g_assert_true (tm_trace_gc (trend->trace, trend->gcs[p])->has_graph);
  {
    g_autofree char *title = tm_trend_chart_title (trend);
    g_assert_nonnull (strstr (title, "GCs with a reference graph"));
  }

  /* by absolute growth the map leads the structures; the journeys of
   * the user's file are structures of their own */
  shown = tm_trend_panel_get_shown (top);
  for (guint i = 0; i < shown->len; i++)
    {
      const char *key = ((TmTrendSeries *) g_ptr_array_index (shown, i))->key;
      if (cache == NULL && strcmp (key, "(no data structure)") != 0)
        {
          cache = key;
          cache_index = (int) i;
        }
    }
  for (guint i = 0; i < trend->groups->len; i++)
    journeys += g_str_has_prefix (((TmTrendSeries *) g_ptr_array_index (trend->groups, i))->key,
                                  "com.example.travel.Journey @");
  g_assert_nonnull (cache);
  g_assert_true (g_str_has_prefix (cache, "java.util.concurrent.ConcurrentHashMap @"));
  g_assert_cmpuint (journeys, >, 10);

  /* drill into it: its members by type */
  tm_trend_panel_set_next_classifier (top, TM_CLASSIFIER_TYPE);
  g_assert_cmpint (tm_trend_panel_get_next_classifier (top), ==, TM_CLASSIFIER_TYPE);
  tm_trend_panel_select (top, cache_index);
  g_assert_cmpuint (tm_trend_view_get_n_charts (view), ==, 2);
  drilled = tm_trend_view_get_chart (view, 1);
  tm_gui_test_spin_until (panel_done, drilled, 60000);
  g_assert_cmpint (tm_trend_panel_get_trend (drilled)->level_classifier, ==, TM_CLASSIFIER_TYPE);
  g_assert_nonnull (tm_trend_find_group (tm_trend_panel_get_trend (drilled), "com.example.travel.JourneyKey"));
  {
    const TmTrendSeries *parent = tm_trend_find_group (trend, tm_trend_panel_get_request (drilled)->drill[0]);
    TmTrend *sub = tm_trend_panel_get_trend (drilled);
    g_assert_nonnull (parent);
    g_assert_cmpuint (sub->n_points, ==, trend->n_points);
    for (guint p = 0; p < sub->n_points; p++)
      g_assert_cmpfloat (sub->total[p], ==, parent->values[p]);
  }

  g_settings_set_strv (settings, "ds-files", none);
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (1000);
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-trend-XXXXXX", 0, &fx))
    return 77;

  g_test_add_func ("/gui/trend/drill-down", test_drill_down);
  g_test_add_func ("/gui/trend/hit", test_hit);
  g_test_add_func ("/gui/trend/data-structures", test_data_structures);
  return tm_gui_test_run (&fx);
}
