/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-advice-view.h"
#include "tm-format-util.h"

#include <glib/gi18n.h>

struct _TmAdviceView
{
  TmSection       parent_instance;

  GtkWidget      *scroller;
  GtkLabel       *title_label;
  GtkLabel       *summary_label;
  GtkLabel       *similar_label;
  GtkDropDown    *goal_dropdown;
  GtkListBox     *list;

  guint           first_gc, last_gc;
  GCancellable   *cancellable;   /* of the newest request */
  TmAdviceReport *report;        /* NULL while computing */
  GStrv           similar;
};

G_DEFINE_FINAL_TYPE (TmAdviceView, tm_advice_view, TM_TYPE_SECTION)

static char *
join (const GPtrArray *strings)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < strings->len; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (const char *) strings->pdata[i]);
  return g_string_free (s, FALSE);
}

/* The knowledge base's nearest workloads and their suggestion for the goal. */
static char *
similar_text (const TmAdviceReport *r, TmAdviceGoal advice_goal)
{
  TmGoal goal = advice_goal == TM_ADVICE_GOAL_LATENCY ? TM_GOAL_LATENCY
              : advice_goal == TM_ADVICE_GOAL_FOOTPRINT ? TM_GOAL_FOOTPRINT : TM_GOAL_THROUGHPUT;
  GString *s;

  if (r->n_near == 0)
    return NULL;
  s = g_string_new (r->close ? _("Resembles:") : _("Resembles no known workload closely; nearest:"));
  for (guint i = 0; i < r->n_near; i++)
    g_string_append_printf (s, "%s %s (%.2f)", i ? "," : "", r->near[i].entry->name, r->near[i].distance);
  if (r->has_suggestion[goal])
    {
      g_autofree char *name = tm_gc_config_to_string (&r->suggest[goal]);
      g_autofree char *flags = tm_gc_config_flags_line (&r->suggest[goal], r->live_bytes);
      g_string_append_printf (s, _(". Their best configuration for %s: %s (%s); measure it with “tidemark-cli tune”."),
                              tm_goal_to_string (goal), name, *flags ? flags : _("no flags"));
    }
  /* the decision tree's reasons, for a run like the known ones */
  if (r->close && r->has_decision[goal])
    {
      const TmKbDecision *d = &r->decision[goal];
      g_autofree char *name = tm_gc_config_to_string (&d->config);
      g_autofree char *conditions = NULL;
      g_autofree char *like = NULL;

      conditions = join (d->conditions);
      like = join (d->like);
      g_string_append_c (s, '\n');
      if (*conditions)
        /* TRANSLATORS: the knowledge base's decision tree: conditions, configuration, workloads */
        g_string_append_printf (s, _("Decision tree: %s leads to %s (like %s)."), conditions, name, like);
      else
        g_string_append_printf (s, _("Decision tree: %s (like %s)."), name, like);
    }
  return g_string_free (s, FALSE);
}

