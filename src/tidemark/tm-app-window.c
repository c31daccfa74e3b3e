/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-app-window.h"
#include "tm-calls-view.h"
#include "tm-section.h"
#include "tm-chart-view.h"
#include "tm-export-dialog.h"
#include "tm-format-util.h"
#include "tm-report.h"
#include "tm-report-dialog.h"
#include "tm-settings.h"
#include "tm-app-actions.h"
#include "tm-windows-sidebar.h"
#include "tm-selection-page.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct _TmAppWindow
{
  GtkApplicationWindow  parent_instance;

  /* template children */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkWidget            *analyze_button;
  GtkWidget            *zoom_box;
  GtkWidget            *sidebar_button;
  TmWindowsSidebar     *sidebar;
  GtkInfoBar           *info_bar;
  GtkLabel             *info_label;
  GtkStack             *main_stack;
  GtkWidget            *sample_button;
  GtkLabel             *loading_label;
  GtkProgressBar       *progress_bar;
  GtkWidget            *load_strip;
  GtkLabel             *load_strip_label;
  GtkProgressBar       *load_strip_progress;
  GtkLabel             *range_label;
  TmChartView          *memory_chart;
  TmChartView          *objects_chart;
  TmChartView          *overhead_chart;
  TmChartView          *allocations_chart;
  TmChartView          *rss_chart;
  TmChartView          *pauses_chart;
  TmChartView          *histogram_chart;
  GtkNotebook          *analysis_notebook;
  GtkPaned             *vpaned;
  TmSelectionPage      *selection_page;
  GMenu                *file_section;
  GMenu                *analyses_section;

  /* state */
  TmSession            *session;
  GFile                *file;
  TmDocument           *document;
  TmTrace              *trace;              /* the document's */
  GCancellable         *load_cancellable;   /* non-NULL while loading */
  GCancellable         *cancellable;        /* window detection */
  gboolean              detecting;
  guint                 update_idle;
  char                 *last_error;

  gboolean              disposed;
};

G_DEFINE_FINAL_TYPE (TmAppWindow, tm_app_window, GTK_TYPE_APPLICATION_WINDOW)

static void detect_windows (TmAppWindow *self);

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static void
set_title (TmAppWindow *self, const char *title, const char *subtitle)
{
  gtk_label_set_label (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_label (self->subtitle_label, subtitle ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);
}

static void
show_error_dialog (TmAppWindow *self, GFile *file, const GError *error)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *reason = NULL;
  GtkWidget *dialog;

  /* Messages from the loader often start with the path already. */
  if (path && g_str_has_prefix (error->message, path) && error->message[strlen (path)] == ':')
    reason = g_strdup (g_strstrip (error->message + strlen (path) + 1));
  else
    reason = g_strdup (error->message);

  g_free (self->last_error);
  self->last_error = g_strdup_printf ("%s: %s", path ? path : name, reason);

  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                   _("Could not open “%s”"), name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s\n\n%s",
                                            reason, path ? path : "");
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_banner (TmAppWindow *self)
{
  const TmTrace *t = self->trace;
  g_autofree char *name = g_file_get_basename (self->file);
  g_autofree char *offset = tm_format_count (t->stop_offset);
  g_autofree char *text = NULL;
  guint n = tm_trace_n_gcs (t);

  if (t->complete)
    {
      const char *note = g_hash_table_lookup (t->meta, "note");
      if (note != NULL)
        {
          /* e.g. a GC log with no GC yet: worth saying, not a warning */
          text = g_strdup_printf (_("“%s”: %s."), name, note);
          gtk_label_set_label (self->info_label, text);
          gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_INFO);
        }
      gtk_info_bar_set_revealed (self->info_bar, note != NULL);
      return;
    }
  if (t->memory_limited)
    {
      g_autofree char *limit = tm_format_bytes ((double) t->memory_limit);
      text = g_strdup_printf (_("“%s” is larger than the memory limit of %s: reading stopped at byte %s, after GC %u. "
                                "Everything up to that point is shown. Raise the limit in Preferences and open the "
                                "file again to see the rest."), name, limit, offset, n);
    }
  else if (!t->stopped && t->warnings->len > 0)
    {
      /* the messages name the file; the banner names it once */
      const char *first = g_array_index (t->warnings, TmWarning, 0).message;
      gulong total = (gulong) MIN (MAX (t->n_warnings_total, t->warnings->len), G_MAXULONG);
      if (t->path != NULL && g_str_has_prefix (first, t->path) && first[strlen (t->path)] == ':')
        first += strlen (t->path) + 2;
      text = g_strdup_printf (ngettext ("“%s” was read to the end, but %lu damaged part was skipped: %s",
                                        "“%s” was read to the end, but %lu damaged parts were skipped; the first: %s",
                                        total),
                              name, total, first);
    }
  else if (n > 0 && tm_trace_is_heap_dumps (t) && t->stop_offset > 0 && g_strcmp0 (tm_trace_gc (t, n)->cause, name) == 0)
    /* a dump's "GC" is not one */
    text = g_strdup_printf (_("“%s” is incomplete: reading stopped at byte %s of the heap dump. "
                              "Everything before that point is shown."), name, offset);
  else if (n > 0 && tm_trace_is_heap_dumps (t) && t->stop_offset > 0)
    /* the offset is in the last dump read, not the file the window is
     * named after */
    text = g_strdup_printf (_("“%s” is incomplete: reading stopped at byte %s of heap dump %u, “%s”. "
                              "Everything before that point is shown."), name, offset, n, tm_trace_gc (t, n)->cause);
  else if (n > 0)
    {
      g_autofree char *when = tm_format_duration (tm_trace_gc (t, n)->end_ns);
      text = g_strdup_printf (_("“%s” is incomplete: reading stopped at byte %s, after GC %u at %s. "
                                "Everything up to that point is shown."), name, offset, n, when);
    }
  else
    text = g_strdup_printf (_("“%s” is incomplete: reading stopped at byte %s, before the first GC. "
                              "Everything up to that point is shown."), name, offset);
  gtk_label_set_label (self->info_label, text);
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_WARNING);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

