/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Flame graph view: the drawing is tm_render_flame(); the view keeps the
 * rects it drew for clicks and tooltips.
 */
#include "tm-config.h"

#include <glib/gi18n-lib.h>

#include "tm-flame-view.h"
#include "tm-notice.h"
#include "tm-export.h"
#include "tm-format-util.h"
#include "tm-render-flame.h"

struct _TmFlameView
{
  GtkWidget       parent_instance;

  GtkWidget      *box;
  GtkDropDown    *metric_dropdown;
  GtkToggleButton *bottom_up_toggle;
  GtkButton      *reset_button;
  GtkLabel       *status_label;
  GtkSearchEntry *search_entry;
  GtkDrawingArea *area;

  TmCallProfile  *profile;
  TmCallTree     *tree;
  char           *name;
  char           *search;
  guint32         zoom;
  GArray         *rects;       /* TmFlameRect of the last drawing */
};

G_DEFINE_FINAL_TYPE (TmFlameView, tm_flame_view, GTK_TYPE_WIDGET)

static TmCostKind
metric (TmFlameView *self)
{
  return (TmCostKind) MIN (gtk_drop_down_get_selected (self->metric_dropdown), TM_N_COSTS - 1);
}

static void
fill_options (TmFlameView *self, TmFlameOptions *opt, const char *title)
{
  opt->metric = metric (self);
  opt->zoom = self->zoom;
  opt->search = self->search;
  opt->title = title;
  opt->font = NULL;
  opt->dark = FALSE;
}

static void
update_size (TmFlameView *self)
{
  int h = self->tree ? (int) tm_render_flame_height (self->tree, 120, 6000) : 120;
  gtk_widget_set_size_request (GTK_WIDGET (self->area), -1, h);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
update_status (TmFlameView *self)
{
  g_autofree char *text = NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->reset_button), self->zoom != 0);
  if (self->tree == NULL || self->zoom == 0)
    text = g_strdup (_("Click a frame to zoom into it."));
  else
    {
      const TmCallNode *n = tm_call_tree_node (self->tree, self->zoom);
      const TmCallNode *root = tm_call_tree_node (self->tree, 0);
      TmCostKind k = metric (self);
      g_autofree char *label = tm_call_symbol_label (tm_call_profile_get_symbol (self->profile, n->symbol));
      double share = root->cost.v[k] > 0 ? 100.0 * (double) n->cost.v[k] / (double) root->cost.v[k] : 0.0;
      text = g_strdup_printf (_("Zoomed into %s: %.1f %% of all"), label, share);
    }
  gtk_label_set_text (self->status_label, text);
}

static void
rebuild (TmFlameView *self)
{
  g_clear_pointer (&self->tree, tm_call_tree_free);
  if (self->profile != NULL)
    self->tree = tm_call_tree_new (self->profile, gtk_toggle_button_get_active (self->bottom_up_toggle)
                                                    ? TM_CALL_TREE_BOTTOM_UP : TM_CALL_TREE_TOP_DOWN);
  self->zoom = 0;
  update_status (self);
  update_size (self);
}

static void
draw_cb (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  TmFlameView *self = data;
  TmFlameOptions opt;

  g_array_set_size (self->rects, 0);
  if (self->tree == NULL)
    return;
  fill_options (self, &opt, NULL);
  tm_render_flame (cr, width, height, self->tree, &opt, self->rects);
}

static void
options_changed_cb (TmFlameView *self)
{
  rebuild (self);
}

