/* SPDX-License-Identifier: GPL-3.0-or-later
 * The Selection page (see the header). */
#include "tm-config.h"
#include "tm-selection-page.h"
#include "tm-chart.h"
#include "tm-chart-view.h"
#include "tm-containers.h"
#include "tm-containers-ops.h"
#include "tm-format-util.h"
#include "tm-gc-summary-rows.h"
#include "tm-report.h"
#include "tm-window-steps.h"

#include <glib/gi18n.h>
#include <math.h>

struct _TmSelectionPage
{
  GtkWidget  parent_instance;

  GtkWidget *box;
  GtkLabel  *selection_title;
  GtkLabel  *selection_explanation;
  GtkGrid   *selection_grid;
  GtkWidget *gc_summary_heading;
  GtkGrid   *gc_summary_grid;
  GtkWidget *heap_button;
  GtkWidget *ds_button;
  GtkWidget *histogram;

  /* a leak window's most likely leaking container (tm-containers.h),
   * computed on the document's worker once per window */
  char         *explanation;     /* the text without it */
  char         *headline;        /* once known; NULL if none */
  TmDocument   *asked_document;  /* not a reference: only compared */
  guint32       asked_first, asked_last;
  GCancellable *containers_cancellable;
};

G_DEFINE_FINAL_TYPE (TmSelectionPage, tm_selection_page, GTK_TYPE_WIDGET)

/* A name and its value at column col (name) and col + 1 (value). */
static void
attach_pair (GtkGrid *grid, int col, int row, const char *name, const char *value, gboolean wrap)
{
  GtkWidget *n = gtk_label_new (name);
  GtkWidget *v = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (n), 1);
  gtk_widget_add_css_class (n, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_widget_add_css_class (v, "numeric");
  /* numbers are never cut short: a long value wraps */
  gtk_label_set_wrap (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (v), PANGO_WRAP_WORD_CHAR);
  if (!wrap)
    gtk_widget_set_margin_end (v, 24);
  gtk_grid_attach (grid, n, col, row, 1, 1);
  gtk_grid_attach (grid, v, col + 1, row, 1, 1);
}

/* Two pairs per line. */
static void
grid_row (GtkGrid *grid, int row, const char *name, const char *value)
{
  attach_pair (grid, (row % 2) * 2, row / 2, name, value, FALSE);
}

/* One pair per line (the summary's lines are long). */
static void
summary_row (GtkGrid *grid, int row, const char *name, const char *value)
{
  attach_pair (grid, 0, row, name, value, TRUE);
}

static char *
signed_bytes (double delta)
{
  g_autofree char *b = tm_format_bytes (fabs (delta));
  return g_strdup_printf ("%s%s", delta < 0 ? "−" : "+", b);
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))))
    gtk_grid_remove (grid, child);
}

/* The GC summary of GCs first..last, or of the whole run when first is 0. */
static void
update_gc_summary (TmSelectionPage *self, TmTrace *trace, guint first_gc, guint last_gc)
{
  int row = 0;
  gboolean shown;

  clear_grid (self->gc_summary_grid);
  /* heaptrack's time points and heap dumps have no collections to summarise */
  if (trace != NULL && (g_strcmp0 (trace->format, "heaptrack") == 0 || tm_trace_is_heap_dumps (trace)))
    {
      gtk_widget_set_visible (self->gc_summary_heading, FALSE);
      return;
    }
  if (trace != NULL && first_gc == 0 && tm_trace_n_gcs (trace) > 0)
    {
      first_gc = 1;
      last_gc = tm_trace_n_gcs (trace);
      gtk_label_set_label (GTK_LABEL (self->gc_summary_heading), _("GC Summary of the Whole Run"));
    }
  else
    gtk_label_set_label (GTK_LABEL (self->gc_summary_heading), _("GC Summary of the Selection"));
  shown = tm_gc_summary_rows (self->gc_summary_grid, &row, summary_row, trace, first_gc, last_gc);
  gtk_widget_set_visible (self->gc_summary_heading, shown);
}

