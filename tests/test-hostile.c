/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hostile inputs: files that describe far more than they weigh.  Each bomb
 * is built here (a few KB of zstd standing for hundreds of MB), loaded
 * under a small memory budget, and must come back partial, with what came
 * before the cut and a warning that names the limit; padding and zero
 * bytes are cut off by the progress-per-byte rule.  Also: a hundred traces
 * opened and closed in one process leave the memory where it was. */
#include "tidemark.h"
#include "tm-trace-format.h"
#include "tm-varint.h"
#include "hprof-test-writer.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <zstd.h>

#define MIB (G_GUINT64_CONSTANT (1) << 20)

/* zstd of head, then `unit` repeated `times` times, then tail. */
static GBytes *
zstd_bomb (const void *head, gsize head_len, const void *unit, gsize unit_len, guint64 times,
           const void *tail, gsize tail_len)
{
  ZSTD_CCtx *cctx = ZSTD_createCCtx ();
  GByteArray *out = g_byte_array_new ();
  gsize block_units = MAX (1, (1u << 20) / unit_len);
  g_autofree guint8 *block = g_malloc (block_units * unit_len);
  guint8 buf[1 << 16];

  for (gsize i = 0; i < block_units; i++)
    memcpy (block + i * unit_len, unit, unit_len);
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_compressionLevel, 3);

  for (int part = 0; part < 3; part++)
    {
      guint64 left = part == 1 ? times : 1;
      while (left > 0)
        {
          const void *src = part == 0 ? head : part == 2 ? tail : block;
          gsize len = part == 0 ? head_len : part == 2 ? tail_len : MIN (left, block_units) * unit_len;
          ZSTD_inBuffer in = { src, len, 0 };
          ZSTD_EndDirective end = (part == 2) ? ZSTD_e_end : ZSTD_e_continue;
          gsize rem;

          do
            {
              ZSTD_outBuffer o = { buf, sizeof buf, 0 };
              rem = ZSTD_compressStream2 (cctx, &o, &in, end);
              g_assert_false (ZSTD_isError (rem));
              g_byte_array_append (out, buf, o.pos);
            }
          while (in.pos < in.size || (end == ZSTD_e_end && rem != 0));
          left -= part == 1 ? MIN (left, block_units) : 1;
        }
    }
  ZSTD_freeCCtx (cctx);
  return g_byte_array_free_to_bytes (out);
}

static char *
save (GBytes *bytes, const char *name)
{
  char *path = g_build_filename (g_get_tmp_dir (), name, NULL);
  gsize n;
  const char *data = g_bytes_get_data (bytes, &n);
  g_autofree char *unique = g_strdup_printf ("%s.%d", path, (int) getpid ());

  g_assert_true (g_file_set_contents (unique, data, n, NULL));
  g_free (path);
  return g_steal_pointer (&unique);
}

static void
put_record (GByteArray *a, guint8 tag, const guint8 *payload, gsize len)
{
  guint8 v[10];
  g_byte_array_append (a, &tag, 1);
  g_byte_array_append (a, v, tm_uvarint_write (v, len));
  g_byte_array_append (a, payload, len);
}

/* TMTRACE1, HEADER, and GC 1 (start and end), raw. */
static GByteArray *
trace_head (void)
{
  TmTraceWriter *w = tm_trace_writer_new_for_memory (FALSE);
  TmTraceHeader h = { .version = 1, .vm_name = "bomb", .vm_version = "1", .command_line = "", .pointer_size = 8 };
  TmSpaceUsageRecord u = { 1, 100, 50, 200 };
  g_autoptr(GBytes) b = NULL;
  GByteArray *a;
  gsize n;
  const guint8 *d;

  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, 3, "old");
  tm_trace_writer_gc_start (w, 1, 1000, 1, "test", "first");
  tm_trace_writer_gc_end (w, 1, 2000, 1000, 1, &u);
  tm_trace_writer_close (w, NULL);
  b = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  d = g_bytes_get_data (b, &n);
  a = g_byte_array_new ();
  g_byte_array_append (a, d, n);
  return a;
}

static gboolean
has_warning (const TmTrace *t, const char *needle)
{
  for (guint i = 0; i < t->warnings->len; i++)
    if (strstr (g_array_index (t->warnings, TmWarning, i).message, needle) != NULL)
      return TRUE;
  return FALSE;
}

