/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-allocations-view.h"
#include "tm-format-util.h"
#include "tm-churn.h"

#include <glib/gi18n.h>
#include <math.h>

struct _TmAllocationsView
{
  TmSection       parent_instance;

  GtkWidget      *box;
  GtkLabel       *title_label;
  GtkSpinner     *spinner;
  GtkDropDown    *group_dropdown;
  GtkLabel       *summary_label;
  GtkNotebook    *notebook;

  TmTextTable    *tables[TM_ALLOCATIONS_N_PAGES];
  GtkLabel       *notes[TM_ALLOCATIONS_N_PAGES];   /* what a page cannot show, and why */
  GCancellable   *cancellable;
  TmVmMetrics    *metrics;
  guint           from_gc, to_gc;
};

G_DEFINE_FINAL_TYPE (TmAllocationsView, tm_allocations_view, TM_TYPE_SECTION)

static const TmClassifier group_classifiers[] = {
  TM_CLASSIFIER_TYPE, TM_CLASSIFIER_SITE, TM_CLASSIFIER_CALL_SITE, TM_CLASSIFIER_THREAD,
};

/* ---- rows: cell texts with their sort keys ---- */

#define ROW_MAX 8

typedef struct {
  char   *cells[ROW_MAX + 1];
  double  keys[ROW_MAX];
  guint   n;
} Row;

static void
cell (Row *r, char *text, double key)
{
  g_assert (r->n < ROW_MAX);
  r->cells[r->n] = text;
  r->keys[r->n] = key;
  r->n++;
}

static void
cell_bytes (Row *r, double bytes)
{
  cell (r, tm_format_bytes (bytes), bytes);
}

static void
cell_count (Row *r, guint64 n)
{
  cell (r, tm_format_count (n), (double) n);
}

static void
cell_rate (Row *r, double bytes_per_s)
{
  g_autofree char *b = tm_format_bytes (bytes_per_s);
  /* TRANSLATORS: an allocation rate, e.g. "6.5 MiB/s" */
  cell (r, g_strdup_printf (_("%s/s"), b), bytes_per_s);
}

static void
add_row (TmTextTable *table, Row *r)
{
  r->cells[r->n] = NULL;
  tm_text_table_append (table, (const char * const *) r->cells, r->keys);
  for (guint i = 0; i < r->n; i++)
    g_free (r->cells[i]);
  r->n = 0;
}

static void
set_note (TmAllocationsView *self, TmAllocationsPage page, const char *text)
{
  gtk_label_set_text (self->notes[page], text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->notes[page]), text != NULL && *text != '\0');
}

/* ---- the pages ---- */

static void
fill_allocs (TmAllocationsView *self, const TmVmMetrics *m)
{
  TmTextTable *t = self->tables[TM_ALLOCATIONS_PAGE_ALLOCS];
  const TmAllocSeries *s = m->allocs;
  guint64 span = 0;
  Row r = { 0 };

  for (guint p = 0; p < s->n_points; p++)
    span += s->interval_ns[p];
  for (guint i = 0; i < s->groups->len; i++)
    {
      const TmAllocGroup *g = g_ptr_array_index (s->groups, i);

      cell (&r, g_strdup (g->key), NAN);
      cell_count (&r, g->sum_alloc_objects);
      cell_bytes (&r, (double) g->sum_alloc_bytes);
      cell_rate (&r, span ? g->sum_alloc_bytes * 1e9 / span : 0);
      cell_count (&r, g->sum_freed_objects);
      cell_bytes (&r, (double) g->sum_freed_bytes);
      cell_bytes (&r, (double) g->sum_alloc_bytes - (double) g->sum_freed_bytes);
      add_row (t, &r);
    }
  tm_text_table_sort_by (t, 2);
}

