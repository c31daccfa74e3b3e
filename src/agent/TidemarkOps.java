// SPDX-License-Identifier: GPL-3.0-or-later
//
// Loaded by the Tidemark agent into the boot class loader when it records
// container operations (`record --containers`): the java.util collections
// rewritten by TidemarkContainers call these methods, which pass each add,
// get and remove to the agent (op, a native method it registers).  Kinds
// as CONTAINER_OP in trace-format.md.  For maps the element is the value;
// when the value is a set's marker (HashSet's and TreeSet's PRESENT, a
// plain java.lang.Object; a ConcurrentHashMap key set's Boolean.TRUE) the
// element is the key.

import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

public final class TidemarkOps {
    private static final int ADD = 1;
    private static final int GET = 2;
    private static final int REMOVE = 3;
    private static final int ADD_OR_GET = 4;
    private static final int CLEAR = 5;

    private TidemarkOps() {
    }

    static native void op(int kind, Object container, Object element);

    private static Object element(Object key, Object value) {
        if (value == null) {
            return null;
        }
        Class<?> c = value.getClass();
        return c == Object.class || c == Boolean.class ? key : value;
    }

    public static void add(Object c, Object e) {
        if (e != null) {
            op(ADD, c, e);
        }
    }

    // at the entry of a bulk add of `all` to c
    public static void addAll(Object c, Object all) {
        if (all instanceof Collection) {
            for (Object e : (Collection<?>) all) {
                if (e != null) {
                    op(ADD, c, e);
                }
            }
        }
    }

    // the predicate of a bulk removal from c: each element it accepts is removed
    private static final class Removing implements Predicate<Object> {
        private final Object container;
        private final Predicate<Object> filter;

        Removing(Object container, Predicate<Object> filter) {
            this.container = container;
            this.filter = filter;
        }

        @Override
        public boolean test(Object e) {
            boolean removed = filter.test(e);
            if (removed && e != null) {
                op(REMOVE, container, e);
            }
            return removed;
        }
    }

    public static Predicate<Object> removing(Object c, Predicate<Object> filter) {
        return filter == null ? null : new Removing(c, filter);
    }

    // the collection ArrayList.batchRemove (removeAll, retainAll) asks about
    // each element once: an element is removed when the answer is not
    // `complement`
    private static final class RemovingAll extends AbstractCollection<Object> {
        private final Object container;
        private final Collection<?> filter;
        private final boolean complement;

        RemovingAll(Object container, Collection<?> filter, boolean complement) {
            this.container = container;
            this.filter = filter;
            this.complement = complement;
        }

        @Override
        public boolean contains(Object e) {
            boolean in = filter.contains(e);
            if (in != complement && e != null) {
                op(REMOVE, container, e);
            }
            return in;
        }

        @SuppressWarnings("unchecked")
        @Override
        public Iterator<Object> iterator() {
            return (Iterator<Object>) filter.iterator();
        }

        @Override
        public int size() {
            return filter.size();
        }
    }

    public static Collection<?> removingAll(Object c, Collection<?> filter, boolean complement) {
        return filter == null ? null : new RemovingAll(c, filter, complement);
    }

    // a list's replaceAll: each element the operator changes is replaced
    // (named classes, not lambdas: no bootstrap inside a collection method)
    private static final class Replacing implements UnaryOperator<Object> {
        private final Object list;
        private final UnaryOperator<Object> f;

        Replacing(Object list, UnaryOperator<Object> f) {
            this.list = list;
            this.f = f;
        }

        @Override
        public Object apply(Object x) {
            Object y = f.apply(x);
            set(x, list, y);
            return y;
        }
    }

    public static UnaryOperator<Object> replacing(Object c, UnaryOperator<Object> f) {
        return f == null ? null : new Replacing(c, f);
    }

    // a map's replaceAll: each value the function changes is replaced
    private static final class ReplacingValues implements BiFunction<Object, Object, Object> {
        private final Object map;
        private final BiFunction<Object, Object, Object> f;

        ReplacingValues(Object map, BiFunction<Object, Object, Object> f) {
            this.map = map;
            this.f = f;
        }

        @Override
        public Object apply(Object k, Object v) {
            Object y = f.apply(k, v);
            replaced(v, map, k, y);
            return y;
        }
    }

    public static BiFunction<Object, Object, Object> replacingValues(Object map, BiFunction<Object, Object, Object> f) {
        return f == null ? null : new ReplacingValues(map, f);
    }

    // at the entry of a method deleting e from c
    public static void remove(Object c, Object e) {
        if (e != null) {
            op(REMOVE, c, e);
        }
    }

    // at the entry of a list's removeRange(from, to): the elements, read
    // through an iterator (which records nothing)
    public static void removeRange(Object c, int from, int to) {
        if (c instanceof List && 0 <= from && from <= to && to <= ((List<?>) c).size()) {
            ListIterator<?> it = ((List<?>) c).listIterator(from);
            for (int i = from; i < to; i++) {
                remove(c, it.next());
            }
        }
    }

