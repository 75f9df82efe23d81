package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

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
 * <p>Where a pattern and its parent are both estimated at {@link KeyPartitions#FROM_MATCHES} matches
 * or more (of such pairs the one whose smaller side is largest), the pattern's key table would be far past the processor's
 * caches (one random access per match to build it, one per parent match to probe it): its (key,
 * partial) rows and its parent's (key, out key, partial) rows are instead split into hash partitions
 * and joined partition by partition ({@link RowPartitions}), which EXPLAIN names. A side whose pattern
 * has no other child keeps no count in its rows, only its key, out key and number ({@link PartialRows}).
 * Where that parent is the root's only child and the root gives each of their shared keys one group
 * (a vendor's one country), the root is read first and the parent's rows carry the group's number
 * (the groups numbered densely, {@link RootGroups}) instead of the key: the join adds to the groups'
 * arrays directly ({@link GroupTotals}), with no table per key and no step for the root (EXPLAIN
 * counts these opens). Where the partitioned pattern has no child, holds no sums and is its parent's
 * only child, its keys go to a bitmap ({@link IdKeySet}) instead, which its parent's matches test, and
 * neither side is partitioned unless the bitmap passes its memory; such a leaf of
 * {@link IdKeySet#FROM_MATCHES} estimated matches or more is held in a bitmap even where its
 * estimates would not partition it ({@link PartitionedPattern}). The two sets of
 * rows share the memory of {@link ExecLimits#hashJoinRows()} rows of a hash join; past it they go
 * to disk and are joined a group of partitions at a time (EXPLAIN then says how many rows spilled).
 *
 * <p>A pattern may be read by lookups per key of a child's table instead of scanned whole
 * ({@link KeyedReads}): only its matches that can join are read; such a pattern and its children are
 * never joined by partitions.
 *
 * <p>A pattern may carry a condition on the variables it binds (a FILTER of the group that only it
 * binds, {@link #withConditions}): its matches, scanned or looked up, are tested before they add to a
 * table, so the aggregates are those of the joined rows the FILTER keeps. The compiler gives such a
 * pattern the bounds of the FILTER's comparisons on its object (a ranged scan) where it can.
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
    /** The estimated matches from which a pattern and its parent are joined by partitions. */
    private final long partitionFrom;
    private final KeyedReads reads;
    /** The pattern kept out of the key tables (joined by partitions or keyed in a bitmap), and how. */
    private final PartitionedPattern held;
    private final LongAdder rootFirstOpens = new LongAdder();
    /** Per pattern: the conditions its matches must meet (none: an empty array). */
    private final RowFilter[][] conditions;
    private final LongAdder spilledRows = new LongAdder();
    private final LongAdder drivenOpens = new LongAdder();
    /** The opens that kept the partitioned pattern's keys in an {@link IdKeySet}. */
    private final LongAdder keySetOpens = new LongAdder();

    private GroupJoinOp(PatternScan[] patterns, JoinTree tree, int groupSlot, String groupLabel,
            JoinedAggregation aggregation, Operator rows, String reason, int valuePattern, long partitionFrom,
            KeyedReads reads, RowFilter[][] conditions) {
        this.patterns = patterns;
        this.tree = tree;
        this.groupSlot = groupSlot;
        this.groupLabel = groupLabel;
        this.aggregation = aggregation;
        this.rows = rows;
        this.reason = reason;
        this.valuePattern = valuePattern;
        this.reads = reads;
        this.conditions = conditions;
        this.partitionFrom = partitionFrom;
        this.holdsValue = new boolean[patterns.length];
        for (int p = valuePattern; p >= 0; p = tree.parent[p]) {
            holdsValue[p] = true;
        }
        this.held = PartitionedPattern.choose(patterns, tree, reads, holdsValue, valuePattern, partitionFrom);
    }

    /**
     * The same group join with the largest pattern joined to its parent by partitions when both are
     * estimated at {@code estimatedMatches} or more (by default {@link KeyPartitions#FROM_MATCHES});
     * tests lower it to run that path on small data.
     */
    public GroupJoinOp partitionedFrom(long estimatedMatches) {
        GroupJoinOp op = new GroupJoinOp(patterns, tree, groupSlot, groupLabel, aggregation, rows, reason, valuePattern,
                estimatedMatches, reads, conditions);
        op.setEstimate(estimate());
        return op;
    }

    /**
     * The same group join with the matches of pattern {@code i} (in the order the patterns were given)
     * kept only where each of {@code conditions.get(i)} holds. The conditions read only the slots their
     * pattern binds.
     */
    public GroupJoinOp withConditions(List<List<RowFilter>> conditions) {
        if (conditions.size() != patterns.length) {
            throw new IllegalArgumentException(conditions.size() + " conditions for " + patterns.length + " patterns");
        }
        RowFilter[][] held = new RowFilter[patterns.length][];
        for (int p = 0; p < held.length; p++) {
            held[p] = conditions.get(p).toArray(new RowFilter[0]);
        }
        GroupJoinOp op = new GroupJoinOp(patterns, tree, groupSlot, groupLabel, aggregation, rows, reason, valuePattern,
                partitionFrom, reads, held);
        op.setEstimate(estimate());
        return op;
    }

    /**
     * The group join of {@code patterns} grouped on {@code groupSlot}, or null if their join graph is
     * not a tree, or no pattern binds the group variable, the summed argument's variable or a counted
     * variable.
     *
     * @param rows the plan that aggregates the same join row by row, used where this one gives up
     * @param reason why the compiler chose it, for EXPLAIN, or null
     */
    public static GroupJoinOp of(List<PatternScan> patterns, int groupSlot, String groupLabel,
            JoinedAggregation aggregation, Operator rows, String reason) {
        return of(patterns, groupSlot, groupLabel, aggregation, rows, null, cost -> reason);
    }

    /**
     * As {@link #of(List, int, String, JoinedAggregation, Operator, String)}, with each pattern read by
     * lookups per key of a child's table where the estimates ({@code fanout}) make that cheaper than its
     * scan ({@link KeyedReads}), or every pattern scanned when {@code fanout} is null; null also where
     * {@code reason} gives null for the reads' estimated cost (in scanned-row units) or, with
     * {@code fanout}, where no pattern is driven.
     */
    public static GroupJoinOp of(List<PatternScan> patterns, int groupSlot, String groupLabel,
            JoinedAggregation aggregation, Operator rows, KeyedReads.Fanout fanout,
            java.util.function.DoubleFunction<String> reason) {
        for (int counted : aggregation.countedSlots()) {
            if (holder(patterns, counted, -1) < 0) {
                return null;
            }
        }
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
        KeyedReads reads = fanout == null ? KeyedReads.scans(patterns) : KeyedReads.plan(patterns, tree, fanout);
        if (fanout != null && !reads.anyDriven()) {
            return null;
        }
        String why = reason.apply(reads.cost());
        if (why == null) {
            return null;
        }
        return new GroupJoinOp(patterns.toArray(new PatternScan[0]), tree, groupSlot, groupLabel, aggregation, rows,
                why, value, KeyPartitions.FROM_MATCHES, reads, new RowFilter[patterns.size()][0]);
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
                + " (counts and sums per join key, leaves to root, no joined rows"
                + (held.pattern() < 0 ? "" : "; " + patterns[held.pattern()].label()
                        + (held.bitmapOnly() ? " keyed in a bitmap" : " joined by key partitions"))
                + (reads.anyDriven() ? "; " + reads.describe(List.of(patterns)) : "") + describeConditions() + ")"
                + (reason == null ? "" : " [" + reason + "]")
                + (spilledRows.sum() > 0 ? " (spilled " + spilledRows.sum() + " rows)" : "")
                + (drivenOpens.sum() > 0 ? " (driven by keys in " + drivenOpens.sum() + " reads)" : "")
                + (rootFirstOpens.sum() > 0 ? " (groups by the root's keys first in " + rootFirstOpens.sum() + " opens)" : "")
                + (keySetOpens.sum() > 0 ? " (keys in a bitmap in " + keySetOpens.sum() + " opens)" : "");
    }

    /** For EXPLAIN: the conditions on the patterns' matches. */
    private String describeConditions() {
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < patterns.length; p++) {
            for (RowFilter c : conditions[p]) {
                sb.append("; ").append(patterns[p].label()).append(" kept where ").append(c.describe());
            }
        }
        return sb.toString();
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
        return RowCursor.over(out, () -> { });
    }

    /** The groups' counts and sums, or null where the rows must do the work. */
    private IdSums aggregate(long[] input, ExecContext ctx) {
        long budget = ctx.limits().hashJoinRows();
        // each of the two sets of a join by partitions holds half the memory of the budget's rows
        long setLongs = budget > Long.MAX_VALUE / RowPartitions.LONGS_PER_BUDGET_ROW ? Long.MAX_VALUE
                : budget * RowPartitions.LONGS_PER_BUDGET_ROW / 2;
        int partitioned = held.pattern();
        PartialRows builtRows = held.builtRows();
        PartialRows probeRows = held.probeRows();
        boolean rootFirst = held.rootFirst();
        IdSums[] tables = new IdSums[patterns.length];
        RowPartitions built = null;
        RowPartitions pairs = null;
        long[] numbers = new long[Batch.CAPACITY];
        long[] keptPairs = rootFirst ? new long[Batch.CAPACITY] : null;
        long[] keptGroups = rootFirst ? new long[Batch.CAPACITY] : null;
        boolean rootRead = false;
        // the partitioned pattern's keys while they fit a bitmap (then neither side is partitioned)
        IdKeySet keys = null;
        try {
            for (int p : tree.order) {
                int[] kids = java.util.Arrays.stream(tree.children(p)).filter(k -> k != partitioned).toArray();
                boolean root = tree.parent[p] < 0;
                if (root && rootRead) {
                    tables[p] = tables[tree.children(p)[0]];
                    break;
                }
                boolean probing = partitioned >= 0 && tree.parent[partitioned] == p;
                RootGroups groups = probing && rootFirst ? RootGroups.of(read(tree.parent[p], tables, null, input, ctx),
                        tree.parentSlot[p], groupSlot, budget, ctx) : null;
                if (groups != null) {
                    rootRead = true;
                    rootFirstOpens.increment();
                }
                // sized by the pattern's estimate (its distinct keys are at most its matches), bounded by the budget
                IdSums out = p == partitioned ? null
                        : new IdSums(root || groups != null ? 64 : Math.min(budget, (long) reads.rows(p)));
                PartialRows layout = p == partitioned ? builtRows : probing ? probeRows : null;
                if (p == partitioned && held.keySet()) {
                    keys = new IdKeySet(setLongs);
                }
                pairs = layout == null || p == partitioned && keys != null || probing && keys != null ? null
                        : newPairs(layout, setLongs, ctx);
                int outSlot = root ? groupSlot : tree.parentSlot[p];
                int pairSlot = probing ? tree.parentSlot[partitioned] : -1;
                boolean valueHere = p == valuePattern;
                try (BatchCursor c = read(p, tables, probing ? keys : null, input, ctx)) {
                    Batch b;
                    while ((b = c.next()) != null) {
                        ctx.checkCancelled();
                        if (valueHere && !aggregation.numbers(b, numbers, ctx)) {
                            return null;
                        }
                        if (p == partitioned && keys != null) {
                            int took = keys.addAll(b.cols[outSlot], b.size);
                            if (took == b.size) {
                                continue;
                            }
                            // past the bitmap's memory: its keys and the rest go to partitions as before
                            pairs = newPairs(layout, setLongs, ctx);
                            keys.drainTo(pairs);
                            keys = null;
                            pairs.addAll(java.util.Arrays.copyOfRange(b.cols[outSlot], took, b.size), null, null,
                                    b.size - took);
                        } else if (probing && keys != null) {
                            keys.probe(b.cols[pairSlot], b.cols[outSlot], valueHere ? numbers : null, b.size, out);
                        } else if (groups != null) {
                            // a unit row: (key, group's number, number or nothing)
                            long[] kept = probeRows.sums() ? numbers : null;
                            int m = groups.keep(b.cols[outSlot], b.cols[pairSlot], kept, b.size, keptPairs, keptGroups,
                                    kept);
                            pairs.addAll(keptPairs, keptGroups, kept, m);
                        } else {
                            addBatch(b, kids, tables, valueHere ? numbers : null, b.cols[outSlot], out, pairs, layout,
                                    pairSlot < 0 ? null : b.cols[pairSlot]);
                        }
                        if (out != null && out.size() > budget) {
                            return null;
                        }
                    }
                }
                for (int k : kids) {
                    tables[k] = null;
                }
                if (p == partitioned) {
                    built = pairs;
                } else if (probing && keys != null) {
                    keySetOpens.increment();
                    keys = null;
                } else if (probing) {
                    // where the rows carry their group's number (the root read first), the join adds to the groups' arrays
                    GroupTotals totals = groups == null ? null : new GroupTotals(groups.groups());
                    PartialRows.join(built, builtRows, pairs, probeRows, totals == null ? out : totals, ctx);
                    if (totals != null) {
                        totals.addTo(out, groups);
                    }
                    spilledRows.add(built.spilledRows() + pairs.spilledRows());
                    built.close();
                    pairs.close();
                    built = null;
                }
                pairs = null;
                tables[p] = out;
            }
            return tables[tree.order[tree.order.length - 1]];
        } finally {
            for (RowPartitions set : new RowPartitions[] {built, pairs}) {
                if (set != null) {
                    spilledRows.add(set.spilledRows());
                    set.close();
                }
            }
        }
    }

    private RowPartitions newPairs(PartialRows layout, long setLongs, ExecContext ctx) {
        return new RowPartitions((long) Math.max(0, patterns[held.pattern()].estimate()), layout.width(), setLongs,
                ctx.limits());
    }

    /**
     * Pattern {@code p}'s matches that meet its condition: by lookups of its driving child's keys where
     * {@link KeyedReads} takes them, else its scan.
     */
    private BatchCursor read(int p, IdSums[] tables, IdKeySet keys, long[] input, ExecContext ctx) {
        int k = reads.driver(p);
        BatchCursor matches;
        if (k >= 0 && keys != null && k == held.pattern() && reads.takesOverBitmap(p, keys.size())) {
            drivenOpens.increment();
            matches = KeyedReads.lookups(patterns[p], keys.ids(), tree.parentSlot[k], input, ctx);
        } else if (k >= 0 && tables[k] != null && reads.takes(p, tables[k].size())) {
            drivenOpens.increment();
            matches = KeyedReads.lookups(patterns[p], KeyedReads.keys(tables[k]), tree.parentSlot[k], input, ctx);
        } else {
            matches = patterns[p].openBatch(input, ctx);
        }
        for (RowFilter c : conditions[p]) {
            matches = FilterOp.filtered(matches, c, input.length, ctx);
        }
        return matches;
    }

    /**
     * Adds the partials of a batch of a pattern's rows: to {@code out} by {@code outKeys}, or, for the
     * partitioned pattern, to {@code pairs} as (key, partial), or, for its parent, to {@code pairs} as
     * (the partitioned pattern's key, out key, partial) to join later, each side's partial laid out as
     * {@link PartialRows} says ({@code rows}).
     */
    private void addBatch(Batch b, int[] kids, IdSums[] tables, long[] numbers, long[] outKeys, IdSums out,
            RowPartitions pairs, PartialRows rows, long[] pairKeys) {
        if (pairs != null && rows.unit()) {
            // every row is one joined row: its number (or nothing) is its partial
            if (pairKeys != null) {
                pairs.addAll(pairKeys, outKeys, rows.sums() ? numbers : null, b.size);
            } else {
                pairs.addAll(outKeys, rows.sums() ? numbers : null, null, b.size);
            }
            return;
        }
        // each child's entries of the whole batch first, and the out keys' slots read: their cache misses overlap
        int[][] entries = new int[kids.length][b.size];
        long[] homeKeys = new long[b.size];
        for (int j = 0; j < kids.length; j++) {
            tables[kids[j]].entries(b.cols[tree.parentSlot[kids[j]]], b.size, entries[j], homeKeys);
        }
        if (pairs == null) {
            out.touch(outKeys, b.size);
        }
        for (int i = 0; i < b.size; i++) {
            long count = 1;
            long sum = 0;
            long form = 0;
            if (numbers != null) {
                sum = numbers[i] >> 6;
                form = numbers[i] & 63;
            }
            for (int j = 0; j < kids.length; j++) {
                int k = kids[j];
                IdSums from = tables[k];
                int at = entries[j][i];
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
            if (count == 0) {
                continue;
            }
            if (pairs == null) {
                out.add(outKeys[i], count, sum, form);
                continue;
            }
            long cf = PartialRows.countAndForm(count, form);
            if (pairKeys != null) {
                if (rows.sums()) {
                    pairs.add(pairKeys[i], outKeys[i], cf, sum);
                } else {
                    pairs.add(pairKeys[i], outKeys[i], cf);
                }
            } else if (rows.sums()) {
                pairs.add(outKeys[i], cf, sum);
            } else {
                pairs.add(outKeys[i], cf);
            }
        }
    }
}
