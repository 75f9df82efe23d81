package dev.basalt.optimizer.exec;

import java.util.List;

import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.lexicon.TermIds;

/**
 * VALUES (BindingSetAssignment): one row per given binding set, each joined with the input row. A
 * null value is UNDEF (the slot stays as the input has it); a row whose value differs from a
 * value the input already binds is incompatible and skipped. Values become ids through the
 * evaluation's {@link ExecContext} (stored or query-local ids), once per evaluation.
 * Thread-safe: the rows are fixed at construction and one evaluation's ids are cached in a volatile
 * holder replaced whole, so concurrent evaluations of a kept plan may open it at once.
 */
public final class ValuesOp extends Operator {
    private final int[] slots;
    private final Value[][] rows;
    /** The ids of the latest evaluation, with its context: one reference, so concurrent evaluations of a kept plan never mix them. */
    private volatile IdsFor cached;

    private record IdsFor(ExecContext ctx, long[][] ids) {
    }

    /** @param rows values per row, index-aligned with {@code slots}, null for UNDEF */
    public ValuesOp(int[] slots, Value[][] rows) {
        this.slots = slots.clone();
        this.rows = rows.clone();
    }

    @Override
    public List<Operator> children() {
        return List.of();
    }

    @Override
    public String describe() {
        return "Values " + rows.length + " rows";
    }

    private long[][] ids(ExecContext ctx) {
        IdsFor held = cached;
        if (held != null && held.ctx == ctx) {
            return held.ids;
        }
        long[][] out = new long[rows.length][slots.length];
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < slots.length; j++) {
                out[i][j] = ctx.idOf(rows[i][j]);
            }
        }
        cached = new IdsFor(ctx, out);
        return out;
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        long[][] table = ids(ctx);
        return new RowCursor() {
            int next;

            @Override
            public long[] next() {
                while (next < table.length) {
                    long[] values = table[next++];
                    long[] row = input.clone();
                    boolean compatible = true;
                    for (int j = 0; j < slots.length && compatible; j++) {
                        long v = values[j];
                        if (v != TermIds.NULL) {
                            compatible = row[slots[j]] == TermIds.NULL || row[slots[j]] == v;
                            row[slots[j]] = v;
                        }
                    }
                    if (compatible) {
                        return row;
                    }
                }
                return null;
            }

            @Override
            public void close() {
            }
        };
    }
}
