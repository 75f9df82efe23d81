package dev.basalt.sail.read;

/**
 * What a live {@link ReadView} needs of the large transaction whose open write transaction it reads
 * (the transaction's {@code LiveReads} on the write side): whether the transaction has ended, and
 * a way for a reader that keeps a cursor between calls to be detached before the next write.
 *
 * <p>Thread rules: implementations are used by the transaction's connection, one thread at a time;
 * {@link #isEnded()} may be asked from any thread.
 */
public interface LiveTransaction {
    /** True once the transaction committed, rolled back or lost its writes: its views are unreadable. */
    boolean isEnded();

    /**
     * Registers a reader that keeps a cursor between calls; {@code detach} is run before the
     * transaction's next write. Returns what unregisters it.
     */
    Runnable track(Runnable detach);
}
