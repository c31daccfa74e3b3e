// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: an LRU cache (removeEldestEntry at 2000 entries) of random keys; fills within the first seconds.
public class BoundedLru {
  static final Map<Integer, byte[]> LRU = new LinkedHashMap<>(16, 0.75f, true) {
    protected boolean removeEldestEntry(Map.Entry<Integer, byte[]> e) { return size() > 2000; }
  };
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    Random r = new Random(5);
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 300; i++) sink = new byte[512];
      for (int i = 0; i < 3; i++) {
        int k = r.nextInt(1_000_000);
        byte[] v = LRU.get(k);
        if (v == null) LRU.put(k, new byte[800]);
      }
      Thread.sleep(1);
    }
    System.out.println(LRU.size());
  }
}
