package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * Rows of {@code width} longs, the first a term id, split by a hash of that id into partitions
 * small enough that a table of one partition's ids stays in the processor's caches: the
 * radix-partitioned form of a {@link GroupJoinOp} step whose key table would be far larger than the
 * caches (as {@link KeyPartitions} is for {@link CountJoinOp}). Appending is sequential per
 * partition; two sets made for the same expected size have the same partitions, so a join of them
 * reads partition {@code i} of both.
 *
 * <p>Memory: a set holds at most {@code memoryLongs} longs in its partitions' arrays. The partitions
 * are gathered into {@link #groups()} groups of consecutive partitions; past the memory the group
 * holding the most is written to its own {@link SpillFile}, and from then on that group's partitions
 * keep only a small buffer each that goes to the file when full (a hybrid hash join's partitioning:
 * the groups that fit stay in memory, only the others go to disk). A join reads the sets group by
 * group ({@link #restore}, {@link #release}), so it holds the groups still in memory and one group
 * read back. A row's partition is a function of its id, so the files need not name it. Not
 * thread-safe: one open's, closed by it ({@link #close} deletes the files).
 */
final class RowPartitions implements AutoCloseable {
    /**
     * Longs of a row of the memory budget ({@link ExecLimits#hashJoinRows()}): a row of a hash join's
     * table is at least 48 bytes ({@link KeyPartitions#PAIRS_PER_ROW}); the two sets of a join share it.
     */
    static final long LONGS_PER_BUDGET_ROW = 6;
    /** Rows aimed at per partition. */
    private static final int PER_PARTITION = 4096;
    /** Groups of partitions on disk at most: files open at once while spilling. */
    private static final int MAX_GROUPS = 64;
    private final int width;
    private final int shift;
    private final long[][] rows;
    private final int[] used;
    /** Longs a partition's array starts with. */
    private final int start;
    /** Longs of the buffer of a partition whose group is on disk. */
    private final int buffer;
    private final long memoryLongs;
    private final ExecLimits limits;
    /** log2 of the partitions per group. */
    private final int groupShift;
    private long size;
    /** Longs of the partitions' arrays (their lengths, used or not). */
    private long allocated;
    /** Per group, its file once it went to disk, else null. */
    private final SpillFile[] files;
    private long spilledRows;

    /**
     * Partitions for about {@code expected} rows (1 to 4,096 partitions, as for any width) holding at
     * most {@code memoryLongs} longs before they spill to files in {@code limits}' spill directory.
     */
    RowPartitions(long expected, int width, long memoryLongs, ExecLimits limits) {
        int want = (int) Math.min(4096, Math.max(1, expected / PER_PARTITION));
        int parts = Integer.highestOneBit(want);
        this.width = width;
        this.shift = 64 - Integer.numberOfTrailingZeros(parts);
        this.rows = new long[parts][];
        this.used = new int[parts];
        this.memoryLongs = Math.max(memoryLongs, (long) parts * 16 * width);
        this.limits = limits;
        int groups = Math.min(parts, MAX_GROUPS);
        this.groupShift = Integer.numberOfTrailingZeros(parts / groups);
        // a partition's share of the expected rows and a quarter more (a hash spreads them unevenly),
        // within the partition's share of memory: where the expected rows nearly fill the memory, arrays
        // of that share hold them without a copy (an array that doubles copies its rows and may leave
        // half of its memory unused)
        long share = expected / parts;
        long rowsEach = Math.min(4L * PER_PARTITION, Math.max(16, share + share / 4 + 16));
        this.start = (int) Math.max(16L * width, Math.min(rowsEach * width, this.memoryLongs / parts));
        this.buffer = Math.min(start, 256 * width);
        for (int i = 0; i < parts; i++) {
            rows[i] = new long[start];
        }
        allocated = (long) parts * start;
        files = new SpillFile[groups];
    }

    /** The partition of {@code id}: the high bits of its hash. */
    private int partition(long id) {
        return shift == 64 ? 0 : (int) (id * 0x9E3779B97F4A7C15L >>> shift);
    }

    /**
     * The array of partition {@code p} with room for a row: a full buffer of a group on disk goes to
     * its file; a full array of a group in memory doubles (grows by an eighth where doubling would
     * pass the memory), after the largest groups went to disk while growing it would pass the memory.
     */
    private long[] room(int p) {
        long[] to = rows[p];
        if (used[p] + width <= to.length) {
            return to;
        }
        int g = p >>> groupShift;
        // double, or near the memory grow by an eighth
        int grow = allocated + to.length <= memoryLongs ? to.length : Math.max(to.length / 8, 16 * width);
        while (files[g] == null && allocated + grow > memoryLongs) {
            spillLargestGroup();
        }
        if (files[g] != null) {
            to = rows[p];
            files[g].write(to, used[p]);
            spilledRows += used[p] / width;
            used[p] = 0;
            return to;
        }
        allocated += grow;
        return rows[p] = Arrays.copyOf(to, to.length + grow);
    }

    /** Writes the in-memory group holding the most longs to its file, leaving its partitions a buffer each. */
    private void spillLargestGroup() {
        int largest = -1;
        long most = -1;
        for (int g = 0; g < files.length; g++) {
            if (files[g] != null) {
                continue;
            }
            long held = 0;
            for (int p = firstOf(g); p < firstOf(g + 1); p++) {
                held += rows[p].length;
            }
            if (held > most) {
                most = held;
                largest = g;
            }
        }
        files[largest] = SpillFile.create(limits, "group-join", width);
        for (int p = firstOf(largest); p < firstOf(largest + 1); p++) {
            files[largest].write(rows[p], used[p]);
            spilledRows += used[p] / width;
            used[p] = 0;
            allocated += buffer - rows[p].length;
            rows[p] = new long[buffer];
        }
    }

    /**
     * Adds for {@code i < n} the rows {@code (ids[i])} (width 1, {@code b} and {@code c} null),
     * {@code (ids[i], b[i])} (width 2, {@code c} null) or {@code (ids[i], b[i], c[i])} (width 3).
     */
    void addAll(long[] ids, long[] b, long[] c, int n) {
        int given = c != null ? 3 : b != null ? 2 : 1;
        if (given != width) {
            throw new IllegalArgumentException("rows of " + given + " longs for partitions of rows of " + width);
        }
        // the room check inline, the rare growth or spill in room()
        for (int i = 0; i < n; i++) {
            long id = ids[i];
            int p = partition(id);
            int at = used[p];
            long[] to = rows[p];
            if (at + width > to.length) {
                to = room(p);
                at = used[p];
            }
            to[at] = id;
            if (b != null) {
                to[at + 1] = b[i];
                if (c != null) {
                    to[at + 2] = c[i];
                }
            }
            used[p] = at + width;
        }
        size += n;
    }

    /** Adds the row {@code (id, a)} (width 2). */
    void add(long id, long a) {
        int p = partition(id);
        long[] to = room(p);
        int at = used[p];
        to[at] = id;
        to[at + 1] = a;
        used[p] = at + width;
        size++;
    }

    /** Adds the row {@code (id, a, b)} (width 3). */
    void add(long id, long a, long b) {
        int p = partition(id);
        long[] to = room(p);
        int at = used[p];
        to[at] = id;
        to[at + 1] = a;
        to[at + 2] = b;
        used[p] = at + width;
        size++;
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

    /** Rows held, in memory and on disk. */
    long size() {
        return size;
    }

    /** Rows written to disk. */
    long spilledRows() {
        return spilledRows;
    }

    int partitions() {
        return rows.length;
    }

    /** Groups of consecutive partitions a join reads at a time; the same for two sets of the same expected size. */
    int groups() {
        return rows.length >>> groupShift;
    }

    /** The first partition of group {@code g}; its partitions end where group {@code g + 1}'s begin. */
    int firstOf(int g) {
        return g << groupShift;
    }

    /** Brings the rows of group {@code g} that went to disk back into its partitions (nothing if it stayed in memory). */
    void restore(int g) {
        SpillFile file = files[g];
        if (file == null) {
            return;
        }
        file.finish();
        long[] read = new long[1024 * width];
        try (SpillFile.Reader reader = file.reader()) {
            int n;
            while ((n = reader.read(read)) > 0) {
                for (int at = 0; at < n; at += width) {
                    int p = partition(read[at]);
                    long[] to = rows[p];
                    if (used[p] + width > to.length) {
                        to = rows[p] = Arrays.copyOf(to, 2 * to.length);
                    }
                    System.arraycopy(read, at, to, used[p], width);
                    used[p] += width;
                }
            }
        }
        file.close();
        files[g] = null;
    }

    /** Frees the partitions of group {@code g} once they are joined. */
    void release(int g) {
        for (int p = firstOf(g); p < firstOf(g + 1); p++) {
            rows[p] = new long[0];
            used[p] = 0;
        }
    }

    /** Partition {@code p}'s rows, one after the other, {@link #used} longs of it. */
    long[] rows(int p) {
        return rows[p];
    }

    /** The longs of partition {@code p} in use ({@code width} per row). */
    int used(int p) {
        return used[p];
    }

    /** Deletes the spill files not yet read back. */
    @Override
    public void close() {
        for (SpillFile f : files) {
            if (f != null) {
                f.close();
            }
        }
    }
}