static void
info_bar_response_cb (GtkInfoBar *bar, int response, TmAppWindow *self)
{
  if (response == GTK_RESPONSE_CLOSE)
    gtk_info_bar_set_revealed (bar, FALSE);
}

/* A GC log records heap sizes only: the views that need objects say so
 * instead of showing empty results. */
static gboolean
has_objects (const TmTrace *t)
{
  return t != NULL && (t->n_objects > 0 || t->total_allocs > 0);
}

static void
update_object_views (TmAppWindow *self)
{
  gboolean objects = self->trace == NULL || has_objects (self->trace);
  const char *reason = objects ? NULL
    : _("This source records heap sizes only, no objects (a GC log): open a Tidemark trace or a heaptrack file for this view");

  gtk_widget_set_visible (GTK_WIDGET (self->objects_chart), objects);
  tm_selection_page_set_objects_note (self->selection_page, reason);
  if (!objects)
    {
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.heap-at-selection", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.trend-at-selection", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.ds-growth-at-selection", FALSE);
    }
}

static void
update_actions (TmAppWindow *self)
{
  gboolean loaded = self->trace != NULL;
  gboolean has_sel = loaded && tm_session_get_has_selection (self->session) &&
                     tm_session_get_selected_last_gc (self->session) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-chart", loaded);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-report", loaded);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-window-report",
                                 loaded && tm_session_get_selected_window (self->session) >= 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-in", loaded);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-out", loaded);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-reset", loaded);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.zoom-selection", has_sel);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-selection", has_sel);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.select-window", loaded);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-load", self->load_cancellable != NULL);
  gtk_widget_set_visible (self->analyze_button, loaded);
  gtk_widget_set_visible (self->zoom_box, loaded);
  gtk_widget_set_visible (self->sidebar_button, loaded);
  tm_app_actions_update (self);
  /* after them: it turns off what a source without objects cannot show */
  update_object_views (self);
}

/* The user's data structure descriptions, parsed once per document. */
static void
apply_ds_files (TmAppWindow *self)
{
  g_auto(GStrv) files = g_settings_get_strv (tm_settings_get (), "ds-files");
  g_autoptr(GError) error = NULL;

  if (self->document != NULL &&
      !tm_document_set_ds_files (self->document, (const char * const *) files, &error))
    g_warning ("%s", error->message);
}

