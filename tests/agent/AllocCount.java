// SPDX-License-Identifier: GPL-3.0-or-later
//
// Known allocation counts for test-agent: every number below is checked
// exactly against the recorded trace (run with -XX:-DoEscapeAnalysis).
// The last object of each kind stays reachable from a static field; all
// others die.  Lines marked SITE-* are looked up by the test.

final class AllocCountMarker {
    final int value;

    AllocCountMarker(int value) {
        this.value = value;
    }
}

final class AllocCountWorkerMarker {
    long value;
}

public final class AllocCount {
    static final int MAIN = 100000;
    static final int WORKER = 30000;
    static final int ARRAYS = 2000;
    static final int ARRAY_LENGTH = 7;
    static final int BIG = 20000;

    static volatile AllocCountMarker sink;
    static volatile AllocCountWorkerMarker workerSink;
    static volatile AllocCountMarker[] arraySink;
    static volatile long[] bigSink;

    static AllocCountMarker makeMarker(int i) {
        return new AllocCountMarker(i); // SITE-MARKER
    }

    static void bigArrays() {
        for (int i = 0; i < BIG; i++) {
            bigSink = new long[32]; // SITE-BIG
        }
    }

    public static void main(String[] args) throws Exception {
        long sum = 0;
        for (int i = 0; i < MAIN; i++) {
            AllocCountMarker m = makeMarker(i);
            sum += m.value;
            sink = m;
        }
        Thread worker = new Thread(() -> {
            for (int i = 0; i < WORKER; i++) {
                AllocCountWorkerMarker w = new AllocCountWorkerMarker(); // SITE-WORKER
                w.value = i;
                workerSink = w;
            }
        }, "alloc-worker");
        worker.start();
        worker.join();
        for (int i = 0; i < ARRAYS; i++) {
            arraySink = new AllocCountMarker[ARRAY_LENGTH]; // SITE-ARRAY
        }
        bigArrays();
        System.gc();
        System.out.println("AllocCount " + sum);
    }
}
