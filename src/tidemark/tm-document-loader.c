/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tm-config.h"
#include "tm-document-loader.h"
#include "tm-trace-loader.h"
#include "tm-settings.h"

#include <glib/gi18n.h>

struct _TmDocumentLoader
{
  GObject        parent_instance;
  GFile         *file;
  GMainContext  *context;

  /* Written by the worker, read by the idle; guarded by mutex. */
  GMutex         mutex;
  double         pending_fraction;
  gboolean       idle_queued;

  double         fraction;      /* main thread only */
};

G_DEFINE_FINAL_TYPE (TmDocumentLoader, tm_document_loader, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FILE,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct {
  TmTrace         *trace;
  TmTimelineModel *model;
} LoadResult;

static void
load_result_free (LoadResult *r)
{
  g_clear_pointer (&r->trace, tm_trace_unref);
  g_clear_pointer (&r->model, tm_timeline_model_unref);
  g_free (r);
}

static void
tm_document_loader_finalize (GObject *object)
{
  TmDocumentLoader *self = TM_DOCUMENT_LOADER (object);

  g_clear_object (&self->file);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->mutex);
  G_OBJECT_CLASS (tm_document_loader_parent_class)->finalize (object);
}

static void
tm_document_loader_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TmDocumentLoader *self = TM_DOCUMENT_LOADER (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_document_loader_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TmDocumentLoader *self = TM_DOCUMENT_LOADER (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_document_loader_class_init (TmDocumentLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_document_loader_finalize;
  object_class->get_property = tm_document_loader_get_property;
  object_class->set_property = tm_document_loader_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_document_loader_init (TmDocumentLoader *self)
{
  g_mutex_init (&self->mutex);
  self->context = g_main_context_ref_thread_default ();
}

TmDocumentLoader *
tm_document_loader_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  return g_object_new (TM_TYPE_DOCUMENT_LOADER, "file", file, NULL);
}

GFile *
tm_document_loader_get_file (TmDocumentLoader *self)
{
  g_return_val_if_fail (TM_IS_DOCUMENT_LOADER (self), NULL);
  return self->file;
}

double
tm_document_loader_get_fraction (TmDocumentLoader *self)
{
  g_return_val_if_fail (TM_IS_DOCUMENT_LOADER (self), 0);
  return self->fraction;
}

static gboolean
notify_fraction_idle (gpointer data)
{
  TmDocumentLoader *self = data;
  double fraction;

  g_mutex_lock (&self->mutex);
  fraction = self->pending_fraction;
  self->idle_queued = FALSE;
  g_mutex_unlock (&self->mutex);

  if (fraction != self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
  return G_SOURCE_REMOVE;
}

/* Called on the worker, possibly very often: at most one idle is queued
 * at any time, and it reads the latest value when it runs. */
static void
progress_cb (double fraction, gpointer data)
{
  TmDocumentLoader *self = data;
  gboolean queue;

  g_mutex_lock (&self->mutex);
  self->pending_fraction = CLAMP (fraction, 0.0, 1.0);
  queue = !self->idle_queued;
  self->idle_queued = TRUE;
  g_mutex_unlock (&self->mutex);

  if (queue)
    {
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_LOW);
      g_source_set_callback (source, notify_fraction_idle, g_object_ref (self), g_object_unref);
      g_source_set_static_name (source, "[tidemark] loader progress");
      g_source_attach (source, self->context);
      g_source_unref (source);
    }
}

static void
load_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  TmDocumentLoader *self = source_object;
  g_autofree char *path = g_file_get_path (self->file);
  g_autoptr(GError) error = NULL;
  LoadResult *r;
  TmTrace *trace;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (self->file);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("%s: only local files can be opened"), uri);
      return;
    }

  trace = tm_trace_load_full (path, task_data, progress_cb, self, cancellable, &error);
  if (trace == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  r = g_new0 (LoadResult, 1);
  r->trace = trace;
  r->model = tm_timeline_model_new (trace);
  g_task_return_pointer (task, r, (GDestroyNotify) load_result_free);
}

void
tm_document_loader_load_async (TmDocumentLoader    *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  TmLoadOptions *options;

  g_return_if_fail (TM_IS_DOCUMENT_LOADER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tm_document_loader_load_async);
  /* read here: the worker does not touch GSettings */
  options = g_new0 (TmLoadOptions, 1);
  tm_settings_load_options (tm_settings_get (), options);
  g_task_set_task_data (task, options, g_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, load_thread);
}

TmTrace *
tm_document_loader_load_finish (TmDocumentLoader  *self,
                                GAsyncResult      *result,
                                TmTimelineModel  **model,
                                GError           **error)
{
  LoadResult *r;
  TmTrace *trace;

  g_return_val_if_fail (TM_IS_DOCUMENT_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  if ((r = g_task_propagate_pointer (G_TASK (result), error)) == NULL)
    return NULL;
  trace = g_steal_pointer (&r->trace);
  if (model)
    *model = g_steal_pointer (&r->model);
  load_result_free (r);
  return trace;
}

/* ------------------------------------------------------------------ */

typedef struct {
  TmTrace        *trace;
  TmWindowParams  params;
} DetectData;

static void
detect_data_free (DetectData *d)
{
  tm_trace_unref (d->trace);
  g_free (d);
}

static void
detect_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  DetectData *d = task_data;
  GPtrArray *windows = tm_windows_detect (d->trace, &d->params, FALSE);

  if (windows == NULL)
    windows = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_window_free);
  g_task_return_pointer (task, windows, (GDestroyNotify) g_ptr_array_unref);
}

void
tm_detect_windows_async (TmTrace              *trace,
                         const TmWindowParams *params,
                         GCancellable         *cancellable,
                         GAsyncReadyCallback   callback,
                         gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  DetectData *d;

  g_return_if_fail (trace != NULL && params != NULL);

  d = g_new0 (DetectData, 1);
  d->trace = tm_trace_ref (trace);
  d->params = *params;
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tm_detect_windows_async);
  g_task_set_task_data (task, d, (GDestroyNotify) detect_data_free);
  g_task_run_in_thread (task, detect_thread);
}

GPtrArray *
tm_detect_windows_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
