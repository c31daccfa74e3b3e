// SPDX-License-Identifier: GPL-3.0-or-later
//
// Prints the real internal layout of the JDK's collections, so that the
// descriptions in dsl-library/ are checked against this JDK, not guessed.
// Run (source-launch mode, JDK 17):
//   java --add-opens java.base/java.util=ALL-UNNAMED \
//        --add-opens java.base/java.util.concurrent=ALL-UNNAMED \
//        --add-opens java.base/java.util.concurrent.locks=ALL-UNNAMED \
//        --add-opens java.base/java.lang.ref=ALL-UNNAMED \
//        tests/dsl/JdkCollectionsProbe.java > tests/dsl/jdk17-collections.txt
//
// Output, one fact per line, sorted and deduplicated:
//   CLASS <type>                      a class that exists in this JDK
//   SUPER <type> <class>              <class> is a superclass of <type>
//   FIELD <type> <field> <decl-type>  a non-static reference field (also inherited)
//   EDGE <type> <field> <actual-type> a reference seen in a populated instance
// Array types are written "T[]"; "[]" as the field name means an element.
// Only objects of java.util.* and arrays are expanded; elements are leaves.
import java.lang.reflect.*;
import java.util.*;
import java.util.concurrent.*;

public class JdkCollectionsProbe {
    static final TreeSet<String> out = new TreeSet<>();

    /* A key with a constant hash so that HashMap and ConcurrentHashMap
     * bins turn into trees. */
    static final class ProbeKey implements Comparable<ProbeKey> {
        final int v;
        ProbeKey(int v) { this.v = v; }
        @Override public int hashCode() { return 42; }
        @Override public boolean equals(Object o) { return o instanceof ProbeKey && ((ProbeKey) o).v == v; }
        @Override public int compareTo(ProbeKey o) { return Integer.compare(v, o.v); }
    }
    static final class ProbeValue { final int v; ProbeValue(int v) { this.v = v; } }
    enum ProbeEnum { A, B, C }

    static String name(Class<?> c) {
        if (c.isArray()) return name(c.getComponentType()) + "[]";
        return c.getName();
    }

    /* Objects of the collections' own packages and arrays are expanded;
     * everything else (elements, Strings, Threads, Classes) is a leaf. */
    static boolean internal(Class<?> c) {
        if (c.isArray()) return !c.getComponentType().isPrimitive();
        return c.getName().startsWith("java.util.");
    }

