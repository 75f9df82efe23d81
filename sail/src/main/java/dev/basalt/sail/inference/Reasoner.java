package dev.basalt.sail.inference;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.config.InferenceMode;

/**
 * Keeps the inferred statements of a store equal to the closure of its explicit statements under
 * the rules of an {@link InferenceMode} (see {@link Rules} and docs/sail.md, "Reasoning").
 *
 * <p>{@link #closeFully} computes the closure from scratch: the inferred set is emptied, the schema
 * compiled, and the rules run semi-naive, set at a time: round 0 takes every explicit triple as
 * the pivot, each later round only the triples the round before added, joined against everything
 * in the store; with a second processor, a helper thread sorts each batch of conclusions and drops
 * the explicit ones while the rules run on (see {@link Rounds}). {@link #maintain} updates it after a transaction's explicit changes: removals by
 * delete-and-rederive (over-delete everything derived from a removed triple, then put back what
 * is still derivable in one step from what is left, then run the additions' rounds), additions by
 * the same semi-naive rounds started from the added triples. A change of a schema statement
 * (see {@link Schema#isSchemaTriple}) recomputes the closure.
 *
 * <p>The schema tables compiled for a commit point are kept ({@link #committed}) and reused by the
 * next maintenance that builds on that same commit point and changes no schema statement, instead
 * of being compiled again at every commit.
 *
 * <p>Thread rules: a closure run or maintenance runs in the thread that owns the open write
 * transaction, or (a preview, see {@link PreviewClosure}) in a connection's thread; a full closure
 * of the store's indices also starts a helper thread of its own for the run; they share
 * nothing but the kept schema, an immutable value in a volatile field, so one instance serves a
 * store for its lifetime.
 */
public final class Reasoner {
    private static final Logger LOG = LoggerFactory.getLogger(Reasoner.class);
    /** Explicit triples of round 0 of a full closure taken per batch. */
    private static final int ROUND0_BATCH = 100_000;
    private final InferenceMode mode;
    /** The schema compiled for one commit point, by its commit counter. */
    private record KeptSchema(long commit, Schema schema) {
    }

    private volatile KeptSchema kept;

    /** The schema tables one maintenance ran with, to keep for the commit point it becomes ({@link #committed}). */
    public static final class Compiled {
        private final Schema schema;

        private Compiled(Schema schema) {
            this.schema = schema;
        }
    }

    public Reasoner(InferenceMode mode) {
        if (mode == InferenceMode.NONE) {
            throw new IllegalArgumentException("a reasoner needs a rule set, not " + mode);
        }
        this.mode = mode;
    }

    public InferenceMode mode() {
        return mode;
    }

    /**
     * Replaces the inferred statements by the closure of the explicit ones.
     *
     * @param terms the dictionary of the open transaction
     * @return the number of inferred triples written
     */
    public long closeFully(ClosureStore store, ReasonerTerms terms) {
        return closeFully(store, new Vocabulary(terms));
    }

