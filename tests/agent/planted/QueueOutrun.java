// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.concurrent.*;
// Leaky (unbounded backlog): the producer puts 3 jobs for every 2 the consumer takes.
public class QueueOutrun {
  static final class Job { final byte[] payload = new byte[800]; }
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    BlockingQueue<Job> q = new LinkedBlockingQueue<>();
    Thread c = new Thread(() -> {
      try { while (true) { for (int i = 0; i < 2; i++) { Job j = q.take(); sink = j; } for (int i = 0; i < 300; i++) sink = new byte[128]; Thread.sleep(1); } }
      catch (InterruptedException e) {}
    });
    c.setDaemon(true); c.start();
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 3; i++) q.put(new Job());
      for (int i = 0; i < 300; i++) sink = new byte[128];
      Thread.sleep(1);
    }
    System.out.println(q.size());
  }
}
