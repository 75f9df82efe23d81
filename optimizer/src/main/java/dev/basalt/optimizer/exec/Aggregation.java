package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * The aggregates of one GROUP BY, for {@link GroupOp}: how to start a group's accumulators and
 * which slot each result goes to. {@link #prepare} sees every input batch before its rows are
 * added, so aggregates that need RDF values materialize a whole batch at once.
 * Implementations hold no per-evaluation state (that lives in the context's scratch), so a kept plan's
 * aggregation serves concurrent evaluations; an accumulator is used by the one thread aggregating its
 * group.
 */
public interface Aggregation {
    /** One accumulator per aggregate, in the order of {@link #targetSlots()}. */
    Accumulator[] start();

    int[] targetSlots();

    void prepare(List<long[]> batch, ExecContext ctx);

    /**
     * True if {@link GroupOp} may add rows from batches: the accumulators keep no reference to the
     * row array they are given (it is refilled for the next row). False by default.
     */
    default boolean batchable() {
        return false;
    }

    /** Like {@link #prepare}, for a batch's rows; only called when {@link #batchable} is true. */
    default void prepare(Batch batch, ExecContext ctx) {
    }

    /** The aggregates as text, for EXPLAIN. */
    String describe();

    /** The running state of one aggregate in one group. */
    interface Accumulator {
        void add(long[] row, ExecContext ctx);

        /**
         * Adds every row of {@code batch} in order, as {@link #add} of each would; {@code scratch}
         * (of the batch's width) is the caller's array to read rows into. Only called when
         * {@link Aggregation#batchable} is true.
         */
        default void addAll(Batch batch, long[] scratch, ExecContext ctx) {
            for (int i = 0; i < batch.size; i++) {
                batch.copyRow(i, scratch);
                add(scratch, ctx);
            }
        }

        /**
         * Adds rows {@code from} to {@code to - 1} of {@code batch} in order, as {@link #add} of each
         * would (a run of one group's rows, see {@link GroupOp}); only called when
         * {@link Aggregation#batchable} is true.
         */
        default void addRun(Batch batch, int from, int to, long[] scratch, ExecContext ctx) {
            for (int i = from; i < to; i++) {
                batch.copyRow(i, scratch);
                add(scratch, ctx);
            }
        }

        /** The aggregate's id (via {@link ExecContext#idOf}), or {@link dev.basalt.store.lexicon.TermIds#NULL} on error. */
        long result(ExecContext ctx);
    }
}