    // at the entry of Vector.setElementAt(value, index)
    public static void setAt(Object c, Object value, int index) {
        if (c instanceof List && index >= 0 && index < ((List<?>) c).size()) {
            set(((List<?>) c).listIterator(index).next(), c, value);
        }
    }

    // at the entry of a Hashtable iterator's remove (an Enumeration's throws)
    public static void tableIteratorRemove(Object it, boolean iterator, Object entry, Object table) {
        if (iterator) {
            entry(REMOVE, entry, table);
        }
    }

    // at the entry of Vector.removeElementAt: the element, read through an
    // iterator (which records nothing)
    public static void removeAt(Object c, int index) {
        if (c instanceof List && index >= 0 && index < ((List<?>) c).size()) {
            Object e = ((List<?>) c).listIterator(index).next();
            if (e != null) {
                op(REMOVE, c, e);
            }
        }
    }

    // Hashtable.put and putIfAbsent, after they found `old` (null: none)
    public static void tablePut(Object old, Object map, Object key, Object value) {
        putDone(old, map, key, value, false);
    }

    public static void tablePutIfAbsent(Object old, Object map, Object key, Object value) {
        putDone(old, map, key, value, true);
    }

    // after remove(key) returned the value it removed (null: none)
    public static void removedKey(Object ret, Object map, Object key) {
        Object e = element(key, ret);
        if (e != null) {
            op(REMOVE, map, e);
        }
    }

    public static void clear(Object c) {
        op(CLEAR, c, null);
    }

    public static void got(Object ret, Object c) {
        if (ret != null) {
            op(GET, c, ret);
        }
    }

    // a sublist's get, on its root list
    public static void gotIn(Object ret, Object sublist, Object root) {
        got(ret, root);
    }

    // a sublist's set, on its root list
    public static void setIn(Object old, Object sublist, Object value, Object root) {
        set(old, root, value);
    }

    public static void gotKey(Object ret, Object c, Object key) {
        Object e = element(key, ret);
        if (e != null) {
            op(GET, c, e);
        }
    }

    private static void entry(int kind, Object entry, Object c) {
        if (entry instanceof Map.Entry) {
            Map.Entry<?, ?> n = (Map.Entry<?, ?>) entry;
            Object e = element(n.getKey(), n.getValue());
            if (e != null) {
                op(kind, c, e);
            }
        }
    }

    public static void gotEntry(Object entry, Object c) {
        entry(GET, entry, c);
    }

    public static void removedEntry(Object entry, Object c) {
        entry(REMOVE, entry, c);
    }

    // at the entry of a method that deletes `entry` from c
    public static void removeEntry(Object c, Object entry) {
        entry(REMOVE, entry, c);
    }

    public static void removed(Object ret, Object c) {
        if (ret != null) {
            op(REMOVE, c, ret);
        }
    }

    public static void removedIf(boolean done, Object c, Object e) {
        if (done && e != null) {
            op(REMOVE, c, e);
        }
    }

    // after a put that found `old` (null: none)
    public static void putDone(Object old, Object map, Object key, Object value, boolean onlyIfAbsent) {
        Object e = element(key, value);
        Object o = element(key, old);
        if (o == null) {
            if (e != null) {
                op(ADD, map, e);
            }
        } else if (onlyIfAbsent || o == e) {
            op(GET, map, o);
        } else {
            op(REMOVE, map, o);
            if (e != null) {
                op(ADD, map, e);
            }
        }
    }

    public static void treePutDone(Object old, Object map, Object key, Object value, boolean replaceOld) {
        putDone(old, map, key, value, !replaceOld);
    }

    // ConcurrentHashMap.replaceNode, a map's replace(key, value): `old`
    // (null: none) replaced by value (null: removed); replacing a value by
    // itself (ConcurrentHashMap.replaceAll does for those it keeps) is no
    // operation, as in a list's set
    public static void replaced(Object old, Object map, Object key, Object value) {
        Object o = element(key, old);
        Object e = element(key, value);
        if (o == null || o == e) {
            return;
        }
        op(REMOVE, map, o);
        if (e != null) {
            op(ADD, map, e);
        }
    }

    // a map's replace(key, old, value), when it replaced
    public static void replacedIf(boolean done, Object map, Object key, Object old, Object value) {
        if (done) {
            replaced(old, map, key, value);
        }
    }

    public static void set(Object old, Object list, Object value) {
        if (old == value) {
            return;
        }
        if (old != null) {
            op(REMOVE, list, old);
        }
        if (value != null) {
            op(ADD, list, value);
        }
    }

    public static void addOrGet(Object ret, Object map, Object key) {
        Object e = element(key, ret);
        if (e != null) {
            op(ADD_OR_GET, map, e);
        }
    }
}