static void
load_progress_cb (double fraction, gpointer data)
{
  TmAppWindow *self = data;   /* alive: nothing is delivered after load_cb */

  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  gtk_progress_bar_set_fraction (self->load_strip_progress, fraction);
}

/* Which charts a timeline has data for.  A timeline of time points
 * (heaptrack) or of heap dumps has no GC pauses to chart; `objects`:
 * allocations counted. */
static void
show_charts_for (TmAppWindow *self, const TmTimelineModel *model, gboolean objects, gboolean dumps)
{
  gboolean pauses = model->n_pauses > 0 && !dumps;

  gtk_widget_set_visible (GTK_WIDGET (self->overhead_chart), !model->time_points && !dumps);
  /* heaptrack_gui's charts over time: allocations, temporary ones, RSS */
  gtk_widget_set_visible (GTK_WIDGET (self->allocations_chart), model->time_points && objects);
  gtk_widget_set_visible (GTK_WIDGET (self->rss_chart), model->time_points && model->n_committed > 0);
  /* the pause charts where there are pauses to chart */
  gtk_widget_set_visible (GTK_WIDGET (self->pauses_chart), pauses);
  gtk_widget_set_visible (GTK_WIDGET (self->histogram_chart), pauses);
}

/* The charts of what is read so far, while reading goes on (progress and
 * cancel move to the strip above them). */
static void
load_partial_cb (TmTimelineModel *partial, gpointer data)
{
  TmAppWindow *self = data;   /* alive: nothing is delivered after load_cb */

  tm_session_set_partial_timeline (self->session, partial);
  show_charts_for (self, partial, partial->total_allocations > 0, FALSE);
  if (!gtk_widget_get_visible (self->load_strip))
    {
      gtk_label_set_label (self->load_strip_label, gtk_label_get_label (self->loading_label));
      gtk_progress_bar_set_fraction (self->load_strip_progress,
                                     gtk_progress_bar_get_fraction (self->progress_bar));
      gtk_widget_set_visible (self->load_strip, TRUE);
      /* no windows of a trace shown before: they come with the whole */
      tm_windows_sidebar_set_windows (self->sidebar, NULL, NULL);
      tm_windows_sidebar_set_status (self->sidebar, _("Suspicious windows are looked for once the whole trace is read."));
      /* at once: a crossfade draws both pages, charts and all, in every
       * frame for its length (20 ms of CPU a frame in software rendering),
       * while the loading thread competes for the cores */
      gtk_stack_set_visible_child_full (self->main_stack, "trace", GTK_STACK_TRANSITION_TYPE_NONE);
    }
}

static void
load_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(TmAppWindow) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmDocument) document = tm_document_load_finish (result, &error);
  GFile *file = self->file;
  TmTrace *trace;

  /* A load replaced by another file, or of a window being closed (no
   * longer part of the application). */
  if (g_task_get_cancellable (G_TASK (result)) != self->load_cancellable ||
      self->disposed || gtk_window_get_application (GTK_WINDOW (self)) == NULL)
    return;
  /* cancelled now that it is done: no progress is delivered after this */
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  gtk_widget_set_visible (self->load_strip, FALSE);

  if (document == NULL)
    {
      g_autoptr(GFile) failed = g_object_ref (file);

      tm_session_set_document (self->session, NULL);   /* the charts read so far */
      g_clear_object (&self->file);
      set_title (self, _("Tidemark"), NULL);
      gtk_stack_set_visible_child_name (self->main_stack, "empty");
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error_dialog (self, failed, error);
      update_actions (self);
      return;
    }

  self->document = g_steal_pointer (&document);
  self->trace = trace = tm_document_get_trace (self->document);
  apply_ds_files (self);
  tm_application_add_recent (TM_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))), self->file);

  {
    g_autofree char *name = g_file_get_basename (self->file);
    g_autofree char *duration = tm_format_duration (trace->duration_ns);
    g_autofree char *subtitle = NULL;
    const char *vm = trace->vm_name && *trace->vm_name ? trace->vm_name : trace->format;

    /* Translators: "OpenJDK 64-Bit Server VM · 200 GCs · 20.00 s"; heaptrack
     * files have no GCs, their timeline has time points */
    if (tm_trace_is_heap_dumps (trace) && tm_trace_n_gcs (trace) == 1)
      /* Translators: "Java (HPROF heap dump) · 1 heap dump": one dump has no duration */
      subtitle = g_strdup_printf (_("%s · 1 heap dump"), vm ? vm : "");
    else if (tm_trace_is_heap_dumps (trace))
      /* Translators: "Java (HPROF heap dump) · 3 heap dumps · 2.00 min" */
      subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u heap dump · %s", "%s · %u heap dumps · %s",
                                               tm_trace_n_gcs (trace)),
                                  vm ? vm : "", tm_trace_n_gcs (trace), duration);
    else if (g_strcmp0 (trace->format, "heaptrack") == 0)
      subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u time point · %s", "%s · %u time points · %s",
                                               tm_trace_n_gcs (trace)),
                                  vm ? vm : "", tm_trace_n_gcs (trace), duration);
    else
      subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u GC · %s", "%s · %u GCs · %s",
                                               tm_trace_n_gcs (trace)),
                                  vm ? vm : "", tm_trace_n_gcs (trace), duration);
    set_title (self, name, subtitle);
  }

  /* Charts appear as soon as the timeline is there; windows follow. */
  show_charts_for (self, tm_document_get_timeline (self->document), has_objects (trace), tm_trace_is_heap_dumps (trace));
  tm_session_set_document (self->session, self->document);
  gtk_stack_set_visible_child_name (self->main_stack, "trace");
  show_banner (self);
  update_actions (self);
  detect_windows (self);
  /* a heaptrack file's first answers are heaptrack's: its summary page
   * (of the whole recording: nothing is selected yet) */
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    tm_app_window_add_analysis_page (self, tm_calls_view_new (self->session, 0, 0), NULL);
  /* one heap dump is one heap state: what to read is its heap, as in MAT */
  else if (tm_trace_is_heap_dumps (trace) && tm_trace_n_gcs (trace) == 1)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.heap-at-gc", "u", 1);
}

