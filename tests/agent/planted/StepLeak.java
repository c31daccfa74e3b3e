// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky in steps: every 2 s a burst of 3 MB is kept for good; in between only garbage.
public class StepLeak {
  static final List<char[]> KEPT = new ArrayList<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), end = start + Integer.parseInt(a[0]) * 1000L;
    long nextBurst = start + 1000;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 300; i++) sink = new byte[512];
      if (System.currentTimeMillis() >= nextBurst) {
        for (int i = 0; i < 1500; i++) KEPT.add(new char[1000]);
        nextBurst += 2000;
      }
      Thread.sleep(1);
    }
    System.out.println(KEPT.size());
  }
}
