// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: a large cache (about 140 MB, 55% of a 256 MiB heap) loaded at start, then only read and refreshed in place, with churn.
public class BigCache {
  static final HashMap<Integer, byte[]> CACHE = new HashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    for (int k = 0; k < 130 * 1024; k++) CACHE.put(k, new byte[1000]);
    Random r = new Random(5);
    while (System.currentTimeMillis() - start < len) {
      for (int i = 0; i < 400; i++) sink = new byte[150];
      int k = r.nextInt(CACHE.size());
      sink = CACHE.get(k);
      if ((k & 7) == 0) CACHE.put(k, new byte[1000]);
      Thread.sleep(1);
    }
    System.out.println(CACHE.size());
  }
}
