package dev.basalt.sail.inference;

import java.util.function.Consumer;

import dev.basalt.store.quads.QuadIndexes;

/**
 * The closure as one open transaction will see it, before its commit: the explicit and inferred
 * statements of a commit point (read only) with the transaction's explicit changes and the
 * reasoner's conclusions kept in memory beside them. {@link Reasoner#maintain} runs on it exactly
 * as it runs at commit on the write transaction's indices; afterwards {@link #inferredAdded} and
 * {@link #inferredRemoved} say how the transaction's inferred statements differ from the commit
 * point's. The commit point's trees are never written.
 *
 * <p>Meant for the changes of a transaction, which it holds in the heap (a change of the schema
 * recomputes the whole closure, into the heap too: the caller decides whether the store is small
 * enough for that). Not thread-safe: one per preview, used by the thread of the transaction.
 */
public final class PreviewClosure extends ClosureStore {
    private final TripleIndex explicitAdded = new TripleIndex();
    private final TripleIndex explicitRemoved = new TripleIndex();
    private final TripleIndex inferredAdded = new TripleIndex();
    private final TripleIndex inferredRemoved = new TripleIndex();
    /** True once the closure was recomputed: no inferred statement of the commit point counts. */
    private boolean cleared;

    /** @param explicit and {@code inferred}: the statement indices of the commit point the preview builds on */
    public PreviewClosure(QuadIndexes explicit, QuadIndexes inferred) {
        super(explicit, inferred, () -> {
            throw new IllegalStateException("a preview never clears the commit point's trees");
        });
    }

    /** True if the triple is explicit (in some context) in the preview's present state. */
    public boolean isExplicitNow(long s, long p, long o) {
        return isExplicit(s, p, o);
    }

    /** Records that the transaction made a triple explicit that the commit point does not hold explicitly. */
    public void addExplicit(long s, long p, long o) {
        addExplicitDefault(s, p, o);
    }

    /** Records that the transaction removed the last explicit statement of a triple explicit in the commit point. */
    public void removeExplicit(long s, long p, long o) {
        removeExplicitDefault(s, p, o);
    }

    /** Triples inferred in the transaction's closure that the commit point does not infer. */
    public TripleList inferredAdded() {
        TripleList out = new TripleList();
        TripleList all = new TripleList();
        inferredAdded.addTo(all);
        for (int i = 0; i < all.size(); i++) {
            if (!cleared || !super.isInferred(all.s(i), all.p(i), all.o(i))) {
                out.add(all.s(i), all.p(i), all.o(i));
            }
        }
        return out;
    }

    /** Triples the commit point infers that the transaction's closure does not. */
    public TripleList inferredRemoved() {
        TripleList out = new TripleList();
        if (!cleared) {
            inferredRemoved.addTo(out);
            return out;
        }
        TripleList base = new TripleList();
        super.matchInferred(0, 0, 0, base);
        for (int i = 0; i < base.size(); i++) {
            if (!inferredAdded.contains(base.s(i), base.p(i), base.o(i))) {
                out.add(base.s(i), base.p(i), base.o(i));
            }
        }
        return out;
    }

    @Override
    boolean isInferred(long s, long p, long o) {
        if (inferredAdded.contains(s, p, o)) {
            return true;
        }
        return !cleared && !inferredRemoved.contains(s, p, o) && super.isInferred(s, p, o);
    }

    @Override
    boolean isExplicit(long s, long p, long o) {
        if (explicitAdded.contains(s, p, o)) {
            return true;
        }
        return !explicitRemoved.contains(s, p, o) && super.isExplicit(s, p, o);
    }

    /** Adds an inferred triple unless it is already in the closure; true if it was added. */
    private boolean addInferred(long s, long p, long o) {
        if (isInferred(s, p, o) || isExplicit(s, p, o)) {
            return false;
        }
        if (!cleared && inferredRemoved.remove(s, p, o)) {
            return true;
        }
        return inferredAdded.add(s, p, o);
    }

    /** The overlay is written and read by the owner's thread only: its writes are not split. */
    @Override
    boolean splitsWrites() {
        return false;
    }

    @Override
    TripleList addInferredAll(TripleList candidates) {
        TripleList added = new TripleList();
        for (int i = 0; i < candidates.size(); i++) {
            if (addInferred(candidates.s(i), candidates.p(i), candidates.o(i))) {
                added.add(candidates.s(i), candidates.p(i), candidates.o(i));
            }
        }
        return added;
    }

    @Override
    boolean removeInferred(long s, long p, long o) {
        if (inferredAdded.remove(s, p, o)) {
            return true;
        }
        return !cleared && super.isInferred(s, p, o) && inferredRemoved.add(s, p, o);
    }

    @Override
    void clearInferred() {
        cleared = true;
        inferredAdded.clear();
        inferredRemoved.clear();
    }

    @Override
    void matchExplicit(long s, long p, long o, TripleList out) {
        TripleList base = new TripleList();
        super.matchExplicit(s, p, o, base);
        keep(base, explicitRemoved, out);
        explicitAdded.match(s, p, o, out);
    }

    @Override
    void matchInferred(long s, long p, long o, TripleList out) {
        if (!cleared) {
            TripleList base = new TripleList();
            super.matchInferred(s, p, o, base);
            keep(base, inferredRemoved, out);
        }
        inferredAdded.match(s, p, o, out);
    }

    @Override
    void explicitBatches(int size, Consumer<TripleList> batch) {
        TripleList kept = new TripleList();
        super.explicitBatches(size, b -> {
            kept.clear();
            keep(b, explicitRemoved, kept);
            batch.accept(kept);
        });
        TripleList added = new TripleList();
        explicitAdded.addTo(added);
        batch.accept(added);
    }

    @Override
    boolean addExplicitDefault(long s, long p, long o) {
        return explicitRemoved.remove(s, p, o) || explicitAdded.add(s, p, o);
    }

    @Override
    boolean removeExplicitDefault(long s, long p, long o) {
        return explicitAdded.remove(s, p, o) || explicitRemoved.add(s, p, o);
    }

    /** Appends the triples of {@code from} that {@code dropped} does not hold to {@code out}. */
    private static void keep(TripleList from, TripleIndex dropped, TripleList out) {
        for (int i = 0; i < from.size(); i++) {
            if (dropped.size() == 0 || !dropped.contains(from.s(i), from.p(i), from.o(i))) {
                out.add(from.s(i), from.p(i), from.o(i));
            }
        }
    }
}
