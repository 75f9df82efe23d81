package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * Index nested-loop join: for each row of the left input, scans the right pattern with the row's
 * bindings substituted into its key (see {@link PatternScan}). Pipelined: no row is held beyond
 * the current one, so LIMIT stops it early and memory stays constant.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class PipelineJoin extends Operator {
    private final Operator left;
    private final PatternScan right;

    public PipelineJoin(Operator left, PatternScan right) {
        this.left = left;
        this.right = right;
    }

    public Operator left() {
        return left;
    }

    public PatternScan right() {
        return right;
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return "PipelineJoin";
    }

    @Override
    public boolean batchable() {
        return left.batchable();
    }

    @Override
    protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
        return lookups(left, right, input, ctx);
    }

    /**
     * The batch form of the nested loop: each row of {@code left}'s batches extended by the matches
     * of {@code right} with its bindings substituted (one index descent per row, one prober for all).
     */
    static BatchCursor lookups(Operator left, PatternScan right, long[] input, ExecContext ctx) {
        BatchCursor in = left.openBatch(input, ctx);
        PatternLookup lookup = new PatternLookup(right, ctx);
        Batch out = new Batch(input.length);
        long[] row = new long[input.length];
        return new BatchCursor() {
            Batch from;
            int at;
            boolean started;
            boolean done;

            @Override
            public Batch next() {
                out.size = 0;
                while (!done) {
                    if (started) {
                        if (!lookup.fill(out, row)) {
                            return out;
                        }
                        started = false;
                        at++;
                    }
                    if (out.full()) {
                        return out;
                    }
                    if (from == null || at >= from.size) {
                        ctx.checkCancelled();
                        from = in.next();
                        at = 0;
                        if (from == null) {
                            done = true;
                            break;
                        }
                    }
                    from.copyRow(at, row);
                    lookup.start(row);
                    started = true;
                }
                return out.size == 0 ? null : out;
            }

            @Override
            public void close() {
                done = true;
                lookup.countInto();
                lookup.close();
                in.close();
            }
        };
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        // one index descent per left row: the scan substitutes the row's bindings into its key
        return CorrelatedJoin.nestedLoop(left, right, input, ctx);
    }
}
