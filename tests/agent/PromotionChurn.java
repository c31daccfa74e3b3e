// SPDX-License-Identifier: GPL-3.0-or-later
//
// Premature promotion on a real JVM: every tick allocates 32 KiB of
// garbage (so young GCs come at a steady pace) and one 2 KiB session,
// kept in a ring of WINDOW sessions, so each session lives WINDOW ticks.
// With a window of a few young GCs' worth of ticks, sessions outlive a low
// tenuring threshold, are promoted, and die in the old generation soon
// after; with a window far below one young GC's worth they die young and
// nothing is promoted but the ring.
//
// Every FULL-th GC the program calls System.gc(), an old-generation
// collection of its own (an old generation filling up would make a young
// GC turn into a full one within one pause).  After each GC it sleeps
// PAUSE ms, so that GCs lie further apart than the JVM's delay in
// reporting frees (JDK 17 posts ObjectFree up to ~0.1 s after the GC) and
// each death is recorded at the GC that freed it.
//
//   java PromotionChurn TICKS WINDOW FULL PAUSE   prints "TICKS SESSIONS-ALIVE"
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

public final class PromotionChurn {
    static volatile byte[] sink;   // the garbage escapes: no scalar replacement

    private PromotionChurn() {
    }

    private static long collections(List<GarbageCollectorMXBean> beans) {
        long n = 0;
        for (GarbageCollectorMXBean b : beans) {
            n += b.getCollectionCount();
        }
        return n;
    }

    public static void main(String[] args) throws InterruptedException {
        int ticks = Integer.parseInt(args[0]);
        int window = Integer.parseInt(args[1]);
        int full = Integer.parseInt(args[2]);
        int pause = Integer.parseInt(args[3]);
        byte[][] ring = new byte[window][];
        List<GarbageCollectorMXBean> beans = ManagementFactory.getGarbageCollectorMXBeans();
        long seen = collections(beans);
        int alive = 0;

        for (int i = 0; i < ticks; i++) {
            sink = new byte[32 * 1024];
            ring[i % window] = new byte[2048];
            long now = collections(beans);
            if (now != seen) {
                Thread.sleep(pause);
                if (now % full == 0) {
                    System.gc();
                    Thread.sleep(pause);
                }
                seen = collections(beans);
            }
        }
        for (byte[] s : ring) {
            alive += s != null ? 1 : 0;
        }
        System.out.println(ticks + " " + alive);
    }
}
