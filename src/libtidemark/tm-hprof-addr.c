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
 * A long run whose objects lie close together (HotSpot's heap walk: side
 * by side) is kept as a bitmap of 8-byte granules instead (HprofAddrDense):
 * about half a byte per object, duplicates and lookups a bit test.
 * Other runs keep keys, 4 bytes where they can: a run's addresses as
 * multiples of 8 above its first (HotSpot aligns objects to 8 bytes; a
 * run spanning less than 32 GiB fits).  A run that breaks the rule is
 * kept in 8.
 */
#include "tm-config.h"

#include <string.h>

#include "tm-hprof-private.h"
#include "tm-trace-private.h"
#include "tm-checked.h"

#define SMALL_RUNS   65536u   /* runs smaller than this together are merged */
#define DIR_MIN_LEN  1024u
#define DIR_PER      8u       /* keys per directory bucket, about: one cache line */
#define DENSE_MIN    4096u    /* shorter bitmap runs become sorted runs */
#define DENSE_SLACK  65536u   /* words a bitmap may have beyond a third of its objects */

/* ---- dense runs (lookups: hprof_dense_find) ------------------------------- */

/* The run being read, while a bitmap, as a dense run. */
static inline HprofAddrDense
cur_dense (const HprofAddrIndex *x)
{
  return (HprofAddrDense) { x->cur_bits.data, x->cur_rank.data, x->cur_bits.len, x->cur_base, x->cur_first,
                            x->cur_count };
}

/* Adds to the bitmap of the run being read; FALSE if the address does
 * not fit (not a multiple of 8 above the first, or too far for a dense
 * run), leaving the run as it was. */
static inline gboolean
bits_push (HprofAddrIndex *x, guint64 addr)
{
  guint64 d, g, w;

  if (x->cur_count == 0)
    x->cur_base = addr;
  d = addr - x->cur_base;
  if (d & 7)
    return FALSE;
  g = d >> 3;
  w = g >> 6;
  if (w >= x->cur_bits.len)
    {
      gsize old = x->cur_bits.len;
      if (w >= x->cur_count / 3 + DENSE_SLACK)
        return FALSE;
      tm_vec_u64_reserve (&x->cur_bits, (gsize) w + 1 - old);
      memset (x->cur_bits.data + old, 0, ((gsize) w + 1 - old) * sizeof (guint64));
      x->cur_bits.len = (gsize) w + 1;
      /* new words: every object so far lies before them */
      tm_vec_u32_reserve (&x->cur_rank, (gsize) w + 1 - old);
      for (gsize k = old; k <= w; k++)
        x->cur_rank.data[k] = (guint32) x->cur_count;
      x->cur_rank.len = (gsize) w + 1;
    }
  x->cur_bits.data[w] |= G_GUINT64_CONSTANT (1) << (g & 63);
  x->cur_count++;
  return TRUE;
}

/* The bitmap of the run being read into keys (4 bytes if they fit). */
static void
bits_to_keys (HprofAddrIndex *x)
{
  gboolean wide = (guint64) x->cur_bits.len * 64 > G_MAXUINT32;

  if (wide)
    tm_vec_u64_reserve (&x->cur, x->cur_count + 1);
  else
    tm_vec_u32_reserve (&x->cur32, x->cur_count + 1);
  for (gsize w = 0; w < x->cur_bits.len; w++)
    for (guint64 word = x->cur_bits.data[w]; word != 0; word &= word - 1)
      {
        guint64 g = (guint64) w * 64 + (guint64) __builtin_ctzll (word);
        if (wide)
          x->cur.data[x->cur.len++] = x->cur_base + (g << 3);
        else
          x->cur32.data[x->cur32.len++] = (guint32) g;
      }
  tm_vec_u64_clear (&x->cur_bits);
  tm_vec_u32_clear (&x->cur_rank);
  x->cur_mode = wide ? HPROF_CUR_WIDE : HPROF_CUR_K32;
}

static void
dense_free (HprofAddrDense *r)
{
  g_free (r->bits);
  g_free (r->rank);
  memset (r, 0, sizeof *r);
}

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
  switch (x->cur_mode)
    {
    case HPROF_CUR_BITS: return x->cur_count;
    case HPROF_CUR_K32: return x->cur32.len;
    default: return x->cur.len;
    }
}

/* The current run joins the stack of sorted runs. */
static void
close_run (HprofAddrIndex *x, gboolean merge)
{
  HprofAddrRun *r;
  gsize len = cur_len (x);

  if (len == 0)
    return;
  if (x->cur_mode == HPROF_CUR_BITS)
    {
      if (len >= DENSE_MIN && x->n_dense < G_N_ELEMENTS (x->dense))
        {
          HprofAddrDense *d = &x->dense[x->n_dense++];
          *d = cur_dense (x);
          d->bits = g_renew (guint64, x->cur_bits.data, x->cur_bits.len);
          d->rank = g_renew (guint32, x->cur_rank.data, x->cur_rank.len);
          memset (&x->cur_bits, 0, sizeof x->cur_bits);
          memset (&x->cur_rank, 0, sizeof x->cur_rank);
          x->cur_count = 0;
          x->cur_first = x->n;
          return;
        }
      bits_to_keys (x);
    }
  g_assert (x->n_runs < G_N_ELEMENTS (x->runs));
  r = &x->runs[x->n_runs++];
  memset (r, 0, sizeof *r);
  if (x->cur_mode == HPROF_CUR_WIDE)
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
  x->cur_mode = HPROF_CUR_BITS;
  x->cur_count = 0;
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

  if (x->cur_mode == HPROF_CUR_BITS)
    {
      if (G_LIKELY (bits_push (x, addr)))
        return;
      bits_to_keys (x);
    }
  if (x->cur_mode == HPROF_CUR_WIDE)
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
  x->cur_mode = HPROF_CUR_WIDE;
  tm_vec_u64_push (&x->cur, addr);
}

