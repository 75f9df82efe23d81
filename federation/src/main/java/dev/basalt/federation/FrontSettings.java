package dev.basalt.federation;

import java.time.Duration;

/**
 * Settings of the FedX front. The bound-join block size and worker threads default to FedX's own
 * values; docs/benchmarks-federation.md measures the block size.
 *
 * @param memberTimeout       longest wait for a member to connect or to send more of its answer; a request
 *                            also waits no longer than its query's remaining time. Past either the query
 *                            fails naming that member
 * @param queryTimeout        longest a whole federated query may run, member requests and the front's own
 *                            evaluation included
 * @param boundJoinBlockSize  bindings FedX sends to a member in one bound-join request (a VALUES block)
 * @param joinWorkerThreads   FedX's threads for join requests, shared by all queries
 * @param unionWorkerThreads  FedX's threads for requests sent to all members at once
 * @param sourceSelectionCache Caffeine spec of FedX's cache of which member holds which pattern
 * @param maxResultBytes      largest serialized answer the front buffers before it sends it
 * @param httpThreads         threads that serve SPARQL requests
 * @param starPushdown        whether patterns sharing a subject are sent to the members as one
 *                            subquery ({@link StarPushdown}); off, FedX plans every pattern itself
 * @param replication         which subjects the loader sent to every member ({@link ReplicatedVocabulary});
 *                            must match the loader's
 */
public record FrontSettings(Duration memberTimeout, Duration queryTimeout, int boundJoinBlockSize, int joinWorkerThreads,
        int unionWorkerThreads, String sourceSelectionCache, long maxResultBytes, int httpThreads, boolean starPushdown,
        ReplicatedVocabulary replication) {

    public static FrontSettings defaults() {
        return new FrontSettings(Duration.ofSeconds(30), Duration.ofSeconds(300), 25, 20, 20,
                "maximumSize=10000,expireAfterWrite=6h", 256L << 20, 8, true, ReplicatedVocabulary.schema());
    }

    public FrontSettings {
        if (memberTimeout.isNegative() || memberTimeout.isZero() || queryTimeout.isNegative() || queryTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (boundJoinBlockSize < 1 || joinWorkerThreads < 1 || unionWorkerThreads < 1 || httpThreads < 1) {
            throw new IllegalArgumentException("block size and thread counts must be at least 1");
        }
    }

    public FrontSettings withMemberTimeout(Duration timeout) {
        return new FrontSettings(timeout, queryTimeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, httpThreads, starPushdown, replication);
    }

    public FrontSettings withQueryTimeout(Duration timeout) {
        return new FrontSettings(memberTimeout, timeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, httpThreads, starPushdown, replication);
    }

    public FrontSettings withBoundJoinBlockSize(int size) {
        return new FrontSettings(memberTimeout, queryTimeout, size, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, httpThreads, starPushdown, replication);
    }

    public FrontSettings withStarPushdown(boolean on) {
        return new FrontSettings(memberTimeout, queryTimeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, httpThreads, on, replication);
    }

    public FrontSettings withReplication(ReplicatedVocabulary vocabulary) {
        return new FrontSettings(memberTimeout, queryTimeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, httpThreads, starPushdown, vocabulary);
    }
}
