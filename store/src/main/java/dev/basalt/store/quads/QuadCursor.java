package dev.basalt.store.quads;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;

/**
 * Quads matching a pattern, read from one index: a prefix range scan over the key, plus a check of
 * bound positions that are not part of the prefix. {@link #quad()} returns ids in S, P, O, C
 * positions; the array is reused by the next call to {@link #next()}.
 */
public final class QuadCursor {
    private final BTreeCursor cursor;
    private final QuadOrder order;
    private final long[] pattern;
    private boolean needsCheck;
    private final long[] quad = new long[4];

    QuadCursor(BTreeCursor cursor, QuadOrder order, long[] pattern) {
        this.cursor = cursor;
        this.order = order;
        this.pattern = pattern.clone();
        this.needsCheck = order.boundPrefix(pattern) < QuadOrder.boundCount(pattern);
    }

    /** True if this cursor reads {@code tree} (a non-null tree). */
    boolean reads(BTree tree) {
        return cursor != null && cursor.tree() == tree;
    }

    /** Scans {@code pattern} next, reusing the index path (see {@link BTreeCursor#reset}); the order must suit it. */
    void reset(long[] newPattern) {
        System.arraycopy(newPattern, 0, pattern, 0, 4);
        this.needsCheck = order.boundPrefix(pattern) < QuadOrder.boundCount(pattern);
        if (cursor != null) {
            cursor.reset(order.lowerBound(pattern), order.upperBound(pattern));
        }
    }

    /** Scans {@code newPattern} within the key range {@code [lo, hi)} of this cursor's order, reusing its path. */
    void resetRange(long[] newPattern, byte[] lo, byte[] hi) {
        System.arraycopy(newPattern, 0, pattern, 0, 4);
        this.needsCheck = order.boundPrefix(pattern) < QuadOrder.boundCount(pattern);
        if (cursor != null) {
            cursor.reset(lo, hi);
        }
    }

    public boolean next() {
        while (cursor != null && cursor.next()) {
            order.decode(cursor.key(), quad);
            if (!needsCheck || matches()) {
                return true;
            }
        }
        return false;
    }

    private boolean matches() {
        for (int i = 0; i < 4; i++) {
            if (pattern[i] != 0 && pattern[i] != quad[i]) {
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
