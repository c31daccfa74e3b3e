// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky: a WeakHashMap whose values hold their keys strongly, so no entry is ever cleared.
public class WeakValues {
  static final class Key { final long id; Key(long id) { this.id = id; } }
  static final class Meta { final Key owner; final byte[] blob = new byte[600]; Meta(Key k) { owner = k; } }
  static final Map<Key, Meta> META = new WeakHashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    long id = 0;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 400; i++) sink = new byte[150];
      Key k = new Key(id++);
      META.put(k, new Meta(k));
      Thread.sleep(1);
    }
    System.out.println(META.size());
  }
}
