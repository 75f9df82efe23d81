package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.query.QueryEvaluationException;

/**
 * Hash join of two independently evaluated inputs, inner or left outer (OPTIONAL). The right input
 * is evaluated once with the operator's input row and held in a hash table keyed on the
 * {@code keySlots} (variables both sides always bind); every left row probes it. Rows are joined
 * when compatible on all {@code sharedSlots} (variables either side may bind), then an optional
 * condition (the OPTIONAL's FILTER) is checked on the merged row. A left outer join emits a left
 * row alone when no right row joins with it. Evaluating the right side on its own is the algebra's
 * semantics, so nested OPTIONALs, UNIONs and filters keep their scoping. The build side is held in
 * memory and bounded by {@link ExecLimits#hashJoinRows()}: past it the query fails with an error
 * naming the limit (no spilling).
 */
public final class HashJoin extends Operator {
    private final Operator left;
    private final Operator right;
    private final int[] keySlots;
    private final int[] sharedSlots;
    private final boolean leftOuter;
    private final RowFilter condition;

    public HashJoin(Operator left, Operator right, int[] keySlots, int[] sharedSlots, boolean leftOuter,
            RowFilter condition) {
        this.left = left;
        this.right = right;
        this.keySlots = keySlots.clone();
        this.sharedSlots = sharedSlots.clone();
        this.leftOuter = leftOuter;
        this.condition = condition;
    }

    public boolean isLeftOuter() {
        return leftOuter;
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return (leftOuter ? "HashLeftJoin" : "HashJoin") + " keys " + Arrays.toString(keySlots)
                + (condition == null ? "" : " if " + condition.describe());
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        Map<RowKey, List<long[]>> table = new HashMap<>();
        try (RowCursor build = right.open(input, ctx)) {
            long[] r;
            int n = 0;
            long budget = ctx.limits().hashJoinRows();
            while ((r = build.next()) != null) {
                if (++n % 1024 == 0) {
                    ctx.checkCancelled();
                }
                if (n > budget) {
                    throw new QueryEvaluationException("the build side of " + describe() + " has more than " + budget
                            + " rows, the hash join limit; raise it with the system property "
                            + ExecLimits.HASH_JOIN_ROWS + " (and the heap accordingly)");
                }
                table.computeIfAbsent(new RowKey(r, keySlots), k -> new ArrayList<>()).add(r);
            }
        }
        RowCursor probe = left.open(input, ctx);
        return new RowCursor() {
            long[] current;
            List<long[]> bucket = List.of();
            int pos;
            boolean matched;

            @Override
            public long[] next() {
                while (true) {
                    while (pos < bucket.size()) {
                        long[] r = bucket.get(pos++);
                        if (Rows.compatible(current, r, sharedSlots)) {
                            long[] m = Rows.merge(current, r);
                            if (condition == null || condition.test(m, ctx)) {
                                matched = true;
                                return m;
                            }
                        }
                    }
                    if (current != null && leftOuter && !matched) {
                        matched = true;
                        return current;
                    }
                    current = probe.next();
                    if (current == null) {
                        return null;
                    }
                    List<long[]> b = table.get(new RowKey(current, keySlots));
                    bucket = b == null ? List.of() : b;
                    pos = 0;
                    matched = false;
                }
            }

            @Override
            public void close() {
                probe.close();
            }
        };
    }

}
