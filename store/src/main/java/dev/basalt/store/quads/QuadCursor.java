package dev.basalt.store.quads;

import dev.basalt.store.btree.BTreeCursor;

/**
 * Quads matching a pattern, read from one index: a prefix range scan over the key, plus a check of
 * bound positions that are not part of the prefix. {@link #quad()} returns ids in S, P, O, C
 * positions; the array is reused by the next call to {@link #next()}. Quads are decoded straight
 * from the cursor's key view, so a scan allocates nothing per row.
 */
public final class QuadCursor {
    private final BTreeCursor cursor;
    private final QuadOrder order;
    /** The pattern when positions outside the prefix must be checked, else null. */
    private final long[] check;
    private final long[] quad = new long[4];

    QuadCursor(BTreeCursor cursor, QuadOrder order, long[] pattern) {
        this.cursor = cursor;
        this.order = order;
        this.check = order.boundPrefix(pattern) < QuadOrder.boundCount(pattern) ? pattern.clone() : null;
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
