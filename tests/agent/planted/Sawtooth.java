// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: a batch job that fills a 5 MB list, processes it and clears it.
public class Sawtooth {
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    List<byte[]> batch = new ArrayList<>();
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 200; i++) sink = new byte[512];
      for (int i = 0; i < 10; i++) batch.add(new byte[1000]);
      if (batch.size() >= 5000) { long s = 0; for (byte[] b : batch) s += b.length; sink = s; batch.clear(); }
      Thread.sleep(1);
    }
    System.out.println(batch.size());
  }
}