/* 100 M identical ALLOCs (~900 MB of raw stream) in a small file: the
 * model stops at the budget, keeps GC 1 and says how to raise the limit. */
static void
test_alloc_bomb (void)
{
  g_autoptr(GByteArray) head = trace_head ();
  /* id +1, unknown type/site/thread, 16 bytes, no space, not an array */
  static const guint8 alloc[] = { 2, 0, 0, 0, 16, 0, 0 };
  g_autoptr(GByteArray) unit = g_byte_array_new ();
  g_autoptr(GBytes) bomb = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;
  g_autofree char *path = NULL;
  TmLoadOptions opt = { .memory_limit = 64 * MIB };

  put_record (unit, TM_TAG_ALLOC, alloc, sizeof alloc);
  bomb = zstd_bomb (head->data, head->len, unit->data, unit->len, 100000000, NULL, 0);
  g_test_message ("bomb: %" G_GSIZE_FORMAT " bytes for 100 M ALLOCs", g_bytes_get_size (bomb));
  g_assert_cmpuint (g_bytes_get_size (bomb), <, 200 * 1024);
  path = save (bomb, "alloc-bomb.tmtrace");

  t = tm_trace_load_full (path, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  g_assert_false (t->complete);
  g_assert_true (t->stopped);
  g_assert_true (t->memory_limited);
  g_assert_cmpuint (t->memory_limit, ==, 64 * MIB);
  /* everything before the cut: GC 1 and the objects that fit */
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  g_assert_cmpuint (t->n_objects, >, 1000000);
  g_assert_cmpuint (t->n_objects * 20, <=, 64 * MIB);
  g_assert_cmpuint (tm_trace_object_memory (t), <=, 64 * MIB);
  g_assert_true (has_warning (t, "memory limit of 64.0 MiB"));
  g_assert_true (has_warning (t, "--memory-limit"));
  g_unlink (path);
}

/* A valid start, then 1 GB of zero bytes: stops at the first of them. */
static void
test_zero_bomb (void)
{
  g_autoptr(GByteArray) head = trace_head ();
  static const guint8 zeros[4096] = { 0 };
  g_autoptr(GBytes) bomb = zstd_bomb (head->data, head->len, zeros, sizeof zeros, (1u << 30) / sizeof zeros, NULL, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;
  g_autofree char *path = save (bomb, "zero-bomb.tmtrace");
  g_autofree char *expect = g_strdup_printf ("raw stream offset %u", head->len);

  g_test_message ("bomb: %" G_GSIZE_FORMAT " bytes for 1 GiB of zeros", g_bytes_get_size (bomb));
  g_assert_cmpuint (g_bytes_get_size (bomb), <, 100 * 1024);
  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->stopped);
  g_assert_false (t->memory_limited);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  g_assert_true (has_warning (t, "zero bytes where a record starts"));
  g_assert_true (has_warning (t, expect));
  g_unlink (path);
}

/* Records this reader skips (an unknown tag), 128 MiB of them: the read
 * stops 64 MiB into the run, with what came before. */
static void
test_padding_bomb (void)
{
  g_autoptr(GByteArray) head = trace_head ();
  g_autoptr(GByteArray) unit = g_byte_array_new ();
  g_autoptr(GBytes) bomb = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  put_record (unit, 0x4f, (const guint8 *) "pad", 3);
  bomb = zstd_bomb (head->data, head->len, unit->data, unit->len, (128 * MIB) / unit->len, NULL, 0);
  t = tm_trace_load_bytes (bomb, "padding", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->stopped);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  g_assert_true (has_warning (t, "64 MiB of the raw stream since offset"));
  g_assert_true (has_warning (t, "padding or damage"));
}

static const char heaptrack_head[] =
  "v 10700 3\n"
  "X bomb\n"
  "s 4 main\n"
  "i 1000 0 1\n"
  "t 1 0\n"
  "a 10 1\n"
  "c 5\n";

/* heaptrack: "+ 0" 100 M times (400 MB of text) */
static void
test_heaptrack_bomb (void)
{
  g_autoptr(GBytes) bomb = zstd_bomb (heaptrack_head, strlen (heaptrack_head), "+ 0\n", 4, 100000000, "c 9\n", 4);
  g_autofree char *path = save (bomb, "bomb.heaptrack.zst");
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;
  TmLoadOptions opt = { .memory_limit = 64 * MIB };

  g_test_message ("bomb: %" G_GSIZE_FORMAT " bytes for 100 M allocations", g_bytes_get_size (bomb));
  t = tm_trace_load_full (path, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->format, ==, "heaptrack");
  g_assert_true (t->memory_limited);
  g_assert_true (t->stopped);
  g_assert_cmpuint (t->n_objects, >, 500000);
  g_assert_cmpuint (t->n_objects * 28, <=, 64 * MIB);
  g_assert_true (has_warning (t, "memory limit of 64.0 MiB"));
  g_assert_true (has_warning (t, "line "));
  g_unlink (path);
}

/* heaptrack: comment lines forever after a valid start */
static void
test_heaptrack_padding (void)
{
  g_autoptr(GBytes) bomb = zstd_bomb (heaptrack_head, strlen (heaptrack_head), "#\n", 2, (96 * MIB) / 2, NULL, 0);
  g_autofree char *path = save (bomb, "pad.heaptrack.zst");
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->stopped);
  g_assert_false (t->memory_limited);
  g_assert_true (has_warning (t, "hold no record that adds to the model"));
  g_unlink (path);
}

