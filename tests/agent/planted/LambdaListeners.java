// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
import java.util.concurrent.*;
// Leaky: every request registers a lambda and an inner-class listener on an event bus (CopyOnWriteArrayList) and never removes them.
public class LambdaListeners {
  interface Listener { void on(String event); }
  static final List<Listener> BUS = new CopyOnWriteArrayList<>();
  static final List<Listener> BUS2 = new ArrayList<>();
  static volatile Object sink;
  class Handler implements Listener { final int[] buf = new int[120]; public void on(String e) { sink = buf; } }
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    LambdaListeners outer = new LambdaListeners();
    int n = 0;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 400; i++) sink = new byte[140];
      final byte[] ctx = new byte[400];
      BUS2.add(e -> sink = ctx);
      BUS2.add(outer.new Handler());
      if ((++n & 63) == 0) BUS.add(e -> sink = ctx);
      Thread.sleep(1);
    }
    System.out.println(BUS.size() + BUS2.size());
  }
}
