package dev.basalt.store.quads;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;

/**
 * Quads matching a pattern, read from one index: a prefix range scan over the key, plus a check of
 * bound positions that are not part of the prefix. {@link #quad()} returns ids in S, P, O, C
 * positions; the array is reused by the next call to {@link #next()}. Quads are decoded straight
 * from the cursor's key view, so a scan allocates nothing per row. A cursor can be repositioned on
 * another pattern of the same order ({@link QuadIndexes#rescan}, {@link QuadIndexes#seek}), keeping
 * its index path where it still leads there.
 *
 * <p>Not thread-safe: one thread uses a cursor (its quad array is reused by every call). A cursor
 * over a snapshot's trees stays valid while the writer commits; one over a transaction's trees is
 * invalidated by the next write.
 */
public final class QuadCursor {
    private final BTreeCursor cursor;
    private final QuadOrder order;
    /** The pattern when positions outside the prefix must be checked, else null. */
    private long[] check;
    private final long[] quad = new long[4];

    QuadCursor(BTreeCursor cursor, QuadOrder order, long[] pattern) {
        this.cursor = cursor;
        this.order = order;
        this.check = order.boundPrefix(pattern) < QuadOrder.boundCount(pattern) ? pattern.clone() : null;
    }

    /** True if this cursor reads {@code tree} (a non-null tree). */
    boolean reads(BTree tree) {
        return cursor != null && cursor.tree() == tree;
    }

    /** Scans {@code pattern} next, reusing the index path (see {@link BTreeCursor#reset}); the order must suit it. */
    void reset(long[] pattern) {
        setCheck(pattern);
        if (cursor != null) {
            cursor.resetPrefix(order.prefix(pattern));
        }
    }

    /** Scans {@code pattern} within the key range {@code [lo, hi)} of this cursor's order, reusing its path. */
    void resetRange(long[] pattern, byte[] lo, byte[] hi) {
        setCheck(pattern);
        if (cursor != null) {
            cursor.reset(lo, hi);
        }
    }

    private void setCheck(long[] pattern) {
        if (order.boundPrefix(pattern) < QuadOrder.boundCount(pattern)) {
            if (check == null) {
                check = new long[4];
            }
            System.arraycopy(pattern, 0, check, 0, 4);
        } else {
            check = null;
        }
    }

    public boolean next() {
        while (cursor != null && cursor.next()) {
            order.decode(cursor.keyView(), cursor.keyLength(), quad);
            if (check == null || matches()) {
                return true;
            }
        }
        return false;
    }

    private boolean matches() {
        for (int i = 0; i < 4; i++) {
            if (check[i] != 0 && check[i] != quad[i]) {
                return false;
            }
        }
        return true;
    }

    public long[] quad() {
        return quad;
    }

    public QuadOrder order() {
        return order;
    }
}
