/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One document per window, under Xvfb: the heap view, the TrendViz view
 * and the data structure growth view of the synthetic leak, opened from
 * the Analyze menu on the same selection, share the document's heap
 * states.  The library's dominator-tree counter proves each GC with a
 * graph is analysed once: the heap at the end of the selection, growth
 * between its first and last graph, then retained sizes over all its
 * graphs in the trend chart build one tree per graph GC of the
 * selection, no more.  Every view is a TmSection of the window's session
 * and names its tab.  Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-ds-growth-view.h"
#include "tm-heap-view.h"
#include "tm-trend-view.h"

#include <gtk/gtk.h>

static TmGuiTestFixture fx;

static gboolean
heap_done (gpointer data)
{
  return !tm_heap_view_is_busy (data) && tm_heap_view_get_metrics_ready (data);
}

static gboolean
growth_done (gpointer data)
{
  return tm_ds_growth_view_get_result (data) != NULL;
}

static gboolean
trend_done (gpointer data)
{
  TmTrend *trend = tm_trend_panel_get_trend (data);
  return !tm_trend_panel_is_busy (data) && trend != NULL && trend->complete &&
         trend->request.metric == TM_TREND_METRIC_RETAINED_BYTES;
}

static gboolean
confidence_shown (gpointer data)
{
  g_autofree char *lc = tm_ds_growth_view_dup_cell (data, 0, 6);
  return lc != NULL && *lc != '\0';
}

static void
test_shared_heap_states (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  const guint first = 40, last = 200;
  TmSession *session;
  TmTrace *trace;
  TmHeapView *heap;
  TmDsGrowthView *growth;
  TmTrendView *trends;
  TmTrendPanel *panel;
  guint before, n_graphs = 0;

  tm_gui_test_open_and_wait (win, fx.leak_path);
  session = tm_app_window_get_session (win);
  trace = tm_app_window_get_trace (win);
  for (guint gc = first; gc <= last; gc++)
    n_graphs += tm_trace_gc (trace, gc)->has_graph;
  g_assert_true (tm_trace_gc (trace, last)->has_graph);
  g_assert_cmpuint (n_graphs, >=, 3);
  tm_session_select_gcs (session, first, last);
  before = tm_dominator_tree_get_n_builds ();

  /* the heap after the last GC, with deep and retained sizes */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.heap-at-selection", NULL));
  heap = TM_HEAP_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_HEAP_VIEW));
  g_assert_nonnull (heap);
  g_assert_true (tm_section_get_session (TM_SECTION (heap)) == session);
  tm_gui_test_spin_until (heap_done, heap, 60000);
  g_assert_true (tm_heap_view_get_metrics_ready (heap));
  g_assert_cmpuint (tm_dominator_tree_get_n_builds () - before, ==, 1);

  /* growth between the first and the last graph, and the leak confidence
   * of its structures, which looks at every graph GC of the window: each
   * heap state built once, the last one's reused */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.ds-growth-at-selection", NULL));
  growth = TM_DS_GROWTH_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_DS_GROWTH_VIEW));
  g_assert_nonnull (growth);
  tm_gui_test_spin_until (growth_done, growth, 60000);
  g_assert_nonnull (tm_ds_growth_view_get_result (growth));
  tm_gui_test_spin_until (confidence_shown, growth, 60000);
  g_assert_cmpuint (tm_dominator_tree_get_n_builds () - before, ==, n_graphs);

  /* retained sizes over the window: every state is there already */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.trend-at-selection", NULL));
  trends = TM_TREND_VIEW (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_TREND_VIEW));
  g_assert_nonnull (trends);
  panel = tm_trend_view_get_chart (trends, 0);
  tm_trend_panel_set_metric (panel, TM_TREND_METRIC_RETAINED_BYTES);
  tm_gui_test_spin_until (trend_done, panel, 120000);
  g_assert_true (trend_done (panel));
  g_assert_cmpuint (tm_trend_panel_get_trend (panel)->n_points, ==, n_graphs);
  g_assert_cmpuint (tm_dominator_tree_get_n_builds () - before, ==, n_graphs);

  /* each page's tab names its view */
  g_assert_cmpstr (tm_section_get_title (TM_SECTION (heap)), ==, "Heap after GC 200");
  g_assert_cmpstr (tm_section_get_title (TM_SECTION (trends)), ==, "Trends, GC 40–200");
  g_assert_true (g_str_has_prefix (tm_section_get_title (TM_SECTION (growth)), "Data Structures, GC "));

  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-document-XXXXXX", 0, &fx))
    return 77;

  g_test_add_func ("/gui/document/shared-heap-states", test_shared_heap_states);
  return tm_gui_test_run (&fx);
}
