package dev.basalt.store.quads;

/**
 * The bits of a batch of quad records that vary, and the records packed to them: a bit where
 * every record has the same value does not change how two records compare, so the varying bits of
 * the four ids, concatenated from the first id's highest to the fourth id's lowest, order the
 * records as the whole records do (unsigned, left to right), and two records are equal when these
 * bits are. They are taken as the runs of consecutive varying bits of each id (a term id's kind
 * bits and its counter's low bits are two runs, with the constant bits between them left out). A
 * record's key takes one long when the varying bits are at most 64 in all, two (the high word
 * first) when they are at most 128; the constant bits are those of the first record and are put
 * back when a key is unpacked.
 *
 * <p>Records are read with their ids rearranged by {@code columns} (id {@code i} of a key is id
 * {@code columns[i]} of the record), so a statement order's keys are packed straight from the
 * S, P, O, C records.
 *
 * <p>Immutable once made; any thread may use it on arrays it owns.
 */
final class QuadKeySpans {
    private final int[] columns;
    private final long[] varies;
    /** The runs of varying bits in key order (first id's highest run first): their id, lowest bit and width. */
    private final int[] runId;
    private final int[] runLow;
    private final int[] runWidth;
    private final int runs;
    /** Per key id: the first record's bits, the varying ones cleared. */
    private final long[] fixed = new long[4];
    private final int bits;

    private QuadKeySpans(long[] q, int[] columns, long[] varies) {
        this.columns = columns;
        this.varies = varies;
        int n = 0;
        for (int i = 0; i < 4; i++) {
            n += runsOf(varies[i]);
        }
        runId = new int[n];
        runLow = new int[n];
        runWidth = new int[n];
        int r = 0;
        int total = 0;
        for (int i = 0; i < 4; i++) {
            long v = varies[i];
            int at = r + runsOf(v);
            // runs from the lowest up, stored from the highest down
            while (v != 0) {
                int low = Long.numberOfTrailingZeros(v);
                int width = Long.numberOfTrailingZeros(~(v >>> low));
                if (width == 0 || low + width > 64) {
                    width = 64 - low;
                }
                at--;
                runId[at] = i;
                runLow[at] = low;
                runWidth[at] = width;
                total += width;
                v = low + width >= 64 ? 0 : v & ~(mask(width) << low);
            }
            r += runsOf(varies[i]);
            fixed[i] = q[columns[i]] & ~varies[i];
        }
        this.runs = n;
        this.bits = total;
    }

    /** Maximal runs of set bits in {@code v}. */
    private static int runsOf(long v) {
        return Long.bitCount(v & ~(v << 1));
    }

    /** The spans of records {@code [0, count)} of {@code q} (at least one) read through {@code columns}. */
    static QuadKeySpans of(long[] q, int count, int[] columns) {
        long[] varies = new long[4];
        int c0 = columns[0];
        int c1 = columns[1];
        int c2 = columns[2];
        int c3 = columns[3];
        for (int r = 1; r < count; r++) {
            int b = 4 * r;
            varies[0] |= q[b + c0] ^ q[c0];
            varies[1] |= q[b + c1] ^ q[c1];
            varies[2] |= q[b + c2] ^ q[c2];
            varies[3] |= q[b + c3] ^ q[c3];
        }
        return new QuadKeySpans(q, columns, varies);
    }

    /** Per key id, the bits where some record differs from the first. */
    long[] varies() {
        return varies;
    }

    /** Bits of a packed key. */
    int bits() {
        return bits;
    }

    /** Whether a packed key takes at most two longs. */
    boolean fitsTwoWords() {
        return bits <= 128;
    }

    /** Longs of a packed key: 1 or 2. */
    int keyWords() {
        return bits <= 64 ? 1 : 2;
    }

    private static long mask(int width) {
        return width == 64 ? -1L : (1L << width) - 1;
    }

    /** The keys of records {@code [0, count)} of {@code q} into {@code keys[keyWords() * r ...]}. */
    void pack(long[] q, int count, long[] keys) {
        boolean one = keyWords() == 1;
        int[] at = new int[runs];
        for (int k = 0; k < runs; k++) {
            at[k] = columns[runId[k]];
        }
        for (int r = 0; r < count; r++) {
            int b = 4 * r;
            long hi = 0;
            long lo = 0;
            for (int k = 0; k < runs; k++) {
                int n = runWidth[k];
                long field = (q[b + at[k]] >>> runLow[k]) & mask(n);
                if (n == 64) {
                    hi = lo;
                    lo = field;
                } else {
                    hi = (hi << n) | (lo >>> (64 - n));
                    lo = (lo << n) | field;
                }
            }
            if (one) {
                keys[r] = lo;
            } else {
                keys[2 * r] = hi;
                keys[2 * r + 1] = lo;
            }
        }
    }

    /**
     * The records of {@code count} packed keys at {@code keys[from ...]} into {@code out}, in the
     * key's id order; with {@code distinct}, a key equal to the one before it is left out. Returns
     * the number of records written.
     */
    int unpack(long[] keys, int from, int count, long[] out, boolean distinct) {
        boolean one = keyWords() == 1;
        int written = 0;
        for (int r = 0; r < count; r++) {
            long hi = one ? 0 : keys[from + 2 * r];
            long lo = one ? keys[from + r] : keys[from + 2 * r + 1];
            if (distinct && r > 0 && (one ? lo == keys[from + r - 1]
                    : lo == keys[from + 2 * r - 1] && hi == keys[from + 2 * r - 2])) {
                continue;
            }
            int b = 4 * written++;
            out[b] = fixed[0];
            out[b + 1] = fixed[1];
            out[b + 2] = fixed[2];
            out[b + 3] = fixed[3];
            for (int k = runs - 1; k >= 0; k--) {
                int n = runWidth[k];
                out[b + runId[k]] |= (lo & mask(n)) << runLow[k];
                if (n == 64) {
                    lo = hi;
                    hi = 0;
                } else {
                    lo = (lo >>> n) | (hi << (64 - n));
                    hi >>>= n;
                }
            }
        }
        return written;
    }
}
