// SPDX-License-Identifier: GPL-3.0-or-later
// A heap with known contents for the HPROF importer's tests.  Prints READY
// once built, then, for every line read from stdin, grows `growing` by 2000
// entries and prints READY again; exits at the end of stdin.
//
// Known answers (shallow sizes with compressed oops: 12-byte header,
// 16-byte array header, 4-byte references, 8-byte alignment):
//   Leaf       1000 instances, 12 + 8 + 4 = 24 bytes each
//   Marker      777 instances, 12 -> 16 bytes each
//   Payload       3 instances, reached only through the static field `cache`
//   Holder        1 instance, 12 + 4 + 4 = 20 -> 24 bytes; it alone holds an
//                 Object[1000] (16 + 4000 = 4016) and the 1000 Leafs, so it
//                 retains 24 + 4016 + 24000 = 28040 bytes
import java.util.HashMap;
import java.util.Map;
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class HprofProbe {
    static final class Leaf { long a; int b; Leaf(int i) { a = i; b = i; } }
    static final class Holder { Object[] items; int n; }
    static final class Marker { }
    static final class Payload { int v; Payload(int v) { this.v = v; } }
    static final class Entry { long k; Entry(long k) { this.k = k; } }

    static Holder holder;
    static Marker[] markers;
    static Map<String, Payload> cache = new HashMap<>();
    static Map<Long, Entry> growing = new HashMap<>();

    public static void main(String[] args) throws Exception {
        holder = new Holder();
        holder.items = new Object[1000];
        for (int i = 0; i < 1000; i++)
            holder.items[i] = new Leaf(i);
        holder.n = 1000;
        markers = new Marker[777];
        for (int i = 0; i < markers.length; i++)
            markers[i] = new Marker();
        for (int i = 0; i < 3; i++)
            cache.put("payload-" + i, new Payload(i));
        long next = 0;
        for (int i = 0; i < 500; i++, next++)
            growing.put(next, new Entry(next));
        System.out.println("READY");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        while (in.readLine() != null) {
            for (int i = 0; i < 2000; i++, next++)
                growing.put(next, new Entry(next));
            System.out.println("READY");
            System.out.flush();
        }
    }
}
