package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.IntersectOp;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.store.lexicon.TermIds;

/**
 * Orders the operands of one join group. The static order is greedy: first the operand whose
 * first two steps are cheapest, then repeatedly the cheapest operand connected to a variable
 * already bound (rows per input row from the {@link JoinCostModel}), a disconnected one only when
 * none is connected; ties go to patterns and then to the written order. A group of patterns only,
 * without outer bindings, is ordered on samples by the {@link RuntimeJoinOrderer} instead when the
 * {@link OrderingPolicy} asks for it (its estimates then go into {@link JoinOperand#runtimeRows}).
 * Before ordering, patterns that share their one variable may be merged into an {@link IntersectOp}
 * ({@link #mergeIntersection}).
 *
 * <p>The result is a permutation of the operands given (or of the merged list); nothing is
 * compiled here. Used by the one thread compiling a query.
 */
final class JoinOrderer {
    private final QuadSource source;
    private final VarTable vars;
    private final OrderingPolicy ordering;
    private final JoinCostModel costs;

    JoinOrderer(QuadSource source, VarTable vars, OrderingPolicy ordering, JoinCostModel costs) {
        this.source = source;
        this.vars = vars;
        this.ordering = ordering;
        this.costs = costs;
    }

    /**
     * The order of {@code atoms} after the rows of an outer operand that bind {@code preBound}:
     * runtime ordering for a group of at most {@link RuntimeJoinOrderer#MAX_PATTERNS} patterns
     * without outer bindings when the policy asks for it, else {@link #staticOrder}.
     */
    List<JoinOperand> order(List<JoinOperand> atoms, Set<Integer> preBound, List<GroupFilter> filters) {
        List<JoinOperand> order = staticOrder(atoms, preBound, filters);
        if (!preBound.isEmpty() || order.size() > RuntimeJoinOrderer.MAX_PATTERNS
                || !order.stream().allMatch(a -> a.scan != null)
                || !ordering.runtimeFor(order.size(), () -> costs.staticRows(order))) {
            return order;
        }
        return runtimeOrder(order);
    }

    private List<JoinOperand> runtimeOrder(List<JoinOperand> atoms) {
        List<PatternScan> scans = new ArrayList<>();
        for (JoinOperand a : atoms) {
            scans.add(a.scan);
        }
        RuntimeJoinOrderer.Result r = new RuntimeJoinOrderer(source, vars.size(), ordering.cutoff(),
                RuntimeJoinOrderer.BEAM).order(scans);
        List<JoinOperand> out = new ArrayList<>();
        for (int i = 0; i < r.order().length; i++) {
            JoinOperand a = atoms.get(r.order()[i]);
            a.runtimeRows = r.rows()[i];
            out.add(a);
        }
        return out;
    }

    /**
     * Greedy: the cheapest connected operand next, by its estimated rows per input row. A pattern
     * is discounted by {@link JoinCostModel#CHECK_DISCOUNT} when it binds nothing new (a membership
     * check, which may fail) and once more for each filter it completes: the estimator gives such
     * patterns a fan-out of about 1, like a pattern that only adds a value to every row (a label
     * for the output), and without the discount a tie kept the written order. On BSBM Q3 at 10M
     * that order fetched 747 labels and filtered afterwards, 14 ms; checks and filters first leave
     * one label to fetch.
     */
    List<JoinOperand> staticOrder(List<JoinOperand> atoms, Set<Integer> preBound, List<GroupFilter> filters) {
        List<JoinOperand> remaining = new ArrayList<>(atoms);
        List<JoinOperand> order = new ArrayList<>();
        SlotSet bound = new SlotSet(preBound);
        while (!remaining.isEmpty()) {
            boolean anyConnected = false;
            for (JoinOperand a : remaining) {
                anyConnected |= connected(a, bound);
            }
            JoinOperand best = null;
            double bestCost = 0;
            boolean first = order.isEmpty() && bound.isEmpty();
            for (JoinOperand a : remaining) {
                if (anyConnected && !connected(a, bound)) {
                    continue;
                }
                double c = costs.stepRows(a, bound, filters);
                if (first) {
                    c += c * nextStepRows(a, remaining, bound, filters);
                }
                // ties go to patterns (index lookups) and then to the written order
                if (best == null || c < bestCost || c == bestCost && a.scan != null && best.scan == null) {
                    best = a;
                    bestCost = c;
                }
            }
            remaining.remove(best);
            order.add(best);
            bound.addAll(best.assured);
        }
        return order;
    }

