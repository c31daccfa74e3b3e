/* SPDX-License-Identifier: GPL-3.0-or-later
 * Broken input: cut at every offset, flipped bytes, bogus counts.  Never a
 * crash, never a hang; a cut trace keeps every GC completed before the cut. */
#include "tidemark.h"
#include "tm-synth.h"
#include "tm-trace-reader.h"
#include "tm-trace-format.h"
#include "tm-varint.h"

#include <string.h>

static GBytes *
small_trace (gboolean compress)
{
  TmSynthOptions opt;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (compress);
  GBytes *bytes;

  tm_synth_options_init (&opt);
  opt.scenario = "mixed";
  opt.scale = 0.02;
  opt.n_gcs = 24;
  opt.graph_every = 4;
  g_assert_true (tm_synth_write (&opt, w, NULL));
  tm_trace_writer_close (w, NULL);
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  return bytes;
}

/* Raw offsets at which each GC_END record ends. */
static GArray *
gc_end_offsets (GBytes *raw)
{
  g_autoptr(TmTraceReader) r = tm_trace_reader_new_bytes (raw, "raw", NULL);
  GArray *ends = g_array_new (FALSE, FALSE, sizeof (guint64));
  TmRecord rec;

  while (tm_trace_reader_next (r, &rec, NULL) == TM_READ_RECORD)
    if (rec.tag == TM_TAG_GC_END)
      {
        /* raw offsets count from the first byte of the file (magic included) */
        guint8 head[11];
        guint64 end = rec.raw_offset + 1 + tm_uvarint_write (head, rec.len) + rec.len;
        g_array_append_val (ends, end);
      }
  return ends;
}

static void
check_prefix (TmTrace *full, TmTrace *cut)
{
  g_assert_cmpuint (tm_trace_n_gcs (cut), <=, tm_trace_n_gcs (full));
  for (guint id = 1; id <= tm_trace_n_gcs (cut); id++)
    {
      const TmGc *a = tm_trace_gc (full, id), *b = tm_trace_gc (cut, id);
      g_assert_cmpuint (a->end_ns, ==, b->end_ns);
      g_assert_cmpuint (a->used_before, ==, b->used_before);
      g_assert_cmpuint (a->used_after, ==, b->used_after);
      if (b->has_graph)
        g_assert_cmpuint (a->reachable_bytes, ==, b->reachable_bytes);
    }
}

static void
test_cut_raw (void)
{
  g_autoptr(GBytes) bytes = small_trace (FALSE);
  g_autoptr(GArray) ends = gc_end_offsets (bytes);
  g_autoptr(TmTrace) full = tm_trace_load_bytes (bytes, "full", NULL, NULL);
  gsize size = g_bytes_get_size (bytes);
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  gsize step = MAX (1, size / 4000);

  g_assert_true (full->complete);
  for (gsize cut = 0; cut < size; cut += step)
    {
      g_autoptr(GBytes) part = g_bytes_new_static (data, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTrace) t = tm_trace_load_bytes (part, "cut.tmtrace", NULL, &error);
      guint expected = 0;

      while (expected < ends->len && g_array_index (ends, guint64, expected) <= cut)
        expected++;
      if (t == NULL)
        {
          /* only a cut inside the header makes the file unusable */
          g_assert_cmpuint (cut, <, 200);
          g_assert_nonnull (error);
          continue;
        }
      g_assert_false (t->complete);
      g_assert_cmpuint (t->warnings->len, >, 0);
      g_assert_nonnull (strstr (g_array_index (t->warnings, TmWarning, 0).message, "cut.tmtrace"));
      g_assert_cmpuint (tm_trace_n_gcs (t), ==, expected);
      check_prefix (full, t);
    }
}

