package dev.basalt.replication;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.ratis.client.retry.ClientRetryEvent;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.util.TimeDuration;

/**
 * How a replica's Raft client retries a request that failed (no leader yet, the leader unreachable,
 * an attempt timed out): after a short sleep, again and again, until {@code budgetMillis} have passed
 * since the request's first failure; then it gives up and the commit fails as not acknowledged. A
 * bound in time, not in attempts: attempts that fail at once (connection refused during an election)
 * and attempts that wait a whole request timeout (a partitioned link that drops packets) both end
 * within about the commit timeout. A retried request carries its first call id, so the leader's retry
 * cache never applies it twice.
 *
 * <p>Thread-safe: Ratis calls it from any client thread; {@link #forget} from the committing thread.
 */
final class CommitRetryPolicy implements RetryPolicy {
    private final long budgetNanos;
    private final Action retry;
    /** First failure time (System.nanoTime) of each call still being retried, by call id. */
    private final Map<Long, Long> firstFailure = new ConcurrentHashMap<>();

    CommitRetryPolicy(long budgetMillis, long sleepMillis) {
        this.budgetNanos = TimeUnit.MILLISECONDS.toNanos(budgetMillis);
        TimeDuration sleep = TimeDuration.valueOf(sleepMillis, TimeUnit.MILLISECONDS);
        this.retry = () -> sleep;
    }

    @Override
    public Action handleAttemptFailure(Event event) {
        long callId = event instanceof ClientRetryEvent e ? e.getRequest().getCallId() : -1;
        long now = System.nanoTime();
        long first = firstFailure.computeIfAbsent(callId, id -> now);
        if (now - first >= budgetNanos) {
            firstFailure.remove(callId);
            return NO_RETRY_ACTION;
        }
        return retry;
    }

    /** The call ended (answered): drops what was kept of its failures. */
    void forget(long callId) {
        firstFailure.remove(callId);
    }

    /** Calls being retried now (for tests). */
    int pending() {
        return firstFailure.size();
    }

    @Override
    public String toString() {
        return "CommitRetryPolicy(budget " + TimeUnit.NANOSECONDS.toMillis(budgetNanos) + " ms)";
    }
}
