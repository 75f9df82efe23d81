package dev.basalt.optimizer.exec;

import org.eclipse.rdf4j.query.QueryInterruptedException;

import dev.basalt.optimizer.access.QuadSource;

/**
 * State of one evaluation of a plan: the data it reads, whether operators time themselves, and
 * cancellation. Closing the result from another thread (RDF4J's query timeout does) or
 * interrupting the evaluating thread stops every operator at its next row check.
 */
public final class ExecContext {
    private final QuadSource source;
    private final boolean trackTime;
    private volatile boolean cancelled;

    public ExecContext(QuadSource source, boolean trackTime) {
        this.source = source;
        this.trackTime = trackTime;
    }

    public QuadSource source() {
        return source;
    }

    public boolean trackTime() {
        return trackTime;
    }

    public void cancel() {
        cancelled = true;
    }

    /** Throws if the evaluation was cancelled or its thread interrupted; operators call it per batch of rows. */
    public void checkCancelled() {
        if (cancelled) {
            throw new QueryInterruptedException("the query was closed or timed out");
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new QueryInterruptedException("the query thread was interrupted");
        }
    }
}
