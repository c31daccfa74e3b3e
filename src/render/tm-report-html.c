/* SPDX-License-Identifier: GPL-3.0-or-later
 * The report as one HTML file (see tm-report-html.h).  Every text from
 * the data (class names hold < > &, file names anything) goes through
 * g_markup_escape_text; the charts are the renderers' own pixels. */
#include "tm-config.h"
#include "tm-report-html.h"
#include "tm-chart.h"
#include "tm-format-util.h"
#include "tm-gc-summary-text.h"
#include "tm-render-ds-growth.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define CHART_WIDTH  1000.0
#define CHART_SCALE  2.0     /* sharp on HiDPI screens and paper */

typedef struct {
  const TmReport  *report;
  TmDocument      *doc;
  TmTrace         *trace;
  TmTimelineModel *model;
  TmChartBand     *bands;
  guint            n_bands;
  GString         *out;
  GCancellable    *cancellable;
} Html;

/* ---- writing ---- */

static void G_GNUC_PRINTF (2, 3)
put (Html *h, const char *format, ...)
{
  va_list args;
  g_autofree char *text = NULL;

  va_start (args, format);
  text = g_markup_vprintf_escaped (format, args);
  va_end (args);
  g_string_append (h->out, text);
}

static void
put_raw (Html *h, const char *text)
{
  g_string_append (h->out, text);
}

/* A class or method name, escaped, that may break after its dots and
 * punctuation instead of overflowing the table. */
static void
put_name (Html *h, const char *name)
{
  g_autofree char *escaped = g_markup_escape_text (name, -1);

  put_raw (h, "<span class=\"name\">");
  for (const char *c = escaped; *c; c++)
    {
      g_string_append_c (h->out, *c);
      if (strchr (".$,(/", *c) != NULL)
        put_raw (h, "<wbr>");
    }
  put_raw (h, "</span>");
}

static char *
css_color (TmColor c)
{
  return g_strdup_printf ("#%02x%02x%02x", (int) lround (c.red * 255), (int) lround (c.green * 255),
                          (int) lround (c.blue * 255));
}

static char *
signed_bytes (gint64 delta)
{
  g_autofree char *b = tm_format_bytes ((double) ABS (delta));
  return g_strdup_printf ("%s%s", delta < 0 ? "−" : "+", b);
}

/* heaptrack files have time points where traces have GCs */
static gboolean
heaptrack (const Html *h)
{
  return g_strcmp0 (h->trace->format, "heaptrack") == 0;
}

static char *
gc_range_text (const TmTrace *trace, guint32 first, guint32 last)
{
  if (g_strcmp0 (trace->format, "heaptrack") == 0)
    return g_strdup_printf (_("time points %u–%u"), first, last);
  return g_strdup_printf (_("GCs %u–%u"), first, last);
}

/* ---- charts ---- */

typedef struct {
  const TmTimelineModel *model;
  const TmChartOptions  *options;
} TimelineArgs;

static void
draw_timeline (cairo_t *cr, gpointer data)
{
  TimelineArgs *a = data;

  tm_chart_render (cr, a->model, a->options, NULL);
}

typedef struct {
  const TmTrace                *trace;
  const TmDsGrowth             *growth;
  const TmDsGrowthChartOptions *options;
} GrowthArgs;

static void
draw_growth (cairo_t *cr, gpointer data)
{
  GrowthArgs *a = data;

  tm_ds_growth_chart_render (cr, a->trace, a->growth, a->options, NULL);
}

/* <figure> with the PNG inline; FALSE only for an encoder error. */
static gboolean
put_figure (Html *h, double width, double height, TmRenderDrawFunc draw, gpointer data,
            const char *alt, const char *caption, GError **error)
{
  g_autoptr(GBytes) png = tm_render_png_bytes (width, height, CHART_SCALE, draw, data, error);
  g_autofree char *b64 = NULL;
  gsize len;
  const guchar *bytes;

  if (png == NULL)
    return FALSE;
  bytes = g_bytes_get_data (png, &len);
  b64 = g_base64_encode (bytes, len);
  put (h, "<figure><img alt=\"%s\" width=\"%d\" height=\"%d\" src=\"data:image/png;base64,", alt,
       (int) width, (int) height);
  put_raw (h, b64);
  put_raw (h, "\">");
  if (caption)
    put (h, "<figcaption>%s</figcaption>", caption);
  put_raw (h, "</figure>\n");
  return TRUE;
}

