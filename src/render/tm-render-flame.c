/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Flame graphs of call trees (see tm-render-flame.h).
 */
#include "tm-config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "tm-render-flame.h"
#include "tm-render-common.h"
#include "tm-format-util.h"

#define MIN_LABEL_WIDTH 28.0
#define MIN_WIDTH       0.5

typedef struct {
  cairo_t              *cr;
  const TmCallTree     *tree;
  TmCallProfile        *profile;
  const TmFlameOptions *opt;
  TmRenderText          text;
  GArray               *rects;
  double                left, right, top, bottom;
  char                 *search;     /* casefolded */
  gboolean              dark;
} Flame;

static double
cost_of (const TmCallNode *n, TmCostKind metric)
{
  return (double) MAX (n->cost.v[metric], 0);
}

/* heaptrack's warm palette, one stable shade per function */
static TmColor
frame_color (const TmCallSymbol *sym, gboolean dim, gboolean dark)
{
  guint h = g_str_hash (sym->function);
  double hue = (h % 1000) / 1000.0;   /* 0..1 within the band */
  TmColor c;

  if (!sym->resolved)
    {
      c = tm_render_rgb (0xb8b0a8, 1.0);
      c.red -= 0.08 * hue;
      c.green -= 0.08 * hue;
    }
  else
    {
      c.red = 0.93 + 0.05 * hue;
      c.green = 0.35 + 0.45 * ((h >> 10) % 1000) / 1000.0;
      c.blue = 0.12 + 0.18 * hue;
      c.alpha = 1.0;
    }
  if (dim)
    {
      double grey = (c.red + c.green + c.blue) / 3.0;
      double base = dark ? 0.28 : 0.86;
      c.red = c.green = c.blue = base + 0.08 * (grey - 0.5);
    }
  return c;
}

static gboolean
matches (Flame *f, const TmCallSymbol *sym)
{
  g_autofree char *folded = NULL;

  if (f->search == NULL)
    return FALSE;
  folded = g_utf8_casefold (sym->function, -1);
  return strstr (folded, f->search) != NULL;
}

/* A frame's name without its parameter list, and for Java methods without
 * the package ("HttpHandler.handle"): what fits in a narrow box. */
static char *
short_label (const TmCallSymbol *sym)
{
  const char *paren = strchr (sym->function, '(');
  g_autofree char *name = NULL;
  const char *last, *cut;

  if (!sym->resolved || paren == NULL || paren == sym->function || g_str_has_prefix (sym->function, "operator"))
    return tm_call_symbol_label (sym);
  name = g_strndup (sym->function, (gsize) (paren - sym->function));
  if (strstr (name, "::") != NULL || (last = strrchr (name, '.')) == NULL)
    return g_steal_pointer (&name);
  /* package.Class.method: keep Class.method */
  for (cut = last - 1; cut > name && *cut != '.'; cut--)
    ;
  return g_strdup (*cut == '.' ? cut + 1 : name);
}

static void
draw_frame (Flame *f, guint32 node, double x, double w, guint row, gboolean context)
{
  const TmCallNode *n = tm_call_tree_node (f->tree, node);
  double y = f->bottom - (row + 1) * TM_FLAME_ROW_HEIGHT;
  TmFlameRect r = { x, y, w, TM_FLAME_ROW_HEIGHT - 1, node, FALSE, context };
  g_autofree char *label = NULL;
  TmColor fill, ink;

  if (node == 0)
    {
      g_autofree char *amount = tm_cost_kind_is_bytes (f->opt->metric) ? tm_format_bytes (cost_of (n, f->opt->metric))
                                                                        : tm_format_count ((guint64) cost_of (n, f->opt->metric));
      label = g_strdup_printf (_("all: %s %s"), amount, tm_cost_kind_to_string (f->opt->metric));
      fill = f->dark ? tm_render_rgb (0x5e5c64, 1.0) : tm_render_rgb (0xc0bfbc, 1.0);
    }
  else
    {
      const TmCallSymbol *sym = tm_call_profile_get_symbol (f->profile, n->symbol);
      r.match = matches (f, sym);
      label = short_label (sym);
      fill = frame_color (sym, f->search != NULL && !r.match, f->dark);
    }
  if (context)
    fill.alpha = 0.55;

  tm_render_set_color (f->cr, fill, 1.0);
  cairo_rectangle (f->cr, x, y, MAX (w - 1.0, 0.5), TM_FLAME_ROW_HEIGHT - 1);
  cairo_fill (f->cr);
  if (r.match)
    {
      tm_render_set_color (f->cr, tm_render_rgb (0x1c71d8, 1.0), 1.0);
      cairo_set_line_width (f->cr, 1.5);
      cairo_rectangle (f->cr, x + 0.75, y + 0.75, MAX (w - 2.5, 0.5), TM_FLAME_ROW_HEIGHT - 2.5);
      cairo_stroke (f->cr);
    }
  if (w >= MIN_LABEL_WIDTH)
    {
      ink = f->search != NULL && !r.match && node != 0 ? tm_render_rgb (f->dark ? 0x9a9996 : 0x5e5c64, 1.0)
                                                       : tm_render_rgb (0x241f31, 1.0);
      if (f->dark && (node == 0 || (f->search != NULL && !r.match)))
        ink = tm_render_rgb (0xdeddda, 1.0);
      cairo_save (f->cr);
      cairo_rectangle (f->cr, x, y, w - 1, TM_FLAME_ROW_HEIGHT - 1);
      cairo_clip (f->cr);
      tm_render_draw_text (&f->text, label, x + 4, y + (TM_FLAME_ROW_HEIGHT - 1) / 2, 0.0, 0.5, r.match, ink, 1.0,
                           w - 8);
      cairo_restore (f->cr);
    }
  if (f->rects != NULL)
    g_array_append_val (f->rects, r);
}

