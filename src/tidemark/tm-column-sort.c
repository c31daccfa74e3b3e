/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-column-sort.h"

#include <string.h>

#define RESIZE_EDGE 8   /* px at a title's end where a press resizes the column */

void
tm_column_sort_descending_first (GtkColumnViewColumn *column)
{
  g_object_set_data (G_OBJECT (column), "tm-descending-first", GINT_TO_POINTER (1));
}

/* The column whose title is at (x, y), or NULL; GTK 4.8 has no public
 * way to ask, so the titles are matched to the visible columns in order. */
static GtkColumnViewColumn *
column_at (GtkColumnView *view, double x, double y, gboolean *near_edge)
{
  GtkWidget *w = gtk_widget_pick (GTK_WIDGET (view), x, y, GTK_PICK_DEFAULT);
  GListModel *columns = gtk_column_view_get_columns (view);
  GtkWidget *title = NULL;
  guint index = 0;

  for (; w != NULL && w != GTK_WIDGET (view); w = gtk_widget_get_parent (w))
    if (strcmp (G_OBJECT_TYPE_NAME (w), "GtkColumnViewTitle") == 0)
      title = w;
  if (title == NULL)
    return NULL;
  for (GtkWidget *s = gtk_widget_get_prev_sibling (title); s != NULL; s = gtk_widget_get_prev_sibling (s))
    if (strcmp (G_OBJECT_TYPE_NAME (s), "GtkColumnViewTitle") == 0)
      index++;
  {
    graphene_point_t p;
    if (gtk_widget_compute_point (GTK_WIDGET (view), title, &GRAPHENE_POINT_INIT (x, y), &p))
      *near_edge = p.x > gtk_widget_get_width (title) - RESIZE_EDGE || p.x < RESIZE_EDGE;
  }
  for (guint i = 0, seen = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, i);
      if (!gtk_column_view_column_get_visible (c))
        continue;
      if (seen++ == index)
        return c;
    }
  return NULL;
}

static void
pressed_cb (GtkGestureClick *click, int n_press, double x, double y, GtkColumnView *view)
{
  GtkColumnViewColumn *last = g_object_get_data (G_OBJECT (view), "tm-sorted-column");
  gboolean near_edge = FALSE;
  GtkColumnViewColumn *column = column_at (view, x, y, &near_edge);

  if (column == NULL || near_edge || n_press != 1)
    return;
  g_object_set_data (G_OBJECT (view), "tm-sorted-column", column);
  if (column == last || gtk_column_view_column_get_sorter (column) == NULL ||
      !g_object_get_data (G_OBJECT (column), "tm-descending-first"))
    return;   /* the title's own click toggles */
  gtk_column_view_sort_by_column (view, column, GTK_SORT_DESCENDING);
  gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
}

void
tm_column_sort_by (GtkColumnView *view, GtkColumnViewColumn *column, GtkSortType order)
{
  /* columns belong to the view: a plain pointer, only compared */
  g_object_set_data (G_OBJECT (view), "tm-sorted-column", column);
  gtk_column_view_sort_by_column (view, column, order);
}

void
tm_column_sort_init (GtkColumnView *view)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), view);
  gtk_widget_add_controller (GTK_WIDGET (view), GTK_EVENT_CONTROLLER (click));
}
