// SPDX-License-Identifier: GPL-3.0-or-later
//
// Loaded by the Tidemark agent into the boot class loader when it records
// container operations: rewrites the java.util collection classes as they
// are loaded or retransformed so that their add, get and remove methods
// call TidemarkOps.  Uses the JDK's internal copy of ASM (java.base exports
// it to this class at run time).  Only straight-line code is inserted (at
// a method's start, or before its returns), so the stack map frames stay
// valid and only the maximum stack depth is recomputed.  The rules name
// the methods every public operation funnels into on JDK 17 (HashMap's
// putVal, getNode and removeNode cover put, putIfAbsent, putAll, get,
// getOrDefault, containsKey, remove, iterator removal, LinkedHashMap's
// eviction and the HashSets built on them); a method a JDK does not have
// is simply not rewritten.  Iterator removal goes through the same
// methods (Hashtable's iterators get their own hook).  Bulk operations:
// addAll hooks name each element added; removeIf (and the
// removeAll/retainAll built on the same bulkRemove) get their predicate
// wrapped so that each element it accepts is a REMOVE, ArrayList's
// batchRemove its collection, replaceAll its function.  Hooks read an
// element the method is about to delete from the class's own fields.

import java.util.HashMap;
import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.MethodVisitor;
import jdk.internal.org.objectweb.asm.Opcodes;

final class TidemarkContainers {
    private static final String OPS = "TidemarkOps";
    private static final String O = "Ljava/lang/Object;";

    // where the call goes: at the start, or before every return of this opcode
    private static final int ENTRY = 0;

    private static final class Rule {
        final int at;          // ENTRY, Opcodes.ARETURN or Opcodes.IRETURN
        final String hook;
        final String desc;
        final String[] args;   // after the return value (if any) and `this`, tokens as in Hook.load
        final int store;       // ENTRY: the local the hook's result replaces (-1: none)

        Rule(int at, String hook, String desc, String args, int store) {
            this.at = at;
            this.hook = hook;
            this.desc = desc;
            this.args = args.isEmpty() ? new String[0] : args.split(" ");
            this.store = store;
        }
    }

    private static final HashMap<String, Rule> RULES = new HashMap<>();

    private static void rule(String cls, String method, int at, String hook, String desc, String args) {
        RULES.put(cls + "." + method, new Rule(at, hook, desc, args, -1));
    }

    // a bulk add of the Collection in `slot`
    private static void addAll(String cls, String method, int slot) {
        rule(cls, method, ENTRY, "addAll", "(" + O + O + ")V", "a" + slot);
    }

    // a bulk removal by the Predicate in slot 1: wrapped to see what it removes
    private static void removeIf(String cls, String method) {
        String p = "Ljava/util/function/Predicate;";
        RULES.put(cls + "." + method, new Rule(ENTRY, "removing", "(" + O + p + ")" + p, "a1", 1));
    }

    // an argument in slot 1 replaced by the hook's wrapper of it (hook(this, arg) -> wrapped)
    private static void wrap(String cls, String method, String hook, String type) {
        RULES.put(cls + "." + method, new Rule(ENTRY, hook, "(" + O + type + ")" + type, "a1", 1));
    }

    // replaceAll of a map: its BiFunction wrapped to see each value it replaces
    private static void replaceAll(String cls) {
        wrap(cls, "replaceAll(Ljava/util/function/BiFunction;)V", "replacingValues", "Ljava/util/function/BiFunction;");
    }

    // a map's replace(key, value) and replace(key, old, value)
    private static void replace(String cls) {
        rule(cls, "replace(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "replaced",
             "(" + O + O + O + O + ")V", "a1 a2");
        rule(cls, "replace(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Z", Opcodes.IRETURN, "replacedIf",
             "(Z" + O + O + O + O + ")V", "a1 a2 a3");
    }

    // removal at the entry of a method deleting the element at index `slot` of the array `field`
    private static void removeSlot(String cls, String method, String field, int slot) {
        rule(cls, method, ENTRY, "remove", "(" + O + O + ")V", field + "[i" + slot + "]");
    }

