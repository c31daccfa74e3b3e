// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
// Leaky: a hand-grown Object[] (doubled with System.arraycopy) that keeps every sample.
public class GrownArray {
  static Object[] samples = new Object[16];
  static int count;
  static volatile Object sink;
  static void add(Object o) {
    if (count == samples.length) {
      Object[] bigger = new Object[count * 2];
      System.arraycopy(samples, 0, bigger, 0, count);
      samples = bigger;
    }
    samples[count++] = o;
  }
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 400; i++) sink = new byte[160];
      add(new double[90]);
      Thread.sleep(1);
    }
    System.out.println(count);
  }
}
