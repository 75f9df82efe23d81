package dev.basalt.sail;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.IntSupplier;

import javax.management.ObjectName;

import dev.basalt.optimizer.rdf4j.NativeQueryStats;

/**
 * Publishes a store's {@link NativeQueryStats} on the platform MBean server while the store is
 * open, as {@code dev.basalt:type=NativeQueries,store="<data directory>"}. Registration problems
 * are logged, never fatal: the counters stay readable through {@code BasaltStore.getNativeQueryStats()}.
 *
 * <p>Thread rules: registered and closed by the store's initialization and shutdown, which RDF4J
 * serializes; JMX threads call the getters, which read thread-safe counters.
 */
final class NativeQueriesMetrics implements NativeQueriesMXBean {
    private final NativeQueryStats stats;
    private final IntSupplier running;
    private final ObjectName name;
    private boolean registered;

    private NativeQueriesMetrics(NativeQueryStats stats, IntSupplier running, ObjectName name) {
        this.stats = stats;
        this.running = running;
        this.name = name;
    }

    /** Registers the counters of the store in {@code dataDir}; {@link #close} removes them. */
    static NativeQueriesMetrics register(NativeQueryStats stats, IntSupplier running, Path dataDir) {
        NativeQueriesMetrics metrics = new NativeQueriesMetrics(stats, running, objectName(dataDir));
        metrics.registered = StoreMBeans.register(metrics, metrics.name, "native query counters");
        return metrics;
    }

    static ObjectName objectName(Path dataDir) {
        return StoreMBeans.name("NativeQueries", dataDir);
    }

    void close() {
        if (registered) {
            registered = false;
            StoreMBeans.unregister(name);
        }
    }

    @Override
    public long getPlansCompiled() {
        return stats.plansCompiled();
    }

    @Override
    public long getFallbacks() {
        return stats.totalFallbacks();
    }

    @Override
    public long getRuntimeFallbacks() {
        return stats.runtimeFallbacks();
    }

    @Override
    public Map<String, Long> getFallbacksByType() {
        return stats.fallbacks();
    }

    @Override
    public Map<String, Long> getFallbackReasons() {
        return stats.fallbackReasons();
    }

    @Override
    public int getRunningQueries() {
        return running.getAsInt();
    }

    @Override
    public void reset() {
        stats.reset();
    }
}
