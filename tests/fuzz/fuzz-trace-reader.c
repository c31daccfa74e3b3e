/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: any bytes through the trace reader, the model builder
 * and the graph reader.  Built with clang -fsanitize=fuzzer by
 * tests/fuzz/run-libfuzzer.sh, and with fuzz-replay.c as a plain test
 * that replays the seed corpus plus deterministic mutations. */
#include "tidemark.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GError) error = NULL;
  TmLoadOptions options = { .memory_limit = TM_FUZZ_MEMORY_LIMIT };
  g_autoptr(TmTrace) trace = tm_trace_load_bytes_full (bytes, "fuzz", &options, NULL, &error);

  if (trace == NULL)
    {
      g_assert (error != NULL);
      return 0;
    }
  tm_fuzz_check_trace (trace);
  return 0;
}
