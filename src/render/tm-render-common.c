/* SPDX-License-Identifier: GPL-3.0-or-later
 * Drawing pieces shared by the chart renderers (see tm-render-common.h). */
#include "tm-config.h"
#include "tm-render-common.h"

#include <cairo-svg.h>
#include "tm-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>

double
tm_chart_layout_x_to_ns (const TmChartLayout *l, double x)
{
  if (l->width <= 0)
    return l->t0;
  return l->t0 + (x - l->x) / l->width * (l->t1 - l->t0);
}

double
tm_chart_layout_ns_to_x (const TmChartLayout *l, double ns)
{
  if (l->t1 <= l->t0)
    return l->x;
  return l->x + (ns - l->t0) / (l->t1 - l->t0) * l->width;
}

TmColor
tm_render_rgb (guint32 hex, double alpha)
{
  return (TmColor) { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0, alpha };
}

void
tm_render_set_color (cairo_t *cr, TmColor c, double alpha_scale)
{
  cairo_set_source_rgba (cr, c.red, c.green, c.blue, c.alpha * alpha_scale);
}

PangoFontDescription *
tm_render_font_new (const char *font)
{
  PangoFontDescription *fd = pango_font_description_from_string (font ? font : "Sans 9");

  if (pango_font_description_get_size (fd) <= 0)
    pango_font_description_set_size (fd, 9 * PANGO_SCALE);
  return fd;
}

PangoLayout *
tm_render_text_layout (const TmRenderText *t, const char *text, gboolean bold, double max_width)
{
  PangoLayout *layout = pango_cairo_create_layout (t->cr);
  PangoFontDescription *fd = pango_font_description_copy (t->font);

  if (bold)
    pango_font_description_set_weight (fd, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, fd);
  pango_layout_set_text (layout, text, -1);
  if (max_width > 0)
    {
      pango_layout_set_width (layout, (int) (max_width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, t->ellipsize);
    }
  pango_font_description_free (fd);
  return layout;
}

void
tm_render_text_size (const TmRenderText *t, const char *text, gboolean bold, double *w, double *h)
{
  g_autoptr(PangoLayout) layout = tm_render_text_layout (t, text, bold, -1);
  int pw, ph;

  pango_layout_get_pixel_size (layout, &pw, &ph);
  *w = pw;
  *h = ph;
}

double
tm_render_text_width (const TmRenderText *t, const char *text, gboolean bold)
{
  double w, h;

  tm_render_text_size (t, text, bold, &w, &h);
  return w;
}

double
tm_render_draw_text (const TmRenderText *t, const char *text, double x, double y, double xalign,
                     double yalign, gboolean bold, TmColor color, double alpha, double max_width)
{
  g_autoptr(PangoLayout) layout = tm_render_text_layout (t, text, bold, max_width);
  int pw, ph;

  pango_layout_get_pixel_size (layout, &pw, &ph);
  tm_render_set_color (t->cr, color, alpha);
  cairo_move_to (t->cr, round (x - pw * xalign), round (y - ph * yalign));
  pango_cairo_show_layout (t->cr, layout);
  return pw;
}

void
tm_render_draw_title (const TmRenderText *t, const char *title, TmColor foreground, double max_width)
{
  tm_render_draw_text (t, title, TM_RENDER_PAD, TM_RENDER_PAD + TM_RENDER_HEADER / 2 - 2, 0.0, 0.5,
                       TRUE, foreground, 0.9, max_width);
}

void
tm_render_background (cairo_t *cr, TmColor color, double width, double height)
{
  if (color.alpha <= 0)
    return;
  tm_render_set_color (cr, color, 1.0);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

double
tm_render_value_ticks (const TmRenderText *t, TmAxisTicks *ticks, TmAxisUnit unit, double vmax, double height)
{
  guint max_ticks = CLAMP ((guint) (height / 28), 2, 8);
  double label_w = 0;

  if (vmax <= 0)
    vmax = unit == TM_AXIS_UNIT_FRACTION ? 0.1 : unit == TM_AXIS_UNIT_BYTES ? 1024 : 10;
  tm_axis_ticks (ticks, unit, 0, vmax * 1.04, max_ticks, TRUE);
  if (unit == TM_AXIS_UNIT_FRACTION && ticks->max > 1.0 && vmax <= 1.0)
    tm_axis_ticks (ticks, unit, 0, 1.0, max_ticks, TRUE);

  for (guint i = 0; i < ticks->n_ticks; i++)
    {
      g_autofree char *label = tm_axis_format_tick (ticks, ticks->ticks[i]);
      label_w = MAX (label_w, tm_render_text_width (t, label, FALSE));
    }
  return label_w;
}

static double
value_y (const TmChartLayout *l, double y_max, double v)
{
  return l->y + l->height - (v / y_max) * l->height;
}

void
tm_render_value_axis (const TmRenderText  *t,
                      const TmChartLayout *l,
                      double               y_max,
                      const TmAxisTicks   *ticks,
                      TmColor              fg)
{
  for (guint i = 0; i < ticks->n_ticks; i++)
    {
      g_autofree char *label = tm_axis_format_tick (ticks, ticks->ticks[i]);
      tm_render_value_gridline (t, l, value_y (l, y_max, ticks->ticks[i]), label, i == 0, fg);
    }
}

void
tm_render_value_gridline (const TmRenderText *t, const TmChartLayout *l, double y, const char *label,
                          gboolean base, TmColor fg)
{
  cairo_t *cr = t->cr;

  y = round (y) + 0.5;
  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  tm_render_set_color (cr, fg, base ? 0.35 : 0.10);
  cairo_move_to (cr, l->x, y);
  cairo_line_to (cr, l->x + l->width, y);
  cairo_stroke (cr);
  cairo_restore (cr);
  tm_render_draw_text (t, label, l->x - 6, y, 1.0, 0.5, FALSE, fg, 0.65, -1);
}

void
tm_render_time_axis (const TmRenderText  *t,
                     const TmChartLayout *l,
                     double               bottom,
                     double               label_right,
                     TmColor              fg)
{
  cairo_t *cr = t->cr;
  TmAxisTicks ticks;
  guint max_ticks = CLAMP ((guint) (l->width / 90), 2, 12);
  double last_right = -G_MAXDOUBLE;

  tm_axis_ticks (&ticks, TM_AXIS_UNIT_TIME_NS, l->t0, l->t1, max_ticks, FALSE);
  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < ticks.n_ticks; i++)
    {
      double x = round (tm_chart_layout_ns_to_x (l, ticks.ticks[i])) + 0.5;
      g_autofree char *label = tm_axis_format_tick (&ticks, ticks.ticks[i]);
      double w = tm_render_text_width (t, label, FALSE);

      tm_render_set_color (cr, fg, 0.06);
      cairo_move_to (cr, x, l->y);
      cairo_line_to (cr, x, l->y + l->height);
      cairo_stroke (cr);
      tm_render_set_color (cr, fg, 0.35);
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, bottom + 3);
      cairo_stroke (cr);

      /* Skip labels that would overlap the previous one or leave the chart. */
      if (x - w / 2 < last_right + 8 || x + w / 2 > label_right)
        continue;
      tm_render_draw_text (t, label, x, bottom + 3, 0.5, 0.0, FALSE, fg, 0.65, -1);
      last_right = x + w / 2;
    }
  cairo_restore (cr);
}

