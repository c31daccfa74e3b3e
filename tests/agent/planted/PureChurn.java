// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
// Leak-free: steady garbage only, nothing kept.
public class PureChurn {
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    int n = 0;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 300; i++) { sink = new byte[256 + (i & 255)]; sink = "x" + n + i; }
      n++;
      Thread.sleep(1);
    }
  }
}
