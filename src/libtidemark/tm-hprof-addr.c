/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Object address -> object index for the HPROF parser.
 *
 * A JVM writes a heap dump by walking its heap, so addresses come in long
 * ascending runs (HotSpot: a few hundred short runs of class mirrors, then
 * one run of every other object).  A hash table paid a cache miss per
 * object for its insert; here an ascending run is only appended to, and
 * runs are kept sorted and merged like a merge sort's (sizes shrinking by
 * half or more up the stack, so any order costs O(n log n) at most).
 * Duplicates are caught as they come, with one cursor per earlier run
 * that moves forward with the current run.  Lookups after the dump is read
 * go through a per-run directory of address buckets.
 */
#include "tm-config.h"

#include <string.h>

#include "tm-hprof-private.h"

#define SMALL_RUNS   65536u   /* runs smaller than this together are merged */
#define DIR_MIN_LEN  1024u

/* First position in key[lo, hi) with key >= a. */
static inline gsize
lower_bound (const guint64 *key, gsize lo, gsize hi, guint64 a)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (key[mid] < a)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static inline guint32
run_index (const HprofAddrRun *r, gsize i)
{
  return r->idx != NULL ? r->idx[i] : r->first + (guint32) i;
}

static void
run_free (HprofAddrRun *r)
{
  g_free (r->key);
  g_free (r->idx);
  g_free (r->dir);
  memset (r, 0, sizeof *r);
}

/* Merges the top two runs of the stack into one. */
static void
merge_top (HprofAddrIndex *x)
{
  HprofAddrRun *a = &x->runs[x->n_runs - 2], *b = &x->runs[x->n_runs - 1];
  gsize n = a->len + b->len, i = 0, j = 0, k = 0;
  guint64 *key = g_new (guint64, n);
  guint32 *idx = g_new (guint32, n);

  while (i < a->len && j < b->len)
    {
      if (a->key[i] < b->key[j])
        {
          key[k] = a->key[i];
          idx[k++] = run_index (a, i++);
        }
      else
        {
          key[k] = b->key[j];
          idx[k++] = run_index (b, j++);
        }
    }
  for (; i < a->len; i++, k++)
    {
      key[k] = a->key[i];
      idx[k] = run_index (a, i);
    }
  for (; j < b->len; j++, k++)
    {
      key[k] = b->key[j];
      idx[k] = run_index (b, j);
    }
  run_free (a);
  run_free (b);
  a->key = key;
  a->idx = idx;
  a->len = n;
  x->n_runs--;
}

/* The current run joins the stack of sorted runs. */
static void
close_run (HprofAddrIndex *x, gboolean merge)
{
  HprofAddrRun *r;

  if (x->cur.len == 0)
    return;
  g_assert (x->n_runs < G_N_ELEMENTS (x->runs));
  r = &x->runs[x->n_runs++];
  memset (r, 0, sizeof *r);
  r->key = g_renew (guint64, x->cur.data, MAX (x->cur.len, 1));
  r->len = x->cur.len;
  r->first = x->cur_first;
  memset (&x->cur, 0, sizeof x->cur);
  x->cur_first = x->n;
  while (merge && x->n_runs >= 2)
    {
      gsize below = x->runs[x->n_runs - 2].len, top = x->runs[x->n_runs - 1].len;
      if (below > 2 * top && below + top >= SMALL_RUNS)
        break;
      merge_top (x);
    }
}

gboolean
hprof_addr_add (HprofAddrIndex *x, guint64 addr)
{
  if (x->offered && addr <= x->last)
    {
      /* a new run: the cursors start over where it starts */
      close_run (x, TRUE);
      for (guint i = 0; i < x->n_runs; i++)
        x->runs[i].cur = lower_bound (x->runs[i].key, 0, x->runs[i].len, addr);
    }
  /* the cursors move up to this address even if it is refused */
  x->offered = TRUE;
  x->last = addr;
  for (guint i = 0; i < x->n_runs; i++)
    {
      HprofAddrRun *r = &x->runs[i];
      if (r->cur < r->len && r->key[r->cur] < addr)
        {
          /* gallop: the run may lie far below in places */
          gsize step = 1, lo = r->cur + 1;
          while (lo + step < r->len && r->key[lo + step] < addr)
            {
              lo += step;
              step *= 2;
            }
          r->cur = lower_bound (r->key, lo, MIN (lo + step + 1, r->len), addr);
        }
      if (r->cur < r->len && r->key[r->cur] == addr)
        return FALSE;
    }
  tm_vec_u64_push (&x->cur, addr);
  x->n++;
  return TRUE;
}

static gboolean
run_find (const HprofAddrRun *r, guint64 addr, guint32 *index)
{
  gsize lo = 0, hi = r->len, i;

  if (r->len == 0 || addr < r->key[0] || addr > r->key[r->len - 1])
    return FALSE;
  if (r->dir != NULL)
    {
      guint64 b = (addr - r->key[0]) >> r->shift;
      lo = r->dir[b];
      hi = r->dir[b + 1];
    }
  i = lower_bound (r->key, lo, hi, addr);
  if (i >= r->len || r->key[i] != addr)
    return FALSE;
  *index = run_index (r, i);
  return TRUE;
}

gboolean
hprof_addr_find (const HprofAddrIndex *x, guint64 addr, guint32 *index)
{
  for (guint i = 0; i < x->n_runs; i++)
    if (run_find (&x->runs[i], addr, index))
      return TRUE;
  if (x->cur.len > 0 && addr >= x->cur.data[0] && addr <= x->cur.data[x->cur.len - 1])
    {
      gsize i = lower_bound (x->cur.data, 0, x->cur.len, addr);
      if (x->cur.data[i] == addr)
        {
          *index = x->cur_first + (guint32) i;
          return TRUE;
        }
    }
  return FALSE;
}

/* A directory of about len/2..len buckets of equal address span: a lookup
 * then searches one bucket instead of the whole run. */
static void
build_dir (HprofAddrRun *r)
{
  guint64 span = r->key[r->len - 1] - r->key[0];
  gsize nb = 1;
  guint shift = 0;

  while (nb < r->len / 2)
    nb *= 2;
  while (shift < 63 && (span >> shift) >= nb)
    shift++;
  nb = (gsize) (span >> shift) + 1;
  r->shift = shift;
  r->dir = g_new (guint32, nb + 1);
  for (gsize i = 0, b = 0; b <= nb; b++)
    {
      /* dir[b]: the first key in bucket b or later */
      while (i < r->len && ((r->key[i] - r->key[0]) >> shift) < b)
        i++;
      r->dir[b] = (guint32) i;
    }
}

void
hprof_addr_seal (HprofAddrIndex *x)
{
  close_run (x, FALSE);
  for (guint i = 0; i < x->n_runs; i++)
    if (x->runs[i].len >= DIR_MIN_LEN)
      build_dir (&x->runs[i]);
}

guint64
hprof_addr_bytes (const HprofAddrIndex *x)
{
  guint64 bytes = x->cur.cap * sizeof (guint64);

  for (guint i = 0; i < x->n_runs; i++)
    bytes += x->runs[i].len * (sizeof (guint64) + (x->runs[i].idx ? sizeof (guint32) : 0));
  return bytes;
}

void
hprof_addr_clear (HprofAddrIndex *x)
{
  for (guint i = 0; i < x->n_runs; i++)
    run_free (&x->runs[i]);
  tm_vec_u64_clear (&x->cur);
  memset (x, 0, sizeof *x);
}
