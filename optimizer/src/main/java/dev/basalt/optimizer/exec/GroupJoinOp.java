package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * GROUP BY one variable with COUNT(*), SUM and AVG ({@link JoinedAggregation}) over a join of
 * statement patterns whose join graph is a tree ({@link JoinTree}), computed without making a joined
 * row: the tree is rooted at a pattern binding the group variable; each pattern is scanned once,
 * from the leaves to the root, and a pattern's match adds to its parent's key (the id of the
 * variable they share) a partial aggregate: the number of joined rows below it (the product of the
 * counts its children's keys carry) and the sum of the argument over those rows (the argument's
 * number times the count, where the pattern binds the argument's variable; else the one child's sum
 * that holds it times the other children's counts). The root's matches add their partials to their
 * group's key. Both are exact integer arithmetic on unscaled digits, so the sums and counts are
 * those of the joined rows (aggregation by variable elimination, a group join per key).
 *
 * <p>Where an argument is not an exact number, a count or sum would pass 2^63, or a key table would
 * hold more than {@link ExecLimits#hashJoinRows()} ids, the operator gives the work to {@code rows}
 * (a {@link GroupOp} over the joins the compiler planned). Yields one row per group with at least
 * one joined row, in no particular order: the input row with the group's id and the aggregates.
 * Thread rules: immutable once built; each open's tables live in that open, on the thread of its
 * query.
 */
public final class GroupJoinOp extends Operator {
    private final PatternScan[] patterns;
    private final JoinTree tree;
    private final int groupSlot;
    private final String groupLabel;
    private final JoinedAggregation aggregation;
    private final Operator rows;
    private final String reason;
    /** The pattern whose rows give the argument's numbers (-1: none), and per pattern whether it or a descendant is it. */
    private final int valuePattern;
    private final boolean[] holdsValue;

    private GroupJoinOp(PatternScan[] patterns, JoinTree tree, int groupSlot, String groupLabel,
            JoinedAggregation aggregation, Operator rows, String reason, int valuePattern) {
        this.patterns = patterns;
        this.tree = tree;
        this.groupSlot = groupSlot;
        this.groupLabel = groupLabel;
        this.aggregation = aggregation;
        this.rows = rows;
        this.reason = reason;
        this.valuePattern = valuePattern;
        this.holdsValue = new boolean[patterns.length];
        for (int p = valuePattern; p >= 0; p = tree.parent[p]) {
            holdsValue[p] = true;
        }
    }

    /**
     * The group join of {@code patterns} grouped on {@code groupSlot}, or null if their join graph is
     * not a tree, no pattern binds the group variable, or the summed argument's variable is bound by
     * none of them.
     *
     * @param rows the plan that aggregates the same join row by row, used where this one gives up
     * @param reason why the compiler chose it, for EXPLAIN, or null
     */
    public static GroupJoinOp of(List<PatternScan> patterns, int groupSlot, String groupLabel,
            JoinedAggregation aggregation, Operator rows, String reason) {
        int root = holder(patterns, groupSlot, -1);
        JoinTree tree = root < 0 ? null : JoinTree.of(patterns, root);
        if (tree == null) {
            return null;
        }
        // a variable of several patterns has one id in all of them: its numbers are read in the first
        int value = aggregation.valueSlot() < 0 ? -1 : holder(patterns, aggregation.valueSlot(), -1);
        if (aggregation.valueSlot() >= 0 && value < 0) {
            return null;
        }
        return new GroupJoinOp(patterns.toArray(new PatternScan[0]), tree, groupSlot, groupLabel, aggregation, rows,
                reason, value);
    }

    /** The first pattern after {@code after} that binds {@code slot}, or -1. */
    private static int holder(List<PatternScan> patterns, int slot, int after) {
        for (int i = after + 1; i < patterns.size(); i++) {
            for (int s : patterns.get(i).slots()) {
                if (s == slot) {
                    return i;
                }
            }
        }
        return -1;
    }

    @Override
    public List<Operator> children() {
        List<Operator> out = new ArrayList<>();
        for (int i : tree.order) {
            out.add(patterns[i]);
        }
        return out;
    }

    @Override
    public String describe() {
        return "GroupJoin " + groupLabel + " " + aggregation.describe()
                + " (counts and sums per join key, leaves to root, no joined rows)"
                + (reason == null ? "" : " [" + reason + "]");
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        IdSums groups;
        try {
            groups = aggregate(input, ctx);
        } catch (ArithmeticException overflow) {
            groups = null;
        }
        if (groups == null) {
            return rows.open(input, ctx);
        }
        List<long[]> out = new ArrayList<>(groups.size());
        int[] targets = aggregation.targetSlots();
        for (int at = 0; at < groups.end(); at += IdSums.stride()) {
            long key = groups.id(at);
            if (key == 0) {
                continue;
            }
            long[] row = input.clone();
            row[groupSlot] = key;
            long form = groups.form(at);
            for (int a = 0; a < targets.length; a++) {
                row[targets[a]] = aggregation.result(a, groups.count(at), groups.sum(at), IdSums.scale(form),
                        IdSums.decimal(form), ctx);
            }
            out.add(row);
        }
        return new RowCursor() {
            int next;

            @Override
            public long[] next() {
                return next < out.size() ? out.get(next++) : null;
            }

            @Override
            public void close() {
            }
        };
    }

    /** The groups' counts and sums, or null where the rows must do the work. */
    private IdSums aggregate(long[] input, ExecContext ctx) {
        long budget = ctx.limits().hashJoinRows();
        IdSums[] tables = new IdSums[patterns.length];
        long[] numbers = new long[Batch.CAPACITY];
        for (int p : tree.order) {
            int[] kids = tree.children(p);
            boolean root = tree.parent[p] < 0;
            // sized by the pattern's estimate (its distinct keys are at most its matches), bounded by the budget
            IdSums out = new IdSums(root ? 64 : Math.min(budget, (long) Math.max(0, patterns[p].estimate())));
            int outSlot = root ? groupSlot : tree.parentSlot[p];
            boolean valueHere = p == valuePattern;
            try (BatchCursor c = patterns[p].openBatch(input, ctx)) {
                Batch b;
                while ((b = c.next()) != null) {
                    ctx.checkCancelled();
                    if (valueHere && !aggregation.numbers(b, numbers, ctx)) {
                        return null;
                    }
                    long[] keys = b.cols[outSlot];
                    for (int i = 0; i < b.size; i++) {
                        long count = 1;
                        long sum = 0;
                        long form = 0;
                        if (valueHere) {
                            sum = numbers[i] >> 6;
                            form = numbers[i] & 63;
                        }
                        for (int k : kids) {
                            IdSums from = tables[k];
                            int at = from.entry(b.cols[tree.parentSlot[k]][i]);
                            if (at < 0) {
                                count = 0;
                                break;
                            }
                            long n = from.count(at);
                            // at most one side holds sums: (c1, s1) x (c2, s2) = (c1 c2, s1 c2 + s2 c1)
                            sum = holdsValue[k] ? Math.multiplyExact(from.sum(at), count) : Math.multiplyExact(sum, n);
                            form |= holdsValue[k] ? from.form(at) : 0;
                            count = Math.multiplyExact(count, n);
                        }
                        if (count != 0) {
                            out.add(keys[i], count, sum, form);
                        }
                    }
                    if (out.size() > budget) {
                        return null;
                    }
                }
            }
            for (int k : kids) {
                tables[k] = null;
            }
            tables[p] = out;
        }
        return tables[tree.order[tree.order.length - 1]];
    }
}