/* A chart of the run (start = end = 0) or of a stretch of it. */
static gboolean
put_timeline_chart (Html *h, TmChartKind kind, double height, double start_ns, double end_ns,
                    int selected, const char *caption, GError **error)
{
  TmChartOptions o;
  TimelineArgs args = { h->model, &o };

  tm_chart_options_init (&o, kind, h->model, CHART_WIDTH, height);
  if (end_ns > start_ns)
    {
      o.view_start_ns = start_ns;
      o.view_end_ns = end_ns;
    }
  o.bands = h->bands;
  o.n_bands = h->n_bands;
  o.selected_band = selected;
  /* heaptrack's blocks: the chart's own title */
  return put_figure (h, CHART_WIDTH, height, draw_timeline, &args,
                     kind == TM_CHART_OBJECTS && h->model->time_points ? _("Live Allocations") : tm_chart_kind_title (kind),
                     caption, error);
}

/* ---- the parts ---- */

static void
put_card (Html *h, const char *value, const char *key)
{
  put (h, "<div class=\"card\"><div class=\"v\">%s</div><div class=\"k\">%s</div></div>", value, key);
}

static void
put_cards (Html *h)
{
  TmTrace *t = h->trace;
  g_autofree char *gcs = tm_format_count (tm_trace_n_gcs (t));
  g_autofree char *dur = tm_format_duration ((double) t->duration_ns);
  g_autofree char *peak = tm_format_bytes ((double) t->peak_used_bytes);
  g_autofree char *nwin = tm_format_count (h->report->windows->len);
  put_raw (h, "<div class=\"cards\">");
  put_card (h, dur, _("Duration"));
  put_card (h, gcs, heaptrack (h) ? _("Time points") : _("GCs"));
  put_card (h, peak, _("Peak heap use"));
  if (t->total_allocs > 0)
    {
      g_autofree char *allocs = tm_format_count (t->total_allocs);
      g_autofree char *bytes = tm_format_bytes ((double) t->total_alloc_bytes);
      put_card (h, allocs, _("Allocations"));
      put_card (h, bytes, _("Allocated"));
    }
  if (t->n_graphs > 0)
    {
      g_autofree char *graphs = tm_format_count (t->n_graphs);
      put_card (h, graphs, _("Heap graphs"));
    }
  put_card (h, nwin, _("Suspicious windows"));
  put_raw (h, "</div>\n");
}

static void
put_chip (Html *h, TmWindowKind kind)
{
  g_autofree char *color = css_color (tm_chart_window_color (kind));

  put (h, "<span class=\"chip\" style=\"background:%s\"></span>", color);
}

static void
put_windows_table (Html *h)
{
  GPtrArray *windows = h->report->windows;

  put (h, "<section id=\"windows\"><h2>%s</h2>\n", _("Suspicious time windows"));
  if (windows->len == 0)
    {
      TmWindowParams params;
      g_autofree char *note = NULL;

      tm_window_params_init (&params);
      note = tm_windows_evidence_note (h->trace, &params);
      put (h, "<p>%s</p>\n", _("No suspicious time windows were found: no leak, no high GC overhead and no high memory churn."));
      if (note)
        put (h, "<p class=\"note\">%s</p>\n", note);
      put_raw (h, "</section>\n");
      return;
    }
  put (h, "<table><thead><tr><th class=\"n\">#</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr></thead><tbody>\n",
       _("Window"), _("Range"), _("Time"), _("Score"));
  for (guint i = 0; i < windows->len; i++)
    {
      const TmWindow *w = windows->pdata[i];
      g_autofree char *range = gc_range_text (h->trace, w->first_gc, w->last_gc);
      g_autofree char *from = tm_format_duration ((double) w->start_ns);
      g_autofree char *to = tm_format_duration ((double) w->end_ns);
      g_autofree char *score = tm_report_window_score (w);
      gboolean linked = h->report->window < 0 || h->report->window == (int) i;

      put (h, "<tr><td class=\"n\">%u</td><td>", i + 1);
      put_chip (h, w->kind);
      if (linked)
        put (h, "<a href=\"#window-%u\">%s</a>", i + 1, tm_chart_window_label (w->kind));
      else
        put (h, "%s", tm_chart_window_label (w->kind));
      put (h, "</td><td>%s</td><td class=\"nw\">%s – %s</td><td>%s</td></tr>\n", range, from, to, score);
    }
  put_raw (h, "</tbody></table></section>\n");
}

