/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * heaptrack importer against recordings of tests/data/heaptrack/leaker.c
 * (a program with a known leak, churn and temporary allocations; see the
 * README there).  The known answers are what heaptrack_print 1.4 printed
 * for the same file (kept in leaker.heaptrack_print.txt):
 *
 *   calls to allocation functions: 7801
 *   temporary memory allocations: 1501
 *   peak heap memory consumption: 376.71K
 *   total memory leaked: 302.40K
 *   per site: churn 6000 calls, temporary 1500, leak_record 300 calls
 *   with 302.40K
 *
 * heaptrack prints bytes in SI units with two decimals; the test formats
 * the importer's exact numbers the same way and compares the text.
 */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <zstd.h>

#include "tm-heaptrack.h"
#include "tm-heaptrack-profile.h"
#include "tm-error.h"
#include "heaptrack-test-util.h"

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "heaptrack", name, NULL);
}

static guint64
meta_u64 (const TmTrace *t, const char *key)
{
  const char *v = g_hash_table_lookup (t->meta, key);
  g_assert_nonnull (v);
  return g_ascii_strtoull (v, NULL, 10);
}

typedef struct {
  guint64 objects, alive, alive_bytes, bytes;
} SiteSum;

static SiteSum
site_sum (const TmTrace *t, const char *method)
{
  SiteSum s = { 0 };

  for (guint64 i = 0; i < t->n_objects; i++)
    {
      const TmSite *site = tm_trace_site (t, t->obj_site[i]);
      if (site->depth == 0 || !g_str_equal (tm_trace_frame (t, site->frames[0])->method, method))
        continue;
      s.objects++;
      s.bytes += tm_trace_object_size (t, i);
      if (t->obj_death[i] == TM_ALIVE)
        {
          s.alive++;
          s.alive_bytes += tm_trace_object_size (t, i);
        }
    }
  /* the objects freed before the next time point: counters, not rows */
  for (guint e = 0; e < t->short_lived->len; e++)
    {
      const TmShortLived *sl = &g_array_index (t->short_lived, TmShortLived, e);
      const TmSite *site = tm_trace_site (t, sl->site);
      if (site->depth == 0 || !g_str_equal (tm_trace_frame (t, site->frames[0])->method, method))
        continue;
      s.objects += sl->count;
      s.bytes += sl->bytes;
    }
  return s;
}

static void
check_leaker (const TmTrace *t)
{
  g_autofree char *peak = si_bytes (meta_u64 (t, "heaptrack.peak_bytes"));
  g_autofree char *leaked = si_bytes (meta_u64 (t, "heaptrack.leaked_bytes"));
  const TmGc *last;
  SiteSum leak, churn, temp;

  g_assert_cmpstr (t->format, ==, "heaptrack");
  g_assert_true (t->complete);
  g_assert_cmpuint (t->warnings->len, ==, 0);

  /* heaptrack_print's totals */
  g_assert_cmpuint (meta_u64 (t, "heaptrack.allocations"), ==, 7801);
  g_assert_cmpuint (meta_u64 (t, "heaptrack.temporary"), ==, 1501);
  g_assert_cmpstr (peak, ==, "376.71K");
  g_assert_cmpstr (leaked, ==, "302.40K");

  /* the object model agrees with them */
  g_assert_cmpuint (t->total_allocs, ==, 7801);
  /* rows only for what lived past a time point: the 300 leaked nodes and
   * the churn ring's blocks that span one */
  g_assert_cmpuint (t->n_objects, >=, 300);
  g_assert_cmpuint (t->n_objects, <, 7801 / 4);
  g_assert_cmpuint (t->peak_used_bytes, ==, meta_u64 (t, "heaptrack.peak_bytes"));
  last = tm_trace_gc (t, tm_trace_n_gcs (t));
  g_assert_cmpuint (last->used_after, ==, meta_u64 (t, "heaptrack.leaked_bytes"));
  g_assert_cmpuint (last->live_bytes, ==, meta_u64 (t, "heaptrack.leaked_bytes"));

  /* the program's own facts (leaker.c): 300 nodes of 1008 bytes leak */
  leak = site_sum (t, "leak_record");
  churn = site_sum (t, "churn");
  temp = site_sum (t, "temporary");
  g_assert_cmpuint (leak.objects, ==, 300);
  g_assert_cmpuint (leak.alive, ==, 300);
  g_assert_cmpuint (leak.alive_bytes, ==, 300 * 1008);
  g_assert_cmpuint (churn.objects, ==, 6000);
  g_assert_cmpuint (churn.alive, ==, 0);
  g_assert_cmpuint (temp.objects, ==, 1500);
  g_assert_cmpuint (temp.bytes, ==, 1500 * 200);
  g_assert_cmpuint (temp.alive, ==, 0);

  /* sites carry the call stack: leak_record called from main */
  for (guint64 i = 0; i < t->n_objects; i++)
    {
      const TmSite *site = tm_trace_site (t, t->obj_site[i]);
      if (site->depth > 0 && g_str_equal (tm_trace_frame (t, site->frames[0])->method, "leak_record"))
        {
          const TmFrame *f = tm_trace_frame (t, site->frames[0]);
          g_assert_cmpuint (site->depth, ==, 2);
          g_assert_true (g_str_has_suffix (f->file, "leaker.c"));
          g_assert_cmpint (f->line, ==, 26);
          g_assert_cmpstr (tm_trace_frame (t, site->frames[1])->method, ==, "main");
          break;
        }
    }

  /* the timeline: about one point per 10 ms of the 0.6 s run, the leak
   * grows the heap after every point */
  g_assert_cmpuint (tm_trace_n_gcs (t), >=, 20);
  g_assert_cmpuint (tm_trace_n_gcs (t), <=, 70);
  for (guint i = 2; i <= tm_trace_n_gcs (t); i++)
    {
      const TmGc *a = tm_trace_gc (t, i - 1), *b = tm_trace_gc (t, i);
      g_assert_cmpuint (b->start_ns, >=, a->start_ns);
      g_assert_cmpuint (b->used_before, >=, b->used_after);
      g_assert_cmpuint (b->used_before, <=, t->peak_used_bytes);
    }
  g_assert_cmpuint (tm_trace_gc (t, tm_trace_n_gcs (t) - 1)->used_after, >, tm_trace_gc (t, 2)->used_after);
  g_assert_cmpuint (t->duration_ns / 1000000, ==, meta_u64 (t, "heaptrack.total_time_ms") - 1);
}

