package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.MergeJoin;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternHashJoin;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.optimizer.exec.PipelineJoin;

/**
 * How the patterns of a group evaluated once per query join the rows before them: by an index
 * lookup per row ({@link PipelineJoin}) or from a hash table of the pattern's matches, built once
 * ({@link PatternHashJoin}); and which pattern closes a cycle of joins, so that the cheap one of
 * the two is possible there.
 *
 * <p>Costs are in the units of {@link JoinCostModel}: a row read by a scan or yielded
 * by a join costs 1, an index lookup {@link JoinCostModel#LOOKUP_COST}, a row of a hash table built
 * {@link JoinCostModel#BUILD_COST}, a probe of the table {@link #TABLE_PROBE_COST} ({@link #LARGE_TABLE_PROBE_COST}
 * for a table of {@link #LARGE_TABLE_ROWS} matches or more). A pattern is
 * hashed when building its whole range once and probing it per row costs less than looking it up
 * per row: when its matches are fewer than the rows that reach it. When at least
 * {@link #LARGE_OUTER_ROWS} rows reach a pattern (an analytic join over all offers, not a selective
 * query) a lookup costs {@link #RANDOM_LOOKUP_COST}: the rows are spread over the whole index, and
 * each lookup is a descent to a leaf not read just before. A pattern reached by more rows than its
 * matches / 5 is hashed there. Measured on BSBM 1M: 0.8 µs per lookup of {@code ?offer :vendor ?v}
 * by 55,700 offers in product order against 0.06 µs per row of the pattern's scan.
 *
 * <p>The {@link OrderingPolicy.Joins} of the query forces lookups ({@code NESTED_LOOP}) or a hash
 * table wherever the keys allow one ({@code HASH_MERGE}); EXPLAIN gives the reason of each hash
 * join ({@link PatternHashJoin#describe}).
 *
 * <p>The case it is for is a triangle of three large relations (LUBM Q9: {@code ?x :advisor ?y .
 * ?y :teacherOf ?z . ?x :takesCourse ?z}): every order of lookups carries near a million rows at
 * 10M triples to the pattern that closes the triangle, and looking that pattern up per row was
 * most of the query's time. The order the join orderer gives is kept unless taking one pattern out,
 * ordering the others, and putting it back where its variables are all bound (so it closes the
 * cycle, hashed if that is cheaper) costs at most {@link #REORDER_GAIN} of it: with {@code
 * :teacherOf} (162K matches) closing the triangle, 736K rows probe a hash table instead of the
 * index.
 * Not thread-safe: made and used by one query's plan compiler, in the compiling thread.
 */
final class JoinChoice {
    /** What a probe of a built hash table costs against one row read by a scan. */
    static final double TABLE_PROBE_COST = 2;
    /** Matches of a pattern from which a probe of its table costs {@link #LARGE_TABLE_PROBE_COST}. */
    static final double LARGE_TABLE_ROWS = 50_000;
    /**
     * What a probe of a table of at least {@link #LARGE_TABLE_ROWS} matches costs against one row read by a scan:
     * such a table is past the caches, and a probe misses them. Measured on BSBM 100M (Explore Q5's products
     * sharing a feature probing {@code ?product :productPropertyNumeric1 ?p}, 284,826 matches): 0.9 µs per probe
     * and its joined row against 0.13-0.18 µs per row of the table's scan. At 2, Q5 hashed three patterns that
     * 2,300-54,000 rows reached (estimated 88,000) and took 1.8x the CPU of its index lookups.
     */
    static final double LARGE_TABLE_PROBE_COST = 6;
    /** Rows reaching a pattern below which it is always looked up per row (a LIMIT may stop them early). */
    static final double MIN_PROBE_ROWS = 1024;
    /**
     * Rows reaching a pattern from which a lookup costs {@link #RANDOM_LOOKUP_COST}. The largest
     * group steps of BSBM's explore mix stay below it (about 2,000 rows at 1M, 20,000 at 10M: Q5's
     * products sharing a feature), so their plans do not change.
     */
    static final double LARGE_OUTER_ROWS = 50_000;
    /** What a lookup costs against one row read by a scan when {@link #LARGE_OUTER_ROWS} rows or more look up. */
    static final double RANDOM_LOOKUP_COST = 12;
    /** Matches of a pattern beyond which it is never hashed. */
    static final double MAX_BUILD_ROWS = 1_000_000;
    /** Plans estimated cheaper than this keep their order (most queries: no alternatives are costed). */
    static final double MIN_REORDER_COST = 100_000;
    /** An alternative order is taken only if it costs at most this share of the given one. */
    static final double REORDER_GAIN = 0.5;

