// SPDX-License-Identifier: GPL-3.0-or-later
//
// Allocation-heavy workload for tests/bench/bench-agent.sh: short-lived
// boxes, strings, lists and maps, as a typical program makes them.
// Argument: rounds (default 40).

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class AllocBench {
    static volatile Object sink;

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        if (threads == 1) {
            System.out.println("AllocBench " + work(rounds));
            return;
        }
        long[] checks = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int k = t;
            final int mine = rounds / threads + (t < rounds % threads ? 1 : 0);
            workers[t] = new Thread(() -> checks[k] = work(mine), "alloc-" + t);
            workers[t].start();
        }
        long check = 0;
        for (int t = 0; t < threads; t++) {
            workers[t].join();
            check += checks[t];
        }
        System.out.println("AllocBench " + check);
    }

    static long work(int rounds) {
        long check = 0;
        for (int r = 0; r < rounds; r++) {
            List<Integer> list = new ArrayList<>();
            Map<String, Integer> map = new HashMap<>();
            for (int i = 0; i < 20000; i++) {
                Integer box = 1000 + i * 7;
                list.add(box);
                String key = "k" + (i % 5000);
                map.merge(key, box, Integer::sum);
            }
            for (Integer v : list) {
                check += v;
            }
            check += map.size();
            sink = list;
        }
        return check;
    }
}
