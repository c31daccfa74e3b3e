// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky, slowly: 96 bytes kept per tick under ~100x more garbage (strings and arrays).
public class SlowLeakHeavyChurn {
  static final class Audit { final long t = System.nanoTime(); final int[] v = new int[16]; }
  static final List<Audit> AUDIT = new ArrayList<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    int n = 0;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 200; i++) { sink = ("row" + i + ":" + n).toCharArray(); sink = new long[24]; }
      AUDIT.add(new Audit());
      n++;
      if ((n & 1) == 0) Thread.sleep(1);
    }
    System.out.println(AUDIT.size());
  }
}