    private final CardinalityEstimator estimator;
    private final OrderingPolicy.Joins joins;

    JoinChoice(CardinalityEstimator estimator, OrderingPolicy.Joins joins) {
        this.estimator = estimator;
        this.joins = joins;
    }

    /**
     * {@code order} (patterns and other operands of a group without outer bindings), or, when the
     * group is all patterns ordered statically and a cycle closed by another pattern is much
     * cheaper, that order. {@code orderOf} orders a subset of the operands as the static join
     * orderer does.
     */
    List<JoinOperand> order(List<JoinOperand> order, UnaryOperator<List<JoinOperand>> orderOf) {
        // an order the runtime optimizer chose from samples is not second-guessed with static estimates
        if (order.size() < 3 || !order.stream().allMatch(a -> a.scan != null && a.runtimeRows < 0)) {
            return order;
        }
        double given = cost(order);
        if (given < MIN_REORDER_COST) {
            return order;
        }
        List<JoinOperand> best = order;
        double bestCost = given * REORDER_GAIN;
        for (JoinOperand closing : order) {
            List<JoinOperand> rest = new ArrayList<>(order);
            rest.remove(closing);
            List<JoinOperand> alternative = closedBy(orderOf.apply(rest), closing);
            if (alternative != null) {
                double c = cost(alternative);
                if (c < bestCost) {
                    best = alternative;
                    bestCost = c;
                }
            }
        }
        return best;
    }

    /**
     * The join of {@code left} ({@code rowsIn} rows estimated, always binding {@code certain},
     * perhaps {@code mentioned}) with {@code scan}: a {@link PatternHashJoin} if that is cheaper
     * and the rows bind the pattern's shared variables always, else a {@link PipelineJoin}.
     */
    Operator join(Operator left, PatternScan scan, double rowsIn, SlotSet certain, SlotSet mentioned) {
        int[] keys = keys(scan, certain, mentioned);
        if (keys == null || joins == OrderingPolicy.Joins.NESTED_LOOP) {
            return new PipelineJoin(left, scan);
        }
        if (joins == OrderingPolicy.Joins.HASH_MERGE) {
            return new PatternHashJoin(left, scan, keys, "forced by the query's join hint");
        }
        double hash = hashCost(scan, rowsIn);
        double lookups = lookupCost(rowsIn);
        if (rowsIn >= MIN_PROBE_ROWS && hash < lookups) {
            return new PatternHashJoin(left, scan, keys, String.format(Locale.ROOT,
                    "build %.0f matches + probe %.0f rows: cost %.3g < %.3g by lookups", estimator.estimate(scan,
                            Set.of()), rowsIn, hash, lookups));
        }
        return new PipelineJoin(left, scan);
    }

