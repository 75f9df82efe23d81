package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * Pairs of (term id, weight) split by a hash of the id into partitions small enough that one
 * partition's {@link IdCounts} stays in the processor's caches: the radix-partitioned form of a
 * {@link CountJoinOp} step whose key table would be far larger than the caches (an offer-keyed table
 * of 570,000 keys at BSBM 10M is 16 MB). Appending is sequential per partition; joining two sets
 * partition by partition ({@link #sumOfProducts}) builds and probes a table of a few thousand ids at
 * a time, so neither the build nor the probes miss the caches once per pair as they do on one large
 * table. Pairs of weight 0 are left out; pairs of weight 1 (a join key's one match, the most common)
 * keep only their id, in an array of their own per partition, so they take half the bytes to write
 * and read again. Not thread-safe: one open's.
 */
final class KeyPartitions {
    /**
     * Pairs held per row of the memory budget ({@link ExecLimits#hashJoinRows()}): a pair is two longs, 16 bytes in
     * its partition's array; a row of a hash join's table is at least 48 (a {@code long[]} of two ids with its
     * header, the reference to it and its table slot). Both sets of a join by partitions count together.
     */
    static final long PAIRS_PER_ROW = 3;
    /** Estimated matches from which {@link CountJoinOp} joins a key table by partitions. */
    static final long FROM_MATCHES = 1L << 17;
    /** Pairs aimed at per partition: a table of twice as many slots of 16 bytes, 128 KB. */
    private static final int PER_PARTITION = 4096;
    private final int shift;
    /** Per partition: ids and weights interleaved (weights other than 1), made on the partition's first such pair. */
    private final long[][] pairs;
    private final int[] used;
    /** Per partition: the ids of weight 1. */
    private final long[][] ones;
    private final int[] onesUsed;
    /** Longs a partition's array of pairs starts with where no pair so far had weight 1 (its array of ids starts with half). */
    private final int start;
    private long size;
    /** Pairs added of weight 1. */
    private long onesSize;

    /** Partitions for about {@code expected} pairs (from 1 to 4,096 partitions). */
    KeyPartitions(long expected) {
        int want = (int) Math.min(4096, Math.max(1, expected / PER_PARTITION));
        int parts = Integer.highestOneBit(want);
        this.shift = 64 - Integer.numberOfTrailingZeros(parts);
        this.pairs = new long[parts][];
        this.used = new int[parts];
        this.ones = new long[parts][];
        this.onesUsed = new int[parts];
        // a partition's share of the expected pairs and a quarter more (a hash spreads them unevenly):
        // an exact estimate (a pattern's range count) then copies no partition; a wrong one is capped
        long share = expected / parts;
        this.start = (int) Math.min(4L * PER_PARTITION, Math.max(16, 2 * (share + share / 4) + 16));
        for (int i = 0; i < parts; i++) {
            ones[i] = new long[start / 2];
        }
    }

    /** The partition of {@code id}: the high bits of its hash. */
    private int partition(long id) {
        return shift == 64 ? 0 : (int) (id * 0x9E3779B97F4A7C15L >>> shift);
    }

    /** Adds the pairs {@code (ids[i], weights[i])} for {@code i < n} whose weight is not 0. */
    void addAll(long[] ids, long[] weights, int n) {
        for (int i = 0; i < n; i++) {
            long w = weights[i];
            if (w == 0) {
                continue;
            }
            int p = partition(ids[i]);
            if (w == 1) {
                long[] to = ones[p];
                int at = onesUsed[p];
                if (at == to.length) {
                    to = ones[p] = Arrays.copyOf(to, 2 * to.length);
                }
                to[at] = ids[i];
                onesUsed[p] = at + 1;
                onesSize++;
            } else {
                long[] to = pairs[p];
                int at = used[p];
                if (to == null || at == to.length) {
                    // a partition's share where no pair so far had weight 1, else an eighth of it
                    to = pairs[p] = to == null ? new long[onesSize == 0 ? start : Math.max(16, start / 16 * 2)]
                            : Arrays.copyOf(to, 2 * to.length);
                }
                to[at] = ids[i];
                to[at + 1] = w;
                used[p] = at + 2;
            }
            size++;
        }
    }

    /** Pairs held. */
    long size() {
        return size;
    }

    /**
     * The sum over the pairs {@code (id, w)} of {@code probes} of {@code w} times the sum of this
     * set's weights of {@code id}: the count of the join of the two sets on the id. Both were made
     * for the same expected size, so their partitions match. Throws {@code ArithmeticException}
     * past 2^63.
     */
    long sumOfProducts(KeyPartitions probes) {
        if (probes.pairs.length != pairs.length) {
            throw new IllegalArgumentException("partitions differ: " + pairs.length + " and " + probes.pairs.length);
        }
        long total = 0;
        IdCounts table = null;
        int made = 0;
        for (int p = 0; p < pairs.length; p++) {
            int n = used[p] / 2 + onesUsed[p];
            if (n == 0 || probes.used[p] + probes.onesUsed[p] == 0) {
                continue;
            }
            // one table for partitions of about one size; clearing costs at most 4 times the pairs' share
            if (table != null && n / 2 <= made && made <= 2 * n) {
                table.clear();
            } else {
                made = n;
                table = new IdCounts(made);
            }
            long[] from = pairs[p];
            for (int i = 0; i < used[p]; i += 2) {
                table.add(from[i], from[i + 1]);
            }
            long[] one = ones[p];
            for (int i = 0; i < onesUsed[p]; i++) {
                table.add(one[i], 1);
            }
            long[] probe = probes.pairs[p];
            for (int i = 0; i < probes.used[p]; i += 2) {
                long c = table.get(probe[i]);
                if (c != 0) {
                    total = Math.addExact(total, Math.multiplyExact(probe[i + 1], c));
                }
            }
            long[] probeOnes = probes.ones[p];
            for (int i = 0; i < probes.onesUsed[p]; i++) {
                total = Math.addExact(total, table.get(probeOnes[i]));
            }
        }
        return total;
    }
}
