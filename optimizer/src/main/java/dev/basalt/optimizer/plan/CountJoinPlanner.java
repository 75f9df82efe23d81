package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;

import dev.basalt.optimizer.exec.CountJoinOp;
import dev.basalt.optimizer.exec.GroupJoinOp;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.plan.PlanCompiler.Unsupported;

/**
 * Decides whether a {@code COUNT(*)} without GROUP BY over a group of statement patterns is counted
 * by a {@link CountJoinOp} (each pattern scanned once, counts per join key, no joined row) instead of
 * by the planned joins: the patterns' join graph must be a tree, the group's input must bind none of
 * its variables, and by the estimates the patterns' matches, all scanned, must be at most
 * {@code patterns - 1} times the joined rows (which the planned joins make, each with a lookup or
 * probe per join step). Likewise a GROUP BY of one variable with COUNT(*), SUM and AVG
 * ({@link JoinedAggregates}) becomes a {@link GroupJoinOp} (counts and sums per join key) where the
 * matches are at most {@code patterns} times the joined rows (the planned joins' steps and the
 * grouping of each joined row). The query hint {@code joins} forces the choice: nested loops never
 * aggregate this way, hash-and-merge always where the shape allows.
 * Not thread-safe: one query's compiler uses it in the compiling thread.
 */
final class CountJoinPlanner {
    /** The scan of one pattern, dataset applied ({@link PlanCompiler#scanOf}). */
    interface Scans {
        dev.basalt.optimizer.exec.PatternScan scan(StatementPattern sp) throws Unsupported;
    }

    private final Scans scans;
    private final CardinalityEstimator estimator;
    private final OrderingPolicy.Joins joins;

    CountJoinPlanner(Scans scans, CardinalityEstimator estimator, OrderingPolicy.Joins joins) {
        this.scans = scans;
        this.estimator = estimator;
        this.joins = joins;
    }

    /**
     * A {@link CountJoinOp} for the count of {@code arg} into {@code target}, or null where it does
     * not apply or does not win by the estimates.
     *
     * @param planned the compiled {@code arg} (its estimate is the joined rows)
     * @param rows the group that counts {@code planned}'s rows, kept for counts past the memory budget
     * @param outerBound whether the group's input may bind variables (a correlated group)
     */
    Operator plan(TupleExpr arg, Operator planned, Operator rows, int target, boolean outerBound) throws Unsupported {
        Scanned in = scanned(arg, outerBound);
        if (in == null) {
            return null;
        }
        String reason = in.reason(planned, in.patterns.size() - 1);
        if (reason == null) {
            return null;
        }
        CountJoinOp op = CountJoinOp.of(in.patterns, in.largest, target, rows, reason);
        if (op != null) {
            op.setEstimate(1);
        }
        return op;
    }

    /**
     * A {@link GroupJoinOp} for the GROUP BY {@code groupSlot} of {@code arg} with the aggregates
     * {@code aggregates}, or null where it does not apply or does not win by the estimates.
     *
     * @param planned the compiled {@code arg} (its estimate is the joined rows)
     * @param rows the group over {@code planned}, kept for where the group join gives up
     */
    Operator planGroup(TupleExpr arg, Operator planned, Operator rows, int groupSlot, String label,
            JoinedAggregates aggregates, boolean outerBound) throws Unsupported {
        Scanned in = scanned(arg, outerBound);
        if (in == null) {
            return null;
        }
        String reason = in.reason(planned, in.patterns.size());
        GroupJoinOp op = reason != null ? GroupJoinOp.of(in.patterns, groupSlot, label, aggregates, rows, reason)
                : GroupJoinOp.of(in.patterns, groupSlot, label, aggregates, rows,
                        (scan, slot) -> estimator.estimate(scan, Set.of(slot)), cost -> in.drivenReason(planned, cost));
        if (op != null) {
            op.setEstimate(rows.estimate());
        }
        return op;
    }

    /** The scans of the patterns of {@code arg}, estimated, or null where it is not a join of two or more patterns. */
    private Scanned scanned(TupleExpr arg, boolean outerBound) throws Unsupported {
        if (joins == OrderingPolicy.Joins.NESTED_LOOP || outerBound) {
            return null;
        }
        List<StatementPattern> patterns = new ArrayList<>();
        if (!collect(arg, patterns) || patterns.size() < 2) {
            return null;
        }
        List<dev.basalt.optimizer.exec.PatternScan> compiled = new ArrayList<>();
        double scanned = 0;
        int root = 0;
        double largest = -1;
        for (StatementPattern sp : patterns) {
            dev.basalt.optimizer.exec.PatternScan scan = scans.scan(sp);
            double est = estimator.estimate(scan, Set.of());
            scan.setEstimate(est);
            if (est > largest) {
                largest = est;
                root = compiled.size();
            }
            scanned += est;
            compiled.add(scan);
        }
        return new Scanned(compiled, root, scanned);
    }

