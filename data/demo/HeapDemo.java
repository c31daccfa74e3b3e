// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tidemark's heap demo: builds a heap of about N objects shaped like a
// server's (a session map of records with strings, byte arrays and lists,
// a linked work queue, an index of boxed keys), prints READY and keeps it
// until stdin closes, so that it can be dumped with
//   jcmd PID GC.heap_dump FILE
// For the HPROF importer's benchmark (tests/bench/bench-hprof.sh).
//
//   java -Xmx3g -cp BUILD/data/demo HeapDemo [OBJECTS]

import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

public final class HeapDemo {
    static final class Session {
        final long id;
        final String user;
        final byte[] state;
        final List<String> history = new ArrayList<>();

        Session(long id) {
            this.id = id;
            this.user = "user-" + id;     // a String and its byte[]
            this.state = new byte[16 + (int) (id % 48)];
        }
    }

    static final Map<Long, Session> SESSIONS = new HashMap<>();
    static final LinkedList<Object[]> QUEUE = new LinkedList<>();

    public static void main(String[] args) throws Exception {
        long target = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        // per session: Long, HashMap$Node, Session, String + byte[] (user),
        // byte[] (state), ArrayList + Object[], 2 history Strings + byte[]s,
        // plus a share of the map's table: about 13 objects
        long sessions = target * 9 / 10 / 13;
        for (long i = 0; i < sessions; i++) {
            Session s = new Session(i);
            s.history.add("login " + i);
            s.history.add("view " + (i % 1000));
            SESSIONS.put(i, s);
        }
        // the rest: queue entries of 3 objects (node, array, boxed int)
        for (long i = 0; i < target / 10 / 3; i++)
            QUEUE.add(new Object[] { Integer.valueOf((int) i) });
        System.out.println("READY");
        System.out.flush();
        new InputStreamReader(System.in).read();
    }
}
