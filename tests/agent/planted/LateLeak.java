// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky: 40 MB of reference data loaded in the first 15% of the run, then steady, except for a leak of 500 KB/s in a pending-callbacks map (about 20% of the plateau by the end).
public class LateLeak {
  static final List<byte[]> REF = new ArrayList<>();
  static final Map<Long, byte[]> PENDING = new HashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L, load = len * 15 / 100;
    long id = 0;
    while (System.currentTimeMillis() - start < len) {
      for (int i = 0; i < 400; i++) sink = new byte[150];
      long t = System.currentTimeMillis() - start;
      if (t < load) { while (REF.size() < t * 40000 / load) REF.add(new byte[1000]); }
      else { while (id < (t - load) / 2) PENDING.put(id++, new byte[1000]); sink = REF.get((int) (id % REF.size())); }
      Thread.sleep(1);
    }
    System.out.println(REF.size() + " " + PENDING.size());
  }
}
