package dev.basalt.sail.load;

/**
 * A stream of distinct quads in ascending key order of one statement index order, each as four
 * ids in that order's key positions (not S, P, O, C positions).
 *
 * <p>Implementations are not thread-safe: one thread consumes a stream.
 */
interface SortedQuads extends AutoCloseable {
    /** Advances to the next quad; false at the end. */
    boolean next();

    /** The current quad's ids in key order; valid until the next call of {@link #next()}. */
    long[] key();

    @Override
    void close();
}
