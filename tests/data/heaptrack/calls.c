/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A program with known call stacks, recorded with heaptrack for
 * tests/test-calltree.c (build with -O0 -fno-builtin so that every call
 * and every malloc/free pair stays):
 *   main > hot > inner > leaf      1000 x 64 B, each freed right away (temporary)
 *   main > keeper > leaf            500 x 32 B, freed at the end
 *   main > leaker > leaf            200 x 100 B, never freed (20000 B leaked)
 *   main > rec x5 > leaf             50 x 16 B, freed at the end (recursion)
 *   main > peak_phase             1 x 100000 B, freed at the end (the peak)
 *   main > direct                 300 x 48 B, each freed right away (temporary)
 *   main > quiet_leaker            10 x 1000 B, never freed but suppressed
 *                                  (leak:quiet_leaker, embedded for heaptrack)
 */
#include <stdlib.h>
#include <string.h>

static void *kept[1024];
static int n_kept;

__attribute__((noinline)) static void *
leaf (size_t n)
{
  void *p = malloc (n);
  memset (p, 1, n);
  return p;
}

__attribute__((noinline)) static void
inner (void)
{
  free (leaf (64));
}

__attribute__((noinline)) static void
hot (void)
{
  for (int i = 0; i < 1000; i++)
    inner ();
}

__attribute__((noinline)) static void
keeper (void)
{
  for (int i = 0; i < 500; i++)
    kept[n_kept++] = leaf (32);
}

__attribute__((noinline)) static void
leaker (void)
{
  for (int i = 0; i < 200; i++)
    leaf (100);
}

__attribute__((noinline)) static void
rec (int depth)
{
  if (depth > 1)
    rec (depth - 1);
  else
    for (int i = 0; i < 50; i++)
      kept[n_kept++] = leaf (16);
}

__attribute__((noinline)) static void
peak_phase (void)
{
  kept[n_kept++] = malloc (100000);
}

__attribute__((noinline)) static void
direct (void)
{
  for (int i = 0; i < 300; i++)
    {
      char *t = malloc (48);
      t[0] = (char) i;
      free (t);
    }
}

__attribute__((noinline)) static void
quiet_leaker (void)
{
  for (int i = 0; i < 10; i++)
    memset (malloc (1000), 0, 1000);
}

/* heaptrack copies these LSan suppressions into its data file */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:quiet_leaker\n";
}

int
main (void)
{
  hot ();
  keeper ();
  leaker ();
  rec (5);
  peak_phase ();
  direct ();
  quiet_leaker ();
  for (int i = 0; i < n_kept; i++)
    free (kept[i]);
  return 0;
}