static void
fill_lifetimes (TmAllocationsView *self, const TmVmMetrics *m)
{
  TmTextTable *t = self->tables[TM_ALLOCATIONS_PAGE_LIFETIMES];
  const TmLifetimes *lt = m->lifetimes;
  Row r = { 0 };

  for (guint i = 0; i < lt->groups->len; i++)
    {
      const TmLifetimeGroup *g = g_ptr_array_index (lt->groups, i);
      double young = g->died_objects ? 100.0 * g->by_gcs_objects[0] / g->died_objects : 0;

      cell (&r, g_strdup (g->key), NAN);
      cell_count (&r, g->died_objects);
      cell_bytes (&r, (double) g->died_bytes);
      cell (&r, g_strdup_printf ("%.1f %%", young), young);
      cell (&r, g_strdup_printf ("%.2f", g->mean_gcs), g->mean_gcs);
      cell (&r, g_strdup_printf ("%.3f s", g->mean_seconds), g->mean_seconds);
      cell_count (&r, g->long_lived_objects);
      cell_bytes (&r, (double) g->long_lived_bytes);
      add_row (t, &r);
    }
  tm_text_table_sort_by (t, 2);
}

/* The short-lived objects per group, with the share of the group's
 * allocations they are (from the allocation series of the same window). */
static void
fill_short_lived (TmAllocationsView *self, const TmVmMetrics *m)
{
  TmTextTable *t = self->tables[TM_ALLOCATIONS_PAGE_SHORT_LIVED];
  const TmChurnNode *root = m->churn->root;
  g_autoptr(GHashTable) allocated = g_hash_table_new (NULL, NULL);
  Row r = { 0 };

  for (guint i = 0; i < m->allocs->groups->len; i++)
    {
      const TmAllocGroup *g = g_ptr_array_index (m->allocs->groups, i);
      g_hash_table_insert (allocated, GUINT_TO_POINTER (g->key_index + 1), (gpointer) g);
    }
  for (guint i = 0; i < root->children->len; i++)
    {
      const TmChurnNode *n = g_ptr_array_index (root->children, i);
      const TmAllocGroup *g = g_hash_table_lookup (allocated, GUINT_TO_POINTER (n->key_index + 1));
      double share = g != NULL && g->sum_alloc_bytes ? 100.0 * (double) n->bytes / (double) g->sum_alloc_bytes : NAN;
      double mean = n->objects ? n->age_seconds / (double) n->objects : 0;
      guint most = 0;

      for (guint b = 1; b < TM_LIFETIME_TIME_BUCKETS; b++)
        if (n->by_age[b] > n->by_age[most])
          most = b;
      cell (&r, g_strdup (n->key), NAN);
      cell_count (&r, n->objects);
      cell_bytes (&r, (double) n->bytes);
      cell (&r, isnan (share) ? g_strdup ("—") : g_strdup_printf ("%.1f %%", share), isnan (share) ? -1 : share);
      cell (&r, g_strdup_printf ("%.3f s", mean), mean);
      cell (&r, g_strdup (tm_lifetime_time_bucket_label (most)), most);
      add_row (t, &r);
    }
  tm_text_table_sort_by (t, 2);
  set_note (self, TM_ALLOCATIONS_PAGE_SHORT_LIVED,
            _("Objects allocated in the window that died in the first GC after their birth: never part of a heap "
              "state, they cost allocation and collection work (churn). Share: of the group's allocated bytes. "
              "Age at death: from the estimated allocation time to that GC."));
}

static void
fill_survival (TmAllocationsView *self, TmTrace *trace, const TmVmMetrics *m)
{
  TmTextTable *t = self->tables[TM_ALLOCATIONS_PAGE_SURVIVAL];
  const TmSurvival *sv = m->survival;
  Row r = { 0 };

  for (guint i = 0; i < sv->points->len; i++)
    {
      const TmSurvivalPoint *p = &g_array_index (sv->points, TmSurvivalPoint, i);
      guint64 older = 0;

      for (guint a = 2; a < TM_SURVIVAL_AGES; a++)
        older += p->age_objects[a];
      cell (&r, g_strdup_printf ("%u", p->gc), p->gc);
      cell (&r, g_strdup (tm_gc_kind_to_string (tm_trace_gc (trace, p->gc)->kind)), NAN);
      cell_count (&r, p->survived_objects);
      cell_bytes (&r, (double) p->survived_bytes);
      cell_count (&r, p->live_objects);
      cell_bytes (&r, (double) p->live_bytes);
      if (p->promoted_known)
        cell_bytes (&r, (double) p->promoted_bytes);
      else
        cell (&r, g_strdup ("—"), -1);
      cell_count (&r, older);
      add_row (t, &r);
    }
  set_note (self, TM_ALLOCATIONS_PAGE_SURVIVAL,
            sv->promotion_source == TM_PROMOTION_FROM_USAGE
            ? _("Promoted: growth of the old generation across a young collection (unknown at full and mixed collections).")
            : _("Promotion is unknown: the recording has no old generation."));
}

