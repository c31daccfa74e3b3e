/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TmDocument: one per opened input (trace, GC log, heaptrack file).  It
 * owns everything derived from the input, computed once and shared by
 * every view of the app and every command of tidemark-cli:
 *
 *   trace        the immutable TmTrace
 *   timeline     the per-GC numbers the charts draw (TmTimelineModel)
 *   windows      the suspicious time windows (kept for the last params)
 *   heap states  one per-GC cache (TmHeapCache): graph, dominator tree,
 *                data-structure detection; each built once while kept
 *   descriptions the data-structure descriptions, parsed once
 *   file handle  the input stays open; graphs are re-read through it
 *
 * Contract:
 * - Every analysis has a synchronous function (for the CLI and workers)
 *   and an _async/_finish pair (for the app) that runs the synchronous
 *   one in a GTask worker.  Results are new references (or owned copies)
 *   and immutable, so they may be handed between threads.
 * - Synchronous `progress` callbacks run on the calling thread; the async
 *   ones on the caller's thread-default main context, coalesced, and not
 *   after `cancellable` is cancelled (TmProgress).
 * - A cancelled request fails with G_IO_ERROR_CANCELLED; a missing graph
 *   with TM_ERROR_NO_GRAPH; a bad argument (GC out of range, bad window)
 *   with TM_ERROR_INVALID_ARGUMENT.  Loading errors name the file and,
 *   for damaged input, the byte offset.
 * - All functions are thread-safe; the document never changes the trace.
 */
#pragma once

#include <gio/gio.h>
#include "tm-classify-chain.h"
#include "tm-ds-growth.h"
#include "tm-heap-cache.h"
#include "tm-heap-diff.h"
#include "tm-progress.h"
#include "tm-root-path.h"
#include "tm-timeline-model.h"
#include "tm-trend.h"
#include "tm-vm-metrics.h"
#include "tm-containers.h"
#include "tm-advice-report.h"
#include "tm-call-data.h"
#include "tm-windows.h"

G_BEGIN_DECLS

#define TM_TYPE_DOCUMENT (tm_document_get_type ())
G_DECLARE_FINAL_TYPE (TmDocument, tm_document, TM, DOCUMENT, GObject)

/* ---- opening ---- */

/* Opens `path` (any supported format) and builds the trace and timeline,
 * under the default load options (tm-load-options.h: the memory budget). */
