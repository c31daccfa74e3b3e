// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free until one request asks for a 1 GiB array (more than the 256 MiB heap) at 70% of the run: OutOfMemoryError without any growth before it.
public class HugeArrayOom {
  static final List<byte[]> WORK = new ArrayList<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    for (int i = 0; i < 8 * 1024; i++) WORK.add(new byte[1000]);
    Random r = new Random(9);
    while (System.currentTimeMillis() - start < len * 7 / 10) {
      for (int i = 0; i < 400; i++) sink = new byte[150];
      WORK.set(r.nextInt(WORK.size()), new byte[1000]);
      Thread.sleep(1);
    }
    sink = new long[128 * 1024 * 1024];
    System.out.println(WORK.size());
  }
}
