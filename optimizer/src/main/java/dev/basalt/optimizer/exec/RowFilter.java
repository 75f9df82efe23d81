package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * A FILTER condition (or a LeftJoin condition) over rows; true keeps the row. Implementations serve
 * the concurrent evaluations of a kept plan, each with its own context; threads of one evaluation test
 * rows at once only when {@link #threadSafe} says so.
 */
public interface RowFilter {
    boolean test(long[] row, ExecContext ctx);

    /** Called with a batch of rows before they are tested, so a filter can materialize their values at once. */
    default void prefetch(List<long[]> rows, ExecContext ctx) {
    }

    /**
     * Tests every row of {@code rows} into {@code keep} (index-aligned), as {@link #test} of each
     * would; a condition overrides it to do its per-evaluation set-up once per call instead of per row.
     */
    default void testAll(List<long[]> rows, boolean[] keep, ExecContext ctx) {
        for (int i = 0; i < rows.size(); i++) {
            keep[i] = test(rows.get(i), ctx);
        }
    }

    /**
     * True if threads of one evaluation may test rows at once, each with its own context (a fork,
     * see {@link ParallelJoin}); per-evaluation state must then live in the context's scratch.
     */
    default boolean threadSafe() {
        return false;
    }

    /** The condition as SPARQL-like text, for EXPLAIN. */
    String describe();
}
