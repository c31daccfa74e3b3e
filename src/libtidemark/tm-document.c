/* SPDX-License-Identifier: GPL-3.0-or-later
 * One document per opened input (see the header). */
#include "tm-config.h"
#include <glib/gi18n-lib.h>
#include "tm-document.h"
#include "tm-error.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>

struct _TmDocument {
  GObject          parent_instance;
  TmTrace         *trace;
  TmTimelineModel *timeline;
  TmHeapCache     *heaps;

  GMutex           lock;          /* guards the windows below */
  GPtrArray       *windows;       /* of windows_params / windows_all */
  TmWindowParams   windows_params;
  gboolean         windows_all;
  TmCallData      *calls_all;     /* the whole run's call data, once asked for */
};

G_DEFINE_FINAL_TYPE (TmDocument, tm_document, G_TYPE_OBJECT)

enum { DESCRIPTIONS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
tm_document_finalize (GObject *object)
{
  TmDocument *self = TM_DOCUMENT (object);

  g_clear_pointer (&self->windows, g_ptr_array_unref);
  g_clear_pointer (&self->calls_all, tm_call_data_unref);
  g_clear_pointer (&self->heaps, tm_heap_cache_unref);
  g_clear_pointer (&self->timeline, tm_timeline_model_unref);
  g_clear_pointer (&self->trace, tm_trace_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (tm_document_parent_class)->finalize (object);
}

static void
tm_document_class_init (TmDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_document_finalize;

  signals[DESCRIPTIONS_CHANGED] =
    g_signal_new ("descriptions-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tm_document_init (TmDocument *self)
{
  g_mutex_init (&self->lock);
}

static TmDocument *
document_new (TmTrace *trace, int graph_fd)
{
  TmDocument *self = g_object_new (TM_TYPE_DOCUMENT, NULL);

  self->trace = tm_trace_ref (trace);
  self->timeline = tm_timeline_model_new (trace);
  self->heaps = tm_heap_cache_new (trace, NULL, graph_fd, TM_HEAP_CACHE_DEFAULT_BUDGET);
  return self;
}

TmDocument *
tm_document_new_for_trace (TmTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return document_new (trace, -1);
}

TmDocument *
tm_document_load (const char      *path,
                  TmProgressFunc   progress,
                  gpointer         progress_data,
                  GCancellable    *cancellable,
                  GError         **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return tm_document_load_files (&path, 1, NULL, progress, progress_data, cancellable, error);
}

TmDocument *
tm_document_load_files (const char * const  *paths,
                        guint                n,
                        const TmLoadOptions *options,
                        TmProgressFunc       progress,
                        gpointer             progress_data,
                        GCancellable        *cancellable,
                        GError             **error)
{
  g_autoptr(TmTrace) trace = NULL;
  TmDocument *self;
  int fd;

  g_return_val_if_fail (paths != NULL && n > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n > 1)
    {
      /* the rotated parts of one GC log: one timeline, no graphs to re-read */
      trace = tm_trace_load_files (paths, n, options, progress, progress_data, cancellable, error);
      return trace ? document_new (trace, -1) : NULL;
    }
  /* Opened first and kept: graphs are re-read from this very file even
   * if the path is replaced or removed later. */
  fd = g_open (paths[0], O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", paths[0], g_strerror (e));
      return NULL;
    }
  trace = tm_trace_load_full (paths[0], options, progress, progress_data, cancellable, error);
  if (trace == NULL)
    {
      g_close (fd, NULL);
      return NULL;
    }
  self = document_new (trace, fd);
  g_close (fd, NULL);   /* the cache keeps its own duplicate */
  return self;
}

TmTrace *
tm_document_get_trace (TmDocument *self)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return self->trace;
}

TmTimelineModel *
tm_document_get_timeline (TmDocument *self)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return self->timeline;
}

TmHeapCache *
tm_document_get_heap_cache (TmDocument *self)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return self->heaps;
}

const char *
tm_document_get_path (TmDocument *self)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return self->trace->path;
}

/* ---- descriptions ---- */

gboolean
tm_document_set_ds_files (TmDocument *self, const char * const *files, GError **error)
{
  g_autoptr(TmDsl) dsl = NULL;

  g_return_val_if_fail (TM_IS_DOCUMENT (self), FALSE);

  if ((dsl = tm_dsl_new_default (error)) == NULL)
    return FALSE;
  tm_dsl_add_files (dsl, files);
  tm_document_set_dsl (self, g_steal_pointer (&dsl));
  return TRUE;
}