/* FALSE only when a chart cannot be encoded */
static gboolean
put_ds_growth (Html *h, const TmReportPart *p, GError **error)
{
  const TmDsGrowth *g = p->ds_growth;
  guint n;

  if (g == NULL && p->ds_note == NULL)
    return TRUE;
  put (h, "<h3>%s</h3>\n", _("Top data structures"));
  if (g == NULL)
    {
      put (h, "<p class=\"note\">%s</p>\n", p->ds_note);
      return TRUE;
    }
  {
    g_autofree char *growth = signed_bytes (g->heap_growth_bytes);
    g_autofree char *line = g_strdup_printf (_("From GC %u to GC %u (the first and last with a reference graph) "
                                               "the reachable heap changed by %s."), g->from_gc, g->to_gc, growth);
    put (h, "<p>%s</p>\n", line);
  }
  n = MIN (g->entries->len, TM_REPORT_TOP);
  if (n == 0)
    {
      put (h, "<p class=\"note\">%s</p>\n", _("No data structure is alive at the end of the range."));
      return TRUE;
    }
  {
    TmDsGrowthChartOptions o;
    GrowthArgs args = { h->trace, g, &o };
    double height = tm_ds_growth_chart_natural_height (n, TRUE);

    tm_ds_growth_chart_options_init (&o, CHART_WIDTH, height);
    o.background = tm_render_rgb (0xffffff, 1);
    if (!put_figure (h, CHART_WIDTH, height, draw_growth, &args, _("Data structure growth"), NULL, error))
      return FALSE;
  }
  put (h, "<table><thead><tr><th class=\"n\">#</th><th>%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th>"
       "<th class=\"n\">%s</th><th>%s</th></tr></thead><tbody>\n",
       _("Structure"), _("Retained at end"), _("Retained growth"), _("Share of heap growth"), _("Pattern"));
  for (guint i = 0; i < n; i++)
    {
      const TmDsGrowthEntry *e = &g_array_index (g->entries, TmDsGrowthEntry, i);
      g_autofree char *id = g_strdup_printf ("@%" G_GUINT64_FORMAT, tm_trace_object_id (h->trace, e->object_index));
      g_autofree char *site = tm_trace_site_label (h->trace, h->trace->obj_site[e->object_index]);
      g_autofree char *retained = tm_format_bytes ((double) e->size[TM_DS_METRIC_RETAINED][1].bytes);
      g_autofree char *delta = signed_bytes (tm_ds_growth_entry_delta (e, TM_DS_METRIC_RETAINED));
      g_autofree char *hgp = g_strdup_printf ("%.1f %%", 100.0 * e->hgp[TM_DS_METRIC_RETAINED]);

      put (h, "<tr><td class=\"n\">%u</td><td class=\"main\">", i + 1);
      put_name (h, tm_trace_type (h->trace, e->type)->name);
      put (h, " <span class=\"muted\">%s</span>", id);
      if (h->trace->obj_site[e->object_index] != TM_UNKNOWN)
        {
          put (h, "<div class=\"site\">%s ", _("allocated at"));
          put_name (h, site);
          put_raw (h, "</div>");
        }
      if (e->born)
        put (h, "<div class=\"site\">%s</div>", _("created inside the range"));
      put (h, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>%s</td></tr>\n",
           retained, delta, hgp, tm_ds_pattern_label (e->pattern));
    }
  put_raw (h, "</tbody></table>\n");
  if (g->entries->len > n)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more structure is not shown.",
                                                            "%u more structures are not shown.",
                                                            g->entries->len - n), g->entries->len - n);
      put (h, "<p class=\"note\">%s</p>\n", more);
    }
  return TRUE;
}

/* "1.2 MiB (+640 KiB)": the value after and its change */
static char *
after_delta (guint64 before, guint64 after, gboolean bytes)
{
  gint64 d = (gint64) after - (gint64) before;
  g_autofree char *v = bytes ? tm_format_bytes ((double) after) : tm_format_count (after);
  g_autofree char *dv = NULL;

  if (bytes)
    return g_strdup_printf ("%s (%s)", v, (dv = signed_bytes (d)));
  dv = tm_format_count ((guint64) ABS (d));
  return g_strdup_printf ("%s (%s%s)", v, d < 0 ? "−" : "+", dv);
}

