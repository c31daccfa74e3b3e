/* SPDX-License-Identifier: GPL-3.0-or-later
 * Between the recording threads and the writer.  ALLOCs, the bulk, go to
 * a buffer per allocating thread, so threads never wait for each other;
 * definitions and the rarer events go to one queue under queue_lock.  The
 * writer merges both into stream order: ALLOCs by object id, each queued
 * event right after the last ALLOC whose id was given out before it was
 * queued, and each GC's marker right after the last id given out before
 * the GC started.  Nobody but the writer encodes or compresses. */
#include "tm-agent.h"

#include <string.h>

static TmAgentEvent *
chunk_push (TmAgentChunk **head, TmAgentChunk **tail)
{
  TmAgentChunk *c = *tail;

  if (c == NULL || c->n == TM_AGENT_CHUNK_EVENTS)
    {
      c = g_malloc (sizeof *c);
      c->next = NULL;
      c->n = 0;
      c->pos = 0;
      if (*tail != NULL)
        (*tail)->next = c;
      else
        *head = c;
      *tail = c;
    }
  return &c->ev[c->n++];
}

TmAgentEvent *
tm_agent_queue_push_locked (void)
{
  TmAgent *a = &tm_agent;
  TmAgentEvent *ev = chunk_push (&a->q_head, &a->q_tail);
  guint gcs = (guint) g_atomic_int_get (&a->gc_started);

  /* the GC count first: a GC counted here started before the id read
   * next was given out (see tm_agent_on_gc_start) */
  a->q_events++;
  ev->gcn = MAX (gcs, a->q_gcn_floor);
  ev->seq = a->q_first ? 0 : __atomic_load_n (&a->next_id, __ATOMIC_ACQUIRE);
  return ev;
}

/* The caller saw gc_started GCs started before what it queues next (it
 * read the count before waiting for the lock). */
void
tm_agent_queue_sync_gcs_locked (guint gc_started)
{
  TmAgent *a = &tm_agent;
  a->q_gcn_floor = MAX (a->q_gcn_floor, gc_started);
}

TmAgentAlloc *
tm_agent_thread_push_locked (TmAgentThread *t)
{
  TmAgentAllocBlock *b = t->buf_tail;

  if (b == NULL || b->n == TM_AGENT_BLOCK_ALLOCS)
    {
      b = g_malloc (sizeof *b);
      b->next = NULL;
      b->n = 0;
      if (t->buf_tail != NULL)
        t->buf_tail->next = b;
      else
        t->buf_head = b;
      t->buf_tail = b;
    }
  return &b->a[b->n++];
}

void
tm_agent_event_clear (TmAgentEvent *ev)
{
  switch (ev->kind)
    {
    case TM_EV_TYPE:
      g_free (ev->u.type->name);
      g_free (ev->u.type);
      break;
    case TM_EV_THREAD:
    case TM_EV_FRAME:
    case TM_EV_OOM:
    case TM_EV_TX:
      g_free (ev->u.str);
      break;
    case TM_EV_SITE:
      g_free (ev->u.frames);
      break;
    default:
      break;
    }
  ev->kind = 0;
}

/* ---- the writer's merge ---- */

static guint64
gc_last_id (guint n)
{
  volatile guint64 *p = &tm_agent.gcs[n % TM_AGENT_GC_RING].last_id;
  guint64 v;

  /* the start callback is between counting the GC and reading the id */
  while ((v = __atomic_load_n (p, __ATOMIC_ACQUIRE)) == G_MAXUINT64)
    g_usleep (10);
  return v;
}

/* Moves the GC markers and queued events that belong at or before
 * position pos (after the ALLOC with that id) to the output, in order. */
static void
emit_upto (guint64 pos, guint started)
{
  TmAgent *a = &tm_agent;

  for (;;)
    {
      guint m = a->w_gcs_merged + 1;
      guint64 m_pos = m <= started ? gc_last_id (m) : G_MAXUINT64;
      TmAgentChunk *c = a->p_head;
      TmAgentEvent *e = NULL;
      gboolean marker;

      while (c != NULL && c->pos == c->n)
        {
          a->p_head = c->next;
          if (a->p_head == NULL)
            a->p_tail = NULL;
          g_free (c);
          c = a->p_head;
        }
      if (c != NULL && c->ev[c->pos].seq <= pos)
        e = &c->ev[c->pos];
      if (m_pos > pos && e == NULL)
        return;
      /* at the same position the event's GC count decides */
      marker = m_pos <= pos && (e == NULL || m_pos < e->seq || (m_pos == e->seq && m <= e->gcn));
      if (marker)
        {
          TmAgentEvent *out = chunk_push (&a->w_head, &a->w_tail);
          memset (out, 0, sizeof *out);
          out->kind = TM_EV_GC;
          out->x = m;
          a->w_gcs_merged = m;
        }
      else
        {
          *chunk_push (&a->w_head, &a->w_tail) = *e;   /* takes its strings */
          c->pos++;
        }
    }
}

