package dev.basalt.sail.inference;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;

import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadCursor;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadSort;

/**
 * The statement indices of one open write transaction as the rules see them: the closure is the
 * union of the explicit statements (in any context) and the inferred ones, taken as triples.
 * Inferred statements are written into the default graph, and only for triples that are not
 * explicit in any context, so the inferred set is exactly the closure minus the explicit triples.
 *
 * <p>{@link PreviewClosure} extends it with an in-memory overlay over a commit point's indices, for a
 * transaction's inferences before its commit.
 *
 * <p>Used by one thread at a time, inside the write transaction that owns the indices, except
 * {@link #notExplicitSorted}, which a closure run may hand to a second thread (see there).
 */
public class ClosureStore {
    private final QuadIndexes explicit;
    private final QuadIndexes inferred;
    private final Runnable clearInferred;
    private final Path scratchDir;
    private final long[] probe = new long[4];
    /**
     * True when every explicit statement is in the default graph (known from two range counts when
     * an index starts with the context), so membership needs no scan of the other graphs.
     */
    private final boolean onlyDefaultGraph;

    /**
     * @param explicit      the explicit statements (read; written only to restore them during maintenance)
     * @param inferred      the inferred statements, which the reasoner owns
     * @param clearInferred empties every index of the inferred set
     */
    public ClosureStore(QuadIndexes explicit, QuadIndexes inferred, Runnable clearInferred) {
        this(explicit, inferred, clearInferred, null);
    }

    /**
     * @param scratchDir where a closure run's pivots beyond one block go ({@link TripleQueue}), or
     *                   null for the JVM's temporary directory
     */
    public ClosureStore(QuadIndexes explicit, QuadIndexes inferred, Runnable clearInferred, Path scratchDir) {
        this.scratchDir = scratchDir;
        this.explicit = explicit;
        this.inferred = inferred;
        this.clearInferred = clearInferred;
        boolean contextFirst = explicit.orders().stream().anyMatch(o -> o.name().startsWith("c"));
        this.onlyDefaultGraph = contextFirst
                && explicit.count(new long[] { 0, 0, 0, TermIds.DEFAULT_GRAPH }) == explicit.size();
    }

    /** Where a closure run spills its pivots, or null for the JVM's temporary directory. */
    Path scratchDir() {
        return scratchDir;
    }

    /** True if the triple is in the closure: explicit in some context, or inferred. */
    boolean has(long s, long p, long o) {
        return isInferred(s, p, o) || isExplicit(s, p, o);
    }

    boolean isInferred(long s, long p, long o) {
        return inferred.contains(quad(s, p, o, TermIds.DEFAULT_GRAPH));
    }

    boolean isExplicit(long s, long p, long o) {
        return isExplicit(s, p, o, probe);
    }

    private boolean isExplicit(long s, long p, long o, long[] quad) {
        quad[0] = s;
        quad[1] = p;
        quad[2] = o;
        quad[3] = TermIds.DEFAULT_GRAPH;
        if (explicit.contains(quad)) {
            return true;
        }
        return !onlyDefaultGraph && explicit.scan(new long[] { s, p, o, 0 }).next();
    }

    /**
     * Adds the triples of {@code candidates} (no repeats) that are not in the closure yet to the
     * inferred set, and returns them: sorted, tested against the explicit statements in key order,
     * and written into each inferred index in its own key order.
     */
    TripleList addInferredAll(TripleList candidates) {
        return insertInferred(notExplicitSorted(candidates));
    }

    /**
     * True if the write of conclusions may be split into {@link #notExplicitSorted} on another thread
     * and {@link #insertInferred} on the owner's: the explicit statements are in indices that
     * threads may read side by side while nobody writes them.
     */
    boolean splitsWrites() {
        return true;
    }