static void
put_growing_groups (Html *h, const TmReportPart *p)
{
  TmHeapDiff *diff = p->heap_diff;

  if (diff == NULL && p->diff_note == NULL)
    return;
  put (h, "<h3>%s</h3>\n", _("Top growing groups"));
  if (diff == NULL)
    {
      put (h, "<p class=\"note\">%s</p>\n", p->diff_note);
      return;
    }
  {
    guint32 a = tm_heap_diff_get_from_gc (diff), b = tm_heap_diff_get_to_gc (diff);
    g_autofree char *line = NULL;

    if (heaptrack (h))
      line = g_strdup_printf (_("Allocations by call site alive at time point %u compared with time point %u, "
                                "the largest growth first."), b, a);
    else if (p->diff_metric == TM_HEAP_METRIC_RETAINED_BYTES)
      line = g_strdup_printf (_("Objects by type in the heap after GC %u compared with the heap after GC %u, "
                                "the largest growth of retained size first."), b, a);
    else
      line = g_strdup_printf (_("Objects by type in the heap after GC %u compared with the heap after GC %u, "
                                "the largest growth of their own size first."), b, a);
    put (h, "<p>%s</p>\n", line);
  }
  if (p->diff_top->len == 0)
    {
      put (h, "<p class=\"note\">%s</p>\n", _("No group of objects grew."));
      return;
    }
  put (h, "<table><thead><tr><th class=\"n\">#</th><th>%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th>",
       heaptrack (h) ? _("Allocation site") : _("Type"), _("Objects"), _("Shallow size"));
  if (p->diff_metric == TM_HEAP_METRIC_RETAINED_BYTES)
    put (h, "<th class=\"n\">%s</th>", _("Retained size"));
  put_raw (h, "</tr></thead><tbody>\n");
  for (guint i = 0; i < p->diff_top->len; i++)
    {
      guint32 node = g_array_index (p->diff_top, guint32, i);
      const TmHeapDiffNode *n = tm_heap_diff_node (diff, node);
      TmGroupMetrics before, after;
      g_autofree char *objs = NULL, *bytes = NULL;

      tm_heap_diff_get_metrics (diff, node, &before, &after);
      objs = after_delta (before.objects, after.objects, FALSE);
      bytes = after_delta (before.bytes, after.bytes, TRUE);
      put (h, "<tr><td class=\"n\">%u</td><td class=\"main\">", i + 1);
      put_name (h, n->label);
      put (h, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td>", objs, bytes);
      if (p->diff_metric == TM_HEAP_METRIC_RETAINED_BYTES)
        {
          g_autofree char *ret = after_delta (before.retained_bytes, after.retained_bytes, TRUE);
          put (h, "<td class=\"n\">%s</td>", ret);
        }
      put_raw (h, "</tr>\n");
    }
  put_raw (h, "</tbody></table>\n");
}

static void
put_allocations (Html *h, const TmReportPart *p)
{
  const TmAllocSeries *a = p->vm ? p->vm->allocs : NULL;
  guint n;

  if (a == NULL)
    {
      if (p->vm_note)
        put (h, "<h3>%s</h3>\n<p class=\"note\">%s</p>\n", _("Allocations by type"), p->vm_note);
      return;
    }
  n = MIN (a->groups->len, TM_REPORT_TOP);
  if (n == 0)
    return;
  put (h, "<h3>%s</h3>\n", _("Allocations by type"));
  {
    g_autofree char *objs = tm_format_count (a->total.sum_alloc_objects);
    g_autofree char *bytes = tm_format_bytes ((double) a->total.sum_alloc_bytes);
    g_autofree char *freed = tm_format_bytes ((double) a->total.sum_freed_bytes);
    g_autofree char *line = g_strdup_printf (_("%s objects (%s) allocated, %s freed in this range."), objs, bytes, freed);
    put (h, "<p>%s</p>\n", line);
  }
  put (h, "<table><thead><tr><th>%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th>"
       "<th class=\"n\">%s</th></tr></thead><tbody>\n",
       _("Type"), _("Objects allocated"), _("Bytes allocated"), _("Bytes freed"), _("Net"));
  for (guint i = 0; i < n; i++)
    {
      const TmAllocGroup *g = a->groups->pdata[i];
      g_autofree char *objs = tm_format_count (g->sum_alloc_objects);
      g_autofree char *bytes = tm_format_bytes ((double) g->sum_alloc_bytes);
      g_autofree char *freed = tm_format_bytes ((double) g->sum_freed_bytes);
      g_autofree char *net = signed_bytes ((gint64) g->sum_alloc_bytes - (gint64) g->sum_freed_bytes);

      put_raw (h, "<tr><td class=\"main\">");
      put_name (h, g->key);
      put (h, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>\n",
           objs, bytes, freed, net);
    }
  put_raw (h, "</tbody></table>\n");
}

static void
summary_row (gpointer data, const char *name, const char *value)
{
  put (data, "<tr><th scope=\"row\">%s</th><td>%s</td></tr>\n", name, value);
}

static void
put_gc_summary (Html *h, const TmReportPart *p)
{
  if (!p->has_gc_summary)
    return;
  put (h, "<h3>%s</h3>\n<table class=\"kv\"><tbody>\n", _("GC summary"));
  tm_gc_summary_describe (h->trace, p->first_gc, p->last_gc, summary_row, h);
  put_raw (h, "</tbody></table>\n");
}

static void
put_advice (Html *h, const TmReportPart *p)
{
  if (p->advice == NULL || tm_trace_n_gcs (h->trace) == 0)
    return;
  put (h, "<h3>%s</h3>\n", _("GC advice"));
  if (p->advice->len == 0)
    {
      put (h, "<p class=\"note\">%s</p>\n", _("No advice: nothing in this range points to a configuration problem."));
      return;
    }
  for (guint i = 0; i < p->advice->len; i++)
    {
      const TmAdvice *a = p->advice->pdata[i];

      put (h, "<div class=\"advice\"><div class=\"title\">%s <span class=\"tag\">%s</span></div><p>%s</p><p>%s</p>",
           a->title, a->rule, a->finding, a->action);
      if (a->flags && *a->flags)
        put (h, "<p>%s <code>%s</code></p>", _("Try:"), a->flags);
      put_raw (h, "</div>\n");
    }
}

/* Some time either side of a window, so its start and end show. */
static void
window_view (Html *h, const TmWindow *w, double *start, double *end)
{
  double len = MAX ((double) (w->end_ns - w->start_ns), 1.0);
  double run = MAX ((double) h->model->duration_ns, 1.0);

  *start = MAX (0.0, (double) w->start_ns - len * 0.15);
  *end = MIN (run, (double) w->end_ns + len * 0.15);
}

static gboolean
put_part (Html *h, const TmReportPart *p, GError **error)
{
  const TmWindow *w = p->window;
  g_autofree char *range = gc_range_text (h->trace, p->first_gc, p->last_gc);

  if (w == NULL)
    {
      put (h, "<section class=\"part\" id=\"run\"><h2>%s</h2>\n", _("The whole run"));
      put (h, "<p class=\"sub\">%s</p>\n", range);
    }
  else
    {
      g_autofree char *color = css_color (tm_chart_window_color (w->kind));
      g_autofree char *heading = g_strdup_printf (_("Window %u: %s"), p->number, tm_chart_window_label (w->kind));
      g_autofree char *from = tm_format_duration ((double) w->start_ns);
      g_autofree char *to = tm_format_duration ((double) w->end_ns);
      g_autofree char *score = tm_report_window_score (w);
      double start, end;

      put (h, "<section class=\"part window\" id=\"window-%u\" style=\"--kind:%s\"><h2>", p->number, color);
      put_chip (h, w->kind);
      put (h, "%s</h2>\n<p class=\"sub\">%s · %s – %s · %s</p>\n", heading, range, from, to, score);
      if (w->explanation && *w->explanation)
        put (h, "<p class=\"explanation\">%s</p>\n", w->explanation);
      window_view (h, w, &start, &end);
      /* the explanations send the reader to the occupancy; overhead
       * windows also get their own measure */
      if (!put_timeline_chart (h, TM_CHART_MEMORY, 300, start, end, (int) p->number - 1, NULL, error))
        return FALSE;
      if (w->kind == TM_WINDOW_GC_OVERHEAD &&
          !put_timeline_chart (h, TM_CHART_OVERHEAD, 220, start, end, (int) p->number - 1, NULL, error))
        return FALSE;
    }
  if (!put_ds_growth (h, p, error))
    return FALSE;
  put_growing_groups (h, p);
  put_allocations (h, p);
  put_gc_summary (h, p);
  put_advice (h, p);
  put_raw (h, "</section>\n");
  return TRUE;
}

static void
put_toc (Html *h)
{
  put (h, "<nav class=\"toc\"><h2>%s</h2><ol>\n", _("Contents"));
  put (h, "<li><a href=\"#overview\">%s</a></li>\n", _("Overview"));
  if (h->report->window < 0)
    put (h, "<li><a href=\"#windows\">%s</a></li>\n", _("Suspicious time windows"));
  for (guint i = 0; i < h->report->parts->len; i++)
    {
      const TmReportPart *p = h->report->parts->pdata[i];

      if (p->window == NULL)
        put (h, "<li><a href=\"#run\">%s</a></li>\n", _("The whole run"));
      else
        {
          g_autofree char *heading = g_strdup_printf (_("Window %u: %s"), p->number,
                                                      tm_chart_window_label (p->window->kind));
          put (h, "<li><a href=\"#window-%u\">%s</a></li>\n", p->number, heading);
        }
    }
  put_raw (h, "</ol></nav>\n");
}

static const char css[] =
  ":root{--fg:#1e1e24;--muted:#5e5c64;--line:#deddda;--soft:#f6f5f4;--accent:#1c71d8;--kind:#1c71d8}\n"
  "*{box-sizing:border-box}\n"
  "html{background:#fff;color:var(--fg)}\n"
  "body{margin:0;font:15px/1.55 system-ui,-apple-system,'Segoe UI',Cantarell,'Noto Sans','DejaVu Sans',sans-serif}\n"
  "main{max-width:1080px;margin:0 auto;padding:36px 32px 56px}\n"
  "header.report{border-bottom:3px solid var(--accent);padding-bottom:14px;margin-bottom:20px}\n"
  ".brand{font-size:12px;letter-spacing:.12em;text-transform:uppercase;color:var(--accent);font-weight:700}\n"
  "h1{font-size:30px;line-height:1.2;margin:4px 0 6px;overflow-wrap:anywhere}\n"
  "h2{font-size:22px;margin:44px 0 6px;display:flex;align-items:center;gap:8px}\n"
  "h3{font-size:16px;margin:26px 0 8px;color:#3d3846}\n"
  ".sub,.muted{color:var(--muted)}\n"
  ".sub{margin:0 0 12px}\n"
  "a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}\n"
  ".cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(124px,1fr));gap:12px;margin:18px 0 8px}\n"
  ".card{background:var(--soft);border-radius:10px;padding:10px 14px}\n"
  ".card .v{font-size:21px;font-weight:700;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
  ".card .k{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.05em}\n"
  "figure{margin:14px 0 22px}\n"
  "figure img{display:block;width:100%;height:auto;border:1px solid var(--line);border-radius:8px}\n"
  "figcaption{font-size:13px;color:var(--muted);margin-top:4px}\n"
  "table{border-collapse:collapse;width:100%;margin:8px 0 18px;font-size:14px}\n"
  "th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}\n"
  "thead th{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);font-weight:600;"
  "border-bottom:2px solid var(--line)}\n"
  "tbody tr:nth-child(even){background:#fafafa}\n"
  ".n{text-align:right;font-variant-numeric:tabular-nums}\n"
  "td.n{white-space:nowrap}\n"
  "td.main{width:42%}\n"
  ".nw{white-space:nowrap}\n"
  "table.kv th{width:28%;font-weight:600;color:#3d3846}\n"
  ".name{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,monospace;font-size:13px;overflow-wrap:break-word}\n"
  ".site{font-size:12.5px;color:var(--muted)}\n"
  ".chip{display:inline-block;width:11px;height:11px;border-radius:50%;margin-right:7px;flex:none}\n"
  "section.window h2{border-left:5px solid var(--kind);padding-left:10px}\n"
  ".explanation{background:var(--soft);border-left:4px solid var(--kind);padding:10px 14px;border-radius:0 8px 8px 0}\n"
  ".note{color:var(--muted);font-style:italic}\n"
  ".warning{background:#fff4d6;border:1px solid #e5a50a;padding:10px 14px;border-radius:8px}\n"
  ".advice{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0}\n"
  ".advice .title{font-weight:700}.advice p{margin:6px 0}\n"
  ".tag{display:inline-block;padding:0 8px;border-radius:999px;font-size:12px;font-weight:400;background:var(--soft);"
  "color:var(--muted)}\n"
  "code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px;background:var(--soft);padding:1px 5px;"
  "border-radius:4px;overflow-wrap:anywhere}\n"
  "nav.toc{background:var(--soft);border-radius:10px;padding:4px 18px 10px;margin:18px 0}\n"
  "nav.toc h2{font-size:15px;margin:10px 0 4px}nav.toc ol{margin:0;padding-left:22px;columns:2;column-gap:32px}\n"
  "footer{margin-top:48px;color:var(--muted);font-size:13px;border-top:1px solid var(--line);padding-top:12px}\n"
  "@media print{body{font-size:10.5pt}main{max-width:none;padding:0}nav.toc{display:none}"
  "section.part{break-before:page}figure,.advice,tr,.cards{break-inside:avoid}h2,h3{break-after:avoid}"
  "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}a{color:inherit}"
  "tbody tr:nth-child(even){background:none}}\n"
  "@page{margin:14mm}\n";

static gboolean
put_document (Html *h, GError **error)
{
  const TmReport *r = h->report;
  const char *path = tm_document_get_path (h->doc);
  g_autofree char *name = path ? g_path_get_basename (path) : g_strdup (_("Untitled"));
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  /* Translators: strftime format of the report's date, e.g. "%d.%m.%Y %H:%M" */
  g_autofree char *when = g_date_time_format (now, C_("report date", "%Y-%m-%d %H:%M"));
  g_autofree char *title = NULL;
  const char *vm = h->trace->vm_name && *h->trace->vm_name ? h->trace->vm_name : h->trace->format;
  gboolean has_pauses = FALSE;

  if (r->window >= 0)
    title = g_strdup_printf (_("Memory report of %s, window %d"), name, r->window + 1);
  else
    title = g_strdup_printf (_("Memory report of %s"), name);

  /* Translators: the language code of this translation, for the report's
   * <html lang>: "de" for German */
  put (h, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n", C_("html lang", "en"));
  put_raw (h, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
  put (h, "<meta name=\"generator\" content=\"Tidemark %s\">\n<title>%s</title>\n", PACKAGE_VERSION, title);
  put_raw (h, "<style>\n");
  put_raw (h, css);
  put_raw (h, "</style>\n</head>\n<body>\n<main>\n<header class=\"report\">\n");
  put (h, "<div class=\"brand\">%s</div>\n<h1>%s</h1>\n", _("Tidemark memory report"), title);
  {
    g_autofree char *dur = tm_format_duration ((double) h->trace->duration_ns);
    g_autofree char *generated = g_strdup_printf (_("Generated %s"), when);
    put (h, "<p class=\"sub\">%s · %s · %s</p>\n", vm ? vm : "", dur, generated);
    if (h->trace->command_line && *h->trace->command_line)
      put (h, "<p class=\"sub\"><code>%s</code></p>\n", h->trace->command_line);
  }
  put_raw (h, "</header>\n");

  if (!h->trace->complete || h->trace->warnings->len > 0)
    {
      put (h, "<div class=\"warning\"><strong>%s</strong><ul>\n",
           h->trace->complete ? _("Parts of the input were damaged and skipped:")
                              : _("The input is incomplete; the report covers the part that could be read:"));
      for (guint i = 0; i < h->trace->warnings->len && i < 10; i++)
        put (h, "<li>%s</li>\n", g_array_index (h->trace->warnings, TmWarning, i).message);
      put_raw (h, "</ul></div>\n");
    }

  put_toc (h);
  put (h, "<section id=\"overview\"><h2>%s</h2>\n", _("Overview"));
  put_cards (h);
  if (tm_trace_n_gcs (h->trace) > 0)
    {
      if (!put_timeline_chart (h, TM_CHART_MEMORY, 340, 0, 0, r->window, NULL, error))
        return FALSE;
      if (h->trace->total_allocs > 0 &&
          !put_timeline_chart (h, TM_CHART_OBJECTS, 240, 0, 0, r->window, NULL, error))
        return FALSE;
      for (guint i = 1; i <= tm_trace_n_gcs (h->trace) && !has_pauses; i++)
        has_pauses = tm_trace_gc (h->trace, i)->pause_ns > 0;
      if (has_pauses && !put_timeline_chart (h, TM_CHART_OVERHEAD, 240, 0, 0, r->window, NULL, error))
        return FALSE;
      /* heaptrack recordings: heaptrack_gui's charts over time */
      if (h->model->time_points && h->trace->total_allocs > 0 &&
          !put_timeline_chart (h, TM_CHART_ALLOCATIONS, 240, 0, 0, r->window, NULL, error))
        return FALSE;
      if (h->model->time_points && h->model->n_committed > 0 &&
          !put_timeline_chart (h, TM_CHART_RSS, 240, 0, 0, r->window, NULL, error))
        return FALSE;
    }
  else
    put (h, "<p class=\"note\">%s</p>\n", _("The input has no GCs yet: there is nothing to chart."));
  put_raw (h, "</section>\n");

  if (r->window < 0)
    put_windows_table (h);
  for (guint i = 0; i < r->parts->len; i++)
    {
      if (g_cancellable_set_error_if_cancelled (h->cancellable, error))
        return FALSE;
      if (!put_part (h, r->parts->pdata[i], error))
        return FALSE;
    }
  {
    g_autofree char *made = g_strdup_printf (_("Made with Tidemark %s from %s."), PACKAGE_VERSION, path ? path : name);
    put (h, "<footer>%s</footer>\n", made);
  }
  put_raw (h, "</main>\n</body>\n</html>\n");
  return TRUE;
}

GBytes *
tm_report_html (const TmReport *report, GCancellable *cancellable, GError **error)
{
  Html h = { 0 };
  gboolean ok;

  g_return_val_if_fail (report != NULL, NULL);

  h.report = report;
  h.doc = report->document;
  h.trace = tm_document_get_trace (report->document);
  h.model = tm_document_get_timeline (report->document);
  h.bands = tm_chart_bands_from_windows (report->windows, &h.n_bands);
  h.out = g_string_sized_new (1 << 20);
  h.cancellable = cancellable;
  ok = put_document (&h, error);
  g_free (h.bands);
  if (!ok)
    {
      g_string_free (h.out, TRUE);
      return NULL;
    }
  return g_string_free_to_bytes (h.out);
}

typedef struct {
  TmProgressFunc func;
  gpointer       data;
} Scaled;

static void
scaled_progress (double fraction, gpointer data)
{
  Scaled *s = data;

  s->func (0.9 * fraction, s->data);
}

gboolean
tm_report_write (TmDocument     *document,
                 GPtrArray      *windows,
                 int             window,
                 const char     *path,
                 TmProgressFunc  progress,
                 gpointer        progress_data,
                 GCancellable   *cancellable,
                 GError        **error)
{
  g_autoptr(TmReport) report = NULL;
  g_autoptr(GBytes) html = NULL;
  Scaled scaled = { progress, progress_data };
  gsize len;
  const char *data;

  g_return_val_if_fail (TM_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* the analyses take most of the time; charts and HTML the rest */
  report = tm_report_compute (document, windows, window, progress ? scaled_progress : NULL, &scaled,
                              cancellable, error);
  if (report == NULL)
    return FALSE;
  html = tm_report_html (report, cancellable, error);
  if (html == NULL)
    return FALSE;
  data = g_bytes_get_data (html, &len);
  if (!g_file_set_contents (path, data, (gssize) len, error))
    return FALSE;
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

typedef struct {
  GPtrArray *windows;
  int        window;
  char      *path;
} WriteArgs;

static void
write_args_free (WriteArgs *a)
{
  g_clear_pointer (&a->windows, g_ptr_array_unref);
  g_free (a->path);
  g_free (a);
}

static gpointer
write_work (TmDocument *doc, gpointer data, TmProgressFunc progress, gpointer progress_data,
            GCancellable *cancellable, GError **error)
{
  WriteArgs *a = data;

  if (!tm_report_write (doc, a->windows, a->window, a->path, progress, progress_data, cancellable, error))
    return NULL;
  return g_strdup (a->path);
}

void
tm_report_write_async (TmDocument         *document,
                       GPtrArray          *windows,
                       int                 window,
                       const char         *path,
                       TmProgressFunc      progress,
                       gpointer            progress_data,
                       GCancellable       *cancellable,
                       GAsyncReadyCallback callback,
                       gpointer            user_data)
{
  WriteArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (document));
  g_return_if_fail (path != NULL);

  a = g_new0 (WriteArgs, 1);
  a->windows = windows ? g_ptr_array_ref (windows) : NULL;
  a->window = window;
  a->path = g_strdup (path);
  tm_document_run_async (document, write_work, a, (GDestroyNotify) write_args_free, g_free,
                         progress, progress_data, cancellable, callback, user_data);
}

gboolean
tm_report_write_finish (TmDocument *document, GAsyncResult *result, GError **error)
{
  g_autofree char *path = tm_document_run_finish (document, result, error);

  return path != NULL;
}
