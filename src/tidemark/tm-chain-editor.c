/* SPDX-License-Identifier: GPL-3.0-or-later
 * The classifier chain's editor (see the header). */
#include "tm-config.h"
#include "tm-chain-editor.h"
#include "tm-classify-chain.h"

#include <glib/gi18n.h>
#include <string.h>

struct _TmChainEditor
{
  GtkWidget     parent_instance;

  GtkWidget    *box;
  GtkBox       *chain_box;
  GtkDropDown  *add_dropdown;
  GtkButton    *add_button;

  TmClassifier  chain[TM_CLASSIFY_MAX_DEPTH];
  guint         depth;
  guint         add_choices[TM_N_CLASSIFIERS];   /* Add's items: classifiers not in the chain */
  guint         n_add_choices;
  gboolean      has_graph;
  guint         gc_id;
};

G_DEFINE_FINAL_TYPE (TmChainEditor, tm_chain_editor, GTK_TYPE_WIDGET)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void rebuild_chips (TmChainEditor *self);

/* The classifier Add's item stands for, or TM_N_CLASSIFIERS. */
static guint
selected_add_choice (TmChainEditor *self)
{
  guint item = gtk_drop_down_get_selected (self->add_dropdown);

  return item < self->n_add_choices ? self->add_choices[item] : TM_N_CLASSIFIERS;
}

static gboolean
choice_allowed (TmChainEditor *self, guint choice)
{
  return choice < TM_N_CLASSIFIERS
         && (self->has_graph || !tm_chain_classifier_needs_graph ((TmClassifier) choice));
}

static void
update_add_button (TmChainEditor *self)
{
  guint choice = selected_add_choice (self);
  g_autofree char *tooltip = NULL;

  if (choice < TM_N_CLASSIFIERS && !choice_allowed (self, choice)
      && (TmClassifier) choice == TM_CLASSIFIER_ROOT_PATH)
    tooltip = g_strdup_printf (_("Paths from the GC roots follow the reference graph, and GC %u has none"),
                               self->gc_id);
  else if (choice < TM_N_CLASSIFIERS && !choice_allowed (self, choice))
    tooltip = g_strdup_printf (_("Data structures are detected on the reference graph, and GC %u has none"),
                               self->gc_id);
  else
    tooltip = g_strdup (_("Add the classifier at the end of the chain"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->add_button), tooltip);
  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button),
                            choice_allowed (self, choice) && self->depth < TM_CLASSIFY_MAX_DEPTH);
}

/* Add offers the classifiers not yet in the chain, keeping the one
 * picked when it is still there. */
static void
refill_add_dropdown (TmChainEditor *self)
{
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);
  guint previous = self->n_add_choices > 0 ? selected_add_choice (self) : TM_CLASSIFIER_SITE;
  guint select = 0;

  self->n_add_choices = 0;
  for (guint i = 0; i < TM_N_CLASSIFIERS; i++)
    {
      TmClassifier c = (TmClassifier) i;
      gboolean used = FALSE;

      for (guint d = 0; d < self->depth && !used; d++)
        used = self->chain[d] == c;
      if (used)
        continue;
      if (i == previous)
        select = self->n_add_choices;
      self->add_choices[self->n_add_choices++] = i;
      gtk_string_list_append (titles, _(tm_chain_classifier_title (c)));
    }
  gtk_drop_down_set_model (self->add_dropdown, G_LIST_MODEL (titles));
  gtk_drop_down_set_selected (self->add_dropdown, select);
}

static void
changed (TmChainEditor *self)
{
  rebuild_chips (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
chip_button_cb (GtkButton *button, TmChainEditor *self)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "tm-index"));
  const char *what = g_object_get_data (G_OBJECT (button), "tm-what");
  TmClassifier c;

  if (i >= self->depth)
    return;
  if (g_str_equal (what, "earlier") && i > 0)
    {
      c = self->chain[i - 1];
      self->chain[i - 1] = self->chain[i];
      self->chain[i] = c;
    }
  else if (g_str_equal (what, "later") && i + 1 < self->depth)
    {
      c = self->chain[i + 1];
      self->chain[i + 1] = self->chain[i];
      self->chain[i] = c;
    }
  else if (g_str_equal (what, "remove") && self->depth > 1)
    {
      memmove (self->chain + i, self->chain + i + 1, (self->depth - i - 1) * sizeof *self->chain);
      self->depth--;
    }
  else
    return;
  changed (self);
}

