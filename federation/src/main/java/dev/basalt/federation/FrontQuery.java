package dev.basalt.federation;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryInterruptedException;

/**
 * One query the front evaluates itself ({@link DirectEvaluation}, {@link DirectDescribe},
 * {@link WholeQueryRoute}): its deadline, the query timeout counted from when the front received it,
 * and the star answers asked ahead of the evaluation ({@link StarBatch}).
 *
 * <p>Every operator of the front's evaluation checks the deadline as it reads a row
 * ({@link #check()}), and every member request waits at most the time left ({@link #remainingMillis()}),
 * so a query past its timeout stops wherever its time goes (member answers, joins or sorting over
 * member rows) with a {@link QueryInterruptedException} that says so.
 *
 * <p>Thread rules: created and read by the request thread that evaluates the query; the deadline is
 * final and the map of answers asked ahead is filled before evaluation starts, so the federation's
 * request threads never see it change.
 */
final class FrontQuery {
    private final long deadlineNanos;
    private final Duration timeout;
    private final Map<StarGroup, List<Future<List<BindingSet>>>> ahead = new IdentityHashMap<>();
    private final List<Future<?>> sent = new java.util.ArrayList<>();

    FrontQuery(Duration timeout) {
        this.timeout = timeout;
        this.deadlineNanos = System.nanoTime() + timeout.toNanos();
    }

    /** Milliseconds until the deadline, at least 1 (a request needs a positive timeout to fail by itself). */
    long remainingMillis() {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    /** Whether the deadline has passed. */
    boolean expired() {
        return System.nanoTime() - deadlineNanos >= 0;
    }

    /** Throws the query's timeout error once the deadline has passed. */
    void check() {
        if (expired()) {
            throw timedOut();
        }
    }

    /** The error of a query past its timeout. */
    QueryInterruptedException timedOut() {
        return new QueryInterruptedException(timeoutMessage());
    }

    /** The error of a query past its timeout while waiting for {@code what}. */
    QueryInterruptedException timedOut(String what, Throwable cause) {
        return new QueryInterruptedException(timeoutMessage() + ": " + what, cause);
    }

    private String timeoutMessage() {
        return "the federated query did not finish within its timeout of " + timeout.toMillis()
                + " ms (--query-timeout); no partial answer was returned";
    }

    /** Records a request sent ahead (cancelled by {@link #cancelAhead()} if the query stops before reading it). */
    void sentAhead(Future<?> request) {
        sent.add(request);
    }

    /** Records the answers asked ahead for a star: one per shard, null where the star is not sent. */
    void askedAhead(StarGroup star, List<Future<List<BindingSet>>> perShard) {
        ahead.put(star, perShard);
    }

    /** The answers asked ahead for a star, one per shard (null: not sent there), or null when none were. */
    List<Future<List<BindingSet>>> askedAhead(StarGroup star) {
        return ahead.get(star);
    }

    /** Cancels the requests asked ahead that nobody read (a query that stopped early). */
    void cancelAhead() {
        for (Future<?> request : sent) {
            request.cancel(true);
        }
    }
}
