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

    int compare(long[] a, long[] b, ExecContext ctx);

    long[] strip(long[] prepared);

    /** The sort keys as text, for EXPLAIN. */
    String describe();
}
