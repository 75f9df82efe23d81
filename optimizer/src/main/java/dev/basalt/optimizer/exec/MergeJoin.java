package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.List;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.TermIds;

/**
 * Merge join of two patterns on one shared variable that both can be read in that variable's
 * order from the statement indices ({@link QuadSource#orderedScan}), such as the offers and the
 * reviews of every product ({@code ?offer :product ?p . ?review :reviewFor ?p}, both from
 * {@code posc}): the two streams advance together, the lagging one seeking forward to the other's
 * value, and for each value both hold, every left match is joined with every right match (other
 * shared variables must agree). No index lookup per row and no hash table: each side is read once,
 * in key order. The left matches of the current value are held in memory (a value's matches, not
 * the pattern's).
 *
 * <p>Yields the rows a {@link PipelineJoin} of the two patterns yields, ordered by the variable
 * (the nested loop gives them in the left pattern's scan order). An open whose input row binds a
 * variable of either pattern joins by nested loops instead (the group opened with incoming
 * bindings). Keeps no state outside its cursors.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class MergeJoin extends Operator {
    private static final int CHECK_EVERY = 1024;
    private final PatternScan left;
    private final PatternScan right;
    private final int leftPosition;
    private final int rightPosition;
    private final int slot;
    private final String reason;

    /**
     * @param leftPosition the quad position of the shared variable in {@code left}
     * @param rightPosition its position in {@code right}
     * @param slot the variable's row slot
     * @param reason why the compiler chose it (the estimates), shown by EXPLAIN
     */
    public MergeJoin(PatternScan left, int leftPosition, PatternScan right, int rightPosition, int slot,
            String reason) {
        if (left.contexts() != null || right.contexts() != null) {
            throw new IllegalArgumentException("a merge join reads whole indices: no dataset restriction");
        }
        this.left = left;
        this.right = right;
        this.leftPosition = leftPosition;
        this.rightPosition = rightPosition;
        this.slot = slot;
        this.reason = reason;
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return "MergeJoin on slot " + slot + " [" + reason + "]";
    }

    /** Batches of its rows (the merge itself runs row by row), so that an aggregate above takes batches. */
    @Override
    public boolean batchable() {
        return true;
    }

    @Override
    protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
        return BatchCursor.of(doOpen(input, ctx), input.length);
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        if (left.matchesNothing() || right.matchesNothing()) {
            return RowCursor.EMPTY;
        }
        if (bindsAny(input, left) || bindsAny(input, right)) {
            return CorrelatedJoin.nestedLoop(left, right, input, ctx);
        }
        QuadSource.OrderedScan l = ctx.source().orderedScan(left.constants(), leftPosition);
        QuadSource.OrderedScan r = ctx.source().orderedScan(right.constants(), rightPosition);
        if (l == null || r == null) {
            close(l, r);
            throw new IllegalStateException("the source cannot order " + left.label() + " or " + right.label()
                    + " by their shared variable");
        }
        return new RowCursor() {
            final long[] lq = new long[4];
            final long[] rq = new long[4];
            /** Left rows of the current value, and the right match being paired with them. */
            final List<long[]> group = new ArrayList<>();
            long[] pairing;
            int next;
            boolean lLive = l.next(lq);
            boolean rLive = r.next(rq);
            int steps;

            @Override
            public long[] next() {
                while (true) {
                    while (pairing != null && next < group.size()) {
                        long[] row = right.bind(group.get(next++), rq);
                        if (row != null) {
                            return row;
                        }
                    }
                    if (pairing != null) {
                        pairing = null;
                        rLive = r.next(rq);
                        if (rLive && rq[rightPosition] == group.get(0)[slot]) {
                            pairing = rq;
                            next = right.accepts(rq) ? 0 : group.size();
                            continue;
                        }
                        group.clear();
                    }
                    if (!lLive || !rLive) {
                        return null;
                    }
                    if (++steps % CHECK_EVERY == 0) {
                        ctx.checkCancelled();
                    }
                    long lv = lq[leftPosition];
                    long rv = rq[rightPosition];
                    int c = Long.compareUnsigned(lv, rv);
                    if (c < 0) {
                        lLive = l.seek(rv, lq);
                    } else if (c > 0) {
                        rLive = r.seek(lv, rq);
                    } else {
                        // all left matches of the value, then pair each right match of it with them
                        while (lLive && lq[leftPosition] == lv) {
                            long[] row = left.accepts(lq) ? left.bind(input, lq) : null;
                            if (row != null) {
                                group.add(row);
                            }
                            lLive = l.next(lq);
                        }
                        if (group.isEmpty()) {
                            while (rLive && rq[rightPosition] == rv) {
                                rLive = r.next(rq);
                            }
                        } else {
                            pairing = rq;
                            next = right.accepts(rq) ? 0 : group.size();
                        }
                    }
                }
            }

            @Override
            public void close() {
                group.clear();
                pairing = null;
                lLive = false;
                rLive = false;
                MergeJoin.close(l, r);
            }
        };
    }

    private static void close(QuadSource.OrderedScan l, QuadSource.OrderedScan r) {
        if (l != null) {
            l.close();
        }
        if (r != null) {
            r.close();
        }
    }

    private static boolean bindsAny(long[] input, PatternScan scan) {
        for (int s : scan.slots()) {
            if (s >= 0 && input[s] != TermIds.NULL) {
                return true;
            }
        }
        return false;
    }
}
