package dev.basalt.optimizer.exec;

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
 * bindings). Keeps no state outside its cursors. Both forms merge blocks of ids ({@link MergeBlocks});
 * the row form yields the batch form's rows one at a time.
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class MergeJoin extends Operator {
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
        return "MergeJoin on slot " + slot + ", blocks of ids [" + reason + "]";
    }

    PatternScan left() {
        return left;
    }

    PatternScan right() {
        return right;
    }

    int rightPosition() {
        return rightPosition;
    }

    @Override
    public boolean batchable() {
        return true;
    }

    /**
     * The merge over blocks of ids ({@link MergeBlocks}); an input that binds a variable of either
     * pattern joins by nested loops, as the row form.
     */
    @Override
    protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
        if (left.matchesNothing() || right.matchesNothing()) {
            return BatchCursor.EMPTY;
        }
        if (bindsAny(input, left) || bindsAny(input, right)) {
            return BatchCursor.of(CorrelatedJoin.nestedLoop(left, right, input, ctx), input.length);
        }
        QuadSource.OrderedScan l = ctx.source().orderedScan(left.constants(), leftPosition);
        QuadSource.OrderedScan r = ctx.source().orderedScan(right.constants(), rightPosition);
        if (l == null || r == null) {
            close(l, r);
            throw new IllegalStateException("the source cannot order " + left.label() + " or " + right.label()
                    + " by their shared variable");
        }
        return new MergeBlocks(this, new OrderedBlocks(l, leftPosition), new OrderedBlocks(r, rightPosition), input,
                ctx);
    }

    /** The rows of the batch form, one at a time (or the nested loop of an input that binds a variable of either pattern). */
    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        if (!left.matchesNothing() && !right.matchesNothing() && (bindsAny(input, left) || bindsAny(input, right))) {
            return CorrelatedJoin.nestedLoop(left, right, input, ctx);
        }
        return BatchCursor.rows(doOpenBatch(input, ctx));
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
