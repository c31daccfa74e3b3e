/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Flame graphs (tm-render-flame.c) of the known call stacks of
 * tests/data/heaptrack/calls.c: every frame is as wide as its share of the
 * metric in the call tree, sits on its caller, and zoom and search do what
 * they say.
 */
#include <math.h>
#include <string.h>
#include <glib.h>

#include "tm-heaptrack-profile.h"
#include "tm-render-flame.h"
#include "tm-render-common.h"

#define W 1000.0
#define H 400.0

static TmHeaptrackProfile *
load (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "heaptrack", "calls.zst", NULL);
  g_autoptr(GError) error = NULL;
  TmHeaptrackProfile *hp = tm_heaptrack_profile_read (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return hp;
}

static GArray *
draw (const TmCallTree *tree, const TmFlameOptions *opt)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) W, (int) H);
  cairo_t *cr = cairo_create (s);
  GArray *rects = g_array_new (FALSE, FALSE, sizeof (TmFlameRect));

  tm_render_flame (cr, W, H, tree, opt, rects);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return rects;
}

static const TmFlameRect *
rect_of (GArray *rects, guint32 node)
{
  for (guint i = 0; i < rects->len; i++)
    if (g_array_index (rects, TmFlameRect, i).node == node)
      return &g_array_index (rects, TmFlameRect, i);
  return NULL;
}

static const char *
function_of (const TmCallTree *tree, guint32 node)
{
  return tm_call_profile_get_symbol (tm_call_tree_profile (tree), tm_call_tree_node (tree, node)->symbol)->function;
}

/* Each frame's width is its cost over the zoomed frame's cost, times the
 * plot width; it sits one row above its parent and inside it. */
static guint
check_widths (const TmCallTree *tree, GArray *rects, TmCostKind metric, guint32 zoom)
{
  const double plot = W - 2 * TM_RENDER_PAD;
  double base = (double) tm_call_tree_node (tree, zoom)->cost.v[metric];
  guint frames = 0;

  for (guint i = 0; i < rects->len; i++)
    {
      const TmFlameRect *r = &g_array_index (rects, TmFlameRect, i);
      const TmCallNode *n = tm_call_tree_node (tree, r->node);
      const TmFlameRect *parent;

      if (r->context)
        {
          g_assert_cmpfloat_with_epsilon (r->width, plot, 1e-9);
          continue;
        }
      g_assert_cmpfloat_with_epsilon (r->width, plot * (double) n->cost.v[metric] / base, 1e-6);
      frames++;
      if (r->node == zoom)
        continue;
      parent = rect_of (rects, n->parent);
      g_assert_nonnull (parent);
      g_assert_cmpfloat_with_epsilon (r->y, parent->y - TM_FLAME_ROW_HEIGHT, 1e-9);
      g_assert_cmpfloat (r->x, >=, parent->x - 1e-9);
      g_assert_cmpfloat (r->x + r->width, <=, parent->x + parent->width + 1e-6);
    }
  return frames;
}

