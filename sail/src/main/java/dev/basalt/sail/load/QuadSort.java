package dev.basalt.sail.load;

/**
 * Sorts quads packed four longs per record in a {@code long[]}, comparing records as four
 * unsigned longs left to right (the order of their big-endian byte keys). Three-way-partitioning
 * quicksort with a median-of-three pivot, so runs of equal quads (duplicates in the input) cost
 * nothing extra; insertion sort for short ranges. In place, no allocation.
 */
final class QuadSort {
    private static final int INSERTION_LIMIT = 16;

    private QuadSort() {
    }

    /** Sorts records {@code [0, count)} of {@code q}. */
    static void sort(long[] q, int count) {
        sort(q, 0, count - 1);
    }

    private static void sort(long[] q, int lo, int hi) {
        while (hi - lo >= INSERTION_LIMIT) {
            int mid = (lo + hi) >>> 1;
            int p = median(q, lo, mid, hi);
            long p0 = q[4 * p];
            long p1 = q[4 * p + 1];
            long p2 = q[4 * p + 2];
            long p3 = q[4 * p + 3];
            // Dijkstra's three-way partition: [lo, lt) < pivot, [lt, i) == pivot, (gt, hi] > pivot
            int lt = lo;
            int gt = hi;
            int i = lo;
            while (i <= gt) {
                int c = compare(q, i, p0, p1, p2, p3);
                if (c < 0) {
                    swap(q, lt++, i++);
                } else if (c > 0) {
                    swap(q, i, gt--);
                } else {
                    i++;
                }
            }
            // recurse into the smaller side, loop on the larger: stack depth O(log n)
            if (lt - lo < hi - gt) {
                sort(q, lo, lt - 1);
                lo = gt + 1;
            } else {
                sort(q, gt + 1, hi);
                hi = lt - 1;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && compare(q, j - 1, j) > 0; j--) {
                swap(q, j - 1, j);
            }
        }
    }

    private static int median(long[] q, int a, int b, int c) {
        if (compare(q, a, b) < 0) {
            return compare(q, b, c) < 0 ? b : compare(q, a, c) < 0 ? c : a;
        }
        return compare(q, a, c) < 0 ? a : compare(q, b, c) < 0 ? c : b;
    }

    static int compare(long[] q, int i, int j) {
        return compare(q, i, q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]);
    }

    private static int compare(long[] q, int i, long a, long b, long c, long d) {
        int r = Long.compareUnsigned(q[4 * i], a);
        if (r != 0) {
            return r;
        }
        r = Long.compareUnsigned(q[4 * i + 1], b);
        if (r != 0) {
            return r;
        }
        r = Long.compareUnsigned(q[4 * i + 2], c);
        return r != 0 ? r : Long.compareUnsigned(q[4 * i + 3], d);
    }

    /** Compares two records held in separate arrays at record offsets. */
    static int compare(long[] a, int i, long[] b, int j) {
        return compare(a, i, b[4 * j], b[4 * j + 1], b[4 * j + 2], b[4 * j + 3]);
    }

    private static void swap(long[] q, int i, int j) {
        for (int k = 0; k < 4; k++) {
            long t = q[4 * i + k];
            q[4 * i + k] = q[4 * j + k];
            q[4 * j + k] = t;
        }
    }
}