void
tm_document_set_dsl (TmDocument *self, TmDsl *dsl)
{
  g_return_if_fail (TM_IS_DOCUMENT (self));
  tm_heap_cache_set_dsl (self->heaps, dsl);
  g_signal_emit (self, signals[DESCRIPTIONS_CHANGED], 0);
}

const TmDsl *
tm_document_get_dsl (TmDocument *self, GError **error)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return tm_heap_cache_get_dsl (self->heaps, error);
}

/* ---- one shape for every asynchronous request ---- */

/* The synchronous function behind an _async one, run on the worker. */
typedef TmDocumentWorkFunc WorkFunc;

typedef struct {
  WorkFunc        work;
  gpointer        args;
  GDestroyNotify  args_free;
  GDestroyNotify  result_free;
  TmProgress     *progress;     /* NULL without a callback */
} Work;

static void
work_free (Work *w)
{
  if (w->args_free)
    w->args_free (w->args);
  g_clear_pointer (&w->progress, tm_progress_unref);
  g_free (w);
}

static void
work_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Work *w = data;
  GError *error = NULL;
  gpointer result;

  result = w->work (source, w->args, w->progress ? tm_progress_update : NULL, w->progress, cancellable, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, w->result_free);
}

/* The caller's callback, after the progress of the work is stopped (its
 * last coalesced report may still be queued behind the result). */
typedef struct {
  GAsyncReadyCallback  callback;
  gpointer             user_data;
  TmProgress          *progress;    /* may be NULL */
} Done;

static void
done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Done *d = data;

  if (d->progress != NULL)
    {
      tm_progress_stop (d->progress);
      tm_progress_unref (d->progress);
    }
  if (d->callback != NULL)
    d->callback (source, result, d->user_data);
  g_free (d);
}

static void
run_async (TmDocument          *self,
           gpointer             source_tag,
           WorkFunc             work,
           gpointer             args,
           GDestroyNotify       args_free,
           GDestroyNotify       result_free,
           TmProgress          *progress,     /* taken */
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             user_data)
{
  Done *d = g_new0 (Done, 1);
  g_autoptr(GTask) task = NULL;
  Work *w = g_new0 (Work, 1);

  d->callback = callback;
  d->user_data = user_data;
  d->progress = progress ? tm_progress_ref (progress) : NULL;
  task = g_task_new (self, cancellable, done_cb, d);

  w->work = work;
  w->args = args;
  w->args_free = args_free;
  w->result_free = result_free;
  w->progress = progress;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, w, (GDestroyNotify) work_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, work_thread);
}

static TmProgress *
progress_for (TmProgressFunc progress, gpointer progress_data, GCancellable *cancellable)
{
  return progress ? tm_progress_new (progress, NULL, progress_data, cancellable) : NULL;
}

static gpointer
finish (TmDocument *self, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- loading ---- */

typedef struct {
  char          **paths;
  TmLoadOptions   options;
} LoadArgs;

static void
load_args_free (LoadArgs *a)
{
  g_strfreev (a->paths);
  g_free (a);
}

static gpointer
load_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
           GCancellable *cancellable, GError **error)
{
  LoadArgs *a = args;

  return tm_document_load_files ((const char * const *) a->paths, g_strv_length (a->paths), &a->options,
                                 progress, progress_data, cancellable, error);
}

void
tm_document_load_files_async (const char * const  *paths,
                              guint                n,
                              const TmLoadOptions *options,
                              TmProgressFunc       progress,
                              gpointer             progress_data,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  tm_document_load_files_streaming_async (paths, n, options, progress, NULL, progress_data,
                                          cancellable, callback, user_data);
}

/* Tests: TIDEMARK_TEST_STREAM_PAUSE_MS makes the loading thread pause
 * that long after the snapshots of GC 1 and 2, so that a window is seen
 * streaming on any machine, however fast it reads. */
