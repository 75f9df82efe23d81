package dev.basalt.optimizer.exec;

import java.util.List;

import org.eclipse.rdf4j.model.base.CoreDatatype;

import dev.basalt.store.lexicon.TermIds;

/**
 * {@code COUNT(*)} (or the COUNT of a variable the pattern always binds) of one statement pattern
 * without GROUP BY, answered by {@link dev.basalt.optimizer.access.QuadSource#count} range counts
 * instead of a scan. The input row's bindings are substituted into the pattern as a scan would;
 * for {@code GRAPH ?g} the default graph's count is subtracted, and a scan restricted to a query's
 * dataset (FROM, FROM NAMED) counts within its graphs only. Yields one row: the input row with the
 * count (an xsd:integer) in the target slot. Thread rules: immutable once built; each open runs on
 * the thread of its query.
 */
public final class RangeCountOp extends Operator {
    private final PatternScan pattern;
    private final int target;

    /** @param pattern a pattern without a repeated variable (its matches are exactly its range) */
    public RangeCountOp(PatternScan pattern, int target) {
        this.pattern = pattern;
        this.target = target;
    }

    @Override
    public List<Operator> children() {
        return List.of();
    }

    @Override
    public String describe() {
        return "RangeCount " + pattern.label();
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        return countRow(input, target, count(input, ctx), ctx);
    }

    /** One row: {@code input} with the count {@code n} (an xsd:integer) in {@code target}. */
    static RowCursor countRow(long[] input, int target, long n, ExecContext ctx) {
        long[] row = input.clone();
        row[target] = ctx.idOf(ctx.source().valueFactory().createLiteral(Long.toString(n), CoreDatatype.XSD.INTEGER));
        return new RowCursor() {
            boolean done;

            @Override
            public long[] next() {
                if (done) {
                    return null;
                }
                done = true;
                return row;
            }

            @Override
            public void close() {
                done = true;
            }
        };
    }

    private long count(long[] input, ExecContext ctx) {
        if (pattern.matchesNothing()) {
            return 0;
        }
        long[] key = pattern.constants();
        int[] slots = pattern.slots();
        for (int i = 0; i < 4; i++) {
            if (slots[i] >= 0 && key[i] == TermIds.NULL && input[slots[i]] != TermIds.NULL) {
                key[i] = input[slots[i]];
            }
        }
        long[] contexts = pattern.contexts();
        if (contexts != null) {
            return countIn(contexts, key, ctx);
        }
        if (!pattern.namedGraphsOnly()) {
            return ctx.source().count(key);
        }
        if (key[3] == TermIds.DEFAULT_GRAPH) {
            return 0;
        }
        if (key[3] != TermIds.NULL) {
            return ctx.source().count(key);
        }
        long all = ctx.source().count(key);
        key[3] = TermIds.DEFAULT_GRAPH;
        return all - ctx.source().count(key);
    }

    /** The count within a query's dataset: one range per graph, as {@link PatternScan} scans them. */
    private long countIn(long[] contexts, long[] key, ExecContext ctx) {
        boolean named = pattern.namedGraphsOnly();
        if (key[3] != TermIds.NULL) {
            boolean listed = false;
            for (long c : contexts) {
                listed |= c == key[3];
            }
            return listed && !(named && key[3] == TermIds.DEFAULT_GRAPH) ? ctx.source().count(key) : 0;
        }
        long n = 0;
        for (long c : contexts) {
            if (!(named && c == TermIds.DEFAULT_GRAPH)) {
                key[3] = c;
                n += ctx.source().count(key);
            }
        }
        return n;
    }
}
