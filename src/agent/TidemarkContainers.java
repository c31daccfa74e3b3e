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
// is simply not rewritten.  Bulk operations: addAll hooks name each
// element added; removeIf (and the removeAll/retainAll built on the same
// bulkRemove) get their predicate wrapped so that each element it accepts
// is a REMOVE.

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
        final String args;     // after the return value (if any) and `this`: 'a' slot / 'i' slot, e.g. "a2a3i4"
        final int store;       // ENTRY: the local the hook's result replaces (-1: none)

        Rule(int at, String hook, String desc, String args, int store) {
            this.at = at;
            this.hook = hook;
            this.desc = desc;
            this.args = args;
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
        rule(hm, "putVal(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/lang/Object;", Opcodes.ARETURN, "putDone", put5, "a2a3i4");
        exit(hm, "getNode(Ljava/lang/Object;)Ljava/util/HashMap$Node;", "gotEntry");
        exit(hm, "removeNode(ILjava/lang/Object;Ljava/lang/Object;ZZ)Ljava/util/HashMap$Node;", "removedEntry");
        addOrGet(hm);
        clear(hm);

        String tm = "java/util/TreeMap";
        rule(tm, "put(Ljava/lang/Object;Ljava/lang/Object;Z)Ljava/lang/Object;", Opcodes.ARETURN, "treePutDone", put5, "a1a2i3");
        rule(tm, "get(Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "gotKey", "(" + O + O + O + ")V", "a1");
        rule(tm, "deleteEntry(Ljava/util/TreeMap$Entry;)V", ENTRY, "removeEntry", "(" + O + O + ")V", "a1");
        addOrGet(tm);
        clear(tm);

        String chm = "java/util/concurrent/ConcurrentHashMap";
        rule(chm, "putVal(Ljava/lang/Object;Ljava/lang/Object;Z)Ljava/lang/Object;", Opcodes.ARETURN, "putDone", put5, "a1a2i3");
        rule(chm, "get(Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "gotKey", "(" + O + O + O + ")V", "a1");
        rule(chm, "replaceNode(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
             Opcodes.ARETURN, "replaced", "(" + O + O + O + O + ")V", "a1a2");
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
        clear(al);

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
        rule(ad, "removeFirstOccurrence(Ljava/lang/Object;)Z", Opcodes.IRETURN, "removedIf", "(Z" + O + O + ")V", "a1");
        rule(ad, "removeLastOccurrence(Ljava/lang/Object;)Z", Opcodes.IRETURN, "removedIf", "(Z" + O + O + ")V", "a1");
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
        removeIf(v, "bulkRemove(Ljava/util/function/Predicate;)Z");
        rule(v, "removeAllElements()V", ENTRY, "clear", "(" + O + ")V", "");

        String ht = "java/util/Hashtable";
        rule(ht, "put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "tablePut",
             "(" + O + O + O + O + ")V", "a1a2");
        rule(ht, "putIfAbsent(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN,
             "tablePutIfAbsent", "(" + O + O + O + O + ")V", "a1a2");
        rule(ht, "get(Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "gotKey", "(" + O + O + O + ")V", "a1");
        rule(ht, "remove(Ljava/lang/Object;)Ljava/lang/Object;", Opcodes.ARETURN, "removedKey", "(" + O + O + O + ")V", "a1");
        addOrGet(ht);
        clear(ht);

        String pq = "java/util/PriorityQueue";
        entryAdd(pq, "offer(Ljava/lang/Object;)Z", 1);   // add(e) is offer(e)
        exit(pq, "poll()Ljava/lang/Object;", "removed");
        exit(pq, "peek()Ljava/lang/Object;", "got");
        rule(pq, "remove(Ljava/lang/Object;)Z", Opcodes.IRETURN, "removedIf", "(Z" + O + O + ")V", "a1");
        removeIf(pq, "bulkRemove(Ljava/util/function/Predicate;)Z");
        clear(pq);
    }

    private TidemarkContainers() {
    }

    private static final class Hook extends MethodVisitor {
        private final Rule rule;

        Hook(MethodVisitor mv, Rule rule) {
            super(Opcodes.ASM8, mv);
            this.rule = rule;
        }

        private void call() {
            super.visitVarInsn(Opcodes.ALOAD, 0);
            for (int i = 0; i < rule.args.length(); i += 2) {
                int slot = rule.args.charAt(i + 1) - '0';
                super.visitVarInsn(rule.args.charAt(i) == 'a' ? Opcodes.ALOAD : Opcodes.ILOAD, slot);
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
                    return new Hook(mv, rule);
                }
            }, 0);
            return changed[0] ? writer.toByteArray() : null;
        } catch (Throwable t) {
            return null;
        }
    }
}
