package dev.basalt.optimizer.exec;

/**
 * The aggregates a {@link GroupJoinOp} computes from per-key partial sums: COUNT(*), COUNT of a
 * variable the patterns bind (the same count: a pattern's match binds all its variables), and SUM or AVG
 * of one argument whose value on a row is an exact number (an xsd:integer or xsd:decimal) that
 * depends on one variable's id. Numbers travel packed in one {@code long}: the unscaled digits
 * shifted left by 6, bit 5 set for an xsd:decimal, the scale (0 to 31) in bits 0-4.
 * Implementations hold no per-evaluation state outside the context's scratch, so a kept plan's
 * aggregation serves concurrent evaluations, each on its own thread.
 */
public interface JoinedAggregation {
    /** The slot of the variable the summed argument depends on, or -1 when only rows are counted. */
    int valueSlot();

    /** The slots of the variables counted ({@code COUNT(?v)}), each to be bound by one of the patterns. */
    int[] countedSlots();

    /**
     * Puts into {@code out[i]} the packed number of the argument on row {@code i} of {@code batch};
     * false if some row's argument is not such a number (an error, another type, too many digits):
     * the group join then leaves the work to the rows.
     */
    boolean numbers(Batch batch, long[] out, ExecContext ctx);

    /** The slots the aggregates' results go to, in the order {@link #result} numbers them. */
    int[] targetSlots();

    /**
     * The id of aggregate {@code index}'s result for a group of {@code count} rows whose arguments
     * add up to {@code unscaledSum} × 10^-{@code scale} ({@code decimal}: some of them are
     * xsd:decimal, else all are xsd:integer), as the row-by-row aggregates would give it.
     */
    long result(int index, long count, long unscaledSum, int scale, boolean decimal, ExecContext ctx);

    /** The aggregates as text, for EXPLAIN. */
    String describe();
}
