/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A program that leaks and cleans up at exit, recorded with heaptrack for
 * tests/test-cli-windows.sh (build with -O0 -fno-builtin so that every
 * malloc/free pair stays):
 *   - grow: 400 records of 1008 bytes appended to a list, one per
 *     millisecond (a leak of 403200 bytes over ~0.4 s), with short-lived
 *     200-byte buffers in between;
 *   - teardown: at exit the list is freed, as a tidy program does, so the
 *     heap in use falls to almost nothing in the last moment of the run.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct record {
  struct record *next;
  char payload[1000];
};

static volatile int sink;

static void
pause_ms (long ms)
{
  struct timespec ts = { 0, ms * 1000000L };
  nanosleep (&ts, NULL);
}

int
main (void)
{
  struct record *head = NULL;

  for (int i = 0; i < 400; i++)
    {
      struct record *r = malloc (sizeof *r);
      char *tmp = malloc (200);

      memset (r, i, sizeof *r);
      r->next = head;
      head = r;
      memset (tmp, i, 200);
      sink += tmp[i % 200];
      free (tmp);
      pause_ms (1);
    }
  /* teardown: everything is released on the way out */
  while (head)
    {
      struct record *next = head->next;
      free (head);
      head = next;
    }
  return sink == 42;
}
