package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Extension (BIND, SELECT expressions, CONSTRUCT template constants): extends every input row with
 * the values of its bindings, applied in order so a later one may read an earlier one. Rows are
 * pulled in batches so bindings that need RDF values can materialize a whole batch at once.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class ExtendOp extends Operator {
    private static final int BATCH = 64;
    private final Operator input;
    private final List<RowBinding> bindings;

    public ExtendOp(Operator input, List<RowBinding> bindings) {
        this.input = input;
        this.bindings = List.copyOf(bindings);
    }

    @Override
    public List<Operator> children() {
        return List.of(input);
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("Extend");
        for (RowBinding b : bindings) {
            sb.append(' ').append(b.describe());
        }
        return sb.toString();
    }

    @Override
    protected RowCursor doOpen(long[] row, ExecContext ctx) {
        RowCursor in = input.open(row, ctx);
        return new RowCursor() {
            final List<long[]> batch = new ArrayList<>(BATCH);
            int pos;
            boolean done;

            @Override
            public long[] next() {
                while (pos >= batch.size()) {
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
                    for (RowBinding b : bindings) {
                        b.apply(batch, ctx);
                    }
                }
                return batch.get(pos++);
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
