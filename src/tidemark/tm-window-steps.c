/* SPDX-License-Identifier: GPL-3.0-or-later
 * A window's explanation with its next steps (see the header). */
#include "tm-config.h"
#include "tm-window-steps.h"

#include <glib/gi18n.h>

char *
tm_window_steps_app_text (const char *explanation)
{
  g_autoptr(GRegex) cli = NULL;

  if (explanation == NULL)
    return g_strdup ("");
  /* the CLI's hints are parenthesized command lines; the buttons replace them */
  cli = g_regex_new ("\\s*\\(tidemark-cli [^)]*\\)", G_REGEX_OPTIMIZE, 0, NULL);
  return g_regex_replace_literal (cli, explanation, -1, 0, "", 0, NULL);
}

static void
add_step (GtkWidget *box, int index, const char *step, const char *label, const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_label (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.window-step");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new ("(is)", index, step));
  gtk_widget_set_tooltip_text (button, tooltip);
  /* small, so two or three share a line of the narrow sidebar */
  gtk_widget_add_css_class (button, "caption");
  gtk_flow_box_append (GTK_FLOW_BOX (box), button);
}

static GtkWidget *
text_label (const char *text, int lines)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (lines > 0)
    {
      gtk_label_set_lines (GTK_LABEL (label), lines);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
    }
  return label;
}

GtkWidget *
tm_window_steps_new (TmTrace *trace, const TmWindow *w, int index, int lines)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *steps = gtk_flow_box_new ();
  GtkWidget *label, *more, *popover, *full;
  g_autofree char *text = tm_window_steps_app_text (w->explanation);
  gboolean objects = trace != NULL && trace->n_objects > 0;
  gboolean leak = w->kind == TM_WINDOW_LEAK || w->kind == TM_WINDOW_LEAK_PEAK || w->kind == TM_WINDOW_LEAK_REGRESSION;

  label = text_label (text, lines);
  /* the sidebar's width comes from its rows: no paragraph on one line */
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  /* a preview: the popover and the Selection page show it whole */
  gtk_widget_add_css_class (label, "tm-preview");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), label);

  /* as many on a line as fit: the sidebar's width stays that of one */
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (steps), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (steps), 3);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (steps), 4);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (steps), 4);
  if (leak && trace != NULL && trace->n_graphs >= 2)
    add_step (steps, index, "ds-growth", _("Data Structures"),
              _("Data structure growth: which data structures grew in this window, ranked by growth"));
  if (leak && objects)
    add_step (steps, index, "compare-heaps", _("Compare Heaps"),
              _("The heap at the window's end compared with its start, most grown groups first"));
  if (objects && w->kind != TM_WINDOW_GC_OVERHEAD)
    add_step (steps, index, "trend", _("TrendViz"), _("How the object groups developed over this window"));
  if (objects)
    add_step (steps, index, "allocations", _("Allocations"),
              _("What was allocated and freed in this window, and how long it lived"));
  if (w->kind == TM_WINDOW_GC_OVERHEAD || !objects)
    add_step (steps, index, "advice", _("GC Advice"), _("GC configuration advice for this window"));

  /* the whole text, never cut */
  full = text_label (text, 0);
  gtk_label_set_selectable (GTK_LABEL (full), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (full), 60);
  gtk_widget_set_margin_start (full, 6);
  gtk_widget_set_margin_end (full, 6);
  gtk_widget_set_margin_top (full, 6);
  gtk_widget_set_margin_bottom (full, 6);
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), full);
  more = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (more), "view-more-symbolic");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (more), popover);
  gtk_widget_set_tooltip_text (more, _("Full Explanation"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (more), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Full Explanation"), -1);
  gtk_widget_set_halign (more, GTK_ALIGN_START);
  gtk_flow_box_append (GTK_FLOW_BOX (steps), more);
  gtk_box_append (GTK_BOX (box), steps);
  g_object_set_data (G_OBJECT (box), "tm-step-buttons", steps);
  return box;
}

void
tm_window_steps_set_buttons_visible (GtkWidget *steps, gboolean visible)
{
  GtkWidget *buttons = g_object_get_data (G_OBJECT (steps), "tm-step-buttons");

  g_return_if_fail (buttons != NULL);
  gtk_widget_set_visible (buttons, visible);
}
