package dev.basalt.optimizer.exec;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * DISTINCT over the given slots (the projected variables): the first row of each combination of
 * ids passes. Ids identify terms, so id equality is term equality. REDUCED passes every row, as
 * RDF4J's evaluator does (SPARQL allows any number of duplicates up to the full count).
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
        Set<Key> seen = new HashSet<>();
        return new RowCursor() {
            @Override
            public long[] next() {
                long[] r;
                while ((r = in.next()) != null) {
                    long[] k = new long[slots.length];
                    for (int i = 0; i < slots.length; i++) {
                        k[i] = r[slots[i]];
                    }
                    if (seen.add(new Key(k))) {
                        return r;
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

    private record Key(long[] ids) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(k.ids, ids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ids);
        }
    }
}
