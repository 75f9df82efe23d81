package dev.basalt.optimizer.exec;

/**
 * A stream of solution rows in {@link Batch}es, what {@link Operator#openBatch} returns: each call
 * of {@link #next} gives a batch of at least one row, which the cursor owns and may refill at the
 * next call, or null at the end. Not thread-safe: used by one thread.
 */
public interface BatchCursor extends AutoCloseable {
    BatchCursor EMPTY = new BatchCursor() {
        @Override
        public Batch next() {
            return null;
        }

        @Override
        public void close() {
        }
    };

    /** The next rows, or null at the end; valid until the next call. */
    Batch next();

    @Override
    void close();

    /** Rows of {@code rows} in batches of {@code width} (an operator without a batch form under batch ones). */
    static BatchCursor of(RowCursor rows, int width) {
        return new BatchCursor() {
            final Batch out = new Batch(width);

            @Override
            public Batch next() {
                out.size = 0;
                long[] r;
                while (!out.full() && (r = rows.next()) != null) {
                    out.add(r);
                }
                return out.size == 0 ? null : out;
            }

            @Override
            public void close() {
                rows.close();
            }
        };
    }

    /** The rows of {@code batches} one at a time, each a new array. */
    static RowCursor rows(BatchCursor batches) {
        return new RowCursor() {
            Batch b;
            int i;
            boolean done;

            @Override
            public long[] next() {
                while (b == null || i >= b.size) {
                    if (done) {
                        return null;
                    }
                    b = batches.next();
                    i = 0;
                    if (b == null) {
                        done = true;
                        return null;
                    }
                }
                return b.row(i++);
            }

            @Override
            public void close() {
                batches.close();
            }
        };
    }
}
