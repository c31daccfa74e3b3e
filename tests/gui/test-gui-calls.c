/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The call-stack views under Xvfb, as a person uses them.  Opening the
 * heaptrack recording of tests/data/heaptrack/calls.c shows its "Call
 * Stacks" page by itself, with heaptrack's figures on the summary (peak,
 * leaks with the suppressed ones apart); a click on a top-10 entry leads
 * to that function in the bottom-up tree; the search keeps only the paths
 * to matching functions; caller/callee lists a recursive function's
 * callers and callees once each; the flame graph zooms into a clicked frame and
 * back out, and exports PNG and SVG.  A recorded trace (the synthetic
 * leak) gets the same page from Analyze > Call Stacks, from its sites.
 * Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "tm-application.h"
#include "tm-app-window.h"
#include "tm-calls-view.h"
#include "tm-session.h"
#include "tm-chart-view.h"
#include "tm-format-util.h"
#include "tm-render-flame.h"

#include "gui-test-util.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

static TmGuiTestFixture fx;

/* TM_GUI_SHOTS=DIR: keep PNGs of the pages to look at */
static void
shot (GtkWidget *win, const char *name)
{
  const char *dir = g_getenv ("TM_GUI_SHOTS");
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  int w = gtk_widget_get_width (win), h = gtk_widget_get_height (win);

  if (dir == NULL)
    return;
  tm_gui_test_spin (300);
  paintable = gtk_widget_paintable_new (win);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (win)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  path = g_strdup_printf ("%s/%s.png", dir, name);
  gdk_texture_save_to_png (texture, path);
}

static gboolean
view_ready (gpointer data)
{
  return tm_calls_view_is_ready (data);
}

static const char *
function_of (TmCallTree *tree, guint32 node)
{
  return tm_call_profile_get_symbol (tm_call_tree_profile (tree), tm_call_tree_node (tree, node)->symbol)->function;
}

static TmCallsView *
wait_for_view (TmAppWindow *win)
{
  TmCallsView *view = NULL;

  for (guint i = 0; i < 200 && view == NULL; i++)
    {
      tm_gui_test_spin (50);
      view = (TmCallsView *) tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_CALLS_VIEW);
    }
  g_assert_nonnull (view);
  tm_gui_test_spin_until (view_ready, view, 60000);
  g_assert_true (tm_calls_view_is_ready (view));
  return view;
}

static const TmFlameRect *
flame_rect_named (TmFlameView *flame, const char *name)
{
  GArray *rects = tm_flame_view_get_rects (flame);
  TmCallTree *tree = tm_flame_view_get_tree (flame);

  for (guint i = 0; i < rects->len; i++)
    {
      const TmFlameRect *r = &g_array_index (rects, TmFlameRect, i);
      if (r->node != 0 && strcmp (function_of (tree, r->node), name) == 0)
        return r;
    }
  return NULL;
}