static void
show_explanation (TmSelectionPage *self, const char *text)
{
  g_autofree char *label = NULL;

  if (text == NULL)
    return;
  if (text != self->explanation)
    {
      g_free (self->explanation);
      self->explanation = g_strdup (text);
    }
  label = self->headline ? g_strdup_printf ("%s\n\n%s", self->explanation, self->headline)
                         : g_strdup (self->explanation);
  gtk_label_set_label (self->selection_explanation, label);
}

static void
forget_containers (TmSelectionPage *self)
{
  g_cancellable_cancel (self->containers_cancellable);
  g_clear_object (&self->containers_cancellable);
  self->asked_document = NULL;
  self->asked_first = self->asked_last = 0;
  g_clear_pointer (&self->headline, g_free);
}

static void
containers_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(TmSelectionPage) self = user_data;
  TmDocument *doc = TM_DOCUMENT (source);
  g_autoptr(TmContainerReport) report = tm_document_containers_finish (doc, result, NULL);

  /* cancelled (another window), or too few graphs: nothing to add */
  if (report == NULL || doc != self->asked_document || report->from_gc != self->asked_first ||
      report->to_gc != self->asked_last)
    return;
  g_free (self->headline);
  self->headline = tm_container_report_headline (tm_document_get_trace (doc), report);
  show_explanation (self, self->explanation);
}

/* With container operations in the recording, a leak window's explanation
 * ends with the container most likely leaking (when its LC is high). */
static void
explain_containers (TmSelectionPage *self, TmDocument *doc, const TmWindow *w)
{
  TmTrace *trace = doc != NULL ? tm_document_get_trace (doc) : NULL;
  guint graphs = 0;

  if (trace != NULL && w != NULL && tm_container_ops_recorded (trace) &&
      (w->kind == TM_WINDOW_LEAK || w->kind == TM_WINDOW_LEAK_PEAK || w->kind == TM_WINDOW_LEAK_REGRESSION))
    for (guint32 g = w->first_gc; g <= w->last_gc && g <= tm_trace_n_gcs (trace) && graphs < 2; g++)
      graphs += tm_trace_gc (trace, g)->has_graph ? 1 : 0;
  if (graphs < 2)
    {
      forget_containers (self);
      return;
    }
  if (doc == self->asked_document && w->first_gc == self->asked_first && w->last_gc == self->asked_last)
    return;   /* known, or on its way */
  forget_containers (self);
  self->asked_document = doc;
  self->asked_first = w->first_gc;
  self->asked_last = w->last_gc;
  self->containers_cancellable = g_cancellable_new ();
  tm_document_containers_async (doc, w->first_gc, w->last_gc, self->containers_cancellable, containers_done,
                                g_object_ref (self));
}

static void
update_title (TmSelectionPage *self, const TmWindow *w, const TmRangeStats *st, gboolean time_points)
{
  g_autofree char *t0 = tm_format_time_point (st->start_ns);
  g_autofree char *t1 = tm_format_time_point (st->end_ns);
  g_autofree char *title = NULL;

  /* heaptrack recordings have time points, not GCs */
  if (w && time_points)
    title = g_strdup_printf (_("%s: time points %u–%u, %s – %s"), tm_chart_window_label (w->kind),
                             st->first_gc, st->last_gc, t0, t1);
  else if (w)
    title = g_strdup_printf (_("%s: GC %u–%u, %s – %s"), tm_chart_window_label (w->kind),
                             st->first_gc, st->last_gc, t0, t1);
  else if (time_points)
    title = g_strdup_printf (_("Selection: time points %u–%u, %s – %s"), st->first_gc, st->last_gc, t0, t1);
  else
    title = g_strdup_printf (_("Selection: GC %u–%u, %s – %s"), st->first_gc, st->last_gc, t0, t1);
  gtk_label_set_label (self->selection_title, title);
  if (w)
    {
      g_autofree char *score = tm_report_window_score (w);
      g_autofree char *why = tm_window_steps_app_text (w->explanation);
      g_autofree char *text = g_strdup_printf ("%s\n%s", score, why);
      show_explanation (self, text);
    }
  else
    show_explanation (self, _("A range chosen by hand. Heap and other analyses act on it."));
}

/* A GC log counts no objects: its range has no "live objects" row
 * rather than a row of zeros. */