static guint
stream_pause_ms (void)
{
  static gsize once;
  static guint ms;

  if (g_once_init_enter (&once))
    {
      const char *v = g_getenv ("TIDEMARK_TEST_STREAM_PAUSE_MS");
      ms = v ? (guint) MIN (g_ascii_strtoull (v, NULL, 10), 10000) : 0;
      g_once_init_leave (&once, 1);
    }
  return ms;
}

/* Loading thread: hands the snapshot to the main context (latest wins). */
static void
load_offer_partial (TmTimelineModel *partial, gpointer data)
{
  tm_progress_offer (data, tm_timeline_model_ref (partial), (GDestroyNotify) tm_timeline_model_unref);
  if (G_UNLIKELY (stream_pause_ms () > 0) && partial->n_gcs <= 2)
    g_usleep ((gulong) stream_pause_ms () * 1000);
}

void
tm_document_load_files_streaming_async (const char * const    *paths,
                                        guint                   n,
                                        const TmLoadOptions    *options,
                                        TmProgressFunc          progress,
                                        TmPartialTimelineFunc   partial,
                                        gpointer                progress_data,
                                        GCancellable           *cancellable,
                                        GAsyncReadyCallback     callback,
                                        gpointer                user_data)
{
  TmProgress *reports = NULL;
  LoadArgs *a;

  g_return_if_fail (paths != NULL && n > 0);
  a = g_new0 (LoadArgs, 1);
  a->paths = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    a->paths[i] = g_strdup (paths[i]);
  if (options != NULL)
    a->options = *options;
  a->options.partial_timeline = NULL;
  a->options.partial_data = NULL;
  if (progress != NULL || partial != NULL)
    reports = tm_progress_new (progress, (TmProgressPayloadFunc) partial, progress_data, cancellable);
  if (partial != NULL)
    {
      /* the work's own reference to the TmProgress outlives the load */
      a->options.partial_timeline = load_offer_partial;
      a->options.partial_data = reports;
    }
  run_async (NULL, tm_document_load_async, load_work, a, (GDestroyNotify) load_args_free, g_object_unref,
             reports, cancellable, callback, user_data);
}

void
tm_document_load_async (const char          *path,
                        TmProgressFunc       progress,
                        gpointer             progress_data,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_return_if_fail (path != NULL);
  tm_document_load_files_async (&path, 1, NULL, progress, progress_data, cancellable, callback, user_data);
}

TmDocument *
tm_document_load_finish (GAsyncResult *result, GError **error)
{
  return finish (NULL, result, tm_document_load_async, error);
}

/* ---- windows ---- */

GPtrArray *
tm_document_windows (TmDocument            *self,
                     const TmWindowParams  *params,
                     gboolean               all,
                     GCancellable          *cancellable,
                     GError               **error)
{
  TmWindowParams p;
  GPtrArray *windows;

  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);

  memset (&p, 0, sizeof p);   /* compared with memcmp below */
  if (params == NULL)
    tm_window_params_init (&p);
  else
    p = *params;
  all = !!all;

  g_mutex_lock (&self->lock);
  if (self->windows != NULL && self->windows_all == all &&
      memcmp (&self->windows_params, &p, sizeof p) == 0)
    {
      windows = g_ptr_array_ref (self->windows);
      g_mutex_unlock (&self->lock);
      return windows;
    }
  g_mutex_unlock (&self->lock);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  windows = tm_windows_detect (self->trace, &p, all);
  if (windows == NULL)
    windows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_window_free);

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->windows, g_ptr_array_unref);
  self->windows = g_ptr_array_ref (windows);
  self->windows_params = p;
  self->windows_all = all;
  g_mutex_unlock (&self->lock);
  return windows;
}

typedef struct {
  TmWindowParams params;
  gboolean       use_params;
  gboolean       all;
} WindowsArgs;

static gpointer
windows_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
              GCancellable *cancellable, GError **error)
{
  WindowsArgs *a = args;
  return tm_document_windows (self, a->use_params ? &a->params : NULL, a->all, cancellable, error);
}

void
tm_document_windows_async (TmDocument           *self,
                           const TmWindowParams *params,
                           gboolean              all,
                           GCancellable         *cancellable,
                           GAsyncReadyCallback   callback,
                           gpointer              user_data)
{
  WindowsArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  a = g_new0 (WindowsArgs, 1);
  if (params != NULL)
    a->params = *params;
  a->use_params = params != NULL;
  a->all = all;
  run_async (self, tm_document_windows_async, windows_work, a, g_free, (GDestroyNotify) g_ptr_array_unref,
             NULL, cancellable, callback, user_data);
}