static void
test_heaptrack (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autofree char *path = g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "data", "heaptrack", "calls.zst", NULL);
  g_autofree char *png = g_build_filename (fx.tmpdir, "flame.png", NULL);
  g_autofree char *svg = g_build_filename (fx.tmpdir, "flame.svg", NULL);
  g_autofree char *svg_text = NULL;
  g_autoptr(GError) error = NULL;
  TmCallsView *view;
  TmNativeSummary *summary;
  TmCallTreeView *bottom_up;
  TmFlameView *flame;
  const TmFlameRect *hot;
  guint roots;

  tm_gui_test_open_and_wait (win, path);
  view = wait_for_view (win);
  g_assert_cmpstr (tm_calls_view_get_page (view), ==, "summary");
  shot (GTK_WIDGET (win), "calls-summary");

  /* heaptrack_gui's charts over time in place of the GC overhead: the
   * allocations of an interval, temporary ones and the RSS sample of a
   * time point, in the hover text */
  g_assert_false (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_OVERHEAD)));
  g_assert_true (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_ALLOCATIONS)));
  g_assert_true (gtk_widget_get_visible (tm_app_window_get_chart (win, TM_CHART_RSS)));
  {
    TmSession *session = tm_chart_view_get_session (TM_CHART_VIEW (tm_app_window_get_chart (win, TM_CHART_ALLOCATIONS)));
    TmTimelineModel *m = tm_session_get_model (session);
    TmTrace *trace = tm_session_get_trace (session);
    g_autofree char *tip = NULL, *rss = NULL;
    g_autofree char *count = NULL;
    guint busiest = 0;

    /* the allocations over all intervals are heaptrack's calls to allocation functions */
    g_assert_cmpuint (m->total_allocations, ==, 2062);
    g_assert_cmpuint (m->total_temporary, ==, 1301);
    for (guint i = 1; i < m->n_gcs; i++)
      if (m->allocations[i] > m->allocations[busiest])
        busiest = i;
    tip = tm_chart_view_describe_gc (TM_CHART_VIEW (tm_app_window_get_chart (win, TM_CHART_ALLOCATIONS)), busiest + 1);
    count = tm_format_count ((guint64) m->allocations[busiest]);
    g_assert_nonnull (strstr (tip, count));
    g_assert_nonnull (strstr (tip, "Temporary"));
    rss = tm_format_bytes ((double) tm_trace_gc (trace, m->n_gcs)->committed_after);
    g_clear_pointer (&tip, g_free);
    tip = tm_chart_view_describe_gc (TM_CHART_VIEW (tm_app_window_get_chart (win, TM_CHART_RSS)), m->n_gcs);
    g_assert_nonnull (strstr (tip, rss));
  }

  /* heaptrack's figures */
  summary = tm_calls_view_get_summary (view);
  g_assert_true (g_str_has_prefix (tm_native_summary_get_figure (summary, "peak"), "214 KiB"));
  g_assert_cmpstr (tm_native_summary_get_figure (summary, "leaked"), ==, "19.5 KiB (and 9.77 KiB in suppressed leaks)");
  g_assert_cmpstr (tm_native_summary_get_figure (summary, "allocations"), ==, "2,062");
  g_assert_true (g_str_has_prefix (tm_native_summary_get_figure (summary, "temporary"), "1,301 (63.1 %"));
  g_assert_cmpuint (tm_native_summary_n_top (summary, "peak"), ==, 4);
  g_assert_cmpuint (tm_native_summary_n_top (summary, "leaked"), ==, 1);

  /* the top entry of "Most allocations" is leaf: a click shows it bottom-up */
  tm_native_summary_activate (summary, "allocations", 0);
  tm_gui_test_spin (100);
  g_assert_cmpstr (tm_calls_view_get_page (view), ==, "bottom-up");
  bottom_up = tm_calls_view_get_tree (view, TRUE);
  g_assert_cmpuint (tm_call_tree_view_get_selected (bottom_up), !=, TM_CALL_NO_NODE);
  g_assert_cmpstr (function_of (tm_call_tree_view_get_tree (bottom_up), tm_call_tree_view_get_selected (bottom_up)), ==,
                   "leaf");

  /* search: only the path leaf < keeper stays, opened */
  tm_call_tree_view_set_search (bottom_up, "");
  roots = tm_call_tree_view_n_rows (bottom_up);
  g_assert_cmpuint (roots, ==, tm_call_tree_node (tm_call_tree_view_get_tree (bottom_up), 0)->n_children);
  tm_call_tree_view_set_search (bottom_up, "KEEPER");
  g_assert_cmpuint (tm_call_tree_view_n_rows (bottom_up), ==, 2);
  shot (GTK_WIDGET (win), "calls-bottom-up-search");
  tm_call_tree_view_set_search (bottom_up, "");
  g_assert_cmpuint (tm_call_tree_view_n_rows (bottom_up), ==, roots);

  /* caller/callee: rec is called by main and by itself, calls leaf and rec */
  tm_calls_view_set_page (view, "caller-callee");
  {
    TmCallerCalleeView *cc = tm_calls_view_get_caller_callee (view);
    TmCallTree *tree = tm_call_tree_view_get_tree (bottom_up);
    TmCallProfile *profile = tm_call_tree_profile (tree);
    guint32 rec = G_MAXUINT32;

    for (guint32 i = 0; i < tm_call_profile_n_symbols (profile); i++)
      if (strcmp (tm_call_profile_get_symbol (profile, i)->function, "rec") == 0)
        rec = i;
    g_assert_true (tm_caller_callee_view_select_symbol (cc, rec));
    tm_gui_test_spin (100);
    g_assert_cmpuint (tm_caller_callee_view_get_selected (cc), ==, rec);
    g_assert_cmpuint (tm_caller_callee_view_n_edges (cc, TRUE), ==, 2);
    g_assert_cmpuint (tm_caller_callee_view_n_edges (cc, FALSE), ==, 2);
    shot (GTK_WIDGET (win), "calls-caller-callee");
  }

  /* the flame graph: hot is 1000 of 2062 calls wide; a click zooms in */
  tm_calls_view_set_page (view, "flame");
  flame = tm_calls_view_get_flame (view);
  tm_gui_test_spin (300);
  hot = flame_rect_named (flame, "hot");
  g_assert_nonnull (hot);
  {
    double x = hot->x + hot->width / 2, y = hot->y + hot->height / 2, plot = hot->width * 2062.0 / 1000.0;
    guint32 node = hot->node;
    shot (GTK_WIDGET (win), "calls-flame");
    g_assert_cmpuint (tm_flame_view_click (flame, x, y), ==, node);
    tm_gui_test_spin (300);
    shot (GTK_WIDGET (win), "calls-flame-zoomed");
    hot = flame_rect_named (flame, "hot");
    g_assert_cmpfloat_with_epsilon (hot->width, plot, 0.01);
    /* clicking the zoomed frame zooms back out */
    g_assert_cmpuint (tm_flame_view_click (flame, hot->x + 5, hot->y + 5), ==, 0);
  }
  g_assert_true (tm_flame_view_export (flame, png, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (tm_flame_view_export (flame, svg, TRUE, &error));
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_nonnull (strstr (svg_text, "<svg"));
  {
    g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (png, &error);
    g_assert_no_error (error);
    g_assert_cmpint (gdk_texture_get_width (texture), >=, 800);
  }
  g_unlink (png);
  g_unlink (svg);
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
collect_views (GtkWidget *root, GPtrArray *out)
{
  if (TM_IS_CALLS_VIEW (root))
    g_ptr_array_add (out, root);
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_views (c, out);
}

/* A label under root whose text starts with prefix, or NULL */
static GtkLabel *
find_label (GtkWidget *root, const char *prefix)
{
  if (GTK_IS_LABEL (root) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (root)), prefix))
    return GTK_LABEL (root);
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *l = find_label (c, prefix);
      if (l != NULL)
        return l;
    }
  return NULL;
}

