// SPDX-License-Identifier: GPL-3.0-or-later
//
// Many short-lived threads for test-agent: THREADS threads, WAVE at a
// time, each named short-N and allocating exactly PER markers (run with
// -XX:-DoEscapeAnalysis).  The agent must record every marker with its
// thread while releasing what it held for each thread once it ended.

final class ShortThreadsMarker {
    final int value;

    ShortThreadsMarker(int value) {
        this.value = value;
    }
}

public final class ShortThreads {
    static final int THREADS = 3000;
    static final int WAVE = 8;
    static final int PER = 10;

    static volatile ShortThreadsMarker sink;

    public static void main(String[] args) throws Exception {
        long sum = 0;
        for (int i = 0; i < THREADS; i += WAVE) {
            Thread[] wave = new Thread[WAVE];
            for (int k = 0; k < WAVE; k++) {
                final int base = (i + k) * PER;
                wave[k] = new Thread(() -> {
                    for (int j = 0; j < PER; j++) {
                        sink = new ShortThreadsMarker(base + j); // SITE-SHORT
                    }
                }, "short-" + (i + k));
                wave[k].start();
            }
            for (Thread t : wave) {
                t.join();
            }
            sum += sink.value >= 0 ? 1 : 0;
        }
        System.out.println("ShortThreads " + sum);
    }
}
