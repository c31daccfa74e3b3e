// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky until "GC overhead limit exceeded" (Parallel, -Xmx64m): a map of many small entries, so each full GC frees almost nothing but takes long.
public class GcOverheadOom {
  static final Map<Integer, String> NAMES = new HashMap<>();
  public static void main(String[] a) throws Exception {
    int k = 0;
    while (true) {
      NAMES.put(k, "name-" + k);
      k++;
      if ((k & 4095) == 0) Thread.sleep(1);
    }
  }
}
