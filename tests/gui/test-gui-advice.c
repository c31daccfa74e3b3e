/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Advice panel in the application, under Xvfb: open the JDK 17 G1 log
 * whose live data fills its 32 MiB heap (tests/data/advice/README.md),
 * Analyze > GC Advice on the whole run shows the evacuation failures and
 * the heap-too-small advice; "Select These GCs" selects the span of the
 * evidence; on GCs 1-9 (before the first failure) the panel shows no
 * evacuation failure; the goal chooser recomputes.  The synthetic steady
 * run gets no advice.  Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-advice-view.h"

#include <gtk/gtk.h>
#include <string.h>

static TmGuiTestFixture fx;

static gboolean
view_done (gpointer data)
{
  return tm_advice_view_get_advice (data) != NULL;
}

static gboolean
has_rule (GPtrArray *advice, const char *rule)
{
  for (guint i = 0; i < advice->len; i++)
    if (strcmp (((TmAdvice *) advice->pdata[i])->rule, rule) == 0)
      return TRUE;
  return FALSE;
}

/* The newest advice page of the window's notebook. */
static TmAdviceView *
open_advice (TmAppWindow *win)
{
  GtkNotebook *nb;
  GtkWidget *page;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.advice-at-selection", NULL));
  nb = GTK_NOTEBOOK (tm_gui_test_find_widget (GTK_WIDGET (win), GTK_TYPE_NOTEBOOK));
  page = gtk_notebook_get_nth_page (nb, gtk_notebook_get_current_page (nb));
  page = tm_gui_test_find_widget (page, TM_TYPE_ADVICE_VIEW);
  g_assert_nonnull (page);
  tm_gui_test_spin_until (view_done, page, 30000);
  g_assert_nonnull (tm_advice_view_get_advice (TM_ADVICE_VIEW (page)));
  return TM_ADVICE_VIEW (page);
}

static void
test_log (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autofree char *path = g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "data", "advice",
                                            "jdk17-g1-to-space-exhausted.log", NULL);
  TmSession *session;
  TmAdviceView *view;
  GPtrArray *advice;
  const TmAdvice *evac = NULL;

  tm_gui_test_open_and_wait (win, path);
  session = tm_app_window_get_session (win);
  tm_session_clear_selection (session);
  view = open_advice (win);
  advice = tm_advice_view_get_advice (view);
  g_assert_cmpuint (advice->len, ==, 2);
  g_assert_true (has_rule (advice, "evacuation-failure"));
  g_assert_true (has_rule (advice, "heap-too-small"));
  for (guint i = 0; i < advice->len; i++)
    if (strcmp (((TmAdvice *) advice->pdata[i])->rule, "evacuation-failure") == 0)
      {
        evac = advice->pdata[i];
        /* its evidence selected on the charts: the span of the failures */
        tm_advice_view_select_evidence (view, i);
      }
  g_assert_nonnull (evac);
  g_assert_cmpuint (evac->n_gcs, ==, 27);
  g_assert_cmpuint (tm_session_get_selected_first_gc (session), ==, 10);
  g_assert_cmpuint (tm_session_get_selected_last_gc (session), ==,
                    g_array_index (evac->gcs, guint32, evac->gcs->len - 1));

  /* before the first failure */
  tm_session_select_gcs (session, 1, 9);
  view = open_advice (win);
  g_assert_false (has_rule (tm_advice_view_get_advice (view), "evacuation-failure"));

  /* the goal chooser recomputes (G1 already: no latency rule) */
  tm_advice_view_set_goal (view, TM_ADVICE_GOAL_LATENCY);
  tm_gui_test_spin_until (view_done, view, 30000);
  g_assert_false (has_rule (tm_advice_view_get_advice (view), "latency-pauses"));
  gtk_window_destroy (GTK_WINDOW (win));
}

static void
test_steady (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autofree char *path = g_build_filename (fx.tmpdir, "steady.tmtrace", NULL);
  g_autofree char *cmd = g_strdup_printf ("%s synth steady -o %s", g_getenv ("TIDEMARK_CLI"), path);
  TmAdviceView *view;

  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  tm_gui_test_open_and_wait (win, path);
  tm_session_clear_selection (tm_app_window_get_session (win));
  view = open_advice (win);
  g_assert_cmpuint (tm_advice_view_get_advice (view)->len, ==, 0);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* With a knowledge base of two workloads (tests/data/kb/two.kb), the
 * JDK 17 G1 log (400 MB/s) resembles fast-allocator, and the panel says
 * why through the decision tree: allocation above halfway between the two
 * workloads' rates. */
static void
test_knowledge_base (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);
  g_autofree char *kb = g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "data", "kb", "two.kb", NULL);
  g_autofree char *path = g_build_filename (g_getenv ("TM_SOURCE_DIR"), "tests", "data", "gc-logs",
                                            "jdk17-g1.log", NULL);
  g_autofree char *old = g_strdup (g_getenv ("TIDEMARK_KB"));
  TmAdviceView *view;

  g_setenv ("TIDEMARK_KB", kb, TRUE);
  tm_gui_test_open_and_wait (win, path);
  tm_session_clear_selection (tm_app_window_get_session (win));
  view = open_advice (win);
  g_assert_cmpstr (tm_advice_view_get_similar (view)[0], ==, "fast-allocator");
  g_assert_nonnull (tm_gui_test_find_label (GTK_WIDGET (view), "Resembles: fast-allocator"));
  g_assert_nonnull (tm_gui_test_find_label (GTK_WIDGET (view),
    "Decision tree: log10 allocation MiB/s > 1.45 leads to collector=Parallel heap=3x (like fast-allocator)."));
  gtk_window_destroy (GTK_WINDOW (win));
  if (old)
    g_setenv ("TIDEMARK_KB", old, TRUE);
  else
    g_unsetenv ("TIDEMARK_KB");
}

int
main (int argc, char **argv)
{
  if (!tm_gui_test_setup (&argc, &argv, "tidemark-gui-advice-XXXXXX", 0, &fx))
    return 77;

  g_test_add_func ("/gui/advice/log", test_log);
  g_test_add_func ("/gui/advice/steady", test_steady);
  g_test_add_func ("/gui/advice/knowledge-base", test_knowledge_base);
  return tm_gui_test_run (&fx);
}
