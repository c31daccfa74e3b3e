// SPDX-License-Identifier: GPL-3.0-or-later
//
// Pauses that hold more than one collection: a ring of retained 1 KiB
// arrays fills most of the old generation, so the survivors of a young
// collection often do not fit and Serial collects the whole heap in the
// same pause.  System.gc() every -Descalate.gcEvery=N rounds (if given) is
// a young and a full collection in one pause under Parallel as long as the
// old generation has room: -Descalate.ringKib=K (default 12288) sets the
// retained size.
//
// Usage: Escalate [ROUNDS]

public final class Escalate {
    static volatile Object junk;

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int gcEvery = Integer.getInteger("escalate.gcEvery", 0);
        int ringKib = Integer.getInteger("escalate.ringKib", 12 * 1024);
        Object[] ring = new Object[ringKib];
        int next = 0;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < 2048; i++) {
                ring[next] = new byte[1024];
                next = (next + 1) % ring.length;
                for (int j = 0; j < 8; j++)
                    junk = new byte[256];
            }
            if (gcEvery > 0 && r % gcEvery == gcEvery - 1)
                System.gc();
        }
        System.out.println("Escalate " + ring.length);
    }
}
