// SPDX-License-Identifier: GPL-3.0-or-later
// large stable live set: builds a map of about 60 MB once, then reads it
// and allocates short-lived results; the live data never changes.
// Args: RUN_MS (1500) LIVE_MB (60).
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

public class LiveSet {
    static volatile long sink;

    public static void main(String[] args) {
        long runMs = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        int liveMb = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int n = liveMb * 1024 * 1024 / 600;   // ~600 B per entry with its overhead
        Map<Integer, long[]> data = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            data.put(i, new long[64]);
        }
        Random rnd = new Random(42);
        long end = System.nanoTime() + runMs * 1_000_000L;
        long reads = 0;
        while (System.nanoTime() < end) {
            for (int k = 0; k < 1000; k++) {
                long[] v = data.get(rnd.nextInt(n));
                StringBuilder sb = new StringBuilder(32).append(v.length).append(':').append(k);
                sink += sb.length();
                reads++;
            }
        }
        System.out.println("liveset entries=" + n + " reads=" + reads);
    }
}
