// SPDX-License-Identifier: GPL-3.0-or-later
// churn-heavy: a very high rate of short-lived objects (strings, small
// arrays, boxed numbers) and almost no live data.  Args: RUN_MS (1500).
import java.util.ArrayList;
import java.util.List;

public class Churn {
    static volatile long sink;

    public static void main(String[] args) {
        long runMs = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        long end = System.nanoTime() + runMs * 1_000_000L;
        long n = 0;
        while (System.nanoTime() < end) {
            for (int k = 0; k < 1000; k++) {
                List<Object> tmp = new ArrayList<>(8);
                tmp.add(Long.valueOf(n * 31 + k));
                tmp.add("item-" + (n + k));
                tmp.add(new int[16 + (k & 63)]);
                sink += tmp.size() + ((String) tmp.get(1)).length();
            }
            n++;
        }
        System.out.println("churn batches=" + n);
    }
}
