// SPDX-License-Identifier: GPL-3.0-or-later
// cache-heavy: an LRU cache of 1 KiB values under a skewed key stream;
// misses insert and evict, so values live for a medium time and many
// are promoted before they die.  Args: RUN_MS (1500) ENTRIES (20000).
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

public class Cache {
    static volatile long sink;

    public static void main(String[] args) {
        long runMs = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        final int entries = args.length > 1 ? Integer.parseInt(args[1]) : 20000;
        Map<Integer, byte[]> cache = new LinkedHashMap<>(entries * 2, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, byte[]> e) {
                return size() > entries;
            }
        };
        Random rnd = new Random(42);
        long end = System.nanoTime() + runMs * 1_000_000L;
        long hits = 0, misses = 0;
        while (System.nanoTime() < end) {
            for (int k = 0; k < 1000; k++) {
                // skewed: most requests to a hot set, some to a long tail
                int key = rnd.nextInt(10) < 7 ? rnd.nextInt(entries / 2) : rnd.nextInt(entries * 4);
                byte[] v = cache.get(key);
                if (v == null) {
                    v = new byte[1024];
                    v[0] = (byte) key;
                    cache.put(key, v);
                    misses++;
                } else {
                    hits++;
                }
                sink += v[0];
            }
        }
        System.out.println("cache hits=" + hits + " misses=" + misses);
    }
}
