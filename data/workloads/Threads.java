// SPDX-License-Identifier: GPL-3.0-or-later
// many threads: 32 threads, each with a small working set of its own that
// it keeps replacing, allocating concurrently.  Args: RUN_MS (1500) THREADS (32).
import java.util.ArrayDeque;

public class Threads {
    static volatile long sink;

    public static void main(String[] args) throws InterruptedException {
        long runMs = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        int nThreads = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        final long end = System.nanoTime() + runMs * 1_000_000L;
        Thread[] ts = new Thread[nThreads];
        for (int t = 0; t < nThreads; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                ArrayDeque<char[]> window = new ArrayDeque<>();
                long local = 0;
                while (System.nanoTime() < end) {
                    for (int k = 0; k < 200; k++) {
                        char[] c = new char[32 + ((k * 7 + id) & 255)];
                        window.addLast(c);
                        if (window.size() > 2000) {
                            window.removeFirst();
                        }
                        local += c.length;
                    }
                }
                sink += local;
            }, "worker-" + t);
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        System.out.println("threads=" + nThreads);
    }
}