/* heaptrack numbers at the edges: a size that would overflow the byte
 * totals, a time stamp past 2^64 ns.  Saturated or refused, and said. */
static void
test_heaptrack_overflow (void)
{
  static const char text[] =
    "v 10700 3\n"
    "t 0 0\n"
    "a 7fffffffffffffff 0\n"
    "a 10 0\n"
    "+ 0\n"
    "+ 0\n"
    "+ 1\n"
    "c 5\n"
    "c ffffffffffffffff\n"
    "- 0\n"
    "- 0\n"
    "c 6\n";
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "overflow.heaptrack", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (t->complete);
  g_assert_false (t->stopped);
  g_assert_true (has_warning (t, "later than 2^64 ns"));
  g_assert_true (has_warning (t, "past 2^63"));
  /* 6 ms, not a wrapped 2^64-ms time */
  g_assert_cmpuint (t->duration_ns, ==, 6000000);
  /* the two allocations that fit, and the total that stays below 2^63 */
  g_assert_cmpuint (t->total_alloc_bytes, ==, G_GUINT64_CONSTANT (0x7fffffffffffffff));
  g_unlink (path);
}

/* GC causes of 1 MiB each, different in every trace: opening and closing
 * a hundred of them must not leave their strings behind. */
static GBytes *
trace_with_causes (guint serial, guint n_gcs, gsize cause_len)
{
  TmTraceWriter *w = tm_trace_writer_new_for_memory (TRUE);
  TmTraceHeader h = { .version = 1, .vm_name = "t", .vm_version = "1", .command_line = "", .pointer_size = 8 };
  TmSpaceUsageRecord u = { 1, 100, 50, 200 };
  g_autofree char *cause = g_malloc (cause_len + 1);
  GBytes *b;

  memset (cause, 'x', cause_len);
  cause[cause_len] = '\0';
  tm_trace_writer_header (w, &h);
  tm_trace_writer_space (w, 1, 3, "old");
  for (guint gc = 1; gc <= n_gcs; gc++)
    {
      g_snprintf (cause, cause_len, "cause %u of trace %u ", gc, serial);
      cause[strlen (cause)] = 'x';
      tm_trace_writer_gc_start (w, gc, gc * 1000, 1, "test", cause);
      tm_trace_writer_gc_end (w, gc, gc * 1000 + 10, 10, 1, &u);
    }
  tm_trace_writer_end (w, 0, 0, n_gcs, n_gcs * 1000 + 10);
  tm_trace_writer_close (w, NULL);
  b = tm_trace_writer_steal_bytes (w);
  tm_trace_writer_free (w);
  return b;
}

/* Under AddressSanitizer freed blocks stay resident in its quarantine
 * (256 MiB by default) to catch late uses, so the resident set grows
 * whatever the code frees: there, count the bytes still allocated. */
#if defined(__SANITIZE_ADDRESS__)
#define TM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TM_TEST_ASAN 1
#endif
#endif
#ifdef TM_TEST_ASAN
/* both GCC's and clang's runtimes export it; GCC ships no header for it */
size_t __sanitizer_get_current_allocated_bytes (void);
#endif