void
tm_app_window_open (TmAppWindow *self, GFile *file)
{
  tm_app_window_open_files (self, &file, 1);
}

void
tm_app_window_open_files (TmAppWindow *self, GFile *const *files, guint n)
{
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  TmLoadOptions options = { 0 };
  GFile *file;

  g_return_if_fail (TM_IS_APP_WINDOW (self));
  g_return_if_fail (n > 0 && G_IS_FILE (files[0]));
  file = files[0];

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->trace = NULL;
  tm_session_set_windows (self->session, NULL);
  tm_session_set_document (self->session, NULL);
  g_clear_object (&self->document);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  gtk_widget_set_visible (self->load_strip, FALSE);

  g_set_object (&self->file, file);
  self->load_cancellable = g_cancellable_new ();

  name = g_file_get_basename (file);
  if (n > 1)
    /* Translators: the rotated parts of one GC log */
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Reading “%s” and %u more part…",
                                          "Reading “%s” and %u more parts…", n - 1), name, n - 1);
  else
    label = g_strdup_printf (_("Reading “%s”…"), name);
  gtk_label_set_label (self->loading_label, label);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  set_title (self, name, _("Loading…"));
  gtk_stack_set_visible_child_name (self->main_stack, "loading");


  update_actions (self);
  for (guint i = 0; i < n; i++)
    {
      char *path = g_file_get_path (files[i]);

      if (path == NULL)
        {
          /* reported by load_cb like any other failure */
          g_autofree char *uri = g_file_get_uri (files[i]);
          g_autoptr(GTask) task = g_task_new (NULL, self->load_cancellable, load_cb, g_object_ref (self));

          g_task_set_source_tag (task, tm_document_load_async);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                   _("%s: only local files can be opened"), uri);
          return;
        }
      g_ptr_array_add (paths, path);
    }
  /* the budget is read here: the worker does not touch GSettings */
  tm_settings_load_options (tm_settings_get (), &options);
  /* more than one: the rotated parts of one GC log, one timeline */
  tm_document_load_files_streaming_async ((const char * const *) paths->pdata, paths->len, &options,
                                          load_progress_cb, load_partial_cb, self,
                                          self->load_cancellable, load_cb, g_object_ref (self));
}

/* ------------------------------------------------------------------ */
/* Suspicious windows                                                  */

