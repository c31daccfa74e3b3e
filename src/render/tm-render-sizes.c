/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The allocation-size histogram (see tm-render-sizes.h).
 */
#include "tm-config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "tm-render-sizes.h"
#include "tm-render-common.h"
#include "tm-format-util.h"

char *
tm_size_bucket_label (const TmSizeBucket *sizes, guint bucket)
{
  guint64 lo = bucket == 0 ? 0 : sizes[bucket - 1].max_size + 1;

  if (sizes[bucket].max_size == G_MAXUINT64)
    return g_strdup_printf ("> %" G_GUINT64_FORMAT " B", lo - 1);   /* short: a column is narrow */
  return g_strdup_printf ("%" G_GUINT64_FORMAT " – %" G_GUINT64_FORMAT " B", lo, sizes[bucket].max_size);
}

void
tm_render_size_histogram (cairo_t *cr, double width, double height, const TmSizeBucket *sizes, const char *title,
                          gboolean dark)
{
  g_autoptr(PangoFontDescription) font = tm_render_font_new (NULL);
  TmRenderText text = { cr, font, PANGO_ELLIPSIZE_END };
  TmColor fg = dark ? tm_render_rgb (0xffffff, 1.0) : tm_render_rgb (0x000000, 1.0);
  TmColor bar = tm_render_rgb (0x3584e4, 1.0);
  double top = TM_RENDER_PAD + (title ? TM_RENDER_HEADER : 0) + 16;   /* room for the counts */
  double bottom = height - TM_RENDER_PAD - 2 * TM_RENDER_X_LABELS;
  double left = TM_RENDER_PAD, right = width - TM_RENDER_PAD;
  double slot = (right - left) / TM_SIZE_HISTOGRAM_BUCKETS;
  guint64 max = 1;

  tm_render_background (cr, dark ? tm_render_rgb (0x241f31, 1.0) : tm_render_rgb (0xffffff, 1.0), width, height);
  if (title)
    tm_render_draw_title (&text, title, fg, width - 2 * TM_RENDER_PAD);
  for (guint b = 0; b < TM_SIZE_HISTOGRAM_BUCKETS; b++)
    max = MAX (max, sizes[b].allocations);

  /* the base line */
  tm_render_set_color (cr, fg, 0.3);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, left, floor (bottom) + 0.5);
  cairo_line_to (cr, right, floor (bottom) + 0.5);
  cairo_stroke (cr);

  for (guint b = 0; b < TM_SIZE_HISTOGRAM_BUCKETS; b++)
    {
      double x = left + b * slot, h = (bottom - top) * (double) sizes[b].allocations / (double) max;
      g_autofree char *label = tm_size_bucket_label (sizes, b);
      g_autofree char *count = tm_format_count (sizes[b].allocations);
      g_autofree char *bytes = tm_format_bytes ((double) sizes[b].bytes);

      tm_render_set_color (cr, bar, 0.85);
      cairo_rectangle (cr, round (x + slot * 0.15), round (bottom - h), round (slot * 0.7), round (h));
      cairo_fill (cr);
      tm_render_draw_text (&text, count, x + slot / 2, bottom - h - 2, 0.5, 1.0, FALSE, fg, 0.85, slot);
      tm_render_draw_text (&text, label, x + slot / 2, bottom + 3, 0.5, 0.0, FALSE, fg, 0.85, slot);
      tm_render_draw_text (&text, bytes, x + slot / 2, bottom + 3 + TM_RENDER_X_LABELS, 0.5, 0.0, FALSE, fg, 0.55,
                           slot);
    }
}
