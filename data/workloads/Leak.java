// SPDX-License-Identifier: GPL-3.0-or-later
// leak: a listener registry that is never cleaned up grows by about
// 10 MB/s while the program churns short-lived objects.
// Args: RUN_MS (1500) LEAK_MB_PER_S (10).
import java.util.ArrayList;
import java.util.List;

public class Leak {
    static volatile long sink;
    static final List<Object> registry = new ArrayList<>();

    public static void main(String[] args) {
        long runMs = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        long leakPerMs = (args.length > 1 ? Long.parseLong(args[1]) : 10) * 1024 * 1024 / 1000;
        long start = System.nanoTime();
        long end = start + runMs * 1_000_000L;
        long leaked = 0;
        long now;
        while ((now = System.nanoTime()) < end) {
            for (int k = 0; k < 1000; k++) {
                sink += new byte[64 + (k & 511)].length;
            }
            if (leaked < leakPerMs * ((now - start) / 1_000_000L + 1)) {
                registry.add(new byte[2048]);
                leaked += 2048;
            }
        }
        System.out.println("leaked=" + leaked / (1024 * 1024) + "MB");
    }
}
