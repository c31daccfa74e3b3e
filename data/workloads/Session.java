// SPDX-License-Identifier: GPL-3.0-or-later
// held out (not in the knowledge base): a server keeping per-session
// state for a while (sessions expire after 2000 requests) with request
// garbage around it.  Args: RUN_MS (1500).
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

public class Session {
    static volatile long sink;

    public static void main(String[] args) {
        long runMs = args.length > 0 ? Long.parseLong(args[0]) : 1500;
        long end = System.nanoTime() + runMs * 1_000_000L;
        Map<Long, Object[]> sessions = new HashMap<>();
        ArrayDeque<Long> order = new ArrayDeque<>();
        long id = 0;
        while (System.nanoTime() < end) {
            for (int k = 0; k < 500; k++, id++) {
                sessions.put(id, new Object[] { new byte[2048], "user-" + id, new long[8] });
                order.addLast(id);
                if (order.size() > 20000) {
                    sessions.remove(order.removeFirst());
                }
                StringBuilder req = new StringBuilder();
                for (int j = 0; j < 4; j++) {
                    req.append("GET /item/").append(id + j).append('\n');
                }
                sink += req.length();
            }
        }
        System.out.println("sessions=" + id);
    }
}