    /**
     * A merge join of the first two operands of {@code order} (a group evaluated once per query,
     * ordered statically), or null: both are patterns sharing a variable that {@code source} can
     * read each of them ordered by ({@link QuadSource#canOrder}), and reading both in order costs
     * less than looking the second up per row of the first, at least {@link #LARGE_OUTER_ROWS} of
     * them (or the query's join hint asks for merge and hash joins).
     */
    MergeJoin merge(List<JoinOperand> order, QuadSource source) {
        if (joins == OrderingPolicy.Joins.NESTED_LOOP || order.size() < 2) {
            return null;
        }
        JoinOperand a = order.get(0);
        JoinOperand b = order.get(1);
        if (a.scan == null || b.scan == null || a.runtimeRows >= 0 || b.runtimeRows >= 0 || a.scan.contexts() != null
                || b.scan.contexts() != null) {
            return null;
        }
        long[] ac = a.scan.constants();
        long[] bc = b.scan.constants();
        int[] as = a.scan.slots();
        int[] bs = b.scan.slots();
        for (int pa = 0; pa < 4; pa++) {
            for (int pb = 0; pb < 4; pb++) {
                if (as[pa] < 0 || as[pa] != bs[pb] || ac[pa] != 0 || bc[pb] != 0 || !source.canOrder(ac, pa)
                        || !source.canOrder(bc, pb)) {
                    continue;
                }
                if (joins == OrderingPolicy.Joins.HASH_MERGE) {
                    return new MergeJoin(a.scan, pa, b.scan, pb, as[pa], "forced by the query's join hint");
                }
                double rows = estimator.estimate(a.scan, Set.of());
                double matches = estimator.estimate(b.scan, Set.of());
                double lookups = lookupCost(rows);
                if (rows >= LARGE_OUTER_ROWS && rows + matches < lookups) {
                    return new MergeJoin(a.scan, pa, b.scan, pb, as[pa], String.format(Locale.ROOT,
                            "read %.0f + %.0f matches in order: cost %.3g < %.3g by lookups", rows, matches,
                            rows + matches, lookups));
                }
                return null;
            }
        }
        return null;
    }

    /** Looking a pattern up for each of {@code rows} rows. */
    static double lookupCost(double rows) {
        return rows * (rows >= LARGE_OUTER_ROWS ? RANDOM_LOOKUP_COST : JoinCostModel.LOOKUP_COST);
    }

    /** The estimated cost of running {@code order} (patterns only) with the cheaper join at each step. */
    private double cost(List<JoinOperand> order) {
        double rows = 1;
        double cost = 0;
        SlotSet bound = new SlotSet();
        for (JoinOperand a : order) {
            double out = rows * estimator.estimate(a.scan, bound);
            if (!bound.isEmpty()) {
                double step = lookupCost(rows);
                if (rows >= MIN_PROBE_ROWS && keys(a.scan, bound, bound) != null) {
                    step = Math.min(step, hashCost(a.scan, rows));
                }
                cost += step;
            }
            cost += out;
            rows = out;
            bound.addAll(a.assured);
        }
        return cost;
    }

    /** Building the pattern's table and probing it {@code rowsIn} times; infinite past {@link #MAX_BUILD_ROWS}. */
    private double hashCost(PatternScan scan, double rowsIn) {
        double size = estimator.estimate(scan, Set.of());
        return size > MAX_BUILD_ROWS ? Double.POSITIVE_INFINITY
                : JoinCostModel.BUILD_COST * size + (size >= LARGE_TABLE_ROWS ? LARGE_TABLE_PROBE_COST : TABLE_PROBE_COST) * rowsIn;
    }

    /**
     * {@code rest} with {@code closing} put in after the first operand after which all its
     * variables are bound, or null if that never happens.
     */
    private static List<JoinOperand> closedBy(List<JoinOperand> rest, JoinOperand closing) {
        SlotSet bound = new SlotSet();
        for (int i = 0; i < rest.size(); i++) {
            bound.addAll(rest.get(i).assured);
            if (bound.containsAll(closing.assured)) {
                List<JoinOperand> out = new ArrayList<>(rest);
                out.add(i + 1, closing);
                return out;
            }
        }
        return null;
    }

    /**
     * The slots of {@code scan}'s variables the left rows may bind ({@code mentioned}) if the rows
     * always bind all of them ({@code certain}) and there is at least one; else null (a hash
     * table needs a key, and its matches must be compatible with every row of their key).
     */
    private static int[] keys(PatternScan scan, SlotSet certain, SlotSet mentioned) {
        SlotSet keys = new SlotSet();
        for (int slot : scan.slots()) {
            if (slot >= 0 && mentioned.contains(slot)) {
                if (!certain.contains(slot)) {
                    return null;
                }
                keys.add(slot);
            }
        }
        if (keys.isEmpty()) {
            return null;
        }
        int[] out = new int[keys.size()];
        int i = 0;
        for (int slot : keys) {
            out[i++] = slot;
        }
        return out;
    }
}
