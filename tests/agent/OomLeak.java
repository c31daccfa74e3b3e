// SPDX-License-Identifier: GPL-3.0-or-later
//
// Dies of an OutOfMemoryError (Java heap) for test-agent: the main thread
// keeps chunks in a local list until the heap is full.  The leak is held
// by main's stack only, so once main has died of the error nothing holds
// it: a heap graph taken then shows an almost empty heap, while the graph
// at the error shows the full one.

import java.util.ArrayList;
import java.util.List;

public final class OomLeak {
    static volatile Object junk;

    public static void main(String[] args) {
        System.out.println("OomLeak");
        List<long[]> chunks = new ArrayList<>();
        for (int i = 0; ; i++) {
            chunks.add(new long[1024]);
            junk = new byte[64];
        }
    }
}
