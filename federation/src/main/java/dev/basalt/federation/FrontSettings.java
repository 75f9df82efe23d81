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
 * @param maxMemberRows       most rows the front reads from one member's answer to a star subquery; the
 *                            front holds member answers in memory while it joins them, so a query whose
 *                            member answer is larger fails with 413 instead of exhausting the heap
 * @param httpThreads         threads that serve SPARQL requests
 * @param starPushdown        whether patterns sharing a subject are sent to the members as one
 *                            subquery ({@link StarPushdown}); off, FedX plans every pattern itself
 * @param replication         which subjects the loader sent to every member ({@link ReplicatedVocabulary});
 *                            must match the loader's
 */
public record FrontSettings(Duration memberTimeout, Duration queryTimeout, int boundJoinBlockSize, int joinWorkerThreads,
        int unionWorkerThreads, String sourceSelectionCache, long maxResultBytes, long maxMemberRows, int httpThreads, boolean starPushdown,
        ReplicatedVocabulary replication) {

    /** Rows of one member answer the front holds by default: about 300 MB of heap for rows of three terms. */
    public static final long DEFAULT_MAX_MEMBER_ROWS = 1_000_000;

    public static FrontSettings defaults() {
        return new FrontSettings(Duration.ofSeconds(30), Duration.ofSeconds(300), 25, 20, 20,
                "maximumSize=10000,expireAfterWrite=6h", 256L << 20, DEFAULT_MAX_MEMBER_ROWS, 8, true, ReplicatedVocabulary.schema());
    }

    public FrontSettings {
        if (memberTimeout.isNegative() || memberTimeout.isZero() || queryTimeout.isNegative() || queryTimeout.isZero()) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (maxMemberRows < 1) {
            throw new IllegalArgumentException("--max-member-rows must be at least 1");
        }
        if (boundJoinBlockSize < 1 || joinWorkerThreads < 1 || unionWorkerThreads < 1 || httpThreads < 1) {
            throw new IllegalArgumentException("block size and thread counts must be at least 1");
        }
    }

    public FrontSettings withMemberTimeout(Duration timeout) {
        return new FrontSettings(timeout, queryTimeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, maxMemberRows, httpThreads, starPushdown, replication);
    }

    public FrontSettings withQueryTimeout(Duration timeout) {
        return new FrontSettings(memberTimeout, timeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, maxMemberRows, httpThreads, starPushdown, replication);
    }

    public FrontSettings withBoundJoinBlockSize(int size) {
        return new FrontSettings(memberTimeout, queryTimeout, size, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, maxMemberRows, httpThreads, starPushdown, replication);
    }

    public FrontSettings withMaxMemberRows(long rows) {
        return new FrontSettings(memberTimeout, queryTimeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, rows, httpThreads, starPushdown, replication);
    }

    public FrontSettings withStarPushdown(boolean on) {
        return new FrontSettings(memberTimeout, queryTimeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, maxMemberRows, httpThreads, on, replication);
    }

    public FrontSettings withReplication(ReplicatedVocabulary vocabulary) {
        return new FrontSettings(memberTimeout, queryTimeout, boundJoinBlockSize, joinWorkerThreads, unionWorkerThreads,
                sourceSelectionCache, maxResultBytes, maxMemberRows, httpThreads, starPushdown, vocabulary);
    }
}
