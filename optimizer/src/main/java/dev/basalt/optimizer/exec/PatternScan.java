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
    /** Matches read between two checks of the query's cancellation. */
    static final int CHECK_EVERY = 1024;
    private final long[] constants;
    private final int[] slots;
    private final boolean namedGraphsOnly;
    private final boolean matchesNothing;
    private final String label;
    private final long[] contexts;
    private final long[] sortedContexts;
    /** Bounds on the object from the group's FILTER, applied when the object is free at open; or null. */
    private final ObjectRanges objectRanges;
    /** The object intervals of the compiling query's constants, for estimates only; null without ranges. */
    private final long[] plannedIntervals;
    /** Share of the pattern's matches estimated inside {@link #plannedIntervals}; 1 without ranges. */
    private final double rangeShare;
    /**
     * Per position, the slot of a variable that a FILTER of the group requires to be equal ({@code =}) to
     * this position's free variable, or -1; null for none ({@link #withEqualSlots}).
     */
    private final int[] equalSlots;
    /** Names this pattern's column table ({@link IdHashTable}) among an evaluation's shared values. */
    private final Object columnsKey = new Object();

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
        this(constants, slots, namedGraphsOnly, matchesNothing, label, contexts, null, null, 1, null);
    }

    private PatternScan(long[] constants, int[] slots, boolean namedGraphsOnly, boolean matchesNothing, String label,
            long[] contexts, ObjectRanges objectRanges, long[] plannedIntervals, double rangeShare, int[] equalSlots) {
        this.equalSlots = equalSlots;
        this.objectRanges = objectRanges;
        this.plannedIntervals = plannedIntervals;
        this.rangeShare = rangeShare;
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

    /**
     * This pattern reading, where its subject and object are free when it is opened, only the object ids in
     * {@code ranges}' intervals (a FILTER of its group above it decides the rows);
     * {@code plannedIntervals} are those of the compiling query, and {@code share} the part of the
     * pattern's matches estimated in them. Not for a pattern restricted to a dataset's graphs.
     */
    public PatternScan withObjectRanges(ObjectRanges ranges, long[] plannedIntervals, double share) {
        if (contexts != null || slots[2] < 0 || constants[2] != TermIds.NULL || constants[0] != TermIds.NULL) {
            throw new IllegalArgumentException("object ranges need a free subject and object outside a dataset: " + label);
        }
        return new PatternScan(constants, slots, namedGraphsOnly, matchesNothing, label, null, ranges,
                plannedIntervals.clone(), share, equalSlots);
    }

    /**
     * This pattern taking, at each position {@code i} with {@code equal[i] >= 0} whose variable the input
     * leaves free, the input's id of slot {@code equal[i]} when that is an IRI or a blank node: the group's
     * FILTER requires the two variables equal ({@code ?a = ?b}), and such a term equals no other term, so
     * the lookup finds exactly the matches the FILTER can keep (it stays above and decides every row). A
     * literal (equal by value to other terms) is not taken: the position is scanned free.
     */
    public PatternScan withEqualSlots(int[] equal) {
        return new PatternScan(constants, slots, namedGraphsOnly, matchesNothing, label, contexts, objectRanges,
                plannedIntervals, rangeShare, equal.clone());
    }

    /** The slot whose IRI or blank node position {@code i} takes when free ({@link #withEqualSlots}), or -1. */
    public int equalSlot(int i) {
        return equalSlots == null ? -1 : equalSlots[i];
    }

    /** The bounds on the object, or null. */
    public ObjectRanges objectRanges() {
        return objectRanges;
    }

    /** The part of the pattern's matches that the object ranges are estimated to read (1 without ranges). */
    public double rangeShare() {
        return rangeShare;
    }

    /** Whether a match with object id {@code object} lies in the compiling query's object ranges (always, without). */
    public boolean inPlannedRanges(long object) {
        return plannedIntervals == null || ObjectRanges.contains(plannedIntervals, object);
    }

    /** The variable slot at position {@code i} (S, P, O, C), -1 where none. */
    int slot(int i) {
        return slots[i];
    }

    /** The graphs the scan is restricted to, sorted, or null; not a copy (callers do not change it). */
    long[] sortedContexts() {
        return sortedContexts;
    }

    /** The graphs the scan is restricted to, or null. */
    public long[] contexts() {
        return contexts == null ? null : contexts.clone();
    }

    /** The key of this pattern's {@link IdHashTable} in {@link ExecContext#shared}: one per pattern, whichever join copy builds it. */
    Object columnsKey() {
        return columnsKey;
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
        StringBuilder d = new StringBuilder("Scan ").append(label);
        if (objectRanges != null) {
            d.append(" [object ids in the ranges of ").append(objectRanges.text()).append(" where the subject is free]");
        }
        if (equalSlots != null) {
            d.append(" [a free variable takes the IRI or blank node of the variable the FILTER makes it equal to]");
        }
        return d.toString();
    }

    /**
     * Fills {@code pattern} with the ids this pattern is scanned with for input {@code row}: its constants,
     * the row's ids of its variables, and where a position is free but {@link #equalSlots} names a slot
     * holding an IRI or a blank node, that id (the only term equal to it by {@code =}).
     */
    public void substitute(long[] row, long[] pattern) {
        for (int i = 0; i < 4; i++) {
            pattern[i] = constants[i];
            if (slots[i] >= 0 && constants[i] == TermIds.NULL) {
                long id = row[slots[i]];
                if (id == TermIds.NULL && equalSlots != null && equalSlots[i] >= 0) {
                    long other = row[equalSlots[i]];
                    int kind = TermIds.kindCode(other);
                    id = kind == TermIds.KIND_IRI || kind == TermIds.KIND_BLANK_NODE ? other : TermIds.NULL;
                }
                pattern[i] = id;
            }
        }
    }

    /**
     * The range scan of {@code pattern} where this pattern has object ranges and its subject and object are
     * free (a lookup of one subject's objects reads few matches: its ordinary scan is cheaper), else null.
     */
    QuadSource.Scan rangeScan(long[] pattern, ExecContext ctx) {
        if (objectRanges == null || pattern[2] != TermIds.NULL || pattern[0] != TermIds.NULL) {
            return null;
        }
        long[] intervals = objectRanges.intervals(ctx);
        return intervals == null ? null : RangeScan.open(ctx.source(), pattern, intervals);
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        if (matchesNothing) {
            return RowCursor.EMPTY;
        }
        long[] pattern = new long[4];
        substitute(input, pattern);
        if (namedGraphsOnly && pattern[3] == TermIds.DEFAULT_GRAPH) {
            return RowCursor.EMPTY;
        }
        // with object ranges, only the object ids the group's FILTER may keep are read
        QuadSource.Scan ranged = rangeScan(pattern, ctx);
        QuadSource.Scan scan = ranged;
        QuadSource.Prober prober = null;
        if (ranged == null && (contexts == null || pattern[3] != TermIds.NULL)) {
            if (contexts != null && !ContextScans.contains(sortedContexts, pattern[3])) {
                return RowCursor.EMPTY;
            }
            // one prober per open scan of this operator: successive lookups reuse its index path
            prober = ctx.prober(this);
            scan = prober.scan(pattern);
        } else if (ranged == null) {
            scan = ContextScans.open(ctx.source(), pattern, contexts, sortedContexts);
        }
        QuadSource.Scan opened = scan;
        QuadSource.Prober owned = prober;
        return new RowCursor() {
            final long[] quad = new long[4];
            int seen;
            boolean released;

            @Override
            public long[] next() {
                while (opened.next(quad)) {
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
                opened.close();
                if (owned != null && !released) {
                    released = true;
                    ctx.releaseProber(PatternScan.this, owned);
                }
            }
        };
    }

    @Override
    public boolean batchable() {
        return true;
    }

    @Override
    protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
        if (matchesNothing) {
            return BatchCursor.EMPTY;
        }
        PatternLookup lookup = new PatternLookup(this, ctx);
        Batch out = new Batch(input.length);
        // every batch of this cursor extends the same row: the columns the pattern does not write hold
        // the row's ids once for all batches (a batch's reader does not change it)
        for (int c = 0; c < input.length; c++) {
            if (input[c] != TermIds.NULL) {
                Arrays.fill(out.cols[c], input[c]);
            }
        }
        lookup.rowFilled = true;
        lookup.start(input);
        return new BatchCursor() {
            boolean done;

            @Override
            public Batch next() {
                if (done) {
                    return null;
                }
                out.size = 0;
                done = lookup.fill(out, input);
                return out.size == 0 ? null : out;
            }

            @Override
            public void close() {
                done = true;
                lookup.close();
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