static void
fill_floating (TmAllocationsView *self, const TmVmMetrics *m)
{
  TmTextTable *t = self->tables[TM_ALLOCATIONS_PAGE_FLOATING];
  Row r = { 0 };

  if (m->floating == NULL)
    {
      set_note (self, TM_ALLOCATIONS_PAGE_FLOATING, m->floating_unavailable);
      return;
    }
  for (guint i = 0; i < m->floating->len; i++)
    {
      const TmFloatingPoint *p = &g_array_index (m->floating, TmFloatingPoint, i);
      double share = p->live_bytes ? 100.0 * p->floating_bytes / p->live_bytes : 0;

      cell (&r, g_strdup_printf ("%u", p->gc), p->gc);
      cell_bytes (&r, (double) p->live_bytes);
      cell_count (&r, p->floating_objects);
      cell_bytes (&r, (double) p->floating_bytes);
      cell (&r, g_strdup_printf ("%.1f %%", share), share);
      add_row (t, &r);
    }
  set_note (self, TM_ALLOCATIONS_PAGE_FLOATING,
            m->floating->len == 0 ? _("No GC of this window has a reference graph.")
                                  : _("Dead objects the collector still kept after each GC with a reference graph: "
                                      "listed as alive, reached by no root."));
}

static void
fill_transactions (TmAllocationsView *self, TmTrace *trace, const TmVmMetrics *m)
{
  TmTextTable *t = self->tables[TM_ALLOCATIONS_PAGE_TRANSACTIONS];
  const TmTxReport *tx = m->transactions;
  Row r = { 0 };

  if (tx == NULL)
    {
      set_note (self, TM_ALLOCATIONS_PAGE_TRANSACTIONS, m->transactions_unavailable);
      return;
    }
  for (guint k = 0; k < tx->kinds->len; k++)
    {
      const TmTxKindReport *kr = g_ptr_array_index (tx->kinds, k);
      const TmTxSurvivorSite *top = kr->sites->len ? &g_array_index (kr->sites, TmTxSurvivorSite, 0) : NULL;
      g_autofree char *site = top && top->site ? tm_trace_site_label (trace, top->site) : NULL;

      if (kr->runs == 0)
        continue;
      cell (&r, g_strdup (g_array_index (trace->tx_kinds, TmTxKind, kr->kind).name), NAN);
      cell_count (&r, kr->runs);
      cell_count (&r, kr->suspect_runs);
      cell_bytes (&r, (double) kr->allocated_bytes);
      cell_bytes (&r, (double) kr->surviving_bytes);
      cell (&r, top && tm_tx_site_is_recurring (kr, top)
                ? g_strdup_printf ("%s × %" G_GUINT64_FORMAT " (%u runs) at %s", tm_trace_type (trace, top->type)->name,
                                   top->objects, top->runs, site ? site : _("unknown site"))
                : g_strdup (_("none")), NAN);
      add_row (t, &r);
    }
  set_note (self, TM_ALLOCATIONS_PAGE_TRANSACTIONS,
            tx->unchecked_runs > 0 ? _("Some runs had no whole-heap collection after them and were not checked.")
                                   : _("A run is a suspect when it leaves objects of a type and site that other runs leave too; "
                                       "what only one run keeps is initialisation."));
}

