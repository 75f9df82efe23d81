package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * Left outer join (OPTIONAL) by index lookups: the right side (a group of patterns whose filters
 * use only variables the group itself binds, or a UNION, BIND or OPTIONAL group that the compiler's
 * injection rules allow) is opened once per left row with that row's bindings, so it yields exactly
 * the compatible right rows already merged. For such a right side this equals the algebra's
 * independent evaluation; the compiler uses {@link HashJoin} otherwise.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class CorrelatedLeftJoin extends Operator {
    private final Operator left;
    private final Operator right;
    private final RowFilter condition;

    public CorrelatedLeftJoin(Operator left, Operator right, RowFilter condition) {
        this.left = left;
        this.right = right;
        this.condition = condition;
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return "IndexLeftJoin" + (condition == null ? "" : " if " + condition.describe());
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        RowCursor outer = left.open(input, ctx);
        return new RowCursor() {
            long[] current;
            RowCursor inner;
            boolean matched;

            @Override
            public long[] next() {
                while (true) {
                    if (inner != null) {
                        long[] r;
                        while ((r = inner.next()) != null) {
                            if (condition == null || condition.test(r, ctx)) {
                                matched = true;
                                return r;
                            }
                        }
                        inner.close();
                        inner = null;
                        if (!matched) {
                            return current;
                        }
                    }
                    current = outer.next();
                    if (current == null) {
                        return null;
                    }
                    matched = false;
                    inner = right.open(current, ctx);
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
