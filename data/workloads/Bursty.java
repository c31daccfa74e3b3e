// SPDX-License-Identifier: GPL-3.0-or-later
// bursty: quiet phases of light work alternate with bursts that build a
// 20 MB batch of medium-lived objects and drop it.  Args: RUN_MS (1500).
import java.util.ArrayList;
import java.util.List;

public class Bursty {
    static volatile long sink;

    public static void main(String[] args) throws InterruptedException {
        long runMs = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        long end = System.nanoTime() + runMs * 1_000_000L;
        int bursts = 0;
        while (System.nanoTime() < end) {
            // quiet: a little work, mostly waiting
            for (int i = 0; i < 20 && System.nanoTime() < end; i++) {
                sink += new byte[256].length;
                Thread.sleep(5);
            }
            // burst: a batch that lives until the burst ends
            List<byte[]> batch = new ArrayList<>();
            for (int i = 0; i < 20 * 1024 && System.nanoTime() < end; i++) {
                batch.add(new byte[1024]);
                for (int j = 0; j < 8; j++) {
                    sink += new byte[512].length;
                }
            }
            sink += batch.size();
            bursts++;
        }
        System.out.println("bursts=" + bursts);
    }
}
