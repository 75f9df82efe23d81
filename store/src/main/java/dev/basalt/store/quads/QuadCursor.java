package dev.basalt.store.quads;

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
    private final boolean needsCheck;
    private final long[] quad = new long[4];

    QuadCursor(BTreeCursor cursor, QuadOrder order, long[] pattern) {
        this.cursor = cursor;
        this.order = order;
        this.pattern = pattern.clone();
        this.needsCheck = order.boundPrefix(pattern) < QuadOrder.boundCount(pattern);
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