static void
test_cut_zstd (void)
{
  g_autoptr(GBytes) bytes = small_trace (TRUE);
  g_autoptr(TmTrace) full = tm_trace_load_bytes (bytes, "full", NULL, NULL);
  gsize size = g_bytes_get_size (bytes);
  const guint8 *data = g_bytes_get_data (bytes, NULL);
  guint prev_gcs = 0;

  g_assert_true (full->complete);
  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new_static (data, cut);
      g_autoptr(TmTrace) t = tm_trace_load_bytes (part, "cut.tmtrace", NULL, NULL);
      if (t == NULL)
        continue;
      g_assert_false (t->complete);
      /* GCs only accumulate as more of the file is there */
      g_assert_cmpuint (tm_trace_n_gcs (t), >=, prev_gcs);
      prev_gcs = tm_trace_n_gcs (t);
      check_prefix (full, t);
    }
  /* cutting off only the last byte loses at most the last GC */
  g_assert_cmpuint (prev_gcs + 1, >=, tm_trace_n_gcs (full));
}

static void
test_flips (void)
{
  for (int compress = 0; compress < 2; compress++)
    {
      g_autoptr(GBytes) bytes = small_trace (compress);
      gsize size = g_bytes_get_size (bytes);
      GRand *rand = g_rand_new_with_seed (1234 + compress);

      for (guint round = 0; round < 1500; round++)
        {
          guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
          g_autoptr(GBytes) damaged = NULL;
          g_autoptr(TmTrace) t = NULL;
          g_autoptr(GError) error = NULL;
          guint flips = 1 + g_rand_int_range (rand, 0, 4);

          for (guint f = 0; f < flips; f++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] ^= (guint8) (1u << g_rand_int_range (rand, 0, 8));
          damaged = g_bytes_new_take (copy, size);
          t = tm_trace_load_bytes (damaged, "flipped", NULL, &error);
          g_assert_true ((t == NULL) == (error != NULL));
          if (t != NULL && t->gcs->len > 0)
            {
              /* whatever survives, graphs read back or fail cleanly */
              for (guint id = 1; id <= t->gcs->len; id++)
                if (tm_trace_gc (t, id)->has_graph)
                  {
                    g_autoptr(GError) gerr = NULL;
                    TmHeapGraph *g = tm_heap_graph_read (t, id, NULL, &gerr);
                    g_assert_true ((g == NULL) == (gerr != NULL));
                    tm_heap_graph_free (g);
                  }
            }
        }
      g_rand_free (rand);
    }
}

static GBytes *
raw_with_record (guint8 tag, const guint8 *payload, gsize len)
{
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { 1, 0, "", "", "", 8, 0, TM_TRACE_FLAG_DEATHS | TM_TRACE_FLAG_GRAPHS };
  GBytes *b;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_type (w, 1, "T", 0);
  tm_trace_writer_alloc (w, 1, 1, 0, 0, 16, 0, 0);
  tm_trace_writer_gc_start (w, 1, 10, 1, "c", "x");
  tm_trace_writer_gc_end (w, 1, 20, 10, 0, NULL);
  tm_trace_writer_raw_record (w, tag, payload, len);
  tm_trace_writer_end (w, 1, 0, 1, 20);
  tm_trace_writer_close (w, NULL);
  b = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  return b;
}

/* Counts that claim more elements than the record holds must be refused
 * before anything is allocated for them. */
