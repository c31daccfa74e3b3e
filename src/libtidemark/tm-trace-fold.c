/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Short-lived objects into counters.  An object that dies in the first GC
 * after its birth is part of no heap state, graph or trend: only its
 * counts matter.  Once the deaths of an interval's first GC are known, the
 * builder calls tm_trace_fold_interval(): those objects leave the rows and
 * add to per-(type, site, thread, size class, age bucket) counters of
 * their birth interval, carrying what every analysis of allocations reads
 * (count, bytes, the age at death lifetimes would estimate).
 */
#include "tm-config.h"

#include <string.h>

#include "tm-trace-private.h"
#include "tm-vm-metrics.h"

/* The interval's counters by key: open addressing over entry numbers
 * (+1, 0 empty), the keys compared in the entries themselves.  An
 * interval has few distinct keys: the table stays in the cache. */
typedef struct {
  GArray  *entries;   /* TmShortLived */
  guint32 *slots;
  guint32  mask;
} FoldTable;

static inline guint
fold_hash (guint32 type, guint32 site, guint32 thread, guint8 size_class, guint8 age_bucket)
{
  guint h = type * 2654435761u;

  h = (h ^ site) * 2246822519u;
  h = (h ^ thread) * 3266489917u;
  h ^= (guint) size_class << 8 | age_bucket;
  return h ^ (h >> 15);
}

static void
fold_table_grow (FoldTable *ft)
{
  guint32 mask = ft->mask * 2 + 1;

  g_free (ft->slots);
  ft->slots = g_new0 (guint32, mask + 1);
  ft->mask = mask;
  for (guint i = 0; i < ft->entries->len; i++)
    {
      const TmShortLived *e = &g_array_index (ft->entries, TmShortLived, i);
      guint h = fold_hash (e->type, e->site, e->thread, e->size_class, e->age_bucket) & mask;
      while (ft->slots[h] != 0)
        h = (h + 1) & mask;
      ft->slots[h] = i + 1;
    }
}

static TmShortLived *fold_table_add (FoldTable *ft, guint h, guint32 type, guint32 site, guint32 thread,
                                     guint8 size_class, guint8 age_bucket);

static inline TmShortLived *
fold_table_get (FoldTable *ft, guint32 type, guint32 site, guint32 thread, guint8 size_class, guint8 age_bucket)
{
  guint h = fold_hash (type, site, thread, size_class, age_bucket) & ft->mask;
  TmShortLived *entries = (TmShortLived *) (gpointer) ft->entries->data;

  for (guint32 s; (s = ft->slots[h]) != 0; h = (h + 1) & ft->mask)
    {
      TmShortLived *e = &entries[s - 1];
      if (e->type == type && e->site == site && e->thread == thread
          && e->size_class == size_class && e->age_bucket == age_bucket)
        return e;
    }
  return fold_table_add (ft, h, type, site, thread, size_class, age_bucket);
}

static TmShortLived *
fold_table_add (FoldTable *ft, guint h, guint32 type, guint32 site, guint32 thread, guint8 size_class, guint8 age_bucket)
{
  TmShortLived fresh = { 0 };

  fresh.type = type;
  fresh.site = site;
  fresh.thread = thread;
  fresh.size_class = size_class;
  fresh.age_bucket = age_bucket;
  g_array_append_val (ft->entries, fresh);
  ft->slots[h] = ft->entries->len;
  if (ft->entries->len * 2 > ft->mask)
    fold_table_grow (ft);
  return &g_array_index (ft->entries, TmShortLived, ft->entries->len - 1);
}

/* tm_lifetime_time_bucket (age) from the bucket of the age before: in
 * birth order ages only shrink, so it is that bucket or one below. */
static inline guint
age_bucket_near (guint64 age, guint bucket)
{
  static const guint64 upper[TM_LIFETIME_TIME_BUCKETS] = {
    G_GUINT64_CONSTANT (1000000), G_GUINT64_CONSTANT (10000000), G_GUINT64_CONSTANT (100000000),
    G_GUINT64_CONSTANT (1000000000), G_GUINT64_CONSTANT (10000000000), G_GUINT64_CONSTANT (100000000000),
    G_MAXUINT64,
  };

  while (bucket + 1 < TM_LIFETIME_TIME_BUCKETS && age >= upper[bucket])
    bucket++;
  while (bucket > 0 && age < upper[bucket - 1])
    bucket--;
  return bucket;
}

