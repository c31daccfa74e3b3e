// SPDX-License-Identifier: GPL-3.0-or-later
//
// Dies of an OutOfMemoryError ("unable to create native thread") for
// test-agent, run under a virtual memory limit (ulimit -v): starts parked
// threads that each ask for a stack of STACK_MB (first argument) until the
// next stack no longer fits in the address space.

import java.util.concurrent.locks.LockSupport;

public final class ThreadOom {
    public static void main(String[] args) {
        System.out.println("ThreadOom");
        long stack = Long.parseLong(args[0]) << 20;
        for (int i = 0; ; i++) {
            Thread t = new Thread(null, () -> LockSupport.park(), "parked-" + i, stack);
            t.setDaemon(true);
            t.start();
        }
    }
}
