// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leak-free: a periodic batch job every 2 s builds a large temporary index (about 60 MB), aggregates it and drops it; light churn between batches.
public class BatchJobs {
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    long nextBatch = start + 1000;
    Random r = new Random(7);
    long total = 0;
    while (System.currentTimeMillis() - start < len) {
      if (System.currentTimeMillis() >= nextBatch) {
        HashMap<Integer, int[]> index = new HashMap<>();
        for (int k = 0; k < 60000; k++) index.put(k, new int[240]);
        for (int[] v : index.values()) total += v.length;
        index = null;
        nextBatch += 2000;
      }
      for (int i = 0; i < 300; i++) sink = new byte[100 + r.nextInt(200)];
      Thread.sleep(1);
    }
    System.out.println(total);
  }
}
