// SPDX-License-Identifier: GPL-3.0-or-later
//
// The container operations `record --containers` records beyond the
// plain add/get/remove: Vector and Stack, Hashtable, PriorityQueue, bulk
// adds (addAll) and bulk removals (removeIf, removeAll), each on its own
// container, between two System.gc() calls.  The exact operations each
// container gets (ADD / GET / REMOVE) are in the comments; every
// container keeps elements, so none is leak-free.
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.LinkedList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Stack;
import java.util.Vector;

public final class ContainerOps {
    static final class Item implements Comparable<Item> {
        final int n;

        Item(int n) {
            this.n = n;
        }

        @Override
        public int compareTo(Item o) {
            return Integer.compare(n, o.n);
        }
    }

    static final Vector<Item> VECTOR = new Vector<>();
    static final Stack<Item> STACK = new Stack<>();
    static final Hashtable<Integer, Item> TABLE = new Hashtable<>();
    static final PriorityQueue<Item> QUEUE = new PriorityQueue<>();
    static final ArrayList<Item> LIST = new ArrayList<>();
    static final LinkedList<Item> LINKED = new LinkedList<>();
    static final ArrayDeque<Item> DEQUE = new ArrayDeque<>();

    private ContainerOps() {
    }

    private static Item[] items(int base) {
        Item[] a = new Item[5];
        for (int i = 0; i < a.length; i++) {
            a[i] = new Item(base + i);
        }
        return a;
    }

    public static void main(String[] args) {
        Item[] a = items(0), b = items(10), c = items(20), d = items(30), e = items(40), f = items(50), g = items(60);
        Integer k0 = 1000, k1 = 1001, k2 = 1002;
        long sum = 0;
        System.gc();

        // Vector: ADD 5 (add, addElement, add at 0, addAll of 2), GET 2, REMOVE 3; a0 and a4 stay
        VECTOR.add(a[0]);
        VECTOR.addElement(a[1]);
        VECTOR.add(0, a[2]);
        VECTOR.addAll(List.of(a[3], a[4]));
        sum += VECTOR.get(0).n + VECTOR.elementAt(1).n;
        VECTOR.remove(a[1]);
        VECTOR.remove(0);
        VECTOR.removeIf(x -> x == a[3]);

        // Stack: ADD 3 (push), pop = GET + REMOVE, peek = GET; b0 and b1 stay
        STACK.push(b[0]);
        STACK.push(b[1]);
        STACK.push(b[2]);
        sum += STACK.pop().n + STACK.peek().n;

        // Hashtable: ADD c0, ADD c1, replace c0 by c2 (REMOVE + ADD), putIfAbsent finds c1 (GET),
        // get (GET), remove c2 (REMOVE), ADD c4; c1 and c4 stay
        TABLE.put(k0, c[0]);
        TABLE.put(k1, c[1]);
        TABLE.put(k0, c[2]);
        TABLE.putIfAbsent(k1, c[3]);
        sum += TABLE.get(k1).n;
        TABLE.remove(k0);
        TABLE.put(k2, c[4]);

        // PriorityQueue: ADD 4 (offer, add), poll d0 (REMOVE), peek d1 (GET), remove d2, removeIf d3
        QUEUE.offer(d[0]);
        QUEUE.add(d[1]);
        QUEUE.add(d[2]);
        QUEUE.add(d[3]);
        sum += QUEUE.poll().n + QUEUE.peek().n;
        QUEUE.remove(d[2]);
        QUEUE.removeIf(x -> x == d[3]);

        // ArrayList: addAll of 3, addAll at 0 of 1 (ADD 4), removeIf e1 (REMOVE)
        LIST.addAll(List.of(e[0], e[1], e[2]));
        LIST.addAll(0, List.of(e[3]));
        LIST.removeIf(x -> x == e[1]);

        // LinkedList: addAll of 2 and add (ADD 3)
        LINKED.addAll(List.of(f[0], f[1]));
        LINKED.add(f[2]);

        // ArrayDeque: ADD 3, removeIf g0 and removeAll of g1 (REMOVE 2)
        DEQUE.add(g[0]);
        DEQUE.add(g[1]);
        DEQUE.add(g[2]);
        DEQUE.removeIf(x -> x == g[0]);
        DEQUE.removeAll(List.of(g[1]));

        System.gc();
        System.out.println(sum + " " + VECTOR.size() + STACK.size() + TABLE.size() + QUEUE.size() + LIST.size()
                           + LINKED.size() + DEQUE.size());
    }
}
