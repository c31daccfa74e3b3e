// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free but nearly full (run with -Xmx80m): 60 MB live that is replaced piece by piece, plus garbage. GC overhead.
public class FullHeap {
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    List<byte[]> live = new ArrayList<>();
    for (int i = 0; i < 60 * 1024; i++) live.add(new byte[1000]);
    Random r = new Random(8);
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 300; i++) sink = new byte[100 + r.nextInt(900)];
      for (int i = 0; i < 20; i++) live.set(r.nextInt(live.size()), new byte[1000]);
    }
  }
}
