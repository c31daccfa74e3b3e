// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: fills a reference-data cache for the first 25% of the run, then only reads it.
public class WarmPlateau {
  static final Map<Integer, byte[]> REF = new HashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    Random r = new Random(4); int k = 0;
    while (System.currentTimeMillis() - start < len) {
      for (int i = 0; i < 300; i++) sink = new byte[512];
      if (System.currentTimeMillis() - start < len / 4) { for (int i = 0; i < 6; i++) REF.put(k++, new byte[800]); }
      else sink = REF.get(r.nextInt(Math.max(1, k)));
      Thread.sleep(1);
    }
    System.out.println(REF.size());
  }
}