static TmTrace *
import_ok (const char *path)
{
  g_autoptr(GError) error = NULL;
  TmTrace *t = tm_heaptrack_import (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static void
test_zstd (void)
{
  g_autofree char *path = data_path ("leaker.zst");
  g_autoptr(TmTrace) t = import_ok (path);
  check_leaker (t);
}

static void
test_gzip (void)
{
  g_autofree char *path = data_path ("leaker.gz");
  g_autoptr(TmTrace) t = import_ok (path);
  check_leaker (t);
}

/* The uncompressed text of the recording (from the gzip copy). */
static char *
plain_text (gsize *len)
{
  g_autofree char *path = data_path ("leaker.gz");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, &error));
  g_autoptr(GZlibDecompressor) dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_no_error (error);
  in = g_converter_input_stream_new (raw, G_CONVERTER (dec));
  g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write_all (out, "", 1, NULL, NULL, NULL);
  g_output_stream_close (out, NULL, NULL);
  *len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)) - 1;
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static char *
write_temp (const char *contents, gsize len)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("tm-heaptrack-XXXXXX", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, contents, (gssize) len, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_plain (void)
{
  gsize len;
  g_autofree char *text = plain_text (&len);
  g_autofree char *path = write_temp (text, len);
  g_autoptr(TmTrace) t = import_ok (path);

  check_leaker (t);
  g_unlink (path);
}

/* Malformed lines are reported with their line number and skipped. */
static void
test_malformed (void)
{
  gsize len;
  g_autofree char *text = plain_text (&len);
  GString *s = g_string_new (NULL);
  const char *line = text;
  guint n = 0;
  g_autofree char *path = NULL;
  g_autoptr(TmTrace) t = NULL;
  gboolean l41 = FALSE, l42 = FALSE, l43 = FALSE;

  /* after line 40, insert three bad lines (41, 42, 43) */
  while (*line)
    {
      const char *nl = strchr (line, '\n');
      g_string_append_len (s, line, nl - line + 1);
      if (++n == 40)
        g_string_append (s, "+ zz\nQ what\n- fffffff\n");
      line = nl + 1;
    }
  path = write_temp (s->str, s->len);
  g_string_free (s, TRUE);
  t = import_ok (path);
  g_assert_false (t->complete);
  g_assert_cmpuint (meta_u64 (t, "heaptrack.allocations"), ==, 7801);
  g_assert_cmpuint (t->total_allocs, ==, 7801);
  for (guint i = 0; i < t->warnings->len; i++)
    {
      const char *m = g_array_index (t->warnings, TmWarning, i).message;
      g_assert_true (g_str_has_prefix (m, path));
      l41 |= strstr (m, "line 41:") != NULL;
      l42 |= strstr (m, "line 42:") != NULL;
      l43 |= strstr (m, "line 43:") != NULL;
    }
  g_assert_true (l41 && l42 && l43);
  g_unlink (path);
}

/* Files cut anywhere: never a crash; what was read is kept and the trace
 * says it is incomplete. */
static void
test_cut (void)
{
  static const char *const files[] = { "leaker.zst", "leaker.gz" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = data_path (files[f]);
      g_autofree char *contents = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      for (gsize cut = 0; cut < len; cut += 53)
        {
          g_autofree char *tmp = write_temp (contents, cut);
          g_autoptr(GError) error = NULL;
          g_autoptr(TmTrace) t = tm_heaptrack_import (tmp, NULL, NULL, NULL, &error);

          if (t == NULL)
            g_assert_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE);
          else
            {
              g_assert_false (t->complete);
              g_assert_cmpuint (t->warnings->len, >, 0);
              g_assert_cmpuint (t->total_allocs, <=, 7801);
            }
          g_unlink (tmp);
        }
      /* and damaged in the middle */
      if (len > 400)
        {
          g_autofree char *tmp = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(TmTrace) t = NULL;
          memset (contents + len / 2, 0x5a, 64);
          tmp = write_temp (contents, len);
          t = tm_heaptrack_import (tmp, NULL, NULL, NULL, &error);
          if (t == NULL)   /* damaged before the first line came out */
            g_assert_error (error, TM_ERROR, TM_ERROR_FORMAT);
          else
            g_assert_false (t->complete);
          g_unlink (tmp);
        }
    }
}

