// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky: anonymous inner listeners registered per request and never removed;
// each captures its request's buffer.
public class ListenerLeak {
  interface Listener { void changed(int v); }
  static final class Registry {
    private final Set<Listener> listeners = new HashSet<>();
    void add(Listener l) { listeners.add(l); }
    void fire(int v) { int n = 0; for (Listener l : listeners) if (++n > 4) break; else l.changed(v); }
  }
  static final Registry REGISTRY = new Registry();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    int v = 0;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 300; i++) sink = new byte[512];
      final byte[] view = new byte[700];
      REGISTRY.add(new Listener() { public void changed(int x) { view[0] = (byte) x; } });
      REGISTRY.fire(v++);
      Thread.sleep(1);
    }
  }
}