static void
show (TmAllocationsView *self)
{
  TmDocument *doc = tm_section_get_document (TM_SECTION (self));
  TmTrace *trace = doc ? tm_document_get_trace (doc) : NULL;
  const TmVmMetrics *m = self->metrics;
  g_autofree char *alloc = NULL, *freed = NULL, *summary = NULL, *n_alloc = NULL, *n_freed = NULL;

  for (guint p = 0; p < TM_ALLOCATIONS_N_PAGES; p++)
    {
      tm_text_table_clear (self->tables[p]);
      set_note (self, p, NULL);
    }
  if (m == NULL || trace == NULL)
    return;
  fill_allocs (self, m);
  fill_lifetimes (self, m);
  fill_short_lived (self, m);
  fill_survival (self, trace, m);
  fill_floating (self, m);
  fill_transactions (self, trace, m);

  alloc = tm_format_bytes ((double) m->allocs->total.sum_alloc_bytes);
  freed = tm_format_bytes ((double) m->allocs->total.sum_freed_bytes);
  n_alloc = tm_format_count (m->allocs->total.sum_alloc_objects);
  n_freed = tm_format_count (m->allocs->total.sum_freed_objects);
  summary = g_strdup_printf (_("Allocated %s objects (%s), freed %s (%s); %.1f %% of the objects allocated "
                               "here died at their first GC."),
                             n_alloc, alloc, n_freed, freed,
                             m->lifetimes->born_objects
                             ? 100.0 * m->lifetimes->died_young_objects / m->lifetimes->born_objects : 0.0);
  gtk_label_set_text (self->summary_label, summary);
}

static void
metrics_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(TmAllocationsView) self = data;
  g_autoptr(GError) error = NULL;
  TmVmMetrics *m = tm_document_vm_metrics_finish (TM_DOCUMENT (source), result, &error);

  if (m == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gtk_spinner_set_spinning (self->spinner, FALSE);
  g_clear_pointer (&self->metrics, tm_vm_metrics_free);
  self->metrics = m;
  if (m == NULL)
    gtk_label_set_text (self->summary_label, error->message);
  show (self);
}

static void
compute (TmAllocationsView *self)
{
  TmDocument *doc = tm_section_get_document (TM_SECTION (self));
  guint sel = gtk_drop_down_get_selected (self->group_dropdown);

  if (doc == NULL || self->from_gc == 0)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_pointer (&self->metrics, tm_vm_metrics_free);
  show (self);
  gtk_label_set_text (self->summary_label, _("Computing…"));
  gtk_spinner_set_spinning (self->spinner, TRUE);
  tm_document_vm_metrics_async (doc, self->from_gc, self->to_gc,
                                group_classifiers[MIN (sel, G_N_ELEMENTS (group_classifiers) - 1)],
                                self->cancellable, metrics_done, g_object_ref (self));
}

static void
group_changed_cb (GtkDropDown *dropdown, GParamSpec *pspec, TmAllocationsView *self)
{
  compute (self);
}

void
tm_allocations_view_set_window (TmAllocationsView *self, guint from_gc, guint to_gc)
{
  TmDocument *doc;
  g_autofree char *title = NULL, *tab = NULL;
  gboolean heaptrack;

  g_return_if_fail (TM_IS_ALLOCATIONS_VIEW (self));
  doc = tm_section_get_document (TM_SECTION (self));
  g_return_if_fail (TM_IS_DOCUMENT (doc));
  heaptrack = g_strcmp0 (tm_document_get_trace (doc)->format, "heaptrack") == 0;
  self->from_gc = from_gc;
  self->to_gc = to_gc;
  /* TRANSLATORS: view title with the window's first and last GC (or heaptrack time point) */
  title = g_strdup_printf (heaptrack ? _("Allocations and deaths, time points %u to %u")
                                     : _("Allocations and deaths, GC %u to %u"), from_gc, to_gc);
  gtk_label_set_text (self->title_label, title);
  tab = g_strdup_printf (heaptrack ? _("Allocations, points %u–%u") : _("Allocations, GC %u–%u"), from_gc, to_gc);
  tm_section_set_title (TM_SECTION (self), tab);
  compute (self);
}

const TmVmMetrics *
tm_allocations_view_get_result (TmAllocationsView *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self), NULL);
  return self->metrics;
}

TmTextTable *
tm_allocations_view_get_table (TmAllocationsView *self, TmAllocationsPage page)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self) && page < TM_ALLOCATIONS_N_PAGES, NULL);
  return self->tables[page];
}

