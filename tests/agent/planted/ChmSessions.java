// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.concurrent.*;
// Leaky: sessions put in a ConcurrentHashMap by 2 worker threads and never removed on logout.
public class ChmSessions {
  static final class Session { final long id; final byte[] state = new byte[700]; Session(long id) { this.id = id; } }
  static final ConcurrentHashMap<Long, Session> SESSIONS = new ConcurrentHashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    Thread[] w = new Thread[2];
    for (int t = 0; t < 2; t++) {
      final long base = (long) t << 40;
      w[t] = new Thread(() -> {
        long id = base;
        try {
          while (System.currentTimeMillis() < end) {
            for (int i = 0; i < 400; i++) sink = new char[64];
            SESSIONS.put(id, new Session(id)); id++;
            Thread.sleep(1);
          }
        } catch (InterruptedException e) {}
      });
      w[t].start();
    }
    for (Thread t : w) t.join();
    System.out.println(SESSIONS.size());
  }
}
