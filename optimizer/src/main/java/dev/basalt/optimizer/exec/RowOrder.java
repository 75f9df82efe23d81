package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * A total order on rows for {@link SortOp}. Rows are first {@link #prepare prepared} a batch at a
 * time: the order may append key columns (ids of computed ORDER BY expressions) and materialize the
 * values its comparisons need; {@link #compare} then only sees prepared rows, and
 * {@link #strip} gives a prepared row back at its original width.
 * Implementations keep per-evaluation state in the context's scratch; one evaluation sorts in one
 * thread.
 */
public interface RowOrder {
    /** The batch's rows with key columns appended (may be the same arrays when none are needed). */
    List<long[]> prepare(List<long[]> batch, ExecContext ctx);

    /**
     * {@link #prepare} for a top-k heap: most rows are compared once, with the heap's largest row, and decided by
     * their first key, so values are read when a comparison needs them rather than for the whole batch.
     */
    default List<long[]> prepareForFewComparisons(List<long[]> batch, ExecContext ctx) {
        return prepare(batch, ctx);
    }

    int compare(long[] a, long[] b, ExecContext ctx);

    long[] strip(long[] prepared);

    /** The sort keys as text, for EXPLAIN. */
    String describe();
}
