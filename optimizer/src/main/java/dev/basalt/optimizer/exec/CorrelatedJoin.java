package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * Inner nested-loop join that opens its right operator once per left row, with the row's bindings
 * as input (the right side extends the row it was given, so every output row is compatible with
 * it). Used where the right side is cheap once the left binds some of its variables, e.g. a
 * property path whose start the left side binds. Pipelined like {@link PipelineJoin}.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class CorrelatedJoin extends Operator {
    private final Operator left;
    private final Operator right;

    public CorrelatedJoin(Operator left, Operator right) {
        this.left = left;
        this.right = right;
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return "CorrelatedJoin";
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        return nestedLoop(left, right, input, ctx);
    }

    /** Each row of {@code left} (opened on {@code input}) followed by what {@code right} yields opened on that row. */
    static RowCursor nestedLoop(Operator left, Operator right, long[] input, ExecContext ctx) {
        RowCursor outer = left.open(input, ctx);
        return new RowCursor() {
            RowCursor inner;

            @Override
            public long[] next() {
                while (true) {
                    if (inner != null) {
                        long[] r = inner.next();
                        if (r != null) {
                            return r;
                        }
                        inner.close();
                        inner = null;
                    }
                    long[] l = outer.next();
                    if (l == null) {
                        return null;
                    }
                    inner = right.open(l, ctx);
                }
            }

            @Override
            public void close() {
                if (inner != null) {
                    inner.close();
                }
                outer.close();
            }
        };
    }
}
