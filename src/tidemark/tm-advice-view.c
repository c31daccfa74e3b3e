/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-advice-view.h"
#include "tm-gc-config.h"
#include "tm-gc-stats.h"
#include "tm-format-util.h"

#include <glib/gi18n.h>

struct _TmAdviceView
{
  GtkWidget    parent_instance;

  GtkWidget   *scroller;
  GtkLabel    *title_label;
  GtkLabel    *summary_label;
  GtkLabel    *similar_label;
  GtkDropDown *goal_dropdown;
  GtkListBox  *list;

  TmSession   *session;
  TmTrace     *trace;
  guint        first_gc, last_gc;
  guint        serial;      /* of the newest request; older results are dropped */
  GPtrArray   *advice;      /* TmAdvice*, NULL while computing */
  GStrv        similar;
};

G_DEFINE_FINAL_TYPE (TmAdviceView, tm_advice_view, GTK_TYPE_WIDGET)

typedef struct {
  TmTrace       *trace;
  guint          first, last, serial;
  TmAdviceGoal   goal;
  /* results */
  GPtrArray     *advice;
  TmGcStats      stats;
  GStrv          similar;
  char          *similar_text;
} Job;

static void
job_free (Job *job)
{
  tm_trace_unref (job->trace);
  g_clear_pointer (&job->advice, g_ptr_array_unref);
  g_strfreev (job->similar);
  g_free (job->similar_text);
  g_free (job);
}

/* The knowledge base's nearest workloads and their suggestion for the goal. */
static void
job_similar (Job *job)
{
  g_autofree char *path = tm_kb_find (NULL);
  g_autoptr(TmKb) kb = path ? tm_kb_load (path, NULL) : NULL;
  TmKbNeighbour near[3];
  TmGcFeatures f;
  TmGcConfig c = { 0 };
  GString *s;
  GStrvBuilder *names;
  guint n;
  TmGoal goal = job->goal == TM_ADVICE_GOAL_LATENCY ? TM_GOAL_LATENCY
              : job->goal == TM_ADVICE_GOAL_FOOTPRINT ? TM_GOAL_FOOTPRINT : TM_GOAL_THROUGHPUT;

  if (kb == NULL || kb->entries->len == 0)
    return;
  tm_gc_features_compute (job->trace, &f);
  n = tm_kb_nearest (kb, &f, G_N_ELEMENTS (near), near);
  s = g_string_new (n > 0 && near[0].distance <= TM_KB_CLOSE_DISTANCE
                      ? _("Resembles:") : _("Resembles no known workload closely; nearest:"));
  names = g_strv_builder_new ();
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (s, "%s %s (%.2f)", i ? "," : "", near[i].entry->name, near[i].distance);
      g_strv_builder_add (names, near[i].entry->name);
    }
  if (n > 0 && near[0].distance <= TM_KB_CLOSE_DISTANCE && tm_kb_suggest (kb, &f, G_N_ELEMENTS (near), goal, &c))
    {
      g_autofree char *name = tm_gc_config_to_string (&c);
      g_autofree char *flags = tm_gc_config_flags_line (&c, tm_gc_live_estimate (job->trace));
      g_string_append_printf (s, _(". Their best configuration for %s: %s (%s); measure it with “tidemark-cli tune”."),
                              tm_goal_to_string (goal), name, *flags ? flags : _("no flags"));
      tm_gc_config_clear (&c);
    }
  job->similar = g_strv_builder_end (names);
  g_strv_builder_unref (names);
  job->similar_text = g_string_free (s, FALSE);
}

