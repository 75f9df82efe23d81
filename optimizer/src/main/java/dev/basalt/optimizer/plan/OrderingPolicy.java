package dev.basalt.optimizer.plan;

import java.util.function.DoubleSupplier;

import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.ParallelMode;

/**
 * How the {@link PlanCompiler} orders the patterns of a join group. {@link Mode#STATIC} is the greedy
 * order from range counts and sampled fan-outs; {@link Mode#RUNTIME} always runs the
 * {@link RuntimeJoinOrderer} (sampling and cut-off joins) on groups of two or more patterns;
 * {@link Mode#AUTO} runs it only on groups of at least {@code runtimeMinPatterns} patterns whose
 * static plan is estimated to produce at least {@code runtimeMinRows} intermediate rows, so that
 * cheap queries do not pay for the sampling. {@code cutoff} is the sample size per pattern and the
 * output limit of each cut-off join. The default threshold is 100,000 rows: at 10,000, BSBM's Q5
 * (seven patterns) was ordered at runtime, which cost about 40 ms of sampling for a plan the static
 * order finds too (7 ms per query static, 49 ms with the runtime optimizer, BSBM 1M).
 *
 * <p>{@code joins} says how the patterns of a group evaluated once per query join the rows before
 * them: {@link Joins#COST} as the {@code JoinChoice} costs them (index lookups, a hash table of the
 * pattern or a merge of two ordered scans), {@link Joins#NESTED_LOOP} always by index lookups,
 * {@link Joins#HASH_MERGE} by a merge or hash join wherever one is possible (tests and benchmarks
 * compare these with the costed plan; the answers are the same).
 *
 * <p>{@code batches} says whether a GROUP BY may read its input in batches, and {@code parallel}
 * when a join chain runs in chunks on helper threads ({@link ParallelMode}): a store's settings
 * {@code basalt:batches} and {@code basalt:parallel}, which a plan is compiled for (a kept plan is
 * kept per policy). {@link #DEFAULT} takes them from {@link ExecLimits#DEFAULT_BATCHES} and
 * {@link ExecLimits#DEFAULT_PARALLEL} (the JVM-wide defaults); {@link #withExecution} sets a store's.
 * Immutable; safe to share between threads.
 */
public record OrderingPolicy(Mode mode, int runtimeMinPatterns, double runtimeMinRows, int cutoff, Joins joins,
        boolean batches, ParallelMode parallel) {
    public enum Mode {
        STATIC, RUNTIME, AUTO
    }

    /** Which pattern joins the compiler may choose; see the class comment. */
    public enum Joins {
        COST, NESTED_LOOP, HASH_MERGE
    }

    public static final OrderingPolicy DEFAULT = new OrderingPolicy(Mode.AUTO, 6, 100_000, 100, Joins.COST);

    public OrderingPolicy(Mode mode, int runtimeMinPatterns, double runtimeMinRows, int cutoff) {
        this(mode, runtimeMinPatterns, runtimeMinRows, cutoff, Joins.COST);
    }

    /** A policy with the JVM-wide defaults of batch and parallel execution. */
    public OrderingPolicy(Mode mode, int runtimeMinPatterns, double runtimeMinRows, int cutoff, Joins joins) {
        this(mode, runtimeMinPatterns, runtimeMinRows, cutoff, joins, ExecLimits.DEFAULT_BATCHES,
                ExecLimits.DEFAULT_PARALLEL);
    }

    public OrderingPolicy {
        if (mode == null || joins == null || parallel == null) {
            throw new IllegalArgumentException("ordering mode, join choice or parallel mode is null");
        }
        if (runtimeMinPatterns < 2) {
            throw new IllegalArgumentException("runtimeMinPatterns must be at least 2, was " + runtimeMinPatterns);
        }
        if (cutoff < 1) {
            throw new IllegalArgumentException("cutoff must be at least 1, was " + cutoff);
        }
    }

    public OrderingPolicy withMode(Mode m) {
        return new OrderingPolicy(m, runtimeMinPatterns, runtimeMinRows, cutoff, joins, batches, parallel);
    }

    public OrderingPolicy withJoins(Joins j) {
        return new OrderingPolicy(mode, runtimeMinPatterns, runtimeMinRows, cutoff, j, batches, parallel);
    }

    /** This policy with a store's batch and parallel execution settings. */
    public OrderingPolicy withExecution(boolean batchesAllowed, ParallelMode parallelMode) {
        return new OrderingPolicy(mode, runtimeMinPatterns, runtimeMinRows, cutoff, joins, batchesAllowed, parallelMode);
    }

    /** Whether a group of {@code patterns} patterns, whose static plan makes {@code staticRows} rows, is ordered at runtime. */
    boolean runtimeFor(int patterns, DoubleSupplier staticRows) {
        return switch (mode) {
            case STATIC -> false;
            case RUNTIME -> patterns >= 2;
            case AUTO -> patterns >= runtimeMinPatterns && staticRows.getAsDouble() >= runtimeMinRows;
        };
    }
}
