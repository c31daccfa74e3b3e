// SPDX-License-Identifier: GPL-3.0-or-later
//
// Runs until killed: allocates garbage and a slowly growing list, so that
// test-agent can SIGKILL a recording JVM mid-run.

import java.util.ArrayList;
import java.util.List;

public final class LongRun {
    static final List<int[]> KEEP = new ArrayList<>();
    static volatile Object junk;

    public static void main(String[] args) throws Exception {
        for (long round = 0; ; round++) {
            for (int i = 0; i < 50000; i++) {
                junk = new int[8];
            }
            KEEP.add(new int[256]);
            Thread.sleep(5);
        }
    }
}
