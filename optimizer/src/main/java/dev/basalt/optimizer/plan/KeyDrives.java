package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.List;

import dev.basalt.optimizer.exec.FilterOp;
import dev.basalt.optimizer.exec.HashJoin;
import dev.basalt.optimizer.exec.KeyDrive;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternHashJoin;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.optimizer.exec.PipelineJoin;

/**
 * The {@link KeyDrive} of an inner {@link HashJoin} of a group: where the rows before the join (its
 * left side) are a chain of pattern joins and filters over a pattern, at least
 * {@link JoinChoice#MIN_PROBE_ROWS} of them estimated, the same patterns as a chain of index lookups
 * ({@link PipelineJoin}s, opened with a key bound), ordered from the key on (next the pattern with the
 * fewest rows per row among those sharing a bound variable), its filters above them, and its cost per key: a lookup ({@link JoinCostModel#LOOKUP_COST}) per row reaching each
 * pattern and a unit per row it yields, the rows per key from the {@link CardinalityEstimator} with the
 * key's slots bound. The left side as planned is costed at its estimated rows times its patterns
 * (each row passes one step per pattern, the cheapest that way of reading all of them). A left
 * side of another shape (a merge join, a subquery, a UNION) is never driven per key. Used by the
 * one thread compiling a query.
 */
final class KeyDrives {
    private KeyDrives() {
    }

    /**
     * The drive of a join of {@code left} (a group evaluated once per query, without outer bindings)
     * on {@code keys} (slots it always binds), or null.
     */
    static KeyDrive of(Operator left, int[] keys, CardinalityEstimator estimator) {
        if (keys.length == 0 || left.estimate() < JoinChoice.MIN_PROBE_ROWS) {
            return null;
        }
        List<Operator> spine = new ArrayList<>();
        Operator bottom = left;
        while (!(bottom instanceof PatternScan)) {
            spine.add(bottom);
            if (bottom instanceof PipelineJoin pj) {
                bottom = pj.left();
            } else if (bottom instanceof PatternHashJoin hj) {
                bottom = hj.left();
            } else if (bottom instanceof FilterOp f) {
                bottom = f.input();
            } else {
                return null;
            }
        }
        List<PatternScan> planned = new ArrayList<>();
        List<FilterOp> filters = new ArrayList<>();
        planned.add((PatternScan) bottom);
        for (int i = spine.size() - 1; i >= 0; i--) {
            Operator s = spine.get(i);
            if (s instanceof FilterOp f) {
                filters.add(f);
            } else {
                planned.add(s instanceof PipelineJoin pj ? pj.right() : ((PatternHashJoin) s).right());
            }
        }
        SlotSet bound = new SlotSet();
        for (int k : keys) {
            bound.add(k);
        }
        // the patterns from the key on: the fewest rows per row next among those sharing a bound variable
        Operator perKey = null;
        double rows = 1;
        double cost = 0;
        while (!planned.isEmpty()) {
            PatternScan next = null;
            double best = 0;
            boolean connected = false;
            for (PatternScan scan : planned) {
                boolean c = shares(scan, bound);
                double e = estimator.estimate(scan, bound);
                if (next == null || c && !connected || c == connected && e < best) {
                    next = scan;
                    best = e;
                    connected = c;
                }
            }
            planned.remove(next);
            perKey = perKey == null ? next : new PipelineJoin(perKey, next);
            cost += rows * JoinCostModel.LOOKUP_COST;
            rows *= best;
            for (int slot : next.slots()) {
                if (slot >= 0) {
                    bound.add(slot);
                }
            }
        }
        for (FilterOp f : filters) {
            perKey = new FilterOp(perKey, f.condition());
        }
        cost += rows;
        return new KeyDrive(perKey, cost, left.estimate() * (spine.size() + 1 - filters.size()));
    }

    private static boolean shares(PatternScan scan, SlotSet bound) {
        for (int slot : scan.slots()) {
            if (slot >= 0 && bound.contains(slot)) {
                return true;
            }
        }
        return false;
    }
}
