/* A churn burst (tests/data/heaptrack/README.md): 64 blocks of 1 KiB live
 * throughout; one 128-byte malloc/free pair per millisecond for 0.6 s,
 * then 2000 malloc/free pairs of 512 bytes per millisecond for 0.3 s (the
 * burst: hundreds of MiB/s freed while the heap in use stays flat), then
 * one pair per millisecond again until 1.5 s.  Nothing leaks.
 *
 *   gcc -O0 -fno-builtin -g -o churnburst churnburst.c
 *   heaptrack -o churnburst ./churnburst
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static char *live[64];

static double
now_s (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void
quiet (void)
{
  char *p = malloc (128);
  p[0] = 1;
  free (p);
}

static void
heavy (void)
{
  for (int j = 0; j < 2000; j++)
    {
      char *p = malloc (512);
      p[0] = 1;
      free (p);
    }
}

int
main (void)
{
  double t0;

  for (int i = 0; i < 64; i++)
    live[i] = malloc (1024);
  t0 = now_s ();
  while (now_s () - t0 < 0.6) { quiet (); usleep (1000); }
  while (now_s () - t0 < 0.9) { heavy (); usleep (1000); }
  while (now_s () - t0 < 1.5) { quiet (); usleep (1000); }
  for (int i = 0; i < 64; i++)
    free (live[i]);
  return 0;
}
