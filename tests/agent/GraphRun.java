// SPDX-License-Identifier: GPL-3.0-or-later
//
// A fixed amount of work for test-agent's graph count: ROUNDS (first
// argument) rounds of computing over a live set of RING small arrays,
// replacing some of them, and allocating short-lived garbage, with one
// System.gc() (a whole-heap collection) half way.  The run
// lasts as long as the work takes, so a loaded machine stretches the
// program and its heap walks alike.

public final class GraphRun {
    static final int RING = 5000;
    static final int[][] ring = new int[RING][];
    static volatile Object junk;
    static volatile long result;

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        for (int i = 0; i < RING; i++) {
            ring[i] = new int[64];
        }
        long sum = 0;
        int next = 0;
        for (int r = 0; r < rounds; r++) {
            if (r == rounds / 2) {
                System.gc();
            }
            for (int pass = 0; pass < 60; pass++) {
                for (int[] a : ring) {
                    for (int k = 0; k < a.length; k++) {
                        sum += a[k] ^ (k + pass);
                        a[k] += (int) sum;
                    }
                }
            }
            for (int i = 0; i < 250; i++) {
                ring[next] = new int[64];
                next = (next + 1) % RING;
            }
            for (int i = 0; i < 4000; i++) {
                junk = new int[256];
            }
        }
        result = sum;
        System.out.println("GraphRun " + rounds);
    }
}