static void
detect_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(TmAppWindow) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) windows = tm_document_windows_finish (TM_DOCUMENT (source), result, &error);

  /* Results of a detection that a newer one (or closing) replaced. */
  if (self->disposed || gtk_window_get_application (GTK_WINDOW (self)) == NULL ||
      g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  if (windows == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tm_windows_sidebar_set_status (self->sidebar, error->message);
      self->detecting = FALSE;
      return;
    }
  self->detecting = FALSE;
  tm_session_set_windows (self->session, windows);
  tm_windows_sidebar_set_windows (self->sidebar, self->trace, windows);
  update_actions (self);
}

static void
detect_windows (TmAppWindow *self)
{
  TmWindowParams params;

  if (self->trace == NULL)
    return;
  tm_settings_window_params (tm_settings_get (), &params);
  tm_session_set_overhead_threshold (self->session, params.overhead_threshold);
  tm_windows_sidebar_set_status (self->sidebar, _("Looking for suspicious windows…"));
  self->detecting = TRUE;
  /* Restarting cancels nothing of the load (it is done); a fresh
   * cancellable marks this run as the current one. */
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  tm_document_windows_async (self->document, &params, FALSE, self->cancellable, detect_cb, g_object_ref (self));
}

static void
settings_changed_cb (GSettings *settings, const char *key, TmAppWindow *self)
{
  if (g_str_has_prefix (key, "leak-") || g_str_has_prefix (key, "overhead-") || g_str_has_prefix (key, "churn-"))
    detect_windows (self);
  else if (g_str_equal (key, "ds-files"))
    apply_ds_files (self);
}

static void
window_activated_cb (TmWindowsSidebar *sidebar, int index, TmAppWindow *self)
{
  tm_session_select_window (self->session, index);
}

/* ------------------------------------------------------------------ */
/* Selection summary and range label                                   */

static void
update_range_label (TmAppWindow *self)
{
  g_autofree char *a = tm_format_time_point (tm_session_get_visible_start (self->session));
  g_autofree char *b = tm_format_duration (tm_session_get_visible_end (self->session));
  g_autofree char *whole = tm_format_duration (tm_session_get_whole_end (self->session));
  g_autofree char *text = g_strdup_printf (_("Showing %s – %s of %s. Ctrl+scroll to zoom, drag to select, click a band to pick its window."),
                                           a, b, whole);
  gtk_label_set_label (self->range_label, text);
}

static gboolean
update_idle_cb (gpointer data)
{
  TmAppWindow *self = data;

  self->update_idle = 0;
  tm_selection_page_update (self->selection_page, self->session, self->trace);
  tm_windows_sidebar_select (self->sidebar, tm_session_get_selected_window (self->session));
  update_range_label (self);
  update_actions (self);
  return G_SOURCE_REMOVE;
}

static void
session_notify_cb (TmSession *session, GParamSpec *pspec, TmAppWindow *self)
{
  /* Hover changes do not touch the summary; everything else is coalesced.
   * The actions follow at once: a busy frame clock can hold idles back,
   * and a zoom to the selection must not find itself disabled. */
  if (g_strcmp0 (pspec->name, "hover-gc") == 0)
    return;
  update_actions (self);
  if (self->update_idle == 0)
    self->update_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, update_idle_cb, self, NULL);
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
open_response_cb (GtkNativeDialog *dialog, int response, TmAppWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) list = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
      TmApplication *app = TM_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

      for (guint i = 0; i < g_list_model_get_n_items (list); i++)
        g_ptr_array_add (files, g_list_model_get_item (list, i));
      if (files->len == 1 && self->file != NULL)
        tm_application_open_file (app, files->pdata[0]);
      else if (files->len > 0)
        {
          /* several files: the rotated parts of one GC log, one timeline */
          TmAppWindow *win = self->file == NULL ? self : tm_app_window_new (app);
          tm_app_window_open_files (win, (GFile *const *) files->pdata, files->len);
          gtk_window_present (GTK_WINDOW (win));
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Open Trace"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (traces, _("Memory traces"));
  gtk_file_filter_add_pattern (traces, "*.tmtrace");
  gtk_file_filter_add_pattern (traces, "*.log");
  gtk_file_filter_add_pattern (traces, "*.gz");
  gtk_file_filter_add_pattern (traces, "*.zst");
  gtk_file_filter_add_pattern (traces, "*.txt");       /* GC logs are often .txt */
  gtk_file_filter_add_pattern (traces, "heaptrack.*"); /* heaptrack.PROGRAM.PID.zst */
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), traces);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  /* several files: the rotated parts of one GC log */
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
cancel_load_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
}