    // a list's removeRange(from, to) (and so subList(...).clear())
    private static void removeRange(String cls) {
        rule(cls, "removeRange(II)V", ENTRY, "removeRange", "(" + O + "II)V", "i1 i2");
    }

    private static void entryAdd(String cls, String method, int slot) {
        rule(cls, method, ENTRY, "add", "(" + O + O + ")V", "a" + slot);
    }

    private static void exit(String cls, String method, String hook) {
        rule(cls, method, Opcodes.ARETURN, hook, "(" + O + O + ")V", "");
    }

    private static void addOrGet(String cls) {
        String d = "(" + O + O + O + ")V";
        rule(cls, "computeIfAbsent(Ljava/lang/Object;Ljava/util/function/Function;)Ljava/lang/Object;",
             Opcodes.ARETURN, "addOrGet", d, "a1");
        rule(cls, "compute(Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
             Opcodes.ARETURN, "addOrGet", d, "a1");
        rule(cls, "merge(Ljava/lang/Object;Ljava/lang/Object;Ljava/util/function/BiFunction;)Ljava/lang/Object;",
             Opcodes.ARETURN, "addOrGet", d, "a1");
    }

    private static void clear(String cls) {
        rule(cls, "clear()V", ENTRY, "clear", "(" + O + ")V", "");
    }

