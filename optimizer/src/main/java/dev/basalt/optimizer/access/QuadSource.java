package dev.basalt.optimizer.access;

import java.util.Map;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;

/**
 * Everything the query engine reads of a store: one consistent state (a snapshot) seen as quads
 * of 64-bit term ids (layout in {@link dev.basalt.store.lexicon.TermIds}). A pattern is four ids
 * in S, P, O, C positions with {@link dev.basalt.store.lexicon.TermIds#NULL} (0) for "any"; the
 * default graph is the context id {@link dev.basalt.store.lexicon.TermIds#DEFAULT_GRAPH}.
 *
 * <p>Contract, shared by the store-backed implementation (sail module, over a snapshot and both
 * statement sets) and the in-memory twin of the tests:
 * <ul>
 * <li>{@link #scan} yields each matching quad once (a statement is in at most one set);
 * <li>{@link #count} is the exact number of quads {@link #scan} would yield;
 * <li>{@link #sample} returns up to {@code k} matching quads spread over the match range (all of
 * them if there are at most {@code k}), deterministically;
 * <li>{@link #lookup} of a value the state does not know returns 0, so a pattern holding it
 * matches nothing; inline literals (see {@code InlineValues}) always have an id;
 * <li>{@link #resolve} maps ids back to values, null for 0 and the default graph.
 * </ul>
 * A source is used by one query evaluation at a time and need not be thread-safe, unless it says
 * so with {@link #concurrentReads}.
 */
public interface QuadSource {

    /** Cursor over matching quads; {@link #next} fills {@code quad} (S, P, O, C) and returns false at the end. */
    interface Scan extends AutoCloseable {
        boolean next(long[] quad);

        /**
         * Moves over the next matches, up to {@code max}, writing each as four ids (S, P, O, C) into
         * {@code quads}, 4 per match; returns how many, 0 at the end. A source may read them a
         * block at a time; by default it calls {@link #next} per match.
         */
        default int nextBlock(long[] quads, int max) {
            return eachInto(this::next, quads, max);
        }

        /**
         * Whether {@link #nextColumns} reads the ids straight into the columns (a store's index scan);
         * else it copies them from {@link #nextBlock}, and a caller with a block of its own may as well
         * read blocks.
         */
        default boolean columnar() {
            return false;
        }

        /**
         * Moves over the next matches, up to {@code max}, writing the id at each position {@code i}
         * (S, P, O, C) of each into {@code cols[i]} from {@code off} on, where {@code cols[i]} is not
         * null (the others are not written); returns how many, 0 at the end. By default it copies the
         * matches of {@link #nextBlock}.
         */
        default int nextColumns(long[][] cols, int off, int max) {
            long[] quads = new long[4 * Math.max(0, Math.min(max, 1024))];
            int got = nextBlock(quads, quads.length / 4);
            for (int i = 0; i < 4; i++) {
                if (cols[i] != null) {
                    for (int e = 0; e < got; e++) {
                        cols[i][off + e] = quads[4 * e + i];
                    }
                }
            }
            return got;
        }

        @Override
        void close();
    }

    /** Up to {@code max} matches of {@code next}, one call each, into {@code quads}, four ids each. */
    private static int eachInto(java.util.function.Predicate<long[]> next, long[] quads, int max) {
        long[] quad = new long[4];
        int n = 0;
        while (n < max && next.test(quad)) {
            System.arraycopy(quad, 0, quads, 4 * n++, 4);
        }
        return n;
    }

    Scan scan(long[] pattern);

    /**
     * Scans one after another for one operator: opening a scan ends the previous one, and the
     * source may reuse its index cursors between them, so a lookup near the previous one reads
     * few pages (the inner side of a nested-loop join probes this way). Used by one thread.
     */
    interface Prober {
        Scan scan(long[] pattern);
    }

