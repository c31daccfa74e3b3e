/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-trend-view.h"

#include <glib/gi18n.h>

struct _TmTrendView
{
  TmSection   parent_instance;

  GtkWidget  *box;
  GtkLabel   *title_label;
  GtkWidget  *column;

  GPtrArray  *charts;       /* TmTrendPanel*, top to bottom (the column holds them) */
};

G_DEFINE_FINAL_TYPE (TmTrendView, tm_trend_view, TM_TYPE_SECTION)

static void drill_cb (TmTrendPanel *panel, const char *key, TmTrendView *self);
static void close_requested_cb (TmTrendPanel *panel, TmTrendView *self);
static void regrouped_cb (TmTrendPanel *panel, TmTrendView *self);

/* Removes the charts from `index` on. */
static void
truncate_charts (TmTrendView *self, guint index)
{
  while (self->charts->len > index)
    {
      TmTrendPanel *panel = g_ptr_array_index (self->charts, self->charts->len - 1);
      g_signal_handlers_disconnect_by_data (panel, self);
      gtk_box_remove (GTK_BOX (self->column), GTK_WIDGET (panel));
      g_ptr_array_remove_index (self->charts, self->charts->len - 1);
    }
}

static void
append_chart (TmTrendView *self, const TmTrendRequest *request)
{
  TmTrendPanel *panel = tm_trend_panel_new (tm_section_get_session (TM_SECTION (self)),
                                            tm_section_get_document (TM_SECTION (self)), request,
                                            self->charts->len > 0);

  g_signal_connect (panel, "drill", G_CALLBACK (drill_cb), self);
  g_signal_connect (panel, "close-requested", G_CALLBACK (close_requested_cb), self);
  g_signal_connect (panel, "regrouped", G_CALLBACK (regrouped_cb), self);
  g_ptr_array_add (self->charts, panel);
  gtk_box_append (GTK_BOX (self->column), GTK_WIDGET (panel));
}

static void
drill_cb (TmTrendPanel *panel, const char *key, TmTrendView *self)
{
  guint index;
  TmTrendRequest request;
  g_autofree char *label = g_strdup (key);

  if (!g_ptr_array_find (self->charts, panel, &index))
    return;
  /* a new selection in this chart replaces the drill-downs below it */
  truncate_charts (self, index + 1);
  tm_trend_request_copy (&request, tm_trend_panel_get_request (panel));
  if (tm_trend_request_push_drill (&request, label, NULL))
    append_chart (self, &request);
  tm_trend_request_clear (&request);
}

static void
close_requested_cb (TmTrendPanel *panel, TmTrendView *self)
{
  guint index;

  if (!g_ptr_array_find (self->charts, panel, &index) || index == 0)
    return;
  truncate_charts (self, index);
  tm_trend_panel_select (g_ptr_array_index (self->charts, index - 1), -1);
}

/* A chart regrouped: the drill-downs below it named its old groups. */
static void
regrouped_cb (TmTrendPanel *panel, TmTrendView *self)
{
  guint index;

  if (g_ptr_array_find (self->charts, panel, &index))
    truncate_charts (self, index + 1);
}

void
tm_trend_view_set_window (TmTrendView *self, guint from_gc, guint to_gc)
{
  g_autofree char *title = NULL;
  g_autofree char *tab = NULL;
  TmTrendRequest request;
  TmTrace *trace;

  g_return_if_fail (TM_IS_TREND_VIEW (self));
  g_return_if_fail (tm_section_get_document (TM_SECTION (self)) != NULL);
  g_return_if_fail (from_gc >= 1 && from_gc <= to_gc);

  trace = tm_document_get_trace (tm_section_get_document (TM_SECTION (self)));

  truncate_charts (self, 0);
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    /* TRANSLATORS: view title with the window's first and last time point */
    title = g_strdup_printf (_("Call stacks over time, time points %u to %u"), from_gc, to_gc);
  else
    /* TRANSLATORS: view title with the window's first and last GC */
    title = g_strdup_printf (_("Object groups over time, GC %u to %u"), from_gc, to_gc);
  gtk_label_set_text (self->title_label, title);
  tab = g_strdup_printf (_("Trends, GC %u–%u"), from_gc, to_gc);
  tm_section_set_title (TM_SECTION (self), tab);

  tm_trend_request_init (&request);
  request.from_gc = from_gc;
  request.to_gc = to_gc;
  /* a native program's question is which call stacks grew */
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    request.chain[0] = TM_CLASSIFIER_SITE;
  append_chart (self, &request);
  tm_trend_request_clear (&request);
}

guint
tm_trend_view_get_n_charts (TmTrendView *self)
{
  g_return_val_if_fail (TM_IS_TREND_VIEW (self), 0);
  return self->charts->len;
}

TmTrendPanel *
tm_trend_view_get_chart (TmTrendView *self, guint index)
{
  g_return_val_if_fail (TM_IS_TREND_VIEW (self), NULL);
  g_return_val_if_fail (index < self->charts->len, NULL);
  return g_ptr_array_index (self->charts, index);
}

GtkWidget *
tm_trend_view_new (TmSession *session)
{
  g_return_val_if_fail (TM_IS_SESSION (session), NULL);
  return g_object_new (TM_TYPE_TREND_VIEW, "session", session, NULL);
}

static void
tm_trend_view_dispose (GObject *object)
{
  TmTrendView *self = TM_TREND_VIEW (object);

  if (self->charts != NULL)
    truncate_charts (self, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_TREND_VIEW);
  G_OBJECT_CLASS (tm_trend_view_parent_class)->dispose (object);
}

static void
tm_trend_view_finalize (GObject *object)
{
  TmTrendView *self = TM_TREND_VIEW (object);

  g_ptr_array_unref (self->charts);
  G_OBJECT_CLASS (tm_trend_view_parent_class)->finalize (object);
}

static void
tm_trend_view_class_init (TmTrendViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_trend_view_dispose;
  object_class->finalize = tm_trend_view_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-trend-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmTrendView, box);
  gtk_widget_class_bind_template_child (widget_class, TmTrendView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmTrendView, column);
  gtk_widget_class_set_css_name (widget_class, "tm-trend-view");
}

static void
tm_trend_view_init (TmTrendView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->charts = g_ptr_array_new ();
}
