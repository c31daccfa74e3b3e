import java.util.ArrayDeque;

/**
 * Young-generation survivors whose lifetimes are set by allocation volume,
 * so that the age tables of -Xlog:gc+age=trace have a known shape.
 *
 *   java Survivors MODE MILLIS
 *
 * Every step allocates 7 KiB of garbage; every EVERY-th step also a 1 KiB
 * object of the mode, kept in a queue of KEEP objects (the oldest goes):
 *   short     - kept by nobody: dies at once
 *   medium    - every 2nd step, 2560 kept: each lives about 40 MiB of
 *               allocation (2.5 fills of a 16 MiB eden), 1 MiB new per fill
 *   longlived - every 16th step, 20480 kept: each lives about 2.5 GiB of
 *               allocation (far past age 15), 0.25 MiB new per 32 MiB eden
 */
public class Survivors {
    static volatile long sink;

    public static void main(String[] args) {
        String mode = args[0];
        long end = System.currentTimeMillis() + Long.parseLong(args[1]);
        int every = mode.equals("medium") ? 2 : mode.equals("longlived") ? 16 : 1;
        int keep = mode.equals("medium") ? 2560 : mode.equals("longlived") ? 20480 : 0;
        ArrayDeque<byte[]> kept = new ArrayDeque<>();
        byte[][] ring = new byte[64][];
        int pos = 0;
        long step = 0;
        while (System.currentTimeMillis() < end) {
            for (int s = 0; s < 1000; s++, step++) {
                for (int i = 0; i < 7; i++) {
                    byte[] g = new byte[1008];
                    g[0] = (byte) i;
                    ring[pos++ & 63] = g;   /* escapes: the JIT cannot drop it */
                    sink += g.length;
                }
                if (step % every != 0)
                    continue;
                byte[] o = new byte[1008];
                o[1] = 1;
                if (keep > 0) {
                    kept.addLast(o);
                    if (kept.size() > keep)
                        kept.removeFirst();
                } else {
                    ring[pos++ & 63] = o;
                }
            }
        }
        System.out.println(mode + " kept " + kept.size());
    }
}