/* Whether a run before the current one holds addr (moving the cursors
 * up to it). */
static gboolean
held_before (HprofAddrIndex *x, guint64 addr)
{
  for (guint i = 0; i < x->n_dense; i++)
    if (hprof_dense_find (&x->dense[i], addr, NULL))
      return TRUE;
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
        return TRUE;
    }
  return FALSE;
}

/* The lowest address above addr that a run before the current one may
 * hold, once held_before() has moved the cursors up to addr: the current
 * run's next addresses below it need no check (hprof_addr_add()). */
static guint64
free_above (const HprofAddrIndex *x, guint64 addr)
{
  guint64 free = G_MAXUINT64;

  if (addr > x->closed_max)
    return free;
  for (guint i = 0; i < x->n_dense; i++)
    {
      const HprofAddrDense *d = &x->dense[i];
      if (addr < d->base)
        free = MIN (free, d->base);
      else if (addr - d->base < (guint64) d->n_words * 512)
        return addr;    /* inside its span: each address is checked */
    }
  for (guint i = 0; i < x->n_runs; i++)
    if (x->runs[i].cur < x->runs[i].len)
      free = MIN (free, key_at (&x->runs[i], x->runs[i].cur));
  return free;
}

gboolean
hprof_addr_add_slow (HprofAddrIndex *x, guint64 addr)
{
  if (x->offered && addr <= x->last)
    {
      /* a new run: the cursors start over where it starts */
      close_run (x, TRUE);
      x->closed_max = 0;
      for (guint i = 0; i < x->n_runs; i++)
        {
          x->runs[i].cur = lower_bound (&x->runs[i], 0, x->runs[i].len, addr);
          x->closed_max = MAX (x->closed_max, key_at (&x->runs[i], x->runs[i].len - 1));
        }
      for (guint i = 0; i < x->n_dense; i++)
        x->closed_max = MAX (x->closed_max, tm_add_sat (x->dense[i].base, tm_mul_sat (x->dense[i].n_words, 512) - 8));
    }
  /* the cursors move up to this address even if it is refused */
  x->offered = TRUE;
  x->last = addr;
  /* above everything before (HotSpot's heap walk, after the class
   * mirrors): no earlier run can hold it, and later addresses of this
   * run are higher still, so the cursors may stay behind */
  if (addr <= x->closed_max && x->n_runs + x->n_dense > 0 && held_before (x, addr))
    return FALSE;
  cur_push (x, addr);
  x->n++;
  x->free_below = free_above (x, addr);
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
hprof_addr_find_slow (const HprofAddrIndex *x, guint64 addr, guint32 *index)
{
  /* (dense[0] was tried) */
  for (guint i = 1; i < x->n_dense; i++)
    if (hprof_dense_find (&x->dense[i], addr, index))
      return TRUE;
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
  if (x->cur_mode == HPROF_CUR_BITS)
    {
      HprofAddrDense d = cur_dense (x);
      return d.n_words > 0 && hprof_dense_find (&d, addr, index);
    }
  {
    HprofAddrRun cur = { 0 };   /* zeroed here only: not on the sealed lookups' path */
    cur.k32 = x->cur_mode == HPROF_CUR_WIDE ? NULL : x->cur32.data;
    cur.key = x->cur_mode == HPROF_CUR_WIDE ? x->cur.data : NULL;
    cur.base = x->cur_base;
    cur.len = cur_len (x);
    cur.first = x->cur_first;
    return run_find (&cur, addr, index);
  }
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
  /* dense runs by size, largest first (lookups try the first ones
   * inline): a few at most */
  for (guint i = 1; i < x->n_dense; i++)
    for (guint k = i; k > 0 && x->dense[k].len > x->dense[k - 1].len; k--)
      {
        HprofAddrDense t = x->dense[k - 1];
        x->dense[k - 1] = x->dense[k];
        x->dense[k] = t;
      }
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
  guint64 bytes = (x->cur.cap + x->cur_bits.cap) * sizeof (guint64) + (x->cur32.cap + x->cur_rank.cap) * sizeof (guint32);

  for (guint i = 0; i < x->n_dense; i++)
    bytes += x->dense[i].n_words * sizeof (guint64) + x->dense[i].n_words * sizeof (guint32);

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
  for (guint i = 0; i < x->n_dense; i++)
    dense_free (&x->dense[i]);
  tm_vec_u64_clear (&x->cur_bits);
  tm_vec_u32_clear (&x->cur_rank);
  tm_vec_u64_clear (&x->cur);
  tm_vec_u32_clear (&x->cur32);
  memset (x, 0, sizeof *x);
}
