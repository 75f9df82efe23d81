package dev.basalt.sail.query;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.IntSupplier;

import javax.management.ObjectName;

import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.sail.ops.StoreMBeans;

/**
 * A store's {@link NativeQueryStats} as an MBean, which the store publishes while it is open
 * ({@link StoreMBeans}) as {@code dev.basalt:type=NativeQueries,store="<data directory>"}; the
 * counters stay readable through {@code BasaltStore.getNativeQueryStats()}.
 *
 * <p>Thread rules: JMX threads call the getters, which read thread-safe counters.
 */
public final class NativeQueriesMetrics implements NativeQueriesMXBean {
    private final NativeQueryStats stats;
    private final IntSupplier running;

    public NativeQueriesMetrics(NativeQueryStats stats, IntSupplier running) {
        this.stats = stats;
        this.running = running;
    }

    public static ObjectName objectName(Path dataDir) {
        return StoreMBeans.name("NativeQueries", dataDir);
    }

    @Override
    public long getPlansCompiled() {
        return stats.plansCompiled();
    }

    @Override
    public long getShapePlansKept() {
        return stats.shapePlansKept();
    }

    @Override
    public long getShapePlansReused() {
        return stats.shapePlansReused();
    }

    @Override
    public long getShapePlansRunDirectly() {
        return stats.shapePlansRunDirectly();
    }

    @Override
    public long getShapePlansNotKept() {
        return stats.shapePlansNotKept();
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