TmDocument      *tm_document_load            (const char           *path,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_load_async      (const char           *path,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
/* Both loads finish with this. */
TmDocument      *tm_document_load_finish     (GAsyncResult         *result,
                                              GError              **error);
/* Several files read as one timeline: the rotated parts of one GC log
 * (tm_trace_load_files); one file is tm_document_load.  `options` (may be
 * NULL: the defaults) set the memory budget: a larger input opens as
 * partial (TmTrace.memory_limited) with a warning naming the budget. */
TmDocument      *tm_document_load_files      (const char * const   *paths,
                                              guint                 n,
                                              const TmLoadOptions  *options,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_load_files_async (const char * const  *paths,
                                              guint                 n,
                                              const TmLoadOptions  *options,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
/* The same with the charts streaming in: `partial` receives, on the
 * calling thread's main context with `progress_data`, the timeline of the
 * GCs read so far (TmLoadOptions.partial_timeline), each one extending
 * the last; coalesced with the progress (the newest wins), and nothing
 * after the result or once `cancellable` is cancelled.  Finish with
 * tm_document_load_finish (). */
void             tm_document_load_files_streaming_async (const char * const    *paths,
                                                         guint                   n,
                                                         const TmLoadOptions    *options,
                                                         TmProgressFunc          progress,
                                                         TmPartialTimelineFunc   partial,
                                                         gpointer                progress_data,
                                                         GCancellable           *cancellable,
                                                         GAsyncReadyCallback     callback,
                                                         gpointer                user_data);
/* A document over a trace built in memory (synthesized, tests). */
TmDocument      *tm_document_new_for_trace   (TmTrace              *trace);

TmTrace         *tm_document_get_trace       (TmDocument           *self);
TmTimelineModel *tm_document_get_timeline    (TmDocument           *self);
TmHeapCache     *tm_document_get_heap_cache  (TmDocument           *self);
/* The file it was opened from, or NULL. */
const char      *tm_document_get_path        (TmDocument           *self);

/* ---- data structure descriptions ---- */

/* The shipped descriptions plus `files` (NULL-terminated, may be NULL),
 * replacing the current ones (detections made with them are dropped).  A
 * file that cannot be read or parsed is left out and becomes a warning
 * of the set (tm_dsl_warnings); fails, changing nothing, only when the
 * shipped descriptions cannot be read. */
gboolean         tm_document_set_ds_files    (TmDocument           *self,
                                              const char * const   *files,
                                              GError              **error);
/* Replaces the descriptions (ownership taken).  Both setters emit
 * ::descriptions-changed on the calling thread, so views showing
 * data-structure classifiers recompute. */
void             tm_document_set_dsl         (TmDocument           *self,
                                              TmDsl                *dsl);
/* The descriptions in use (the shipped ones unless set); valid until the
 * next set.  NULL with an error when the shipped ones cannot be read. */
const TmDsl     *tm_document_get_dsl         (TmDocument           *self,
                                              GError              **error);

/* ---- suspicious windows ---- */

/* TmWindow* (tm_windows_detect; params NULL: the defaults), a new array
 * reference; computed once per params and `all`. */
GPtrArray       *tm_document_windows         (TmDocument           *self,
                                              const TmWindowParams *params,
                                              gboolean              all,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_windows_async   (TmDocument           *self,
                                              const TmWindowParams *params,
                                              gboolean              all,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GPtrArray       *tm_document_windows_finish  (TmDocument           *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- the heap after a GC ---- */

/* From the heap-state cache, built now if not kept. */
TmHeapAnalysis  *tm_document_heap            (TmDocument           *self,
                                              guint32               gc_id,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_heap_async      (TmDocument           *self,
                                              guint32               gc_id,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmHeapAnalysis  *tm_document_heap_finish     (TmDocument           *self,
                                              GAsyncResult         *result,
                                              GError              **error);

typedef enum {
  TM_DOCUMENT_TREE_DEFAULT  = 0,
  /* a first level "Data structures" holding the heads of the
   * data-structure view (structures not inside another one) */
  TM_DOCUMENT_TREE_DS_HEADS = 1 << 0,
} TmDocumentTreeFlags;

/* The classification tree of the heap after gc_id by `chain` (built-in
 * and data-structure classifiers).  Shallow sizes are filled; deep and
 * retained ones on demand (tm_class_tree_compute_metrics). */
TmClassTree     *tm_document_class_tree      (TmDocument           *self,
                                              guint32               gc_id,
                                              const TmClassifier   *chain,
                                              guint                 depth,
                                              TmDocumentTreeFlags   flags,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_class_tree_async (TmDocument          *self,
                                              guint32               gc_id,
                                              const TmClassifier   *chain,
                                              guint                 depth,
                                              TmDocumentTreeFlags   flags,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmClassTree     *tm_document_class_tree_finish (TmDocument         *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* Deep and retained sizes of every group of `tree` (a tree of this
 * document), level by level (tm_class_tree_compute_all); progress per
 * group. */
gboolean         tm_document_tree_metrics    (TmDocument           *self,
                                              TmClassTree          *tree,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_tree_metrics_async (TmDocument        *self,
                                              TmClassTree          *tree,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean         tm_document_tree_metrics_finish (TmDocument       *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- heap compare (tm-heap-diff.h) ---- */

/* The trees of the heaps after from_gc and to_gc by `chain` and `flags`
 * (as tm_document_class_tree) merged into a diff; with `all_metrics`
 * also every node's deep and retained sizes when both GCs have a graph. */
TmHeapDiff      *tm_document_heap_diff       (TmDocument           *self,
                                              guint32               from_gc,
                                              guint32               to_gc,
                                              const TmClassifier   *chain,
                                              guint                 depth,
                                              TmDocumentTreeFlags   flags,
                                              gboolean              all_metrics,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_heap_diff_async (TmDocument           *self,
                                              guint32               from_gc,
                                              guint32               to_gc,
                                              const TmClassifier   *chain,
                                              guint                 depth,
                                              TmDocumentTreeFlags   flags,
                                              gboolean              all_metrics,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmHeapDiff      *tm_document_heap_diff_finish (TmDocument          *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- path to GC roots (tm-root-path.h) ---- */

/* Of the object with index `object_index` in the heap after gc_id;
 * TM_ERROR_INVALID_ARGUMENT when it is not alive then, TM_ERROR_NO_GRAPH
 * when that GC has no reference graph. */
TmRootPath      *tm_document_path_to_root    (TmDocument           *self,
                                              guint32               gc_id,
                                              guint32               object_index,
                                              GCancellable         *cancellable,
                                              GError              **error);
/* Of a group of a classification tree (through its representative). */
TmRootPath      *tm_document_group_path_to_root (TmDocument        *self,
                                              TmClassTree          *tree,
                                              guint32               node,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_group_path_to_root_async (TmDocument  *self,
                                              TmClassTree          *tree,
                                              guint32               node,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmRootPath      *tm_document_group_path_to_root_finish (TmDocument *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- TrendViz ---- */

/* tm_trend_compute_cached on the document's heap states and descriptions.
 * Sync: `partial` runs on the calling thread; async: on the caller's main
 * context with the latest snapshot (coalesced). */
TmTrend         *tm_document_trend           (TmDocument           *self,
                                              const TmTrendRequest *request,
                                              TmTrendPartialFunc    partial,
                                              gpointer              partial_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_trend_async     (TmDocument           *self,
                                              const TmTrendRequest *request,
                                              TmTrendPartialFunc    partial,
                                              gpointer              partial_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmTrend         *tm_document_trend_finish    (TmDocument           *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- data structure growth ---- */

TmDsGrowth      *tm_document_ds_growth       (TmDocument           *self,
                                              guint32               from_gc,
                                              guint32               to_gc,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_ds_growth_async (TmDocument           *self,
                                              guint32               from_gc,
                                              guint32               to_gc,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmDsGrowth      *tm_document_ds_growth_finish (TmDocument          *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- VM-level metrics (tm-vm-metrics.h) ---- */

/* Allocations and deaths by `classifier`, lifetimes, survival, floating
 * garbage and transactions over from_gc..to_gc. */
TmVmMetrics     *tm_document_vm_metrics      (TmDocument           *self,
                                              guint32               from_gc,
                                              guint32               to_gc,
                                              TmClassifier          classifier,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_vm_metrics_async (TmDocument          *self,
                                              guint32               from_gc,
                                              guint32               to_gc,
                                              TmClassifier          classifier,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmVmMetrics     *tm_document_vm_metrics_finish (TmDocument         *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- container leak confidence (tm-containers.h) ---- */

/* Over the leak region from_gc..to_gc, on the document's heap states and
 * descriptions. */
TmContainerReport *tm_document_containers    (TmDocument           *self,
                                              guint32               from_gc,
                                              guint32               to_gc,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_containers_async (TmDocument          *self,
                                              guint32               from_gc,
                                              guint32               to_gc,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmContainerReport *tm_document_containers_finish (TmDocument       *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* GC configuration advice for GCs first..last (0, 0: the whole run),
 * compared with the knowledge base at kb_path (NULL: none). */
TmAdviceReport  *tm_document_advice          (TmDocument           *self,
                                              guint32               first_gc,
                                              guint32               last_gc,
                                              const TmAdviceParams *params,
                                              const char           *kb_path);
void             tm_document_advice_async    (TmDocument           *self,
                                              guint32               first_gc,
                                              guint32               last_gc,
                                              const TmAdviceParams *params,
                                              const char           *kb_path,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmAdviceReport  *tm_document_advice_finish   (TmDocument           *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- allocations by call stack (tm-call-data.h) ---- */

/* The call profile, summary and size histogram of GCs (or heaptrack time
 * points) from_gc..to_gc; 0, 0 for the whole run, which is kept: the
 * Call Stacks page of a heaptrack file asks for it more than once. */
TmCallData      *tm_document_call_data       (TmDocument           *self,
                                              guint                 from_gc,
                                              guint                 to_gc,
                                              GCancellable         *cancellable,
                                              GError              **error);
void             tm_document_call_data_async (TmDocument           *self,
                                              guint                 from_gc,
                                              guint                 to_gc,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
TmCallData      *tm_document_call_data_finish (TmDocument          *self,
                                              GAsyncResult         *result,
                                              GError              **error);

/* ---- any other work over the document ---- */

/* Work that combines the analyses above (a report, ...), run like them:
 * `work` gets the document and `args` on a worker, reports progress
 * through `progress` (delivered through TmProgress) and returns a result
 * (freed with result_free if nobody takes it) or NULL with an error. */
typedef gpointer (*TmDocumentWorkFunc) (TmDocument     *self,
                                        gpointer        args,
                                        TmProgressFunc  progress,
                                        gpointer        progress_data,
                                        GCancellable   *cancellable,
                                        GError        **error);
void             tm_document_run_async       (TmDocument           *self,
                                              TmDocumentWorkFunc    work,
                                              gpointer              args,
                                              GDestroyNotify        args_free,
                                              GDestroyNotify        result_free,
                                              TmProgressFunc        progress,
                                              gpointer              progress_data,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
/* The result of `work` (owned by the caller). */
gpointer         tm_document_run_finish      (TmDocument           *self,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