/* A selected window of time points: Analyze > Call Stacks in Selection
 * shows what those points allocated and kept (heaptrack's time filter):
 * the leaker's nodes of that stretch, nothing before or after. */
static gboolean
selection_page_updated (gpointer win)
{
  return find_label (GTK_WIDGET (win), "Selection: time points 10–20") != NULL;
}

static void
test_window (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autofree char *path = g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "data", "heaptrack", "leaker.zst", NULL);
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  TmCallsView *whole, *window;
  const TmCallNode *all, *part;

  tm_gui_test_open_and_wait (win, path);
  whole = wait_for_view (win);
  tm_session_select_gcs (tm_app_window_get_session (win), 10, 20);
  /* the page updates in an idle: later on a loaded machine */
  tm_gui_test_spin_until (selection_page_updated, win, 10000);
  /* the Selection page speaks of time points, heap in use and blocks, and
   * counts the allocations of the intervals after point 10 up to 20 */
  {
    TmTimelineModel *m = tm_session_get_model (tm_app_window_get_session (win));
    g_autofree char *count = NULL;
    GtkLabel *value;
    double n = 0;

    for (guint i = 10; i < 20; i++)
      n += m->allocations[i];
    count = tm_format_count ((guint64) n);
    g_assert_nonnull (find_label (GTK_WIDGET (win), "Selection: time points 10–20"));
    g_assert_nonnull (find_label (GTK_WIDGET (win), "Blocks allocated and not freed"));
    g_assert_null (find_label (GTK_WIDGET (win), "GC overhead"));
    value = find_label (GTK_WIDGET (win), "GC Summary");
    g_assert_true (value == NULL || !gtk_widget_get_visible (GTK_WIDGET (value)));
    value = find_label (GTK_WIDGET (win), count);
    g_assert_nonnull (value);
    g_assert_nonnull (strstr (gtk_label_get_text (value), "per second"));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.call-stacks", NULL));
  tm_gui_test_spin (200);
  collect_views (GTK_WIDGET (win), views);
  g_assert_cmpuint (views->len, ==, 2);
  window = views->pdata[0] == whole ? views->pdata[1] : views->pdata[0];
  tm_gui_test_spin_until (view_ready, window, 60000);
  tm_calls_view_set_page (window, "bottom-up");
  shot (GTK_WIDGET (win), "calls-window");

  all = tm_call_tree_node (tm_call_tree_view_get_tree (tm_calls_view_get_tree (whole, TRUE)), 0);
  part = tm_call_tree_node (tm_call_tree_view_get_tree (tm_calls_view_get_tree (window, TRUE)), 0);
  g_assert_cmpint (all->cost.v[TM_COST_ALLOCATIONS], ==, 7801);
  g_assert_cmpint (part->cost.v[TM_COST_ALLOCATIONS], >, 0);
  g_assert_cmpint (part->cost.v[TM_COST_ALLOCATIONS], <, all->cost.v[TM_COST_ALLOCATIONS]);
  /* what the stretch kept is whole leaked nodes of 1008 bytes */
  g_assert_cmpint (part->cost.v[TM_COST_LEAKED], >, 0);
  g_assert_cmpint (part->cost.v[TM_COST_LEAKED], <, 302400);
  g_assert_cmpint (part->cost.v[TM_COST_LEAKED] % 1008, ==, 0);
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
test_trace (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  TmCallsView *view;
  TmCallTreeView *top_down;

  tm_gui_test_open_and_wait (win, fx.leak_path);
  /* not opened by itself for a trace */
  g_assert_null (tm_gui_test_find_widget (GTK_WIDGET (win), TM_TYPE_CALLS_VIEW));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.call-stacks", NULL));
  view = wait_for_view (win);
  top_down = tm_calls_view_get_tree (view, FALSE);
  g_assert_cmpuint (tm_call_tree_view_n_rows (top_down), >, 0);
  tm_calls_view_set_page (view, "flame");
  shot (GTK_WIDGET (win), "calls-trace-flame");
  g_assert_cmpuint (tm_native_summary_n_top (tm_calls_view_get_summary (view), "allocations"), >, 0);
  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-calls-XXXXXX", 0.3, &fx))
    return 77;
  g_test_add_func ("/gui/calls/heaptrack", test_heaptrack);
  g_test_add_func ("/gui/calls/window", test_window);
  g_test_add_func ("/gui/calls/trace", test_trace);
  return tm_gui_test_run (&fx);
}
