package dev.basalt.optimizer.plan;

import java.util.List;
import java.util.Set;

import dev.basalt.optimizer.exec.PathOp;
import dev.basalt.optimizer.exec.PatternScan;

/**
 * The cost units and row estimates the join choices of a plan are made with. A row read by a scan
 * or yielded by a join costs 1, an index lookup {@link #LOOKUP_COST}, a row of a hash table built
 * {@link #BUILD_COST}. A pattern's rows per input row come from the {@link CardinalityEstimator}
 * (given the slots the rows before it bind); another operand's rows are its own estimate, a
 * path's given what is bound ({@link PathOp#estimate(Set)}). A pattern that binds nothing new (a
 * membership check, which may fail) and a pattern that completes a filter each count
 * {@link #CHECK_DISCOUNT} of their estimate; a placed filter keeps {@link #FILTER_SELECTIVITY} of
 * its input.
 *
 * <p>Used by the {@link JoinOrderer} (which operand next), by {@link JoinChoice} (lookup or hash
 * table) and by the {@link PlanCompiler} (the estimates on the plan, per-row or hash-joined
 * operands). Used by the one thread compiling a query; the estimator's cache may be shared
 * ({@link EstimateCache}).
 */
final class JoinCostModel {
    /** What one index lookup costs against one row read by a scan. */
    static final double LOOKUP_COST = 4;
    /** What one row of a hash join's build side costs (read and held) against one row read by a scan. */
    static final double BUILD_COST = 2;
    /** The share of its estimate a pattern counts when it only checks bound values or completes a filter. */
    static final double CHECK_DISCOUNT = 0.5;
    /** The share of its input rows a filter is estimated to keep. */
    static final double FILTER_SELECTIVITY = 0.5;

    private final CardinalityEstimator estimator;

    JoinCostModel(CardinalityEstimator estimator) {
        this.estimator = estimator;
    }

    CardinalityEstimator estimator() {
        return estimator;
    }

    /** Rows per input row of {@code scan} when the input binds {@code bound} (its size when nothing is bound). */
    double fanout(PatternScan scan, Set<Integer> bound) {
        return estimator.estimate(scan, bound);
    }

    /** Rows per input row that operand {@code a} yields after {@code bound}, checks and filters discounted. */
    double stepRows(JoinOperand a, SlotSet bound, List<GroupFilter> filters) {
        double c = a.scan != null ? estimator.estimate(a.scan, bound)
                : a.op instanceof PathOp path ? path.estimate(bound) : a.op.estimate();
        if (a.scan != null && !bound.isEmpty()) {
            c *= discount(a, bound, filters);
        }
        return c;
    }

    /** The static plan's estimated intermediate rows (the sum over its steps), for {@link OrderingPolicy#runtimeFor}. */
    double staticRows(List<JoinOperand> order) {
        double rows = 1;
        double sum = 0;
        SlotSet bound = new SlotSet();
        for (JoinOperand a : order) {
            rows = a.scan != null ? rows * estimator.estimate(a.scan, bound) : Math.max(rows, a.op.estimate());
            sum += rows;
            bound.addAll(a.assured);
        }
        return sum;
    }

    /**
     * Whether building the hash table of an operand evaluated once ({@code once} rows) and reading
     * the {@code rows} before it costs no more than looking its {@code patterns} up per row.
     */
    static boolean hashCheaper(double rows, int patterns, double once) {
        return rows * LOOKUP_COST * patterns >= BUILD_COST * once + rows;
    }

    private static double discount(JoinOperand a, SlotSet bound, List<GroupFilter> filters) {
        double d = bound.containsAll(a.mentioned) ? CHECK_DISCOUNT : 1;
        SlotSet after = null;
        for (GroupFilter f : filters) {
            if (!bound.containsAll(f.slots()) && a.mentioned.intersects(f.slots())) {
                if (after == null) {
                    after = new SlotSet(bound);
                    after.addAll(a.assured);
                }
                if (after.containsAll(f.slots())) {
                    d *= CHECK_DISCOUNT;
                }
            }
        }
        return d;
    }
}