static void
zoom_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmSession *s = self->session;
  double center = (tm_session_get_visible_start (s) + tm_session_get_visible_end (s)) / 2;

  if (g_str_equal (name, "win.zoom-in"))
    tm_session_zoom (s, center, 0.5);
  else if (g_str_equal (name, "win.zoom-out"))
    tm_session_zoom (s, center, 2.0);
  else if (g_str_equal (name, "win.zoom-reset"))
    tm_session_reset_zoom (s);
  else if (g_str_equal (name, "win.zoom-selection"))
    tm_session_zoom_to_selection (s);
  else if (g_str_equal (name, "win.clear-selection"))
    tm_session_clear_selection (s);
}

static void
select_window_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  tm_session_select_window (self->session, g_variant_get_int32 (param));
}

static void
export_chart_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmChartKind kind = TM_CHART_MEMORY;

  tm_chart_kind_from_string (g_variant_get_string (param, NULL), &kind);
  gtk_window_present (GTK_WINDOW (tm_export_dialog_new (self, kind)));
}

/* The report of the whole run, or of the window selected in the sidebar. */
static void
export_report_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  int window = -1;

  if (self->document == NULL)
    return;
  if (g_strcmp0 (name, "win.export-window-report") == 0)
    {
      window = tm_session_get_selected_window (self->session);
      if (window < 0)
        return;
    }
  tm_report_dialog_export (self, window);
}

static void
close_page_cb (GtkButton *button, GtkWidget *page)
{
  GtkWidget *notebook = gtk_widget_get_ancestor (page, GTK_TYPE_NOTEBOOK);

  if (notebook)
    gtk_notebook_remove_page (GTK_NOTEBOOK (notebook), gtk_notebook_page_num (GTK_NOTEBOOK (notebook), page));
}

/* An analysis needs room: if the charts take most of the height, give the
 * analysis 60% of it (the user can still drag the divider). */
static gboolean
make_room_for_analysis (gpointer data)
{
  TmAppWindow *self = data;
  int height = gtk_widget_get_height (GTK_WIDGET (self->vpaned));

  if (height > 0 && gtk_paned_get_position (self->vpaned) > height * 2 / 5)
    gtk_paned_set_position (self->vpaned, height * 2 / 5);
  return G_SOURCE_REMOVE;
}

/* A closable page for an analysis view; the tab shows a TmSection's own
 * title (`title` is for the views that are no sections yet). */
void
tm_app_window_add_analysis_page (TmAppWindow *self, GtkWidget *page, const char *title)
{
  GtkWidget *tab, *close, *label;
  int n;

  tab = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  label = gtk_label_new (title);
  if (TM_IS_SECTION (page))
    g_object_bind_property (page, "title", label, "label", G_BINDING_SYNC_CREATE);
  gtk_box_append (GTK_BOX (tab), label);
  close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_add_css_class (close, "circular");
  gtk_widget_set_tooltip_text (close, _("Close"));
  g_signal_connect (close, "clicked", G_CALLBACK (close_page_cb), page);
  gtk_box_append (GTK_BOX (tab), close);

  n = gtk_notebook_append_page (self->analysis_notebook, page, tab);
  gtk_notebook_set_tab_reorderable (self->analysis_notebook, page, TRUE);
  gtk_notebook_set_current_page (self->analysis_notebook, n);

  /* after layout, when the paned has its height */
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, make_room_for_analysis, g_object_ref (self), g_object_unref);
}

gboolean
tm_app_window_export_chart (TmAppWindow *self, TmChartKind kind, const char *path,
                            int width, int height, GError **error)
{
  TmChartView *view;
  TmChartOptions options;

  g_return_val_if_fail (TM_IS_APP_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->trace == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("No trace is open"));
      return FALSE;
    }
  view = TM_CHART_VIEW (tm_app_window_get_chart (self, kind));
  tm_chart_view_export_options (view, &options, width, height);
  return tm_chart_write_png (tm_session_get_model (self->session), &options, path, error);
}

/* ------------------------------------------------------------------ */
/* Drag and drop                                                       */

