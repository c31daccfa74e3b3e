// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tidemark's demo: a small "server" that handles requests.  During the
// warm-up it only makes short-lived garbage (steady memory); then a
// session cache starts to keep every session and never evicts one: a
// leak that Tidemark should find, in LeakDemo$SessionCache.sessions,
// allocated at LeakDemo.handle(...).
//
//   tidemark-cli record -o leak.tmtrace -- java -cp BUILD/data/demo LeakDemo [SECONDS]

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class LeakDemo {
    static final class Session {
        final long id;
        final byte[] state;
        final List<String> history = new ArrayList<>();

        Session(long id) {
            this.id = id;
            this.state = new byte[256];
        }
    }

    static final class SessionCache {
        private final Map<Long, Session> sessions = new HashMap<>();

        void remember(Session s) {
            sessions.put(s.id, s);
        }

        int size() {
            return sessions.size();
        }
    }

    static final SessionCache CACHE = new SessionCache();
    static volatile Object sink;

    static String handle(long request, boolean leaking) {
        // a scratch buffer per request: the steady churn of the warm-up
        byte[] scratch = new byte[4096];
        scratch[(int) (request % scratch.length)] = 1;
        StringBuilder sb = new StringBuilder();
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            parts.add("part-" + request + "-" + i);
        }
        for (String p : parts) {
            sb.append(p).append(';');
        }
        if (leaking && request % 4 == 0) {
            Session s = new Session(request);
            s.history.add(sb.toString());
            CACHE.remember(s);
        }
        return sb.toString();
    }

    public static void main(String[] args) throws InterruptedException {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 12;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long warmupEnd = System.nanoTime() + (long) (seconds * 1e9 / 3);
        long request = 0;
        boolean announced = false;

        System.out.println("LeakDemo: warm-up (steady memory) for " + seconds / 3 + " s");
        while (System.nanoTime() < end) {
            boolean leaking = System.nanoTime() >= warmupEnd;
            if (leaking && !announced) {
                System.out.println("LeakDemo: the session cache starts to leak");
                announced = true;
            }
            for (int i = 0; i < 200; i++) {
                sink = handle(request++, leaking);
            }
            Thread.sleep(1);
        }
        System.out.println("LeakDemo: " + request + " requests, " + CACHE.size() + " sessions kept");
    }
}
