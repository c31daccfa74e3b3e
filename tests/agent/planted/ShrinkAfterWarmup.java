// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: 80 MB of start-up data (parsed configuration, staging buffers) held for the first 20% of the run, then trimmed to a 15 MB working set that stays.
public class ShrinkAfterWarmup {
  static final ArrayList<byte[]> DATA = new ArrayList<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    boolean trimmed = false;
    Random r = new Random(8);
    while (System.currentTimeMillis() - start < len) {
      long t = System.currentTimeMillis() - start;
      if (t < len / 10) { for (int i = 0; i < 60; i++) DATA.add(new byte[1000]); }
      else if (t > len / 5 && !trimmed) { DATA.subList(15 * 1024, DATA.size()).clear(); DATA.trimToSize(); trimmed = true; }
      else if (!DATA.isEmpty()) sink = DATA.get(r.nextInt(DATA.size()));
      for (int i = 0; i < 400; i++) sink = new byte[150];
      Thread.sleep(1);
    }
    System.out.println(DATA.size());
  }
}
