// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: loads a 40 MB model at start, uses it for half the run, releases it, goes on small.
public class Phased {
  static List<byte[]> model = new ArrayList<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    for (int i = 0; i < 40000; i++) { model.add(new byte[1000]); if (i % 2000 == 0) Thread.sleep(20); }
    Random r = new Random(6);
    while (System.currentTimeMillis() - start < len) {
      for (int i = 0; i < 300; i++) sink = new byte[512];
      if (model != null) { sink = model.get(r.nextInt(model.size())); if (System.currentTimeMillis() - start > len / 2) model = null; }
      Thread.sleep(1);
    }
  }
}
