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

    /**
     * A cursor over {@code rows} in list order; closing it runs {@code onClose}.
     * The rows are handed out as they are, not copied.
     */
    static RowCursor over(java.util.List<long[]> rows, Runnable onClose) {
        return new RowCursor() {
            int next;

            @Override
            public long[] next() {
                return next < rows.size() ? rows.get(next++) : null;
            }

            @Override
            public void close() {
                onClose.run();
            }
        };
    }

    /** The next row, or null at the end. */
    long[] next();

    @Override
    void close();
}
