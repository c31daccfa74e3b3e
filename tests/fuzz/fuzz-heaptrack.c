/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: any bytes as a heaptrack file (plain, zstd or gzip:
 * the importer decides from the content), imported under a 256 MiB memory
 * budget, then the model checked for the invariants analyses rely on.
 * The importer reads files, so the bytes go to a memfd. */
#define _GNU_SOURCE
#include "tidemark.h"
#include "tm-heaptrack.h"
#include "fuzz-common.h"

#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  TmLoadOptions options = { .memory_limit = TM_FUZZ_MEMORY_LIMIT };
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTrace) trace = NULL;
  g_autofree char *path = NULL;
  int fd = memfd_create ("fuzz-heaptrack", MFD_CLOEXEC);

  g_assert (fd >= 0);
  g_assert (size == 0 || write (fd, data, size) == (ssize_t) size);
  path = g_strdup_printf ("/proc/self/fd/%d", fd);
  if (tm_heaptrack_sniff (data, size))
    trace = tm_heaptrack_import_full (path, &options, NULL, NULL, NULL, &error);
  else
    trace = tm_trace_load_full (path, &options, NULL, NULL, NULL, &error);
  close (fd);
  if (trace == NULL)
    {
      g_assert (error != NULL);
      return 0;
    }
  tm_fuzz_check_trace (trace);
  return 0;
}