static gint
compare_entries (gconstpointer a, gconstpointer b)
{
  const TmShortLived *x = a, *y = b;

  if (x->type != y->type)
    return x->type < y->type ? -1 : 1;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->size_class != y->size_class)
    return x->size_class < y->size_class ? -1 : 1;
  return (gint) x->age_bucket - (gint) y->age_bucket;
}

/* Rows [from, n_objects) move down to `to`; the oversized ones keep their size. */
static void
move_rows (TmTrace *t, guint64 from, guint64 to, guint64 count)
{
#define MOVE(col) memmove (&t->col[to], &t->col[from], count * sizeof t->col[0])
  MOVE (obj_type);
  MOVE (obj_site);
  MOVE (obj_thread);
  MOVE (obj_size);
  MOVE (obj_death);
  if (t->obj_space != NULL)
    MOVE (obj_space);
  if (t->obj_ids != NULL)
    MOVE (obj_ids);
#undef MOVE
}

/* The size overflow table is keyed by row: renumber after a compaction
 * (sizes of 4 GiB and more: rare). */
static void
rekey_overflow (TmTrace *t, const guint64 *old_of_new, guint64 n_new)
{
  GHashTable *old = t->size_overflow, *fresh;

  if (old == NULL)
    return;
  fresh = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint64 i = 0; i < n_new; i++)
    {
      guint64 from = old_of_new[i];
      guint64 *size;

      if (t->obj_size[i] != TM_SIZE_OVERFLOW || (size = g_hash_table_lookup (old, &from)) == NULL)
        continue;
      {
        guint64 *key = g_new (guint64, 2);
        key[0] = i;
        key[1] = *size;
        g_hash_table_insert (fresh, key, &key[1]);
      }
    }
  g_hash_table_unref (old);
  t->size_overflow = fresh;
}

void
tm_trace_short_lived_pad (TmTrace *t, guint32 len)
{
  guint64 end = t->short_lived->len;

  while (t->short_lived_first->len < len)
    g_array_append_val (t->short_lived_first, end);
}

guint64
tm_trace_folded_seq (const TmTrace *t, guint64 row)
{
  guint64 k = t->row_blocks[row / 64], bits;
  guint j;

  /* the last block whose rows start at or before the row holds it */
  while (k + 1 < t->n_seq_blocks && t->seq_blocks[k + 1].rows_before <= row)
    k++;
  bits = (guint64) t->seq_blocks[k].bits[1] << 32 | t->seq_blocks[k].bits[0];
  for (j = (guint) (row - t->seq_blocks[k].rows_before); j > 0; j--)
    bits &= bits - 1;
  return k * 64 + (guint64) __builtin_ctzll (bits);
}

/* Numbers [lo_seq, hi_seq) get blocks (numbers below lo_seq have theirs). */
static void
grow_seq_blocks (TmTrace *t, guint64 hi_seq)
{
  guint64 blocks = (hi_seq + 63) / 64;

  if (blocks <= t->n_seq_blocks)
    return;
  t->seq_blocks = g_renew (TmSeqBlock, t->seq_blocks, blocks);
  memset (t->seq_blocks + t->n_seq_blocks, 0, (blocks - t->n_seq_blocks) * sizeof (TmSeqBlock));
  t->n_seq_blocks = blocks;
}

/* The rows before each block from lo_seq's block on (it may be new),
 * after their bits are set. */
static void
count_seq_blocks (TmTrace *t, guint64 lo_seq)
{
  for (guint64 k = MAX (lo_seq / 64, 1); k < t->n_seq_blocks; k++)
    {
      const TmSeqBlock *p = &t->seq_blocks[k - 1];
      t->seq_blocks[k].rows_before = p->rows_before + tm_popcount64 ((guint64) p->bits[1] << 32 | p->bits[0]);
    }
}

