/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-trend-view.h"

#include <glib/gi18n.h>

/* Heap states kept for drill-downs: 4 M graph nodes, ~220 MB at the
 * ~54 bytes per node measured on the synthetic leak (graph, dominator
 * tree, reverse graph). */
#define HEAP_CACHE_ITEMS 4000000

struct _TmTrendView
{
  GtkWidget   parent_instance;

  GtkWidget  *box;
  GtkLabel   *title_label;
  GtkWidget  *column;

  TmSession  *session;
  GPtrArray  *charts;
  TmTrendHeapCache *heaps;  /* heap states shared by the charts (deep/retained) */
  TmDsContext *ds;          /* descriptions and detections shared by the charts */     /* TmTrendPanel*, top to bottom (the column holds them) */
};

G_DEFINE_FINAL_TYPE (TmTrendView, tm_trend_view, GTK_TYPE_WIDGET)

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
append_chart (TmTrendView *self, TmTrace *trace, const TmTrendRequest *request)
{
  TmTrendPanel *panel = tm_trend_panel_new (self->session, trace, request, self->heaps,
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
    append_chart (self, tm_trend_panel_get_trend (panel)->trace, &request);
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
tm_trend_view_set_window (TmTrendView *self, TmTrace *trace, guint from_gc, guint to_gc)
{
  g_autofree char *title = NULL;
  TmTrendRequest request;

  g_return_if_fail (TM_IS_TREND_VIEW (self));
  g_return_if_fail (trace != NULL && from_gc >= 1 && from_gc <= to_gc);

  truncate_charts (self, 0);
  g_clear_pointer (&self->heaps, tm_trend_heap_cache_unref);
  self->heaps = tm_trend_heap_cache_new (trace, HEAP_CACHE_ITEMS);
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    /* TRANSLATORS: view title with the window's first and last time point */
    title = g_strdup_printf (_("Call stacks over time, time points %u to %u"), from_gc, to_gc);
  else
    /* TRANSLATORS: view title with the window's first and last GC */
    title = g_strdup_printf (_("Object groups over time, GC %u to %u"), from_gc, to_gc);
  gtk_label_set_text (self->title_label, title);

  tm_trend_request_init (&request);
  request.from_gc = from_gc;
  request.to_gc = to_gc;
  /* a native program's question is which call stacks grew */
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    request.chain[0] = TM_CLASSIFIER_SITE;
  /* the shipped descriptions unless the app gave the user's */
  if (self->ds == NULL)
    tm_trend_view_set_ds_files (self, NULL);
  tm_trend_request_set_ds (&request, self->ds);
  append_chart (self, trace, &request);
  tm_trend_request_clear (&request);
}

void
tm_trend_view_set_ds_files (TmTrendView *self, const char * const *files)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TM_IS_TREND_VIEW (self));

  g_clear_pointer (&self->ds, tm_ds_context_unref);
  self->ds = tm_ds_context_new_for_files (files, &error);
  if (self->ds == NULL)
    {
      /* an unreadable file: the shipped descriptions still work */
      g_message ("%s", error->message);
      self->ds = tm_ds_context_new_for_files (NULL, NULL);
    }
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
  TmTrendView *self = g_object_new (TM_TYPE_TREND_VIEW, NULL);

  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);
  if (session != NULL)
    self->session = g_object_ref (session);
  return GTK_WIDGET (self);
}

static void
tm_trend_view_dispose (GObject *object)
{
  TmTrendView *self = TM_TREND_VIEW (object);

  if (self->charts != NULL)
    truncate_charts (self, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_TREND_VIEW);
  g_clear_object (&self->session);
  g_clear_pointer (&self->heaps, tm_trend_heap_cache_unref);
  g_clear_pointer (&self->ds, tm_ds_context_unref);
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
