package dev.basalt.optimizer.exec;

import java.nio.file.Path;

/**
 * Bounds of one evaluation: rows held by an operator, where spill files go, and how many helper
 * threads it may use. {@code sortRows}: rows a sort (ORDER BY) buffers before it writes a sorted run
 * to disk and merges runs at the end. {@code distinctRows}: distinct keys DISTINCT keeps in memory
 * before it partitions the rest of its input to disk. {@code groupRows}: groups GROUP BY keeps in
 * memory before it partitions the rows of further groups to disk. {@code hashJoinRows}: rows of a
 * hash join's build side before it goes to disk and the join reads its left side in blocks of that
 * many rows. {@code pathNodes}: term ids a property path search holds (nodes reached, and with both
 * ends free the start nodes and the graph's terms); past it the query fails with a message naming
 * the setting, where an unbounded search would exhaust the heap. {@code helperThreads}: helper
 * threads of the JVM's shared pool ({@link HelperThreads}) one evaluation may use at once, 0 for
 * none.
 *
 * <p>A store passes its own limits (its configuration); {@link #defaults()} are what a store uses
 * for a setting it leaves unset. This class is the one place that reads the {@code basalt.exec.*}
 * system properties, once, at class initialization: the per-evaluation defaults
 * {@code basalt.exec.sortRows} (250,000), {@code basalt.exec.distinctRows} (500,000),
 * {@code basalt.exec.groupRows} (500,000), {@code basalt.exec.hashJoinRows} (4,000,000),
 * {@code basalt.exec.pathNodes} (4,000,000), {@code basalt.exec.spillDir} (java.io.tmpdir) and
 * {@code basalt.exec.queryHelpers} (the pool size), the defaults of two settings of the plan
 * compiler's {@code OrderingPolicy}, {@link #DEFAULT_PARALLEL} and {@link #DEFAULT_BATCHES}, and the
 * JVM-wide settings of the shared helper pool {@link #HELPER_POOL_SIZE}, {@link #HELPER_SPIN_NANOS}
 * and {@link #PARALLEL_MIN_ROWS}.
 */
public record ExecLimits(long sortRows, long distinctRows, long groupRows, long hashJoinRows, long pathNodes,
        Path spillDir, int helperThreads) {
    public static final String SORT_ROWS = "basalt.exec.sortRows";
    public static final String DISTINCT_ROWS = "basalt.exec.distinctRows";
    public static final String GROUP_ROWS = "basalt.exec.groupRows";
    public static final String HASH_JOIN_ROWS = "basalt.exec.hashJoinRows";
    public static final String PATH_NODES = "basalt.exec.pathNodes";
    public static final String SPILL_DIR = "basalt.exec.spillDir";
    public static final String QUERY_HELPERS = "basalt.exec.queryHelpers";
    public static final String HELPER_THREADS = "basalt.exec.helperThreads";

    /** Threads in the JVM's helper pool, shared by every store ({@value #HELPER_THREADS}; processors - 1). */
    public static final int HELPER_POOL_SIZE = Math.max(0,
            Integer.getInteger(HELPER_THREADS, Runtime.getRuntime().availableProcessors() - 1));
    /** How long an idle helper spins before it parks ({@code basalt.exec.helperSpinMicros}, 2,000). */
    static final long HELPER_SPIN_NANOS = Long.getLong("basalt.exec.helperSpinMicros", 2_000) * 1_000;
    /** Estimated input rows below which a join group never runs in parallel ({@code basalt.exec.parallelMinRows}). */
    static final int PARALLEL_MIN_ROWS = Integer.getInteger("basalt.exec.parallelMinRows", 2 * ParallelJoin.CHUNK);
    /**
     * {@value #PARALLEL}: the {@link ParallelMode} of a store that does not set {@code basalt:parallel}
     * ({@code auto}, {@code force} or {@code off}; default {@code auto}). {@code force} lets a whole
     * test run (e.g. the differential tester) run every eligible operator on the helper threads.
     */
    public static final String PARALLEL = "basalt.exec.parallel";
    /** The parallel mode of a store that does not set one ({@value #PARALLEL}, else {@code auto}). */
    public static final ParallelMode DEFAULT_PARALLEL = defaultParallel();
    /**
     * {@value #BATCHES}: whether a store that does not set {@code basalt:batches} lets GROUP BY read
     * its input in batches ({@code false} turns them off; default on).
     */
    public static final String BATCHES = "basalt.exec.batches";
    /** Batch execution for a store that does not set it ({@value #BATCHES}, else true). */
    public static final boolean DEFAULT_BATCHES = !"false".equals(System.getProperty(BATCHES));

    private static final ExecLimits DEFAULTS = new ExecLimits(Long.getLong(SORT_ROWS, 250_000),
            Long.getLong(DISTINCT_ROWS, 500_000), Long.getLong(GROUP_ROWS, 500_000),
            Long.getLong(HASH_JOIN_ROWS, 4_000_000), Long.getLong(PATH_NODES, 4_000_000),
            Path.of(System.getProperty(SPILL_DIR, System.getProperty("java.io.tmpdir"))),
            Math.max(0, Integer.getInteger(QUERY_HELPERS, HELPER_POOL_SIZE)));

    private static ParallelMode defaultParallel() {
        try {
            return ParallelMode.parse(System.getProperty(PARALLEL, "auto"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("system property " + PARALLEL + ": " + e.getMessage(), e);
        }
    }

    public ExecLimits {
        if (sortRows < 1 || distinctRows < 1 || groupRows < 1 || hashJoinRows < 1 || pathNodes < 1) {
            throw new IllegalArgumentException("row limits must be positive: sort " + sortRows + ", distinct "
                    + distinctRows + ", group " + groupRows + ", hash join " + hashJoinRows + ", path nodes "
                    + pathNodes);
        }
        if (helperThreads < 0) {
            throw new IllegalArgumentException("helper threads must not be negative: " + helperThreads);
        }
        if (spillDir == null) {
            throw new IllegalArgumentException("no spill directory");
        }
    }

    /** The limits of a store that sets none: the system properties or their defaults. */
    public static ExecLimits defaults() {
        return DEFAULTS;
    }

    public ExecLimits withSortRows(long rows) {
        return new ExecLimits(rows, distinctRows, groupRows, hashJoinRows, pathNodes, spillDir, helperThreads);
    }

    public ExecLimits withDistinctRows(long rows) {
        return new ExecLimits(sortRows, rows, groupRows, hashJoinRows, pathNodes, spillDir, helperThreads);
    }

    public ExecLimits withGroupRows(long rows) {
        return new ExecLimits(sortRows, distinctRows, rows, hashJoinRows, pathNodes, spillDir, helperThreads);
    }

    public ExecLimits withHashJoinRows(long rows) {
        return new ExecLimits(sortRows, distinctRows, groupRows, rows, pathNodes, spillDir, helperThreads);
    }

    public ExecLimits withPathNodes(long nodes) {
        return new ExecLimits(sortRows, distinctRows, groupRows, hashJoinRows, nodes, spillDir, helperThreads);
    }

    public ExecLimits withSpillDir(Path dir) {
        return new ExecLimits(sortRows, distinctRows, groupRows, hashJoinRows, pathNodes, dir, helperThreads);
    }

    public ExecLimits withHelperThreads(int threads) {
        return new ExecLimits(sortRows, distinctRows, groupRows, hashJoinRows, pathNodes, spillDir, threads);
    }
}