static guint64
rss_bytes (void)
{
#ifdef TM_TEST_ASAN
  return __sanitizer_get_current_allocated_bytes ();
#else
  g_autofree char *statm = NULL;
  guint64 size = 0, resident = 0;

  g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  g_assert_cmpint (sscanf (statm, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &size, &resident), ==, 2);
  return resident * (guint64) sysconf (_SC_PAGESIZE);
#endif
}

static void
test_strings_die_with_trace (void)
{
  const guint n_gcs = 16;
  const gsize cause_len = 256 * 1024;   /* 4 MiB of causes per trace */
  guint64 rss_after_warmup = 0;

  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(GBytes) b = trace_with_causes (i, n_gcs, cause_len);
      g_autoptr(GError) error = NULL;
      TmTrace *t = tm_trace_load_bytes (b, "causes", NULL, &error);

      g_assert_no_error (error);
      g_assert_true (t->complete);
      g_assert_cmpuint (tm_trace_n_gcs (t), ==, n_gcs);
      g_assert_true (g_str_has_prefix (tm_trace_gc (t, 3)->cause, "cause 3 of trace "));
      g_assert_cmpuint (strlen (tm_trace_gc (t, 3)->cause), ==, cause_len);
      tm_trace_unref (t);
      if (i == 4)
        rss_after_warmup = rss_bytes ();
    }
  /* kept strings would be 95 x 4 MiB = 380 MiB by now */
  g_test_message ("memory after 5 traces: %" G_GUINT64_FORMAT " KiB, after 100: %" G_GUINT64_FORMAT " KiB",
                  rss_after_warmup >> 10, rss_bytes () >> 10);
  g_assert_cmpuint (rss_bytes (), <, rss_after_warmup + 16 * MIB);
}

static guint
count (const char *haystack, const char *needle)
{
  guint n = 0;
  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* An uncompressed trace names file offsets (no zstd frame), and stops
 * where the bad record is; every problem is counted, not only those kept. */
static void
test_raw_messages (void)
{
  g_autoptr(GByteArray) a = trace_head ();
  static const guint8 undefined_type[] = { 2, 5, 0, 0, 16, 0, 0 };   /* skipped: type 5 undefined */
  static const guint8 cut_alloc[] = { 2, 0 };                        /* malformed: stops */
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;
  g_autofree char *at = NULL;
  guint64 stop;

  for (guint i = 0; i < 500; i++)
    put_record (a, TM_TAG_ALLOC, undefined_type, sizeof undefined_type);
  stop = a->len;
  put_record (a, TM_TAG_ALLOC, cut_alloc, sizeof cut_alloc);
  bytes = g_bytes_new (a->data, a->len);
  t = tm_trace_load_bytes (bytes, "raw.tmtrace", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->stopped);
  g_assert_cmpuint (t->stop_offset, ==, stop);
  at = g_strdup_printf ("reading stopped at byte offset %" G_GUINT64_FORMAT ":", stop);
  g_assert_true (has_warning (t, at));
  for (guint i = 0; i < t->warnings->len; i++)
    g_assert_null (strstr (g_array_index (t->warnings, TmWarning, i).message, "zstd"));
  /* the first 200, and the one that says where reading stopped */
  g_assert_cmpuint (t->warnings->len, ==, 201);
  g_assert_cmpuint (t->n_warnings_total, ==, 501);
}

/* A heaptrack .zst damaged part-way: the warning names the file once. */
static void
test_heaptrack_damaged_zstd (void)
{
  g_autoptr(GBytes) good = zstd_bomb (heaptrack_head, strlen (heaptrack_head), "+ 0\n", 4, 1000000, "c 9\n", 4);
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autoptr(GBytes) damaged = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;
  gsize n;
  const guint8 *d = g_bytes_get_data (good, &n);

  g_byte_array_append (bad, d, n);
  for (gsize i = n / 2; i < n / 2 + 64; i++)
    bad->data[i] ^= 0x5a;
  damaged = g_bytes_new (bad->data, bad->len);
  path = save (damaged, "damaged.heaptrack.zst");
  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->stopped);
  g_assert_cmpuint (t->warnings->len, >=, 1);
  for (guint i = 0; i < t->warnings->len; i++)
    g_assert_cmpuint (count (g_array_index (t->warnings, TmWarning, i).message, path), ==, 1);
  g_assert_true (has_warning (t, "damaged zstd data"));
  g_unlink (path);
}

/* A GC log of `n` young pauses, each with the cause "CAUSE-<i>-<serial>"
 * padded to cause_len (0: short causes). */
