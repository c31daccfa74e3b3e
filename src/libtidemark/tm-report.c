/* SPDX-License-Identifier: GPL-3.0-or-later
 * The analyses of a report, asked of the document (see tm-report.h). */
#include "tm-config.h"
#include "tm-report.h"
#include "tm-error.h"
#include "tm-format-util.h"

#include <glib/gi18n-lib.h>

/* Progress of one step mapped into [base, base + span) of the whole. */
typedef struct {
  TmProgressFunc func;
  gpointer       data;
  double         base, span;
} Step;

static void
step_progress (double fraction, gpointer data)
{
  const Step *s = data;

  s->func (s->base + s->span * CLAMP (fraction, 0.0, 1.0), s->data);
}

static void
part_free (TmReportPart *p)
{
  g_clear_pointer (&p->advice, g_ptr_array_unref);
  g_clear_pointer (&p->ds_growth, tm_ds_growth_free);
  g_clear_pointer (&p->vm, tm_vm_metrics_free);
  g_clear_pointer (&p->heap_diff, tm_heap_diff_unref);
  g_clear_pointer (&p->diff_top, g_array_unref);
  g_free (p->diff_note);
  g_free (p->ds_note);
  g_free (p->vm_note);
  g_free (p);
}

void
tm_report_free (TmReport *report)
{
  if (report == NULL)
    return;
  g_clear_pointer (&report->parts, g_ptr_array_unref);
  g_clear_pointer (&report->windows, g_ptr_array_unref);
  g_clear_object (&report->document);
  g_free (report);
}

static gboolean
has_objects (const TmTrace *trace)
{
  return trace->n_objects > 0 || trace->total_allocs > 0;
}

static gboolean
is_heaptrack (const TmTrace *trace)
{
  return g_strcmp0 (trace->format, "heaptrack") == 0;
}

/* An analysis that failed: cancelled stops the report (FALSE); anything
 * else becomes the part's note. */
static gboolean
note_failure (GError *local, char **note, GError **error)
{
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  *note = g_strdup (local->message);
  g_error_free (local);
  return TRUE;
}

/* The first and the last GC of the range with a reference graph of the
 * program's working state: a graph taken after the main thread ended
 * (post-mortem) shows what the program let go on its way out.  A pool's
 * ThreadLocal leak of 5.7 MiB had vanished from it with the pool's
 * threads, and the whole run's comparison with it showed nothing grow.
 * FALSE when there are fewer than two. */
static gboolean
working_graphs (const TmTrace *trace, guint32 first_gc, guint32 last_gc, guint32 *a, guint32 *b)
{
  *a = *b = 0;
  for (guint32 g = first_gc; g <= last_gc && g <= tm_trace_n_gcs (trace); g++)
    {
      const TmGc *gc = tm_trace_gc (trace, g);

      if (!gc->has_graph || gc->graph_context == TM_GRAPH_POST_MORTEM)
        continue;
      if (*a == 0)
        *a = g;
      *b = g;
    }
  return *a != 0 && *a != *b;
}

/* The data structures that grew between the first and the last GC of the
 * range with a working reference graph.  FALSE only when cancelled. */
static gboolean
compute_ds_growth (TmDocument *doc, TmReportPart *p, Step *step, GCancellable *cancellable, GError **error)
{
  TmTrace *trace = tm_document_get_trace (doc);
  GError *local = NULL;
  guint32 a, b;

  if (!has_objects (trace) || trace->n_graphs == 0)
    return TRUE;   /* a GC log or heaptrack: no graphs to say anything about */
  if (!working_graphs (trace, p->first_gc, p->last_gc, &a, &b))
    {
      p->ds_note = g_strdup (_("Data structure growth compares two GCs with a reference graph; "
                               "this range has fewer than two."));
      return TRUE;
    }
  p->ds_growth = tm_document_ds_growth (doc, a, b,
                                        step->func ? step_progress : NULL, step,
                                        cancellable, &local);
  return p->ds_growth != NULL || note_failure (local, &p->ds_note, error);
}

/* The groups by type (heaptrack: by site) that grew most between the
 * range's ends, ranked as
 * `tidemark-cli heap-diff` ranks them: by retained size when both ends have
 * a graph, else by their own (shallow) size. */
