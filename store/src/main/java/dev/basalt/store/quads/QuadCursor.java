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
    /** The quad position of each key position. */
    private final int[] positions = new int[4];
    /** The most matches {@link #nextBlock} reads at once. */
    private static final int MAX_BLOCK = 1024;
    /** Keys read by {@link #nextBlock}, four ids each in key order. */
    private long[] keys;
    /** {@link #nextColumns}: the matches of a block that were checked, four ids each (S, P, O, C). */
    private long[] checked;
    /** {@link #nextColumns}: the callers' columns by key position, held only during the call. */
    private final long[][] keyCols = new long[4][];

    QuadCursor(BTreeCursor cursor, QuadOrder order, long[] pattern) {
        this.cursor = cursor;
        this.order = order;
        this.check = order.boundPrefix(pattern) < QuadOrder.boundCount(pattern) ? pattern.clone() : null;
        for (int i = 0; i < 4; i++) {
            positions[i] = order.positionAt(i);
        }
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

    /**
     * Moves over the next matches, up to {@code max}, writing each as four ids in S, P, O, C
     * positions into {@code quads} (4 per match); returns how many, 0 when there are no more. The
     * keys are read a leaf at a time as ids ({@link BTreeCursor#nextIds}), without the bytes of each
     * key in between. {@link #quad()} is not updated.
     */
    public int nextBlock(long[] quads, int max) {
        if (cursor == null) {
            return 0;
        }
        // small at first (a lookup reads a few matches), grown while blocks come back full
        if (keys == null) {
            keys = new long[4 * 16];
        }
        max = Math.min(max, keys.length / 4);
        int p0 = positions[0];
        int p1 = positions[1];
        int p2 = positions[2];
        int p3 = positions[3];
        while (true) {
            int n = cursor.nextIds(keys, 4, max);
            if (n == 0) {
                return 0;
            }
            int m = 0;
            for (int e = 0, k = 0; e < n; e++, k += 4) {
                int at = 4 * m;
                quads[at + p0] = keys[k];
                quads[at + p1] = keys[k + 1];
                quads[at + p2] = keys[k + 2];
                quads[at + p3] = keys[k + 3];
                if (check == null || matches(quads, at)) {
                    m++;
                }
            }
            if (n == keys.length / 4 && keys.length < 4 * MAX_BLOCK) {
                keys = new long[2 * keys.length];
            }
            if (m > 0) {
                return m;
            }
        }
    }

    /**
     * Moves over the next matches, up to {@code max}, writing the id at each quad position {@code i}
     * (S, P, O, C) of each into {@code cols[i]} from {@code off} on, where {@code cols[i]} is not null
     * (the positions a caller needs; the others are not written); returns how many, 0 when there are
     * no more. Without positions to check outside the key's prefix, the ids go from the leaves straight
     * into the columns ({@link BTreeCursor#nextIdColumns}); with them, a block of {@link #nextBlock}
     * is checked and copied. {@link #quad()} is not updated.
     */
    public int nextColumns(long[][] cols, int off, int max) {
        if (cursor == null || max <= 0) {
            return 0;
        }
        if (check != null) {
            int want = Math.min(max, MAX_BLOCK);
            if (checked == null || checked.length < 4 * want) {
                checked = new long[4 * want];
            }
            int got = nextBlock(checked, want);
            for (int i = 0; i < 4; i++) {
                long[] col = cols[i];
                if (col != null) {
                    for (int e = 0; e < got; e++) {
                        col[off + e] = checked[4 * e + i];
                    }
                }
            }
            return got;
        }
        for (int i = 0; i < 4; i++) {
            keyCols[i] = cols[positions[i]];
        }
        int got = cursor.nextIdColumns(keyCols, 4, off, max);
        java.util.Arrays.fill(keyCols, null);
        return got;
    }

    private boolean matches(long[] quads, int at) {
        for (int i = 0; i < 4; i++) {
            if (check[i] != 0 && check[i] != quads[at + i]) {
                return false;
            }
        }
        return true;
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
