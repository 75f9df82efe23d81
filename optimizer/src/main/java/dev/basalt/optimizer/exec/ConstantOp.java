package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * The empty group (one row: the input) or the empty set (no rows). Thread-safe: its fields are fixed
 * at construction and each open's state lives in its cursor, so the concurrent evaluations of a kept
 * plan may open it at once; a cursor is used by one thread.
 */
public final class ConstantOp extends Operator {
    private final boolean singleton;

    public ConstantOp(boolean singleton) {
        this.singleton = singleton;
    }

    @Override
    public List<Operator> children() {
        return List.of();
    }

    @Override
    public String describe() {
        return singleton ? "Singleton" : "Empty";
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        if (!singleton) {
            return RowCursor.EMPTY;
        }
        return new RowCursor() {
            boolean given;

            @Override
            public long[] next() {
                if (given) {
                    return null;
                }
                given = true;
                return input.clone();
            }

            @Override
            public void close() {
            }
        };
    }
}
