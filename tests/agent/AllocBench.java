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

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
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
        System.out.println("AllocBench " + check);
    }
}
