// SPDX-License-Identifier: GPL-3.0-or-later
//
// A transactional leak for test-agent: handle() is the transaction; every
// 10th run keeps one TxLeakItem in a static list (pre-sized, so adding
// allocates nothing else); every run makes garbage.  Other methods that
// allocate outside handle() are no transaction.  Ends with System.gc(),
// the whole-heap collection that checks the runs.

import java.util.ArrayList;
import java.util.List;

final class TxLeakItem {
    final long value;

    TxLeakItem(long value) {
        this.value = value;
    }
}

public final class TxLeak {
    static final int RUNS = 200;
    static final List<TxLeakItem> KEPT = new ArrayList<>(RUNS);
    static volatile Object sink;

    static void handle(int run) {
        for (int i = 0; i < 20; i++) {
            sink = new byte[32 + i];
        }
        if (run % 10 == 0) {
            KEPT.add(new TxLeakItem(run)); // TX_LEAK_SITE
        }
        if (run % 50 == 0) {
            handle(-1); // a nested run: part of this one
        }
    }

    static void outside() {
        for (int i = 0; i < 100; i++) {
            sink = new int[8];
        }
    }

    public static void main(String[] args) {
        for (int run = 1; run <= RUNS; run++) {
            handle(run);
            outside();
        }
        System.gc();
        System.out.println("TxLeak " + KEPT.size());
    }
}
