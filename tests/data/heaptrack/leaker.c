/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small program with a known memory behaviour, recorded with heaptrack
 * for tests/test-heaptrack.c (build with -O0 so that the compiler keeps
 * every malloc/free pair):
 *   - leak_record: 300 list nodes of 1008 bytes, never freed (a leak of
 *     302400 bytes that grows at one node per millisecond);
 *   - churn: 6000 blocks of 32..144 bytes kept in a ring of 16 slots;
 *   - temporary: 1500 blocks of 200 bytes freed right away.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct node {
  struct node *next;
  char payload[1000];
};

static void *ring[16];
static volatile int sink;

__attribute__((noinline)) static struct node *
leak_record (struct node *head)
{
  struct node *n = malloc (sizeof *n);
  memset (n, 0, sizeof *n);
  n->next = head;
  return n;
}

__attribute__((noinline)) static void
churn (int i)
{
  int slot = i % 16;
  free (ring[slot]);
  ring[slot] = malloc (32 + (i % 8) * 16);
  memset (ring[slot], 1, 32);
}

__attribute__((noinline)) static void
temporary (int i)
{
  char *t = malloc (200);
  t[0] = (char) i;
  sink += t[0];
  free (t);
}

int
main (void)
{
  struct node *head = NULL;
  struct timespec ts = { 0, 1000000 };

  for (int ms = 0; ms < 300; ms++)
    {
      head = leak_record (head);
      for (int k = 0; k < 20; k++)
        churn (ms * 20 + k);
      for (int k = 0; k < 5; k++)
        temporary (k);
      nanosleep (&ts, NULL);
    }
  for (int i = 0; i < 16; i++)
    free (ring[i]);
  return head != NULL ? 0 : 1;
}
