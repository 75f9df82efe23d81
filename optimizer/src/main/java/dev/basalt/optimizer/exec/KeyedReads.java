package dev.basalt.optimizer.exec;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How a {@link GroupJoinOp} reads each of its patterns: scanned whole, or looked up once per key of
 * one of its children's tables (the pattern opened with the variable it shares with that child
 * bound). A pattern's matches that no child holds a key for add nothing to the aggregate, so where a
 * child's table is small (a leaf with a constant, such as {@code ?reviewer :country :DE}, or a
 * pattern itself read from a small table) the lookups of its keys read only the matches that can
 * count. BSBM's BI query 1 then reads the reviews of one country's reviewers, their products and the
 * products of one country's producers (about 20,000 lookups at 10M) instead of scanning its seven
 * patterns (1.5M matches).
 *
 * <p>Planned from the estimates ({@link #plan}), leaves to root: the cost of a pattern's drive by a
 * child is that child's estimated rows (an upper bound of its keys) times a lookup
 * ({@link #LOOKUP_COST} units) plus the rows the lookups read (the child's rows times the pattern's
 * matches per key); it is driven by the cheapest child where that costs less than scanning its
 * matches (a unit each). The run checks the real number of keys: a driving table with more keys
 * than the scan's cost allows for is not used, and the pattern is scanned ({@link #takes}). The reads'
 * cost ({@link #cost}) counts the scanned matches in full and the driven reads at {@link #DRIVEN_UNIT}.
 * Keys are looked up in id order, so that successive lookups reuse their index path.
 * Immutable once planned; cursors belong to the query's thread.
 */
public final class KeyedReads {
    /** Units of an index lookup against one of a row read (as the join cost model counts them). */
    static final double LOOKUP_COST = 4;
    /**
     * Units of an index lookup against one of a scanned match whose key is tested in a bitmap
     * ({@link IdKeySet}): such a scan reads about 30 matches in the time of one lookup (BSBM BI query 3
     * at 100M: 2.85M matches scanned and tested in about 100 ms of CPU, a month's reviews looked up
     * at about 1.25 microseconds each), so a pattern whose driving child's keys are a bitmap is
     * looked up only for fewer keys.
     */
    static final double BITMAP_LOOKUP_COST = 32;
    /**
     * The weight of a unit of the driven reads against one of the planned joins: a quarter. A weight,
     * not a calibration: the driven lookups come in key order (each reuses the index path of the one
     * before) and fill arrays of ids without joined rows, and a child's keys are estimated by an upper
     * bound (its rows). Scanned matches count in full, so that a selective query keeps its lookups.
     */
    public static final double DRIVEN_UNIT = 0.25;

    /** Matches per key of a pattern with one slot bound: the planner's estimate. */
    public interface Fanout {
        double perKey(PatternScan scan, int slot);
    }

    /** Per pattern: the child whose keys drive its reads, or -1 for a scan. */
    private final int[] driver;
    /** Per driven pattern: the most keys for which the lookups cost less than the scan. */
    private final double[] maxKeys;
    /** Per pattern: as {@link #maxKeys} where the driving child's keys are a bitmap ({@link #BITMAP_LOOKUP_COST}). */
    private final double[] maxBitmapKeys;
    /** Per pattern: its estimated rows as planned (the matches it reads). */
    private final double[] rows;
    private final double cost;

    private KeyedReads(int[] driver, double[] maxKeys, double[] maxBitmapKeys, double[] rows, double cost) {
        this.driver = driver;
        this.maxKeys = maxKeys;
        this.maxBitmapKeys = maxBitmapKeys;
        this.rows = rows;
        this.cost = cost;
    }

    /** Every pattern scanned whole. */
    static KeyedReads scans(List<PatternScan> patterns) {
        int n = patterns.size();
        int[] none = new int[n];
        Arrays.fill(none, -1);
        double[] rows = new double[n];
        double cost = 0;
        for (int p = 0; p < n; p++) {
            rows[p] = Math.max(0, patterns.get(p).estimate());
            cost += rows[p];
        }
        return new KeyedReads(none, new double[n], new double[n], rows, cost);
    }

    /** The reads of {@code patterns} over {@code tree} with the cheapest drive of each pattern by the estimates. */
    static KeyedReads plan(List<PatternScan> patterns, JoinTree tree, Fanout fanout) {
        int n = patterns.size();
        int[] driver = new int[n];
        Arrays.fill(driver, -1);
        double[] maxKeys = new double[n];
        double[] maxBitmapKeys = new double[n];
        double[] rows = new double[n];
        double scanned = 0;
        double driven = 0;
        for (int p : tree.order) {
            double matches = Math.max(0, patterns.get(p).estimate());
            double best = matches;
            int[] kids = tree.children(p);
            double[] share = new double[kids.length];
            for (int i = 0; i < kids.length; i++) {
                int k = kids[i];
                int slot = tree.parentSlot[k];
                double perKey = Math.max(0, fanout.perKey(patterns.get(p), slot));
                // the share of the pattern's matches whose key the child's table holds (its rows bound its keys)
                share[i] = matches <= 0 ? 1 : Math.min(1, rows[k] * perKey / matches);
                double byKeys = rows[k] * (LOOKUP_COST + perKey);
                if (byKeys < best) {
                    best = byKeys;
                    driver[p] = k;
                    maxKeys[p] = matches / (LOOKUP_COST + perKey);
                    maxBitmapKeys[p] = matches / (BITMAP_LOOKUP_COST + perKey);
                }
            }
            if (driver[p] >= 0) {
                driven += best;
            } else {
                scanned += best;
            }
            // the pattern's rows that reach its table: those with a key in every child's table
            rows[p] = matches;
            for (double s : share) {
                rows[p] *= s;
            }
        }
        return new KeyedReads(driver, maxKeys, maxBitmapKeys, rows, scanned + DRIVEN_UNIT * driven);
    }

    /** Whether some pattern is planned to be driven by keys. */
    boolean anyDriven() {
        return Arrays.stream(driver).anyMatch(d -> d >= 0);
    }

    /** Whether pattern {@code p} is planned to be driven by a child's keys. */
    boolean driven(int p) {
        return driver[p] >= 0;
    }

    /** The child whose keys drive pattern {@code p}, or -1. */
    int driver(int p) {
        return driver[p];
    }

    /** The planned cost of all reads: the scanned matches, and the driven lookups and rows at {@link #DRIVEN_UNIT}. */
    double cost() {
        return cost;
    }

    /** Pattern {@code p}'s estimated rows as planned: the size its key table is made for. */
    double rows(int p) {
        return rows[p];
    }

    /** Whether pattern {@code p} is read by lookups of {@code keys} keys (else it is scanned). */
    boolean takes(int p, int keys) {
        return driver[p] >= 0 && keys <= maxKeys[p];
    }

    /** As {@link #takes} where the driving child's keys are a bitmap, whose scan is cheaper ({@link #BITMAP_LOOKUP_COST}). */
    boolean takesOverBitmap(int p, int keys) {
        return driver[p] >= 0 && keys <= maxBitmapKeys[p];
    }

    /** For EXPLAIN: the driven patterns and their bound. */
    String describe(List<PatternScan> patterns) {
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < driver.length; p++) {
            if (driver[p] >= 0) {
                sb.append(sb.length() == 0 ? "" : "; ").append(patterns.get(p).label())
                        .append(String.format(Locale.ROOT, " looked up per key of %s when keys <= %.3g",
                                patterns.get(driver[p]).label(), maxKeys[p]));
            }
        }
        return sb.toString();
    }

    /** The ids of {@code table}, sorted. */
    static long[] keys(IdSums table) {
        long[] out = new long[table.size()];
        int n = 0;
        for (int at = 0; at < table.end(); at += IdSums.stride()) {
            long id = table.id(at);
            if (id != 0) {
                out[n++] = id;
            }
        }
        out = n == out.length ? out : Arrays.copyOf(out, n);
        Arrays.sort(out);
        return out;
    }

    /**
     * The matches of {@code scan} for {@code input} with {@code slot} bound to each of {@code keys} in
     * turn, in batches: the rows a scan of the pattern would give that agree with one of the keys.
     */
    static BatchCursor lookups(PatternScan scan, long[] keys, int slot, long[] input, ExecContext ctx) {
        PatternLookup lookup = new PatternLookup(scan, ctx);
        long[] row = input.clone();
        Batch out = new Batch(input.length);
        return new BatchCursor() {
            int next;
            boolean open;

            @Override
            public Batch next() {
                out.size = 0;
                while (out.size < Batch.CAPACITY) {
                    if (!open) {
                        if (next == keys.length) {
                            break;
                        }
                        row[slot] = keys[next++];
                        lookup.start(row);
                        open = true;
                    }
                    if (lookup.fill(out, row)) {
                        open = false;
                    }
                }
                return out.size == 0 ? null : out;
            }

            @Override
            public void close() {
                lookup.countInto();
                lookup.close();
            }
        };
    }
}
