/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: any bytes through the GC log importer (both formats;
 * gzip is detected from the bytes), then the GC summary of what it read.
 * Plain inputs of some sizes are also read gzip-compressed, so that the
 * gzip path sees valid streams of every shape, not only broken ones.
 * Built with clang -fsanitize=fuzzer by tests/fuzz/run-libfuzzer.sh, and
 * with fuzz-gclog-replay.c as a plain test. */
#include <gio/gio.h>
#include <math.h>

#include "tidemark.h"
#include "tm-gclog.h"
#include "tm-gc-summary.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
run (const guint8 *data, gsize size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) t = tm_gclog_import_bytes (data, size, "fuzz", &error);
  guint64 last_end = 0;

  if (t == NULL)
    {
      g_assert (error != NULL);
      return;
    }
  for (guint id = 1; id <= tm_trace_n_gcs (t); id++)
    {
      const TmGc *gc = tm_trace_gc (t, id);
      g_assert (gc->end_ns >= gc->start_ns);
      g_assert (gc->end_ns >= last_end);   /* completion order */
      last_end = gc->end_ns;
    }
  g_assert (t->complete || t->warnings->len > 0 || t->stopped);
  if (tm_trace_n_gcs (t) > 0)
    {
      TmGcSummary g;
      g_assert (tm_gc_summary_compute (t, 1, tm_trace_n_gcs (t), &g, NULL));
      /* unknown (NAN) only when the GCs have no times (a log without time stamps) */
      g_assert (isnan (g.throughput) ? g.start_ns == g.end_ns : (g.throughput >= 0.0 && g.throughput <= 1.0));
      g_assert (g.pauses.p50_ns <= g.pauses.p999_ns && g.pauses.p999_ns <= g.pauses.max_ns);
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  run (data, size);
  if (size > 0 && size < 8192 && size % 4 == 0 && data[0] != 0x1f)
    {
      g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1);
      gsize cap = size + size / 8 + 128, read = 0, written = 0;
      g_autofree guint8 *gz = g_malloc (cap);
      if (g_converter_convert (G_CONVERTER (z), data, size, gz, cap, G_CONVERTER_INPUT_AT_END, &read, &written,
                               NULL) == G_CONVERTER_FINISHED)
        run (gz, written);
    }
  return 0;
}
