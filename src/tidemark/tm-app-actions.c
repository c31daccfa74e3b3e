/* SPDX-License-Identifier: GPL-3.0-or-later
 * The window's analysis actions (see the header). */
#include "tm-config.h"
#include "tm-app-actions.h"
#include "tm-heap-diff-view.h"
#include "tm-heap-view.h"
#include "tm-advice-view.h"
#include "tm-allocations-view.h"
#include "tm-calls-view.h"
#include "tm-ds-growth-view.h"
#include "tm-trend-view.h"

#include <glib/gi18n.h>

static gboolean
has_objects (TmTrace *trace)
{
  return trace != NULL && tm_trace_n_gcs (trace) > 0 && trace->n_objects > 0;
}

static gboolean
valid_gc (TmTrace *trace, guint gc)
{
  return gc >= 1 && gc <= tm_trace_n_gcs (trace);
}

static void
heap_at_gc_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmTrace *trace = tm_app_window_get_trace (self);
  guint gc = g_variant_get_uint32 (param);

  if (!has_objects (trace) || !valid_gc (trace, gc))
    return;
  tm_app_window_add_analysis_page (self, tm_heap_view_new (tm_app_window_get_session (self), gc), NULL);
}

static void
heap_at_selection_start_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  guint gc = tm_session_get_selected_first_gc (tm_app_window_get_session (self));

  /* no selection: the start of the run */
  gtk_widget_activate_action (widget, "win.heap-at-gc", "u", gc > 0 ? gc : 1);
}

static void
compare_heaps_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmTrace *trace = tm_app_window_get_trace (self);
  guint from, to;

  g_variant_get (param, "(uu)", &from, &to);
  if (!has_objects (trace) || !valid_gc (trace, from) || !valid_gc (trace, to))
    return;
  tm_app_window_add_analysis_page (self, tm_heap_diff_view_new (tm_app_window_get_session (self), from, to), NULL);
}

void
tm_app_actions_compare_gcs (TmTrace *trace, guint first, guint last, guint *from, guint *to)
{
  guint a = 0, b = 0;

  for (guint gc = first; gc <= last; gc++)
    if (tm_trace_gc (trace, gc)->has_graph)
      {
        if (a == 0)
          a = gc;
        b = gc;
      }
  if (a != 0 && b != a)
    *from = a, *to = b;
  else
    *from = first, *to = last;
}

static void
compare_heaps_at_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmSession *session = tm_app_window_get_session (self);
  TmTrace *trace = tm_app_window_get_trace (self);
  guint first, last, from, to;

  if (!has_objects (trace))
    return;
  first = tm_session_get_selected_first_gc (session);
  last = tm_session_get_selected_last_gc (session);
  if (first == 0 || last == 0 || last < first)
    first = 1, last = tm_trace_n_gcs (trace);
  tm_app_actions_compare_gcs (trace, first, last, &from, &to);
  gtk_widget_activate_action (widget, "win.compare-heaps", "(uu)", from, to);
}

/* A button of an explanation: its window becomes the selection, then the
 * step opens on it as the Analyze menu's entries do. */
static void
window_step_action (GtkWidget *widget, const char *name, GVariant *param)
{
  static const char *const steps[][2] = {
    { "ds-growth", "win.ds-growth-at-selection" },
    { "compare-heaps", "win.compare-heaps-at-selection" },
    { "trend", "win.trend-at-selection" },
    { "allocations", "win.allocations-at-selection" },
    { "advice", "win.advice-at-selection" },
  };
  gint32 index;
  const char *step;

  g_variant_get (param, "(i&s)", &index, &step);
  tm_session_select_window (tm_app_window_get_session (TM_APP_WINDOW (widget)), index);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (g_strcmp0 (step, steps[i][0]) == 0)
      gtk_widget_activate_action (widget, steps[i][1], NULL);
}

static void
heap_at_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmSession *session = tm_app_window_get_session (self);
  TmTrace *trace = tm_app_window_get_trace (self);
  guint gc;

  if (trace == NULL || tm_trace_n_gcs (trace) == 0)
    return;
  /* The heap after the last GC of the selection, or of the whole trace. */
  gc = tm_session_get_selected_last_gc (session);
  if (gc == 0)
    gc = tm_trace_n_gcs (trace);
  tm_app_window_add_analysis_page (self, tm_heap_view_new (session, gc), NULL);
}

/* Data structure growth compares two heaps with graphs: the first and the
 * last GC of the selection (or of the whole trace) that have one. */
static void
ds_growth_at_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmSession *session = tm_app_window_get_session (self);
  TmTrace *trace = tm_app_window_get_trace (self);
  TmTimelineModel *m = tm_session_get_model (session);
  GtkWidget *view;
  TmRangeStats st;
  guint first, last;

  if (trace == NULL || m == NULL || m->n_gcs == 0)
    return;
  first = tm_session_get_selected_first_gc (session);
  last = tm_session_get_selected_last_gc (session);
  if (first == 0 || last == 0)
    first = 1, last = m->n_gcs;
  if (!tm_timeline_model_range_stats (m, first, last, &st) ||
      st.reachable_first_gc == 0 || st.reachable_first_gc == st.reachable_last_gc)
    {
      GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                                  GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                  GTK_MESSAGE_INFO, GTK_BUTTONS_CLOSE,
                                                  _("Not enough heap graphs in the selection"));
      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                                _("Data structure growth compares two GCs with a reference graph. "
                                                  "Select a longer range that contains at least two of them."));
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  view = tm_ds_growth_view_new (session);
  tm_ds_growth_view_set_window (TM_DS_GROWTH_VIEW (view), st.reachable_first_gc, st.reachable_last_gc);
  tm_app_window_add_analysis_page (self, view, NULL);
}

