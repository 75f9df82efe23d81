package dev.basalt.store.quads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The radix sort orders records as four unsigned longs, on sorted, reversed, random and tied input. */
class QuadSortTest {
    @Test
    void sortsLikeAComparisonSortOfUnsignedIds() {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int n = rnd.nextInt(round < 20 ? 3 : 2000);
            long[] q = new long[4 * n];
            int shape = rnd.nextInt(5);
            for (int r = 0; r < n; r++) {
                for (int k = 0; k < 4; k++) {
                    q[4 * r + k] = value(rnd, shape, r, k);
                }
            }
            long[] expected = reference(q, n);
            QuadSort.sort(q, n, new long[q.length]);
            assertArrayEquals(expected, q, "seed=" + seed + " round " + round + " shape " + shape + " n " + n);
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

    /** Shapes: random 64-bit (sign bits set), small tied ids, ascending, descending, term-id-like kinds. */
    private static long value(Random rnd, int shape, int r, int k) {
        return switch (shape) {
            case 0 -> rnd.nextLong();
            case 1 -> rnd.nextInt(3);
            case 2 -> k == 0 ? r / 3 : rnd.nextInt(5);
            case 3 -> k == 0 ? -r : Long.MIN_VALUE + rnd.nextInt(4);
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