static gboolean
compute_heap_diff (TmDocument *doc, TmReportPart *p, Step *step, GCancellable *cancellable, GError **error)
{
  /* heaptrack's "types" are size classes: where it was allocated says more */
  const TmClassifier chain[] = { is_heaptrack (tm_document_get_trace (doc)) ? TM_CLASSIFIER_SITE : TM_CLASSIFIER_TYPE };
  g_autoptr(GArray) sorted = NULL;
  GError *local = NULL;
  guint32 a = p->first_gc, b = p->last_gc, ga, gb;

  if (!has_objects (tm_document_get_trace (doc)))
    return TRUE;
  if (working_graphs (tm_document_get_trace (doc), p->first_gc, p->last_gc, &ga, &gb))
    a = ga, b = gb;
  if (a >= b)
    return TRUE;
  p->heap_diff = tm_document_heap_diff (doc, a, b, chain, G_N_ELEMENTS (chain), TM_DOCUMENT_TREE_DEFAULT, FALSE,
                                        step->func ? step_progress : NULL, step, cancellable, &local);
  if (p->heap_diff == NULL)
    return note_failure (local, &p->diff_note, error);
  p->diff_metric = p->heap_diff->has_graph ? TM_HEAP_METRIC_RETAINED_BYTES : TM_HEAP_METRIC_BYTES;
  sorted = tm_heap_diff_sorted_children (p->heap_diff, 0, p->diff_metric, cancellable, &local);
  if (sorted == NULL)
    return note_failure (local, &p->diff_note, error);
  p->diff_top = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < sorted->len && p->diff_top->len < TM_REPORT_TOP; i++)
    {
      guint32 node = g_array_index (sorted, guint32, i);
      if (tm_heap_diff_delta (p->heap_diff, node, p->diff_metric) <= 0)
        break;
      g_array_append_val (p->diff_top, node);
    }
  return TRUE;
}

static gboolean
compute_vm (TmDocument *doc, TmReportPart *p, GCancellable *cancellable, GError **error)
{
  GError *local = NULL;

  if (!has_objects (tm_document_get_trace (doc)))
    return TRUE;
  p->vm = tm_document_vm_metrics (doc, p->first_gc, p->last_gc, TM_CLASSIFIER_TYPE, cancellable, &local);
  return p->vm != NULL || note_failure (local, &p->vm_note, error);
}

static TmReportPart *
part_new (TmTrace *trace, const TmWindow *w, guint number)
{
  TmReportPart *p = g_new0 (TmReportPart, 1);
  TmAdviceParams params;

  p->window = w;
  p->number = number;
  p->first_gc = w ? w->first_gc : 1;
  p->last_gc = w ? w->last_gc : tm_trace_n_gcs (trace);
  /* heaptrack's time points are no GCs: nothing to summarize or advise */
  if (is_heaptrack (trace))
    return p;
  p->has_gc_summary = tm_gc_summary_compute (trace, p->first_gc, p->last_gc, &p->gc_summary, NULL);
  tm_advice_params_init (&params);
  p->advice = tm_advise (trace, w ? p->first_gc : 0, w ? p->last_gc : 0, &params);
  return p;
}

TmReport *
tm_report_compute (TmDocument     *document,
                   GPtrArray      *windows,
                   int             window,
                   TmProgressFunc  progress,
                   gpointer        progress_data,
                   GCancellable   *cancellable,
                   GError        **error)
{
  g_autoptr(TmReport) report = NULL;
  TmTrace *trace;
  guint n_parts;

  g_return_val_if_fail (TM_IS_DOCUMENT (document), NULL);

  trace = tm_document_get_trace (document);
  report = g_new0 (TmReport, 1);
  report->document = g_object_ref (document);
  report->windows = windows ? g_ptr_array_ref (windows)
                            : tm_document_windows (document, NULL, FALSE, cancellable, NULL);
  if (report->windows == NULL)
    report->windows = g_ptr_array_new ();
  report->window = window;
  report->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) part_free);

  if (window >= 0 && (guint) window >= report->windows->len)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   g_dngettext (GETTEXT_PACKAGE, "There is no window %d: %u suspicious window was found",
                                "There is no window %d: %u suspicious windows were found", report->windows->len),
                   window + 1, report->windows->len);
      return NULL;
    }

  if (tm_trace_n_gcs (trace) > 0)
    {
      if (window < 0)
        {
          g_ptr_array_add (report->parts, part_new (trace, NULL, 0));
          for (guint i = 0; i < report->windows->len; i++)
            g_ptr_array_add (report->parts, part_new (trace, report->windows->pdata[i], i + 1));
        }
      else
        g_ptr_array_add (report->parts, part_new (trace, report->windows->pdata[window], window + 1));
    }

  /* The heap analyses take the time: one equal share of progress each. */
  n_parts = report->parts->len;
  for (guint i = 0; i < n_parts; i++)
    {
      TmReportPart *p = report->parts->pdata[i];
      Step step = { progress, progress_data, (double) i / n_parts, 0.45 / n_parts };

      if (!compute_ds_growth (document, p, &step, cancellable, error))
        return NULL;
      step.base += step.span;
      if (!compute_heap_diff (document, p, &step, cancellable, error))
        return NULL;
      if (progress)
        progress ((i + 0.9) / n_parts, progress_data);
      if (!compute_vm (document, p, cancellable, error))
        return NULL;
      if (progress)
        progress ((i + 1.0) / n_parts, progress_data);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return g_steal_pointer (&report);
}

char *
tm_report_window_score (const TmWindow *w)
{
  g_autofree char *rate = NULL;

  g_return_val_if_fail (w != NULL, NULL);

  if (g_strcmp0 (w->unit, "fraction") == 0)
    return g_strdup_printf (_("%.1f %% of the time in GC pauses"), w->score * 100);
  rate = tm_format_bytes (w->score);
  if (w->kind == TM_WINDOW_CHURN)
    return g_strdup_printf (_("%s/s freed"), rate);
  return g_strdup_printf (_("%s/s growth"), rate);
}