static GtkWidget *
chip_button (TmChainEditor *self, guint i, const char *icon, const char *what, const char *tooltip, gboolean sensitive)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_sensitive (button, sensitive);
  g_object_set_data (G_OBJECT (button), "tm-index", GUINT_TO_POINTER (i));
  g_object_set_data (G_OBJECT (button), "tm-what", (gpointer) what);
  g_signal_connect (button, "clicked", G_CALLBACK (chip_button_cb), self);
  return button;
}

static void
rebuild_chips (TmChainEditor *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->chain_box))) != NULL)
    gtk_box_remove (self->chain_box, child);

  for (guint i = 0; i < self->depth; i++)
    {
      GtkWidget *group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      GtkWidget *label = gtk_label_new (_(tm_chain_classifier_title (self->chain[i])));

      gtk_widget_add_css_class (group, "linked");
      gtk_widget_set_margin_start (label, 6);
      gtk_widget_set_margin_end (label, 6);
      gtk_box_append (GTK_BOX (group), label);
      gtk_box_append (GTK_BOX (group), chip_button (self, i, "go-previous-symbolic", "earlier",
                                                    _("Group by this earlier"), i > 0));
      gtk_box_append (GTK_BOX (group), chip_button (self, i, "go-next-symbolic", "later",
                                                    _("Group by this later"), i + 1 < self->depth));
      gtk_box_append (GTK_BOX (group), chip_button (self, i, "window-close-symbolic", "remove",
                                                    _("Remove this classifier"), self->depth > 1));
      gtk_box_append (self->chain_box, group);
    }
  refill_add_dropdown (self);
  update_add_button (self);
}

static void
add_selected_cb (GObject *dropdown, GParamSpec *pspec, TmChainEditor *self)
{
  update_add_button (self);
}

static void
add_clicked_cb (GtkButton *button, TmChainEditor *self)
{
  guint choice = selected_add_choice (self);

  if (!choice_allowed (self, choice) || self->depth >= TM_CLASSIFY_MAX_DEPTH)
    return;
  self->chain[self->depth++] = (TmClassifier) choice;
  changed (self);
}

void
tm_chain_editor_set_chain (TmChainEditor *self, const TmClassifier *chain, guint depth)
{
  g_return_if_fail (TM_IS_CHAIN_EDITOR (self));
  g_return_if_fail (chain != NULL && depth >= 1 && depth <= TM_CLASSIFY_MAX_DEPTH);

  memcpy (self->chain, chain, depth * sizeof *chain);
  self->depth = depth;
  rebuild_chips (self);
}

guint
tm_chain_editor_get_chain (TmChainEditor *self, TmClassifier *chain)
{
  g_return_val_if_fail (TM_IS_CHAIN_EDITOR (self), 0);
  if (chain != NULL)
    memcpy (chain, self->chain, self->depth * sizeof *chain);
  return self->depth;
}

void
tm_chain_editor_set_graph (TmChainEditor *self, gboolean has_graph, guint gc_id)
{
  g_return_if_fail (TM_IS_CHAIN_EDITOR (self));
  self->has_graph = has_graph;
  self->gc_id = gc_id;
  update_add_button (self);
}

static void
tm_chain_editor_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TM_TYPE_CHAIN_EDITOR);
  G_OBJECT_CLASS (tm_chain_editor_parent_class)->dispose (object);
}

static void
tm_chain_editor_class_init (TmChainEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_chain_editor_dispose;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-chain-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TmChainEditor, box);
  gtk_widget_class_bind_template_child (widget_class, TmChainEditor, chain_box);
  gtk_widget_class_bind_template_child (widget_class, TmChainEditor, add_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmChainEditor, add_button);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked_cb);
  gtk_widget_class_set_css_name (widget_class, "tm-chain-editor");
}

static void
tm_chain_editor_init (TmChainEditor *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->chain[0] = TM_CLASSIFIER_TYPE;
  self->depth = 1;
  self->has_graph = TRUE;
  g_signal_connect (self->add_dropdown, "notify::selected", G_CALLBACK (add_selected_cb), self);
  rebuild_chips (self);
}
