// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two maps that both grow for the whole run: CACHE (1 KiB values) is read
// 64 times per request at random, AUDIT (200-byte values) is written once
// per request and never read.  The cache grows more than four times
// faster, so size growth ranks it first; its elements are never stale for
// long, so leak confidence ranks the audit map first.
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

public final class ContainerLeak {
    static final Map<Integer, byte[]> CACHE = new HashMap<>();
    static final Map<Integer, byte[]> AUDIT = new HashMap<>();

    private ContainerLeak() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 4000;
        Random rnd = new Random(7);
        long sum = 0;
        for (int i = 0; i < requests; i++) {
            CACHE.put(i, new byte[1024]);
            for (int k = 0; k < 64; k++) {
                sum += CACHE.get(rnd.nextInt(CACHE.size())).length;
            }
            AUDIT.put(i, new byte[200]);
            if (i % 400 == 399) {
                System.gc();
                Thread.sleep(20);
            }
        }
        System.out.println(sum + " " + CACHE.size() + " " + AUDIT.size());
    }
}
