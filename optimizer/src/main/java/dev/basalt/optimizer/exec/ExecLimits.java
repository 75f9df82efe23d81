package dev.basalt.optimizer.exec;

import java.nio.file.Path;

/**
 * Memory bounds of one evaluation, in rows held by an operator, and where spill files go.
 * {@code sortRows}: rows a sort (ORDER BY) buffers before it writes a sorted run to disk and
 * merges runs at the end. {@code distinctRows}: distinct keys DISTINCT keeps in memory before it
 * partitions the rest of its input to disk. {@code hashJoinRows}: rows of a hash join's build side;
 * beyond it the query fails with an error naming this limit (hash joins do not spill).
 *
 * <p>Defaults come from the system properties {@code basalt.exec.sortRows} (250,000),
 * {@code basalt.exec.distinctRows} (500,000), {@code basalt.exec.hashJoinRows} (4,000,000) and
 * {@code basalt.exec.spillDir} (java.io.tmpdir), read once; {@link #setDefaults} replaces them for
 * the evaluations started afterwards.
 */
public record ExecLimits(long sortRows, long distinctRows, long hashJoinRows, Path spillDir) {
    public static final String SORT_ROWS = "basalt.exec.sortRows";
    public static final String DISTINCT_ROWS = "basalt.exec.distinctRows";
    public static final String HASH_JOIN_ROWS = "basalt.exec.hashJoinRows";
    public static final String SPILL_DIR = "basalt.exec.spillDir";

    private static volatile ExecLimits defaults = fromSystemProperties();

    public ExecLimits {
        if (sortRows < 1 || distinctRows < 1 || hashJoinRows < 1) {
            throw new IllegalArgumentException("row limits must be positive: sort " + sortRows + ", distinct "
                    + distinctRows + ", hash join " + hashJoinRows);
        }
        if (spillDir == null) {
            throw new IllegalArgumentException("no spill directory");
        }
    }

    public static ExecLimits defaults() {
        return defaults;
    }

    public static void setDefaults(ExecLimits limits) {
        defaults = limits;
    }

    public ExecLimits withSortRows(long rows) {
        return new ExecLimits(rows, distinctRows, hashJoinRows, spillDir);
    }

    public ExecLimits withDistinctRows(long rows) {
        return new ExecLimits(sortRows, rows, hashJoinRows, spillDir);
    }

    public ExecLimits withHashJoinRows(long rows) {
        return new ExecLimits(sortRows, distinctRows, rows, spillDir);
    }

    static ExecLimits fromSystemProperties() {
        return new ExecLimits(Long.getLong(SORT_ROWS, 250_000), Long.getLong(DISTINCT_ROWS, 500_000),
                Long.getLong(HASH_JOIN_ROWS, 4_000_000),
                Path.of(System.getProperty(SPILL_DIR, System.getProperty("java.io.tmpdir"))));
    }
}