static void
test_sniff (void)
{
  static const char *const files[] = { "leaker.zst", "leaker.gz" };
  static const char tm_raw[] = "TMTRACE1\x01\x05";
  static const char gclog[] = "[0.010s][info][gc] Using G1\n";
  guint8 tm_zst[256];
  size_t zn;

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = data_path (files[f]);
      g_autofree char *contents = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      /* the whole small file fits in the loader's 4 KiB head; a gzip
       * stream decodes from its first few hundred bytes (a zstd block only
       * once it is complete) */
      g_assert_true (tm_heaptrack_sniff ((const guint8 *) contents, MIN (len, 4096)));
      if (g_str_has_suffix (files[f], ".gz"))
        g_assert_true (tm_heaptrack_sniff ((const guint8 *) contents, MIN (len, 512)));
    }
  g_assert_true (tm_heaptrack_sniff ((const guint8 *) "v 10400 3\nX ./a\n", 16));
  g_assert_false (tm_heaptrack_sniff ((const guint8 *) gclog, sizeof gclog - 1));
  g_assert_false (tm_heaptrack_sniff ((const guint8 *) tm_raw, sizeof tm_raw - 1));
  /* a zstd-compressed Tidemark trace is not a heaptrack file */
  zn = ZSTD_compress (tm_zst, sizeof tm_zst, tm_raw, sizeof tm_raw - 1, 3);
  g_assert_false (ZSTD_isError (zn));
  g_assert_false (tm_heaptrack_sniff (tm_zst, zn));
  g_assert_false (tm_heaptrack_sniff ((const guint8 *) "", 0));
}

/* heaptrack 1.0 (pointer-based format 0) and future formats: a clear no */
static void
test_versions (void)
{
  static const char *const heads[] = { "v 10000\nX ./a\n+ 10 1 7f00\n", "v 10600 4\nX ./a\n" };

  for (guint i = 0; i < G_N_ELEMENTS (heads); i++)
    {
      g_autofree char *path = write_temp (heads[i], strlen (heads[i]));
      g_autoptr(GError) error = NULL;
      TmTrace *t = tm_heaptrack_import (path, NULL, NULL, NULL, &error);

      g_assert_null (t);
      g_assert_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED);
      g_unlink (path);
    }
}

/* heaptrack --raw output (tests/data/heaptrack/tiny.raw.zst): not an
 * interpreted file of damaged lines and no allocations, but refused with
 * the command that interprets it, by the import and by the call-stack
 * reader alike.  Its second line is the executable's "x" record. */
static void
test_raw (void)
{
  g_autofree char *path = data_path ("tiny.raw.zst");
  g_autoptr(GError) error = NULL, perror = NULL;
  TmTrace *t = tm_heaptrack_import (path, NULL, NULL, NULL, &error);
  TmHeaptrackProfile *prof;

  g_assert_null (t);
  g_assert_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "tiny.raw.zst: line 2 (byte 10): heaptrack's raw data"));
  g_assert_nonnull (strstr (error->message, "heaptrack_interpret"));
  prof = tm_heaptrack_profile_read (path, NULL, NULL, NULL, &perror);
  g_assert_null (prof);
  g_assert_error (perror, TM_ERROR, TM_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (perror->message, "line 2 (byte 10)"));
}

