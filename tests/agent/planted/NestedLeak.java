// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
import java.util.concurrent.*;
// Leaky: a ConcurrentHashMap of sessions whose event lists only grow.
public class NestedLeak {
  static final ConcurrentHashMap<String, List<byte[]>> SESSIONS = new ConcurrentHashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    Random r = new Random(3);
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 300; i++) sink = new byte[512];
      String s = "session-" + r.nextInt(200);
      SESSIONS.computeIfAbsent(s, k -> new ArrayList<>()).add(new byte[640]);
      Thread.sleep(1);
    }
    System.out.println(SESSIONS.size());
  }
}
