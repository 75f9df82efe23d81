package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * OFFSET and LIMIT (-1 for none); stops pulling its input once the limit is reached. Thread-safe: its
 * fields are fixed at construction and each open's state lives in its cursor, so the concurrent
 * evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class SliceOp extends Operator {
    private final Operator input;
    private final long offset;
    private final long limit;

    public SliceOp(Operator input, long offset, long limit) {
        this.input = input;
        this.offset = Math.max(0, offset);
        this.limit = limit;
    }

    @Override
    public List<Operator> children() {
        return List.of(input);
    }

    @Override
    public String describe() {
        return "Slice" + (offset > 0 ? " offset " + offset : "") + (limit >= 0 ? " limit " + limit : "");
    }

    @Override
    protected RowCursor doOpen(long[] row, ExecContext ctx) {
        return new RowCursor() {
            RowCursor in;
            long skipped;
            long returned;

            @Override
            public long[] next() {
                if (limit >= 0 && returned >= limit) {
                    return null;
                }
                if (in == null) {
                    in = input.open(row, ctx);
                }
                long[] r;
                while ((r = in.next()) != null && skipped < offset) {
                    skipped++;
                }
                if (r != null) {
                    returned++;
                }
                return r;
            }

            @Override
            public void close() {
                if (in != null) {
                    in.close();
                }
            }
        };
    }
}