static gboolean
check_size (int w, int h, GError **error)
{
  if (w < 16 || h < 16 || w > 16384 || h > 16384)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("Chart size %d × %d is out of range (16 to 16384 pixels)"), w, h);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_written (cairo_status_t status, const char *path, GError **error)
{
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   _("Could not write “%s”: %s"), path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_image (double width, double height, gboolean svg, TmRenderDrawFunc draw, gpointer user_data, const char *path,
             GError **error)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;
  int w = (int) ceil (width), h = (int) ceil (height);

  g_return_val_if_fail (draw != NULL && path != NULL, FALSE);

  if (!check_size (w, h, error))
    return FALSE;
  surface = svg ? cairo_svg_surface_create (path, w, h) : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (surface);
  draw (cr, user_data);
  cairo_destroy (cr);
  if (svg)
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  else
    {
      cairo_surface_flush (surface);
      status = cairo_surface_write_to_png (surface, path);
    }
  cairo_surface_destroy (surface);
  return check_written (status, path, error);
}

gboolean
tm_render_write_png (double             width,
                     double             height,
                     TmRenderDrawFunc   draw,
                     gpointer           user_data,
                     const char        *path,
                     GError           **error)
{
  return write_image (width, height, FALSE, draw, user_data, path, error);
}

gboolean
tm_render_write_svg (double             width,
                     double             height,
                     TmRenderDrawFunc   draw,
                     gpointer           user_data,
                     const char        *path,
                     GError           **error)
{
  return write_image (width, height, TRUE, draw, user_data, path, error);
}

static cairo_status_t
append_png (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

GBytes *
tm_render_png_bytes (double             width,
                     double             height,
                     double             scale,
                     TmRenderDrawFunc   draw,
                     gpointer           user_data,
                     GError           **error)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;
  GByteArray *png;
  int w = (int) ceil (width * scale), h = (int) ceil (height * scale);

  g_return_val_if_fail (draw != NULL && scale > 0, NULL);

  if (!check_size (w, h, error))
    return NULL;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  draw (cr, user_data);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  png = g_byte_array_new ();
  status = cairo_surface_write_to_png_stream (surface, append_png, png);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FAILED, _("Could not encode a chart as PNG: %s"),
                   cairo_status_to_string (status));
      g_byte_array_unref (png);
      return NULL;
    }
  return g_byte_array_free_to_bytes (png);
}