static void
compute_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  TmAdviceParams params;

  tm_advice_params_init (&params);
  params.goal = job->goal;
  job->advice = tm_advise (job->trace, job->first, job->last, &params);
  tm_gc_stats_compute (job->trace, job->first, job->last, &job->stats);
  job_similar (job);
  g_task_return_boolean (task, TRUE);
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
show_result (TmAdviceView *self, Job *job)
{
  g_autofree char *p50 = tm_format_duration (job->stats.pause_p50_ns);
  g_autofree char *p99 = tm_format_duration (job->stats.pause_p99_ns);
  g_autofree char *pmax = tm_format_duration (job->stats.pause_max_ns);
  g_autofree char *rate = tm_format_bytes (job->stats.alloc_rate);
  g_autofree char *summary = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_clear_pointer (&self->advice, g_ptr_array_unref);
  g_clear_pointer (&self->similar, g_strfreev);
  self->advice = g_steal_pointer (&job->advice);
  self->similar = g_steal_pointer (&job->similar);

  summary = g_strdup_printf (_("%u GCs (%u minor, %u full), %s; GC throughput %.1f%%; pauses p50 %s, p99 %s, "
                               "max %s; allocation %s/s. %s"),
                             job->stats.n_gcs, job->stats.n_minor, job->stats.n_major,
                             job->stats.collector[0] ? job->stats.collector : _("collector unknown"),
                             job->stats.throughput * 100, p50, p99, pmax, rate,
                             self->advice->len == 0
                               ? _("No advice: nothing in this range points to a configuration problem.")
                               : "");
  gtk_label_set_text (self->summary_label, summary);
  gtk_label_set_text (self->similar_label, job->similar_text ? job->similar_text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->similar_label), job->similar_text != NULL);
  for (guint i = 0; i < self->advice->len; i++)
    gtk_list_box_append (self->list, advice_row (self, self->advice->pdata[i], i));
  gtk_widget_set_visible (GTK_WIDGET (self->list), self->advice->len > 0);
}

static void
compute_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  TmAdviceView *self = TM_ADVICE_VIEW (source);
  Job *job = g_task_get_task_data (G_TASK (result));

  if (g_task_propagate_boolean (G_TASK (result), NULL) && job->serial == self->serial)
    show_result (self, job);
}

static void
recompute (TmAdviceView *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  if (self->trace == NULL)
    return;
  job = g_new0 (Job, 1);
  job->trace = tm_trace_ref (self->trace);
  job->first = self->first_gc;
  job->last = self->last_gc;
  job->serial = ++self->serial;
  job->goal = (TmAdviceGoal) gtk_drop_down_get_selected (self->goal_dropdown);
  g_clear_pointer (&self->advice, g_ptr_array_unref);
  gtk_label_set_text (self->summary_label, _("Computing…"));
  task = g_task_new (self, NULL, compute_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, compute_thread);
}

static void
goal_changed_cb (TmAdviceView *self)
{
  recompute (self);
}

void
tm_advice_view_set_range (TmAdviceView *self, TmTrace *trace, guint first_gc, guint last_gc)
{
  g_autofree char *title = NULL;

  g_return_if_fail (TM_IS_ADVICE_VIEW (self));
  if (trace != self->trace)
    {
      g_clear_pointer (&self->trace, tm_trace_unref);
      self->trace = trace ? tm_trace_ref (trace) : NULL;
    }
  self->first_gc = first_gc;
  self->last_gc = last_gc;
  if (first_gc == 0 || last_gc == 0)
    title = g_strdup (_("GC Advice for the Whole Run"));
  else
    title = g_strdup_printf (_("GC Advice for GCs %u–%u"), first_gc, last_gc);
  gtk_label_set_text (self->title_label, title);
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
  return self->advice;
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
  if (self->advice == NULL || index >= self->advice->len || self->session == NULL)
    return;
  a = self->advice->pdata[index];
  for (guint i = 0; i < a->gcs->len; i++)
    {
      lo = MIN (lo, g_array_index (a->gcs, guint32, i));
      hi = MAX (hi, g_array_index (a->gcs, guint32, i));
    }
  if (hi > 0)
    tm_session_select_gcs (self->session, lo, hi);
}

static void
tm_advice_view_dispose (GObject *object)
{
  TmAdviceView *self = TM_ADVICE_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_ADVICE_VIEW);
  G_OBJECT_CLASS (tm_advice_view_parent_class)->dispose (object);
}

static void
tm_advice_view_finalize (GObject *object)
{
  TmAdviceView *self = TM_ADVICE_VIEW (object);

  g_clear_object (&self->session);
  g_clear_pointer (&self->trace, tm_trace_unref);
  g_clear_pointer (&self->advice, g_ptr_array_unref);
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
}

static void
tm_advice_view_init (TmAdviceView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->goal_dropdown, "notify::selected", G_CALLBACK (goal_changed_cb), self);
}

GtkWidget *
tm_advice_view_new (TmSession *session)
{
  TmAdviceView *self = g_object_new (TM_TYPE_ADVICE_VIEW, NULL);

  self->session = session ? g_object_ref (session) : NULL;
  return GTK_WIDGET (self);
}
