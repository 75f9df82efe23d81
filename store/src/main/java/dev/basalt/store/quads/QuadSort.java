package dev.basalt.store.quads;

/**
 * Sorts quads packed four longs per record in a {@code long[]}, comparing records as four
 * unsigned longs left to right (the order of their big-endian byte keys). Used by the bulk
 * loader's external sort and by {@link QuadIndexes#addAll} for batches of a large transaction.
 *
 * <p>Least-significant-digit radix sort on 11-bit digits: one pass over the records finds the bits
 * of the key where some record differs from the first; the digits start at such bits only (each
 * at the lowest one not yet covered, so bits that never vary are skipped), a second pass counts
 * the values of every digit, then each digit is distributed once, from the fourth id's lowest to
 * the first id's highest. Term ids share their high bits (kind nibble, small counters) and a
 * load's contexts are often one id, so a typical quad key has 8-12 digits: the sort is linear in
 * the records and the same speed on sorted,
 * reversed or random input (a comparison quicksort took ten times longer on input already in
 * subject order). Input already in order (a batch sorted for one index, passed on to another index
 * of the same order) is recognized in one pass and left as it is. Stable; uses a scratch array of
 * the same size; no other allocation but the counts (8 KB per digit).
 *
 * <p>Stateless; any thread may call it on arrays it owns.
 */
public final class QuadSort {
    /** Bits of a digit: 2,048 buckets, whose counts and write positions stay in the core's caches. */
    private static final int DIGIT_BITS = 11;
    private static final int RADIX = 1 << DIGIT_BITS;
    /** At most this many digits: 64 / 11 rounded up, for each of the four ids. */
    private static final int MAX_DIGITS = 4 * 6;

    private QuadSort() {
    }

    /** Sorts records {@code [0, count)} of {@code q}, using {@code scratch} (at least as long) as the second buffer. */
    public static void sort(long[] q, int count, long[] scratch) {
        if (count < 2 || sorted(q, count)) {
            return;
        }
        long[] varies = new long[4];
        for (int r = 1; r < count; r++) {
            int b = 4 * r;
            varies[0] |= q[b] ^ q[0];
            varies[1] |= q[b + 1] ^ q[1];
            varies[2] |= q[b + 2] ^ q[2];
            varies[3] |= q[b + 3] ^ q[3];
        }
        // digits, least significant first: each starts at the lowest bit not yet covered where some record differs
        int[] words = new int[MAX_DIGITS];
        int[] shifts = new int[MAX_DIGITS];
        int digits = 0;
        for (int w = 3; w >= 0; w--) {
            for (int bit = 0; bit < 64 && varies[w] >>> bit != 0; bit += DIGIT_BITS) {
                bit += Long.numberOfTrailingZeros(varies[w] >>> bit);
                words[digits] = w;
                shifts[digits++] = bit;
            }
        }
        int[] counts = histogram(q, count, words, shifts, digits);
        int[] next = new int[RADIX];
        long[] src = q;
        long[] dst = scratch;
        for (int d = 0; d < digits; d++) {
            int base = d * RADIX;
            if (allInOneBucket(counts, base, count)) {
                continue;
            }
            int sum = 0;
            for (int x = 0; x < RADIX; x++) {
                next[x] = sum;
                sum += counts[base + x];
            }
            int word = words[d];
            int shift = shifts[d];
            for (int r = 0; r < count; r++) {
                int b = 4 * r;
                int to = 4 * next[(int) (src[b + word] >>> shift) & (RADIX - 1)]++;
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

    /** counts[d * RADIX + v]: how many records have value v in digit d, for every digit in one pass. */
    private static int[] histogram(long[] q, int count, int[] words, int[] shifts, int digits) {
        int[] bases = new int[digits];
        for (int d = 0; d < digits; d++) {
            bases[d] = d * RADIX;
        }
        int[] counts = new int[digits * RADIX];
        for (int r = 0; r < count; r++) {
            int b = 4 * r;
            for (int d = 0; d < digits; d++) {
                counts[bases[d] + ((int) (q[b + words[d]] >>> shifts[d]) & (RADIX - 1))]++;
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