    private long closeFully(ClosureStore store, Vocabulary v) {
        long start = System.nanoTime();
        store.clearInferred();
        Schema schema = Schema.read(store, v, mode == InferenceMode.OWL_RL);
        Rules rules = new Rules(schema, v, store);
        ExecutorService helper = Runtime.getRuntime().availableProcessors() > 1
                ? Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "basalt-closure-helper");
                    t.setDaemon(true);
                    return t;
                })
                : null;
        Rounds rounds = new Rounds(store, rules, helper);
        try {
            TripleList schemaTriples = schema.entailed.list();
            for (int i = 0; i < schemaTriples.size(); i++) {
                rounds.conclude(schemaTriples.s(i), schemaTriples.p(i), schemaTriples.o(i));
            }
            store.explicitBatches(ROUND0_BATCH, rounds::pivot);
            rounds.run();
        } finally {
            rounds.close();
            if (helper != null) {
                helper.shutdownNow();
            }
        }
        LOG.debug("{} closure: {} inferred triples in {} rounds, {} ms", mode.label(), rounds.added(), rounds.count(),
                (System.nanoTime() - start) / 1_000_000);
        return rounds.added();
    }

    /**
     * Brings the closure up to date after explicit changes: {@code added} and {@code removed} are
     * the triples whose explicit statements (in some context) the transaction added and removed;
     * the explicit indices already hold the new state. The changes were made over commit point
     * {@code base} (its commit counter, or -1 if unknown): the schema kept for that commit point is
     * reused when no schema statement changed.
     *
     * @return the schema tables of the changed state, for {@link #committed}; null after a closure recomputation
     */
    public Compiled maintain(ClosureStore store, ReasonerTerms terms, TripleList added, TripleList removed,
            long base) {
        Vocabulary v = new Vocabulary(terms);
        boolean owl = mode == InferenceMode.OWL_RL;
        if (touchesSchema(v, owl, added) || touchesSchema(v, owl, removed)) {
            LOG.debug("a schema statement changed: recomputing the {} closure", mode.label());
            closeFully(store, v);
            return null;
        }
        KeptSchema k = kept;
        Schema schema = k != null && base >= 0 && k.commit() == base ? k.schema() : Schema.read(store, v, owl);
        Rules rules = new Rules(schema, v, store);
        for (int i = 0; i < added.size(); i++) {
            store.removeInferred(added.s(i), added.p(i), added.o(i));
        }
        TripleSet gone = new TripleSet();
        for (int i = 0; i < removed.size(); i++) {
            if (!store.isExplicit(removed.s(i), removed.p(i), removed.o(i))) {
                gone.add(removed.s(i), removed.p(i), removed.o(i));
            }
        }
        try (Rounds rounds = new Rounds(store, rules)) {
            if (gone.size() > 0) {
                TripleSet dead = overDelete(store, rules, schema, gone);
                rederive(store, rules, gone.list(), rounds);
                rederive(store, rules, dead.list(), rounds);
            }
            rounds.pivot(added);
            rounds.run();
        }
        return new Compiled(schema);
    }

    /**
     * Removes from the inferred set every triple with a derivation that uses a removed triple,
     * transitively, evaluated against the closure as it was (the removed triples are put back into
     * the explicit indices while the rules run); returns the removed inferred triples.
     */
    private static TripleSet overDelete(ClosureStore store, Rules rules, Schema schema, TripleSet gone) {
        TripleList goneList = gone.list();
        for (int i = 0; i < goneList.size(); i++) {
            store.addExplicitDefault(goneList.s(i), goneList.p(i), goneList.o(i));
        }
        TripleSet dead = new TripleSet();
        TripleList delta = goneList;
        TripleList conclusions = new TripleList();
        while (!delta.isEmpty()) {
            TripleList next = new TripleList();
            for (int i = 0; i < delta.size(); i++) {
                conclusions.clear();
                rules.forward(delta.s(i), delta.p(i), delta.o(i), conclusions);
                for (int k = 0; k < conclusions.size(); k++) {
                    long s = conclusions.s(k), p = conclusions.p(k), o = conclusions.o(k);
                    if (!schema.entailed.contains(s, p, o) && store.isInferred(s, p, o) && dead.add(s, p, o)) {
                        next.add(s, p, o);
                    }
                }
            }
            delta = next;
        }
        for (int i = 0; i < goneList.size(); i++) {
            store.removeExplicitDefault(goneList.s(i), goneList.p(i), goneList.o(i));
        }
        TripleList d = dead.list();
        for (int i = 0; i < d.size(); i++) {
            store.removeInferred(d.s(i), d.p(i), d.o(i));
        }
        return dead;
    }

    /** Puts back the candidates still derivable in one step; each becomes a pivot of the next rounds. */
    private static void rederive(ClosureStore store, Rules rules, TripleList candidates, Rounds rounds) {
        for (int i = 0; i < candidates.size(); i++) {
            long s = candidates.s(i), p = candidates.p(i), o = candidates.o(i);
            if (!store.has(s, p, o) && rules.derivable(s, p, o)) {
                rounds.conclude(s, p, o);
            }
        }
    }

    /**
     * Tells the reasoner that the state a maintenance returned {@code compiled} for became commit
     * point {@code commit}: its schema is kept for the maintenance of the next transaction, which
     * builds on that commit point.
     */
    public void committed(long commit, Compiled compiled) {
        kept = compiled == null ? null : new KeptSchema(commit, compiled.schema);
    }

    /**
     * True if adding and removing these explicit triples changes the schema, so that
     * {@link #maintain} recomputes the whole closure.
     */
    public boolean changesSchema(ReasonerTerms terms, TripleList added, TripleList removed) {
        Vocabulary v = new Vocabulary(terms);
        boolean owl = mode == InferenceMode.OWL_RL;
        return touchesSchema(v, owl, added) || touchesSchema(v, owl, removed);
    }

    private static boolean touchesSchema(Vocabulary v, boolean owl, TripleList triples) {
        for (int i = 0; i < triples.size(); i++) {
            if (Schema.isSchemaTriple(v, owl, triples.s(i), triples.p(i), triples.o(i))) {
                return true;
            }
        }
        return false;
    }
}