    static {
        String put5 = "(" + O + O + O + O + "Z)V";
        String hm = "java/util/HashMap";
        rule(hm, "putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;", Opcodes.ARETURN, "putDone", put5, "a2 a3 i4");
        exit(hm, "getNode(Ljava/lang/Object;)Ljava/util/HashMap$Node;", "gotEntry");
        exit(hm, "removeNode(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/util/HashMap$Node;", "removedEntry");
        addOrGet(hm);
        replaceAll(hm);
        replace(hm);
        clear(hm);
        replaceAll("java/util/LinkedHashMap");   // its own loop over its list

        String tm = "java/util/TreeMap";
        rule(tm, "put(Ljava/lang/Object;Ljava/lang/Object;Z)Ljava/lang/Object;", Opcodes.ARETURN, "treePutDone", put5, "a1 a2 i3");
        rule(tm, "get(Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "gotKey", "(" + O + O + O + ")V", "a1");
        rule(tm, "deleteEntry(Ljava/util/TreeMap$Entry;)V", ENTRY, "removeEntry", "(" + O + O + ")V", "a1");
        addOrGet(tm);
        replaceAll(tm);
        replace(tm);
        clear(tm);

        String chm = "java/util/concurrent/ConcurrentHashMap";
        rule(chm, "putVal(Ljava/lang/Object;Ljava/lang/Object;Z)Ljava/lang/Object;", Opcodes.ARETURN, "putDone", put5, "a1 a2 i3");
        rule(chm, "get(Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "gotKey", "(" + O + O + O + ")V", "a1");
        rule(chm, "replaceNode(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
             Opcodes.ARETURN, "replaced", "(" + O + O + O + O + ")V", "a1 a2");
        addOrGet(chm);
        clear(chm);

        String al = "java/util/ArrayList";
        entryAdd(al, "add(Ljava/lang/Object;)Z", 1);
        entryAdd(al, "add(ILjava/lang/Object;)V", 2);
        exit(al, "get(I)Ljava/lang/Object;", "got");
        rule(al, "set(ILjava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "set", "(" + O + O + O + ")V", "a2");
        exit(al, "remove(I)Ljava/lang/Object;", "removed");
        rule(al, "remove(Ljava/lang/Object;)Z", Opcodes.IRETURN, "removedIf", "(Z" + O + O + ")V", "a1");
        addAll(al, "addAll(Ljava/util/Collection;)Z", 1);
        addAll(al, "addAll(ILjava/util/Collection;)Z", 2);
        removeIf(al, "removeIf(Ljava/util/function/Predicate;II)Z");
        // removeAll and retainAll (of the list and its sublists): the
        // collection asked once per element, wrapped to see the answers
        RULES.put(al + ".batchRemove(Ljava/util/Collection;ZII)Z", new Rule(ENTRY, "removingAll",
                  "(" + O + "Ljava/util/Collection;Z)Ljava/util/Collection;", "a1 i2", 1));
        wrap(al, "replaceAllRange(Ljava/util/function/UnaryOperator;II)V", "replacing", "Ljava/util/function/UnaryOperator;");
        removeRange(al);
        clear(al);
        // its sublists' get and set use the root list's array (the rest
        // goes through the root's methods): operations on the root
        String root = "root:Ljava/util/ArrayList;";
        rule(al + "$SubList", "get(I)Ljava/lang/Object;", Opcodes.ARETURN, "gotIn", "(" + O + O + O + ")V", root);
        rule(al + "$SubList", "set(ILjava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "setIn",
             "(" + O + O + O + O + ")V", "a2 " + root);

        String ll = "java/util/LinkedList";
        entryAdd(ll, "linkFirst(Ljava/lang/Object;)V", 1);
        entryAdd(ll, "linkLast(Ljava/lang/Object;)V", 1);
        entryAdd(ll, "linkBefore(Ljava/lang/Object;Ljava/util/LinkedList$Node;)V", 1);
        exit(ll, "unlink(Ljava/util/LinkedList$Node;)Ljava/lang/Object;", "removed");
        exit(ll, "unlinkFirst(Ljava/util/LinkedList$Node;)Ljava/lang/Object;", "removed");
        exit(ll, "unlinkLast(Ljava/util/LinkedList$Node;)Ljava/lang/Object;", "removed");
        for (String m : new String[] { "getFirst", "getLast", "peek", "peekFirst", "peekLast" }) {
            exit(ll, m + "()Ljava/lang/Object;", "got");
        }
        exit(ll, "get(I)Ljava/lang/Object;", "got");
        rule(ll, "set(ILjava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "set", "(" + O + O + O + ")V", "a2");
        addAll(ll, "addAll(ILjava/util/Collection;)Z", 2);   // addAll(c) is addAll(size, c)
        clear(ll);

        String ad = "java/util/ArrayDeque";
        entryAdd(ad, "addFirst(Ljava/lang/Object;)V", 1);
        entryAdd(ad, "addLast(Ljava/lang/Object;)V", 1);
        exit(ad, "pollFirst()Ljava/lang/Object;", "removed");
        exit(ad, "pollLast()Ljava/lang/Object;", "removed");
        for (String m : new String[] { "getFirst", "getLast", "peekFirst", "peekLast" }) {
            exit(ad, m + "()Ljava/lang/Object;", "got");
        }
        // removeFirst/LastOccurrence (remove(o)) and the iterators' remove
        removeSlot(ad, "delete(I)Z", "elements", 1);
        removeIf(ad, "bulkRemove(Ljava/util/function/Predicate;)Z");   // removeIf, removeAll, retainAll
        clear(ad);

        // Vector (and Stack): add(E) and addElement share the private add;
        // add(int, E) is insertElementAt; remove(Object), removeElement and
        // Stack.pop end in removeElementAt; clear() is removeAllElements
        String v = "java/util/Vector";
        entryAdd(v, "add(Ljava/lang/Object;[Ljava/lang/Object;I)V", 1);
        entryAdd(v, "insertElementAt(Ljava/lang/Object;I)V", 1);
        addAll(v, "addAll(Ljava/util/Collection;)Z", 1);
        addAll(v, "addAll(ILjava/util/Collection;)Z", 2);
        for (String m : new String[] { "get(I)", "elementAt(I)", "firstElement()", "lastElement()" }) {
            exit(v, m + "Ljava/lang/Object;", "got");
        }
        rule(v, "set(ILjava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "set", "(" + O + O + O + ")V", "a2");
        exit(v, "remove(I)Ljava/lang/Object;", "removed");
        rule(v, "removeElementAt(I)V", ENTRY, "removeAt", "(" + O + "I)V", "i1");
        rule(v, "setElementAt(Ljava/lang/Object;I)V", ENTRY, "setAt", "(" + O + O + "I)V", "a1 i2");
        wrap(v, "replaceAll(Ljava/util/function/UnaryOperator;)V", "replacing", "Ljava/util/function/UnaryOperator;");
        removeRange(v);
        removeIf(v, "bulkRemove(Ljava/util/function/Predicate;)Z");
        rule(v, "removeAllElements()V", ENTRY, "clear", "(" + O + ")V", "");

        String ht = "java/util/Hashtable";
        rule(ht, "put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "tablePut",
             "(" + O + O + O + O + ")V", "a1 a2");
        rule(ht, "putIfAbsent(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN,
             "tablePutIfAbsent", "(" + O + O + O + O + ")V", "a1 a2");
        rule(ht, "get(Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "gotKey", "(" + O + O + O + ")V", "a1");
        rule(ht, "remove(Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "removedKey", "(" + O + O + O + ")V", "a1");
        addOrGet(ht);
        replaceAll(ht);
        replace(ht);
        clear(ht);
        // the remove of its keySet, values and entrySet iterators
        rule(ht + "$Enumerator", "remove()V", ENTRY, "tableIteratorRemove", "(" + O + "Z" + O + O + ")V",
             "iterator:Z lastReturned:Ljava/util/Hashtable$Entry; this$0:Ljava/util/Hashtable;");

        String pq = "java/util/PriorityQueue";
        entryAdd(pq, "offer(Ljava/lang/Object;)Z", 1);   // add(e) is offer(e)
        exit(pq, "poll()Ljava/lang/Object;", "removed");
        exit(pq, "peek()Ljava/lang/Object;", "got");
        removeSlot(pq, "removeAt(I)Ljava/lang/Object;", "queue", 1);   // remove(o) and the iterator's remove
        removeIf(pq, "bulkRemove(Ljava/util/function/Predicate;)Z");
        clear(pq);
    }

    private TidemarkContainers() {
    }

    private static final class Hook extends MethodVisitor {
        private final Rule rule;
        private final String owner;

        Hook(MethodVisitor mv, Rule rule, String owner) {
            super(Opcodes.ASM8, mv);
            this.rule = rule;
            this.owner = owner;
        }

        // one argument: "a2" / "i4" a local (reference / int), "name:desc"
        // a field of `this`, "name[i1]" the element of the Object[] field
        // `name` at the int local 1
        private void load(String arg) {
            int colon = arg.indexOf(':'), bracket = arg.indexOf('[');
            if (colon > 0) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitFieldInsn(Opcodes.GETFIELD, owner, arg.substring(0, colon), arg.substring(colon + 1));
            } else if (bracket > 0) {
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitFieldInsn(Opcodes.GETFIELD, owner, arg.substring(0, bracket), "[" + O);
                super.visitVarInsn(Opcodes.ILOAD, arg.charAt(bracket + 2) - '0');
                super.visitInsn(Opcodes.AALOAD);
            } else {
                super.visitVarInsn(arg.charAt(0) == 'a' ? Opcodes.ALOAD : Opcodes.ILOAD, arg.charAt(1) - '0');
            }
        }

        private void call() {
            super.visitVarInsn(Opcodes.ALOAD, 0);
            for (String arg : rule.args) {
                load(arg);
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OPS, rule.hook, rule.desc, false);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            if (rule.at == ENTRY) {
                call();
                if (rule.store >= 0) {
                    super.visitVarInsn(Opcodes.ASTORE, rule.store);
                }
            }
        }

        @Override
        public void visitInsn(int opcode) {
            if (opcode == rule.at) {
                super.visitInsn(Opcodes.DUP);
                call();
            }
            super.visitInsn(opcode);
        }
    }

    // The rewritten class, or null to keep it as it is.
    static byte[] transform(String name, byte[] bytes) {
        try {
            ClassReader reader = new ClassReader(bytes);
            ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            boolean[] changed = new boolean[1];
            reader.accept(new ClassVisitor(Opcodes.ASM8, writer) {
                @Override
                public MethodVisitor visitMethod(int access, String method, String desc, String sig, String[] exc) {
                    MethodVisitor mv = super.visitMethod(access, method, desc, sig, exc);
                    Rule rule = RULES.get(name + "." + method + desc);
                    if (rule == null || mv == null) {
                        return mv;
                    }
                    changed[0] = true;
                    return new Hook(mv, rule, name);
                }
            }, 0);
            return changed[0] ? writer.toByteArray() : null;
        } catch (Throwable t) {
            return null;
        }
    }
}
