package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * UNION: all rows of the left branch, then all rows of the right, each opened with the input row.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class UnionOp extends Operator {
    private final Operator left;
    private final Operator right;

    public UnionOp(Operator left, Operator right) {
        this.left = left;
        this.right = right;
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return "Union";
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        return new RowCursor() {
            RowCursor cur = left.open(input, ctx);
            boolean onRight;

            @Override
            public long[] next() {
                while (true) {
                    long[] r = cur.next();
                    if (r != null || onRight) {
                        return r;
                    }
                    cur.close();
                    onRight = true;
                    cur = right.open(input, ctx);
                }
            }

            @Override
            public void close() {
                cur.close();
            }
        };
    }
}