GPtrArray *
tm_document_windows_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_windows_async, error);
}

/* ---- heap ---- */

TmHeapAnalysis *
tm_document_heap (TmDocument      *self,
                  guint32          gc_id,
                  TmProgressFunc   progress,
                  gpointer         progress_data,
                  GCancellable    *cancellable,
                  GError         **error)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return tm_heap_cache_get (self->heaps, gc_id, progress, progress_data, cancellable, error);
}

static gpointer
heap_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
           GCancellable *cancellable, GError **error)
{
  return tm_document_heap (self, GPOINTER_TO_UINT (args), progress, progress_data, cancellable, error);
}

void
tm_document_heap_async (TmDocument          *self,
                        guint32              gc_id,
                        TmProgressFunc       progress,
                        gpointer             progress_data,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_return_if_fail (TM_IS_DOCUMENT (self));
  run_async (self, tm_document_heap_async, heap_work, GUINT_TO_POINTER (gc_id), NULL,
             (GDestroyNotify) tm_heap_analysis_unref, progress_for (progress, progress_data, cancellable),
             cancellable, callback, user_data);
}

TmHeapAnalysis *
tm_document_heap_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_heap_async, error);
}

/* ---- classification tree ---- */

TmClassTree *
tm_document_class_tree (TmDocument           *self,
                        guint32               gc_id,
                        const TmClassifier   *chain,
                        guint                 depth,
                        TmDocumentTreeFlags   flags,
                        TmProgressFunc        progress,
                        gpointer              progress_data,
                        GCancellable         *cancellable,
                        GError              **error)
{
  g_autoptr(TmHeapAnalysis) heap = NULL;
  TmClassLevel levels[TM_CLASSIFY_MAX_DEPTH];
  guint first = (flags & TM_DOCUMENT_TREE_DS_HEADS) ? 1 : 0;

  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (chain != NULL || depth == 0, NULL);

  if (depth + first == 0 || depth + first > TM_CLASSIFY_MAX_DEPTH)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("a classification needs 1 to %u levels (got %u)"), TM_CLASSIFY_MAX_DEPTH, depth + first);
      return NULL;
    }
  if ((heap = tm_heap_cache_get (self->heaps, gc_id, progress, progress_data, cancellable, error)) == NULL)
    return NULL;
  if (first && !tm_classify_heads_level (self->heaps, heap, &levels[0], cancellable, error))
    return NULL;
  if (!tm_classify_chain_levels (self->heaps, heap, chain, depth, levels + first, cancellable, error))
    {
      tm_classify_chain_levels_clear (levels, first);
      return NULL;
    }
  return tm_class_tree_new_for_levels (heap, levels, depth + first, cancellable, error);
}

typedef struct {
  guint32             gc_id;
  TmClassifier        chain[TM_CLASSIFY_MAX_DEPTH];
  guint               depth;
  TmDocumentTreeFlags flags;
} TreeArgs;

static gpointer
tree_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
           GCancellable *cancellable, GError **error)
{
  TreeArgs *a = args;
  return tm_document_class_tree (self, a->gc_id, a->chain, a->depth, a->flags, progress, progress_data,
                                 cancellable, error);
}

void
tm_document_class_tree_async (TmDocument          *self,
                              guint32              gc_id,
                              const TmClassifier  *chain,
                              guint                depth,
                              TmDocumentTreeFlags  flags,
                              TmProgressFunc       progress,
                              gpointer             progress_data,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  TreeArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  g_return_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH);
  a = g_new0 (TreeArgs, 1);
  a->gc_id = gc_id;
  if (depth > 0)
    memcpy (a->chain, chain, depth * sizeof *chain);
  a->depth = depth;
  a->flags = flags;
  run_async (self, tm_document_class_tree_async, tree_work, a, g_free, (GDestroyNotify) tm_class_tree_unref,
             progress_for (progress, progress_data, cancellable), cancellable, callback, user_data);
}

TmClassTree *
tm_document_class_tree_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_class_tree_async, error);
}

/* ---- heap compare ---- */

