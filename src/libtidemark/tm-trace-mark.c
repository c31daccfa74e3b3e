/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Depth-first marking of one reference graph.  Sources are found through
 * a dense object-index -> REFS-record map (4 bytes per object, reused
 * between graphs and cleared by touching only the entries set).
 */
#include "tm-config.h"

#include "tm-trace-mark.h"
#include "tm-heap-graph.h"

void
tm_trace_mark_run (TmTraceMark *job)
{
  guint32 *first = job->src_map;
  g_autofree guint32 *next = g_new (guint32, MAX (job->n_rec, 1));
  gsize sp = 0, stack_cap = MAX (job->n_roots, 1024);
  g_autofree guint32 *stack = g_new (guint32, stack_cap);
  guint64 *bits = g_new0 (guint64, job->n_objects / 64 + 1);
  guint64 reached = 0;

  /* a source listed twice: chain its records */
  for (guint32 r = job->n_rec; r-- > 0;)
    {
      next[r] = first[job->src[r]];
      first[job->src[r]] = r + 1;
    }
  for (guint i = 0; i < job->n_roots; i++)
    {
      guint32 o = job->roots[i];
      if (!tm_bitmap_get (bits, o))
        {
          tm_bitmap_set (bits, o);
          stack[sp++] = o;
        }
    }
  while (sp > 0)
    {
      guint32 o = stack[--sp];

      reached++;
      for (guint32 r1 = first[o]; r1 != 0; r1 = next[r1 - 1])
        {
          guint32 r = r1 - 1;
          guint64 e_end = r + 1 < job->n_rec ? job->start[r + 1] : job->n_dst;
          for (guint64 e = job->start[r]; e < e_end; e++)
            {
              guint32 d = job->dst[e];
              if (!tm_bitmap_get (bits, d))
                {
                  tm_bitmap_set (bits, d);
                  if (G_UNLIKELY (sp == stack_cap))
                    {
                      stack_cap *= 2;
                      stack = g_renew (guint32, stack, stack_cap);
                    }
                  stack[sp++] = d;
                }
            }
        }
    }
  for (guint32 r = 0; r < job->n_rec; r++)
    first[job->src[r]] = 0;
  job->bits = bits;
  job->reach_objects = reached;
}

static gpointer
mark_thread (gpointer data)
{
  tm_trace_mark_run (data);
  return NULL;
}

void
tm_trace_mark_start (TmTraceMark *job)
{
  job->thread = g_thread_try_new ("tm-trace-mark", mark_thread, job, NULL);
  if (job->thread == NULL)
    tm_trace_mark_run (job);
}

void
tm_trace_mark_join (TmTraceMark *job)
{
  if (job->thread != NULL)
    g_thread_join (g_steal_pointer (&job->thread));
}

#define CSR_CHECK_STEP (1u << 16)   /* nodes between cancel checks and progress */

guint64 *
tm_trace_mark_csr (guint32 n, const guint32 *off, const guint32 *dst, const guint32 *roots, guint n_roots,
                   GCancellable *cancellable, void (*progress) (double fraction, gpointer data),
                   gpointer progress_data, guint64 *reached, guint64 *dropped)
{
  guint64 *bits = g_new0 (guint64, n / 64 + 1);
  gsize sp = 0, stack_cap = MAX (n_roots, 1024);
  g_autofree guint32 *stack = g_new (guint32, stack_cap);
  guint64 count = 0, bad = 0;

  if (g_cancellable_is_cancelled (cancellable))
    {
      g_free (bits);
      return NULL;
    }
  for (guint i = 0; i < n_roots; i++)
    {
      guint32 o = roots[i];
      if (G_UNLIKELY (o >= n))
        bad++;
      else if (!tm_bitmap_get (bits, o))
        {
          tm_bitmap_set (bits, o);
          stack[sp++] = o;
        }
    }
  while (sp > 0)
    {
      guint32 o = stack[--sp];

      if (G_UNLIKELY (++count % CSR_CHECK_STEP == 0))
        {
          if (g_cancellable_is_cancelled (cancellable))
            {
              g_free (bits);
              return NULL;
            }
          if (progress != NULL)
            progress ((double) count / (double) n, progress_data);
        }
      for (guint32 e = off[o]; e < off[o + 1]; e++)
        {
          guint32 d = dst[e];
          if (G_UNLIKELY (d >= n))
            bad++;
          else if (!tm_bitmap_get (bits, d))
            {
              tm_bitmap_set (bits, d);
              if (G_UNLIKELY (sp == stack_cap))
                {
                  stack_cap *= 2;
                  stack = g_renew (guint32, stack, stack_cap);
                }
              stack[sp++] = d;
            }
        }
    }
  *reached = count;
  *dropped = bad;
  return bits;
}