    /**
     * The rows per row of {@code start} of the cheapest pattern connected to it, the greedy
     * choice's second step (1 when no pattern is connected; other operands' estimates are totals,
     * not rows per input row, and are left out). Only for a group's first operand without outer
     * bindings: a correlated group's first step is already a lookup per outer row. The first operand is chosen by the cost
     * of its first two steps, not by its own size alone: at BSBM with 200 products, Q10's
     * {@code ?vendor :country :US} (13 matches) was the smallest pattern and led to every offer of
     * every US vendor (1,322 rows) before the product's 20 offers were looked at; counting the
     * second step starts from the product.
     */
    private double nextStepRows(JoinOperand start, List<JoinOperand> remaining, SlotSet bound,
            List<GroupFilter> filters) {
        SlotSet after = new SlotSet(bound);
        after.addAll(start.assured);
        double next = -1;
        for (JoinOperand b : remaining) {
            if (b != start && b.scan != null && connected(b, after)) {
                double c = costs.stepRows(b, after, filters);
                next = next < 0 ? c : Math.min(next, c);
            }
        }
        return next < 0 ? 1 : next;
    }

    /**
     * Replaces the patterns that share one variable and are otherwise constant (in S, P, O; any
     * graph), e.g. a type and two features of {@code ?product}, by one {@link IntersectOp}, if the
     * source can read each of them ordered by the variable and the intersection is where the
     * group would start anyway: no other operand is expected to yield fewer rows than the
     * smallest of them. The group's other patterns then probe per intersected value.
     */
    void mergeIntersection(List<JoinOperand> atoms) {
        Map<Long, List<JoinOperand>> candidates = new LinkedHashMap<>();
        for (JoinOperand a : atoms) {
            int position = intersectable(a);
            if (position >= 0) {
                candidates.computeIfAbsent(a.scan.slots()[position] * 4L + position, k -> new ArrayList<>()).add(a);
            }
        }
        for (Map.Entry<Long, List<JoinOperand>> candidate : candidates.entrySet()) {
            List<JoinOperand> group = candidate.getValue();
            if (group.size() < 2) {
                continue;
            }
            double smallest = Double.MAX_VALUE;
            for (JoinOperand a : group) {
                smallest = Math.min(smallest, costs.fanout(a.scan, Set.of()));
            }
            boolean leads = true;
            for (JoinOperand a : atoms) {
                if (!group.contains(a)) {
                    double c = a.scan != null ? costs.fanout(a.scan, Set.of()) : a.op.estimate();
                    leads &= c >= smallest;
                }
            }
            if (!leads) {
                continue;
            }
            int position = (int) (candidate.getKey() % 4);
            int slot = (int) (candidate.getKey() / 4);
            long[][] patterns = new long[group.size()][];
            StringBuilder label = new StringBuilder();
            for (int i = 0; i < group.size(); i++) {
                patterns[i] = group.get(i).scan.constants();
                label.append(i == 0 ? "[" : ", ").append(group.get(i).scan.label());
            }
            IntersectOp op = new IntersectOp(patterns, position, slot, label.append(']').toString());
            op.setEstimate(smallest * Math.pow(JoinCostModel.CHECK_DISCOUNT, group.size() - 1));
            atoms.removeAll(group);
            SlotSet merged = new SlotSet();
            merged.add(slot);
            atoms.add(0, new JoinOperand(null, op, merged, merged, null));
            return;
        }
    }

    /** The position of a pattern's only variable if it may join an {@link IntersectOp}, else -1. */
    private int intersectable(JoinOperand a) {
        if (a.scan == null || a.scan.contexts() != null || a.scan.namedGraphsOnly() || a.scan.matchesNothing()) {
            return -1;
        }
        int[] slots = a.scan.slots();
        long[] constants = a.scan.constants();
        if (slots[3] >= 0 || constants[3] != TermIds.NULL) {
            return -1;
        }
        int position = -1;
        for (int i = 0; i < 3; i++) {
            if (slots[i] >= 0 && constants[i] == TermIds.NULL) {
                if (position >= 0) {
                    return -1;
                }
                position = i;
            } else if (constants[i] == TermIds.NULL) {
                return -1;
            }
        }
        return position >= 0 && source.canOrder(constants, position) ? position : -1;
    }

    private static boolean connected(JoinOperand a, SlotSet bound) {
        if (a.mentioned.intersects(bound)) {
            return true;
        }
        // a pattern that a FILTER's equality lets look up by a bound variable (EqualLookupPlanner)
        for (int i = 0; a.scan != null && i < 4; i++) {
            if (a.scan.equalSlot(i) >= 0 && bound.contains(a.scan.equalSlot(i))) {
                return true;
            }
        }
        return false;
    }
}
