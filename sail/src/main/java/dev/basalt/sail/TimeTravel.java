package dev.basalt.sail;

import java.time.Instant;
import java.util.List;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.SailException;

import dev.basalt.optimizer.rdf4j.QueryHints;
import dev.basalt.optimizer.rdf4j.QueryHints.AsOf;
import dev.basalt.sail.errors.FailureStatus;
import dev.basalt.store.journal.CommitPoint;

/**
 * Reads a past commit point for a query that carries an {@code asOfCommit} or {@code asOfTime}
 * hint ({@link QueryHints}): resolves the hint against the store's readable commit points, opens a
 * read-as-of connection on it, and closes that connection with the query's result. A commit point
 * that is not readable is a client error ({@link FailureStatus#badRequest}, HTTP 400 through RDF4J Server)
 * naming the readable range. Stateless; any thread may call it, each call working on its own connection.
 */
final class TimeTravel {
    private TimeTravel() {
    }

    /** A read-as-of connection on the commit point {@code asOf} names; the caller closes it. */
    static BasaltStoreConnection open(BasaltStore sail, AsOf asOf) {
        List<CommitPoint> readable = sail.getRetainedCommits();
        long counter = resolve(readable, asOf);
        if (counter < 0) {
            throw notReadable(sail, asOf, readable);
        }
        try {
            BasaltStoreConnection c = (BasaltStoreConnection) sail.getConnectionAsOf(counter);
            c.servesHint(asOf);
            return c;
        } catch (SailException e) {
            // released between the listing and the pin
            throw notReadable(sail, asOf, sail.getRetainedCommits());
        }
    }

    /** The counter of the readable commit point {@code asOf} names, -1 if none. */
    static long resolve(List<CommitPoint> readable, AsOf asOf) {
        if (asOf.time() == null) {
            return readable.stream().anyMatch(p -> p.counter() == asOf.commit()) ? asOf.commit() : -1;
        }
        long millis = asOf.time().toEpochMilli();
        long found = -1;
        for (CommitPoint p : readable) {
            if (p.timeMillis() <= millis) {
                found = p.counter();
            }
        }
        return found;
    }

    static QueryEvaluationException notReadable(BasaltStore sail, AsOf asOf, List<CommitPoint> readable) {
        StringBuilder m = new StringBuilder("Basalt store ").append(sail.getDataDir()).append(": ");
        CommitPoint newest = readable.get(readable.size() - 1);
        if (asOf.time() == null && asOf.commit() > newest.counter()) {
            m.append("commit point ").append(asOf.commit()).append(" has not been made yet");
        } else if (asOf.time() == null) {
            m.append("commit point ").append(asOf.commit()).append(" is no longer readable");
        } else {
            m.append("no readable commit point was made at or before ").append(asOf.time());
        }
        if (readable.size() == 1) {
            m.append("; the only readable commit point is ").append(text(newest));
        } else {
            m.append("; the readable commit points are ").append(text(readable.get(0))).append(" to ")
                    .append(text(newest));
        }
        m.append(" (list them with the query hint [] <").append(QueryHints.COMMIT_POINTS).append("> true;")
                .append(" a store in RW mode keeps past commit points for its historyRetention, WORM keeps all)");
        return FailureStatus.badRequest(m.toString());
    }

    private static String text(CommitPoint p) {
        return p.counter() + " (" + Instant.ofEpochMilli(p.timeMillis()) + ")";
    }

    /** {@code result} of a query on {@code past} that closes {@code past} when it is closed. */
    static CloseableIteration<BindingSet> closingWith(CloseableIteration<? extends BindingSet> result,
            SailConnection past) {
        return new CloseableIteration<>() {
            private boolean closed;

            @Override
            public boolean hasNext() {
                return !closed && result.hasNext();
            }

            @Override
            public BindingSet next() {
                return result.next();
            }

            @Override
            public void remove() {
                throw new UnsupportedOperationException("query results are read-only");
            }

            @Override
            public void close() {
                if (closed) {
                    return;
                }
                closed = true;
                try {
                    result.close();
                } finally {
                    past.close();
                }
            }
        };
    }
}
