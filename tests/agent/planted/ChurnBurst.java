// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
// Leak-free with a churn burst: from 40% to 60% of the run, no pause between ticks
// and 20x the garbage per tick; outside it a light, steady load.
public class ChurnBurst {
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    while (true) {
      long t = System.currentTimeMillis() - start;
      if (t >= len) break;
      boolean burst = t >= len * 4 / 10 && t < len * 6 / 10;
      for (int i = 0; i < (burst ? 2000 : 100); i++) sink = new byte[512];
      if (!burst) Thread.sleep(3);
    }
  }
}