/* One stage of a longer piece of work: reports progress over [from, to). */
typedef struct {
  TmProgressFunc func;
  gpointer       data;
  double         from, to;
} Stage;

static void
stage_progress (double fraction, gpointer data)
{
  Stage *s = data;
  s->func (s->from + fraction * (s->to - s->from), s->data);
}

TmHeapDiff *
tm_document_heap_diff (TmDocument           *self,
                       guint32               from_gc,
                       guint32               to_gc,
                       const TmClassifier   *chain,
                       guint                 depth,
                       TmDocumentTreeFlags   flags,
                       gboolean              all_metrics,
                       TmProgressFunc        progress,
                       gpointer              progress_data,
                       GCancellable         *cancellable,
                       GError              **error)
{
  g_autoptr(TmClassTree) before = NULL;
  g_autoptr(TmClassTree) after = NULL;
  g_autoptr(TmHeapDiff) diff = NULL;
  Stage stage = { progress, progress_data, 0, 0 };
  double share = all_metrics ? 0.25 : 0.5;

  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);

  stage.to = share;
  if ((before = tm_document_class_tree (self, from_gc, chain, depth, flags, progress ? stage_progress : NULL,
                                        &stage, cancellable, error)) == NULL)
    return NULL;
  stage.from = share;
  stage.to = 2 * share;
  if ((after = tm_document_class_tree (self, to_gc, chain, depth, flags, progress ? stage_progress : NULL,
                                       &stage, cancellable, error)) == NULL)
    return NULL;
  if ((diff = tm_heap_diff_new (before, after, cancellable, error)) == NULL)
    return NULL;
  stage.from = 2 * share;
  stage.to = 1;
  if (all_metrics && diff->has_graph
      && !tm_heap_diff_compute_all (diff, progress ? stage_progress : NULL, &stage, cancellable, error))
    return NULL;
  return g_steal_pointer (&diff);
}

typedef struct {
  TreeArgs tree;
  guint32  to_gc;
  gboolean all_metrics;
} DiffArgs;

static gpointer
diff_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
           GCancellable *cancellable, GError **error)
{
  DiffArgs *a = args;
  return tm_document_heap_diff (self, a->tree.gc_id, a->to_gc, a->tree.chain, a->tree.depth, a->tree.flags,
                                a->all_metrics, progress, progress_data, cancellable, error);
}

void
tm_document_heap_diff_async (TmDocument          *self,
                             guint32              from_gc,
                             guint32              to_gc,
                             const TmClassifier  *chain,
                             guint                depth,
                             TmDocumentTreeFlags  flags,
                             gboolean             all_metrics,
                             TmProgressFunc       progress,
                             gpointer             progress_data,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  DiffArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  g_return_if_fail (depth <= TM_CLASSIFY_MAX_DEPTH);
  a = g_new0 (DiffArgs, 1);
  a->tree.gc_id = from_gc;
  if (depth > 0)
    memcpy (a->tree.chain, chain, depth * sizeof *chain);
  a->tree.depth = depth;
  a->tree.flags = flags;
  a->to_gc = to_gc;
  a->all_metrics = all_metrics;
  run_async (self, tm_document_heap_diff_async, diff_work, a, g_free, (GDestroyNotify) tm_heap_diff_unref,
             progress_for (progress, progress_data, cancellable), cancellable, callback, user_data);
}

TmHeapDiff *
tm_document_heap_diff_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_heap_diff_async, error);
}

/* ---- deep and retained sizes of a tree ---- */

gboolean
tm_document_tree_metrics (TmDocument     *self,
                          TmClassTree    *tree,
                          TmProgressFunc  progress,
                          gpointer        progress_data,
                          GCancellable   *cancellable,
                          GError        **error)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (tree != NULL, FALSE);
  return tm_class_tree_compute_all (tree, progress, progress_data, cancellable, error);
}

static gpointer
metrics_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
              GCancellable *cancellable, GError **error)
{
  if (!tm_document_tree_metrics (self, args, progress, progress_data, cancellable, error))
    return NULL;
  return tm_class_tree_ref (args);
}

