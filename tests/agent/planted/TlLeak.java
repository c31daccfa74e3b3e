// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
import java.util.concurrent.*;
// Leaky: a ThreadLocal in a fixed pool whose per-thread buffer list is never cleared.
public class TlLeak {
  static final ThreadLocal<List<byte[]>> CTX = ThreadLocal.withInitial(ArrayList::new);
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    while (System.currentTimeMillis() < end) {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 4; t++) fs.add(pool.submit(() -> {
        for (int i = 0; i < 400; i++) sink = new byte[256];
        CTX.get().add(new byte[700]);   // request context kept by mistake
      }));
      for (Future<?> f : fs) f.get();
      Thread.sleep(2);
    }
    pool.shutdown();
  }
}
