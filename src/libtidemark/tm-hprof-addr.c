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
 *
 * Keys take 4 bytes where they can: a run's addresses as multiples of 8
 * above its first (HotSpot aligns objects to 8 bytes; a run spanning
 * less than 32 GiB fits).  A run that breaks the rule is kept in 8.
 */
#include "tm-config.h"

#include <string.h>

#include "tm-hprof-private.h"

#define SMALL_RUNS   65536u   /* runs smaller than this together are merged */
#define DIR_MIN_LEN  1024u
#define DIR_PER      8u       /* keys per directory bucket, about: one cache line */

static inline guint64
key_at (const HprofAddrRun *r, gsize i)
{
  return r->k32 != NULL ? r->base + ((guint64) r->k32[i] << 3) : r->key[i];
}

/* First position in [lo, hi) with key >= a. */
static inline gsize
lower_bound (const HprofAddrRun *r, gsize lo, gsize hi, guint64 a)
{
  if (r->k32 != NULL)
    {
      guint64 d;
      guint32 a32;
      if (a <= r->base)
        return lo;
      d = (a - r->base + 7) >> 3;
      if (d > G_MAXUINT32)
        return hi;
      a32 = (guint32) d;
      while (lo < hi)
        {
          gsize mid = lo + (hi - lo) / 2;
          if (r->k32[mid] < a32)
            lo = mid + 1;
          else
            hi = mid;
        }
      return lo;
    }
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (r->key[mid] < a)
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
  g_free (r->k32);
  g_free (r->key);
  g_free (r->idx);
  g_free (r->dir);
  memset (r, 0, sizeof *r);
}

/* 8-byte keys into 4-byte ones if they fit (after a merge). */
static void
compact_run (HprofAddrRun *r)
{
  guint64 base;

  if (r->k32 != NULL || r->len == 0)
    return;
  base = r->key[0];
  if (((r->key[r->len - 1] - base) >> 3) > G_MAXUINT32)
    return;
  for (gsize i = 0; i < r->len; i++)
    if ((r->key[i] - base) & 7)
      return;
  r->k32 = g_new (guint32, r->len);
  for (gsize i = 0; i < r->len; i++)
    r->k32[i] = (guint32) ((r->key[i] - base) >> 3);
  r->base = base;
  g_clear_pointer (&r->key, g_free);
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
      guint64 ka = key_at (a, i), kb = key_at (b, j);
      if (ka < kb)
        {
          key[k] = ka;
          idx[k++] = run_index (a, i++);
        }
      else
        {
          key[k] = kb;
          idx[k++] = run_index (b, j++);
        }
    }
  for (; i < a->len; i++, k++)
    {
      key[k] = key_at (a, i);
      idx[k] = run_index (a, i);
    }
  for (; j < b->len; j++, k++)
    {
      key[k] = key_at (b, j);
      idx[k] = run_index (b, j);
    }
  run_free (a);
  run_free (b);
  a->key = key;
  a->idx = idx;
  a->len = n;
  compact_run (a);
  x->n_runs--;
}

static gsize
cur_len (const HprofAddrIndex *x)
{
  return x->cur_wide ? x->cur.len : x->cur32.len;
}

/* The current run joins the stack of sorted runs. */
static void
close_run (HprofAddrIndex *x, gboolean merge)
{
  HprofAddrRun *r;
  gsize len = cur_len (x);

  if (len == 0)
    return;
  g_assert (x->n_runs < G_N_ELEMENTS (x->runs));
  r = &x->runs[x->n_runs++];
  memset (r, 0, sizeof *r);
  if (x->cur_wide)
    r->key = g_renew (guint64, x->cur.data, len);
  else
    {
      r->k32 = g_renew (guint32, x->cur32.data, len);
      r->base = x->cur_base;
    }
  r->len = len;
  r->first = x->cur_first;
  memset (&x->cur, 0, sizeof x->cur);
  memset (&x->cur32, 0, sizeof x->cur32);
  x->cur_wide = FALSE;
  x->cur_first = x->n;
  while (merge && x->n_runs >= 2)
    {
      gsize below = x->runs[x->n_runs - 2].len, top = x->runs[x->n_runs - 1].len;
      if (below > 2 * top && below + top >= SMALL_RUNS)
        break;
      merge_top (x);
    }
}

/* Appends to the current run (addresses ascend in it). */
static void
cur_push (HprofAddrIndex *x, guint64 addr)
{
  guint64 d;

  if (x->cur_wide)
    {
      tm_vec_u64_push (&x->cur, addr);
      return;
    }
  if (x->cur32.len == 0)
    x->cur_base = addr;
  d = addr - x->cur_base;
  if (G_LIKELY ((d & 7) == 0 && (d >> 3) <= G_MAXUINT32))
    {
      tm_vec_u32_push (&x->cur32, (guint32) (d >> 3));
      return;
    }
  /* an address that does not fit: the run goes on in 8-byte keys */
  tm_vec_u64_reserve (&x->cur, x->cur32.len + 1);
  for (gsize i = 0; i < x->cur32.len; i++)
    x->cur.data[i] = x->cur_base + ((guint64) x->cur32.data[i] << 3);
  x->cur.len = x->cur32.len;
  tm_vec_u32_clear (&x->cur32);
  x->cur_wide = TRUE;
  tm_vec_u64_push (&x->cur, addr);
}

