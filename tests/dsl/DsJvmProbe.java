// SPDX-License-Identifier: GPL-3.0-or-later
//
// The shipped descriptions on a real JDK 17 heap (tests/dsl/test-ds-jvm.sh):
// every collection of dsl-library is filled with FIRST elements, a GC, then
// MORE elements are added, a GC.  Elements, keys and values are distinct
// objects, so each structure's data-structure closure grows by an exact,
// known number of objects between the two GCs (see the script).

import java.util.*;
import java.util.concurrent.*;

final class DsJvmValue implements Comparable<DsJvmValue> {
    final int v;
    DsJvmValue(int v) { this.v = v; }
    @Override public int compareTo(DsJvmValue o) { return Integer.compare(v, o.v); }
}

enum DsJvmKey { A, B, C, D }

public final class DsJvmProbe {
    static final int FIRST = 300;
    static final int MORE = 200;

    static final HashMap<String, DsJvmValue> HASH_MAP = new HashMap<>();
    static final LinkedHashMap<String, DsJvmValue> LINKED_HASH_MAP = new LinkedHashMap<>();
    static final TreeMap<String, DsJvmValue> TREE_MAP = new TreeMap<>();
    static final HashSet<DsJvmValue> HASH_SET = new HashSet<>();
    static final LinkedHashSet<DsJvmValue> LINKED_HASH_SET = new LinkedHashSet<>();
    static final TreeSet<DsJvmValue> TREE_SET = new TreeSet<>();
    static final ArrayList<DsJvmValue> ARRAY_LIST = new ArrayList<>();
    static final LinkedList<DsJvmValue> LINKED_LIST = new LinkedList<>();
    static final ArrayDeque<DsJvmValue> ARRAY_DEQUE = new ArrayDeque<>();
    static final PriorityQueue<DsJvmValue> PRIORITY_QUEUE = new PriorityQueue<>();
    static final Vector<DsJvmValue> VECTOR = new Vector<>();
    static final Stack<DsJvmValue> STACK = new Stack<>();
    static final Hashtable<String, DsJvmValue> HASHTABLE = new Hashtable<>();
    static final Properties PROPERTIES = new Properties();
    static final IdentityHashMap<DsJvmValue, DsJvmValue> IDENTITY_HASH_MAP = new IdentityHashMap<>();
    static final WeakHashMap<DsJvmValue, DsJvmValue> WEAK_HASH_MAP = new WeakHashMap<>();
    static final ArrayList<DsJvmValue> WEAK_KEYS = new ArrayList<>();
    static final EnumMap<DsJvmKey, DsJvmValue> ENUM_MAP = new EnumMap<>(DsJvmKey.class);
    static final ConcurrentHashMap<String, DsJvmValue> CONCURRENT_HASH_MAP = new ConcurrentHashMap<>();
    static final ConcurrentLinkedQueue<DsJvmValue> CONCURRENT_LINKED_QUEUE = new ConcurrentLinkedQueue<>();
    static final ConcurrentLinkedDeque<DsJvmValue> CONCURRENT_LINKED_DEQUE = new ConcurrentLinkedDeque<>();
    static final ConcurrentSkipListMap<String, DsJvmValue> SKIP_LIST_MAP = new ConcurrentSkipListMap<>();
    static final CopyOnWriteArrayList<DsJvmValue> COPY_ON_WRITE_LIST = new CopyOnWriteArrayList<>();
    static final LinkedBlockingQueue<DsJvmValue> LINKED_BLOCKING_QUEUE = new LinkedBlockingQueue<>();
    static final LinkedBlockingDeque<DsJvmValue> LINKED_BLOCKING_DEQUE = new LinkedBlockingDeque<>();
    static final ArrayBlockingQueue<DsJvmValue> ARRAY_BLOCKING_QUEUE = new ArrayBlockingQueue<>(FIRST + MORE);
    static final PriorityBlockingQueue<DsJvmValue> PRIORITY_BLOCKING_QUEUE = new PriorityBlockingQueue<>();

    static int next = 0;

    static DsJvmValue value() { return new DsJvmValue(next++); }
    static String key() { return "key-" + (next++); }

    static void fill(int n) {
        for (int i = 0; i < n; i++) {
            HASH_MAP.put(key(), value());
            LINKED_HASH_MAP.put(key(), value());
            TREE_MAP.put(key(), value());
            HASH_SET.add(value());
            LINKED_HASH_SET.add(value());
            TREE_SET.add(value());
            ARRAY_LIST.add(value());
            LINKED_LIST.add(value());
            ARRAY_DEQUE.add(value());
            PRIORITY_QUEUE.add(value());
            VECTOR.add(value());
            STACK.push(value());
            HASHTABLE.put(key(), value());
            PROPERTIES.put(key(), value());
            IDENTITY_HASH_MAP.put(value(), value());
            DsJvmValue weak = value();
            WEAK_KEYS.add(weak);
            WEAK_HASH_MAP.put(weak, value());
            CONCURRENT_HASH_MAP.put(key(), value());
            CONCURRENT_LINKED_QUEUE.add(value());
            CONCURRENT_LINKED_DEQUE.add(value());
            SKIP_LIST_MAP.put(key(), value());
            COPY_ON_WRITE_LIST.add(value());
            LINKED_BLOCKING_QUEUE.add(value());
            LINKED_BLOCKING_DEQUE.add(value());
            ARRAY_BLOCKING_QUEUE.add(value());
            PRIORITY_BLOCKING_QUEUE.add(value());
        }
    }

    public static void main(String[] args) {
        ENUM_MAP.put(DsJvmKey.A, value());
        ENUM_MAP.put(DsJvmKey.C, value());
        fill(FIRST);
        System.gc();
        fill(MORE);
        ENUM_MAP.put(DsJvmKey.B, value());
        System.gc();
        System.out.println("DsJvmProbe " + (HASH_MAP.size() + WEAK_HASH_MAP.size() + ENUM_MAP.size()));
    }
}
