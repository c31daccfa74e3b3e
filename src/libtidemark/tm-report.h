/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a report of a run (or of one suspicious window) holds: the
 * windows, and for the run and each window the analyses that explain it,
 * all asked of the document: the GC summary and advice, the data
 * structures that grew between the range's first and last GC with a
 * reference graph, the groups of objects that grew (heap compare), the
 * allocations by type.  Written out as HTML by
 * src/render/tm-report-html.c; this part knows no output format.
 */
#pragma once

#include "tm-advice.h"
#include "tm-document.h"
#include "tm-gc-summary.h"
#include "tm-heap-diff.h"

G_BEGIN_DECLS

#define TM_REPORT_TOP 10   /* rows of each ranking */

typedef struct {
  const TmWindow *window;        /* NULL: the whole run */
  guint           number;        /* 1-based place in TmReport.windows; 0 for the run */
  guint32         first_gc;      /* the range, 1-based, inclusive */
  guint32         last_gc;

  gboolean        has_gc_summary;
  TmGcSummary     gc_summary;
  GPtrArray      *advice;        /* TmAdvice*, most severe first */

  /* data structure growth between the range's first and last graph GC */
  TmDsGrowth     *ds_growth;     /* or NULL, and then: */
  char           *ds_note;       /* why not (no graphs, ...), or NULL when not applicable */

  /* the groups by type that grew most between the range's ends (its
   * first and last graph GC when it has two, else its first and last GC) */
  TmHeapDiff     *heap_diff;     /* or NULL, and then: */
  char           *diff_note;     /* why not, or NULL when not applicable */
  TmHeapMetric    diff_metric;   /* what ranks them: retained bytes with graphs at both ends, else bytes */
  GArray         *diff_top;      /* guint32 nodes of heap_diff: the groups that grew in
                                  * diff_metric, most first (at most TM_REPORT_TOP) */

  /* allocations and deaths by type over the range */
  TmVmMetrics    *vm;            /* or NULL (a source without objects) */
  char           *vm_note;
} TmReportPart;

typedef struct {
  TmDocument *document;          /* a reference */
  GPtrArray  *windows;           /* TmWindow*, the windows the report numbers (a reference) */
  int         window;            /* the window reported on alone, -1: the whole run */
  GPtrArray  *parts;             /* TmReportPart*: the run first (whole-run reports), then windows */
} TmReport;

/* Computes the report of `document` with its suspicious `windows` (as the
 * app shows them; NULL: detected with the default parameters): the whole
 * run and each window, or only windows[window] when window >= 0
 * (TM_ERROR_INVALID_ARGUMENT when there is no such window).  Analyses a
 * source cannot give (no graphs, no objects) become notes, not errors;
 * fails only when cancelled (G_IO_ERROR_CANCELLED) or for a bad window. */
TmReport   *tm_report_compute (TmDocument     *document,
                               GPtrArray      *windows,
                               int             window,
                               TmProgressFunc  progress,
                               gpointer        progress_data,
                               GCancellable   *cancellable,
                               GError        **error);
void        tm_report_free    (TmReport *report);

/* A window's score in words: "12.5 % of the time in GC pauses",
 * "1.2 MiB/s growth" (the app's sidebar says the same). */
char       *tm_report_window_score (const TmWindow *window);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmReport, tm_report_free)

G_END_DECLS