    static List<Field> refFields(Class<?> c) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass())
            for (Field f : k.getDeclaredFields())
                if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive())
                    fields.add(f);
        return fields;
    }

    static void describeClass(Class<?> c) {
        out.add("CLASS " + name(c));
        if (c.isArray()) return;
        for (Class<?> k = c.getSuperclass(); k != null; k = k.getSuperclass())
            out.add("SUPER " + name(c) + " " + name(k));
        for (Field f : refFields(c))
            out.add("FIELD " + name(c) + " " + f.getName() + " " + name(f.getType()));
    }

    static void describeClass(String binaryName) throws ClassNotFoundException {
        describeClass(Class.forName(binaryName));
    }

    /* Walks every object of the JDK reachable from `root` without passing
     * through an element (a Probe* object), recording the actual types. */
    static void walk(Object root) throws IllegalAccessException {
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        ArrayDeque<Object> todo = new ArrayDeque<>();
        todo.add(root);
        seen.put(root, true);
        while (!todo.isEmpty()) {
            Object o = todo.poll();
            Class<?> c = o.getClass();
            describeClass(c);
            List<Object[]> refs = new ArrayList<>();
            if (c.isArray()) {
                if (c.getComponentType().isPrimitive()) continue;
                for (Object e : (Object[]) o)
                    if (e != null) refs.add(new Object[] { "[]", e });
            } else {
                for (Field f : refFields(c)) {
                    f.setAccessible(true);
                    Object v = f.get(o);
                    if (v != null) refs.add(new Object[] { f.getName(), v });
                }
            }
            for (Object[] r : refs) {
                Object v = r[1];
                out.add("EDGE " + name(c) + " " + r[0] + " " + name(v.getClass()));
                describeClass(v.getClass());
                if (!internal(v.getClass())) continue;
                if (!seen.containsKey(v)) {
                    seen.put(v, true);
                    todo.add(v);
                }
            }
        }
    }

    static ProbeKey k(int i) { return new ProbeKey(i); }
    static ProbeValue v(int i) { return new ProbeValue(i); }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void fillMap(Map m, int n) { for (int i = 0; i < n; i++) m.put(k(i), v(i)); }
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void fillColl(Collection c, int n) { for (int i = 0; i < n; i++) c.add(k(i)); }

    public static void main(String[] args) throws Exception {
        List<Object> roots = new ArrayList<>();
        // 100 colliding keys: the bin becomes a tree (TREEIFY_THRESHOLD 8, table >= 64)
        roots.add(new HashMap<>()); fillMap((Map) roots.get(roots.size() - 1), 100);
        Map<Object, Object> plainHashMap = new HashMap<>();
        for (int i = 0; i < 20; i++) plainHashMap.put(i, v(i));   // distinct hashes: plain Nodes
        roots.add(plainHashMap);
        LinkedHashMap<Object, Object> lhm = new LinkedHashMap<>(); fillMap(lhm, 100); roots.add(lhm);
        LinkedHashMap<Object, Object> lhmPlain = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) lhmPlain.put(i, v(i));   // LinkedHashMap$Entry
        roots.add(lhmPlain);
        TreeMap<Object, Object> tm = new TreeMap<>(); fillMap(tm, 20); roots.add(tm);
        HashSet<Object> hs = new HashSet<>(); fillColl(hs, 20); roots.add(hs);
        LinkedHashSet<Object> lhs = new LinkedHashSet<>(); fillColl(lhs, 20); roots.add(lhs);
        TreeSet<Object> ts = new TreeSet<>(); fillColl(ts, 20); roots.add(ts);
        ArrayList<Object> al = new ArrayList<>(); fillColl(al, 20); roots.add(al);
        LinkedList<Object> ll = new LinkedList<>(); fillColl(ll, 20); roots.add(ll);
        ArrayDeque<Object> ad = new ArrayDeque<>(); fillColl(ad, 20); roots.add(ad);
        PriorityQueue<Object> pq = new PriorityQueue<>(); fillColl(pq, 20); roots.add(pq);
        Vector<Object> vec = new Vector<>(); fillColl(vec, 20); roots.add(vec);
        Stack<Object> st = new Stack<>(); fillColl(st, 20); roots.add(st);
        Hashtable<Object, Object> ht = new Hashtable<>(); fillMap(ht, 20); roots.add(ht);
        Properties props = new Properties();
        for (int i = 0; i < 20; i++) props.put("k" + i, "v" + i);
        roots.add(props);
        IdentityHashMap<Object, Object> ihm = new IdentityHashMap<>(); fillMap(ihm, 20); roots.add(ihm);
        WeakHashMap<Object, Object> whm = new WeakHashMap<>();
        List<ProbeKey> strongKeys = new ArrayList<>();
        for (int i = 0; i < 20; i++) { ProbeKey key = k(i); strongKeys.add(key); whm.put(key, v(i)); }
        roots.add(whm);
        EnumMap<ProbeEnum, Object> em = new EnumMap<>(ProbeEnum.class);
        em.put(ProbeEnum.A, v(1)); em.put(ProbeEnum.C, v(3)); roots.add(em);
        roots.add(EnumSet.of(ProbeEnum.A, ProbeEnum.B));
        ConcurrentHashMap<Object, Object> chm = new ConcurrentHashMap<>(); fillMap(chm, 100); roots.add(chm);
        ConcurrentHashMap<Object, Object> chmPlain = new ConcurrentHashMap<>();
        for (int i = 0; i < 20; i++) chmPlain.put(i, v(i));
        roots.add(chmPlain);
        roots.add(ConcurrentHashMap.newKeySet()); fillColl((Collection) roots.get(roots.size() - 1), 20);
        ConcurrentLinkedQueue<Object> clq = new ConcurrentLinkedQueue<>(); fillColl(clq, 20); roots.add(clq);
        ConcurrentLinkedDeque<Object> cld = new ConcurrentLinkedDeque<>(); fillColl(cld, 20); roots.add(cld);
        ConcurrentSkipListMap<Object, Object> cslm = new ConcurrentSkipListMap<>(); fillMap(cslm, 100); roots.add(cslm);
        ConcurrentSkipListSet<Object> csls = new ConcurrentSkipListSet<>(); fillColl(csls, 100); roots.add(csls);
        CopyOnWriteArrayList<Object> cow = new CopyOnWriteArrayList<>(); fillColl(cow, 20); roots.add(cow);
        CopyOnWriteArraySet<Object> cows = new CopyOnWriteArraySet<>(); fillColl(cows, 20); roots.add(cows);
        LinkedBlockingQueue<Object> lbq = new LinkedBlockingQueue<>(); fillColl(lbq, 20); roots.add(lbq);
        LinkedBlockingDeque<Object> lbd = new LinkedBlockingDeque<>(); fillColl(lbd, 20); roots.add(lbd);
        ArrayBlockingQueue<Object> abq = new ArrayBlockingQueue<>(32); fillColl(abq, 20); roots.add(abq);
        PriorityBlockingQueue<Object> pbq = new PriorityBlockingQueue<>(); fillColl(pbq, 20); roots.add(pbq);
        LinkedTransferQueue<Object> ltq = new LinkedTransferQueue<>(); fillColl(ltq, 20); roots.add(ltq);
        roots.add(new DelayQueue<>());
        for (Object r : roots) walk(r);

        // Internal classes that a small populated instance may not show
        // (a ConcurrentHashMap only has ForwardingNodes while resizing).
        for (String n : new String[] {
                "java.util.HashMap$Node", "java.util.HashMap$TreeNode",
                "java.util.LinkedHashMap$Entry", "java.util.TreeMap$Entry",
                "java.util.Hashtable$Entry", "java.util.WeakHashMap$Entry",
                "java.util.concurrent.ConcurrentHashMap$Node",
                "java.util.concurrent.ConcurrentHashMap$TreeBin",
                "java.util.concurrent.ConcurrentHashMap$TreeNode",
                "java.util.concurrent.ConcurrentHashMap$ForwardingNode",
                "java.util.concurrent.ConcurrentHashMap$ReservationNode",
                "java.util.concurrent.ConcurrentHashMap$CounterCell",
                "java.util.concurrent.ConcurrentHashMap$KeySetView",
                "java.util.concurrent.ConcurrentSkipListMap$Node",
                "java.util.concurrent.ConcurrentSkipListMap$Index",
                "java.util.concurrent.LinkedBlockingQueue$Node",
                "java.util.concurrent.LinkedBlockingDeque$Node",
                "java.util.concurrent.ConcurrentLinkedQueue$Node",
                "java.util.concurrent.ConcurrentLinkedDeque$Node",
                "java.util.concurrent.LinkedTransferQueue$Node",
                "java.util.concurrent.DelayQueue",
                "java.util.LinkedList$Node", "java.util.RegularEnumSet",
                "java.util.JumboEnumSet" })
            describeClass(n);

        for (String line : out) System.out.println(line);
        if (strongKeys.isEmpty()) System.out.println();  // keep the weak keys alive
    }
}