static void
test_bogus_counts (void)
{
  static const guint8 huge[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };
  static const guint8 tags[] = { TM_TAG_DEATHS, TM_TAG_ROOTS, TM_TAG_REFS, TM_TAG_GC_END, TM_TAG_SITE, TM_TAG_TYPE, TM_TAG_MOVES };

  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    {
      guint8 payload[32];
      gsize n = 0;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TmTrace) t = NULL;
      g_autoptr(GError) error = NULL;

      /* a leading id field, then the huge count */
      payload[n++] = 1;
      if (tags[i] == TM_TAG_GC_END)
        {
          payload[n++] = 30;
          payload[n++] = 1;
        }
      memcpy (payload + n, huge, sizeof huge);
      n += sizeof huge;
      bytes = raw_with_record (tags[i], payload, n);
      t = tm_trace_load_bytes (bytes, "bogus", NULL, &error);
      g_assert_no_error (error);
      g_assert_false (t->complete);
      g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);  /* what came before is kept */
    }

  /* a record claiming 200 MiB in a tiny file */
  {
    static const guint8 raw[] = { 'T', 'M', 'T', 'R', 'A', 'C', 'E', '1', 0x01, 0x80, 0x80, 0x80, 0x64, 1 };
    g_autoptr(GBytes) bytes = g_bytes_new_static (raw, sizeof raw);
    g_autoptr(GError) error = NULL;
    g_autoptr(TmTrace) t = tm_trace_load_bytes (bytes, "long", NULL, &error);
    g_assert_null (t);
    g_assert_nonnull (error);
  }
  /* not a trace at all */
  {
    static const char text[] = "hello, world";
    g_autoptr(GBytes) bytes = g_bytes_new_static (text, sizeof text);
    g_autoptr(GError) error = NULL;
    g_autoptr(TmTrace) t = tm_trace_load_bytes (bytes, "text", NULL, &error);
    g_assert_null (t);
    g_assert_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE);
  }
  /* a newer format version is refused with a clear reason */
  {
    static const guint8 raw[] = { 'T', 'M', 'T', 'R', 'A', 'C', 'E', '1', 0x01, 9, 2, 0, 0, 0, 0, 8, 0, 0, 0 };
    g_autoptr(GBytes) bytes = g_bytes_new_static (raw, sizeof raw);
    g_autoptr(GError) error = NULL;
    g_autoptr(TmTrace) t = tm_trace_load_bytes (bytes, "v2", NULL, &error);
    g_assert_null (t);
    g_assert_nonnull (strstr (error->message, "version 2"));
  }
}

/* Writes the head of the run trace below: header, a type, a site, a
 * thread and n ALLOCs of ids 1..n. */
static void
write_run_head (TmTraceWriter *w, guint n)
{
  TmTraceHeader h = { 1, 0, "", "", "", 8, 0, TM_TRACE_FLAG_DEATHS };
  static const guint64 frames[] = { 1 };

  tm_trace_writer_header (w, &h);
  tm_trace_writer_type (w, 1, "T", 0);
  tm_trace_writer_frame (w, 1, "m", "f", 1);
  tm_trace_writer_site (w, 1, 1, frames);
  tm_trace_writer_thread (w, 1, "main");
  for (guint i = 1; i <= n; i++)
    tm_trace_writer_alloc (w, i, 1, 1, 1, 16, 0, 0);
}

static const TmWarning *
find_warning (TmTrace *t, const char *needle)
{
  for (guint i = 0; i < t->warnings->len; i++)
    if (strstr (g_array_index (t->warnings, TmWarning, i).message, needle) != NULL)
      return &g_array_index (t->warnings, TmWarning, i);
  return NULL;
}

/* Long runs of ALLOCs go from the decompression thread to the builder in
 * batches, and DEATHS id lists are decoded there: a bad record inside a
 * run is still skipped on its own and named at its own offset, and a bad
 * id list still stops reading there. */
