package dev.basalt.store.btree;

/**
 * The upper end of an ascending range over keys of whole 64-bit ids, checked on decoded ids
 * ({@link BTreeCursor#nextIds}) instead of on key bytes: the end is a prefix of whole ids (every key
 * in range starts with it) or an exclusive bound of whole ids ({@code to}), given as its ids, and a
 * key is its ids in big-endian order, so comparing ids unsigned orders keys as their bytes do.
 *
 * <p>Stateless and thread-safe; static and small so that the cursor's block loops call them as
 * directly as their own code.
 */
final class IdKeyBounds {
    private IdKeyBounds() {
    }

    /** Whether {@code bound} (a prefix or an exclusive upper end, or none) is whole ids of a {@code width}-id key. */
    static boolean wholeIds(byte[] bound, int width) {
        return bound == null || bound.length % 8 == 0 && bound.length <= 8 * width;
    }

    /**
     * How many of the {@code n} keys of {@code width} ids at {@code out[off...]}, in ascending order,
     * come before the first past the range's upper end: {@code bound} is the ids of the prefix
     * ({@code isPrefix}) or of the exclusive end.
     */
    static int inRange(long[] bound, boolean isPrefix, long[] out, int off, int width, int n) {
        // the keys ascend and the range is an interval of keys: when the last is in it, so are all before it
        if (n > 0 && inRange(bound, isPrefix, out, off + (n - 1) * width)) {
            return n;
        }
        for (int e = 0; e < n; e++, off += width) {
            if (!inRange(bound, isPrefix, out, off)) {
                return e;
            }
        }
        return n;
    }

    /**
     * Whether the key of ids at {@code out[off...]} comes before the range's upper end (see
     * {@link #inRange(long[], boolean, long[], int, int, int)}).
     */
    static boolean inRange(long[] bound, boolean isPrefix, long[] out, int off) {
        int k = bound.length;
        int c = 0;
        for (int i = 0; i < k && c == 0; i++) {
            c = Long.compareUnsigned(out[off + i], bound[i]);
        }
        // a key of width ids equal to a shorter prefix or bound on its first k ids is longer, so past "to"
        return isPrefix ? c == 0 : c < 0;
    }
}