    /**
     * The first half of {@link #addInferredAll}: the quads of the default graph of the triples of
     * {@code candidates} (no repeats) that are not explicit, in key order. Reads the explicit
     * indices only, with arrays of its own: it may run on another thread than the owner's while
     * the owner reads the store and writes the inferred indices, as long as no explicit statement
     * is written meanwhile.
     */
    long[][] notExplicitSorted(TripleList candidates) {
        int n = candidates.size();
        long[] packed = new long[4 * n];
        for (int i = 0; i < n; i++) {
            packed[4 * i] = candidates.s(i);
            packed[4 * i + 1] = candidates.p(i);
            packed[4 * i + 2] = candidates.o(i);
            packed[4 * i + 3] = TermIds.DEFAULT_GRAPH;
        }
        QuadSort.sort(packed, n, new long[4 * n]);
        long[][] quads = new long[n][];
        long[] quad = new long[4];
        int m = 0;
        for (int i = 0; i < n; i++) {
            long s = packed[4 * i], p = packed[4 * i + 1], o = packed[4 * i + 2];
            if (!isExplicit(s, p, o, quad)) {
                quads[m++] = new long[] { s, p, o, TermIds.DEFAULT_GRAPH };
            }
        }
        return m == n ? quads : Arrays.copyOf(quads, m);
    }

    /** The second half of {@link #addInferredAll}: writes the quads not inferred yet, and returns their triples. */
    TripleList insertInferred(long[][] quads) {
        TripleList added = new TripleList();
        for (long[] q : inferred.addAll(quads)) {
            added.add(q[0], q[1], q[2]);
        }
        return added;
    }

    boolean removeInferred(long s, long p, long o) {
        return inferred.remove(new long[] { s, p, o, TermIds.DEFAULT_GRAPH });
    }

    void clearInferred() {
        clearInferred.run();
    }

    /**
     * Every closure triple matching the pattern (0 = unbound; context ignored), appended to
     * {@code out}; a triple explicit in several contexts or both explicit and inferred may appear
     * more than once. The scan ends before the caller writes anything.
     */
    void match(long s, long p, long o, TripleList out) {
        matchExplicit(s, p, o, out);
        matchInferred(s, p, o, out);
    }

    /** Like {@link #match} over the explicit statements only. */
    void matchExplicit(long s, long p, long o, TripleList out) {
        collect(explicit.scan(new long[] { s, p, o, 0 }), out);
    }

    /**
     * Hands every explicit triple to {@code batch}, in batches of at most {@code size} (a triple
     * explicit in several contexts once per run of equal triples in the primary index's order).
     */
    void explicitBatches(int size, Consumer<TripleList> batch) {
        TripleList out = new TripleList();
        QuadCursor c = explicit.scan(new long[4]);
        long ps = 0, pp = 0, po = 0;
        while (c.next()) {
            long[] q = c.quad();
            if (q[0] == ps && q[1] == pp && q[2] == po) {
                continue;
            }
            ps = q[0];
            pp = q[1];
            po = q[2];
            out.add(ps, pp, po);
            if (out.size() == size) {
                batch.accept(out);
                out.clear();
            }
        }
        batch.accept(out);
    }

    /** Like {@link #match} over the inferred statements only. */
    void matchInferred(long s, long p, long o, TripleList out) {
        collect(inferred.scan(new long[] { s, p, o, 0 }), out);
    }

    /** Adds a quad of the default graph to the explicit set (to restore a removed triple during maintenance). */
    boolean addExplicitDefault(long s, long p, long o) {
        return explicit.add(new long[] { s, p, o, TermIds.DEFAULT_GRAPH });
    }

    boolean removeExplicitDefault(long s, long p, long o) {
        return explicit.remove(new long[] { s, p, o, TermIds.DEFAULT_GRAPH });
    }

    private static void collect(QuadCursor c, TripleList out) {
        while (c.next()) {
            long[] q = c.quad();
            out.add(q[0], q[1], q[2]);
        }
    }

    private long[] quad(long s, long p, long o, long c) {
        probe[0] = s;
        probe[1] = p;
        probe[2] = o;
        probe[3] = c;
        return probe;
    }
}