void
tm_allocations_view_show_page (TmAllocationsView *self, TmAllocationsPage page)
{
  g_return_if_fail (TM_IS_ALLOCATIONS_VIEW (self) && page < TM_ALLOCATIONS_N_PAGES);
  gtk_notebook_set_current_page (self->notebook, (int) page);
}

GtkWidget *
tm_allocations_view_new (TmSession *session)
{
  g_return_val_if_fail (TM_IS_SESSION (session), NULL);
  return g_object_new (TM_TYPE_ALLOCATIONS_VIEW, "session", session, NULL);
}

static void
tm_allocations_view_dispose (GObject *object)
{
  TmAllocationsView *self = TM_ALLOCATIONS_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_ALLOCATIONS_VIEW);
  G_OBJECT_CLASS (tm_allocations_view_parent_class)->dispose (object);
}

static void
tm_allocations_view_finalize (GObject *object)
{
  TmAllocationsView *self = TM_ALLOCATIONS_VIEW (object);

  g_clear_pointer (&self->metrics, tm_vm_metrics_free);
  G_OBJECT_CLASS (tm_allocations_view_parent_class)->finalize (object);
}

static void
tm_allocations_view_class_init (TmAllocationsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_allocations_view_dispose;
  object_class->finalize = tm_allocations_view_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tidemark/Tidemark/tm-allocations-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmAllocationsView, box);
  gtk_widget_class_bind_template_child (widget_class, TmAllocationsView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmAllocationsView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TmAllocationsView, group_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmAllocationsView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TmAllocationsView, notebook);
  gtk_widget_class_bind_template_callback (widget_class, group_changed_cb);
  gtk_widget_class_set_css_name (widget_class, "tm-allocations-view");
}

static void
tm_allocations_view_init (TmAllocationsView *self)
{
  const char *group = _("Group");
  const char *allocs[] = { group, _("Allocated"), _("Allocated bytes"), _("Rate"), _("Freed"), _("Freed bytes"),
                           _("Net bytes"), NULL };
  const char *lifetimes[] = { group, _("Died"), _("Died bytes"), _("Died at first GC"), _("Mean GCs survived"),
                              _("Mean lifetime"), _("Long-lived, then died"), _("Long-lived bytes"), NULL };
  const char *short_lived[] = { group, _("Short-lived"), _("Short-lived bytes"), _("Share of allocated"),
                                _("Mean age at death"), _("Most die at"), NULL };
  const char *survival[] = { _("GC"), _("Kind"), _("New, survived"), _("New bytes"), _("Live"), _("Live bytes"),
                             _("Promoted"), _("Survived 3+ GCs"), NULL };
  const char *floating[] = { _("GC"), _("Live bytes"), _("Floating objects"), _("Floating bytes"), _("Share"), NULL };
  const char *transactions[] = { _("Transaction"), _("Runs"), _("Suspect runs"), _("Allocated"), _("Surviving"),
                                 _("Recurring survivors"), NULL };
  const char * const *columns[TM_ALLOCATIONS_N_PAGES] = { allocs, lifetimes, short_lived, survival, floating,
                                                          transactions };
  const char *tabs[TM_ALLOCATIONS_N_PAGES] = {
    _("Allocated and Freed"), _("Lifetimes"), _("Short-Lived Objects"), _("Survival and Promotion"), _("Floating Garbage"), _("Transactions"),
  };

  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint p = 0; p < TM_ALLOCATIONS_N_PAGES; p++)
    {
      GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      GtkWidget *note = gtk_label_new (NULL);

      gtk_label_set_wrap (GTK_LABEL (note), TRUE);
      gtk_label_set_xalign (GTK_LABEL (note), 0);
      gtk_widget_set_margin_start (note, 6);
      gtk_widget_set_margin_end (note, 6);
      gtk_widget_add_css_class (note, "dim-label");
      gtk_widget_set_visible (note, FALSE);
      self->notes[p] = GTK_LABEL (note);
      self->tables[p] = TM_TEXT_TABLE (tm_text_table_new (columns[p]));
      gtk_box_append (GTK_BOX (page), note);
      gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->tables[p]));
      gtk_widget_set_vexpand (page, TRUE);
      gtk_notebook_append_page (self->notebook, page, gtk_label_new (tabs[p]));
    }
}
