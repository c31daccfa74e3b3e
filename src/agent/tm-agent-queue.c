/* SPDX-License-Identifier: GPL-3.0-or-later
 * The event queue between allocating threads and the writer: chunks of
 * fixed-size events appended under queue_lock and taken by the writer
 * whole, so the allocating threads never encode or compress. */
#include "tm-agent.h"

TmAgentEvent *
tm_agent_queue_push_locked (void)
{
  TmAgent *a = &tm_agent;
  TmAgentChunk *c = a->q_tail;

  if (c == NULL || c->n == TM_AGENT_CHUNK_EVENTS)
    {
      c = g_malloc (sizeof *c);
      c->next = NULL;
      c->n = 0;
      c->pos = 0;
      if (a->q_tail != NULL)
        a->q_tail->next = c;
      else
        a->q_head = c;
      a->q_tail = c;
    }
  a->q_events++;
  return &c->ev[c->n++];
}

/* Queues a marker for every GC started since the last one queued.  The
 * marker orders the GC against allocations: an ALLOC queued before it was
 * allocated before the GC. */
void
tm_agent_queue_sync_gcs_locked (guint gc_started)
{
  TmAgent *a = &tm_agent;

  while (a->gcs_queued < gc_started)
    {
      TmAgentEvent *ev;
      a->gcs_queued++;
      a->gcs[a->gcs_queued % TM_AGENT_GC_RING].last_id = a->next_id;
      ev = tm_agent_queue_push_locked ();
      ev->kind = TM_EV_GC;
      ev->x = a->gcs_queued;
    }
}

TmAgentChunk *
tm_agent_queue_steal_locked (void)
{
  TmAgent *a = &tm_agent;
  TmAgentChunk *head = a->q_head;

  a->q_head = a->q_tail = NULL;
  a->q_events = 0;
  return head;
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
