// SPDX-License-Identifier: GPL-3.0-or-later
//
// A known leak for test-agent: each phase puts PER_PHASE entries into a
// static map that is never cleared, makes garbage, and ends with
// System.gc().  Reachable memory must grow by at least the entries' size
// from one phase's graph to the next.

import java.util.HashMap;
import java.util.Map;

final class LeakCheckEntry {
    final byte[] payload;

    LeakCheckEntry(int size) {
        payload = new byte[size];
    }
}

public final class LeakCheck {
    static final int PHASES = 6;
    static final int PER_PHASE = 5000;
    static final int PAYLOAD = 64;
    static final Map<Integer, LeakCheckEntry> LEAK = new HashMap<>();
    static volatile Object junk;

    public static void main(String[] args) {
        for (int p = 0; p < PHASES; p++) {
            for (int i = 0; i < PER_PHASE; i++) {
                LEAK.put(p * PER_PHASE + i, new LeakCheckEntry(PAYLOAD));
            }
            for (int i = 0; i < 20000; i++) {
                junk = new byte[48];
            }
            System.gc();
        }
        System.out.println("LeakCheck " + LEAK.size());
    }
}