static void
reset_clicked_cb (TmFlameView *self)
{
  self->zoom = 0;
  update_status (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
search_changed_cb (TmFlameView *self, GtkSearchEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search, g_free);
  if (text[0] != '\0')
    self->search = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

guint32
tm_flame_view_click (TmFlameView *self, double x, double y)
{
  const TmFlameRect *r;

  g_return_val_if_fail (TM_IS_FLAME_VIEW (self), 0);
  r = tm_flame_rect_at (self->rects, x, y);
  if (r != NULL)
    {
      /* a context bar zooms back out to it; the zoomed frame, to the whole */
      self->zoom = r->node == self->zoom ? 0 : r->node;
      update_status (self);
      gtk_widget_queue_draw (GTK_WIDGET (self->area));
    }
  return self->zoom;
}

static void
pressed_cb (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  tm_flame_view_click (TM_FLAME_VIEW (data), x, y);
}

static gboolean
query_tooltip_cb (TmFlameView *self, int x, int y, gboolean keyboard, GtkTooltip *tooltip, GtkWidget *widget)
{
  const TmFlameRect *r = tm_flame_rect_at (self->rects, x, y);
  const TmCallNode *n, *root;
  GString *s;

  if (r == NULL || self->tree == NULL)
    return FALSE;
  n = tm_call_tree_node (self->tree, r->node);
  root = tm_call_tree_node (self->tree, 0);
  s = g_string_new (NULL);
  if (r->node == 0)
    g_string_append (s, _("All allocations"));
  else
    {
      const TmCallSymbol *sym = tm_call_profile_get_symbol (self->profile, n->symbol);
      g_autofree char *label = tm_call_symbol_label (sym);
      g_autofree char *escaped = g_markup_escape_text (label, -1);
      g_string_append_printf (s, "<b>%s</b>", escaped);
      if (n->file && n->file[0])
        {
          g_autofree char *file = g_markup_escape_text (n->file, -1);
          g_string_append_printf (s, "\n%s:%d", file, n->line);
        }
      if (sym->module[0])
        {
          g_autofree char *module = g_markup_escape_text (sym->module, -1);
          g_string_append_printf (s, _("\nin %s"), module);
        }
    }
  for (guint k = 0; k < TM_N_COSTS; k++)
    {
      g_autofree char *v = tm_cost_kind_is_bytes (k) ? tm_format_bytes ((double) n->cost.v[k])
                                                     : tm_format_count ((guint64) MAX (n->cost.v[k], 0));
      double share = root->cost.v[k] > 0 ? 100.0 * (double) n->cost.v[k] / (double) root->cost.v[k] : 0.0;
      g_string_append_printf (s, "\n%s: %s (%.1f %%)", tm_cost_kind_label (k), v, share);
    }
  gtk_tooltip_set_markup (tooltip, s->str);
  g_string_free (s, TRUE);
  return TRUE;
}

gboolean
tm_flame_view_export (TmFlameView *self, const char *path, gboolean svg, GError **error)
{
  TmFlameOptions opt;
  g_autofree char *title = NULL;
  int width;

  g_return_val_if_fail (TM_IS_FLAME_VIEW (self), FALSE);
  if (self->tree == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Nothing to export yet"));
      return FALSE;
    }
  title = g_strdup_printf (_("%s by call stack — %s"), tm_cost_kind_label (metric (self)),
                           self->name ? self->name : "");
  fill_options (self, &opt, title);
  width = MAX (gtk_widget_get_width (GTK_WIDGET (self->area)), 800);
  return tm_render_flame_write (self->tree, &opt, width, tm_render_flame_height (self->tree, 120, 8000), svg, path,
                                error);
}

static void
save_cb (const char *path, gpointer data)
{
  TmFlameView *self = data;
  g_autoptr(GError) error = NULL;
  gboolean svg = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "tm-export-svg"));

  if (path != NULL && !tm_flame_view_export (self, path, svg, &error))
    gtk_label_set_text (self->status_label, error->message);
  else if (path != NULL)
    tm_notice_saved (GTK_WIDGET (self), path);
}

static void
export_action (GtkWidget *widget, const char *name, GVariant *param)
{
  TmFlameView *self = TM_FLAME_VIEW (widget);
  gboolean svg = g_str_equal (g_variant_get_string (param, NULL), "svg");
  GtkRoot *root = gtk_widget_get_root (widget);

  g_object_set_data (G_OBJECT (self), "tm-export-svg", GINT_TO_POINTER (svg));
  tm_export_choose_file (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, _("Export Flame Graph"),
                         svg ? _("SVG images") : _("PNG images"), svg ? "image/svg+xml" : "image/png",
                         svg ? "flamegraph.svg" : "flamegraph.png", save_cb, g_object_ref (self), g_object_unref);
}

void
tm_flame_view_set_profile (TmFlameView *self, TmCallProfile *profile, const char *name)
{
  g_return_if_fail (TM_IS_FLAME_VIEW (self));
  if (profile)
    tm_call_profile_ref (profile);
  g_clear_pointer (&self->profile, tm_call_profile_unref);
  self->profile = profile;
  g_free (self->name);
  self->name = g_strdup (name);
  rebuild (self);
}

void
tm_flame_view_set_metric (TmFlameView *self, TmCostKind kind)
{
  g_return_if_fail (TM_IS_FLAME_VIEW (self));
  gtk_drop_down_set_selected (self->metric_dropdown, kind);
}

void
tm_flame_view_set_search (TmFlameView *self, const char *text)
{
  g_return_if_fail (TM_IS_FLAME_VIEW (self));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  search_changed_cb (self, self->search_entry);
}

TmCallTree *
tm_flame_view_get_tree (TmFlameView *self)
{
  return self->tree;
}

GArray *
tm_flame_view_get_rects (TmFlameView *self)
{
  return self->rects;
}

static void
tm_flame_view_dispose (GObject *object)
{
  TmFlameView *self = TM_FLAME_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_FLAME_VIEW);
  g_clear_pointer (&self->tree, tm_call_tree_free);
  g_clear_pointer (&self->profile, tm_call_profile_unref);
  g_clear_pointer (&self->rects, g_array_unref);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->search, g_free);
  G_OBJECT_CLASS (tm_flame_view_parent_class)->dispose (object);
}

static void
tm_flame_view_class_init (TmFlameViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_flame_view_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-flame-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmFlameView, box);
  gtk_widget_class_bind_template_child (widget_class, TmFlameView, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmFlameView, bottom_up_toggle);
  gtk_widget_class_bind_template_child (widget_class, TmFlameView, reset_button);
  gtk_widget_class_bind_template_child (widget_class, TmFlameView, status_label);
  gtk_widget_class_bind_template_child (widget_class, TmFlameView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TmFlameView, area);
  gtk_widget_class_bind_template_callback (widget_class, options_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, reset_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, query_tooltip_cb);
  gtk_widget_class_install_action (widget_class, "flame.export", "s", export_action);
}

static void
tm_flame_view_init (TmFlameView *self)
{
  GtkGesture *click;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->rects = g_array_new (FALSE, FALSE, sizeof (TmFlameRect));
  gtk_drawing_area_set_draw_func (self->area, draw_cb, self, NULL);
  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->area), GTK_EVENT_CONTROLLER (click));
  update_status (self);
}

GtkWidget *
tm_flame_view_new (void)
{
  return g_object_new (TM_TYPE_FLAME_VIEW, NULL);
}
