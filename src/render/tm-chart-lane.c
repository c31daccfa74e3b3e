/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-chart-lane.h"

#include <math.h>

#define LABEL_ROOM 130.0   /* what a row keeps free after a marker for its name */
#define GAP        3.0

double
tm_chart_lane_row_height (gboolean labelled)
{
  return labelled ? 17.0 : 7.0;
}

guint
tm_chart_lane_place (const TmChartBand *bands, guint n_bands, const TmChartLayout *l,
                     gboolean labelled, guint max_rows, TmChartLaneSlot *slots)
{
  double row_end[TM_CHART_LANE_MAX_ROWS];
  guint rows = 0;

  max_rows = CLAMP (max_rows, 1, TM_CHART_LANE_MAX_ROWS);
  for (guint r = 0; r < max_rows; r++)
    row_end[r] = -G_MAXDOUBLE;
  for (guint i = 0; i < n_bands; i++)
    {
      double x0 = tm_chart_layout_ns_to_x (l, bands[i].start_ns);
      double x1 = tm_chart_layout_ns_to_x (l, bands[i].end_ns);
      double right = l->x + l->width;
      guint r;

      slots[i].row = -1;
      if (x1 < l->x || x0 > right)
        continue;
      x0 = MAX (x0, l->x);
      x1 = MIN (x1, right);
      if (x1 - x0 < TM_CHART_BAND_MIN_WIDTH)
        {
          /* a narrow window stays visible, centred on where it is */
          double mid = CLAMP ((x0 + x1) / 2, l->x + TM_CHART_BAND_MIN_WIDTH / 2,
                              right - TM_CHART_BAND_MIN_WIDTH / 2);
          x0 = mid - TM_CHART_BAND_MIN_WIDTH / 2;
          x1 = mid + TM_CHART_BAND_MIN_WIDTH / 2;
        }
      slots[i].x0 = x0;
      slots[i].x1 = x1;
      for (r = 0; r + 1 < max_rows && row_end[r] + GAP > x0; r++)
        ;
      slots[i].row = (int) r;
      row_end[r] = MAX (row_end[r], labelled ? MAX (x1, x0 + LABEL_ROOM) : x1);
      rows = MAX (rows, r + 1);
    }
  return rows;
}

/* Where the next marker of the same row starts: the room for a name. */
static double
label_limit (const TmChartLayout *l, const TmChartLaneSlot *slots, guint n, guint i)
{
  double limit = l->x + l->width + TM_RENDER_PAD - 2;

  for (guint k = 0; k < n; k++)
    if (k != i && slots[k].row == slots[i].row && slots[k].x0 > slots[i].x0)
      limit = MIN (limit, slots[k].x0 - GAP);
  return limit;
}

void
tm_chart_lane_draw (const TmRenderText *t, const TmChartOptions *o, const TmChartLayout *l,
                    const TmChartLaneSlot *slots)
{
  gboolean labelled = o->band_labels;
  double row_h = tm_chart_lane_row_height (labelled);

  if (l->lane_rows == 0)
    return;
  for (guint i = 0; i < o->n_bands; i++)
    {
      const TmChartBand *b = &o->bands[i];
      gboolean selected = (int) i == o->selected_band;
      gboolean dimmed = o->selected_band >= 0 && !selected;
      TmColor color = tm_chart_window_color (b->kind);
      double y = l->lane_y + slots[i].row * row_h;
      double bar_h = selected ? 5 : 3;
      double alpha = selected ? 1.0 : dimmed ? 0.45 : b->suspicious ? 0.9 : 0.55;

      if (slots[i].row < 0)
        continue;
      tm_render_set_color (t->cr, color, alpha);
      cairo_rectangle (t->cr, slots[i].x0, y + row_h - bar_h - 1, slots[i].x1 - slots[i].x0, bar_h);
      cairo_fill (t->cr);
      if (labelled)
        {
          double room = label_limit (l, slots, o->n_bands, i) - slots[i].x0;
          TmRenderText end = *t;

          end.ellipsize = PANGO_ELLIPSIZE_END;
          if (room > 24)
            tm_render_draw_text (&end, tm_chart_window_label (b->kind), slots[i].x0, y + row_h - bar_h - 2,
                                 0.0, 1.0, selected, color, dimmed ? 0.6 : 1.0, room);
        }
    }
}

void
tm_chart_lane_outline (cairo_t *cr, const TmChartOptions *o, const TmChartLayout *l,
                       const TmChartLaneSlot *slots)
{
  for (guint i = 0; i < o->n_bands; i++)
    {
      const TmChartBand *b = &o->bands[i];
      gboolean selected = (int) i == o->selected_band;
      gboolean dimmed = o->selected_band >= 0 && !selected;
      TmColor color = tm_chart_window_color (b->kind);
      double x0, x1;

      if (slots[i].row < 0)
        continue;
      x0 = round (slots[i].x0) + 0.5;
      x1 = round (slots[i].x1) - 0.5;
      if (selected)
        {
          /* one light tint, never stacked: the data keeps its colours */
          tm_render_set_color (cr, color, 0.07);
          cairo_rectangle (cr, x0, l->y, x1 - x0, l->height);
          cairo_fill (cr);
        }
      tm_render_set_color (cr, color, selected ? 0.95 : dimmed ? 0.2 : b->suspicious ? 0.5 : 0.3);
      cairo_set_line_width (cr, selected ? 1.5 : 1.0);
      cairo_rectangle (cr, x0, l->y + 0.5, x1 - x0, l->height - 1);
      cairo_stroke (cr);
    }
}

int
tm_chart_lane_hit (const TmChartBand *bands, guint n_bands, const TmChartLayout *l, gboolean labelled,
                   double x, double y)
{
  g_autofree TmChartLaneSlot *slots = NULL;
  double row_h = tm_chart_lane_row_height (labelled);
  int row, best = -1;

  if (l->lane_rows == 0 || n_bands == 0 || y < l->lane_y || y >= l->lane_y + l->lane_rows * row_h)
    return -1;
  slots = g_new (TmChartLaneSlot, n_bands);
  tm_chart_lane_place (bands, n_bands, l, labelled, l->lane_rows, slots);
  row = (int) ((y - l->lane_y) / row_h);
  /* the marker under the pointer, the narrowest of them ... */
  for (guint i = 0; i < n_bands; i++)
    if (slots[i].row == row && x >= slots[i].x0 - 2 && x <= slots[i].x1 + 2 &&
        (best < 0 || slots[i].x1 - slots[i].x0 < slots[best].x1 - slots[best].x0))
      best = (int) i;
  /* ... or the one whose name is there */
  for (guint i = 0; i < n_bands && best < 0 && labelled; i++)
    if (slots[i].row == row && x >= slots[i].x0 &&
        x <= MIN (slots[i].x0 + LABEL_ROOM, label_limit (l, slots, n_bands, i)))
      best = (int) i;
  return best;
}
