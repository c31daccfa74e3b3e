// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.util.*;
// Leaky until OutOfMemoryError (run with -Xmx48m): an index that keeps every record.
public class OomEnd {
  static final class Record { final byte[] body = new byte[8000]; final String id; Record(String id) { this.id = id; } }
  static final Map<Integer, Record> INDEX = new HashMap<>();
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    int k = 0;
    while (true) {
      for (int i = 0; i < 100; i++) sink = new byte[256];
      INDEX.put(k, new Record("r" + k)); k++;
      if ((k & 7) == 0) Thread.sleep(1);
    }
  }
}