static void
emit_alloc (const TmAgentAlloc *al)
{
  TmAgentEvent *ev = chunk_push (&tm_agent.w_head, &tm_agent.w_tail);

  ev->kind = TM_EV_ALLOC;
  ev->id = al->id;
  ev->x = al->type;
  ev->site = al->site;
  ev->thread = al->thread;
  ev->size = al->size;
  ev->u.length = al->length;
}

static void
place (TmAgentAlloc *slots, guint64 base, guint64 watermark, GArray *carry, const TmAgentAlloc *al)
{
  if (al->id > watermark)
    g_array_append_vals (carry, al, 1);
  else if (al->id > base)
    slots[al->id - base - 1] = *al;
}

static void
thread_free (TmAgentThread *t)
{
  pthread_mutex_destroy (&t->buf_lock);
  if (t->tx_ids != NULL)
    g_array_unref (t->tx_ids);
  g_free (t);
}

void
tm_agent_queue_merge (void)
{
  TmAgent *a = &tm_agent;
  guint64 watermark, base = a->w_merged_id;
  guint started;
  TmAgentAllocBlock *blocks = NULL;
  TmAgentChunk *taken;
  g_autoptr(GArray) carry = g_array_new (FALSE, FALSE, sizeof (TmAgentAlloc));
  TmAgentAlloc *slots;

  /* Every id up to the watermark is in a buffer taken below: its thread
   * held its buf_lock from taking the id to the append.  The GC count is
   * read after it, so a GC not counted here started after the watermark
   * and its marker belongs after it. */
  watermark = __atomic_load_n (&a->next_id, __ATOMIC_ACQUIRE);
  started = (guint) g_atomic_int_get (&a->gc_started);
  for (TmAgentThread *t = __atomic_load_n (&a->threads, __ATOMIC_ACQUIRE), *prev = NULL, *next; t != NULL; t = next)
    {
      TmAgentAllocBlock *head, *tail;
      /* read before its buffer is taken: an ended thread appended its
       * last record before it said so */
      gboolean ended = g_atomic_int_get (&t->ended);

      next = t->registered_next;
      /* always under the lock: an empty buffer may belong to a thread
       * between taking an id and appending its record */
      pthread_mutex_lock (&t->buf_lock);
      head = t->buf_head;
      tail = t->buf_tail;
      t->buf_head = t->buf_tail = NULL;
      pthread_mutex_unlock (&t->buf_lock);
      if (tail != NULL)
        {
          tail->next = blocks;
          blocks = head;
        }
      /* Only the writer unlinks; new threads only replace the list head,
       * so the head itself waits until it no longer is one. */
      if (ended && prev != NULL)
        {
          prev->registered_next = next;
          thread_free (t);
          g_atomic_int_dec_and_test (&a->n_threads_registered);
        }
      else
        prev = t;
    }
  /* after the buffers: definitions their ALLOCs use are queued already */
  pthread_mutex_lock (&a->queue_lock);
  taken = a->q_head;
  a->q_head = a->q_tail = NULL;
  a->q_events = 0;
  pthread_mutex_unlock (&a->queue_lock);
  if (taken != NULL)
    {
      TmAgentChunk *last = taken;
      while (last->next != NULL)
        last = last->next;
      if (a->p_tail != NULL)
        a->p_tail->next = taken;
      else
        a->p_head = taken;
      a->p_tail = last;
    }

  /* ids are dense: each ALLOC has its slot (an id whose SetTag failed
   * leaves a hole) */
  slots = watermark > base ? g_new0 (TmAgentAlloc, watermark - base) : NULL;
  if (a->w_carry != NULL)
    for (guint i = 0; i < a->w_carry->len; i++)
      place (slots, base, watermark, carry, &g_array_index (a->w_carry, TmAgentAlloc, i));
  while (blocks != NULL)
    {
      TmAgentAllocBlock *b = blocks;
      for (guint i = 0; i < b->n; i++)
        place (slots, base, watermark, carry, &b->a[i]);
      blocks = b->next;
      g_free (b);
    }
  if (a->w_carry != NULL)
    g_array_unref (a->w_carry);
  a->w_carry = g_steal_pointer (&carry);

  emit_upto (base, started);
  for (guint64 id = base + 1; id <= watermark; id++)
    {
      if (slots[id - base - 1].id != 0)
        emit_alloc (&slots[id - base - 1]);
      emit_upto (id, started);
    }
  g_free (slots);
  if (watermark > base)
    a->w_merged_id = watermark;
}