/* Number seq keeps a row, row w (rows come in number order). */
static inline void
keep_row (TmTrace *t, guint64 seq, guint64 w)
{
  TmSeqBlock *blk = &t->seq_blocks[seq / 64];

  if (seq % 64 < 32)
    blk->bits[0] |= 1u << (seq % 64);
  else
    blk->bits[1] |= 1u << (seq % 64 - 32);
  if (w % 64 == 0)
    t->row_blocks[w / 64] = (guint32) (seq / 64);
}

/* Interval b's counters, in key order, after those of the intervals
 * before (the ones never folded have none). */
static void
publish (TmTrace *t, guint32 b, GArray *entries)
{
  tm_trace_short_lived_pad (t, b + 1);
  g_array_sort (entries, compare_entries);
  g_array_append_vals (t->short_lived, entries->data, entries->len);
  tm_trace_short_lived_pad (t, b + 2);
}

void
tm_trace_fold_interval (TmTrace *t, guint32 b)
{
  guint32 n_gcs = t->gcs->len, dies_in = b + 1;
  guint64 lo = tm_trace_allocs_before_gc (t, b);
  guint64 hi = tm_trace_allocs_before_gc (t, b + 1);
  guint64 lo_seq = tm_trace_allocations_before_gc (t, b);
  guint64 hi_seq = tm_trace_allocations_before_gc (t, b + 1);
  /* as the lifetimes analysis estimates it: spread between the GC before
   * and the start of the GC that collects them (the end after the last) */
  guint64 t0 = tm_trace_gc_end_ns (t, b);
  guint64 t1 = dies_in <= n_gcs ? g_array_index (t->gcs, TmGc, b).start_ns : t->duration_ns;
  g_autoptr(GArray) entries = NULL;
  TmBirths births = tm_births_new (t0, t1, hi_seq - lo_seq);
  FoldTable ft;
  g_autofree guint64 *old_of_new = NULL;
  guint64 w = lo, removed;
  guint bucket = 0;

  g_return_if_fail (t->id_index == NULL);
  g_return_if_fail (b + 1 >= t->short_lived_first->len);
  /* the interval's rows are dense: row lo + k is number lo_seq + k */
  g_return_if_fail (lo == t->dense_row && lo_seq == t->dense_seq && hi - lo == hi_seq - lo_seq);

  entries = g_array_new (FALSE, FALSE, sizeof (TmShortLived));
  ft.entries = entries;
  ft.mask = 255;
  ft.slots = g_new0 (guint32, ft.mask + 1);

  if (t->size_overflow != NULL)
    {
      old_of_new = g_new (guint64, MAX (t->n_objects, 1));
      for (guint64 i = 0; i < lo; i++)
        old_of_new[i] = i;
    }

  grow_seq_blocks (t, hi_seq);
  if ((hi + 63) / 64 > t->n_row_blocks)
    t->row_blocks = g_renew (guint32, t->row_blocks, (hi + 63) / 64);
  for (guint64 i = lo; i < hi; i++)
    {
      guint64 seq = lo_seq + (i - lo);

      if (t->obj_death[i] == dies_in)
        {
          guint32 s32 = t->obj_size[i];
          guint64 size = G_LIKELY (s32 != TM_SIZE_OVERFLOW) ? s32 : tm_trace_object_size (t, i);
          guint64 born = tm_births_at (&births, i - lo);
          guint64 age = t1 > born ? t1 - born : 0;
          TmShortLived *e;

          bucket = age_bucket_near (age, bucket);
          e = fold_table_get (&ft, t->obj_type[i], t->obj_site[i], t->obj_thread[i],
                              tm_trace_size_class (size), (guint8) bucket);

          e->count++;
          e->bytes += size;
          e->age_seconds += age / 1e9;
          continue;
        }
      if (w != i)
        {
          t->obj_type[w] = t->obj_type[i];
          t->obj_site[w] = t->obj_site[i];
          t->obj_thread[w] = t->obj_thread[i];
          t->obj_size[w] = t->obj_size[i];
          t->obj_death[w] = t->obj_death[i];
          if (t->obj_space != NULL)
            t->obj_space[w] = t->obj_space[i];
          if (t->obj_ids != NULL)
            t->obj_ids[w] = t->obj_ids[i];
        }
      if (old_of_new != NULL)
        old_of_new[w] = i;
      keep_row (t, seq, w);
      w++;
    }
  count_seq_blocks (t, lo_seq);
  t->n_row_blocks = (w + 63) / 64;

  removed = hi - w;
  if (removed > 0)
    {
      if (old_of_new != NULL)
        for (guint64 i = hi; i < t->n_objects; i++)
          old_of_new[i - removed] = i;
      move_rows (t, hi, w, t->n_objects - hi);
      t->n_objects -= removed;
      if (old_of_new != NULL)
        rekey_overflow (t, old_of_new, t->n_objects);
      for (guint g = b; g < n_gcs; g++)
        {
          TmGc *gc = &g_array_index (t->gcs, TmGc, g);
          if (gc->allocs_before >= hi)
            gc->allocs_before -= removed;
        }
    }

  g_free (ft.slots);
  t->dense_row = w;
  t->dense_seq = hi_seq;
  publish (t, b, entries);
}