static void
test_bad_record_in_run (void)
{
  for (guint variant = 0; variant < 2; variant++)
    {
      TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE), *head = tm_trace_writer_new_for_memory (FALSE);
      g_autoptr(GBytes) bytes = NULL, head_bytes = NULL;
      g_autoptr(TmTrace) t = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *where = NULL;
      const TmWarning *warning;
      guint64 bad_offset;
      guint64 dead[] = { 10, 11, 11, 12 };   /* 11 twice: a difference of 0 */

      /* the raw offset of the bad record: the length of what precedes it */
      write_run_head (head, 5000);
      tm_trace_writer_close (head, NULL);
      head_bytes = tm_trace_writer_steal_bytes (head);
      tm_trace_writer_free (head);
      bad_offset = g_bytes_get_size (head_bytes);

      write_run_head (w, 5000);
      if (variant == 0)
        tm_trace_writer_alloc (w, 5001, 9, 1, 1, 16, 0, 0);   /* undefined type */
      else
        {
          guint8 payload[16];
          gsize n = 0;
          payload[n++] = 0;                   /* DEATHS of "now" */
          payload[n++] = G_N_ELEMENTS (dead);
          payload[n++] = (guint8) dead[0];
          for (guint i = 1; i < G_N_ELEMENTS (dead); i++)
            payload[n++] = (guint8) (dead[i] - dead[i - 1]);
          tm_trace_writer_raw_record (w, TM_TAG_DEATHS, payload, n);
        }
      for (guint i = 5002; i <= 9000; i++)
        tm_trace_writer_alloc (w, i, 1, 1, 1, 16, 0, 0);
      tm_trace_writer_gc_start (w, 1, 10, 1, "c", "x");
      tm_trace_writer_gc_end (w, 1, 20, 10, 0, NULL);
      tm_trace_writer_end (w, 8999, 0, 1, 20);
      tm_trace_writer_close (w, NULL);
      bytes = tm_trace_writer_steal_bytes (w);
      tm_trace_writer_free (w);

      t = tm_trace_load_bytes (bytes, "run", NULL, &error);
      g_assert_no_error (error);
      g_assert_false (t->complete);
      where = g_strdup_printf ("at byte offset %" G_GUINT64_FORMAT, bad_offset);
      if (variant == 0)
        {
          /* skipped alone: every other ALLOC is there, ids in order */
          warning = find_warning (t, "uses undefined type 9");
          g_assert_nonnull (warning);
          g_assert_nonnull (strstr (warning->message, where));
          g_assert_cmpuint (t->total_allocs, ==, 8999);
          g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
          {
            guint64 index;
            g_assert_true (tm_trace_object_index_for_id (t, 9000, &index));
            g_assert_false (tm_trace_object_index_for_id (t, 5001, &index));
          }
        }
      else
        {
          /* reading stops there: the ALLOCs before it are kept */
          warning = find_warning (t, "reading stopped at");
          g_assert_nonnull (warning);
          g_assert_nonnull (strstr (warning->message, where));
          g_assert_nonnull (strstr (warning->message, "id list difference"));
          g_assert_cmpuint (t->total_allocs, ==, 5000);
        }
    }
}

/* A graph's REFS records go to the builder in runs as well: a REFS of an
 * unknown object inside a run is skipped on its own, named at its own
 * offset, and the edges of the records around it are all there (a chain
 * 1 -> 2 -> ... -> 3000 from one root: every object reachable but those
 * after the broken link). */
static void
test_bad_refs_in_run (void)
{
  const guint n = 3000, broken = 1500;
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *where = NULL;
  TmRootRecord root = { 1, 1, 1 };
  const TmWarning *warning;
  const TmGc *gc;
  guint64 bad_offset = 0;

  write_run_head (w, n);
  tm_trace_writer_gc_start (w, 1, 10, 1, "c", "x");
  tm_trace_writer_gc_end (w, 1, 20, 10, 0, NULL);
  tm_trace_writer_graph_begin (w, 1);
  tm_trace_writer_roots (w, 1, &root);
  for (guint64 i = 1; i < n; i++)
    {
      guint64 next = i + 1;
      if (i == broken)
        {
          bad_offset = tm_trace_writer_raw_bytes (w);
          tm_trace_writer_refs (w, 999999, 1, &next);   /* no such object: the chain breaks here */
        }
      else
        tm_trace_writer_refs (w, i, 1, &next);
    }
  tm_trace_writer_graph_end (w, 1, n - 1);
  tm_trace_writer_end (w, n, 0, 1, 20);
  tm_trace_writer_close (w, NULL);
  bytes = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);

  t = tm_trace_load_bytes (bytes, "refs-run", NULL, &error);
  g_assert_no_error (error);
  warning = find_warning (t, "REFS of unknown object 999999");
  g_assert_nonnull (warning);
  where = g_strdup_printf ("at byte offset %" G_GUINT64_FORMAT, bad_offset);
  g_assert_nonnull (strstr (warning->message, where));
  gc = tm_trace_gc (t, 1);
  g_assert_true (gc->has_graph);
  g_assert_cmpuint (gc->reachable_objects, ==, broken);
  g_assert_cmpuint (gc->reachable_bytes, ==, broken * 16);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/damage/cut-raw", test_cut_raw);
  g_test_add_func ("/damage/cut-zstd", test_cut_zstd);
  g_test_add_func ("/damage/flips", test_flips);
  g_test_add_func ("/damage/bogus-counts", test_bogus_counts);
  g_test_add_func ("/damage/bad-record-in-run", test_bad_record_in_run);
  g_test_add_func ("/damage/bad-refs-in-run", test_bad_refs_in_run);
  return g_test_run ();
}
