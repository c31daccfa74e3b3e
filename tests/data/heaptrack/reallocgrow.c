/* A leak into one growing buffer (tests/data/heaptrack/README.md): a log
 * that is never trimmed, grown with realloc by 1000 bytes per millisecond
 * for 1.5 s (to 1.5 MB), beside 16 blocks of 4 KiB that live throughout
 * and a 300-byte temporary block per millisecond.  heaptrack records each
 * realloc as a free and a new block, so the buffer is always young while
 * the number of blocks in use stays the same.
 *
 *   gcc -O0 -fno-builtin -g -o reallocgrow reallocgrow.c
 *   heaptrack -o reallocgrow ./reallocgrow
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *fixed[16];
static char *log_buf;
static size_t log_len;

static void
log_append (int i)
{
  log_buf = realloc (log_buf, log_len + 1000);
  memset (log_buf + log_len, 'a' + i % 26, 1000);
  log_len += 1000;
}

static void
scratch (void)
{
  char *p = malloc (300);
  p[0] = 1;
  free (p);
}

int
main (void)
{
  for (int i = 0; i < 16; i++)
    fixed[i] = calloc (1, 4096);
  for (int i = 0; i < 1500; i++)
    {
      log_append (i);
      scratch ();
      usleep (1000);
    }
  return log_buf[0] == 0;
}
