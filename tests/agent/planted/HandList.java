// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
// Leaky: a hand-written singly linked list of log entries; new entries are linked at the tail, none unlinked.
public class HandList {
  static final class Entry { Entry next; final String text; final byte[] data = new byte[500]; Entry(String t) { text = t; } }
  static Entry head, tail;
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long end = System.currentTimeMillis() + Integer.parseInt(a[0]) * 1000L;
    long n = 0;
    while (System.currentTimeMillis() < end) {
      for (int i = 0; i < 400; i++) sink = new int[40];
      Entry e = new Entry("entry " + n++);
      if (tail == null) head = tail = e; else { tail.next = e; tail = e; }
      Thread.sleep(1);
    }
    System.out.println(n + " " + head.text);
  }
}