static void
update_figures (TmSelectionPage *self, const TmRangeStats *st, gboolean objects)
{
  g_autofree char *duration = tm_format_duration (st->end_ns - st->start_ns);
  g_autofree char *gcs = g_strdup_printf (_("%u (%u major)"), st->n_gcs, st->n_major);
  g_autofree char *a0 = tm_format_bytes (st->used_after_first);
  g_autofree char *a1 = tm_format_bytes (st->used_after_last);
  g_autofree char *growth = signed_bytes (st->used_after_last - st->used_after_first);
  g_autofree char *heap = g_strdup_printf ("%s → %s (%s)", a0, a1, growth);
  g_autofree char *pause = tm_format_duration (st->pause_ns);
  g_autofree char *overhead = g_strdup_printf (_("%.1f %% (%s paused)"), st->overhead * 100, pause);
  g_autofree char *freed = tm_format_bytes (st->freed_bytes);
  g_autofree char *o0 = tm_format_count ((guint64) st->live_objects_first);
  g_autofree char *o1 = tm_format_count ((guint64) st->live_objects_last);
  g_autofree char *counts = g_strdup_printf ("%s → %s", o0, o1);
  double secs = (st->end_ns - st->start_ns) / 1e9;
  g_autofree char *rate = tm_format_bytes (secs > 0 ? st->freed_bytes / secs : 0);
  g_autofree char *churn = g_strdup_printf (_("%s (%s/s)"), freed, rate);
  int row = 0;

  grid_row (self->selection_grid, row++, _("Duration"), duration);
  grid_row (self->selection_grid, row++, _("GCs"), gcs);
  grid_row (self->selection_grid, row++, _("Heap after GC"), heap);
  if (objects)
    grid_row (self->selection_grid, row++, _("Live objects"), counts);
  grid_row (self->selection_grid, row++, _("GC overhead"), overhead);
  grid_row (self->selection_grid, row++, _("Freed"), churn);
  if (!isnan (st->reachable_first))
    {
      g_autofree char *r0 = tm_format_bytes (st->reachable_first);
      g_autofree char *r1 = tm_format_bytes (st->reachable_last);
      g_autofree char *rg = signed_bytes (st->reachable_last - st->reachable_first);
      g_autofree char *reach = g_strdup_printf (_("%s → %s (%s, GC %u → %u)"), r0, r1, rg,
                                                st->reachable_first_gc, st->reachable_last_gc);
      grid_row (self->selection_grid, row++, _("Reachable"), reach);
    }
}

/* A heaptrack recording's range in heaptrack's terms: time points, heap
 * in use, blocks allocated and not freed, the allocations and temporary
 * allocations of its intervals (after its first point up to its last),
 * the highest RSS sampled; no GCs, pauses or reachable memory. */
static void
update_figures_points (TmSelectionPage *self, const TmTimelineModel *m, const TmRangeStats *st)
{
  g_autofree char *duration = tm_format_duration (st->end_ns - st->start_ns);
  g_autofree char *points = g_strdup_printf ("%u", st->n_gcs);
  g_autofree char *a0 = tm_format_bytes (st->used_after_first);
  g_autofree char *a1 = tm_format_bytes (st->used_after_last);
  g_autofree char *growth = signed_bytes (st->used_after_last - st->used_after_first);
  g_autofree char *heap = g_strdup_printf ("%s → %s (%s)", a0, a1, growth);
  g_autofree char *o0 = tm_format_count ((guint64) st->live_objects_first);
  g_autofree char *o1 = tm_format_count ((guint64) st->live_objects_last);
  g_autofree char *blocks = g_strdup_printf ("%s → %s", o0, o1);
  double allocations = 0, temporary = 0, rss = NAN, secs = (st->end_ns - st->start_ns) / 1e9;
  g_autofree char *count = NULL, *rate = NULL, *allocs = NULL, *temp_count = NULL, *temp = NULL;
  int row = 0;

  for (guint i = st->first_gc; i < st->last_gc; i++)   /* the intervals up to points first+1..last */
    {
      allocations += m->allocations[i];
      temporary += m->temporary[i];
    }
  for (guint i = st->first_gc - 1; i < st->last_gc; i++)
    if (!isnan (m->committed[i]))
      rss = isnan (rss) ? m->committed[i] : MAX (rss, m->committed[i]);
  count = tm_format_count ((guint64) allocations);
  rate = tm_format_count ((guint64) round (secs > 0 ? allocations / secs : 0));
  allocs = g_strdup_printf (_("%s (%s per second)"), count, rate);
  temp_count = tm_format_count ((guint64) temporary);
  temp = g_strdup_printf (_("%s (%.1f %% of them)"), temp_count, allocations > 0 ? 100 * temporary / allocations : 0.0);

  grid_row (self->selection_grid, row++, _("Duration"), duration);
  grid_row (self->selection_grid, row++, _("Time points"), points);
  grid_row (self->selection_grid, row++, _("Heap in use"), heap);
  grid_row (self->selection_grid, row++, _("Blocks allocated and not freed"), blocks);
  grid_row (self->selection_grid, row++, _("Allocations"), allocs);
  grid_row (self->selection_grid, row++, _("Temporary allocations"), temp);
  if (!isnan (rss))
    {
      g_autofree char *r = tm_format_bytes (rss);
      grid_row (self->selection_grid, row++, _("Highest RSS"), r);
    }
}

