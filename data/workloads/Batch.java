// SPDX-License-Identifier: GPL-3.0-or-later
// held out (not in the knowledge base): a batch job that loads a 30 MB
// table, transforms it into a second table, drops both and starts over.
// Args: RUN_MS (1500).
import java.util.ArrayList;
import java.util.List;

public class Batch {
    static volatile long sink;

    public static void main(String[] args) {
        long runMs = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        long end = System.nanoTime() + runMs * 1_000_000L;
        int rounds = 0;
        while (System.nanoTime() < end) {
            List<int[]> table = new ArrayList<>();
            for (int i = 0; i < 30 * 1024 / 2 && System.nanoTime() < end; i++) {
                table.add(new int[512]);
            }
            List<String> out = new ArrayList<>(table.size());
            for (int[] row : table) {
                out.add(Integer.toHexString(row.length + out.size()));
            }
            sink += out.size();
            rounds++;
        }
        System.out.println("rounds=" + rounds);
    }
}