void
tm_document_tree_metrics_async (TmDocument          *self,
                                TmClassTree         *tree,
                                TmProgressFunc       progress,
                                gpointer             progress_data,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (TM_IS_DOCUMENT (self));
  g_return_if_fail (tree != NULL);
  run_async (self, tm_document_tree_metrics_async, metrics_work, tm_class_tree_ref (tree),
             (GDestroyNotify) tm_class_tree_unref, (GDestroyNotify) tm_class_tree_unref,
             progress_for (progress, progress_data, cancellable), cancellable, callback, user_data);
}

gboolean
tm_document_tree_metrics_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  TmClassTree *tree = finish (self, result, tm_document_tree_metrics_async, error);

  if (tree == NULL)
    return FALSE;
  tm_class_tree_unref (tree);
  return TRUE;
}

/* ---- path to roots ---- */

TmRootPath *
tm_document_path_to_root (TmDocument    *self,
                          guint32        gc_id,
                          guint32        object_index,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autoptr(TmHeapAnalysis) heap = NULL;
  const TmHeapGraph *graph;
  guint32 node;

  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);

  if ((heap = tm_heap_cache_get (self->heaps, gc_id, NULL, NULL, cancellable, error)) == NULL)
    return NULL;
  if ((graph = tm_heap_analysis_get_graph (heap)) == NULL)
    {
      g_autofree char *msg = tm_heap_analysis_no_graph_message (self->trace, gc_id);
      g_set_error (error, TM_ERROR, TM_ERROR_NO_GRAPH, "%s", msg);
      return NULL;
    }
  if (!tm_heap_graph_node_for_object (graph, object_index, &node))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT,
                   _("object %u is not alive after GC %u"), object_index, gc_id);
      return NULL;
    }
  return tm_root_path_new (heap, node, error);
}

TmRootPath *
tm_document_group_path_to_root (TmDocument    *self,
                                TmClassTree   *tree,
                                guint32        node,
                                GCancellable  *cancellable,
                                GError       **error)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (tree != NULL && node < tree->nodes->len, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return tm_root_path_new_for_group (tree, node, error);
}

typedef struct {
  TmClassTree *tree;
  guint32      node;
} GroupArgs;

static void
group_args_free (GroupArgs *a)
{
  tm_class_tree_unref (a->tree);
  g_free (a);
}

static gpointer
group_path_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
                 GCancellable *cancellable, GError **error)
{
  GroupArgs *a = args;
  return tm_document_group_path_to_root (self, a->tree, a->node, cancellable, error);
}

void
tm_document_group_path_to_root_async (TmDocument          *self,
                                      TmClassTree         *tree,
                                      guint32              node,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  GroupArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  g_return_if_fail (tree != NULL && node < tree->nodes->len);
  a = g_new0 (GroupArgs, 1);
  a->tree = tm_class_tree_ref (tree);
  a->node = node;
  run_async (self, tm_document_group_path_to_root_async, group_path_work, a, (GDestroyNotify) group_args_free,
             (GDestroyNotify) tm_root_path_free, NULL, cancellable, callback, user_data);
}

TmRootPath *
tm_document_group_path_to_root_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_group_path_to_root_async, error);
}

/* ---- TrendViz ---- */

TmTrend *
tm_document_trend (TmDocument            *self,
                   const TmTrendRequest  *request,
                   TmTrendPartialFunc     partial,
                   gpointer               partial_data,
                   GCancellable          *cancellable,
                   GError               **error)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return tm_trend_compute_cached (self->trace, request, self->heaps, partial, partial_data, cancellable, error);
}

typedef struct {
  TmTrendRequest  request;
  TmProgress     *partials;     /* NULL without a partial callback */
} TrendArgs;

static void
trend_args_free (TrendArgs *a)
{
  tm_trend_request_clear (&a->request);
  g_clear_pointer (&a->partials, tm_progress_unref);
  g_free (a);
}

/* Worker side: hands each snapshot to the main context (latest wins). */
static void
trend_offer_partial (TmTrend *partial, gpointer data)
{
  tm_progress_offer (data, tm_trend_ref (partial), (GDestroyNotify) tm_trend_unref);
}

static gpointer
trend_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
            GCancellable *cancellable, GError **error)
{
  TrendArgs *a = args;
  return tm_document_trend (self, &a->request, a->partials ? trend_offer_partial : NULL, a->partials,
                            cancellable, error);
}

