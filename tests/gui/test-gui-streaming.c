/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Charts stream in while a trace loads: on a synthetic leak of ~2
 * million allocations, the window shows the charts of the GCs read so far
 * before the load finishes (the trace page with no trace yet), each
 * snapshot a prefix of the final timeline that grows, and no suspicious
 * windows of the trace shown before; cancelling mid-load leaves the
 * empty window with no chart.  Exits 77 (skip) when no display can be opened.
 */
#include "tm-config.h"
#include "gui-test-util.h"
#include "tm-synth.h"


static TmGuiTestFixture fx;
static char *big_path;

typedef struct {
  guint   n_partials;       /* distinct snapshots seen while loading */
  guint   first_n, last_n;  /* their GC counts */
  gboolean shrank;          /* a snapshot with fewer GCs than the one before */
  double  first_end_ns;     /* the first snapshot's last GC end */
} Seen;

/* One main loop iteration; notes what a person sees while loading. */
static void
watch (TmAppWindow *win, Seen *seen)
{
  TmSession *session = tm_app_window_get_session (win);
  TmTimelineModel *m;

  g_main_context_iteration (NULL, TRUE);
  if (tm_app_window_get_trace (win) != NULL || g_strcmp0 (tm_app_window_get_page (win), "trace") != 0 ||
      (m = tm_session_get_model (session)) == NULL)
    return;
  if (m->n_gcs == seen->last_n)
    return;
  if (seen->n_partials == 0)
    {
      seen->first_n = m->n_gcs;
      seen->first_end_ns = m->end_ns[m->n_gcs - 1];
    }
  seen->shrank |= m->n_gcs < seen->last_n;
  /* no windows of the trace shown before: they come with the whole */
  g_assert_null (gtk_list_box_get_row_at_index (tm_app_window_get_windows_list (win), 0));
  seen->last_n = m->n_gcs;
  seen->n_partials++;
  /* the charts follow the whole of what is read so far */
  g_assert_cmpfloat (tm_session_get_visible_end (session), ==, tm_session_get_whole_end (session));
  g_assert_cmpfloat (tm_session_get_whole_end (session), >=, m->end_ns[m->n_gcs - 1]);
}

static TmAppWindow *
new_window (void)
{
  TmAppWindow *win = tm_app_window_new (fx.app);

  gtk_window_set_default_size (GTK_WINDOW (win), 1200, 800);
  gtk_window_present (GTK_WINDOW (win));
  tm_gui_test_spin (300);
  return win;
}

static void
test_partial_charts (void)
{
  TmAppWindow *win = new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (big_path);
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  TmTimelineModel *whole;
  Seen seen = { 0 };

  /* a trace shown first, with its windows listed */
  tm_gui_test_open_and_wait (win, fx.leak_path);
  g_assert_nonnull (gtk_list_box_get_row_at_index (tm_app_window_get_windows_list (win), 0));

  tm_app_window_open (win, file);
  while (tm_app_window_is_busy (win) && g_get_monotonic_time () < deadline)
    watch (win, &seen);
  g_assert_false (tm_app_window_is_busy (win));
  g_assert_nonnull (tm_app_window_get_trace (win));
  whole = tm_session_get_model (tm_app_window_get_session (win));
  g_test_message ("%u snapshots while loading, GCs %u..%u of %u", seen.n_partials, seen.first_n, seen.last_n,
                  whole->n_gcs);

  /* charts were there before the trace was */
  g_assert_cmpuint (seen.n_partials, >=, 1);
  g_assert_cmpuint (seen.first_n, >=, 1);
  g_assert_cmpuint (seen.last_n, <, whole->n_gcs);
  g_assert_false (seen.shrank);
  g_assert_cmpfloat (seen.first_end_ns, ==, whole->end_ns[seen.first_n - 1]);
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

static void
test_cancel_while_streaming (void)
{
  TmAppWindow *win = new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (big_path);
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  Seen seen = { 0 };

  tm_app_window_open (win, file);
  while (seen.n_partials == 0 && tm_app_window_is_busy (win) && g_get_monotonic_time () < deadline)
    watch (win, &seen);
  g_assert_cmpuint (seen.n_partials, >=, 1);
  g_assert_null (tm_app_window_get_trace (win));

  /* the Cancel button of the strip above the charts */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.cancel-load", NULL));
  while (tm_app_window_is_busy (win) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  tm_gui_test_spin (50);
  g_assert_null (tm_app_window_get_trace (win));
  g_assert_cmpstr (tm_app_window_get_page (win), ==, "empty");
  g_assert_null (tm_session_get_model (tm_app_window_get_session (win)));
  g_assert_null (tm_app_window_get_last_error (win));
  gtk_window_destroy (GTK_WINDOW (win));
  tm_gui_test_spin (20);
}

int
main (int argc, char **argv)
{
  TmSynthOptions options;
  g_autoptr(GError) error = NULL;
  int ret;

  /* reading pauses after the first snapshots: however fast the machine,
   * the window has time to show them before the load ends */
  g_setenv ("TIDEMARK_TEST_STREAM_PAUSE_MS", "400", TRUE);
  if (!tm_gui_test_setup (&argc, &argv, "tm-gui-streaming-XXXXXX", 0, &fx))
    return 77;
  /* big enough that reading takes many frames */
  big_path = g_build_filename (fx.tmpdir, "big-leak.tmtrace", NULL);
  tm_synth_options_init (&options);
  options.scenario = "leak";
  options.scale = 10;
  g_assert_true (tm_synth_write_file (&options, big_path, &error));
  g_assert_no_error (error);

  g_test_add_func ("/gui/streaming/partial-charts", test_partial_charts);
  g_test_add_func ("/gui/streaming/cancel-while-streaming", test_cancel_while_streaming);
  ret = tm_gui_test_run (&fx);
  g_free (big_path);
  return ret;
}
