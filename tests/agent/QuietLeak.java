// SPDX-License-Identifier: GPL-3.0-or-later
//
// A program that leaks slowly and makes almost no garbage, so that its
// heap (run it with -Xmx256m) collects on its own rarely if ever: for
// SECONDS (first argument) it keeps one 1 KiB array every 10 ms.
// test-agent's quiet graph count checks that the agent forces the GCs
// its graphs need.

import java.util.ArrayList;
import java.util.List;

public final class QuietLeak {
    static final List<byte[]> kept = new ArrayList<>();

    public static void main(String[] args) throws InterruptedException {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        while (System.nanoTime() < end) {
            kept.add(new byte[1024]);
            Thread.sleep(10);
        }
        System.out.println("QuietLeak " + kept.size());
    }
}