static GString *
gclog_text (guint n, guint serial, gsize cause_len)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      double t = 0.1 + i * 0.01;
      g_string_append_printf (s, "[%.3fs][info][gc] GC(%u) Pause Young (CAUSE-%u-%u", t, i, i, serial);
      if (cause_len > 0)
        for (gsize k = s->len, end = s->len + cause_len; k < end; k++)
          g_string_append_c (s, 'x');
      g_string_append (s, ") 25M->23M(92M) 1.500ms\n");
    }
  return s;
}

/* GC causes live in the trace's string pool: a hundred GC logs with
 * 1 MiB of distinct causes each, opened and closed, leave RSS where it
 * was (GLib's intern table would keep all 100 MiB). */
static void
test_gclog_strings_die_with_trace (void)
{
  guint64 rss_after_warmup = 0;

  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(GString) text = gclog_text (16, i, 64 * 1024);
      g_autoptr(GBytes) b = g_bytes_new (text->str, text->len);
      g_autofree char *path = save (b, "causes.log");
      g_autoptr(GError) error = NULL;
      TmTrace *t = tm_trace_load (path, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (t->format, ==, "gc-log");
      g_assert_cmpuint (tm_trace_n_gcs (t), ==, 16);
      g_assert_true (g_str_has_prefix (tm_trace_gc (t, 3)->cause, "CAUSE-2-"));
      g_assert_cmpuint (strlen (tm_trace_gc (t, 3)->cause), >, 64 * 1024);
      tm_trace_unref (t);
      g_unlink (path);
      if (i == 4)
        rss_after_warmup = rss_bytes ();
    }
  g_test_message ("GC logs: memory after 5: %" G_GUINT64_FORMAT " KiB, after 100: %" G_GUINT64_FORMAT " KiB",
                  rss_after_warmup >> 10, rss_bytes () >> 10);
  g_assert_cmpuint (rss_bytes (), <, rss_after_warmup + 16 * MIB);
}

/* A GC log with more GCs than the budget holds stops at a line, partial,
 * with the GCs before it and a warning naming the limit. */
static void
test_gclog_budget (void)
{
  g_autoptr(GString) text = gclog_text (200000, 0, 0);
  g_autoptr(GBytes) b = g_bytes_new (text->str, text->len);
  g_autofree char *path = save (b, "many.log");
  TmLoadOptions options = { .memory_limit = 2 * MIB };
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = tm_trace_load_full (path, &options, NULL, NULL, NULL, &error);
  g_autoptr(TmTrace) whole = NULL;

  g_assert_no_error (error);
  g_assert_true (t->memory_limited);
  g_assert_true (t->stopped);
  g_assert_false (t->complete);
  g_assert_cmpuint (t->memory_limit, ==, 2 * MIB);
  g_assert_cmpuint (tm_trace_n_gcs (t), >, 1000);
  g_assert_cmpuint (tm_trace_n_gcs (t), <, 200000);
  g_assert_cmpuint (t->stop_offset, >, 0);
  g_assert_cmpuint (t->stop_offset, <, text->len);
  g_assert_true (has_warning (t, "memory limit of 2.00 MiB"));
  /* the GCs kept are the log's first ones, as read */
  g_assert_cmpuint (tm_trace_gc (t, 1)->end_ns, ==, 100 * G_GUINT64_CONSTANT (1000000));
  whole = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (whole->memory_limited);
  g_assert_cmpuint (tm_trace_n_gcs (whole), ==, 200000);
  g_unlink (path);
}

/* A compressed GC log whose tail is 256 MiB of NUL bytes (a file
 * preallocated by a crash): read up to the damage, the rest cut off after
 * 64 MiB by the progress-per-byte rule instead of being scanned. */
static void
test_gclog_zero_tail (void)
{
  g_autoptr(GString) text = gclog_text (50, 0, 0);
  static const char zeros[4096] = { 0 };
  g_autoptr(GBytes) bomb = zstd_bomb (text->str, text->len, zeros, sizeof zeros, 256 * MIB / sizeof zeros, "", 0);
  g_autofree char *path = save (bomb, "zero-tail.log.zst");
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  g_assert_cmpuint (g_bytes_get_size (bomb), <, 64 * 1024);
  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->format, ==, "gc-log");
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 50);
  g_assert_true (t->stopped);
  g_assert_false (t->complete);
  g_assert_cmpuint (t->stop_offset, ==, text->len);
  g_assert_true (has_warning (t, "64 MiB from byte offset"));
  g_unlink (path);
}