static void
select_evidence_cb (GtkButton *button, TmAdviceView *self)
{
  tm_advice_view_select_evidence (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index")));
}

static GtkWidget *
wrapped_label (const char *text, const char *css_class)
{
  GtkWidget *l = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_selectable (GTK_LABEL (l), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (l), 110);
  if (css_class)
    gtk_widget_add_css_class (l, css_class);
  return l;
}

static GtkWidget *
advice_row (TmAdviceView *self, const TmAdvice *a, guint index)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *bottom = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *button;
  GString *gcs = g_string_new (NULL);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_box_append (GTK_BOX (box), wrapped_label (a->title, "heading"));
  gtk_box_append (GTK_BOX (box), wrapped_label (a->finding, NULL));
  gtk_box_append (GTK_BOX (box), wrapped_label (a->action, NULL));
  if (a->flags[0])
    {
      g_autofree char *t = g_strdup_printf (_("Try: %s"), a->flags);
      gtk_box_append (GTK_BOX (box), wrapped_label (t, "monospace"));
    }
  for (guint i = 0; i < MIN (a->gcs->len, 12); i++)
    g_string_append_printf (gcs, "%s%u", i ? ", " : "", g_array_index (a->gcs, guint32, i));
  if (a->n_gcs > MIN (a->gcs->len, 12))
    g_string_append_printf (gcs, _(" … (%u in all)"), a->n_gcs);
  {
    g_autofree char *t = g_strdup_printf (_("Shown by GCs %s"), gcs->str);
    GtkWidget *l = wrapped_label (t, "dim-label");
    gtk_widget_set_hexpand (l, TRUE);
    gtk_box_append (GTK_BOX (bottom), l);
  }
  g_string_free (gcs, TRUE);
  button = gtk_button_new_with_mnemonic (_("_Select These GCs"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (button), "index", GUINT_TO_POINTER (index));
  g_signal_connect (button, "clicked", G_CALLBACK (select_evidence_cb), self);
  gtk_box_append (GTK_BOX (bottom), button);
  gtk_box_append (GTK_BOX (box), bottom);
  return box;
}

static void
show_result (TmAdviceView *self, TmAdviceReport *report)
{
  const TmGcStats *st = &report->stats;
  g_autofree char *p50 = tm_format_duration (st->pause_p50_ns);
  g_autofree char *p99 = tm_format_duration (st->pause_p99_ns);
  g_autofree char *pmax = tm_format_duration (st->pause_max_ns);
  g_autofree char *rate = tm_format_bytes (st->alloc_rate);
  g_autofree char *summary = NULL;
  g_autofree char *similar = NULL;
  GStrvBuilder *names = g_strv_builder_new ();
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_clear_pointer (&self->report, tm_advice_report_free);
  self->report = report;
  for (guint i = 0; i < report->n_near; i++)
    g_strv_builder_add (names, report->near[i].entry->name);
  g_strfreev (self->similar);
  self->similar = g_strv_builder_end (names);
  g_strv_builder_unref (names);

  summary = g_strdup_printf (_("%u GCs (%u minor, %u full), %s; GC throughput %.1f%%; pauses p50 %s, p99 %s, "
                               "max %s; allocation %s/s. %s"),
                             st->n_gcs, st->n_minor, st->n_major,
                             st->collector[0] ? st->collector : _("collector unknown"),
                             st->throughput * 100, p50, p99, pmax, rate,
                             report->advice->len == 0
                               ? _("No advice: nothing in this range points to a configuration problem.")
                               : "");
  gtk_label_set_text (self->summary_label, summary);
  similar = similar_text (report, (TmAdviceGoal) gtk_drop_down_get_selected (self->goal_dropdown));
  gtk_label_set_text (self->similar_label, similar ? similar : "");
  gtk_widget_set_visible (GTK_WIDGET (self->similar_label), similar != NULL);
  for (guint i = 0; i < report->advice->len; i++)
    gtk_list_box_append (self->list, advice_row (self, report->advice->pdata[i], i));
  gtk_widget_set_visible (GTK_WIDGET (self->list), report->advice->len > 0);
}

static void
advice_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmAdviceView) self = user_data;
  g_autoptr(GError) error = NULL;
  TmAdviceReport *report = tm_document_advice_finish (TM_DOCUMENT (source), result, &error);

  if (report != NULL)
    show_result (self, report);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    gtk_label_set_text (self->summary_label, error->message);
}