static gboolean
drop_cb (GtkDropTarget *target, const GValue *value, double x, double y, TmAppWindow *self)
{
  GSList *files;
  TmApplication *app = TM_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  gboolean first = TRUE;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  for (GSList *l = files; l; l = l->next)
    {
      /* The first dropped file replaces an empty window's content. */
      if (first && self->file == NULL)
        tm_app_window_open (self, l->data);
      else
        tm_application_open_file (app, l->data);
      first = FALSE;
    }
  return files != NULL;
}

/* ------------------------------------------------------------------ */

static void
tm_app_window_close_request_save (TmAppWindow *self)
{
  GSettings *settings = tm_settings_get ();
  int w, h;

  gtk_window_get_default_size (GTK_WINDOW (self), &w, &h);
  g_settings_set_int (settings, "window-width", w);
  g_settings_set_int (settings, "window-height", h);
  g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
}

static gboolean
tm_app_window_close_request (GtkWindow *window)
{
  tm_app_window_close_request_save (TM_APP_WINDOW (window));
  return GTK_WINDOW_CLASS (tm_app_window_parent_class)->close_request (window);
}

/* A destroyed window leaves the application at once, but lives on until its
 * tasks return: stop them. */
static void
application_changed_cb (TmAppWindow *self)
{
  if (gtk_window_get_application (GTK_WINDOW (self)) == NULL && self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

static void
tm_app_window_dispose (GObject *object)
{
  TmAppWindow *self = TM_APP_WINDOW (object);

  self->disposed = TRUE;
  g_cancellable_cancel (self->cancellable);
  /* no load progress reaches the widgets after this */
  g_cancellable_cancel (self->load_cancellable);
  g_clear_handle_id (&self->update_idle, g_source_remove);
  g_signal_handlers_disconnect_by_data (tm_settings_get (), self);
  /* the setting's action outlives the window: no state reaches it after this */
  g_action_map_remove_action (G_ACTION_MAP (self), "sidebar-visible");
  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_APP_WINDOW);
  G_OBJECT_CLASS (tm_app_window_parent_class)->dispose (object);
}

static void
tm_app_window_finalize (GObject *object)
{
  TmAppWindow *self = TM_APP_WINDOW (object);

  g_clear_object (&self->session);
  g_clear_object (&self->file);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->document);
  g_free (self->last_error);
  G_OBJECT_CLASS (tm_app_window_parent_class)->finalize (object);
}

static void
tm_app_window_class_init (TmAppWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tm_app_window_dispose;
  object_class->finalize = tm_app_window_finalize;
  window_class->close_request = tm_app_window_close_request;

  g_type_ensure (TM_TYPE_CHART_VIEW);
  g_type_ensure (TM_TYPE_WINDOWS_SIDEBAR);
  g_type_ensure (TM_TYPE_SELECTION_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-app-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, analyze_button);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, sample_button);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, load_strip);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, load_strip_label);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, load_strip_progress);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, range_label);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, memory_chart);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, objects_chart);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, overhead_chart);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, allocations_chart);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, rss_chart);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, pauses_chart);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, analysis_notebook);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, vpaned);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, selection_page);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, file_section);
  gtk_widget_class_bind_template_child (widget_class, TmAppWindow, analyses_section);
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, window_activated_cb);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-selection", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.clear-selection", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.select-window", "i", select_window_action);
  gtk_widget_class_install_action (widget_class, "win.export-chart", "s", export_chart_action);
  gtk_widget_class_install_action (widget_class, "win.export-report", NULL, export_report_action);
  gtk_widget_class_install_action (widget_class, "win.export-window-report", NULL, export_report_action);
  tm_app_actions_install (widget_class);
}

