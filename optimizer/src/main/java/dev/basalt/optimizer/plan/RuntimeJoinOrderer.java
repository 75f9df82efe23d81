package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.store.lexicon.TermIds;

/**
 * Orders the patterns of one join group by running the join on samples (DESIGN §7), after the
 * idea of Blazegraph's runtime optimizer and ROX: every pattern is sampled ({@link QuadSource#sample},
 * up to {@code cutoff} matches) and counted; a partial order (a <em>path</em>) carries a sample of
 * its result rows and an estimate of its result size. A path is extended by one pattern with a
 * <em>cut-off join</em>: its sample rows are joined with the pattern by index lookups until
 * {@code cutoff} output rows exist (the extended path's sample), and the extended estimate is the
 * path's estimate times the mean fan-out of the consumed input rows, each counted exactly by a range
 * count of the pattern with the row's values (the counted B+trees make this cheap, so a cut-off
 * inside one large fan-out does not bias the estimate down, as pure cut-off counting would). Paths grow edge by edge (a pattern sharing a variable with the
 * path first, a disconnected one only when none does); of paths over the same set of patterns only
 * the cheapest is kept, and of each round only the {@code beam} cheapest. The cost of a path is the
 * sum of its estimated intermediate result sizes (the rows a pipelined plan produces and looks up),
 * and the cheapest complete path is the order.
 *
 * <p>Estimates are exact while the samples hold every row (small patterns, no cut-off). A cut-off
 * join whose consumed rows match nothing, from a partial sample, estimates half a row per consumed row; one
 * whose input sample is empty keeps the path's estimate. Filters of the group are not applied to
 * samples. Deterministic for a given state of the source. Groups of more than 64 patterns are not
 * ordered here (the caller keeps the static order).
 * Not thread-safe: made and used by one query's plan compiler, in the compiling thread.
 */
final class RuntimeJoinOrderer {
    static final int MAX_PATTERNS = 64;
    /** Paths kept per round. */
    static final int BEAM = 24;
    private final QuadSource source;
    private final int width;
    private final int cutoff;
    private final int beam;

    /** The chosen order (indices into the input list) and the estimated rows after each step. */
    record Result(int[] order, double[] rows) {
    }

    /**
     * @param width number of variable slots of a row
     * @param cutoff sample size per pattern and output limit per cut-off join
     */
    RuntimeJoinOrderer(QuadSource source, int width, int cutoff, int beam) {
        this.source = source;
        this.width = width;
        this.cutoff = cutoff;
        this.beam = beam;
    }

    private record Path(int[] order, long mask, double[] rows, double cost, long[][] sample, boolean exact,
            BitSet bound) {
        double last() {
            return rows[rows.length - 1];
        }
    }

