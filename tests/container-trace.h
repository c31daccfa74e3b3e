/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A hand-built trace of four containers with known leak confidence.
 * Description: DS Box { (Item); }.  GC g (1..5) ends at g seconds and has
 * a graph; window 1..5, so ts = 1 s, te = 5 s.  Roots: four Boxes (16 B)
 * and one Big (1000 B); Items are 100 B.  Box A is allocated at
 * "Registry.<init>()" (site 5), B at "Cache.<init>()" (site 6), C and D
 * at "Other.run()" (site 3).
 *
 *   A (leaky):  holds a1..ag after GC g, never removes one.
 *               staleness 4, 3, 2, 1, 0 s: SC = 2/4 = 0.5
 *   B (cache):  holds two fresh items after each GC (the old pair dies).
 *               8 stints of 1 s and 2 of 0 s: SC = 0.8/4 = 0.2
 *   C:          {c1}, {c1,c2}, {c1}, {c1}, {c1}: one add, one remove: leak-free
 *   D:          {d1} until GC 4, empty at GC 5: leak-free
 *
 * MC and LC follow from the definitions with the reachable totals below
 * (tm_test_container_mc computes MC independently of the library's loop).
 *
 * With operations (CONTAINER_OP), round g happens at g - 0.5 s, before
 * GC g, and each operation's site is a caller (site 4, "Caller.use()"),
 * not the elements' allocation site:
 *   A: ADD a_g (a5 by ADD_OR_GET); never read, never removed.
 *      staleness to te: 4 (clamped to ts), 3.5, 2.5, 1.5, 0.5: SC = 2.4/4 = 0.6
 *   B: REMOVE the old pair, ADD a new one; GET both at g - 0.02 s.
 *      pair 1: 1.5 - max(0.98, 1) = 0.5; pairs 2-4: 0.52; pair 5 (read
 *      just before te): 5 - 4.98 = 0.02.  SC = 2 x 2.08 / 10 / 4 = 0.104;
 *      #ADD 8 (pairs 2-5), #REMOVE 6
 *   C: ADD c1, ADD c2, REMOVE c2 at 2.5: #ADD = #REMOVE = 1: leak-free
 *   D: ADD d1, REMOVE d1 at 4.5: empty at te: leak-free
 *
 * Deep sizes: A 116 B at GC 1, 516 B at GC 5 (+400 B); B 216 B at both.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

enum { BOX_A = 1, BOX_B, BOX_C, BOX_D, BIG };

/* The trace (.tmtrace bytes), with or without its container operations,
 * over n_gcs GCs (5 for the numbers above; with more, A keeps growing by
 * one item per GC, B keeps replacing its pair and reading it, C and D
 * stay as at GC 5). */
GBytes *tm_test_container_trace_bytes (gboolean with_ops, guint n_gcs);
/* Items of a box after GC g; bytes reachable after GC g. */
guint   tm_test_container_items       (guint box, guint g);
double  tm_test_container_total       (guint g);
/* A box's MC over 1..5 by the definition. */
double  tm_test_container_mc          (guint box);

G_END_DECLS
