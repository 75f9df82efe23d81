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
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        // one index descent per left row: the scan substitutes the row's bindings into its key
        return CorrelatedJoin.nestedLoop(left, right, input, ctx);
    }
}
