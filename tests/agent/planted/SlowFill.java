// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: an LRU cache (LinkedHashMap, at most 8000 entries of 700 B) that fills at a steady rate for 70% of the run and then stays bounded (new keys evict the eldest).
public class SlowFill {
  static final int MAX = 8000;
  static final Map<Long, byte[]> LRU = new LinkedHashMap<>(16, 0.75f, true) {
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> e) { return size() > MAX; }
  };
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    Random r = new Random(6);
    long next = 0;
    while (System.currentTimeMillis() - start < len) {
      for (int i = 0; i < 400; i++) sink = new byte[150];
      sink = LRU.get((long) r.nextInt((int) Math.max(1, next)));
      long due = (System.currentTimeMillis() - start) * MAX * 10 / (7 * len);
      while (next < due) LRU.put(next++, new byte[700]);
      Thread.sleep(1);
    }
    System.out.println(LRU.size());
  }
}
