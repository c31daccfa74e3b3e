/* SPDX-License-Identifier: GPL-3.0-or-later
 * The writer side: takes the merged events, writes them in order through
 * TmTraceWriter, puts each GC (and its graph) where its marker is, and
 * places deaths per the format's rule (DEATHS n after GC_END n, before
 * GC_START n+1). */
#include "tm-agent.h"

#include <string.h>

gboolean
tm_agent_is_dead (guint64 id)
{
  TmAgent *a = &tm_agent;
  return (id >> 3) < a->w_dead_len && (a->w_dead[id >> 3] & (1u << (id & 7))) != 0;
}

void
tm_agent_mark_dead (guint64 id)
{
  TmAgent *a = &tm_agent;
  gsize byte = id >> 3;

  if (byte >= a->w_dead_len)
    {
      gsize len = MAX (byte + 1, a->w_dead_len * 2);
      len = MAX (len, 4096);
      a->w_dead = g_realloc (a->w_dead, len);
      memset (a->w_dead + a->w_dead_len, 0, len - a->w_dead_len);
      a->w_dead_len = len;
    }
  a->w_dead[byte] |= (guint8) (1u << (id & 7));
}

/* Writes the pending deaths posted for GCs up to gc_id as DEATHS gc_id
 * (the latest GC whose GC_START n+1 is not written yet). */
void
tm_agent_write_deaths_upto (guint gc_id, gboolean all)
{
  TmAgent *a = &tm_agent;
  g_autoptr(GArray) ids = NULL;
  GArray *pending;
  guint keep = 0;

  if (gc_id == 0)
    return;
  pthread_mutex_lock (&a->death_lock);
  pending = a->deaths;
  if (pending->len == 0)
    {
      pthread_mutex_unlock (&a->death_lock);
      return;
    }
  a->deaths = g_array_new (FALSE, FALSE, sizeof (TmAgentDeath));
  pthread_mutex_unlock (&a->death_lock);

  ids = g_array_sized_new (FALSE, FALSE, sizeof (guint64), pending->len);
  for (guint i = 0; i < pending->len; i++)
    {
      TmAgentDeath *d = &g_array_index (pending, TmAgentDeath, i);
      if ((all || d->gc <= gc_id) && d->id <= a->w_last_id)
        {
          /* a free posted after the final graph declared it dead */
          if (tm_agent_is_dead (d->id))
            continue;
          g_array_append_val (ids, d->id);
          if (d->gc < gc_id)
            a->w_late_deaths++;
          tm_agent_mark_dead (d->id);
        }
      else
        g_array_index (pending, TmAgentDeath, keep++) = *d;
    }
  g_array_set_size (pending, keep);
  if (keep > 0)
    {
      /* put the rest back in front of what arrived meanwhile */
      pthread_mutex_lock (&a->death_lock);
      g_array_append_vals (pending, a->deaths->data, a->deaths->len);
      g_array_unref (a->deaths);
      a->deaths = pending;
      pthread_mutex_unlock (&a->death_lock);
    }
  else
    g_array_unref (pending);

  if (ids->len > 0)
    {
      tm_trace_writer_deaths (a->writer, gc_id, (const guint64 *) (void *) ids->data, ids->len);
      a->w_deaths += ids->len;
    }
}

static void
write_event (const TmAgentEvent *ev)
{
  TmAgent *a = &tm_agent;

  switch (ev->kind)
    {
    case TM_EV_ALLOC:
      /* ids never given an ALLOC must not be declared dead at the end */
      for (guint64 gap = a->w_last_id + 1; gap < ev->id; gap++)
        tm_agent_mark_dead (gap);
      tm_trace_writer_alloc (a->writer, ev->id, ev->x, ev->site, ev->thread, ev->size, 0, ev->u.length);
      __atomic_store_n (&a->w_last_id, ev->id, __ATOMIC_RELAXED);
      a->w_allocs++;
      break;
    case TM_EV_TYPE:
      tm_trace_writer_type_full (a->writer, ev->id, ev->u.type->name, ev->x, ev->u.type->super,
                                 ev->u.type->n_interfaces, ev->u.type->interfaces);
      break;
    case TM_EV_FRAME:
      tm_trace_writer_frame (a->writer, ev->id, ev->u.str, ev->u.str + strlen (ev->u.str) + 1, (gint64) ev->x - 1);
      break;
    case TM_EV_SITE:
      tm_trace_writer_site (a->writer, ev->id, ev->x, ev->u.frames);
      break;
    case TM_EV_THREAD:
      tm_trace_writer_thread (a->writer, ev->id, ev->u.str);
      break;
    case TM_EV_OOM:
      tm_trace_writer_oom (a->writer, ev->id, ev->site, ev->thread, ev->x, ev->u.str);
      break;
    case TM_EV_TX:
      tm_agent_tx_write (a->writer, ev);
      break;
    case TM_EV_COP:
      tm_trace_writer_container_op (a->writer, ev->x, ev->u.length, ev->id, ev->size, ev->site, ev->thread);
      break;
    default:
      break;
    }
}

void
tm_agent_pump (JNIEnv *jni, gboolean final)
{
  TmAgent *a = &tm_agent;
  gint64 t0 = tm_agent_now_ns ();
  guint started = (guint) g_atomic_int_get (&a->gc_started);
  guint finished = (guint) g_atomic_int_get (&a->gc_finished);

  tm_agent_queue_merge ();
  tm_agent_graph_gate_serve ();
  tm_agent_gc_match (jni, finished);

  while (a->w_head != NULL)
    {
      TmAgentChunk *c = a->w_head;
      while (c->pos < c->n)
        {
          TmAgentEvent *ev = &c->ev[c->pos];
          if (ev->kind == TM_EV_GC)
            {
              guint n = ev->x;
              if (!tm_agent_gc_ready (n, final))
                goto out;
              tm_agent_write_deaths_upto (n - 1, FALSE);
              tm_agent_gc_write (jni, n);
              a->w_gcs_written = n;
            }
          else
            write_event (ev);
          tm_agent_event_clear (ev);
          c->pos++;
        }
      /* chunks taken from the queue are the writer's alone */
      a->w_head = c->next;
      if (a->w_head == NULL)
        a->w_tail = NULL;
      g_free (c);
    }
out:
  tm_agent_write_deaths_upto (a->w_gcs_written, FALSE);
  /* everything that happened before t0 is written: a TICK at t0 keeps the
   * stream's times monotonic */
  if (a->w_head == NULL && a->w_gcs_written == started)
    a->w_safe_tick = t0;
}

void
tm_agent_write_status (void)
{
  TmAgent *a = &tm_agent;
  g_autofree char *text = NULL;
  g_autofree char *tmp = NULL;

  if (a->opts.status == NULL)
    return;
  text = g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
                          tm_agent_now_ns () / 1000000, a->w_allocs, a->w_gcs_written,
                          a->writer ? tm_trace_writer_file_bytes (a->writer) : 0, a->dropped);
  g_file_set_contents (a->opts.status, text, -1, NULL);
}