void
tm_document_trend_async (TmDocument           *self,
                         const TmTrendRequest *request,
                         TmTrendPartialFunc    partial,
                         gpointer              partial_data,
                         GCancellable         *cancellable,
                         GAsyncReadyCallback   callback,
                         gpointer              user_data)
{
  TrendArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  g_return_if_fail (request != NULL);
  a = g_new0 (TrendArgs, 1);
  tm_trend_request_copy (&a->request, request);
  if (partial != NULL)
    a->partials = tm_progress_new (NULL, (TmProgressPayloadFunc) partial, partial_data, cancellable);
  /* as the work's progress, so no snapshot follows the result */
  run_async (self, tm_document_trend_async, trend_work, a, (GDestroyNotify) trend_args_free,
             (GDestroyNotify) tm_trend_unref, a->partials ? tm_progress_ref (a->partials) : NULL,
             cancellable, callback, user_data);
}

TmTrend *
tm_document_trend_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_trend_async, error);
}

/* ---- data structure growth ---- */

TmDsGrowth *
tm_document_ds_growth (TmDocument     *self,
                       guint32         from_gc,
                       guint32         to_gc,
                       TmProgressFunc  progress,
                       gpointer        progress_data,
                       GCancellable   *cancellable,
                       GError        **error)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return tm_ds_growth_new (self->heaps, from_gc, to_gc, progress, progress_data, cancellable, error);
}

static gpointer
growth_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
             GCancellable *cancellable, GError **error)
{
  const guint32 *gcs = args;
  return tm_document_ds_growth (self, gcs[0], gcs[1], progress, progress_data, cancellable, error);
}

void
tm_document_ds_growth_async (TmDocument          *self,
                             guint32              from_gc,
                             guint32              to_gc,
                             TmProgressFunc       progress,
                             gpointer             progress_data,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  guint32 *gcs;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  gcs = g_new (guint32, 2);
  gcs[0] = from_gc;
  gcs[1] = to_gc;
  run_async (self, tm_document_ds_growth_async, growth_work, gcs, g_free, (GDestroyNotify) tm_ds_growth_free,
             progress_for (progress, progress_data, cancellable), cancellable, callback, user_data);
}

TmDsGrowth *
tm_document_ds_growth_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_ds_growth_async, error);
}

/* ---- VM-level metrics ---- */

typedef struct {
  guint32      from_gc, to_gc;
  TmClassifier classifier;
} WindowArgs;

TmVmMetrics *
tm_document_vm_metrics (TmDocument *self, guint32 from_gc, guint32 to_gc, TmClassifier classifier,
                        GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return tm_vm_metrics_compute (self->trace, from_gc, to_gc, classifier, cancellable, error);
}

static gpointer
vm_metrics_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
                 GCancellable *cancellable, GError **error)
{
  const WindowArgs *a = args;
  return tm_document_vm_metrics (self, a->from_gc, a->to_gc, a->classifier, cancellable, error);
}

void
tm_document_vm_metrics_async (TmDocument *self, guint32 from_gc, guint32 to_gc, TmClassifier classifier,
                              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  WindowArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  a = g_new (WindowArgs, 1);
  *a = (WindowArgs) { from_gc, to_gc, classifier };
  run_async (self, tm_document_vm_metrics_async, vm_metrics_work, a, g_free, (GDestroyNotify) tm_vm_metrics_free,
             NULL, cancellable, callback, user_data);
}

TmVmMetrics *
tm_document_vm_metrics_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_vm_metrics_async, error);
}

/* ---- container leak confidence ---- */

TmContainerReport *
tm_document_containers (TmDocument *self, guint32 from_gc, guint32 to_gc, GCancellable *cancellable,
                        GError **error)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  return tm_containers_compute (self->heaps, from_gc, to_gc, cancellable, error);
}

static gpointer
containers_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
                 GCancellable *cancellable, GError **error)
{
  const WindowArgs *a = args;
  return tm_document_containers (self, a->from_gc, a->to_gc, cancellable, error);
}

void
tm_document_containers_async (TmDocument *self, guint32 from_gc, guint32 to_gc, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  WindowArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  a = g_new (WindowArgs, 1);
  *a = (WindowArgs) { from_gc, to_gc, TM_CLASSIFIER_TYPE };
  run_async (self, tm_document_containers_async, containers_work, a, g_free,
             (GDestroyNotify) tm_container_report_free, NULL, cancellable, callback, user_data);
}

