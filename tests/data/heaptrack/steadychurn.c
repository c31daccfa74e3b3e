/* Steady churn (tests/data/heaptrack/README.md): a ring of 64 live blocks,
 * 200 of them replaced (free, then malloc of 64 to 4063 bytes) per
 * millisecond for 1 s, then all freed.  The program frees hundreds of MiB/s
 * at one rate from start to end: no window stands out, nothing leaks.
 *
 *   gcc -O0 -fno-builtin -g -o steadychurn steadychurn.c
 *   heaptrack -o steadychurn ./steadychurn
 */
#include <stdlib.h>
#include <unistd.h>

static char *ring[64];

static void
replace (int i)
{
  free (ring[i % 64]);
  ring[i % 64] = malloc (64 + (i * 37) % 4000);
  ring[i % 64][0] = 1;
}

int
main (void)
{
  for (int k = 0; k < 1000; k++)
    {
      for (int j = 0; j < 200; j++)
        replace (k * 200 + j);
      usleep (1000);
    }
  for (int i = 0; i < 64; i++)
    free (ring[i]);
  return 0;
}
