package dev.basalt.sail;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;

import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(NativeQueriesMetrics.class);
    private final NativeQueryStats stats;
    private final ObjectName name;
    private boolean registered;

    private NativeQueriesMetrics(NativeQueryStats stats, ObjectName name) {
        this.stats = stats;
        this.name = name;
    }

    /** Registers the counters of the store in {@code dataDir}; {@link #close} removes them. */
    static NativeQueriesMetrics register(NativeQueryStats stats, Path dataDir) {
        ObjectName name = objectName(dataDir);
        NativeQueriesMetrics metrics = new NativeQueriesMetrics(stats, name);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            server.registerMBean(metrics, name);
            metrics.registered = true;
        } catch (InstanceAlreadyExistsException e) {
            LOG.warn("JMX name {} is taken by another open store; its native query counters are not published", name);
        } catch (JMException | RuntimeException e) {
            LOG.warn("could not publish the native query counters as {}: {}", name, e.toString());
        }
        return metrics;
    }

    static ObjectName objectName(Path dataDir) {
        try {
            return new ObjectName("dev.basalt:type=NativeQueries,store="
                    + ObjectName.quote(dataDir.toAbsolutePath().normalize().toString()));
        } catch (JMException e) {
            throw new IllegalStateException("JMX name for " + dataDir, e);
        }
    }

    void close() {
        if (registered) {
            registered = false;
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (JMException e) {
                LOG.debug("JMX name {} was already gone: {}", name, e.toString());
            }
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
    public void reset() {
        stats.reset();
    }
}
