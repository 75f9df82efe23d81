package dev.basalt.optimizer.exec;

import java.util.List;

import dev.basalt.store.lexicon.TermIds;

/**
 * MultiProjection (a CONSTRUCT template of several triples): for every input row, one output row
 * per projection, in order. Output slots ({@code targets}) are the plan's result columns
 * (subject, predicate, object, context); {@code sources[k][j]} is the slot projection {@code k}
 * copies into {@code targets[j]}, or -1 when it leaves that column unbound. An unbound source
 * leaves the column unbound (RDF4J then drops the statement).
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class MultiProjectOp extends Operator {
    private final Operator input;
    private final int[] targets;
    private final int[][] sources;

    public MultiProjectOp(Operator input, int[] targets, int[][] sources) {
        for (int[] s : sources) {
            if (s.length != targets.length) {
                throw new IllegalArgumentException("a projection has " + s.length + " columns, the output "
                        + targets.length);
            }
        }
        this.input = input;
        this.targets = targets.clone();
        this.sources = sources.clone();
    }

    @Override
    public List<Operator> children() {
        return List.of(input);
    }

    @Override
    public String describe() {
        return "MultiProject " + sources.length + " projections";
    }

    @Override
    protected RowCursor doOpen(long[] row, ExecContext ctx) {
        RowCursor in = input.open(row, ctx);
        return new RowCursor() {
            long[] current;
            int next = sources.length;

            @Override
            public long[] next() {
                if (sources.length == 0) {
                    return null;
                }
                if (next >= sources.length) {
                    current = in.next();
                    if (current == null) {
                        return null;
                    }
                    next = 0;
                }
                int[] from = sources[next++];
                long[] out = current.clone();
                for (int j = 0; j < targets.length; j++) {
                    out[targets[j]] = from[j] >= 0 ? current[from[j]] : TermIds.NULL;
                }
                return out;
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