static void
tm_app_window_init (TmAppWindow *self)
{
  GSettings *settings = tm_settings_get ();
  GtkDropTarget *drop;
  g_autoptr(GFile) sample = tm_application_find_sample ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->session = tm_session_new ();
  tm_chart_view_set_session (self->memory_chart, self->session);
  tm_chart_view_set_session (self->objects_chart, self->session);
  tm_chart_view_set_session (self->overhead_chart, self->session);
  tm_chart_view_set_session (self->allocations_chart, self->session);
  tm_chart_view_set_session (self->rss_chart, self->session);
  tm_chart_view_set_session (self->pauses_chart, self->session);
  /* the pause histogram sits under the GC summary on the Selection page */
  self->histogram_chart = TM_CHART_VIEW (tm_selection_page_get_histogram (self->selection_page));
  tm_chart_view_set_session (self->histogram_chart, self->session);
  g_signal_connect (self->session, "notify", G_CALLBACK (session_notify_cb), self);
  g_signal_connect (settings, "changed", G_CALLBACK (settings_changed_cb), self);

  /* The sidebar's visibility is a setting (F9, the header bar's toggle). */
  {
    g_autoptr(GAction) sidebar_action = g_settings_create_action (settings, "sidebar-visible");

    g_action_map_add_action (G_ACTION_MAP (self), sidebar_action);
    g_settings_bind (settings, "sidebar-visible", self->sidebar, "visible", G_SETTINGS_BIND_GET);
  }

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  gtk_widget_set_visible (self->sample_button, sample != NULL);
  /* The Analyze menu: the analysis views of the selected range. */
  g_menu_append (self->analyses_section, _("_Heap at End of Selection"), "win.heap-at-selection");
  tm_app_actions_add_menu_items (self->analyses_section);
  g_menu_append (self->analyses_section, _("_Trends in Selected Window"), "win.trend-at-selection");
  g_menu_append (self->analyses_section, _("GC _Advice"), "win.advice-at-selection");
  g_menu_append (self->analyses_section, _("_Call Stacks in Selection"), "win.call-stacks");
  g_menu_append (self->analyses_section, _("_Data Structure Growth"), "win.ds-growth-at-selection");
  g_menu_append (self->analyses_section, _("_Allocations and Lifetimes"), "win.allocations-at-selection");
  g_menu_append (self->analyses_section, _("_Short-Lived Objects"), "win.short-lived-at-selection");
  g_menu_append (self->analyses_section, _("Export _Report for Selected Window…"), "win.export-window-report");

  g_signal_connect (self, "notify::application", G_CALLBACK (application_changed_cb), NULL);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  update_actions (self);
  update_range_label (self);
}

TmAppWindow *
tm_app_window_new (TmApplication *app)
{
  TmAppWindow *self = g_object_new (TM_TYPE_APP_WINDOW, "application", app, NULL);

  /* Open Recent lives in the application; every window shows the same. */
  g_menu_append_submenu (self->file_section, _("Open _Recent"), tm_application_get_recent_menu (app));
  return self;
}

GFile *tm_app_window_get_file (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), NULL); return self->file; }
TmSession *tm_app_window_get_session (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), NULL); return self->session; }
TmTrace *tm_app_window_get_trace (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), NULL); return self->trace; }
gboolean tm_app_window_is_busy (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), FALSE); return self->load_cancellable != NULL || self->detecting; }
GtkListBox *tm_app_window_get_windows_list (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), NULL); return tm_windows_sidebar_get_list (self->sidebar); }
const char *tm_app_window_get_page (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), NULL); return gtk_stack_get_visible_child_name (self->main_stack); }
gboolean tm_app_window_get_banner_shown (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), FALSE); return gtk_info_bar_get_revealed (self->info_bar); }
const char *tm_app_window_get_banner_text (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), NULL); return gtk_label_get_label (self->info_label); }
const char *tm_app_window_get_last_error (TmAppWindow *self) { g_return_val_if_fail (TM_IS_APP_WINDOW (self), NULL); return self->last_error; }

GtkWidget *
tm_app_window_get_chart (TmAppWindow *self, TmChartKind kind)
{
  g_return_val_if_fail (TM_IS_APP_WINDOW (self), NULL);

  switch (kind)
    {
    case TM_CHART_OBJECTS:  return GTK_WIDGET (self->objects_chart);
    case TM_CHART_OVERHEAD: return GTK_WIDGET (self->overhead_chart);
    case TM_CHART_ALLOCATIONS: return GTK_WIDGET (self->allocations_chart);
    case TM_CHART_RSS:      return GTK_WIDGET (self->rss_chart);
    case TM_CHART_PAUSES:   return GTK_WIDGET (self->pauses_chart);
    case TM_CHART_PAUSE_HISTOGRAM: return GTK_WIDGET (self->histogram_chart);
    case TM_CHART_MEMORY:
    case TM_CHART_N_KINDS:
    default:                return GTK_WIDGET (self->memory_chart);
    }
}
