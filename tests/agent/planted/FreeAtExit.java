// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: builds a working set for 30% of the run, works on it, and frees it all before exit.
public class FreeAtExit {
  static final Map<Integer, byte[]> WORK = new HashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    Random r = new Random(7); int k = 0;
    while (System.currentTimeMillis() - start < len) {
      for (int i = 0; i < 300; i++) sink = new byte[512];
      if (System.currentTimeMillis() - start < len * 3 / 10) WORK.put(k++, new byte[900]);
      else WORK.put(r.nextInt(k), new byte[900]);
      Thread.sleep(1);
    }
    WORK.clear();
    for (int i = 0; i < 20000; i++) sink = new byte[512];
    System.gc();
    Thread.sleep(300);
  }
}