static void
recompute (TmAdviceView *self)
{
  TmDocument *doc = tm_section_get_document (TM_SECTION (self));
  g_autofree char *kb_path = NULL;
  TmAdviceParams params;

  if (doc == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_pointer (&self->report, tm_advice_report_free);
  tm_advice_params_init (&params);
  params.goal = (TmAdviceGoal) gtk_drop_down_get_selected (self->goal_dropdown);
  kb_path = tm_kb_find (NULL);
  gtk_label_set_text (self->summary_label, _("Computing…"));
  tm_document_advice_async (doc, self->first_gc, self->last_gc, &params, kb_path, self->cancellable,
                            advice_done, g_object_ref (self));
}

static void
goal_changed_cb (TmAdviceView *self)
{
  recompute (self);
}

void
tm_advice_view_set_range (TmAdviceView *self, guint first_gc, guint last_gc)
{
  g_autofree char *title = NULL;
  g_autofree char *tab = NULL;

  g_return_if_fail (TM_IS_ADVICE_VIEW (self));
  self->first_gc = first_gc;
  self->last_gc = last_gc;
  if (first_gc == 0 || last_gc == 0)
    title = g_strdup (_("GC Advice for the Whole Run"));
  else
    title = g_strdup_printf (_("GC Advice for GCs %u–%u"), first_gc, last_gc);
  gtk_label_set_text (self->title_label, title);
  tab = first_gc && last_gc ? g_strdup_printf (_("Advice, GC %u–%u"), first_gc, last_gc) : g_strdup (_("Advice"));
  tm_section_set_title (TM_SECTION (self), tab);
  recompute (self);
}

void
tm_advice_view_set_goal (TmAdviceView *self, TmAdviceGoal goal)
{
  g_return_if_fail (TM_IS_ADVICE_VIEW (self));
  gtk_drop_down_set_selected (self->goal_dropdown, (guint) goal);   /* notifies: recomputes */
}

GPtrArray *
tm_advice_view_get_advice (TmAdviceView *self)
{
  g_return_val_if_fail (TM_IS_ADVICE_VIEW (self), NULL);
  return self->report != NULL ? self->report->advice : NULL;
}

const char * const *
tm_advice_view_get_similar (TmAdviceView *self)
{
  g_return_val_if_fail (TM_IS_ADVICE_VIEW (self), NULL);
  return (const char * const *) self->similar;
}

void
tm_advice_view_select_evidence (TmAdviceView *self, guint index)
{
  const TmAdvice *a;
  guint32 lo = G_MAXUINT32, hi = 0;

  g_return_if_fail (TM_IS_ADVICE_VIEW (self));
  if (self->report == NULL || index >= self->report->advice->len)
    return;
  a = self->report->advice->pdata[index];
  for (guint i = 0; i < a->gcs->len; i++)
    {
      lo = MIN (lo, g_array_index (a->gcs, guint32, i));
      hi = MAX (hi, g_array_index (a->gcs, guint32, i));
    }
  if (hi > 0)
    tm_session_select_gcs (tm_section_get_session (TM_SECTION (self)), lo, hi);
}

static void
tm_advice_view_dispose (GObject *object)
{
  TmAdviceView *self = TM_ADVICE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_ADVICE_VIEW);
  G_OBJECT_CLASS (tm_advice_view_parent_class)->dispose (object);
}

static void
tm_advice_view_finalize (GObject *object)
{
  TmAdviceView *self = TM_ADVICE_VIEW (object);

  g_clear_pointer (&self->report, tm_advice_report_free);
  g_clear_pointer (&self->similar, g_strfreev);
  G_OBJECT_CLASS (tm_advice_view_parent_class)->finalize (object);
}

static void
tm_advice_view_class_init (TmAdviceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_advice_view_dispose;
  object_class->finalize = tm_advice_view_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-advice-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmAdviceView, scroller);
  gtk_widget_class_bind_template_child (widget_class, TmAdviceView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmAdviceView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TmAdviceView, similar_label);
  gtk_widget_class_bind_template_child (widget_class, TmAdviceView, goal_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmAdviceView, list);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tm-advice-view");
}

static void
tm_advice_view_init (TmAdviceView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->goal_dropdown, "notify::selected", G_CALLBACK (goal_changed_cb), self);
}

GtkWidget *
tm_advice_view_new (TmSession *session, guint first_gc, guint last_gc)
{
  TmAdviceView *self;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);
  self = g_object_new (TM_TYPE_ADVICE_VIEW, "session", session, NULL);
  tm_advice_view_set_range (self, first_gc, last_gc);
  return GTK_WIDGET (self);
}
