// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free at the end: an audit list leaks for the first half of the run, then the bug is "fixed" (no more adds): growth then plateau.
public class LeakStops {
  static final List<long[]> AUDIT = new ArrayList<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    while (System.currentTimeMillis() - start < len) {
      for (int i = 0; i < 400; i++) sink = new byte[150];
      if (System.currentTimeMillis() - start < len / 2) AUDIT.add(new long[100]);
      Thread.sleep(1);
    }
    System.out.println(AUDIT.size());
  }
}
