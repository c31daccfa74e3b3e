/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The report through the library (tm-report.h, tm-report-html.h) on the
 * synthetic leak: one part per window plus the run, each with the
 * analyses the trace allows; the windows' explanations escaped in the
 * HTML; progress rising to 1 and the file written; a cancelled request
 * writes nothing; a window that does not exist is an invalid argument;
 * under a German locale the headings and the lang attribute are German.
 */
#include "tm-config.h"
#include "tm-report-html.h"
#include "tm-error.h"
#include "tm-synth.h"

#include <glib/gstdio.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>

static char *tmpdir;
static char *leak_path;

static TmDocument *
open_leak (void)
{
  g_autoptr(GError) error = NULL;
  TmDocument *doc = tm_document_load (leak_path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return doc;
}

static char *
html_of (TmReport *report)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) html = tm_report_html (report, NULL, &error);
  gsize len;
  const char *data;

  g_assert_no_error (error);
  data = g_bytes_get_data (html, &len);
  g_assert_true (g_utf8_validate (data, (gssize) len, NULL));
  return g_strndup (data, len);
}

static guint
count (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p; p = strstr (p + 1, needle))
    n++;
  return n;
}

static void
test_parts (void)
{
  g_autoptr(TmDocument) doc = open_leak ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmReport) report = tm_report_compute (doc, NULL, -1, NULL, NULL, NULL, &error);
  g_autofree char *html = NULL;
  GPtrArray *windows;

  g_assert_no_error (error);
  windows = report->windows;
  g_assert_cmpuint (windows->len, >=, 2);
  g_assert_cmpuint (report->parts->len, ==, windows->len + 1);
  for (guint i = 0; i < report->parts->len; i++)
    {
      const TmReportPart *p = report->parts->pdata[i];
      const TmWindow *w = i ? windows->pdata[i - 1] : NULL;

      g_assert_true (p->window == w);
      g_assert_cmpuint (p->number, ==, i);
      g_assert_cmpuint (p->first_gc, ==, w ? w->first_gc : 1);
      g_assert_cmpuint (p->last_gc, ==, w ? w->last_gc : 200);
      g_assert_true (p->has_gc_summary);
      g_assert_cmpuint (p->gc_summary.first_gc, ==, p->first_gc);
      /* the leak has graphs every 10 GCs: growth and compare everywhere */
      g_assert_nonnull (p->ds_growth);
      g_assert_null (p->ds_note);
      g_assert_cmpuint (p->ds_growth->from_gc, >=, p->first_gc);
      g_assert_cmpuint (p->ds_growth->to_gc, <=, p->last_gc);
      g_assert_nonnull (p->heap_diff);
      g_assert_cmpuint (tm_heap_diff_get_from_gc (p->heap_diff), ==, p->ds_growth->from_gc);
      g_assert_cmpuint (tm_heap_diff_get_to_gc (p->heap_diff), ==, p->ds_growth->to_gc);
      g_assert_cmpint (p->diff_metric, ==, TM_HEAP_METRIC_RETAINED_BYTES);
      g_assert_cmpuint (p->diff_top->len, >, 0);
      for (guint k = 1; k < p->diff_top->len; k++)
        g_assert_cmpint (tm_heap_diff_delta (p->heap_diff, g_array_index (p->diff_top, guint32, k - 1), p->diff_metric),
                         >=,
                         tm_heap_diff_delta (p->heap_diff, g_array_index (p->diff_top, guint32, k), p->diff_metric));
      g_assert_nonnull (p->vm);
      g_assert_cmpuint (p->vm->from_gc, ==, p->first_gc);
    }

  html = html_of (report);
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>\n<html lang=\"en\">"));
  g_assert_cmpuint (count (html, "<section class=\"part window\""), ==, windows->len);
  for (guint i = 0; i < windows->len; i++)
    {
      const TmWindow *w = windows->pdata[i];
      g_autofree char *escaped = g_markup_escape_text (w->explanation, -1);
      g_autofree char *id = g_strdup_printf ("id=\"window-%u\"", i + 1);

      g_assert_nonnull (strstr (html, escaped));
      g_assert_cmpuint (count (html, id), ==, 1);
    }
  /* nothing from outside the file */
  g_assert_null (strstr (html, "http:"));
  g_assert_null (strstr (html, "https:"));
  g_assert_null (strstr (html, "<script"));
  g_assert_null (strstr (html, "<link"));
}

typedef struct {
  double last;
  guint  calls;
} Progress;

static void
progress_cb (double fraction, gpointer data)
{
  Progress *p = data;

  g_assert_cmpfloat (fraction, >=, p->last - 1e-9);
  g_assert_cmpfloat (fraction, <=, 1.0 + 1e-9);
  p->last = fraction;
  p->calls++;
}

