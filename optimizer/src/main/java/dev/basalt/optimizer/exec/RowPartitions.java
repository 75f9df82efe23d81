package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * Rows of {@code width} longs, the first a term id, split by a hash of that id into partitions
 * small enough that a table of one partition's ids stays in the processor's caches: the
 * radix-partitioned form of a {@link GroupJoinOp} step whose key table would be far larger than the
 * caches (as {@link KeyPartitions} is for {@link CountJoinOp}). Appending is sequential per
 * partition; two sets made for the same expected size have the same partitions, so a join of them
 * reads partition {@code i} of both. Not thread-safe: one open's.
 */
final class RowPartitions {
    /** Rows aimed at per partition. */
    private static final int PER_PARTITION = 4096;
    private final int width;
    private final int shift;
    private final long[][] rows;
    private final int[] used;
    private long size;

    /** Partitions for about {@code expected} rows (1 to 4,096 partitions, as for any width). */
    RowPartitions(long expected, int width) {
        int want = (int) Math.min(4096, Math.max(1, expected / PER_PARTITION));
        int parts = Integer.highestOneBit(want);
        this.width = width;
        this.shift = 64 - Integer.numberOfTrailingZeros(parts);
        this.rows = new long[parts][];
        this.used = new int[parts];
        // a partition's share of the expected rows and a quarter more (a hash spreads them unevenly)
        long share = expected / parts;
        int start = (int) Math.min(4L * PER_PARTITION, Math.max(16, share + share / 4 + 16)) * width;
        for (int i = 0; i < parts; i++) {
            rows[i] = new long[start];
        }
    }

    /** The partition of {@code id}: the high bits of its hash. */
    private int partition(long id) {
        return shift == 64 ? 0 : (int) (id * 0x9E3779B97F4A7C15L >>> shift);
    }

    /** The array to write a row of key {@code id} into, at {@link #at}; call {@link #added} after writing it. */
    private long[] room(int p) {
        long[] to = rows[p];
        if (used[p] + width > to.length) {
            to = rows[p] = Arrays.copyOf(to, 2 * to.length);
        }
        return to;
    }

    /** Adds the row {@code (id, a, b, c)} (width 4). */
    void add(long id, long a, long b, long c) {
        int p = partition(id);
        long[] to = room(p);
        int at = used[p];
        to[at] = id;
        to[at + 1] = a;
        to[at + 2] = b;
        to[at + 3] = c;
        used[p] = at + width;
        size++;
    }

    /** Adds the row {@code (id, a, b, c, d)} (width 5). */
    void add(long id, long a, long b, long c, long d) {
        int p = partition(id);
        long[] to = room(p);
        int at = used[p];
        to[at] = id;
        to[at + 1] = a;
        to[at + 2] = b;
        to[at + 3] = c;
        to[at + 4] = d;
        used[p] = at + width;
        size++;
    }

    /** Rows held. */
    long size() {
        return size;
    }

    int partitions() {
        return rows.length;
    }

    /** Partition {@code p}'s rows, one after the other, {@link #used} longs of it. */
    long[] rows(int p) {
        return rows[p];
    }

    /** The longs of partition {@code p} in use ({@code width} per row). */
    int used(int p) {
        return used[p];
    }
}
