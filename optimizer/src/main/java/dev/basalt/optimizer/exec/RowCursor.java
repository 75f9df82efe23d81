package dev.basalt.optimizer.exec;

/**
 * A stream of solution rows: arrays of term ids indexed by variable slot, 0 where unbound. Each
 * row {@link #next()} returns belongs to the caller. Not thread-safe.
 */
public interface RowCursor extends AutoCloseable {
    RowCursor EMPTY = new RowCursor() {
        @Override
        public long[] next() {
            return null;
        }

        @Override
        public void close() {
        }
    };

    /** The next row, or null at the end. */
    long[] next();

    @Override
    void close();
}