gboolean
hprof_addr_add (HprofAddrIndex *x, guint64 addr)
{
  if (x->offered && addr <= x->last)
    {
      /* a new run: the cursors start over where it starts */
      close_run (x, TRUE);
      for (guint i = 0; i < x->n_runs; i++)
        x->runs[i].cur = lower_bound (&x->runs[i], 0, x->runs[i].len, addr);
    }
  /* the cursors move up to this address even if it is refused */
  x->offered = TRUE;
  x->last = addr;
  for (guint i = 0; i < x->n_runs; i++)
    {
      HprofAddrRun *r = &x->runs[i];
      if (r->cur < r->len && key_at (r, r->cur) < addr)
        {
          /* gallop: the run may lie far below in places */
          gsize step = 1, lo = r->cur + 1;
          while (lo + step < r->len && key_at (r, lo + step) < addr)
            {
              lo += step;
              step *= 2;
            }
          r->cur = lower_bound (r, lo, MIN (lo + step + 1, r->len), addr);
        }
      if (r->cur < r->len && key_at (r, r->cur) == addr)
        return FALSE;
    }
  cur_push (x, addr);
  x->n++;
  return TRUE;
}

static gboolean
run_find (const HprofAddrRun *r, guint64 addr, guint32 *index)
{
  gsize lo = 0, hi = r->len, i;

  if (r->len == 0 || addr < key_at (r, 0) || addr > key_at (r, r->len - 1))
    return FALSE;
  if (r->dir != NULL)
    {
      guint64 b = (addr - key_at (r, 0)) >> r->shift;
      lo = r->dir[b];
      hi = r->dir[b + 1];
    }
  i = lower_bound (r, lo, hi, addr);
  if (i >= r->len || key_at (r, i) != addr)
    return FALSE;
  *index = run_index (r, i);
  return TRUE;
}

gboolean
hprof_addr_find (const HprofAddrIndex *x, guint64 addr, guint32 *index)
{
  HprofAddrRun cur = { 0 };

  if (x->sealed)
    {
      /* the largest run first: most addresses are there */
      for (guint i = 0; i < x->n_runs; i++)
        if (run_find (&x->runs[x->order[i]], addr, index))
          return TRUE;
      return FALSE;
    }
  for (guint i = 0; i < x->n_runs; i++)
    if (run_find (&x->runs[i], addr, index))
      return TRUE;
  /* the run being read, as a run */
  cur.k32 = x->cur_wide ? NULL : x->cur32.data;
  cur.key = x->cur_wide ? x->cur.data : NULL;
  cur.base = x->cur_base;
  cur.len = cur_len (x);
  cur.first = x->cur_first;
  return run_find (&cur, addr, index);
}

/* A directory of about len/DIR_PER buckets of equal address span: a
 * lookup then searches one bucket instead of the whole run. */
static void
build_dir (HprofAddrRun *r)
{
  guint64 k0 = key_at (r, 0), span = key_at (r, r->len - 1) - k0;
  gsize nb = 1;
  guint shift = 0;

  while (nb < r->len / DIR_PER)
    nb *= 2;
  while (shift < 63 && (span >> shift) >= nb)
    shift++;
  nb = (gsize) (span >> shift) + 1;
  r->shift = shift;
  r->dir = g_new (guint32, nb + 1);
  for (gsize i = 0, b = 0; b <= nb; b++)
    {
      /* dir[b]: the first key in bucket b or later */
      while (i < r->len && ((key_at (r, i) - k0) >> shift) < b)
        i++;
      r->dir[b] = (guint32) i;
    }
}

void
hprof_addr_seal (HprofAddrIndex *x)
{
  close_run (x, FALSE);
  for (guint i = 0; i < x->n_runs; i++)
    {
      guint k = i;
      if (x->runs[i].len >= DIR_MIN_LEN)
        build_dir (&x->runs[i]);
      /* insertion by size: a few dozen runs at most */
      for (; k > 0 && x->runs[x->order[k - 1]].len < x->runs[i].len; k--)
        x->order[k] = x->order[k - 1];
      x->order[k] = (guint8) i;
    }
  x->sealed = TRUE;
}

guint64
hprof_addr_bytes (const HprofAddrIndex *x)
{
  guint64 bytes = x->cur.cap * sizeof (guint64) + x->cur32.cap * sizeof (guint32);

  for (guint i = 0; i < x->n_runs; i++)
    bytes += x->runs[i].len * ((x->runs[i].k32 ? sizeof (guint32) : sizeof (guint64))
                               + (x->runs[i].idx ? sizeof (guint32) : 0));
  return bytes;
}

void
hprof_addr_clear (HprofAddrIndex *x)
{
  for (guint i = 0; i < x->n_runs; i++)
    run_free (&x->runs[i]);
  tm_vec_u64_clear (&x->cur);
  tm_vec_u32_clear (&x->cur32);
  memset (x, 0, sizeof *x);
}
