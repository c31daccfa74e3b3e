/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A program whose allocations come in five bursts 300 ms apart, for the
 * charts over time of heaptrack recordings (tests/test-cli-native-charts.sh):
 * burst k (1..5) makes 400 k temporary allocations (64 bytes, freed right
 * away) and keeps 100 k blocks of 128 bytes, so it allocates 500 k blocks;
 * burst 3 also keeps one block of 16 MiB (one allocation more) that it
 * writes to, so the resident memory grows by at least 16 MiB.  Nothing is
 * freed at exit.  Build with -O0 -fno-builtin so every malloc/free pair stays.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BIG (16u << 20)

static void *volatile sink;

__attribute__((noinline)) static void
temporary (void)
{
  void *p = malloc (64);
  sink = p;
  free (p);
}

__attribute__((noinline)) static void
keep (void)
{
  sink = malloc (128);
}

__attribute__((noinline)) static void
big (void)
{
  char *p = malloc (BIG);
  memset (p, 1, BIG);
  sink = p;
}

static void
pause_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
  nanosleep (&ts, NULL);
}

int
main (void)
{
  pause_ms (300);
  for (int k = 1; k <= 5; k++)
    {
      for (int i = 0; i < 400 * k; i++)
        temporary ();
      for (int i = 0; i < 100 * k; i++)
        keep ();
      if (k == 3)
        big ();
      pause_ms (300);
    }
  return 0;
}