static void
test_write_cancel_and_bad_window (void)
{
  g_autoptr(TmDocument) doc = open_leak ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autofree char *path = g_build_filename (tmpdir, "r.html", NULL);
  g_autofree char *other = g_build_filename (tmpdir, "cancelled.html", NULL);
  Progress progress = { 0 };

  g_assert_true (tm_report_write (doc, NULL, 0, path, progress_cb, &progress, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (progress.last, ==, 1.0);
  g_assert_cmpuint (progress.calls, >, 3);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  g_cancellable_cancel (cancelled);
  g_assert_false (tm_report_write (doc, NULL, -1, other, NULL, NULL, cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (g_file_test (other, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  g_assert_null (tm_report_compute (doc, NULL, 99, NULL, NULL, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "window 100"));   /* numbered from 1 */
}

static void
test_german (void)
{
  const char *localedir = g_getenv ("TIDEMARK_LOCALEDIR");
  g_autofree char *old = g_strdup (setlocale (LC_ALL, NULL));
  g_autoptr(TmDocument) doc = NULL;
  g_autoptr(TmReport) report = NULL;
  g_autofree char *html = NULL;
  g_autofree char *mo = localedir ? g_build_filename (localedir, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL) : NULL;

  if (mo == NULL || !g_file_test (mo, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the German catalogue is not built");
      return;
    }
  if (setlocale (LC_ALL, "de_DE.UTF-8") == NULL)
    {
      g_test_skip ("no de_DE.UTF-8 locale");
      return;
    }
  g_setenv ("LANGUAGE", "de", TRUE);
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  doc = open_leak ();
  report = tm_report_compute (doc, NULL, 0, NULL, NULL, NULL, NULL);
  g_assert_nonnull (report);
  html = html_of (report);
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>\n<html lang=\"de\">"));
  g_assert_nonnull (strstr (html, "Speicherbericht zu leak.tmtrace, Fenster 1"));
  g_assert_nonnull (strstr (html, "Fenster 1: Speicherleck"));
  g_assert_nonnull (strstr (html, "GC-Zusammenfassung"));
  g_assert_nonnull (strstr (html, "Am stärksten wachsende Gruppen"));
  g_assert_null (strstr (html, "Top growing groups"));
  if (g_getenv ("TM_SCREENSHOT_DIR"))   /* to look at it */
    {
      g_autofree char *out = g_build_filename (g_getenv ("TM_SCREENSHOT_DIR"), "report-de.html", NULL);
      g_assert_true (g_file_set_contents (out, html, -1, NULL));
    }

  g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, old);
}

/* The run ends in an OutOfMemoryError, and the agent's last two graphs
 * were taken after the main thread died (post-mortem): the heap the
 * program let go on its way out, not what grew.  Every part compares its
 * first and last graph of the working state: the whole run's ends at
 * GC 190, the leak's last graph, not at GC 200. */
static void
test_post_mortem_graphs (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "oom.tmtrace", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDocument) doc = NULL;
  g_autoptr(TmReport) report = NULL;
  TmSynthOptions options;
  TmTrace *trace;
  guint32 last_working = 0;

  tm_synth_options_init (&options);
  options.scenario = "oom";
  g_assert_true (tm_synth_write_file (&options, path, &error));
  doc = tm_document_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  trace = tm_document_get_trace (doc);
  for (guint32 g = 1; g <= tm_trace_n_gcs (trace); g++)
    if (tm_trace_gc (trace, g)->has_graph && tm_trace_gc (trace, g)->graph_context != TM_GRAPH_POST_MORTEM)
      last_working = g;
  g_assert_cmpuint (last_working, ==, 190);
  g_assert_true (tm_trace_gc (trace, 200)->has_graph);
  report = tm_report_compute (doc, NULL, -1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < report->parts->len; i++)
    {
      const TmReportPart *p = report->parts->pdata[i];

      if (p->ds_growth == NULL)
        {
          /* a window with fewer than two graphs (GC overhead, 171..198) */
          g_assert_nonnull (p->ds_note);
          continue;
        }
      g_assert_cmpuint (p->ds_growth->to_gc, <=, last_working);
      g_assert_cmpuint (tm_heap_diff_get_to_gc (p->heap_diff), <=, last_working);
    }
  /* the whole run: the leak grew over it */
  {
    const TmReportPart *run = report->parts->pdata[0];

    g_assert_cmpuint (run->ds_growth->to_gc, ==, last_working);
    g_assert_cmpint (run->ds_growth->heap_growth_bytes, >, 0);
  }
}

int
main (int argc, char **argv)
{
  TmSynthOptions options;
  g_autoptr(GError) error = NULL;
  int status;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("tidemark-report-XXXXXX", &error);
  g_assert_no_error (error);
  leak_path = g_build_filename (tmpdir, "leak.tmtrace", NULL);
  tm_synth_options_init (&options);
  options.scenario = "leak";
  g_assert_true (tm_synth_write_file (&options, leak_path, &error));

  g_test_add_func ("/report/parts", test_parts);
  g_test_add_func ("/report/write-cancel-bad-window", test_write_cancel_and_bad_window);
  g_test_add_func ("/report/german", test_german);
  g_test_add_func ("/report/post-mortem-graphs", test_post_mortem_graphs);
  status = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;
    while (dir && (name = g_dir_read_name (dir)))
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);
        g_remove (p);
      }
    g_rmdir (tmpdir);
  }
  g_free (leak_path);
  g_free (tmpdir);
  return status;
}
