package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.eclipse.rdf4j.query.algebra.TupleExpr;

import dev.basalt.optimizer.exec.CountJoinOp;
import dev.basalt.optimizer.exec.GroupJoinOp;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.optimizer.exec.RowFilter;
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
 * grouping of each joined row), or where its reads (some patterns perhaps looked up per key of a
 * child, {@link dev.basalt.optimizer.exec.KeyedReads}) cost less than the planned joins by the join
 * cost model's units ({@link #joinCost}). The query hint {@code joins} forces the choice: nested loops never
 * aggregate this way, hash-and-merge always where the shape allows.
 *
 * <p>The group's FILTERs are allowed in a group join where each reads only variables one pattern binds:
 * that pattern's matches are tested by it before they add to the aggregates, and a filter that bounds
 * the pattern's object by constants makes it read only those ids ({@link ObjectRangePlanner}; BSBM's BI
 * query 3 counts one month's reviews per product). A count join takes no filter.
 * Not thread-safe: one query's compiler uses it in the compiling thread.
 */
final class CountJoinPlanner {
    private final GroupFlattener groups;
    private final CardinalityEstimator estimator;
    private final OrderingPolicy.Joins joins;

    CountJoinPlanner(GroupFlattener groups, CardinalityEstimator estimator, OrderingPolicy.Joins joins) {
        this.groups = groups;
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
        if (in == null || in.filtered()) {
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
                        (scan, slot) -> estimator.estimate(scan, Set.of(slot)),
                        cost -> in.costReason(planned, cost, "by scans and lookups per key"));
        if (op == null && reason == null) {
            // no pattern is cheaper read by keys: all scanned, where that costs less than the planned joins
            op = GroupJoinOp.of(in.patterns, groupSlot, label, aggregates, rows, null,
                    cost -> in.costReason(planned, cost, "by scans"));
        }
        if (op == null) {
            return null;
        }
        op = in.filtered() ? op.withConditions(in.conditions) : op;
        op.setEstimate(rows.estimate());
        return op;
    }

    /**
     * The scans of the patterns of {@code arg}, estimated, and the conditions on their matches, or null
     * where it is not a join of two or more patterns (with filters, each of whose variables one pattern
     * binds all of). A pattern whose object a filter bounds is read by its ranged scan
     * ({@link ObjectRangePlanner}), estimated at its share of the matches.
     */
    private Scanned scanned(TupleExpr arg, boolean outerBound) throws Unsupported {
        if (joins == OrderingPolicy.Joins.NESTED_LOOP || outerBound || !GroupFlattener.patternsOnly(arg)) {
            return null;
        }
        GroupFlattener.Group group = groups.flatten(arg);
        List<JoinOperand> atoms = group.atoms();
        if (atoms.size() < 2 || atoms.stream().anyMatch(a -> a.scan == null)) {
            return null;
        }
        List<PatternScan> compiled = new ArrayList<>();
        double scanned = 0;
        int root = 0;
        double largest = -1;
        for (JoinOperand a : atoms) {
            PatternScan scan = a.scan;
            double est = estimator.estimate(scan, Set.of());
            scan.setEstimate(est);
            if (est > largest) {
                largest = est;
                root = compiled.size();
            }
            scanned += est;
            compiled.add(scan);
        }
        List<List<RowFilter>> conditions = new ArrayList<>();
        for (int i = 0; i < atoms.size(); i++) {
            conditions.add(new ArrayList<>());
        }
        for (GroupFilter f : group.filters()) {
            int holder = holder(atoms, f.slots());
            if (holder < 0) {
                return null;
            }
            conditions.get(holder).add(f.filter());
        }
        return new Scanned(compiled, root, scanned, group.filters().isEmpty() ? null : conditions);
    }

    /** The first operand that binds all of {@code slots}, or -1. */
    private static int holder(List<JoinOperand> atoms, SlotSet slots) {
        for (int i = 0; i < atoms.size(); i++) {
            if (atoms.get(i).assured.containsAll(slots)) {
                return i;
            }
        }
        return -1;
    }

    /** Patterns' scans, the index of the largest, their matches in all, and the conditions on their matches. */
    private final class Scanned {
        final List<PatternScan> patterns;
        final int largest;
        final double matches;
        /** Per pattern, the conditions its matches must meet; null where no filter applies. */
        final List<List<RowFilter>> conditions;

        Scanned(List<PatternScan> patterns, int largest, double matches, List<List<RowFilter>> conditions) {
            this.patterns = patterns;
            this.largest = largest;
            this.matches = matches;
            this.conditions = conditions;
        }

        boolean filtered() {
            return conditions != null;
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
         * Why the patterns are aggregated per key, read {@code how} (scanned, or some by lookups per key
         * of a child): the reads' estimated cost ({@code cost}: the scanned matches, and a lookup's
         * {@link JoinCostModel#LOOKUP_COST} and a unit per row read by keys, those at
         * {@link dev.basalt.optimizer.exec.KeyedReads#DRIVEN_UNIT}) is at most the planned joins' cost
         * ({@link #joinCost}); null where it is not.
         */
        String costReason(Operator planned, double cost, String how) {
            double byJoins = joinCost(planned, patterns.size());
            if (cost > byJoins) {
                return null;
            }
            return String.format(Locale.ROOT, "read %.3g %s <= %.3g by the planned joins", cost, how, byJoins);
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
        List<PatternScan> order = new ArrayList<>();
        scansInOrder(planned, order);
        double joined = Math.max(planned.estimate(), 0);
        if (order.size() != patterns) {
            return patterns * joined * JoinCostModel.LOOKUP_COST;
        }
        Set<Integer> bound = new java.util.HashSet<>();
        double rows = 0;
        double cost = 0;
        for (PatternScan scan : order) {
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
    private static void scansInOrder(Operator op, List<PatternScan> out) {
        if (op instanceof PatternScan scan) {
            out.add(scan);
            return;
        }
        for (Operator child : op.children()) {
            scansInOrder(child, out);
        }
    }
}