guint64
tm_trace_fold_allocs (TmTrace *t, guint32 b, guint64 t1, const guint32 *items, gsize n, TmFoldKind *kinds,
                      guint64 *dead_bytes)
{
  guint64 lo_seq = t->total_allocs, hi_seq = lo_seq + n, w = t->n_objects, dead = 0, bytes = 0;
  guint64 t0 = tm_trace_gc_end_ns (t, b);
  guint32 stamp = b + 1;
  guint8 bucket = 0;
  TmBirths births = tm_births_new (t0, t1, n);
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (TmShortLived));
  FoldTable ft;

  g_return_val_if_fail (t->id_index == NULL && t->obj_ids == NULL, 0);
  g_return_val_if_fail (b + 1 >= t->short_lived_first->len && b == t->gcs->len, 0);
  g_return_val_if_fail (w == t->dense_row && lo_seq == t->dense_seq && lo_seq == tm_trace_allocations_before_gc (t, b), 0);

  ft.entries = entries;
  ft.mask = 255;
  ft.slots = g_new0 (guint32, ft.mask + 1);
  grow_seq_blocks (t, hi_seq);
  if ((w + n + 63) / 64 > t->n_row_blocks)
    t->row_blocks = g_renew (guint32, t->row_blocks, (w + n + 63) / 64);
  for (gsize k = 0; k < n; k++)
    {
      TmFoldKind *kind = &kinds[items[k] & ~TM_FOLD_DIED];
      guint64 seq = lo_seq + k;

      if (items[k] & TM_FOLD_DIED)
        {
          /* the same estimates, summed in the same order, as
           * tm_trace_fold_interval() */
          guint64 born = tm_births_at (&births, k);
          guint64 age = t1 > born ? t1 - born : 0;
          TmShortLived *e;

          bucket = (guint8) age_bucket_near (age, bucket);

          if (kind->stamp != stamp || kind->bucket != bucket)
            {
              e = fold_table_get (&ft, kind->type, kind->site, kind->thread, kind->size_class, bucket);
              kind->entry = (guint32) (e - (TmShortLived *) (gpointer) entries->data);
              kind->stamp = stamp;
              kind->bucket = bucket;
            }
          e = &g_array_index (entries, TmShortLived, kind->entry);
          e->count++;
          e->bytes += kind->size;
          e->age_seconds += age / 1e9;
          dead++;
          bytes += kind->size;
          continue;
        }
      t->obj_type[w] = kind->type;
      t->obj_site[w] = kind->site;
      t->obj_thread[w] = kind->thread;
      t->obj_size[w] = kind->size;
      t->obj_death[w] = TM_ALIVE;
      if (t->obj_space != NULL)
        t->obj_space[w] = 0;
      keep_row (t, seq, w);
      w++;
    }
  count_seq_blocks (t, lo_seq);
  t->n_row_blocks = (w + 63) / 64;
  g_free (ft.slots);
  t->n_objects = w;
  t->dense_row = w;
  t->dense_seq = hi_seq;
  publish (t, b, entries);
  *dead_bytes = bytes;
  return dead;
}