static guint64
short_lived_count (const TmTrace *t, guint32 b)
{
  gsize n;
  const TmShortLived *sl = tm_trace_short_lived (t, b, &n);
  guint64 count = 0;

  for (gsize i = 0; i < n; i++)
    count += sl[i].count;
  return count;
}

/* An interval of more allocations than the importer keeps as scratch
 * (2^20): it goes on in rows, with the frees the scratch had seen, and
 * the model is the one of any other interval.  Interval 0: 700 K times
 * two blocks of 16 bytes and a free (of the newer one, the newest of its
 * info), then the point at 64 ms; interval 1: the newest 100 K survivors
 * freed, 10 new blocks and the newest 5 of them freed before the point
 * at 128 ms. */
static void
test_long_interval (void)
{
  const guint64 pairs = 700000, n = 2 * pairs, later = 100000;
  g_autoptr(GString) s = g_string_new ("v 10700 3\nX ./long\ns 4 main\ni 1000 0 1\nt 1 0\na 10 1\nc 1\n");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = NULL;

  for (guint64 i = 0; i < pairs; i++)
    g_string_append (s, "+ 0\n+ 0\n- 0\n");
  g_string_append (s, "c 40\n");
  for (guint64 i = 0; i < later; i++)
    g_string_append (s, "- 0\n");
  for (guint i = 0; i < 10; i++)
    g_string_append (s, "+ 0\n");
  for (guint i = 0; i < 5; i++)
    g_string_append (s, "- 0\n");
  g_string_append (s, "c 80\n");
  path = write_temp (s->str, s->len);
  t = tm_heaptrack_import (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (t->complete);
  g_assert_cmpuint (t->warnings->len, ==, 0);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 2);
  g_assert_cmpuint (t->total_allocs, ==, n + 10);
  g_assert_cmpuint (meta_u64 (t, "heaptrack.allocations"), ==, n + 10);
  g_assert_cmpuint (t->total_deaths, ==, pairs + later + 5);
  /* freed before their first point: counters; the rest rows */
  g_assert_cmpuint (short_lived_count (t, 0), ==, pairs);
  g_assert_cmpuint (short_lived_count (t, 1), ==, 5);
  g_assert_cmpuint (t->n_objects, ==, pairs + 5);
  g_assert_cmpuint (tm_trace_gc (t, 1)->live_objects, ==, pairs);
  g_assert_cmpuint (tm_trace_gc (t, 1)->live_bytes, ==, pairs * 16);
  g_assert_cmpuint (tm_trace_gc (t, 2)->live_objects, ==, pairs - later + 5);
  /* the first block of every pair has a row; the newest 100 K of them
   * die at the second point */
  for (guint64 i = 0; i < t->n_objects; i++)
    {
      guint64 id = tm_trace_object_id (t, i);
      g_assert_cmpuint (tm_trace_object_size (t, i), ==, 16);
      if (id > n)
        {
          g_assert_cmpuint (id, <=, n + 5);
          g_assert_cmpuint (t->obj_death[i], ==, TM_ALIVE);
          continue;
        }
      g_assert_cmpuint (id % 2, ==, 1);
      g_assert_cmpuint (t->obj_death[i], ==, id <= 2 * (pairs - later) ? TM_ALIVE : 2);
    }
  g_unlink (path);
}

static void
on_progress (double fraction, gpointer data)
{
  g_assert_cmpfloat (fraction, >=, 0.0);
  g_assert_cmpfloat (fraction, <=, 1.0);
  g_cancellable_cancel (data);
}

static void
test_cancel (void)
{
  g_autofree char *path = data_path ("leaker.zst");
  g_autoptr(GCancellable) c = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  TmTrace *t = tm_heaptrack_import (path, on_progress, c, c, &error);

  g_assert_null (t);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/heaptrack/zstd", test_zstd);
  g_test_add_func ("/heaptrack/gzip", test_gzip);
  g_test_add_func ("/heaptrack/plain", test_plain);
  g_test_add_func ("/heaptrack/malformed", test_malformed);
  g_test_add_func ("/heaptrack/cut", test_cut);
  g_test_add_func ("/heaptrack/sniff", test_sniff);
  g_test_add_func ("/heaptrack/versions", test_versions);
  g_test_add_func ("/heaptrack/raw", test_raw);
  g_test_add_func ("/heaptrack/cancel", test_cancel);
  g_test_add_func ("/heaptrack/long-interval", test_long_interval);
  return g_test_run ();
}
