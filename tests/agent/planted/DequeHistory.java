// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky: an undo history in an ArrayDeque that is pushed on every edit and never trimmed.
public class DequeHistory {
  static final class Edit { final int[] before = new int[150]; final long at = System.nanoTime(); }
  static final ArrayDeque<Edit> HISTORY = new ArrayDeque<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 500; i++) sink = new long[20];
      HISTORY.push(new Edit());
      sink = HISTORY.peek();
      Thread.sleep(1);
    }
    System.out.println(HISTORY.size());
  }
}
