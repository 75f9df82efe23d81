package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the rows a condition holds for. Rows are pulled in batches so a condition that needs RDF
 * values materializes a whole batch at once ({@link RowFilter#prefetch}).
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread. Threads
 * of one evaluation share it only when its condition is {@link RowFilter#threadSafe}.
 */
public final class FilterOp extends Operator {
    private static final int BATCH = 64;
    private final Operator input;
    private final RowFilter condition;

    public FilterOp(Operator input, RowFilter condition) {
        this.input = input;
        this.condition = condition;
    }

    public Operator input() {
        return input;
    }

    public RowFilter condition() {
        return condition;
    }

    @Override
    public List<Operator> children() {
        return List.of(input);
    }

    @Override
    public String describe() {
        return "Filter " + condition.describe();
    }

    @Override
    public boolean batchable() {
        return input.batchable();
    }

    /** The batch form: the input's batches, filtered ({@link #filtered}). */
    @Override
    protected BatchCursor doOpenBatch(long[] row, ExecContext ctx) {
        return filtered(input.openBatch(row, ctx), condition, row.length, ctx);
    }

    /**
     * The rows of {@code in}'s batches (rows of {@code width} slots) that {@code condition} holds for:
     * each batch's rows are written into row arrays the cursor reuses, the condition prefetches and
     * tests them (conditions keep no row), and the rows it holds for are copied to the output batch.
     * Closing the cursor closes {@code in}.
     */
    static BatchCursor filtered(BatchCursor in, RowFilter condition, int width, ExecContext ctx) {
        Batch out = new Batch(width);
        long[][] pool = new long[Batch.CAPACITY][width];
        boolean[] keep = new boolean[Batch.CAPACITY];
        return new BatchCursor() {
            final RowsView view = new RowsView(pool);

            @Override
            public Batch next() {
                Batch b;
                while ((b = in.next()) != null) {
                    ctx.checkCancelled();
                    for (int i = 0; i < b.size; i++) {
                        b.copyRow(i, pool[i]);
                    }
                    view.size = b.size;
                    condition.prefetch(view, ctx);
                    condition.testAll(view, keep, ctx);
                    out.size = 0;
                    for (int i = 0; i < b.size; i++) {
                        if (keep[i]) {
                            out.addCopy(b, i);
                        }
                    }
                    if (out.size > 0) {
                        return out;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }

    /** The first {@code size} arrays of a pool as a list, for {@link RowFilter#prefetch}. */
    private static final class RowsView extends java.util.AbstractList<long[]> {
        final long[][] rows;
        int size;

        RowsView(long[][] rows) {
            this.rows = rows;
        }

        @Override
        public long[] get(int i) {
            return rows[i];
        }

        @Override
        public int size() {
            return size;
        }
    }

    @Override
    protected RowCursor doOpen(long[] row, ExecContext ctx) {
        RowCursor in = input.open(row, ctx);
        return new RowCursor() {
            final List<long[]> batch = new ArrayList<>(BATCH);
            final boolean[] keep = new boolean[BATCH];
            int pos;
            boolean done;

            @Override
            public long[] next() {
                while (true) {
                    while (pos < batch.size()) {
                        long[] r = batch.get(pos);
                        if (keep[pos++]) {
                            return r;
                        }
                    }
                    if (done) {
                        return null;
                    }
                    batch.clear();
                    pos = 0;
                    long[] r;
                    while (batch.size() < BATCH && (r = in.next()) != null) {
                        batch.add(r);
                    }
                    done = batch.size() < BATCH;
                    ctx.checkCancelled();
                    condition.prefetch(batch, ctx);
                    condition.testAll(batch, keep, ctx);
                }
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