    /**
     * Matches of a pattern in ascending (unsigned) order of the id at one position, with forward
     * seeks: an input of a merge join ({@code IntersectOp}).
     */
    interface OrderedScan extends AutoCloseable {
        /** Moves forward to the first match whose id at the position is at least {@code min} (unsigned); false at the end. */
        boolean seek(long min, long[] quad);

        /** The next match in order; false at the end. */
        boolean next(long[] quad);

        /**
         * The next matches in order, up to {@code max}, four ids each (S, P, O, C) into
         * {@code quads}; returns how many, 0 at the end. It continues after the last match that
         * {@link #seek}, {@link #next} or this method gave, and {@link #seek} continues after the
         * last match this method gave. A source may read them a block of index entries at a time;
         * by default it calls {@link #next} per match.
         */
        default int nextBlock(long[] quads, int max) {
            return eachInto(this::next, quads, max);
        }

        @Override
        void close();
    }

    /** True if {@link #orderedScan} can give this pattern's matches ordered by {@code position}. */
    default boolean canOrder(long[] pattern, int position) {
        return false;
    }

    /** The pattern's matches ordered by {@code position}, or null if {@link #canOrder} is false. */
    default OrderedScan orderedScan(long[] pattern, int position) {
        return null;
    }

    /**
     * True if several threads of one evaluation may call this source at once (each with scans and
     * probers of its own): a committed snapshot, read only. Lets {@code ParallelJoin} use helper
     * threads. False by default.
     */
    default boolean concurrentReads() {
        return false;
    }

    /**
     * Up to {@code k} matches in scan order: the {@link #sample} of a source (or of a pattern) whose
     * index cannot pick matches spread over the range by rank.
     */
    default long[][] firstMatches(long[] pattern, int k) {
        java.util.List<long[]> out = new java.util.ArrayList<>();
        try (Scan s = scan(pattern)) {
            long[] q = new long[4];
            while (out.size() < k && s.next(q)) {
                out.add(q.clone());
            }
        }
        return out.toArray(new long[0][]);
    }

    /** A {@link Prober}; by default each scan is independent. */
    default Prober prober() {
        return this::scan;
    }

    /**
     * The spatial index of this state if it has one that covers every geometry term it holds, else
     * null (the engine then tests geometries without it).
     */
    default SpatialIndexReader spatialIndex() {
        return null;
    }

    /** The exact number of matches (answers {@code COUNT(*)}). */
    long count(long[] pattern);

    /**
     * The number of matches for planning: join ordering, fan-out samples and scan choices, never
     * answers. Exact by default; a source whose exact counts cost a scan gives a cheaper estimate.
     */
    default long estimate(long[] pattern) {
        return count(pattern);
    }

    /** Up to {@code k} matching quads, spread evenly over the matches. */
    long[][] sample(long[] pattern, int k);

    long lookup(Value value);

    /** Values of many ids at once (index-aligned); null for 0 and the default graph. */
    Value[] resolve(long[] ids);

    /**
     * A source whose {@link #resolve} and {@link #lookup} give what this one's give: itself, or for a wrapper that
     * resolves and looks up through the source it wraps, that source's. An evaluation resolves and looks up through
     * it, so that its call sites for the values and ids of terms see the store's sources and not each wrapper (a
     * wrapper's extra receiver class there makes the JIT drop and recompile the code around them when it appears).
     */
    default QuadSource resolver() {
        return this;
    }

    /**
     * The store's shared cache of the values derived from committed terms by the pure function
     * named by {@code function} (compared by {@code equals}); null where the source has no such
     * cache (the default) or its ids may be uncommitted.
     */
    default DerivedValues derivedValues(Object function) {
        return null;
    }

    ValueFactory valueFactory();

    /**
     * For planning only: the value to estimate with for each constant of a condition that stands for another
     * value in every evaluation (a kept plan's sentinel, {@code ShapePlans}), namely the compiling query's own;
     * null (the default) where a condition's constants are the query's own values. Answers never depend on it.
     */
    default Map<Value, Value> plannedConditionValues() {
        return null;
    }
}