/* An HPROF dump of 400,000 small instances under a 4 MiB budget: the
 * importer stops inside the dump, keeps the objects before the cut as the
 * dump's heap state (without a graph: re-reading it would read it all),
 * and says so. */
static void
test_hprof_budget (void)
{
  HprofW w;
  const guint n = 400000;
  TmLoadOptions options = { .memory_limit = 4 * MIB };
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  hw_begin (&w, 8, TRUE, 1700000000000);
  hw_utf8 (&w, 11, "java/lang/Object");
  hw_load_class (&w, 1, HW_OBJECT, 11);
  hw_heap_begin (&w, 0);
  hw_class_dump (&w, HW_OBJECT, 0, 0, 0, NULL, 0, NULL, 0);
  for (guint i = 0; i < n; i++)
    hw_instance (&w, 0x10000 + 16 * (guint64) i, HW_OBJECT, 0);
  hw_heap_end (&w);
  hw_finish (&w);
  bytes = g_byte_array_free_to_bytes (w.out);
  path = save (bytes, "many.hprof");

  t = tm_trace_load_full (path, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->memory_limited);
  g_assert_true (t->stopped);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  g_assert_false (tm_trace_gc (t, 1)->has_graph);
  g_assert_cmpuint (t->n_objects, >, 1000);
  g_assert_cmpuint (t->n_objects, <, n);
  g_assert_cmpuint (tm_trace_gc (t, 1)->allocs_before, ==, t->n_objects);
  g_assert_true (has_warning (t, "memory limit of 4.00 MiB"));
  g_clear_pointer (&t, tm_trace_unref);
  /* without the limit: every object, and the graph */
  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (t->memory_limited);
  g_assert_cmpuint (t->n_objects, ==, n + 1);   /* and the Class object */
  g_assert_true (tm_trace_gc (t, 1)->has_graph);
  g_unlink (path);
}

/* A compressed GC log padded with 512 MiB of text lines that are no GC
 * event: read up to 256 MiB into the padding, then stopped with a
 * message, instead of reading all of it. */
static void
test_gclog_padding (void)
{
  g_autoptr(GString) text = gclog_text (40, 0, 0);
  g_autoptr(GString) tail = gclog_text (10, 1, 0);
  g_autofree char *line = g_malloc (128 * 1024);
  g_autoptr(GBytes) bomb = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  memset (line, 'a', 128 * 1024 - 1);
  line[128 * 1024 - 1] = '\n';
  bomb = zstd_bomb (text->str, text->len, line, 128 * 1024, 4096, tail->str, tail->len);
  path = save (bomb, "padded.log.zst");
  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->format, ==, "gc-log");
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 40);
  g_assert_true (t->stopped);
  g_assert_cmpuint (t->stop_offset, >, text->len + 256 * MIB);
  g_assert_cmpuint (t->stop_offset, <, text->len + 512 * MIB);
  g_assert_true (has_warning (t, "hold no GC event or heap figure"));
  g_unlink (path);
}

/* G1 region counts whose bytes pass 2^64: saturated, with one warning
 * naming the line, never a wrapped small number. */
static void
test_gclog_overflow (void)
{
  static const char text[] =
    "[0.018s][info][gc,heap] Heap region size: 1M\n"
    "[0.200s][info][gc,start     ] GC(0) Pause Young (G1 Evacuation Pause)\n"
    "[0.207s][info][gc,heap      ] GC(0) Eden regions: 35184372088833->0(8)\n"
    "[0.207s][info][gc,heap      ] GC(0) Survivor regions: 0->2(2)\n"
    "[0.207s][info][gc,heap      ] GC(0) Old regions: 0->11\n"
    "[0.207s][info][gc,heap      ] GC(0) Humongous regions: 0->0\n"
    "[0.207s][info][gc           ] GC(0) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n";
  g_autoptr(GBytes) b = g_bytes_new_static (text, sizeof text - 1);
  g_autofree char *path = save (b, "overflow.log");
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = tm_trace_load (path, NULL, NULL, NULL, &error);
  const TmGc *gc;

  g_assert_no_error (error);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  gc = tm_trace_gc (t, 1);
  /* 2^45 + 1 regions of 1 MiB: past 2^65 bytes, held at the top, not
   * wrapped to 1 MiB */
  g_assert_cmpuint (gc->used_before, >=, G_GUINT64_CONSTANT (1) << 62);
  g_assert_true (has_warning (t, "past 2^64 bytes: saturated"));
  g_assert_true (has_warning (t, "the GC that ends at line 7"));
  g_unlink (path);
}