static void
draw_subtree (Flame *f, guint32 node, double x, double w, guint row)
{
  const TmCallNode *n = tm_call_tree_node (f->tree, node);
  double total = cost_of (n, f->opt->metric), at = x;
  g_autofree guint32 *kids = NULL;

  draw_frame (f, node, x, w, row, FALSE);
  if (n->n_children == 0 || total <= 0 || f->bottom - (row + 2) * TM_FLAME_ROW_HEIGHT < f->top)
    return;
  kids = g_new (guint32, n->n_children);
  tm_call_tree_sorted_children (f->tree, node, f->opt->metric, kids);
  for (guint i = 0; i < n->n_children; i++)
    {
      double cw = w * cost_of (tm_call_tree_node (f->tree, kids[i]), f->opt->metric) / total;
      if (cw < MIN_WIDTH)
        break;   /* sorted: the rest are narrower still */
      draw_subtree (f, kids[i], at, cw, row + 1);
      at += cw;
    }
}

void
tm_render_flame (cairo_t *cr, double width, double height, const TmCallTree *tree, const TmFlameOptions *options,
                 GArray *rects)
{
  g_autoptr(PangoFontDescription) font = NULL;
  Flame f = { 0 };
  guint32 path[256];
  guint depth, zoom;

  g_return_if_fail (cr != NULL && tree != NULL && options != NULL);

  font = tm_render_font_new (options->font);
  f.cr = cr;
  f.tree = tree;
  f.profile = tm_call_tree_profile (tree);
  f.opt = options;
  f.rects = rects;
  f.dark = options->dark;
  f.text.cr = cr;
  f.text.font = font;
  f.text.ellipsize = PANGO_ELLIPSIZE_END;
  if (options->search != NULL && options->search[0] != '\0')
    f.search = g_utf8_casefold (options->search, -1);
  f.left = TM_RENDER_PAD;
  f.right = width - TM_RENDER_PAD;
  f.top = TM_RENDER_PAD + (options->title ? TM_RENDER_HEADER : 0);
  f.bottom = height - TM_RENDER_PAD;
  if (rects != NULL)
    g_array_set_size (rects, 0);

  tm_render_background (cr, options->dark ? tm_render_rgb (0x241f31, 1.0) : tm_render_rgb (0xffffff, 1.0), width,
                        height);
  if (options->title)
    tm_render_draw_title (&f.text, options->title,
                          options->dark ? tm_render_rgb (0xffffff, 1.0) : tm_render_rgb (0x000000, 1.0),
                          width - 2 * TM_RENDER_PAD);

  /* the zoomed frame's ancestors: full-width context bars below it */
  zoom = options->zoom < tm_call_tree_n_nodes (tree) ? options->zoom : 0;
  depth = tm_call_tree_path (tree, zoom, path, G_N_ELEMENTS (path));
  if (zoom != 0)
    {
      draw_frame (&f, 0, f.left, f.right - f.left, 0, TRUE);
      for (guint i = 0; i + 1 < depth; i++)
        draw_frame (&f, path[i], f.left, f.right - f.left, i + 1, TRUE);
    }
  draw_subtree (&f, zoom, f.left, f.right - f.left, zoom != 0 ? depth : 0);
  g_free (f.search);
}

static guint
tree_depth (const TmCallTree *tree)
{
  guint max = 0, n = tm_call_tree_n_nodes (tree);
  g_autofree guint *depth = g_new0 (guint, n);

  /* parents come before their children (breadth-first numbering) */
  for (guint i = 1; i < n; i++)
    {
      depth[i] = depth[tm_call_tree_node (tree, i)->parent] + 1;
      max = MAX (max, depth[i]);
    }
  return max;
}

double
tm_render_flame_height (const TmCallTree *tree, double min_height, double max_height)
{
  double h = 2 * TM_RENDER_PAD + TM_RENDER_HEADER + (tree_depth (tree) + 1) * TM_FLAME_ROW_HEIGHT;
  return CLAMP (h, min_height, max_height);
}

const TmFlameRect *
tm_flame_rect_at (GArray *rects, double x, double y)
{
  for (guint i = 0; rects != NULL && i < rects->len; i++)
    {
      const TmFlameRect *r = &g_array_index (rects, TmFlameRect, i);
      if (x >= r->x && x < r->x + r->width && y >= r->y && y < r->y + r->height + 1)
        return r;
    }
  return NULL;
}

typedef struct {
  const TmCallTree     *tree;
  const TmFlameOptions *options;
  double                width, height;
} WriteCtx;

static void
draw_for_file (cairo_t *cr, gpointer data)
{
  WriteCtx *w = data;
  tm_render_flame (cr, w->width, w->height, w->tree, w->options, NULL);
}

gboolean
tm_render_flame_write (const TmCallTree *tree, const TmFlameOptions *options, double width, double height,
                       gboolean svg, const char *path, GError **error)
{
  WriteCtx w = { tree, options, width, height };

  if (svg)
    return tm_render_write_svg (width, height, draw_for_file, &w, path, error);
  return tm_render_write_png (width, height, draw_for_file, &w, path, error);
}
