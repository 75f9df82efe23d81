package dev.basalt.store.quads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The radix sort orders records as four unsigned longs, on sorted, reversed, random and tied input,
 * with keys packed to their varying bits (up to 64 and 128) and on whole records (more); so does
 * {@code sortDistinct} on rearranged ids, without repeats.
 */
class QuadSortTest {
    @Test
    void sortsLikeAComparisonSortOfUnsignedIds() {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int n = rnd.nextInt(round < 20 ? 3 : 2000);
            int shape = rnd.nextInt(8);
            long[] q = records(rnd, shape, n, false);
            long[] expected = reference(q, n);
            QuadSort.sort(q, n, new long[q.length]);
            assertArrayEquals(expected, q, "seed=" + seed + " round " + round + " shape " + shape + " n " + n);
        }
    }

    @Test
    void sortDistinctRearrangesSortsAndDropsRepeats() {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        int[][] orders = { { 0, 1, 2, 3 }, { 1, 2, 0, 3 }, { 2, 0, 1, 3 }, { 3, 0, 1, 2 } };
        for (int round = 0; round < 300; round++) {
            int n = rnd.nextInt(round < 20 ? 3 : 2000);
            int shape = rnd.nextInt(8);
            long[] q = records(rnd, shape, n, true);
            long[] before = q.clone();
            int[] columns = orders[rnd.nextInt(orders.length)];
            long[] rearranged = new long[4 * n];
            for (int r = 0; r < n; r++) {
                for (int k = 0; k < 4; k++) {
                    rearranged[4 * r + k] = q[4 * r + columns[k]];
                }
            }
            long[] sorted = reference(rearranged, n);
            int distinct = 0;
            for (int r = 0; r < n; r++) {
                if (distinct == 0 || !Arrays.equals(sorted, 4 * r, 4 * r + 4, sorted, 4 * (distinct - 1), 4 * distinct)) {
                    System.arraycopy(sorted, 4 * r, sorted, 4 * distinct++, 4);
                }
            }
            long[] out = new long[4 * n];
            int got = QuadSort.sortDistinct(q, n, columns, out, new long[4 * n]);
            String where = "seed=" + seed + " round " + round + " shape " + shape + " n " + n;
            assertEquals(distinct, got, where);
            assertArrayEquals(Arrays.copyOf(sorted, 4 * distinct), Arrays.copyOf(out, 4 * got), where);
            assertArrayEquals(before, q, "input changed, " + where);
        }
    }

    @Test
    void inputInOrderButForItsLastRecordIsSorted() {
        int n = 500;
        long[] q = new long[4 * n];
        for (int r = 0; r < n; r++) {
            q[4 * r] = r < n - 1 ? r + 1 : 0; // in order up to the last record, which belongs first
            q[4 * r + 1] = Long.MIN_VALUE + r; // unsigned: large, ascending
        }
        long[] expected = reference(q, n);
        QuadSort.sort(q, n, new long[q.length]);
        assertArrayEquals(expected, q);
        QuadSort.sort(q, n, new long[q.length]);
        assertArrayEquals(expected, q, "sorted input changed");
    }

    /** {@code n} records of a shape; with {@code repeats}, about a quarter repeat an earlier record. */
    private static long[] records(Random rnd, int shape, int n, boolean repeats) {
        long[] q = new long[4 * n];
        for (int r = 0; r < n; r++) {
            for (int k = 0; k < 4; k++) {
                q[4 * r + k] = value(rnd, shape, r, k);
            }
            if (repeats && r > 0 && rnd.nextInt(4) == 0) {
                System.arraycopy(q, 4 * rnd.nextInt(r), q, 4 * r, 4);
            }
        }
        return q;
    }

    /**
     * Shapes: random 64-bit (sign bits set), small tied ids, ascending, descending, term-id-like
     * kinds; and one or two random 64-bit ids beside small ones, and ids differing in a few bits
     * far apart (varying bits of 64 and of 128 in all, and spans with constant bits inside).
     */
    private static long value(Random rnd, int shape, int r, int k) {
        return switch (shape) {
            case 0 -> rnd.nextLong();
            case 1 -> rnd.nextInt(3);
            case 2 -> k == 0 ? r / 3 : rnd.nextInt(5);
            case 3 -> k == 0 ? -r : Long.MIN_VALUE + rnd.nextInt(4);
            case 5 -> k == 0 ? rnd.nextLong() : k == 3 ? 7 : rnd.nextInt(2);
            case 6 -> k < 2 ? rnd.nextLong() : 5;
            case 7 -> 0x0F00_0000_0000_0000L | ((long) rnd.nextInt(2) << 61) | ((long) rnd.nextInt(4) << (k * 9));
            default -> ((long) (1 + rnd.nextInt(15)) << 60) | rnd.nextInt(1 << 20);
        };
    }

    private static long[] reference(long[] q, int n) {
        long[][] rows = new long[n][];
        for (int r = 0; r < n; r++) {
            rows[r] = Arrays.copyOfRange(q, 4 * r, 4 * r + 4);
        }
        Comparator<long[]> c = (a, b) -> {
            for (int k = 0; k < 4; k++) {
                int x = Long.compareUnsigned(a[k], b[k]);
                if (x != 0) {
                    return x;
                }
            }
            return 0;
        };
        Arrays.sort(rows, c);
        long[] out = new long[4 * n];
        for (int r = 0; r < n; r++) {
            System.arraycopy(rows[r], 0, out, 4 * r, 4);
        }
        return out;
    }
}
