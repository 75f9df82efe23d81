package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * {@code COUNT(*)} without GROUP BY of a join of statement patterns whose join graph is a tree
 * ({@link JoinTree}: the patterns joined pairwise by one variable each, a star's in a chain, no
 * cycle), counted without making a joined row: each pattern is scanned once, from the leaves of the
 * tree to its root, and a pattern's match adds to its parent's key (the id of the variable they
 * share) the product of the counts its own children's keys carry ({@link IdCounts}); the root's
 * matches add those products up. That is the number of rows of the join, since the tree's patterns
 * are independent given the ids of the variables they share (counting by variable elimination, the
 * semi-join program of an acyclic join). The input row's bindings are substituted into every
 * pattern, as a scan does.
 *
 * <p>Where the root's largest child is estimated at {@link KeyPartitions#FROM_MATCHES} matches or
 * more, its key table would be far past the processor's caches (one random access per match to
 * build it, one per root match to probe it); that child's (key, count) pairs and the root's (key,
 * weight) pairs are instead split into hash partitions and joined partition by partition
 * ({@link KeyPartitions}), which EXPLAIN names.
 *
 * <p>Memory: a pattern's counts hold one entry per distinct key, and the two sets of pairs of a join by
 * partitions hold {@link KeyPartitions#PAIRS_PER_ROW} pairs per row of the budget (a pair is a third of a
 * hash join's row in bytes); past {@link ExecLimits#hashJoinRows()} of either the operator counts with
 * {@code rows} instead (a
 * {@link GroupOp} over the joins the compiler planned). Yields one row: the input row with the count
 * (an xsd:integer) in the target slot. Thread rules: immutable once built; each open's counts live
 * in that open, on the thread of its query.
 */
public final class CountJoinOp extends Operator {
    private final PatternScan[] patterns;
    /** Per pattern: its parent's index, -1 for the root. */
    private final int[] parent;
    /** Per pattern: the slot it shares with its parent (-1 for the root). */
    private final int[] parentSlot;
    /** The patterns' indices, every pattern after its children (the root last). */
    private final int[] order;
    private final int target;
    private final Operator rows;
    private final String reason;
    /** The root's child whose key table is joined by partitions ({@link KeyPartitions}), or -1. */
    private final int partitioned;

    private CountJoinOp(PatternScan[] patterns, int[] parent, int[] parentSlot, int[] order, int target,
            Operator rows, String reason, long partitionFrom) {
        this.patterns = patterns;
        this.parent = parent;
        this.parentSlot = parentSlot;
        this.order = order;
        this.target = target;
        this.rows = rows;
        this.reason = reason;
        int big = -1;
        for (int c = 0; c < patterns.length; c++) {
            if (parent[c] >= 0 && parent[parent[c]] == -1 && patterns[c].estimate() >= partitionFrom
                    && (big < 0 || patterns[c].estimate() > patterns[big].estimate())) {
                big = c;
            }
        }
        this.partitioned = big;
    }

    /**
     * The same count with the root's largest child joined by partitions when its estimate is at
     * least {@code estimatedMatches} (by default {@link KeyPartitions#FROM_MATCHES}); tests lower it
     * to run that path on small data.
     */
    public CountJoinOp partitionedFrom(long estimatedMatches) {
        CountJoinOp op = new CountJoinOp(patterns, parent, parentSlot, order, target, rows, reason, estimatedMatches);
        op.setEstimate(estimate());
        return op;
    }

    /**
     * The count of the join of {@code patterns} rooted at pattern {@code root}, or null if their join
     * graph is not a tree (or a pattern has no variable).
     *
     * @param rows the plan that counts the same join row by row, used past the memory budget
     * @param reason why the compiler chose it, for EXPLAIN, or null
     */
    public static CountJoinOp of(List<PatternScan> patterns, int root, int target, Operator rows, String reason) {
        JoinTree tree = JoinTree.of(patterns, root);
        if (tree == null) {
            return null;
        }
        return new CountJoinOp(patterns.toArray(new PatternScan[0]), tree.parent, tree.parentSlot, tree.order, target,
                rows, reason, KeyPartitions.FROM_MATCHES);
    }

    @Override
    public List<Operator> children() {
        List<Operator> out = new ArrayList<>();
        for (int i : order) {
            out.add(patterns[i]);
        }
        return out;
    }

    @Override
    public String describe() {
        return "CountJoin (counts per join key, leaves to root, no joined rows" + (partitioned < 0 ? ""
                : "; the root's join with " + patterns[partitioned].label() + " by key partitions") + ")"
                + (reason == null ? "" : " [" + reason + "]");
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        Long n = countWithinBudget(input, ctx);
        return n == null ? rows.open(input, ctx) : RangeCountOp.countRow(input, target, n, ctx);
    }

    /**
     * The count for {@code input}, or null past the memory budget (then {@link #open} counts with {@code rows}
     * instead).
     */
    public Long countWithinBudget(long[] input, ExecContext ctx) {
        long budget = ctx.limits().hashJoinRows();
        long pairBudget = budget > Long.MAX_VALUE / KeyPartitions.PAIRS_PER_ROW ? Long.MAX_VALUE
                : budget * KeyPartitions.PAIRS_PER_ROW;
        IdCounts[] counts = new IdCounts[patterns.length];
        KeyPartitions built = null;
        KeyPartitions probes = null;
        long total = 0;
        long[] weights = new long[Batch.CAPACITY];
        long[] runKeys = new long[Batch.CAPACITY];
        long[] runCounts = new long[Batch.CAPACITY];
        for (int p : order) {
            int[] kids = IntStream.range(0, patterns.length).filter(c -> parent[c] == p && c != partitioned).toArray();
            boolean root = parent[p] < 0;
            // sized by the pattern's estimate (its distinct keys are at most its matches), bounded by the budget
            IdCounts out = root || p == partitioned ? null
                    : new IdCounts(Math.min(budget, (long) Math.max(0, patterns[p].estimate())));
            KeyPartitions pairs = p == partitioned || root && partitioned >= 0
                    ? new KeyPartitions((long) Math.max(0, patterns[partitioned].estimate())) : null;
            int pairSlot = p == partitioned ? parentSlot[p] : partitioned >= 0 ? parentSlot[partitioned] : -1;
            try (BatchCursor c = patterns[p].openBatch(input, ctx)) {
                Batch b;
                while ((b = c.next()) != null) {
                    ctx.checkCancelled();
                    int size = b.size;
                    weigh(b, kids, counts, weights, runKeys, runCounts);
                    if (pairs != null) {
                        pairs.addAll(b.cols[pairSlot], weights, size);
                        long held = pairs.size() + (built == null ? 0 : built.size());
                        if (held > pairBudget) {
                            return null;
                        }
                    } else if (out == null) {
                        total = Math.addExact(total, sum(weights, size));
                    } else {
                        addAll(out, b.cols[parentSlot[p]], weights, size);
                        if (out.size() > budget) {
                            return null;
                        }
                    }
                }
            }
            for (int k : kids) {
                counts[k] = null;
            }
            counts[p] = out;
            if (p == partitioned) {
                built = pairs;
            } else if (root) {
                probes = pairs;
            }
        }
        return probes == null ? total : built.sumOfProducts(probes);
    }

    /**
     * Sets {@code weights[i]} to the product of the counts the children {@code kids} hold for row {@code i}'s keys;
     * {@code runKeys} and {@code runCounts} are scratch of a batch's capacity.
     */
    private void weigh(Batch b, int[] kids, IdCounts[] counts, long[] weights, long[] runKeys, long[] runCounts) {
        int size = b.size;
        Arrays.fill(weights, 0, size, 1L);
        for (int k : kids) {
            long[] keys = b.cols[parentSlot[k]];
            // a scan in the order of the key repeats it row after row: one lookup per run of equal keys,
            // the runs' lookups made together (IdCounts#getAll)
            int runs = 0;
            long last = 0;
            for (int i = 0; i < size; i++) {
                if (keys[i] != last || i == 0) {
                    last = keys[i];
                    runKeys[runs++] = last;
                }
            }
            counts[k].getAll(runKeys, runs, runCounts);
            int r = -1;
            for (int i = 0; i < size; i++) {
                if (i == 0 || keys[i] != keys[i - 1]) {
                    r++;
                }
                if (weights[i] != 0) {
                    weights[i] = Math.multiplyExact(weights[i], runCounts[r]);
                }
            }
        }
    }

    private static long sum(long[] weights, int size) {
        long total = 0;
        for (int i = 0; i < size; i++) {
            total = Math.addExact(total, weights[i]);
        }
        return total;
    }

    private static void addAll(IdCounts out, long[] keys, long[] weights, int size) {
        for (int i = 0; i < size; i++) {
            if (weights[i] != 0) {
                out.add(keys[i], weights[i]);
            }
        }
    }
}
