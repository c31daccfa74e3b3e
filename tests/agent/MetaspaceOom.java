// SPDX-License-Identifier: GPL-3.0-or-later
//
// Dies of an OutOfMemoryError (Metaspace) for test-agent, run with a small
// -XX:MaxMetaspaceSize: defines the same small class again and again, each
// time in a new class loader that stays reachable, until the class
// metadata no longer fits.

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

public final class MetaspaceOom {
    /** The class defined over and over. */
    public static final class Payload {
        public int a, b, c;
        public int sum() { return a + b + c; }
    }

    static final class OneClassLoader extends ClassLoader {
        OneClassLoader() { super(null); }
        Class<?> define(String name, byte[] bytes) { return defineClass(name, bytes, 0, bytes.length); }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("MetaspaceOom");
        String name = Payload.class.getName();
        byte[] bytes;
        try (InputStream in = MetaspaceOom.class.getResourceAsStream("MetaspaceOom$Payload.class")) {
            bytes = in.readAllBytes();
        }
        List<Class<?>> kept = new ArrayList<>();
        for (;;) {
            kept.add(new OneClassLoader().define(name, bytes));
        }
    }
}
