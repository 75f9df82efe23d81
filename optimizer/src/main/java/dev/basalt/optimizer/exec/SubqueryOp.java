package dev.basalt.optimizer.exec;

import java.util.List;

import dev.basalt.store.lexicon.TermIds;

/**
 * A subquery (a SELECT nested in a group) with its own variable scope: the inner plan has its own
 * slots, so inner variables it does not project neither see nor bind outer variables of the same
 * name. The inner plan is opened with the input row's values of the projected variables only;
 * each inner row is mapped into the outer slots ({@code innerSlots[i]} to {@code outerSlots[i]})
 * on top of the input row, skipping rows incompatible with it. A projected variable left unbound by
 * an error inside ({@link ExecContext#UNBOUND_BY_ERROR}) is plainly unbound outside, as RDF4J's
 * projection keeps only names with a value.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class SubqueryOp extends Operator {
    private final Operator inner;
    private final int innerWidth;
    private final int[] innerSlots;
    private final int[] outerSlots;

    public SubqueryOp(Operator inner, int innerWidth, int[] innerSlots, int[] outerSlots) {
        if (innerSlots.length != outerSlots.length) {
            throw new IllegalArgumentException("inner and outer slot lists differ in length: " + innerSlots.length
                    + " vs " + outerSlots.length);
        }
        this.inner = inner;
        this.innerWidth = innerWidth;
        this.innerSlots = innerSlots.clone();
        this.outerSlots = outerSlots.clone();
    }

    @Override
    public List<Operator> children() {
        return List.of(inner);
    }

    @Override
    public String describe() {
        return "Subquery (own scope)";
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        long[] innerInput = new long[innerWidth];
        for (int i = 0; i < innerSlots.length; i++) {
            innerInput[innerSlots[i]] = input[outerSlots[i]];
        }
        RowCursor in = inner.open(innerInput, ctx);
        return new RowCursor() {
            @Override
            public long[] next() {
                long[] r;
                while ((r = in.next()) != null) {
                    long[] out = input.clone();
                    boolean compatible = true;
                    for (int i = 0; i < innerSlots.length && compatible; i++) {
                        long v = r[innerSlots[i]];
                        int s = outerSlots[i];
                        // RDF4J's projection drops a name without a value (a BIND error inside)
                        if (v != TermIds.NULL && v != ExecContext.UNBOUND_BY_ERROR) {
                            compatible = out[s] == TermIds.NULL || out[s] == v;
                            out[s] = v;
                        }
                    }
                    if (compatible) {
                        return out;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
