package dev.basalt.store.quads;

/**
 * Sorts quads packed four longs per record in a {@code long[]}, comparing records as four
 * unsigned longs left to right (the order of their big-endian byte keys). Used by the bulk
 * loader's external sort and by {@link QuadIndexes#addAll} for batches of a large transaction.
 *
 * <p>Least-significant-digit radix sort on bytes: one pass over the records finds the byte
 * positions of the key where some record differs from the first, a second counts the byte values at
 * those positions only, then each of them is distributed once, from the last byte of the fourth id
 * to the first byte of the first. Term ids share their high bytes
 * (kind nibble, small counters) and a load's contexts are often one id, so a typical quad key has
 * 10-16 positions that vary: the sort is linear in the records and the same speed on sorted,
 * reversed or random input (a comparison quicksort took ten times longer on input already in
 * subject order). Input already in order (a batch sorted for one index, passed on to another index
 * of the same order) is recognized in one pass and left as it is. Stable; uses a scratch array of the same size; no other allocation but the
 * 32 KB of counts.
 */
public final class QuadSort {
    private static final int DIGITS = 32;
    private static final int RADIX = 256;

    private QuadSort() {
    }

    /** Sorts records {@code [0, count)} of {@code q}, using {@code scratch} (at least as long) as the second buffer. */
    public static void sort(long[] q, int count, long[] scratch) {
        if (count < 2 || sorted(q, count)) {
            return;
        }
        int[] counts = histogram(q, count);
        int[] next = new int[RADIX];
        long[] src = q;
        long[] dst = scratch;
        for (int d = DIGITS - 1; d >= 0; d--) {
            int base = d * RADIX;
            if (allInOneBucket(counts, base, count)) {
                continue;
            }
            int sum = 0;
            for (int x = 0; x < RADIX; x++) {
                next[x] = sum;
                sum += counts[base + x];
            }
            int word = d >>> 3;
            int shift = 56 - 8 * (d & 7);
            for (int r = 0; r < count; r++) {
                int b = 4 * r;
                int to = 4 * next[(int) (src[b + word] >>> shift) & 0xff]++;
                dst[to] = src[b];
                dst[to + 1] = src[b + 1];
                dst[to + 2] = src[b + 2];
                dst[to + 3] = src[b + 3];
            }
            long[] t = src;
            src = dst;
            dst = t;
        }
        if (src != q) {
            System.arraycopy(src, 0, q, 0, 4 * count);
        }
    }

    /**
     * counts[d * 256 + v]: how many records have byte value v at key byte position d (0 = first
     * byte of the first id). Only positions where some record differs from the first are counted;
     * at the others the counts are all zero (which {@link #allInOneBucket} reads as one bucket).
     */
    private static int[] histogram(long[] q, int count) {
        long[] varies = new long[4];
        for (int r = 1; r < count; r++) {
            int b = 4 * r;
            varies[0] |= q[b] ^ q[0];
            varies[1] |= q[b + 1] ^ q[1];
            varies[2] |= q[b + 2] ^ q[2];
            varies[3] |= q[b + 3] ^ q[3];
        }
        int[] words = new int[DIGITS];
        int[] shifts = new int[DIGITS];
        int[] bases = new int[DIGITS];
        int digits = 0;
        for (int d = 0; d < DIGITS; d++) {
            int shift = 56 - 8 * (d & 7);
            if ((varies[d >>> 3] >>> shift & 0xff) != 0) {
                words[digits] = d >>> 3;
                shifts[digits] = shift;
                bases[digits++] = d * RADIX;
            }
        }
        int[] counts = new int[DIGITS * RADIX];
        for (int r = 0; r < count; r++) {
            int b = 4 * r;
            for (int i = 0; i < digits; i++) {
                counts[bases[i] + ((int) (q[b + words[i]] >>> shifts[i]) & 0xff)]++;
            }
        }
        return counts;
    }

    private static boolean allInOneBucket(int[] counts, int base, int count) {
        for (int x = 0; x < RADIX; x++) {
            int c = counts[base + x];
            if (c != 0) {
                return c == count;
            }
        }
        return true;
    }

    /** Compares record {@code i} of {@code a} with record {@code j} of {@code b} as four unsigned longs. */
    /** True if records {@code [0, count)} are in order already (one pass, ending at the first record out of order). */
    static boolean sorted(long[] q, int count) {
        for (int r = 1; r < count; r++) {
            if (compare(q, r - 1, q, r) > 0) {
                return false;
            }
        }
        return true;
    }

    public static int compare(long[] a, int i, long[] b, int j) {
        for (int k = 0; k < 4; k++) {
            int r = Long.compareUnsigned(a[4 * i + k], b[4 * j + k]);
            if (r != 0) {
                return r;
            }
        }
        return 0;
    }
}
