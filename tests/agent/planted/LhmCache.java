// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky: a LinkedHashMap cache keyed by a request id that never repeats, no eviction.
public class LhmCache {
  static final Map<String, byte[]> CACHE = new LinkedHashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    long id = 0;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 1000; i++) sink = new byte[200];
      String k = "req-" + (id++);
      CACHE.put(k, new byte[600]);
      sink = CACHE.get("req-" + (id / 2));
      Thread.sleep(1);
    }
    System.out.println(CACHE.size());
  }
}
