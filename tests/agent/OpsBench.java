// SPDX-License-Identifier: GPL-3.0-or-later
//
// Collection operations and nothing else, the worst case for recording
// container operations: ROUNDS x 1000 iterations of a HashMap put, get and
// (every other time) remove, and an ArrayList add, get and remove, on a
// pool of 4096 values allocated up front (so the agent knows them all).
// Prints the operations done, the loop's own time and its thread's CPU
// time (ns), so a per-operation cost can be taken without the JVM's start
// and exit, and on a loaded machine from the CPU time it took.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class OpsBench {
    private OpsBench() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        String[] values = new String[4096];
        for (int i = 0; i < values.length; i++) {
            values[i] = "value-" + i;
        }
        Map<Integer, String> map = new HashMap<>();
        List<String> list = new ArrayList<>();
        long sum = 0;
        long ops = 0;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < 1000; i++) {
                int k = (r * 1000 + i) & 4095;
                map.put(k, values[k]);
                String v = map.get((k * 7) & 4095);
                sum += v == null ? 0 : v.length();
                ops += 2;
                if ((i & 1) == 0) {
                    map.remove((k * 13) & 4095);
                    ops++;
                }
                list.add(values[k]);
                sum += list.get(list.size() / 2).length();
                ops += 2;
                if (list.size() > 512) {
                    list.remove(list.size() - 1);
                    ops++;
                }
            }
        }
        long t1 = System.nanoTime();
        long c1 = threads.getCurrentThreadCpuTime();
        System.out.println(ops + " " + (t1 - t0) + " " + (c1 - c0) + " " + sum);
    }
}
