package dev.basalt.store.quads;

/**
 * The bits of a batch of quad records that vary, and the records packed to them: in each of the
 * four ids only the span from the lowest to the highest bit where some record differs from the
 * first can vary, so the spans, concatenated from the first id's to the fourth's, order the
 * records as the whole records do (unsigned, left to right), and two records are equal when their
 * spans are. A record's spans take one long when they have at most 64 bits in all, two (the high
 * word first) when they have at most 128; the bits outside the spans are those of the first
 * record and are put back when a key is unpacked.
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
    private final int[] low = new int[4];
    private final int[] width = new int[4];
    /** Per key id: the first record's bits outside the span. */
    private final long[] fixed = new long[4];
    private final int bits;

    private QuadKeySpans(long[] q, int[] columns, long[] varies) {
        this.columns = columns;
        this.varies = varies;
        int total = 0;
        for (int i = 0; i < 4; i++) {
            if (varies[i] != 0) {
                low[i] = Long.numberOfTrailingZeros(varies[i]);
                width[i] = 64 - Long.numberOfLeadingZeros(varies[i]) - low[i];
                total += width[i];
            }
            fixed[i] = q[columns[i]] & ~(mask(width[i]) << low[i]);
        }
        this.bits = total;
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
        for (int r = 0; r < count; r++) {
            int b = 4 * r;
            long hi = 0;
            long lo = 0;
            for (int i = 0; i < 4; i++) {
                int n = width[i];
                if (n == 0) {
                    continue;
                }
                long field = (q[b + columns[i]] >>> low[i]) & mask(n);
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
            for (int i = 3; i >= 0; i--) {
                int n = width[i];
                if (n == 0) {
                    out[b + i] = fixed[i];
                    continue;
                }
                out[b + i] = fixed[i] | ((lo & mask(n)) << low[i]);
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
