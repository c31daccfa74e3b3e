// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky until OutOfMemoryError (run with -Xmx64m), which it catches: it clears the cache and goes on leak-free (a bounded cache) until the end.
public class OomRecover {
  static final Map<Integer, byte[]> CACHE = new HashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    int k = 0;
    boolean recovered = false;
    while (System.currentTimeMillis() - start < len) {
      try {
        for (int i = 0; i < 100; i++) sink = new byte[200];
        CACHE.put(k++, new byte[4000]);
        if (recovered && CACHE.size() > 2000) CACHE.remove(k - 2001);
        if ((k & 7) == 0) Thread.sleep(1);
      } catch (OutOfMemoryError e) {
        CACHE.clear();
        recovered = true;
        System.out.println("recovered from " + e.getMessage());
      }
    }
    System.out.println(CACHE.size());
  }
}
