package dev.basalt.sail.inference;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

import dev.basalt.store.io.TaskResults;
import dev.basalt.store.lexicon.TermIds;

/**
 * The semi-naive rounds of one closure run. Conclusions are gathered in memory without repeats
 * and written into the inferred set in bulk, at the end of each pivot batch (or when
 * {@value #FLUSH} distinct conclusions are waiting): sorted, checked against the store in key
 * order and inserted index by index in key order ({@link ClosureStore#addInferredAll}), instead of
 * two lookups and an insert into every index per conclusion. The triples a write adds become the
 * pivots of the next round ({@link TripleQueue}: a block in the heap, the rest in a temporary
 * file, so a round may add more triples than the heap holds); the rounds end when one concludes
 * nothing new. A round's pivots are taken a block at a time, each block's conclusions written
 * before the next block.
 *
 * <p>Writing a round's conclusions late keeps the evaluation complete: the store only grows during
 * a run, and every new triple is a pivot of a round that starts after it was written, so for two
 * premises of a rule the later one written meets the other in the store when it is a pivot.
 *
 * <p>With a {@code helper} (a full closure, which writes no explicit statement), a write is split
 * in two: the helper thread sorts the batch and drops its explicit triples
 * ({@link ClosureStore#notExplicitSorted}) while the owner's thread goes on evaluating the rules
 * for the next batch, and the owner inserts the batch into the inferred indices when the next
 * write is handed over, or at the end of the round at the latest ({@link #drain}), so every round
 * still starts with all of the previous round's conclusions written.
 *
 * <p>A conclusion whose subject is a literal or whose predicate is not an IRI (a subproperty axiom
 * naming a blank node) is dropped, and so is a typing by a literal (a domain, range or superclass
 * given as a literal names no class). Not thread-safe: one closure run uses it, on the thread that
 * holds the write transaction; only the batch it hands to the helper is read by another thread.
 */
final class Rounds implements AutoCloseable {
    /** Distinct conclusions held in memory before they are written. */
    static final int FLUSH = 1 << 18;
    private final ClosureStore store;
    private final Rules rules;
    /** Sorts and filters handed-over batches; null to write each batch in the owner's thread. */
    private final ExecutorService helper;
    private final TripleList conclusions = new TripleList();
    private TripleSet pending = new TripleSet();
    /** The pivots of the next round: what the writes of this round added (spilled to a file past a block). */
    private TripleQueue next;
    /** The batch the helper is preparing, not yet inserted; null if none. */
    private Future<long[][]> handedOver;
    private long added;
    private int count;

    Rounds(ClosureStore store, Rules rules) {
        this(store, rules, null);
    }

    /** @param helper a thread for the explicit-set half of each write, or null (ignored for a store that does not split writes) */
    Rounds(ClosureStore store, Rules rules, ExecutorService helper) {
        this.store = store;
        this.rules = rules;
        this.helper = store.splitsWrites() ? helper : null;
        this.next = new TripleQueue(store.scratchDir());
    }

    /** Adds a conclusion to the closure if it is new there (at the next write); a new one is a pivot of the next round. */
    void conclude(long s, long p, long o) {
        if (!TermIds.isResource(s) || TermIds.kindCode(p) != TermIds.KIND_IRI
                || p == rules.typeId() && !TermIds.isResource(o)) {
            return;
        }
        pending.add(s, p, o);
        if (pending.size() >= FLUSH) {
            write();
        }
    }

    /** Applies the rules with each triple of {@code pivots} as one premise, and writes what they conclude. */
    void pivot(TripleList pivots) {
        for (int i = 0; i < pivots.size(); i++) {
            conclusions.clear();
            rules.forward(pivots.s(i), pivots.p(i), pivots.o(i), conclusions);
            for (int k = 0; k < conclusions.size(); k++) {
                conclude(conclusions.s(k), conclusions.p(k), conclusions.o(k));
            }
        }
        write();
    }

    /** Writes the waiting conclusions, then runs rounds until none concludes anything new. */
    void run() {
        write();
        drain();
        while (!next.isEmpty()) {
            TripleQueue delta = next;
            next = new TripleQueue(store.scratchDir());
            count++;
            try {
                delta.drainTo(this::pivot);
            } finally {
                delta.close();
            }
            drain();
        }
    }

    /** Deletes the file of pivots a failed run may leave. */
    @Override
    public void close() {
        next.close();
    }

    private void write() {
        if (pending.size() == 0) {
            return;
        }
        TripleList batch = pending.list();
        pending = new TripleSet();
        if (helper == null) {
            inserted(store.addInferredAll(batch));
            return;
        }
        Future<long[][]> f = helper.submit(() -> store.notExplicitSorted(batch));
        drain();
        handedOver = f;
    }

    /** Inserts the batch handed to the helper, if any, once the helper has prepared it. */
    private void drain() {
        if (handedOver == null) {
            return;
        }
        long[][] quads;
        try {
            quads = TaskResults.await(handedOver, "preparing conclusions on the closure's helper");
        } finally {
            handedOver = null;
        }
        inserted(store.insertInferred(quads));
    }

    private void inserted(TripleList written) {
        next.addAll(written);
        added += written.size();
    }

    long added() {
        return added;
    }

    int count() {
        return count;
    }
}