TmContainerReport *
tm_document_containers_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_containers_async, error);
}

/* ---- GC advice ---- */

typedef struct {
  guint32         first_gc, last_gc;
  TmAdviceParams  params;
  char           *kb_path;
} AdviceArgs;

static void
advice_args_free (AdviceArgs *a)
{
  g_free (a->kb_path);
  g_free (a);
}

TmAdviceReport *
tm_document_advice (TmDocument *self, guint32 first_gc, guint32 last_gc, const TmAdviceParams *params,
                    const char *kb_path)
{
  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (params != NULL, NULL);
  return tm_advice_report_new (self->trace, first_gc, last_gc, params, kb_path);
}

static gpointer
advice_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
             GCancellable *cancellable, GError **error)
{
  const AdviceArgs *a = args;
  return tm_document_advice (self, a->first_gc, a->last_gc, &a->params, a->kb_path);
}

void
tm_document_advice_async (TmDocument *self, guint32 first_gc, guint32 last_gc, const TmAdviceParams *params,
                          const char *kb_path, GCancellable *cancellable, GAsyncReadyCallback callback,
                          gpointer user_data)
{
  AdviceArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL);
  a = g_new0 (AdviceArgs, 1);
  a->first_gc = first_gc;
  a->last_gc = last_gc;
  a->params = *params;
  a->kb_path = g_strdup (kb_path);
  run_async (self, tm_document_advice_async, advice_work, a, (GDestroyNotify) advice_args_free,
             (GDestroyNotify) tm_advice_report_free, NULL, cancellable, callback, user_data);
}

TmAdviceReport *
tm_document_advice_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_advice_async, error);
}

/* ---- allocations by call stack ---- */

TmCallData *
tm_document_call_data (TmDocument *self, guint from_gc, guint to_gc, GCancellable *cancellable, GError **error)
{
  TmCallData *data;
  gboolean whole = from_gc == 0 && to_gc == 0;

  g_return_val_if_fail (TM_IS_DOCUMENT (self), NULL);
  if (whole)
    {
      g_mutex_lock (&self->lock);
      data = self->calls_all ? tm_call_data_ref (self->calls_all) : NULL;
      g_mutex_unlock (&self->lock);
      if (data)
        return data;
    }
  /* computed outside the lock: two first askers may both compute it */
  data = tm_call_data_load (self->trace, from_gc, to_gc, cancellable, error);
  if (data && whole)
    {
      g_mutex_lock (&self->lock);
      if (self->calls_all == NULL)
        self->calls_all = tm_call_data_ref (data);
      g_mutex_unlock (&self->lock);
    }
  return data;
}

static gpointer
call_data_work (TmDocument *self, gpointer args, TmProgressFunc progress, gpointer progress_data,
                GCancellable *cancellable, GError **error)
{
  const WindowArgs *a = args;
  return tm_document_call_data (self, a->from_gc, a->to_gc, cancellable, error);
}

void
tm_document_call_data_async (TmDocument *self, guint from_gc, guint to_gc, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  WindowArgs *a;

  g_return_if_fail (TM_IS_DOCUMENT (self));
  a = g_new (WindowArgs, 1);
  *a = (WindowArgs) { from_gc, to_gc, TM_CLASSIFIER_TYPE };
  run_async (self, tm_document_call_data_async, call_data_work, a, g_free,
             (GDestroyNotify) tm_call_data_unref, NULL, cancellable, callback, user_data);
}

TmCallData *
tm_document_call_data_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_call_data_async, error);
}

/* ---- any other work ---- */

void
tm_document_run_async (TmDocument          *self,
                       TmDocumentWorkFunc   work,
                       gpointer             args,
                       GDestroyNotify       args_free,
                       GDestroyNotify       result_free,
                       TmProgressFunc       progress,
                       gpointer             progress_data,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_return_if_fail (TM_IS_DOCUMENT (self));
  g_return_if_fail (work != NULL);
  run_async (self, tm_document_run_async, work, args, args_free, result_free,
             progress_for (progress, progress_data, cancellable), cancellable, callback, user_data);
}

gpointer
tm_document_run_finish (TmDocument *self, GAsyncResult *result, GError **error)
{
  return finish (self, result, tm_document_run_async, error);
}
