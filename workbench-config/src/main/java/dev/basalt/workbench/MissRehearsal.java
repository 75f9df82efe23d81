package dev.basalt.workbench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The last part of the launcher's warm-up: asks every open Basalt store to read a sample of its pages and terms as
 * cache misses read them, without caching them (the store's JMX operation {@code rehearseColdReads},
 * {@code dev.basalt:type=Store,*}). The warm-ups' queries find a prewarmed store's pages and terms in its caches, so
 * the JIT last compiled the miss path (record read, checksum, page decompression, term decoding) for the store's
 * opening reads, if at all, and its later deoptimizations leave it in the profiling tier; the first clients' queries
 * over a store larger than its caches (BSBM 10M) would then run it there and have it compiled meanwhile. After the
 * rehearsal it is compiled with the profile of reads spread over every tree.
 *
 * <p>The stores are reached through the platform MBean server because the launcher's own class path holds Jetty only,
 * not the sail. {@code -Dbasalt.server.rehearseMisses=false} leaves it out. A store whose rehearsal fails is reported
 * and the start goes on. Stateless; the launcher's main thread calls {@link #run} once, after the warm-ups and
 * before the heap settles ({@link HeapSettle}).
 */
final class MissRehearsal {
    static final String PROPERTY = "basalt.server.rehearseMisses";
    static final String STORES = "dev.basalt:type=Store,*";
    static final String OPERATION = "rehearseColdReads";

    private MissRehearsal() {
    }

    /** Whether {@code property} (the value of {@value #PROPERTY}) asks for the rehearsal: unset or true. */
    static boolean enabled(String property) {
        return ServerOptions.onUnlessOff(property, PROPERTY);
    }

    /** Rehearses each open store's misses; one line per store saying what it read or why it failed. */
    static List<String> run() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        List<String> lines = new ArrayList<>();
        try {
            for (ObjectName store : server.queryNames(new ObjectName(STORES), null)) {
                String which = store.getKeyProperty("store");
                try {
                    lines.add(which + ": " + server.invoke(store, OPERATION, new Object[0], new String[0]));
                } catch (JMException | RuntimeException e) {
                    lines.add(which + ": cache-miss rehearsal failed: " + e.getMessage());
                }
            }
        } catch (JMException e) {
            lines.add("cache-miss rehearsal: " + e.getMessage());
        }
        return lines;
    }
}
