// SPDX-License-Identifier: GPL-3.0-or-later
//
// Planted memory phases for the suspicious-window tests (test-agent; the
// mode is the first argument or the property phases.mode):
// every tick allocates short-lived garbage, and one mode shapes what stays
// alive.  TICKS ticks; GCs come from the garbage (run with a small young
// generation).  Modes:
//   plateau  a bounded LRU cache (LinkedHashMap, removeEldestEntry) that
//            fills during the first 30% of the ticks, then stays full;
//   leak     a static list that never drops what it gets, from 20% on;
//   backlog  a job queue: 100 jobs per tick taken, from 20% on 108 put;
//   burst    from 30% to 70% of the run, ten times the garbage per tick
//            and no pause between ticks (a churn burst).
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class Phases {
    static final int TICKS = 1500;
    static volatile Object sink;

    static final class Price {
        final byte[] quote = new byte[1000];
    }

    static final class PriceCache extends LinkedHashMap<Integer, Price> {
        final int capacity;

        PriceCache(int capacity) {
            super(16, 0.75f, true);
            this.capacity = capacity;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Price> eldest) {
            return size() > capacity;
        }
    }

    static final class Listener {
        final byte[] state = new byte[1000];
    }

    static final class Job {
        final byte[] payload = new byte[1000];
    }

    static final List<Listener> LISTENERS = new ArrayList<>();

    static void garbage(int kib) {
        for (int i = 0; i < kib; i++)
            sink = new byte[1024];
    }

    static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) {
        String mode = System.getProperty("phases.mode", args.length > 0 ? args[0] : "leak");
        PriceCache cache = new PriceCache(10 * TICKS * 3 / 10);
        ArrayDeque<Job> queue = new ArrayDeque<>();
        int key = 0;

        for (int t = 0; t < TICKS; t++) {
            double f = (double) t / TICKS;
            boolean burst = mode.equals("burst") && f >= 0.3 && f < 0.7;

            switch (mode) {
            case "plateau":
                for (int i = 0; i < 10; i++)
                    cache.put(key++, new Price());
                break;
            case "leak":
                if (f >= 0.2)
                    for (int i = 0; i < 4; i++)
                        LISTENERS.add(new Listener());
                break;
            case "backlog":
                for (int i = 0; i < (f >= 0.2 ? 108 : 100); i++)
                    queue.add(new Job());
                for (int i = 0; i < 100 && !queue.isEmpty(); i++)
                    sink = queue.poll();
                break;
            default:
                break;
            }
            garbage(burst ? 640 : 64);
            if (!burst)
                pause();
        }
        System.out.println("Phases " + mode + " " + cache.size() + " " + LISTENERS.size() + " " + queue.size());
    }
}
