package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * DISTINCT over the given slots (the projected variables): the first row of each combination of
 * ids passes. Ids identify terms, so id equality is term equality. REDUCED passes every row, as
 * RDF4J's evaluator does (SPARQL allows any number of duplicates up to the full count). Memory is
 * bounded by {@link ExecLimits#distinctRows()} keys; beyond it {@link DistinctCursor} spills.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class DistinctOp extends Operator {
    private final Operator input;
    private final int[] slots;
    private final boolean reduced;

    public DistinctOp(Operator input, int[] slots, boolean reduced) {
        this.input = input;
        this.slots = slots.clone();
        this.reduced = reduced;
    }

    @Override
    public List<Operator> children() {
        return List.of(input);
    }

    @Override
    public String describe() {
        return reduced ? "Reduced (pass-through)" : "Distinct";
    }

    @Override
    protected RowCursor doOpen(long[] row, ExecContext ctx) {
        RowCursor in = input.open(row, ctx);
        if (reduced) {
            return in;
        }
        return new DistinctCursor(in, slots, ctx);
    }
}
