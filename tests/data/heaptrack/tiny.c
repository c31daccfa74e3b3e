/* The shortest program that allocates (tests/data/heaptrack/README.md):
 * one block kept, one freed at once. */
#include <stdlib.h>

int
main (void)
{
  void *p = malloc (10);

  free (malloc (20));
  return p == 0;
}
