package dev.basalt.workbench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Locale;

/**
 * One full collection after the launcher's warm-ups, before it announces the server: what the start-up left in
 * the heap to stay (the stores' caches, filled when they opened and by the warm-ups' reads, kept plans, RDF4J's
 * and Jetty's state) is then in the old generation, and the young generation is empty. Without it that data is
 * still young when the first clients' queries come, and the young collections among those queries copy it: at
 * BSBM 10M with -Xmx2g, 80-130 MB of it per collection, pauses of 40-320 ms during the first 50 mixes, which
 * those mixes' shortest queries wait out (docs/benchmarks-coldstart.md). The collection itself takes a few
 * hundred milliseconds of the start-up instead.
 *
 * <p>{@code -Dbasalt.server.settleHeap=false} leaves it out; a JVM started with {@code -XX:+DisableExplicitGC}
 * ignores the request, which {@link #run} reports.
 *
 * <p>Stateless; the launcher's main thread calls {@link #run} once, after the warm-ups.
 */
final class HeapSettle {
    static final String PROPERTY = "basalt.server.settleHeap";

    private HeapSettle() {
    }

    /** Whether {@code property} (the value of {@value #PROPERTY}) asks for the collection: unset or true. */
    static boolean enabled(String property) {
        return ServerOptions.onUnlessOff(property, PROPERTY);
    }

    /** What the collection did: whether the JVM ran one, its wall time and the heap in use before and after. */
    record Outcome(boolean collected, long millis, long usedBefore, long usedAfter, long committed) {
        String describe() {
            if (!collected) {
                return "heap not settled: the JVM ignored the request for a full collection (-XX:+DisableExplicitGC?)";
            }
            return String.format(Locale.ROOT, "heap settled: a full collection in %d ms, %d MiB in use before, "
                    + "%d MiB after (%d MiB committed)", millis, usedBefore >> 20, usedAfter >> 20, committed >> 20);
        }
    }

    /** Runs one full collection ({@link System#gc}) and reports it. */
    static Outcome run() {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        long countBefore = collections(collectors);
        MemoryUsage before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long started = System.nanoTime();
        System.gc();
        long millis = (System.nanoTime() - started) / 1_000_000;
        MemoryUsage after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new Outcome(collections(collectors) > countBefore, millis, before.getUsed(), after.getUsed(),
                after.getCommitted());
    }

    private static long collections(List<GarbageCollectorMXBean> collectors) {
        long sum = 0;
        for (GarbageCollectorMXBean c : collectors) {
            sum += Math.max(0, c.getCollectionCount());
        }
        return sum;
    }
}
