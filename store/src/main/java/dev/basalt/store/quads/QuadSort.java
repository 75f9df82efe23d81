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
 * <p>When the bits that vary fit in 128 (term ids and a load's single context mostly do), the
 * records are not moved whole: their varying bits are packed into keys of one or two longs
 * ({@link QuadKeySpans}), the keys are sorted, moving 8 or 16 bytes per record and digit instead
 * of 32, and unpacked; otherwise the records themselves are sorted.
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
        QuadKeySpans spans = QuadKeySpans.of(q, count, IN_PLACE);
        if (spans.fitsTwoWords()) {
            spans.pack(q, count, scratch);
            int from = radixPacked(scratch, count, spans.keyWords(), spans.bits());
            spans.unpack(scratch, from, count, q, false);
        } else {
            sortWide(q, count, scratch, spans.varies());
        }
    }

    /**
     * Sorts records {@code [0, count)} of {@code quads} taken with their ids rearranged (id
     * {@code i} of a sorted record is id {@code columns[i]} of the input record, as a statement
     * order's key takes the S, P, O, C ids) into {@code out}, without repeats; returns the number of
     * distinct records. {@code out} and {@code scratch} hold at least {@code 4 * count} longs and are
     * other arrays than {@code quads}; {@code quads} is left as it is. Cheaper than rearranging,
     * sorting and removing repeats one after the other: when the bits that vary fit in 128, each
     * record is read once to pack its key and written once when its key is unpacked.
     */
    public static int sortDistinct(long[] quads, int count, int[] columns, long[] out, long[] scratch) {
        if (count == 0) {
            return 0;
        }
        QuadKeySpans spans = QuadKeySpans.of(quads, count, columns);
        if (spans.fitsTwoWords()) {
            spans.pack(quads, count, scratch);
            int from = radixPacked(scratch, count, spans.keyWords(), spans.bits());
            return spans.unpack(scratch, from, count, out, true);
        }
        for (int r = 0; r < count; r++) {
            int b = 4 * r;
            out[b] = quads[b + columns[0]];
            out[b + 1] = quads[b + columns[1]];
            out[b + 2] = quads[b + columns[2]];
            out[b + 3] = quads[b + columns[3]];
        }
        if (!sorted(out, count)) {
            sortWide(out, count, scratch, spans.varies());
        }
        int distinct = 0;
        for (int r = 0; r < count; r++) {
            if (distinct > 0 && same(out, r, out, distinct - 1)) {
                continue;
            }
            if (distinct != r) {
                System.arraycopy(out, 4 * r, out, 4 * distinct, 4);
            }
            distinct++;
        }
        return distinct;
    }

    /** The columns of a record in place: id i is id i. */
    private static final int[] IN_PLACE = { 0, 1, 2, 3 };

    /** The sort on the records as they are, four longs moved per record and digit. */
    private static void sortWide(long[] q, int count, long[] scratch, long[] varies) {
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
        int[] counts = histogram(q, count, 4, words, shifts, digits);
        int[] next = new int[RADIX];
        long[] src = q;
        long[] dst = scratch;
        for (int d = 0; d < digits; d++) {
            if (!bucketStarts(counts, d * RADIX, count, next)) {
                continue;
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

    /**
     * LSD radix sort of the packed keys at {@code [0, keyWords * count)} of {@code keys}, using
     * {@code [keyWords * count, 2 * keyWords * count)} as the second buffer; returns the offset
     * where the sorted keys ended up.
     */
    private static int radixPacked(long[] keys, int count, int keyWords, int bits) {
        // digits, least significant first: the low word's, then the high word's
        int[] words = new int[MAX_DIGITS];
        int[] shifts = new int[MAX_DIGITS];
        int digits = 0;
        for (int bit = 0; bit < bits; bit += DIGIT_BITS) {
            boolean high = bit >= 64;
            int shift = high ? bit - 64 : bit;
            if (!high && bit + DIGIT_BITS > 64) {
                // the low word's last digit ends at its top bit; the high word's digits start at its bit 0
                bit = 64 - DIGIT_BITS;
            }
            words[digits] = keyWords == 1 || high ? 0 : 1;
            shifts[digits++] = shift;
        }
        int[] counts = histogram(keys, count, keyWords, words, shifts, digits);
        int[] next = new int[RADIX];
        int src = 0;
        int dst = keyWords * count;
        for (int d = 0; d < digits; d++) {
            if (!bucketStarts(counts, d * RADIX, count, next)) {
                continue;
            }
            int word = words[d];
            int shift = shifts[d];
            if (keyWords == 1) {
                for (int r = 0; r < count; r++) {
                    long k = keys[src + r];
                    keys[dst + next[(int) (k >>> shift) & (RADIX - 1)]++] = k;
                }
            } else {
                for (int r = 0; r < count; r++) {
                    int b = src + 2 * r;
                    int to = dst + 2 * next[(int) (keys[b + word] >>> shift) & (RADIX - 1)]++;
                    keys[to] = keys[b];
                    keys[to + 1] = keys[b + 1];
                }
            }
            int t = src;
            src = dst;
            dst = t;
        }
        return src;
    }

    /**
     * counts[d * RADIX + v]: how many records ({@code stride} longs each) have value v in digit d,
     * for every digit in one pass.
     */
    private static int[] histogram(long[] q, int count, int stride, int[] words, int[] shifts, int digits) {
        int[] bases = new int[digits];
        for (int d = 0; d < digits; d++) {
            bases[d] = d * RADIX;
        }
        int[] counts = new int[digits * RADIX];
        for (int r = 0; r < count; r++) {
            int b = stride * r;
            for (int d = 0; d < digits; d++) {
                counts[bases[d] + ((int) (q[b + words[d]] >>> shifts[d]) & (RADIX - 1))]++;
            }
        }
        return counts;
    }

    /**
     * Sets {@code next[v]} to where the first record with value v of the digit whose counts start at
     * {@code base} goes; false (the digit needs no pass) if every record has the same value there.
     */
    private static boolean bucketStarts(int[] counts, int base, int count, int[] next) {
        int sum = 0;
        for (int x = 0; x < RADIX; x++) {
            int c = counts[base + x];
            if (c == count) {
                return false;
            }
            next[x] = sum;
            sum += c;
        }
        return true;
    }

    /** True if records {@code [0, count)} are in order already (one pass, ending at the first record out of order). */
    static boolean sorted(long[] q, int count) {
        for (int r = 1; r < count; r++) {
            if (compare(q, r - 1, q, r) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether record {@code i} of {@code a} equals record {@code j} of {@code b}. */
    public static boolean same(long[] a, int i, long[] b, int j) {
        int x = 4 * i;
        int y = 4 * j;
        return a[x] == b[y] && a[x + 1] == b[y + 1] && a[x + 2] == b[y + 2] && a[x + 3] == b[y + 3];
    }

    /** Compares record {@code i} of {@code a} with record {@code j} of {@code b} as four unsigned longs. */
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
