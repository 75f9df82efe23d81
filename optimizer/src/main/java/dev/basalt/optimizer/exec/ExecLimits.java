package dev.basalt.optimizer.exec;

import java.nio.file.Path;

/**
 * Memory bounds of one evaluation, in rows held by an operator, and where spill files go.
 * {@code sortRows}: rows a sort (ORDER BY) buffers before it writes a sorted run to disk and
 * merges runs at the end. {@code distinctRows}: distinct keys DISTINCT keeps in memory before it
 * partitions the rest of its input to disk. {@code groupRows}: groups GROUP BY keeps in memory
 * before it partitions the rows of further groups to disk. {@code hashJoinRows}: rows of a hash
 * join's build side before it goes to disk and the join reads its left side in blocks of that
 * many rows. {@code pathNodes}: term ids a property path search holds (nodes reached, and with both
 * ends free the start nodes and the graph's terms); past it the query fails with a message naming
 * the property, where an unbounded search would exhaust the heap.
 *
 * <p>Defaults come from the system properties {@code basalt.exec.sortRows} (250,000),
 * {@code basalt.exec.distinctRows} (500,000), {@code basalt.exec.groupRows} (500,000),
 * {@code basalt.exec.hashJoinRows} (4,000,000), {@code basalt.exec.pathNodes} (4,000,000) and
 * {@code basalt.exec.spillDir} (java.io.tmpdir), read once; {@link #setDefaults} replaces them for
 * the evaluations started afterwards.
 */
public record ExecLimits(long sortRows, long distinctRows, long groupRows, long hashJoinRows, long pathNodes,
        Path spillDir) {
    public static final String SORT_ROWS = "basalt.exec.sortRows";
    public static final String DISTINCT_ROWS = "basalt.exec.distinctRows";
    public static final String GROUP_ROWS = "basalt.exec.groupRows";
    public static final String HASH_JOIN_ROWS = "basalt.exec.hashJoinRows";
    public static final String PATH_NODES = "basalt.exec.pathNodes";
    public static final String SPILL_DIR = "basalt.exec.spillDir";

    private static volatile ExecLimits defaults = fromSystemProperties();

    public ExecLimits {
        if (sortRows < 1 || distinctRows < 1 || groupRows < 1 || hashJoinRows < 1 || pathNodes < 1) {
            throw new IllegalArgumentException("row limits must be positive: sort " + sortRows + ", distinct "
                    + distinctRows + ", group " + groupRows + ", hash join " + hashJoinRows + ", path nodes "
                    + pathNodes);
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
        return new ExecLimits(rows, distinctRows, groupRows, hashJoinRows, pathNodes, spillDir);
    }

    public ExecLimits withDistinctRows(long rows) {
        return new ExecLimits(sortRows, rows, groupRows, hashJoinRows, pathNodes, spillDir);
    }

    public ExecLimits withGroupRows(long rows) {
        return new ExecLimits(sortRows, distinctRows, rows, hashJoinRows, pathNodes, spillDir);
    }

    public ExecLimits withHashJoinRows(long rows) {
        return new ExecLimits(sortRows, distinctRows, groupRows, rows, pathNodes, spillDir);
    }

    public ExecLimits withPathNodes(long nodes) {
        return new ExecLimits(sortRows, distinctRows, groupRows, hashJoinRows, nodes, spillDir);
    }

    public ExecLimits withSpillDir(Path dir) {
        return new ExecLimits(sortRows, distinctRows, groupRows, hashJoinRows, pathNodes, dir);
    }

    static ExecLimits fromSystemProperties() {
        return new ExecLimits(Long.getLong(SORT_ROWS, 250_000), Long.getLong(DISTINCT_ROWS, 500_000),
                Long.getLong(GROUP_ROWS, 500_000), Long.getLong(HASH_JOIN_ROWS, 4_000_000),
                Long.getLong(PATH_NODES, 4_000_000),
                Path.of(System.getProperty(SPILL_DIR, System.getProperty("java.io.tmpdir"))));
    }
}
