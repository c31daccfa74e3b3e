/* SPDX-License-Identifier: GPL-3.0-or-later
 * Coalesced progress from workers (see the header). */
#include "tm-progress.h"

struct _TmProgress {
  gint                   ref_count;
  TmProgressFunc         func;
  TmProgressPayloadFunc  payload_func;
  gpointer               user_data;
  GCancellable          *cancellable;
  GMainContext          *context;
  GMutex                 lock;
  double                 fraction;       /* latest, < 0 when none is pending */
  gpointer               payload;        /* latest offered, not delivered yet */
  GDestroyNotify         payload_free;
  gboolean               queued;
  gboolean               stopped;        /* main context only */
};

TmProgress *
tm_progress_new (TmProgressFunc         func,
                 TmProgressPayloadFunc  payload_func,
                 gpointer               user_data,
                 GCancellable          *cancellable)
{
  TmProgress *p = g_new0 (TmProgress, 1);

  p->ref_count = 1;
  p->func = func;
  p->payload_func = payload_func;
  p->user_data = user_data;
  p->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  p->context = g_main_context_ref_thread_default ();
  p->fraction = -1;
  g_mutex_init (&p->lock);
  return p;
}

TmProgress *
tm_progress_ref (TmProgress *progress)
{
  g_return_val_if_fail (progress != NULL, NULL);
  g_atomic_int_inc (&progress->ref_count);
  return progress;
}

void
tm_progress_unref (TmProgress *p)
{
  if (p == NULL || !g_atomic_int_dec_and_test (&p->ref_count))
    return;
  if (p->payload && p->payload_free)
    p->payload_free (p->payload);
  g_clear_object (&p->cancellable);
  g_main_context_unref (p->context);
  g_mutex_clear (&p->lock);
  g_free (p);
}

static gboolean
deliver_idle (gpointer data)
{
  TmProgress *p = data;
  double fraction;
  gpointer payload;
  GDestroyNotify payload_free;

  g_mutex_lock (&p->lock);
  fraction = p->fraction;
  payload = g_steal_pointer (&p->payload);
  payload_free = p->payload_free;
  p->fraction = -1;
  p->queued = FALSE;
  g_mutex_unlock (&p->lock);

  if (!p->stopped && !g_cancellable_is_cancelled (p->cancellable))
    {
      if (payload != NULL && p->payload_func != NULL)
        p->payload_func (payload, p->user_data);
      if (fraction >= 0 && p->func != NULL)
        p->func (fraction, p->user_data);
    }
  if (payload != NULL && payload_free != NULL)
    payload_free (payload);
  return G_SOURCE_REMOVE;
}

/* Lock held. */
static void
queue_locked (TmProgress *p)
{
  GSource *source;

  if (p->queued)
    return;
  p->queued = TRUE;
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_LOW);
  g_source_set_callback (source, deliver_idle, tm_progress_ref (p), (GDestroyNotify) tm_progress_unref);
  g_source_set_static_name (source, "[tidemark] progress");
  g_source_attach (source, p->context);
  g_source_unref (source);
}

void
tm_progress_update (double fraction, gpointer progress)
{
  TmProgress *p = progress;

  g_return_if_fail (p != NULL);
  g_mutex_lock (&p->lock);
  p->fraction = CLAMP (fraction, 0.0, 1.0);
  queue_locked (p);
  g_mutex_unlock (&p->lock);
}

void
tm_progress_stop (TmProgress *p)
{
  g_return_if_fail (p != NULL);
  p->stopped = TRUE;
}

void
tm_progress_offer (TmProgress *p, gpointer payload, GDestroyNotify payload_free)
{
  gpointer old;
  GDestroyNotify old_free;

  g_return_if_fail (p != NULL);
  g_mutex_lock (&p->lock);
  old = p->payload;
  old_free = p->payload_free;
  p->payload = payload;
  p->payload_free = payload_free;
  queue_locked (p);
  g_mutex_unlock (&p->lock);
  if (old != NULL && old_free != NULL)
    old_free (old);
}
