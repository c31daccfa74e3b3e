/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The call-stack views of one input (see tm-calls-view.h): asks the
 * document for its TmCallData, then hands it to the pages.
 */
#include "tm-config.h"

#include <glib/gi18n-lib.h>

#include "tm-calls-view.h"
#include "tm-call-data.h"
#include "tm-document.h"

struct _TmCallsView
{
  TmSection        parent_instance;

  GtkWidget       *box;
  GtkSpinner      *spinner;
  GtkLabel        *status_label;
  GtkWidget       *switcher;
  GtkStack        *stack;
  TmNativeSummary *summary;
  TmCallTreeView  *bottom_up;
  TmCallTreeView  *top_down;
  TmFlameView     *flame;
  TmCallerCalleeView *caller_callee;

  GCancellable    *cancellable;
  TmCallData      *data;
  gboolean         ready;
};

G_DEFINE_FINAL_TYPE (TmCallsView, tm_calls_view, TM_TYPE_SECTION)

static void
show_function_cb (TmCallsView *self, guint symbol, guint kind, TmNativeSummary *summary)
{
  gtk_stack_set_visible_child_name (self->stack, "bottom-up");
  tm_call_tree_view_select_symbol (self->bottom_up, symbol);
}

static void
loaded_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmCallsView) self = user_data;
  g_autoptr(GError) error = NULL;
  TmCallData *data = tm_document_call_data_finish (TM_DOCUMENT (source), result, &error);
  g_autofree char *name = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->ready = TRUE;
  gtk_spinner_set_spinning (self->spinner, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  if (data == NULL)
    {
      gtk_label_set_text (self->status_label, error->message);
      return;
    }
  self->data = data;
  name = data->trace->path ? g_path_get_basename (data->trace->path) : g_strdup ("");
  if (data->to_gc != 0)
    {
      g_autofree char *text = g_strdup_printf (data->native ? _("Time points %u to %u: what was allocated in them; leaked is what they did not free")
                                                            : _("GCs %u to %u: objects allocated in them; leaked is what was still alive after the last"),
                                               MAX (data->from_gc, 1), data->to_gc);
      gtk_label_set_text (self->status_label, text);
    }
  else
    gtk_label_set_text (self->status_label,
                        data->native ? _("heaptrack's figures: calls to allocation functions and the bytes they took")
                                     : _("From the allocation sites' recorded stacks: objects and their bytes"));
  tm_native_summary_set_data (self->summary, data);
  tm_call_tree_view_set_tree (self->bottom_up, tm_call_tree_new (data->calls, TM_CALL_TREE_BOTTOM_UP), data->native);
  tm_call_tree_view_set_tree (self->top_down, tm_call_tree_new (data->calls, TM_CALL_TREE_TOP_DOWN), data->native);
  tm_flame_view_set_profile (self->flame, data->calls, name);
  tm_caller_callee_view_set_profile (self->caller_callee, data->calls);
}

static char *
window_title (TmTrace *trace, guint from_gc, guint to_gc)
{
  if (to_gc == 0)
    return g_strdup (_("Call Stacks"));
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    return g_strdup_printf (_("Call Stacks, time points %u–%u"), from_gc, to_gc);
  return g_strdup_printf (_("Call Stacks, GC %u–%u"), from_gc, to_gc);
}

GtkWidget *
tm_calls_view_new (TmSession *session, guint from_gc, guint to_gc)
{
  TmCallsView *self;
  TmDocument *document;
  g_autofree char *title = NULL;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);
  g_return_val_if_fail (tm_session_get_document (session) != NULL, NULL);

  self = g_object_new (TM_TYPE_CALLS_VIEW, "session", session, NULL);
  document = tm_section_get_document (TM_SECTION (self));
  if (to_gc == 0 || to_gc < from_gc)
    from_gc = to_gc = 0;
  title = window_title (tm_document_get_trace (document), from_gc, to_gc);
  tm_section_set_title (TM_SECTION (self), title);
  tm_document_call_data_async (document, from_gc, to_gc, self->cancellable, loaded_cb, g_object_ref (self));
  return GTK_WIDGET (self);
}

gboolean
tm_calls_view_is_ready (TmCallsView *self)
{
  return self->ready;
}

void
tm_calls_view_set_page (TmCallsView *self, const char *name)
{
  gtk_stack_set_visible_child_name (self->stack, name);
}

const char *
tm_calls_view_get_page (TmCallsView *self)
{
  return gtk_stack_get_visible_child_name (self->stack);
}

TmNativeSummary *
tm_calls_view_get_summary (TmCallsView *self)
{
  return self->summary;
}

TmCallTreeView *
tm_calls_view_get_tree (TmCallsView *self, gboolean bottom_up)
{
  return bottom_up ? self->bottom_up : self->top_down;
}

TmFlameView *
tm_calls_view_get_flame (TmCallsView *self)
{
  return self->flame;
}

TmCallerCalleeView *
tm_calls_view_get_caller_callee (TmCallsView *self)
{
  return self->caller_callee;
}

static void
tm_calls_view_dispose (GObject *object)
{
  TmCallsView *self = TM_CALLS_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_CALLS_VIEW);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->data, tm_call_data_unref);
  G_OBJECT_CLASS (tm_calls_view_parent_class)->dispose (object);
}

static void
tm_calls_view_class_init (TmCallsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_calls_view_dispose;
  g_type_ensure (TM_TYPE_NATIVE_SUMMARY);
  g_type_ensure (TM_TYPE_CALL_TREE_VIEW);
  g_type_ensure (TM_TYPE_FLAME_VIEW);
  g_type_ensure (TM_TYPE_CALLER_CALLEE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-calls-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, box);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, switcher);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, stack);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, summary);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, bottom_up);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, top_down);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, flame);
  gtk_widget_class_bind_template_child (widget_class, TmCallsView, caller_callee);
  gtk_widget_class_bind_template_callback (widget_class, show_function_cb);
}

static void
tm_calls_view_init (TmCallsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* each page's button as wide as its name, not all as wide as the
   * longest: the switcher fits a small window in longer languages */
  gtk_box_layout_set_homogeneous (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (self->switcher)), FALSE);
  self->cancellable = g_cancellable_new ();
}