void
tm_selection_page_update (TmSelectionPage *self, TmSession *session, TmTrace *trace)
{
  TmTimelineModel *m;
  TmRangeStats st;

  g_return_if_fail (TM_IS_SELECTION_PAGE (self));
  g_return_if_fail (TM_IS_SESSION (session));

  m = tm_session_get_model (session);
  clear_grid (self->selection_grid);
  if (m == NULL || !tm_session_get_has_selection (session) ||
      !tm_timeline_model_range_stats (m, tm_session_get_selected_first_gc (session),
                                      tm_session_get_selected_last_gc (session), &st))
    {
      gtk_label_set_label (self->selection_title, _("No Range Selected"));
      forget_containers (self);
      show_explanation (self, _("Click a suspicious window in the list or on a chart, or drag across a chart to select a range. Ctrl+scroll zooms."));
      update_gc_summary (self, trace, 0, 0);
      return;
    }
  update_gc_summary (self, trace, st.first_gc, st.last_gc);
  {
    const TmWindow *w = tm_session_get_window (session, tm_session_get_selected_window (session));

    explain_containers (self, tm_session_get_document (session), w);
    update_title (self, w, &st, m->time_points);
  }
  if (m->time_points)
    update_figures_points (self, m, &st);
  else
    update_figures (self, &st, trace == NULL || trace->n_objects > 0 || trace->total_allocs > 0);
}

void
tm_selection_page_set_objects_note (TmSelectionPage *self, const char *reason)
{
  g_return_if_fail (TM_IS_SELECTION_PAGE (self));
  gtk_widget_set_tooltip_text (self->heap_button, reason);
  gtk_widget_set_tooltip_text (self->ds_button, reason);
}

const char *
tm_selection_page_get_explanation (TmSelectionPage *self)
{
  g_return_val_if_fail (TM_IS_SELECTION_PAGE (self), NULL);
  return gtk_label_get_label (self->selection_explanation);
}

static void
tm_selection_page_dispose (GObject *object)
{
  TmSelectionPage *self = TM_SELECTION_PAGE (object);

  forget_containers (self);
  g_clear_pointer (&self->explanation, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), TM_TYPE_SELECTION_PAGE);
  G_OBJECT_CLASS (tm_selection_page_parent_class)->dispose (object);
}

static void
tm_selection_page_class_init (TmSelectionPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_selection_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-selection-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, box);
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, selection_title);
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, selection_explanation);
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, selection_grid);
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, gc_summary_heading);
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, gc_summary_grid);
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, heap_button);
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, ds_button);
  gtk_widget_class_bind_template_child (widget_class, TmSelectionPage, histogram);
  gtk_widget_class_set_css_name (widget_class, "tm-selection-page");
}

static void
tm_selection_page_init (TmSelectionPage *self)
{
  g_type_ensure (TM_TYPE_CHART_VIEW);
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
tm_selection_page_get_histogram (TmSelectionPage *self)
{
  g_return_val_if_fail (TM_IS_SELECTION_PAGE (self), NULL);
  return self->histogram;
}
