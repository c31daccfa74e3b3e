/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model's side of reading a dump (types, objects, threads into the
 * builder) on a thread of its own while the parser reads on: the
 * parser's sink calls become events that one consumer thread applies in
 * their order.  Calls that need an answer or the whole model (the memory
 * budget, the class hierarchy) first wait until every event before them
 * is applied, then run on the parser's thread while the consumer idles,
 * so the builder is never used by two threads at once.
 */
#include "tm-config.h"

#include "tm-hprof-private.h"

#define MAX_IN_FLIGHT 16      /* object batches queued: bounds the memory */

typedef enum { EV_TYPE, EV_OBJECTS, EV_THREAD, EV_SYNC, EV_STOP } EventKind;

typedef struct {
  EventKind kind;
  guint32   a, b;           /* TYPE: id, flags; OBJECTS: first, n; THREAD: serial */
  char     *name;
  guint32  *types;
  guint64  *sizes;
} Event;

struct _HprofPipe {
  const HprofSink *inner;
  gpointer         user;
  GAsyncQueue     *events;
  GAsyncQueue     *acks;
  GThread         *thread;     /* NULL: calls go through directly */
  gint             in_flight;  /* object batches not yet applied */
  gboolean         pending;    /* events pushed since the last sync */
};

static gpointer
consume (gpointer data)
{
  HprofPipe *pipe = data;

  for (;;)
    {
      Event *ev = g_async_queue_pop (pipe->events);
      switch (ev->kind)
        {
        case EV_TYPE:
          pipe->inner->type (pipe->user, ev->a, ev->name, ev->b);
          break;
        case EV_OBJECTS:
          pipe->inner->objects (pipe->user, ev->a, ev->b, g_steal_pointer (&ev->types), g_steal_pointer (&ev->sizes));
          (void) g_atomic_int_dec_and_test (&pipe->in_flight);
          break;
        case EV_THREAD:
          pipe->inner->thread (pipe->user, ev->a);
          break;
        case EV_SYNC:
          g_async_queue_push (pipe->acks, GINT_TO_POINTER (1));
          break;
        case EV_STOP:
          g_free (ev);
          return NULL;
        }
      g_free (ev->name);
      g_free (ev->types);
      g_free (ev->sizes);
      g_free (ev);
    }
}

static void
push (HprofPipe *pipe, Event *ev)
{
  pipe->pending = TRUE;
  g_async_queue_push (pipe->events, ev);
}

/* Returns once every event pushed so far is applied. */
static void
drain (HprofPipe *pipe)
{
  Event *ev;

  if (pipe->thread == NULL || !pipe->pending)
    return;
  ev = g_new0 (Event, 1);
  ev->kind = EV_SYNC;
  g_async_queue_push (pipe->events, ev);
  g_async_queue_pop (pipe->acks);
  pipe->pending = FALSE;
}

static void
pipe_type (gpointer user, guint32 type_id, const char *name, guint32 flags)
{
  HprofPipe *pipe = user;
  Event *ev;

  if (pipe->thread == NULL)
    {
      pipe->inner->type (pipe->user, type_id, name, flags);
      return;
    }
  ev = g_new0 (Event, 1);
  ev->kind = EV_TYPE;
  ev->a = type_id;
  ev->b = flags;
  ev->name = g_strdup (name);
  push (pipe, ev);
}

static void
pipe_objects (gpointer user, guint32 first, guint n, guint32 *type_ids, guint64 *sizes)
{
  HprofPipe *pipe = user;
  Event *ev;

  if (pipe->thread == NULL)
    {
      pipe->inner->objects (pipe->user, first, n, type_ids, sizes);
      return;
    }
  if (g_atomic_int_get (&pipe->in_flight) >= MAX_IN_FLIGHT)
    drain (pipe);
  ev = g_new0 (Event, 1);
  ev->kind = EV_OBJECTS;
  ev->a = first;
  ev->b = n;
  ev->types = type_ids;
  ev->sizes = sizes;
  g_atomic_int_inc (&pipe->in_flight);
  push (pipe, ev);
}

static void
pipe_thread (gpointer user, guint32 serial)
{
  HprofPipe *pipe = user;
  Event *ev;

  if (pipe->thread == NULL)
    {
      pipe->inner->thread (pipe->user, serial);
      return;
    }
  ev = g_new0 (Event, 1);
  ev->kind = EV_THREAD;
  ev->a = serial;
  push (pipe, ev);
}

static void
pipe_hierarchy (gpointer user, guint32 type_id, guint32 super_type_id)
{
  HprofPipe *pipe = user;

  drain (pipe);
  pipe->inner->hierarchy (pipe->user, type_id, super_type_id);
}

static gboolean
pipe_over_budget (gpointer user, guint64 parser_bytes, guint64 *used, guint64 *room)
{
  HprofPipe *pipe = user;

  drain (pipe);
  return pipe->inner->over_budget (pipe->user, parser_bytes, used, room);
}

static const HprofSink pipe_sink = { pipe_type, pipe_objects, pipe_thread, pipe_hierarchy, pipe_over_budget };

HprofPipe *
hprof_pipe_new (const HprofSink *inner, gpointer user)
{
  HprofPipe *pipe = g_new0 (HprofPipe, 1);

  pipe->inner = inner;
  pipe->user = user;
  pipe->events = g_async_queue_new ();
  pipe->acks = g_async_queue_new ();
  /* no thread: the same calls, made directly */
  pipe->thread = g_thread_try_new ("tm-hprof-model", consume, pipe, NULL);
  return pipe;
}

const HprofSink *
hprof_pipe_sink (void)
{
  return &pipe_sink;
}

void
hprof_pipe_free (HprofPipe *pipe)
{
  if (pipe->thread != NULL)
    {
      Event *ev = g_new0 (Event, 1);
      ev->kind = EV_STOP;
      g_async_queue_push (pipe->events, ev);
      g_thread_join (pipe->thread);
    }
  g_async_queue_unref (pipe->events);
  g_async_queue_unref (pipe->acks);
  g_free (pipe);
}
