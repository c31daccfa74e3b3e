// SPDX-License-Identifier: GPL-3.0-or-later
//
// The container operations `record --containers` records beyond the
// plain add/get/remove: Vector and Stack, Hashtable, PriorityQueue, bulk
// adds (addAll), bulk removals (removeIf, removeAll, retainAll, a
// sublist's clear), replaceAll and replace, iterator removal, polls, and
// ConcurrentHashMap's putIfAbsent, computeIfAbsent and merge, each on its
// own container, between two System.gc() calls.  The exact operations each
// container gets (ADD / GET / REMOVE) are in the comments; every
// container keeps elements, so none is leak-free.
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Stack;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;

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
    static final HashMap<Integer, Item> HMAP = new HashMap<>();
    static final TreeMap<Integer, Item> TMAP = new TreeMap<>();
    static final ConcurrentHashMap<Integer, Item> CMAP = new ConcurrentHashMap<>();
    static final LinkedHashMap<Integer, Item> LMAP = new LinkedHashMap<>();

    private ContainerOps() {
    }

    private static Item[] items(int base) {
        Item[] a = new Item[8];
        for (int i = 0; i < a.length; i++) {
            a[i] = new Item(base + i);
        }
        return a;
    }

    // removes x through c's iterator
    private static void removeByIterator(Iterable<Item> c, Item x) {
        for (Iterator<Item> it = c.iterator(); it.hasNext();) {
            if (it.next() == x) {
                it.remove();
            }
        }
    }

    public static void main(String[] args) {
        Item[] a = items(0), b = items(10), c = items(20), d = items(30), e = items(40), f = items(50), g = items(60);
        Item[] h = items(70), t = items(80), m = items(90), l = items(100);
        Integer k0 = 1000, k1 = 1001, k2 = 1002, k3 = 1003;
        long sum = 0;
        System.gc();

        // Vector: ADD 5 (add, addElement, add at 0, addAll of 2), GET 2, REMOVE 3 (a0 and a4 stay);
        // setElementAt a4 -> a5, replaceAll a0 -> a6 (REMOVE + ADD each), ADD a7, a sublist's clear
        // removes a7; a6 and a5 stay: ADD 8, REMOVE 6, 16 operations
        VECTOR.add(a[0]);
        VECTOR.addElement(a[1]);
        VECTOR.add(0, a[2]);
        VECTOR.addAll(List.of(a[3], a[4]));
        sum += VECTOR.get(0).n + VECTOR.elementAt(1).n;
        VECTOR.remove(a[1]);
        VECTOR.remove(0);
        VECTOR.removeIf(x -> x == a[3]);
        VECTOR.setElementAt(a[5], 1);
        VECTOR.replaceAll(x -> x == a[0] ? a[6] : x);
        VECTOR.add(a[7]);
        VECTOR.subList(2, 3).clear();

        // Stack: ADD 3 (push), pop = GET + REMOVE, peek = GET; b0 and b1 stay
        STACK.push(b[0]);
        STACK.push(b[1]);
        STACK.push(b[2]);
        sum += STACK.pop().n + STACK.peek().n;

        // Hashtable: ADD c0, ADD c1, replace c0 by c2 (REMOVE + ADD), putIfAbsent finds c1 (GET),
        // get (GET), remove c2 (REMOVE), ADD c4 (c1 and c4 stay); replace c1 -> c5, replace c4 -> c6,
        // replaceAll c5 -> c7 (REMOVE + ADD each), ADD c3, iterator removal of c3; c7 and c6 stay:
        // ADD 8, REMOVE 6, 16 operations
        TABLE.put(k0, c[0]);
        TABLE.put(k1, c[1]);
        TABLE.put(k0, c[2]);
        TABLE.putIfAbsent(k1, c[3]);
        sum += TABLE.get(k1).n;
        TABLE.remove(k0);
        TABLE.put(k2, c[4]);
        TABLE.replace(k1, c[5]);
        TABLE.replace(k2, c[4], c[6]);
        TABLE.replaceAll((k, v) -> v == c[5] ? c[7] : v);
        TABLE.put(k3, c[3]);
        removeByIterator(TABLE.values(), c[3]);

        // PriorityQueue: ADD 4 (offer, add), poll d0 (REMOVE), peek d1 (GET), remove d2, removeIf d3;
        // ADD d4 and d5, iterator removal of d4; d1 and d5 stay: ADD 6, REMOVE 4, 11 operations
        QUEUE.offer(d[0]);
        QUEUE.add(d[1]);
        QUEUE.add(d[2]);
        QUEUE.add(d[3]);
        sum += QUEUE.poll().n + QUEUE.peek().n;
        QUEUE.remove(d[2]);
        QUEUE.removeIf(x -> x == d[3]);
        QUEUE.add(d[4]);
        QUEUE.add(d[5]);
        removeByIterator(QUEUE, d[4]);

        // ArrayList: addAll of 3, addAll at 0 of 1 (ADD 4), removeIf e1 (REMOVE), ADD e4 and e5,
        // removeAll e0, retainAll removes e3, replaceAll e2 -> e6 (REMOVE + ADD), a sublist's clear
        // removes e6; a sublist's get (GET e5) and set e4 -> e7 (REMOVE + ADD); e7 and e5 stay: ADD 8,
        // REMOVE 6, 15 operations
        LIST.addAll(List.of(e[0], e[1], e[2]));
        LIST.addAll(0, List.of(e[3]));
        LIST.removeIf(x -> x == e[1]);
        LIST.add(e[4]);
        LIST.add(e[5]);
        LIST.removeAll(List.of(e[0]));
        LIST.retainAll(List.of(e[2], e[4], e[5]));
        LIST.replaceAll(x -> x == e[2] ? e[6] : x);
        LIST.subList(0, 1).clear();
        sum += LIST.subList(0, 2).get(1).n;
        LIST.subList(0, 1).set(0, e[7]);

        // LinkedList: addAll of 2 and add (ADD 3), poll f0 and pollLast f2 (REMOVE 2), ADD f3 and f4,
        // iterator removal of f3; f1 and f4 stay: ADD 5, REMOVE 3, 8 operations
        LINKED.addAll(List.of(f[0], f[1]));
        LINKED.add(f[2]);
        LINKED.poll();
        LINKED.pollLast();
        LINKED.add(f[3]);
        LINKED.add(f[4]);
        removeByIterator(LINKED, f[3]);

        // ArrayDeque: ADD 3, removeIf g0 and removeAll of g1 (REMOVE 2), ADD g3 and g4, iterator
        // removal of g3, remove(g4); g2 stays: ADD 5, REMOVE 4, 9 operations
        DEQUE.add(g[0]);
        DEQUE.add(g[1]);
        DEQUE.add(g[2]);
        DEQUE.removeIf(x -> x == g[0]);
        DEQUE.removeAll(List.of(g[1]));
        DEQUE.add(g[3]);
        DEQUE.add(g[4]);
        removeByIterator(DEQUE, g[3]);
        DEQUE.remove(g[4]);

        // HashMap: ADD h0, h1, h2; replace h0 -> h3 and replace h1 -> h4 (each a GET of the old value,
        // then REMOVE + ADD), replaceAll h2 -> h5 (REMOVE + ADD), removal of k0's h3 through the key
        // set's iterator; h4 and h5 stay: ADD 6, REMOVE 4, 12 operations
        HMAP.put(k0, h[0]);
        HMAP.put(k1, h[1]);
        HMAP.put(k2, h[2]);
        HMAP.replace(k0, h[3]);
        HMAP.replace(k1, h[1], h[4]);
        HMAP.replaceAll((k, v) -> v == h[2] ? h[5] : v);
        HMAP.keySet().removeIf(k -> k.equals(k0));

        // TreeMap: ADD t0, t1, t2; replace t0 -> t3, replaceAll t1 -> t4 (REMOVE + ADD each),
        // pollFirstEntry removes t3; t4 and t2 stay: ADD 5, REMOVE 3, 8 operations
        TMAP.put(k0, t[0]);
        TMAP.put(k1, t[1]);
        TMAP.put(k2, t[2]);
        TMAP.replace(k0, t[3]);
        TMAP.replaceAll((k, v) -> v == t[1] ? t[4] : v);
        TMAP.pollFirstEntry();

        // ConcurrentHashMap: putIfAbsent ADD m0, putIfAbsent finds m0 (GET), computeIfAbsent ADD m1,
        // computeIfAbsent finds m1 (GET), merge ADD m2, replaceAll m0 -> m3 (REMOVE + ADD; the values
        // it keeps are no operation), remove m2; m3 and m1 stay: ADD 4, REMOVE 2, 8 operations
        CMAP.putIfAbsent(k0, m[0]);
        CMAP.putIfAbsent(k0, m[1]);
        CMAP.computeIfAbsent(k1, k -> m[1]);
        CMAP.computeIfAbsent(k1, k -> m[2]);
        CMAP.merge(k2, m[2], (x, y) -> y);
        CMAP.replaceAll((k, v) -> v == m[0] ? m[3] : v);
        CMAP.remove(k2);

        // LinkedHashMap (its own replaceAll): ADD l0, l1, replaceAll l0 -> l2; l2 and l1 stay:
        // ADD 3, REMOVE 1, 4 operations
        LMAP.put(k0, l[0]);
        LMAP.put(k1, l[1]);
        LMAP.replaceAll((k, v) -> v == l[0] ? l[2] : v);

        System.gc();
        System.out.println(sum + " " + VECTOR.size() + STACK.size() + TABLE.size() + QUEUE.size() + LIST.size()
                           + LINKED.size() + DEQUE.size() + HMAP.size() + TMAP.size() + CMAP.size() + LMAP.size());
    }
}
