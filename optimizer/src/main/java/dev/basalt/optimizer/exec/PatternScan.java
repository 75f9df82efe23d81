package dev.basalt.optimizer.exec;

import java.util.Arrays;
import java.util.List;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.TermIds;

/**
 * Scans one quad pattern with the input row's bindings substituted: every position is a constant
 * id, a variable slot, or free. Positions bound by the input become part of the key prefix, so as
 * the inner side of a {@link PipelineJoin} this is an index lookup per input row. A variable that
 * occurs twice must match the same id in both positions. {@code namedGraphsOnly} serves
 * {@code GRAPH ?g { ... }}: the default graph is not a named graph. A position may be a constant
 * and a slot at once (a named variable given a value): the slot is then bound to the constant.
 * {@code contexts}, when given, restricts the scan to those graphs (a query's dataset, see
 * {@link ContextScans}); a graph bound by the input row must then be one of them.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class PatternScan extends Operator {
    private static final int CHECK_EVERY = 1024;
    private final long[] constants;
    private final int[] slots;
    private final boolean namedGraphsOnly;
    private final boolean matchesNothing;
    private final String label;
    private final long[] contexts;
    private final long[] sortedContexts;

    /**
     * @param constants ids in S, P, O, C positions, 0 where not a constant
     * @param slots variable slot per position, -1 where none
     * @param matchesNothing a constant is unknown to the store
     */
    public PatternScan(long[] constants, int[] slots, boolean namedGraphsOnly, boolean matchesNothing, String label) {
        this(constants, slots, namedGraphsOnly, matchesNothing, label, null);
    }

    /** @param contexts distinct context ids the scan is restricted to, or null for no restriction */
    public PatternScan(long[] constants, int[] slots, boolean namedGraphsOnly, boolean matchesNothing, String label,
            long[] contexts) {
        this.constants = constants.clone();
        this.slots = slots.clone();
        this.namedGraphsOnly = namedGraphsOnly;
        this.matchesNothing = matchesNothing;
        this.label = label;
        this.contexts = contexts == null ? null : contexts.clone();
        this.sortedContexts = contexts == null ? null : contexts.clone();
        if (sortedContexts != null) {
            Arrays.sort(sortedContexts);
        }
    }

    /** The graphs the scan is restricted to, or null. */
    public long[] contexts() {
        return contexts == null ? null : contexts.clone();
    }

    public String label() {
        return label;
    }

    public long[] constants() {
        return constants.clone();
    }

    public int[] slots() {
        return slots.clone();
    }

    public boolean matchesNothing() {
        return matchesNothing;
    }

    /** True for a pattern inside {@code GRAPH ?g}: the default graph does not match. */
    public boolean namedGraphsOnly() {
        return namedGraphsOnly;
    }

    @Override
    public List<Operator> children() {
        return List.of();
    }

    @Override
    public String describe() {
        return "Scan " + label;
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        if (matchesNothing) {
            return RowCursor.EMPTY;
        }
        long[] pattern = constants.clone();
        for (int i = 0; i < 4; i++) {
            if (slots[i] >= 0 && constants[i] == TermIds.NULL && input[slots[i]] != TermIds.NULL) {
                pattern[i] = input[slots[i]];
            }
        }
        if (namedGraphsOnly && pattern[3] == TermIds.DEFAULT_GRAPH) {
            return RowCursor.EMPTY;
        }
        QuadSource.Scan scan;
        QuadSource.Prober prober = null;
        if (contexts == null || pattern[3] != TermIds.NULL) {
            if (contexts != null && !ContextScans.contains(sortedContexts, pattern[3])) {
                return RowCursor.EMPTY;
            }
            // one prober per open scan of this operator: successive lookups reuse its index path
            prober = ctx.prober(this);
            scan = prober.scan(pattern);
        } else {
            scan = ContextScans.open(ctx.source(), pattern, contexts, sortedContexts);
        }
        QuadSource.Prober owned = prober;
        return new RowCursor() {
            final long[] quad = new long[4];
            int seen;
            boolean released;

            @Override
            public long[] next() {
                while (scan.next(quad)) {
                    if (++seen % CHECK_EVERY == 0) {
                        ctx.checkCancelled();
                    }
                    if (namedGraphsOnly && quad[3] == TermIds.DEFAULT_GRAPH) {
                        continue;
                    }
                    long[] row = bind(input, quad);
                    if (row != null) {
                        return row;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                scan.close();
                if (owned != null && !released) {
                    released = true;
                    ctx.releaseProber(PatternScan.this, owned);
                }
            }
        };
    }

    /** Whether the pattern takes this matching quad (inside {@code GRAPH ?g}, not one of the default graph). */
    boolean accepts(long[] quad) {
        return !namedGraphsOnly || quad[3] != TermIds.DEFAULT_GRAPH;
    }

    /** {@code input} with the pattern's variables bound to {@code quad}'s ids, or null where they disagree. */
    long[] bind(long[] input, long[] quad) {
        long[] row = input.clone();
        for (int i = 0; i < 4; i++) {
            int s = slots[i];
            if (s >= 0) {
                if (row[s] == TermIds.NULL) {
                    row[s] = quad[i];
                } else if (row[s] != quad[i]) {
                    return null;
                }
            }
        }
        return row;
    }
}
