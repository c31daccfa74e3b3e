/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Chunks of 64-bit words from the thread that parses a dump to the one
 * that applies what it found (tm-hprof-parse.c): a fixed pool of chunks
 * goes round through two queues, so the memory in flight is bounded and
 * nothing is allocated per chunk.  The consumer applies chunks in the
 * order they were sent; the queues are the only shared state.
 */
#include "tm-config.h"

#include "tm-hprof-private.h"

#define POOL 8               /* chunks in flight at most */

struct _HprofStream {
  GAsyncQueue     *full;     /* HprofChunk* to apply, in order; the stream itself ends */
  GAsyncQueue     *empty;    /* HprofChunk* applied, for reuse */
  GAsyncQueue     *replies;  /* answers to the writer (hprof_stream_reply) */
  GThread         *thread;
  HprofStreamApply apply;
  gpointer         user;
};

static gpointer
consume (gpointer data)
{
  HprofStream *s = data;

  for (;;)
    {
      gpointer item = g_async_queue_pop (s->full);
      HprofChunk *c = item;

      if (item == (gpointer) s)
        return NULL;
      s->apply (s->user, c->w, c->len);
      c->len = 0;
      g_async_queue_push (s->empty, c);
    }
}

HprofStream *
hprof_stream_new (HprofStreamApply apply, gpointer user)
{
  HprofStream *s = g_new0 (HprofStream, 1);

  s->full = g_async_queue_new ();
  s->empty = g_async_queue_new ();
  s->replies = g_async_queue_new ();
  s->apply = apply;
  s->user = user;
  for (guint i = 0; i < POOL; i++)
    g_async_queue_push (s->empty, g_malloc (sizeof (HprofChunk) + HPROF_CHUNK_WORDS * sizeof (guint64)));
  s->thread = g_thread_try_new ("tm-hprof-apply", consume, s, NULL);
  if (s->thread == NULL)
    {
      hprof_stream_free (s, NULL);
      return NULL;
    }
  return s;
}

HprofChunk *
hprof_stream_send (HprofStream *s, HprofChunk *c)
{
  if (c != NULL)
    {
      if (c->len == 0)
        return c;
      g_async_queue_push (s->full, c);
    }
  c = g_async_queue_pop (s->empty);
  c->len = 0;
  return c;
}

void
hprof_stream_reply (HprofStream *s, gboolean answer)
{
  g_async_queue_push (s->replies, GINT_TO_POINTER (answer ? 2 : 1));
}

gboolean
hprof_stream_wait (HprofStream *s)
{
  return GPOINTER_TO_INT (g_async_queue_pop (s->replies)) == 2;
}

void
hprof_stream_free (HprofStream *s, HprofChunk *current)
{
  gpointer c;

  if (s == NULL)
    return;
  if (current != NULL && current->len > 0)
    g_async_queue_push (s->full, current);
  else if (current != NULL)
    g_async_queue_push (s->empty, current);
  if (s->thread != NULL)
    {
      /* every chunk sent is applied before the thread ends */
      g_async_queue_push (s->full, s);
      g_thread_join (s->thread);
    }
  while ((c = g_async_queue_try_pop (s->empty)) != NULL)
    g_free (c);
  g_async_queue_unref (s->full);
  g_async_queue_unref (s->empty);
  g_async_queue_unref (s->replies);
  g_free (s);
}
