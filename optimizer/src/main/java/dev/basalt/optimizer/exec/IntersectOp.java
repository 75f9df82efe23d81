package dev.basalt.optimizer.exec;

import java.util.List;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.TermIds;

/**
 * A merge join of patterns that share one variable and are otherwise constant, such as
 * {@code ?p a :T . ?p :feature :F1 . ?p :feature :F2}: each pattern's matches are read in
 * ascending order of the variable from an index that has the constants first ({@code posc} for
 * the example), and the streams are intersected leapfrog style: the lagging streams seek forward
 * to the largest current value (a seek near the previous position reads few pages, see
 * {@code BTreeCursor.reset}), and a value all streams reach is a result. The cost is bounded by
 * the smallest stream's seeks rather than one random index lookup per candidate and pattern.
 *
 * <p>A value occurring several times in a stream (the same triple in several graphs) yields as
 * many rows as the nested-loop join would: the product of its occurrences. If the input row
 * already binds the variable, only that value is checked.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class IntersectOp extends Operator {
    private static final int CHECK_EVERY = 256;
    private final long[][] patterns;
    private final int position;
    private final int slot;
    private final String label;

    /**
     * @param patterns constants of each pattern in S, P, O, C positions, 0 at {@code position}
     *        and in the (unconstrained) context
     * @param position the quad position of the shared variable in every pattern
     * @param slot the variable's row slot
     */
    public IntersectOp(long[][] patterns, int position, int slot, String label) {
        this.patterns = patterns.clone();
        this.position = position;
        this.slot = slot;
        this.label = label;
    }

    @Override
    public List<Operator> children() {
        return List.of();
    }

    @Override
    public String describe() {
        return "MergeIntersect " + label;
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        long fixed = input[slot];
        QuadSource.OrderedScan[] scans = new QuadSource.OrderedScan[patterns.length];
        for (int i = 0; i < scans.length; i++) {
            scans[i] = ctx.source().orderedScan(patterns[i], position);
            if (scans[i] == null) {
                throw new IllegalStateException("the source cannot order " + label + " by position " + position);
            }
        }
        return new RowCursor() {
            final long[] quad = new long[4];
            final long[] heads = new long[scans.length];
            boolean started;
            boolean finished;
            long[] repeatRow;
            long repeats;
            int steps;

            @Override
            public long[] next() {
                if (repeats > 0) {
                    repeats--;
                    return repeatRow.clone();
                }
                if (finished) {
                    return null;
                }
                if (!started) {
                    started = true;
                    for (int i = 0; i < scans.length; i++) {
                        if (!scans[i].seek(fixed, quad)) {
                            return end();
                        }
                        heads[i] = quad[position];
                    }
                }
                while (true) {
                    if (++steps % CHECK_EVERY == 0) {
                        ctx.checkCancelled();
                    }
                    long max = heads[0];
                    for (long h : heads) {
                        if (Long.compareUnsigned(h, max) > 0) {
                            max = h;
                        }
                    }
                    if (fixed != TermIds.NULL && max != fixed) {
                        return end();
                    }
                    boolean aligned = true;
                    for (int i = 0; i < scans.length; i++) {
                        if (heads[i] != max) {
                            aligned = false;
                            if (!scans[i].seek(max, quad)) {
                                return end();
                            }
                            heads[i] = quad[position];
                        }
                    }
                    if (aligned) {
                        return emit(max);
                    }
                }
            }

            /** All streams stand on {@code value}: counts its occurrences in each and moves past it. */
            private long[] emit(long value) {
                long product = 1;
                for (int i = 0; i < scans.length; i++) {
                    long occurrences = 0;
                    while (heads[i] == value) {
                        occurrences++;
                        if (!scans[i].next(quad)) {
                            finished = true;
                            break;
                        }
                        heads[i] = quad[position];
                    }
                    product *= occurrences;
                }
                if (fixed != TermIds.NULL) {
                    finished = true;
                }
                long[] row = input.clone();
                row[slot] = value;
                repeatRow = row;
                repeats = product - 1;
                return repeats > 0 ? row.clone() : row;
            }

            private long[] end() {
                finished = true;
                return null;
            }

            @Override
            public void close() {
                finished = true;
                repeats = 0;
                for (QuadSource.OrderedScan s : scans) {
                    s.close();
                }
            }
        };
    }
}
