/* SPDX-License-Identifier: GPL-3.0-or-later
 * The window's actions with parameters (see the header). */
#include "tm-config.h"
#include "tm-app-actions.h"
#include "tm-heap-diff-view.h"
#include "tm-heap-view.h"

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

void
tm_app_actions_install (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.heap-at-gc", "u", heap_at_gc_action);
  gtk_widget_class_install_action (widget_class, "win.heap-at-selection-start", NULL, heap_at_selection_start_action);
  gtk_widget_class_install_action (widget_class, "win.compare-heaps", "(uu)", compare_heaps_action);
  gtk_widget_class_install_action (widget_class, "win.compare-heaps-at-selection", NULL,
                                   compare_heaps_at_selection_action);
  gtk_widget_class_install_action (widget_class, "win.window-step", "(is)", window_step_action);
}

void
tm_app_actions_update (TmAppWindow *self)
{
  TmTrace *trace = tm_app_window_get_trace (self);
  gboolean objects = has_objects (trace);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.heap-at-gc", objects);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.heap-at-selection-start", objects);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-heaps", objects);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-heaps-at-selection", objects);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.window-step", trace != NULL);
}

void
tm_app_actions_add_menu_items (GMenu *analyses)
{
  g_menu_append (analyses, _("Heap at _Start of Selection"), "win.heap-at-selection-start");
  g_menu_append (analyses, _("Co_mpare Heaps"), "win.compare-heaps-at-selection");
}
