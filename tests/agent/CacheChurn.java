// SPDX-License-Identifier: GPL-3.0-or-later
//
// A real-run program for test-agent: an LRU cache made the usual way (an
// anonymous LinkedHashMap subclass overriding removeEldestEntry), a slow
// leak into a list, and churn, with one System.gc() half way.  Runs for
// SECONDS (first argument) and prints the longest gap between two steps
// of its loop (a stall of the program, the System.gc() aside), in ms.

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class CacheChurn {
    static final int CACHE = 4000;
    static final Map<Integer, byte[]> LRU = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, byte[]> eldest) {
            return size() > CACHE;
        }
    };
    static final List<long[]> LEAK = new ArrayList<>();
    static volatile Object junk;

    public static void main(String[] args) {
        long seconds = (long) (Double.parseDouble(args[0]) * 1e9);
        long start = System.nanoTime(), last = start, maxGap = 0;
        int i = 0;
        boolean collected = false;

        for (long now = start; now - start < seconds; now = System.nanoTime()) {
            maxGap = Math.max(maxGap, now - last);
            last = now;
            if (!collected && now - start > seconds / 2) {
                // a whole-heap collection (a concurrent cycle with G1 and
                // -XX:+ExplicitGCInvokesConcurrent)
                collected = true;
                System.gc();
                last = System.nanoTime();
            }
            for (int k = 0; k < 50; k++) {
                LRU.put(i++, new byte[256]);
                junk = new Object[8];
            }
            if (i % 5000 == 0) {
                LEAK.add(new long[32]);
            }
        }
        System.out.println("CacheChurn " + LRU.size() + " " + LEAK.size() + " maxgap_ms " + maxGap / 1000000);
    }
}