/* GC configuration advice for the selected GCs, or the whole run. */
static void
advice_at_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmSession *session = tm_app_window_get_session (self);
  TmTrace *trace = tm_app_window_get_trace (self);
  GtkWidget *view;
  guint first, last;

  if (trace == NULL || tm_trace_n_gcs (trace) == 0)
    return;
  first = tm_session_get_selected_first_gc (session);
  last = tm_session_get_selected_last_gc (session);
  view = tm_advice_view_new (session, first, last);
  tm_app_window_add_analysis_page (self, view, tm_section_get_title (TM_SECTION (view)));
}

/* The selected GCs, or every GC of the trace; FALSE when it has none. */
static gboolean
selected_or_whole_run (TmAppWindow *self, guint *first, guint *last)
{
  TmSession *session = tm_app_window_get_session (self);
  TmTrace *trace = tm_app_window_get_trace (self);

  if (trace == NULL || tm_trace_n_gcs (trace) == 0)
    return FALSE;
  *first = tm_session_get_selected_first_gc (session);
  *last = tm_session_get_selected_last_gc (session);
  if (*first == 0 || *last == 0)
    *first = 1, *last = tm_trace_n_gcs (trace);
  return TRUE;
}

/* TrendViz over the selected GCs, or the whole trace. */
static void
trend_at_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmSession *session = tm_app_window_get_session (self);
  GtkWidget *view;
  guint first, last;

  if (!selected_or_whole_run (self, &first, &last))
    return;
  view = tm_trend_view_new (session);
  tm_trend_view_set_window (TM_TREND_VIEW (view), first, last);
  tm_app_window_add_analysis_page (self, view, NULL);
}

/* Allocations by call stack: heaptrack's summary, trees and flame graph. */
static void
call_stacks_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmSession *session = tm_app_window_get_session (self);
  guint first, last;

  if (tm_app_window_get_trace (self) == NULL)
    return;
  /* the selected window's call stacks: what it allocated and kept */
  first = tm_session_get_selected_first_gc (session);
  last = tm_session_get_selected_last_gc (session);
  tm_app_window_add_analysis_page (self, tm_calls_view_new (session, first, last), NULL);
}

/* VM-level metrics (allocations, lifetimes, survival, floating garbage,
 * transactions) over the selected GCs, or the whole trace. */
static void
allocations_at_selection_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmAppWindow *self = TM_APP_WINDOW (widget);
  TmSession *session = tm_app_window_get_session (self);
  GtkWidget *view;
  guint first, last;

  if (!selected_or_whole_run (self, &first, &last))
    return;
  view = tm_allocations_view_new (session);
  tm_allocations_view_set_window (TM_ALLOCATIONS_VIEW (view), first, last);
  tm_app_window_add_analysis_page (self, view, NULL);
  /* the same view, on its page of the objects dead by their first GC (once
   * in the window: the notebook moves the focus) */
  if (g_strcmp0 (name, "win.short-lived-at-selection") == 0)
    tm_allocations_view_show_page (TM_ALLOCATIONS_VIEW (view), TM_ALLOCATIONS_PAGE_SHORT_LIVED);
}

void
tm_app_actions_install (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.heap-at-gc", "u", heap_at_gc_action);
  gtk_widget_class_install_action (widget_class, "win.heap-at-selection-start", NULL, heap_at_selection_start_action);
  gtk_widget_class_install_action (widget_class, "win.compare-heaps", "(uu)", compare_heaps_action);
  gtk_widget_class_install_action (widget_class, "win.compare-heaps-at-selection", NULL,
                                   compare_heaps_at_selection_action);
  gtk_widget_class_install_action (widget_class, "win.window-step", "(is)", window_step_action);
  gtk_widget_class_install_action (widget_class, "win.heap-at-selection", NULL, heap_at_selection_action);
  gtk_widget_class_install_action (widget_class, "win.call-stacks", NULL, call_stacks_action);
  gtk_widget_class_install_action (widget_class, "win.ds-growth-at-selection", NULL, ds_growth_at_selection_action);
  gtk_widget_class_install_action (widget_class, "win.trend-at-selection", NULL, trend_at_selection_action);
  gtk_widget_class_install_action (widget_class, "win.allocations-at-selection", NULL, allocations_at_selection_action);
  gtk_widget_class_install_action (widget_class, "win.short-lived-at-selection", NULL, allocations_at_selection_action);
  gtk_widget_class_install_action (widget_class, "win.advice-at-selection", NULL, advice_at_selection_action);
}

void
tm_app_actions_update (TmAppWindow *self)
{
  TmTrace *trace = tm_app_window_get_trace (self);
  gboolean objects = has_objects (trace);
  gboolean gcs = trace != NULL && tm_trace_n_gcs (trace) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.heap-at-gc", objects);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.heap-at-selection-start", objects);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-heaps", objects);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-heaps-at-selection", objects);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.window-step", trace != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.heap-at-selection", gcs);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.ds-growth-at-selection", trace != NULL && trace->n_graphs >= 2);
  /* GC configuration advice: not for heaptrack's time points */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.advice-at-selection",
                                 gcs && g_strcmp0 (trace->format, "heaptrack") != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.trend-at-selection", gcs);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.allocations-at-selection", gcs && trace->total_allocs > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.short-lived-at-selection", gcs && trace->total_allocs > 0);
  /* allocation sites with call stacks (always for heaptrack files) */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.call-stacks", trace != NULL && trace->sites->len > 1);
}

void
tm_app_actions_add_menu_items (GMenu *analyses)
{
  g_menu_append (analyses, _("Heap at _Start of Selection"), "win.heap-at-selection-start");
  g_menu_append (analyses, _("Co_mpare Heaps"), "win.compare-heaps-at-selection");
}
