package dev.basalt.optimizer.plan;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cardinality estimates shared by the queries that read one state of a store, so that a workload of
 * many cheap queries samples each pattern shape once instead of once per query. Estimates are kept
 * per state (a commit counter): a query on a newer state starts a new generation and drops the old
 * one; a query on an older state gets a private, empty map. A generation that grows beyond
 * {@code maxEntries} is cleared. Estimates only steer plan choices, never results. Thread-safe.
 */
public final class EstimateCache {
    private final int maxEntries;
    private Generation current = new Generation(Long.MIN_VALUE);

    private static final class Generation {
        final long state;
        final Map<CardinalityEstimator.Key, Double> map = new ConcurrentHashMap<>();

        Generation(long state) {
            this.state = state;
        }
    }

    public EstimateCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /** The estimates of state {@code state}: shared for the newest state seen, private for an older one. */
    public synchronized Map<CardinalityEstimator.Key, Double> forState(long state) {
        if (state > current.state) {
            current = new Generation(state);
        } else if (state < current.state) {
            return new ConcurrentHashMap<>();
        }
        if (current.map.size() > maxEntries) {
            current.map.clear();
        }
        return current.map;
    }
}