    Result order(List<PatternScan> patterns) {
        int n = patterns.size();
        if (n > MAX_PATTERNS) {
            throw new IllegalArgumentException("runtime ordering takes at most " + MAX_PATTERNS + " patterns, got " + n);
        }
        List<Path> paths = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            paths.add(start(patterns.get(i), i));
        }
        for (int round = 1; round < n; round++) {
            Map<Long, Path> best = new HashMap<>();
            for (Path p : paths) {
                boolean anyConnected = false;
                for (int v = 0; v < n; v++) {
                    anyConnected |= (p.mask & 1L << v) == 0 && connected(patterns.get(v), p.bound);
                }
                for (int v = 0; v < n; v++) {
                    if ((p.mask & 1L << v) != 0 || anyConnected && !connected(patterns.get(v), p.bound)) {
                        continue;
                    }
                    Path q = extend(p, patterns.get(v), v);
                    best.merge(q.mask, q, (a, b) -> cheaper(a, b) ? a : b);
                }
            }
            paths = new ArrayList<>(best.values());
            paths.sort(RuntimeJoinOrderer::compare);
            if (paths.size() > beam) {
                paths = new ArrayList<>(paths.subList(0, beam));
            }
        }
        paths.sort(RuntimeJoinOrderer::compare);
        Path chosen = paths.get(0);
        return new Result(chosen.order, chosen.rows);
    }

    private static boolean cheaper(Path a, Path b) {
        return compare(a, b) <= 0;
    }

    /** Cheaper first; ties by the written order of the patterns, so the choice is deterministic. */
    private static int compare(Path a, Path b) {
        int c = Double.compare(a.cost, b.cost);
        if (c != 0) {
            return c;
        }
        return Arrays.compare(a.order, b.order);
    }

    private Path start(PatternScan scan, int index) {
        long[] constants = scan.constants();
        long count = scan.matchesNothing() ? 0 : source.estimate(constants);
        List<long[]> rows = new ArrayList<>();
        long[][] quads = count == 0 ? new long[0][] : source.sample(constants, cutoff);
        long[] empty = new long[width];
        for (long[] quad : quads) {
            long[] row = bind(scan, empty, quad);
            if (row != null) {
                rows.add(row);
            }
        }
        // the sample is spread over the matches, so the share of rows that bind stands for all of them
        double est = quads.length == 0 ? 0 : (double) count * rows.size() / quads.length;
        BitSet bound = new BitSet();
        for (int s : scan.slots()) {
            if (s >= 0) {
                bound.set(s);
            }
        }
        return new Path(new int[] { index }, 1L << index, new double[] { est }, est, rows.toArray(new long[0][]),
                count <= cutoff, bound);
    }

    private Path extend(Path p, PatternScan scan, int index) {
        List<long[]> out = new ArrayList<>();
        boolean cut = false;
        long matches = 0;
        int consumed = 0;
        long[] constants = scan.constants();
        int[] slots = scan.slots();
        long[] pattern = new long[4];
        long[] quad = new long[4];
        if (!scan.matchesNothing()) {
            for (long[] row : p.sample) {
                consumed++;
                scan.substitute(row, pattern);
                // each consumed row's fan-out is counted exactly (a range count), also the row whose
                // matches overflow the cut-off: only the rows carried on as the new sample stop there
                matches += source.estimate(pattern);
                try (QuadSource.Scan s = source.scan(pattern)) {
                    while (s.next(quad)) {
                        long[] r = bind(scan, row, quad);
                        if (r == null) {
                            continue;
                        }
                        if (out.size() == cutoff) {
                            cut = true;
                            break;
                        }
                        out.add(r);
                    }
                }
                if (cut) {
                    break;
                }
            }
        }
        double est;
        if (scan.matchesNothing()) {
            est = 0;
        } else if (p.sample.length == 0) {
            est = p.last();
        } else if (matches == 0 && !p.exact) {
            est = p.last() / (2.0 * consumed);
        } else {
            est = p.last() * matches / consumed;
        }
        int[] order = Arrays.copyOf(p.order, p.order.length + 1);
        order[order.length - 1] = index;
        double[] rows = Arrays.copyOf(p.rows, p.rows.length + 1);
        rows[rows.length - 1] = est;
        BitSet bound = (BitSet) p.bound.clone();
        for (int s : slots) {
            if (s >= 0) {
                bound.set(s);
            }
        }
        return new Path(order, p.mask | 1L << index, rows, p.cost + est, out.toArray(new long[0][]),
                p.exact && !cut, bound);
    }

    private static boolean connected(PatternScan scan, BitSet bound) {
        for (int s : scan.slots()) {
            if (s >= 0 && bound.get(s)) {
                return true;
            }
        }
        return false;
    }

    /** The row extended with the quad's values, or null if the quad contradicts it (as {@link PatternScan} does). */
    private static long[] bind(PatternScan scan, long[] row, long[] quad) {
        // a match outside the pattern's object ranges fails the group's FILTER: not a row of the join
        if (scan.namedGraphsOnly() && quad[3] == TermIds.DEFAULT_GRAPH || !scan.inPlannedRanges(quad[2])) {
            return null;
        }
        int[] slots = scan.slots();
        long[] r = row.clone();
        for (int i = 0; i < 4; i++) {
            int s = slots[i];
            if (s >= 0) {
                if (r[s] == TermIds.NULL) {
                    r[s] = quad[i];
                } else if (r[s] != quad[i]) {
                    return null;
                }
            }
        }
        return r;
    }
}