static void
test_widths (void)
{
  g_autoptr(TmHeaptrackProfile) hp = load ();
  g_autoptr(TmCallTree) tree = tm_call_tree_new (tm_heaptrack_profile_calls (hp), TM_CALL_TREE_TOP_DOWN);
  const TmCostKind metrics[] = { TM_COST_ALLOCATIONS, TM_COST_TEMPORARY, TM_COST_PEAK, TM_COST_ALLOCATED };
  const double plot = W - 2 * TM_RENDER_PAD;

  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
    {
      TmFlameOptions opt = { .metric = metrics[m], .title = "flame" };
      g_autoptr(GArray) rects = draw (tree, &opt);
      g_assert_cmpuint (check_widths (tree, rects, metrics[m], 0), >, 5);
    }

  /* the known answers of calls.c: main 2061 of 2062 calls, hot 1000 */
  {
    TmFlameOptions opt = { .metric = TM_COST_ALLOCATIONS };
    g_autoptr(GArray) rects = draw (tree, &opt);
    gboolean saw_hot = FALSE;

    g_assert_cmpfloat_with_epsilon (rect_of (rects, 0)->width, plot, 1e-9);
    for (guint i = 0; i < rects->len; i++)
      {
        const TmFlameRect *r = &g_array_index (rects, TmFlameRect, i);
        if (r->node == 0)
          continue;
        if (strcmp (function_of (tree, r->node), "main") == 0)
          g_assert_cmpfloat_with_epsilon (r->width, plot * 2061 / 2062, 1e-6);
        if (strcmp (function_of (tree, r->node), "hot") == 0)
          {
            const TmFlameRect *hit = tm_flame_rect_at (rects, r->x + r->width / 2, r->y + r->height / 2);
            g_assert_cmpfloat_with_epsilon (r->width, plot * 1000 / 2062, 1e-6);
            /* the biggest child comes first, at its parent's left edge */
            g_assert_cmpfloat_with_epsilon (r->x, TM_RENDER_PAD, 1e-9);
            g_assert_nonnull (hit);
            g_assert_cmpuint (hit->node, ==, r->node);
            saw_hot = TRUE;
          }
      }
    g_assert_true (saw_hot);
  }
}

static void
test_zoom_search (void)
{
  g_autoptr(TmHeaptrackProfile) hp = load ();
  g_autoptr(TmCallTree) tree = tm_call_tree_new (tm_heaptrack_profile_calls (hp), TM_CALL_TREE_TOP_DOWN);
  const double plot = W - 2 * TM_RENDER_PAD;
  guint32 keeper = TM_CALL_NO_NODE;
  guint matches = 0, leaf_nodes = 0;

  for (guint32 i = 1; i < tm_call_tree_n_nodes (tree); i++)
    {
      if (strcmp (function_of (tree, i), "keeper") == 0)
        keeper = i;
      if (strcmp (function_of (tree, i), "leaf") == 0 && tm_call_tree_node (tree, i)->cost.v[TM_COST_ALLOCATIONS] > 0)
        leaf_nodes++;
    }
  g_assert_cmpuint (keeper, !=, TM_CALL_NO_NODE);
  g_assert_cmpuint (leaf_nodes, ==, 4);

  /* zoom: keeper full width above its context (all, main) */
  {
    TmFlameOptions opt = { .metric = TM_COST_ALLOCATIONS, .zoom = keeper };
    g_autoptr(GArray) rects = draw (tree, &opt);
    const TmFlameRect *k = rect_of (rects, keeper);
    guint context = 0;

    g_assert_nonnull (k);
    g_assert_false (k->context);
    g_assert_cmpfloat_with_epsilon (k->width, plot, 1e-9);
    for (guint i = 0; i < rects->len; i++)
      if (g_array_index (rects, TmFlameRect, i).context)
        context++;
    g_assert_cmpuint (context, ==, 2);
    g_assert_cmpuint (check_widths (tree, rects, TM_COST_ALLOCATIONS, keeper), ==, 2);
    /* nothing outside the zoomed frame's subtree besides the context */
    g_assert_cmpuint (rects->len, ==, 2 + 2);
  }

  /* search: exactly the leaf frames match, case-insensitively */
  {
    TmFlameOptions opt = { .metric = TM_COST_ALLOCATIONS, .search = "LEAF" };
    g_autoptr(GArray) rects = draw (tree, &opt);

    for (guint i = 0; i < rects->len; i++)
      {
        const TmFlameRect *r = &g_array_index (rects, TmFlameRect, i);
        if (r->match)
          {
            g_assert_cmpstr (function_of (tree, r->node), ==, "leaf");
            matches++;
          }
        else if (r->node != 0)
          g_assert_cmpstr (function_of (tree, r->node), !=, "leaf");
      }
    g_assert_cmpuint (matches, ==, leaf_nodes);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/flame/widths", test_widths);
  g_test_add_func ("/flame/zoom-search", test_zoom_search);
  return g_test_run ();
}
