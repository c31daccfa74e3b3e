// SPDX-License-Identifier: GPL-3.0-or-later
//
// Loaded by the Tidemark agent from bytes embedded at build time: reads the
// GC and memory pool MXBeans for the agent thread and forwards GC
// notifications (which alone carry the GC cause) to native code.

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

final class TidemarkAgentHelper implements NotificationListener {
    private static GarbageCollectorMXBean[] beans = new GarbageCollectorMXBean[0];
    private static MemoryPoolMXBean[] pools = new MemoryPoolMXBean[0];

    // Marks the current thread's allocations as the agent's own.
    static native void mark(boolean on);

    // The program is exiting: the agent stops taking graphs until VMDeath.
    static native void exiting();

    static native void gcNote(String bean, long id, long startMs, String action, String cause,
                              String[] pools, long[] before, long[] after, long[] committed);

    private TidemarkAgentHelper() {
    }

    // Returns the collector names; registers the notification listener.
    static String[] install() {
        List<GarbageCollectorMXBean> list = ManagementFactory.getGarbageCollectorMXBeans();
        beans = list.toArray(new GarbageCollectorMXBean[0]);
        pools = ManagementFactory.getMemoryPoolMXBeans().toArray(new MemoryPoolMXBean[0]);
        TidemarkAgentHelper listener = new TidemarkAgentHelper();
        Runtime.getRuntime().addShutdownHook(new Thread(TidemarkAgentHelper::exiting, "Tidemark exit"));
        String[] names = new String[beans.length];
        for (int i = 0; i < beans.length; i++) {
            names[i] = beans[i].getName();
            if (beans[i] instanceof NotificationEmitter) {
                ((NotificationEmitter) beans[i]).addNotificationListener(listener, null, null);
            }
        }
        return names;
    }

    static long[] counts() {
        long[] c = new long[beans.length];
        for (int i = 0; i < beans.length; i++) {
            c[i] = beans[i].getCollectionCount();
        }
        return c;
    }

    // "H:name" for heap pools, "N:name" for the others.
    static String[] pools() {
        String[] p = new String[pools.length];
        for (int i = 0; i < pools.length; i++) {
            p[i] = (pools[i].getType() == MemoryType.HEAP ? "H:" : "N:") + pools[i].getName();
        }
        return p;
    }

    // used, committed for every pool of pools()
    static long[] usage() {
        long[] u = new long[pools.length * 2];
        for (int i = 0; i < pools.length; i++) {
            MemoryUsage m = pools[i].getUsage();
            u[2 * i] = m == null ? 0 : m.getUsed();
            u[2 * i + 1] = m == null ? 0 : m.getCommitted();
        }
        return u;
    }

    // value and origin (VMOption.Origin name) of each named VM flag, null
    // for a flag this JVM does not have
    static String[] vmFlags(String[] names) {
        String[] out = new String[2 * names.length];
        HotSpotDiagnosticMXBean hs = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        for (int i = 0; hs != null && i < names.length; i++) {
            try {
                VMOption o = hs.getVMOption(names[i]);
                out[2 * i] = o.getValue();
                out[2 * i + 1] = o.getOrigin().name();
            } catch (IllegalArgumentException e) {
                // not a flag of this JVM (a collector it was built without)
            }
        }
        return out;
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        mark(true);
        try {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                return;
            }
            GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            GcInfo gc = info.getGcInfo();
            Map<String, MemoryUsage> before = gc.getMemoryUsageBeforeGc();
            Map<String, MemoryUsage> after = gc.getMemoryUsageAfterGc();
            String[] names = after.keySet().toArray(new String[0]);
            long[] b = new long[names.length];
            long[] a = new long[names.length];
            long[] c = new long[names.length];
            for (int i = 0; i < names.length; i++) {
                MemoryUsage mb = before.get(names[i]);
                MemoryUsage ma = after.get(names[i]);
                b[i] = mb == null ? 0 : mb.getUsed();
                a[i] = ma == null ? 0 : ma.getUsed();
                c[i] = ma == null ? 0 : ma.getCommitted();
            }
            gcNote(info.getGcName(), gc.getId(), gc.getStartTime(), info.getGcAction(), info.getGcCause(), names, b, a, c);
        } catch (Throwable t) {
            // never disturb the program; the agent falls back to pool usage
        } finally {
            mark(false);
        }
    }
}