    /** Patterns' scans, the index of the largest, and their matches in all. */
    private final class Scanned {
        final List<dev.basalt.optimizer.exec.PatternScan> patterns;
        final int largest;
        final double matches;

        Scanned(List<dev.basalt.optimizer.exec.PatternScan> patterns, int largest, double matches) {
            this.patterns = patterns;
            this.largest = largest;
            this.matches = matches;
        }

        /**
         * Why the patterns are aggregated per key: their matches are at most {@code steps} times the
         * joined rows (or the hint forces it); null where they are not.
         */
        String reason(Operator planned, int steps) {
            double joined = Math.max(planned.estimate(), 0);
            double bound = steps * joined;
            if (joins != OrderingPolicy.Joins.HASH_MERGE && matches > bound) {
                return null;
            }
            return String.format(Locale.ROOT, "scan %.3g matches %s %d x %.3g joined rows estimated",
                    matches, matches <= bound ? "<=" : ">", steps, joined);
        }

        /**
         * Why the patterns are aggregated per key with some read by lookups per key of a child: the
         * reads' estimated cost ({@code cost}: the scanned matches, and a lookup's
         * {@link JoinCostModel#LOOKUP_COST} and a unit per row read by keys, those at
         * {@link dev.basalt.optimizer.exec.KeyedReads#DRIVEN_UNIT}) is at most the planned joins' cost
         * ({@link #joinCost}); null where it is not.
         */
        String drivenReason(Operator planned, double cost) {
            double byJoins = joinCost(planned, patterns.size());
            if (cost > byJoins) {
                return null;
            }
            return String.format(Locale.ROOT, "read %.3g by scans and lookups per key <= %.3g by the planned joins",
                    cost, byJoins);
        }
    }

    /**
     * The planned joins' estimated cost in the join cost model's units: along the planned order of the
     * patterns, each step looks up (or probes) every row reaching it ({@link JoinCostModel#LOOKUP_COST})
     * and yields its rows (1 each), the first reads its matches, and the group takes each joined row
     * (1 more). Where the plan's patterns cannot be listed in order, the joined rows times
     * {@code patterns} lookups.
     */
    private double joinCost(Operator planned, int patterns) {
        List<dev.basalt.optimizer.exec.PatternScan> order = new ArrayList<>();
        scansInOrder(planned, order);
        double joined = Math.max(planned.estimate(), 0);
        if (order.size() != patterns) {
            return patterns * joined * JoinCostModel.LOOKUP_COST;
        }
        Set<Integer> bound = new java.util.HashSet<>();
        double rows = 0;
        double cost = 0;
        for (dev.basalt.optimizer.exec.PatternScan scan : order) {
            double fanout = Math.max(0, estimator.estimate(scan, Set.copyOf(bound)));
            double in = rows;
            rows = bound.isEmpty() ? fanout : rows * fanout;
            cost += (bound.isEmpty() ? 0 : in * JoinCostModel.LOOKUP_COST) + rows;
            for (int slot : scan.slots()) {
                if (slot >= 0) {
                    bound.add(slot);
                }
            }
        }
        return cost + rows;
    }

    /** The pattern scans under {@code op}, depth first in the order of its children (the planned join order). */
    private static void scansInOrder(Operator op, List<dev.basalt.optimizer.exec.PatternScan> out) {
        if (op instanceof dev.basalt.optimizer.exec.PatternScan scan) {
            out.add(scan);
            return;
        }
        for (Operator child : op.children()) {
            scansInOrder(child, out);
        }
    }

    /** Adds the patterns of a tree of joins of patterns; false for anything else in it. */
    private static boolean collect(TupleExpr e, List<StatementPattern> out) {
        if (e instanceof StatementPattern sp) {
            out.add(sp);
            return true;
        }
        if (e instanceof Join j) {
            return collect(j.getLeftArg(), out) && collect(j.getRightArg(), out);
        }
        return false;
    }
}