/* Legacy records that never close, each spanning 40,000 short lines:
 * every one is dropped with a warning at 64 KiB, and the cost stays
 * linear in the file (the bracket depth is counted on each line as it is
 * added, not over the whole record again: that took minutes here). */
static void
test_gclog_long_records (void)
{
  g_autoptr(GString) text = g_string_new (
    "2016-01-01T00:00:00.000+0000: 1.000: [GC (Allocation Failure) [PSYoungGen: 1000K->100K(2000K)] "
    "1000K->100K(4000K), 0.0010000 secs] [Times: user=0.00 sys=0.00, real=0.00 secs]\n");
  g_autoptr(GBytes) b = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  for (guint r = 0; r < 20; r++)
    {
      g_string_append_printf (text, "2016-01-01T00:00:%02u.000+0000: %u.500: [GC (Allocation Failure) [PSYoungGen\n",
                              r + 2, r + 2);
      for (guint i = 0; i < 40000; i++)
        g_string_append (text, "x\n");
      g_string_append (text, "]\n");
    }
  b = g_bytes_new (text->str, text->len);
  path = save (b, "long-records.log");
  t = tm_trace_load (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (t->format, ==, "gc-log");
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  g_assert_cmpuint (tm_trace_gc (t, 1)->used_after, ==, 100 * 1024);
  g_assert_true (has_warning (t, "line 2: record does not end within 65536 bytes"));
  g_unlink (path);
}

static void
test_parse_size (void)
{
  static const struct { const char *text; guint64 bytes; } good[] = {
    { "256M", 256 * MIB }, { "2G", 2048 * MIB }, { "1.5G", 1536 * MIB }, { "2GiB", 2048 * MIB },
    { "300MB", 300 * MIB }, { "4096K", 4 * MIB }, { "1048576", MIB }, { "1t", MIB * 1024 * 1024 },
  };
  static const char *const bad[] = { "", "M", "-1G", "2X", "12 apples", "0", "512K", "1e30G" };
  guint64 v;

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      g_assert_true (tm_parse_size (good[i].text, &v, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (v, ==, good[i].bytes);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_assert_false (tm_parse_size (bad[i], &v, &error));
      g_assert_error (error, TM_ERROR, TM_ERROR_INVALID_ARGUMENT);
    }
  /* the default: half of the memory there is, at least 1 MiB */
  g_assert_cmpuint (tm_memory_limit_default (), >=, MIB);
  g_assert_cmpuint (tm_memory_limit_default (), <=, (guint64) sysconf (_SC_PHYS_PAGES) * (guint64) sysconf (_SC_PAGESIZE) / 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hostile/parse-size", test_parse_size);
  g_test_add_func ("/hostile/alloc-bomb", test_alloc_bomb);
  g_test_add_func ("/hostile/zero-bomb", test_zero_bomb);
  g_test_add_func ("/hostile/padding-bomb", test_padding_bomb);
  g_test_add_func ("/hostile/heaptrack-bomb", test_heaptrack_bomb);
  g_test_add_func ("/hostile/heaptrack-padding", test_heaptrack_padding);
  g_test_add_func ("/hostile/heaptrack-overflow", test_heaptrack_overflow);
  g_test_add_func ("/hostile/strings-die-with-trace", test_strings_die_with_trace);
  g_test_add_func ("/hostile/raw-messages", test_raw_messages);
  g_test_add_func ("/hostile/heaptrack-damaged-zstd", test_heaptrack_damaged_zstd);
  g_test_add_func ("/hostile/gclog-strings-die-with-trace", test_gclog_strings_die_with_trace);
  g_test_add_func ("/hostile/gclog-budget", test_gclog_budget);
  g_test_add_func ("/hostile/gclog-zero-tail", test_gclog_zero_tail);
  g_test_add_func ("/hostile/gclog-padding", test_gclog_padding);
  g_test_add_func ("/hostile/gclog-long-records", test_gclog_long_records);
  g_test_add_func ("/hostile/hprof-budget", test_hprof_budget);
  g_test_add_func ("/hostile/gclog-overflow", test_gclog_overflow);
  return g_test_run ();
}
